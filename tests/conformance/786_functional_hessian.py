import torch
from torch.autograd.functional import hessian


def f(x):
    return (x[0] ** 2 * x[1] + x[1] ** 3).sum()


print(hessian(f, torch.tensor([1.0, 2.0])))


def g(a, b):
    return (a * b).sum() + (a**2).sum()


print(hessian(g, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))))
print(hessian(lambda t: t.exp().sum(), torch.tensor([0.0, 1.0])))
