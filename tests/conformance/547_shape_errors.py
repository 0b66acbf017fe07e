import torch

a = torch.ones(2, 3)
b = torch.ones(2, 3)
try:
    torch.mm(a, b)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    a @ b
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    a + torch.ones(4)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.ones(3) @ torch.ones(4)
except RuntimeError as e:
    print(type(e).__name__, e)
print((a @ b.t()).shape)
