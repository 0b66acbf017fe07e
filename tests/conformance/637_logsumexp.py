import torch

x = torch.tensor([[1.0, 2.0, 3.0], [1000.0, 1000.0, -1000.0]], requires_grad=True)
out = torch.logsumexp(x, dim=1)
print(out)
print(out.grad_fn.name())
out.sum().backward()
print(x.grad)
print(x.logsumexp(0))
print(x.logsumexp(1, keepdim=True))
