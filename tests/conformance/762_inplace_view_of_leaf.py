import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
v = x[:2]
try:
    v.add_(1)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.view(3).mul_(2)
except RuntimeError as e:
    print(type(e).__name__, e)
y = x * 1
yv = y[1:]
yv.mul_(10)
print(y)
print(y.grad_fn.name())
print(yv.grad_fn.name())
y.sum().backward()
print(x.grad)
