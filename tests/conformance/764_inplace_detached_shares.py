import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.pow(2)
d = y.detach()
d.zero_()
print(y)
try:
    y.exp().sum().backward()
    print(x.grad)
except RuntimeError as e:
    print(type(e).__name__, e)
x.grad = None
z = x.exp()
z.detach().add_(1)
try:
    z.sum().backward()
    print(x.grad)
except RuntimeError as e:
    print(type(e).__name__, e)
