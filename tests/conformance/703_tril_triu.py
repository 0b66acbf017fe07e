import torch

m = torch.arange(1.0, 10.0).reshape(3, 3).requires_grad_()
lo = torch.tril(m)
up = m.triu(1)
print(lo)
print(up)
print(lo.grad_fn.name(), up.grad_fn.name())
(lo + up * 2).sum().backward()
print(m.grad)
print(torch.tril(torch.ones(2, 4), diagonal=-1))
print(torch.triu(torch.ones(3, 2), -1))
