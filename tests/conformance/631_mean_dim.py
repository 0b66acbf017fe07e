import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
print(x.mean(0))
print(x.mean(1))
print(x.mean(dim=-1, keepdim=True))
print(x.mean((0, 1)))
out = x.mean(0)
print(out.grad_fn.name())
(out * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)
