import torch

x = torch.tensor([0.0, 0.5, 1.0, -2.0], requires_grad=True)
s = x.sin()
c = torch.cos(x)
t = x.tanh()
print(s)
print(c)
print(t)
print(s.grad_fn.name(), c.grad_fn.name(), t.grad_fn.name())
s.sum().backward()
print(x.grad)
x.grad = None
c.sum().backward()
print(x.grad)
x.grad = None
t.sum().backward()
print(x.grad)
