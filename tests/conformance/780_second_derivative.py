import torch

x = torch.tensor(2.0, requires_grad=True)
y = x**3
(dy,) = torch.autograd.grad(y, x, create_graph=True)
print(dy)
print(dy.grad_fn.name(), dy.requires_grad)
(d2y,) = torch.autograd.grad(dy, x)
print(d2y)

x = torch.tensor([0.5, 1.0], requires_grad=True)
y = (x.sin() * x).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g)
g.sum().backward()
print(x.grad)

w = torch.tensor(3.0, requires_grad=True)
loss = w**4
loss.backward(create_graph=True)
print(w.grad)
print(w.grad.requires_grad, w.grad.grad_fn.name())
gw = w.grad
w.grad = None
gw.backward()
print(w.grad)
