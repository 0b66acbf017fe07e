# Full Jacobian and Hessian with torch.autograd.functional, checked against the formulas.
import torch
from torch.autograd.functional import hessian, jacobian


def square(x):
    return x * x


x = torch.tensor([1.0, 2.0, 3.0])
print("jacobian of x*x is diag(2x):")
print(jacobian(square, x))


def cubes(x):
    return (x**3).sum()


print("hessian of sum(x^3) is diag(6x):")
print(hessian(cubes, x))

# the same second derivative by differentiating twice with create_graph
t = torch.tensor(2.0, requires_grad=True)
(first,) = torch.autograd.grad(t**3, t, create_graph=True)
(second,) = torch.autograd.grad(first, t)
print("d/dt t^3 at 2:", first.item(), " d2/dt2:", second.item())
