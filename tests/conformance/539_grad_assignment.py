import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    x.grad = 1.0
except TypeError as e:
    print(type(e).__name__, e)
try:
    x.grad = [1.0, 2.0]
except TypeError as e:
    print(type(e).__name__, e)
try:
    x.grad = torch.tensor([1.0, 2.0, 3.0])
except RuntimeError as e:
    print(type(e).__name__, e)
x.grad = torch.tensor([0.5, 0.5])
print(x.grad)
(x * 2).sum().backward()
print(x.grad)
x.grad = None
print(x.grad)
