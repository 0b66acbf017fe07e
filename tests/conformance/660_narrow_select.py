import torch

x = torch.arange(12.0).reshape(3, 4).requires_grad_()
n = x.narrow(1, 1, 2)
print(n)
print(n.grad_fn.name())
s = x.select(0, 1)
print(s)
print(s.grad_fn.name())
print(torch.narrow(x, 0, 0, 2).shape, torch.select(x, 1, -1))
(n.sum() + s.sum() * 10).backward()
print(x.grad)
try:
    x.narrow(1, 3, 2)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.select(0, 3)
except IndexError as e:
    print(type(e).__name__, e)
