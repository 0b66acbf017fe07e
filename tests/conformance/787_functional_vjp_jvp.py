import torch
from torch.autograd.functional import jvp, vjp


def f(x):
    return x**2 + x.sin()


x = torch.tensor([0.0, 1.0, 2.0])
v = torch.tensor([1.0, 0.5, -1.0])
out, grad = vjp(f, x, v)
print(out)
print(grad)
out, tangent = jvp(f, x, v)
print(out)
print(tangent)
print(vjp(lambda t: t.sum(), x))
print(jvp(lambda a, b: a * b, (x, x), (v, v)))
