import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
try:
    y.backward()
except RuntimeError as e:
    print(type(e).__name__, e)
print(x.grad)
y.backward(torch.tensor([1.0, 0.5, 0.0]))
print(x.grad)
try:
    y.backward(torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, e)
one = torch.tensor([2.0], requires_grad=True)
(one * 3).backward()
print(one.grad)
