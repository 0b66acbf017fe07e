import torch

x = torch.tensor([[1.5, 2.0], [3.0, 4.25]], requires_grad=True)
print(x.tolist())
print(torch.tensor([1, 2, 3]).tolist())
print(torch.tensor(2.5).tolist())
print(torch.tensor(7).item(), type(torch.tensor(7).item()).__name__)
print(torch.tensor([2.5]).item(), type(torch.tensor(2.5).item()).__name__)
print(x.sum().item())
print(torch.tensor(True).item())
try:
    x.item()
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.tensor([0.1, 0.2]).tolist())
