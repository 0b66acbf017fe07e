import torch

print(torch.tensor(3))
print(torch.tensor(3.5))
print(torch.tensor([1, 2, 3]))
print(torch.tensor([1.0, 2, 3]))
print(torch.tensor([[1, 2], [3, 4]], dtype=torch.float32))
print(torch.tensor([1, 2], dtype=torch.float64))
print(torch.tensor([True, False]))
print(torch.tensor([1.5, 2.5], requires_grad=True))
print(torch.tensor(2.0, dtype=torch.float64, requires_grad=True))
print(torch.Tensor([1, 2, 3]))
print(torch.Tensor([[1, 2], [3, 4]]))
print(torch.Tensor(2, 3).shape)
print(torch.Tensor([1, 2]).dtype, torch.tensor([1, 2]).dtype, torch.tensor([1.0]).dtype)
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.tensor([]))
print(torch.tensor([[1.0, 2.0]]).shape)
