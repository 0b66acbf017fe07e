import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x)
print(x * 2)
print(x.sum())
print(x[0])
print(x.detach())
print(x.double() * 2)
print(torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True))
print(x.long())
print(torch.arange(30.0, requires_grad=True))
print((torch.arange(30.0, requires_grad=True) * 2).reshape(3, 10))
print(torch.tensor([[1e-5, 2.0]], requires_grad=True) * 1)
