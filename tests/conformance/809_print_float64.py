import torch

print(torch.tensor([1.0, 2.5], dtype=torch.float64))
print(torch.tensor(1 / 3, dtype=torch.float64))
print(torch.tensor([1e-10, 1.0], dtype=torch.float64))
print(torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True))
print(torch.tensor([1.0, 2.0], dtype=torch.float64) * torch.tensor(2.0, requires_grad=True))
print(torch.tensor([1, 2], dtype=torch.int32) + 0)
