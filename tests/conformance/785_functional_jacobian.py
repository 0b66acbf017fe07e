import torch
from torch.autograd.functional import jacobian


def f(x):
    return torch.stack([x[0] * x[1], x[0].sin(), x[1] ** 2])


x = torch.tensor([1.0, 2.0])
print(jacobian(f, x))


def g(a, b):
    return a * b + b.exp()


a = torch.tensor([1.0, 2.0])
b = torch.tensor([0.0, 1.0])
print(jacobian(g, (a, b)))
print(torch.autograd.functional.jacobian(lambda t: t.sum(), torch.tensor([1.0, 2.0, 3.0])))
print(jacobian(lambda t: t**2, torch.tensor(3.0)))
print(jacobian(f, x, create_graph=True)[0].requires_grad)
