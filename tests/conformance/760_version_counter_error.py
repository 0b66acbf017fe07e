import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
y.add_(1)
try:
    y.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
c = b * b
b += 1
try:
    c.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)

w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
s = w.sigmoid()
s.mul_(2)
try:
    s.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)
