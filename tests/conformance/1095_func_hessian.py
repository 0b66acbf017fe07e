import torch
from torch.autograd.functional import hessian as functional_hessian
from torch.func import grad, hessian, jacfwd, jacrev

x = torch.tensor([1.0, 2.0, 3.0])


def f(a):
    return (a**3).sum() + a[0] * a[1] * a[2]


print(hessian(f)(x))
print(jacfwd(jacrev(f))(x))
print(jacrev(jacrev(f))(x))
print(jacrev(grad(f))(x))
print(functional_hessian(f, x))
print(torch.allclose(hessian(f)(x), functional_hessian(f, x)))


def g(a, b):
    return (a**2 * b).sum() + (a * b.sin()).sum()


h = hessian(g, argnums=(0, 1))(x, x)
for i in range(2):
    for j in range(2):
        print(i, j, h[i][j])
print(hessian(g, argnums=1)(x, x))

# a quadratic form: the Hessian is A + A^T
A = torch.tensor([[2.0, 1.0], [0.0, 3.0]], dtype=torch.float64)
q = lambda v: v @ A @ v  # noqa: E731
print(hessian(q)(torch.tensor([1.0, -1.0], dtype=torch.float64)))
print(hessian(lambda m: (m**2).sum())(torch.ones(2, 2)).shape)

try:
    hessian(lambda a: a**2)(x)
except Exception as e:
    print(type(e).__name__, "|", e)
