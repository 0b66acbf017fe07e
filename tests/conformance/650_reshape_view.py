import torch

x = torch.arange(6.0, requires_grad=True)
r = x.reshape(2, 3)
v = x.view(3, 2)
print(r)
print(v)
print(x.reshape(-1, 2).shape, x.view(2, -1).shape, x.reshape((3, 2)).shape)
print(r.grad_fn.name(), v.grad_fn.name())
(r * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
print(x.grad)
print(torch.reshape(x, (6, 1)).shape)
print(x.view(1, 6).view(6))
print(x.view_as(torch.ones(2, 3)).shape, x.reshape_as(torch.ones(3, 2)).shape)
