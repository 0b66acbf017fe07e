import torch
from torch.func import grad, jacrev, vjp, vmap

# the transforms compose with regular autograd: inputs that require grad stay connected
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
g = grad(lambda t: (t**3).sum())(x)
print(g)
print(g.requires_grad)
g.sum().backward()
print(x.grad)

x.grad = None
w = torch.tensor([2.0, -1.0, 0.5], requires_grad=True)
g = grad(lambda t: (t * w).sum())(x.detach())
print(g, g.requires_grad)
g.pow(2).sum().backward()
print(w.grad)

plain = torch.tensor([1.0, 2.0, 3.0])
g = grad(lambda t: (t**3).sum())(plain)
print(g, g.requires_grad, plain.requires_grad)

# vmap of grad: one gradient per row
print(vmap(grad(lambda t: (t**2).sum() * t[0]))(torch.arange(6.0).reshape(2, 3)))

# jacobian of a function that keeps a closure over a tensor requiring grad
scale = torch.tensor(3.0, requires_grad=True)
j = jacrev(lambda t: t * scale)(plain)
print(j)
j.trace().backward()
print(scale.grad)

# grad inside a loop of an optimisation
theta = torch.tensor([0.0, 0.0])
target = torch.tensor([1.0, -2.0])
loss_grad = grad(lambda p: ((p - target) ** 2).sum())
for step in range(5):
    theta = theta - 0.25 * loss_grad(theta)
    print(step, theta)

# vjp with cotangents requiring grad keeps the graph
v = torch.ones(3, requires_grad=True)
_, fn = vjp(lambda t: t * 2, plain)
(r,) = fn(v)
print(r)
