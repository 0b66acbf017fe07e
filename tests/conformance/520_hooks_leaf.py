import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)


def leaf_hook(grad):
    print("leaf grad", grad)
    return grad * 0.5


h = x.register_hook(leaf_hook)
(x * x).sum().backward()
print(x.grad)
h.remove()
(x * x).sum().backward()
print(x.grad)

c = torch.tensor([1.0])
try:
    c.register_hook(lambda g: g)
except RuntimeError as e:
    print(type(e).__name__, e)
