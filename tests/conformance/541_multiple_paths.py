import torch

x = torch.tensor(3.0, requires_grad=True)
y = x * x + 2 * x + x.exp() * 0 + x / x
print(y)
y.backward()
print(x.grad)

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
c = b + b * b
d = c.sum() + b.sum()
d.backward()
print(a.grad)
