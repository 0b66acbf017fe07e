import torch

x = torch.tensor([[1.0], [2.0]], requires_grad=True)
e = x.expand(2, 3)
print(e)
print(e.grad_fn.name())
print(x.expand(-1, 4).shape, x.expand(3, 2, 2).shape)
e.sum().backward()
print(x.grad)
print(x.expand_as(torch.ones(2, 5)).shape)
try:
    x.expand(3, 3)
except RuntimeError as e2:
    print(type(e2).__name__, e2)
print(torch.tensor(1.0).expand(2, 2))
