import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([0.5, -1.5, 4.0], requires_grad=True)

a = x - y
b = x - 2
c = 2 - x
d = 1.5 - x
e = x.sub(y)
f = torch.sub(x, y)
for out in (a, b, c, d, e, f):
    print(out)
    print(type(out.grad_fn).__name__)
(a + b + c + d + e + f).sum().backward()
print(x.grad)
print(y.grad)
