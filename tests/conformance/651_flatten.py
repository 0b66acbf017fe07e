import torch

x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
f = x.flatten()
print(f.shape)
print(f.grad_fn.name())
print(x.flatten(1).shape, torch.flatten(x, 0, 1).shape, x.flatten(start_dim=-2).shape)
(x.flatten(1) * 2).sum().backward()
print(x.grad[1])
print(torch.tensor(5.0).flatten())
