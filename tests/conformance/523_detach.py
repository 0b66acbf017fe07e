import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
d = y.detach()
print(d)
print(d.requires_grad, d.is_leaf, d.grad_fn)
d[0] = 100.0
print(y)
z = d * x
z.sum().backward()
print(x.grad)
e = x.detach()
print(e.requires_grad, e is x)
print(e)
f = y.detach().requires_grad_()
print(f.requires_grad, f.is_leaf)
