import torch

print(torch.tensor([1e-5, 1.0, 100.0]))
print(torch.tensor([1e8, 1.0]))
print(torch.tensor([12345.678, 0.5]))
print(torch.tensor([0.0001, 0.001]))
print(torch.tensor([1e-10]))
print(torch.tensor(123456789.0))
print(torch.tensor(1e-4))
print(torch.tensor([1.0, 1000.0]))
print(torch.tensor([1.5, 1000.0]))
print(torch.tensor([1.0, 100000000.0]))
print(torch.tensor([-1e5, 2.5]))
print(torch.tensor([[1e-3, 1.0], [10.0, 1e4]]))
