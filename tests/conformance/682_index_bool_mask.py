import torch

x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], requires_grad=True)
mask = x > 0
print(mask)
pos = x[mask]
print(pos)
print(pos.grad_fn.name())
(pos * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)
print(x[torch.tensor([True, False])])
print(x[:, torch.tensor([False, True, True])])
print(x[x < -10])
print(x[x < -10].shape)
