import torch

x = torch.tensor([-1.0, 0.0, 0.5, 2.0], requires_grad=True)
s = torch.sinh(x)
c = x.cosh()
print(s)
print(c)
print(s.grad_fn.name(), c.grad_fn.name())
(s + 2 * c).sum().backward()
print(x.grad)
print(c * c - s * s)
