import torch

print(torch.tensor([]))
print(torch.zeros(0, 3))
print(torch.zeros(2, 0))
print(torch.zeros(0, dtype=torch.int64))
print(torch.zeros(0, requires_grad=True))
print(torch.zeros(0, 2, dtype=torch.float64))
print(torch.ones(3)[3:])
