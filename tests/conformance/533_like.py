import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
print(torch.ones_like(x))
print(torch.zeros_like(x))
print(torch.ones_like(x).requires_grad)
print(torch.zeros_like(x, requires_grad=True))
print(torch.ones_like(x, dtype=torch.int64))
i = torch.tensor([1, 2, 3])
print(torch.zeros_like(i))
print(torch.ones_like(i, dtype=torch.float32))
