import torch

x = torch.tensor([1.0, -2.0, 0.0], requires_grad=True)
y = -x
z = x.neg()
w = torch.neg(x)
print(y)
print(z)
print(w)
(y * torch.tensor([1.0, 2.0, 3.0]) + z + w).sum().backward()
print(x.grad)
print(-(-x))  # noqa: B002
