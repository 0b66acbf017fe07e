import torch

print(torch.arange(24).reshape(2, 3, 4))
print(torch.arange(12.0).reshape(3, 2, 2) / 4)
print(torch.ones(2, 1, 2, requires_grad=True))
print(torch.arange(16.0).reshape(2, 2, 2, 2))
print(torch.zeros(1, 1, 1))
