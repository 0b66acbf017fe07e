import torch

x = torch.arange(6.0).reshape(2, 3).requires_grad_()
f = x.flip(0)
print(f)
print(x.flip(1))
print(torch.flip(x, [0, 1]))
print(f.grad_fn.name())
(x.flip(1) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)
