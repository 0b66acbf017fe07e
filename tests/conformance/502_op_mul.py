import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([0.5, -1.5, 4.0], requires_grad=True)

a = x * y
b = x * 3
c = 3 * x
d = x * 0.5
e = x.mul(y)
f = torch.mul(x, y)
for out in (a, b, c, d, e, f):
    print(out)
(a + b + c + d + e + f).sum().backward()
print(x.grad)
print(y.grad)
