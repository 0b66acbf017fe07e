import torch

x = torch.tensor([[[1.0], [2.0], [3.0]]], requires_grad=True)
print(x.shape)
s = x.squeeze()
print(s, s.shape)
print(x.squeeze(0).shape, x.squeeze(2).shape, x.squeeze(1).shape, x.squeeze(-1).shape)
u = s.unsqueeze(0)
print(u, u.shape)
print(s.unsqueeze(1).shape, s.unsqueeze(-1).shape, torch.unsqueeze(s, 0).shape)
print(s.grad_fn.name(), u.grad_fn.name(), x.squeeze(0).grad_fn.name())
(u * torch.tensor([[1.0, 2.0, 3.0]])).sum().backward()
print(x.grad)
print(s[None].shape, s[:, None].shape)
