import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
try:
    x += 1
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.mul_(2)
except RuntimeError as e:
    print(type(e).__name__, e)
print(x)

with torch.no_grad():
    x += 1
    x.mul_(2)
print(x)
print(x.requires_grad, x.is_leaf, x.grad_fn)

x.data += 1
print(x)

c = torch.tensor([1.0, 2.0])
c += 1
print(c)
