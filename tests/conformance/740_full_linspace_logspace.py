import torch

print(torch.full((2, 3), 7.0))
print(torch.full((2,), 3))
print(torch.full((2, 2), 1.5, dtype=torch.float64))
print(torch.full((3,), 2.0, requires_grad=True))
print(torch.full_like(torch.ones(2), 4.0))
print(torch.linspace(0, 1, 5))
print(torch.linspace(-1, 1, steps=4))
print(torch.linspace(0, 10, 1))
print(torch.logspace(0, 2, 3))
print(torch.logspace(0, 3, 4, base=2))
print(torch.linspace(0, 1, 3, requires_grad=True))
print(torch.empty(2, 3).shape)
