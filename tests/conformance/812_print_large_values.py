import torch

print(torch.tensor([1e8, 2e8]))
print(torch.tensor([123456789.0, 1.0]))
print(torch.tensor([1e15]))
print(torch.tensor([1e20, -1e20]))
print(torch.tensor([3e38]))
print(torch.tensor([1e-38, 1.0]))
print(torch.tensor([1234.5, 6789.25]))
print(torch.tensor([1000.0, 2000.0]))
print(torch.tensor([0.001, 1000.0]))
print(torch.tensor([0.001, 1001.0]))
