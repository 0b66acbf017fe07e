import torch

x = torch.tensor(1.5, requires_grad=True)
y = x.exp() * x**4
grads = []
g = y
for order in range(1, 4):
    (g,) = torch.autograd.grad(g, x, create_graph=True)
    grads.append(g)
    print(order, g)
t = torch.tensor([1.0, 2.0], requires_grad=True)
f = (t.tanh() ** 2).sum()
(g1,) = torch.autograd.grad(f, t, create_graph=True)
(g2,) = torch.autograd.grad(g1.sum(), t, create_graph=True)
(g3,) = torch.autograd.grad(g2.sum(), t)
print(g1)
print(g2)
print(g3)
