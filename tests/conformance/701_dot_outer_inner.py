import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, -5.0, 6.0], requires_grad=True)
d = torch.dot(a, b)
print(d)
print(d.grad_fn.name())
d.backward()
print(a.grad, b.grad)
a.grad = None
b.grad = None
o = torch.outer(a, b)
print(o)
print(o.grad_fn.name())
o.sum().backward()
print(a.grad, b.grad)
i = torch.inner(a, b)
print(i)
print(torch.inner(torch.ones(2, 3), torch.ones(4, 3)).shape)
print(a.dot(b), a.outer(b).shape)
try:
    torch.dot(a, torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, e)
