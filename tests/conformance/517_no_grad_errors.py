import torch

a = torch.tensor([1.0, 2.0])
try:
    a.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = (x * 2).sum()
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__, e)

z = (x.detach() * 3).sum()
try:
    z.backward()
except RuntimeError as e:
    print(type(e).__name__, e)

try:
    torch.autograd.grad((a * 2).sum(), a)
except RuntimeError as e:
    print(type(e).__name__, e)

u = torch.tensor(1.0, requires_grad=True)
v = torch.tensor(2.0, requires_grad=True)
try:
    torch.autograd.grad(u * 2, v)
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.autograd.grad(u * 2, [u, v], allow_unused=True))
