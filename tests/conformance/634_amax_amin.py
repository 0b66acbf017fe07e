import torch

x = torch.tensor([[1.0, 5.0, 5.0], [4.0, 2.0, 6.0]], requires_grad=True)
a = x.amax(1)
print(a)
print(a.grad_fn.name())
a.sum().backward()
print(x.grad)
x.grad = None
b = torch.amin(x, dim=0, keepdim=True)
print(b)
b.sum().backward()
print(x.grad)
print(x.amax(), x.amin((0, 1)))
