import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([2.0, 0.5, -1.0], requires_grad=True)

a = x**2
b = 2**x
c = x**y
d = x**0.5
e = x.pow(3)
f = torch.pow(x, y)
for out in (a, b, c, d, e, f):
    print(out)
    print(out.grad_fn.name())
(a + b + c + d + e + f).sum().backward()
print(x.grad)
print(y.grad)
