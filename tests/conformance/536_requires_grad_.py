import torch

x = torch.tensor([1.0, 2.0])
print(x.requires_grad)
r = x.requires_grad_()
print(x.requires_grad, r is x)
print(x)
x.requires_grad_(False)
print(x.requires_grad)
x.requires_grad = True
print(x.requires_grad)
(x * 2).sum().backward()
print(x.grad)

y = x * 2
try:
    y.requires_grad_(False)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print(type(e).__name__, e)
