import torch

x = torch.ones(2, 3)
try:
    x.sum(2)
except IndexError as e:
    print(type(e).__name__, e)
try:
    x.mean(-3)
except IndexError as e:
    print(type(e).__name__, e)
try:
    torch.ones(0).max()
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.ones(0).sum())
print(torch.ones(0).mean())
print(torch.ones(0).prod())
