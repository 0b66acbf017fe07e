# Functions PyTorch lets take numbers keep taking them (d2l's preliminaries)
import torch

x = torch.arange(4.0, requires_grad=True)
y = torch.pow(2, x) + torch.add(x, 2) + torch.mul(3, x) + torch.sub(x, 1, alpha=2)
z = torch.where(x > 1, x, 0.0) + torch.where(x > 2, 1.0, x) + torch.clamp(x, 0.5, 2.5)
(y.sum() + z.sum()).backward()
print(y, z)
print(x.grad)
d = x.detach()
print(torch.div(2, d + 1), torch.remainder(7.0, d + 2), torch.xlogy(2.0, d + 1))
print(y.grad_fn.name(), z.grad_fn.name())
