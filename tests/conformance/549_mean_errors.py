import torch

try:
    torch.tensor([1, 2, 3]).mean()
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.tensor([1, 2, 3]).sum())
print(torch.tensor([1, 2, 3]).float().mean())
print(torch.tensor([True, True, False]).sum())
