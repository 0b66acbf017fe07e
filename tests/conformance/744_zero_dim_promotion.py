import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([1.0, 2.0, 3.0])
print((i + torch.tensor(2.5)).dtype)
print((f + torch.tensor(2, dtype=torch.int64)).dtype)
print((f + torch.tensor(2.0, dtype=torch.float64)).dtype)
print((i + torch.tensor([2.5])).dtype)
print((f.to(torch.float64) + torch.tensor(2.0)).dtype)
print((torch.tensor(3) * torch.tensor(2.0)).dtype)
print(torch.tensor(3) * torch.tensor(2.0))
