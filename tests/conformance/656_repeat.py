import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
r = x.repeat(2, 3)
print(r)
print(r.grad_fn.name())
r.sum().backward()
print(x.grad)
print(x.repeat(3))
print(torch.tensor([[1, 2]]).repeat(2, 1))
try:
    torch.ones(2, 2).repeat(2)
except RuntimeError as e:
    print(type(e).__name__, e)
