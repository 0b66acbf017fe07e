# torch.autograd.functional.jacobian with strategy="forward-mode" (vectorize=True), and its checks.
import torch
from torch.autograd.functional import hessian, jacobian


def f(x, y):
    return (x.exp() * y, (x * y).sum(), x.outer(y))


x = torch.tensor([0.5, 1.0, 1.5], dtype=torch.float64)
y = torch.tensor([2.0, 3.0, 0.5], dtype=torch.float64)
forward = jacobian(f, (x, y), strategy="forward-mode", vectorize=True)
reverse = jacobian(f, (x, y))
print(type(forward).__name__, type(forward[0]).__name__, type(reverse).__name__)
for fi, ri in zip(forward, reverse):
    for a, b in zip(fi, ri):
        print(tuple(a.shape), torch.allclose(a, b))
print(forward[2][1])
print(jacobian(lambda a: a.tanh(), x, strategy="forward-mode", vectorize=True))
print(jacobian(lambda a: (a.sin(), a.sum()), x, strategy="forward-mode", vectorize=True))
print(jacobian(lambda a: a.sum() * 0 + 1, x, strategy="forward-mode", vectorize=True))
print(jacobian(lambda a: a @ a, (x,), strategy="forward-mode", vectorize=True))


def attempt(label, **kw):
    try:
        jacobian(lambda a: a * 2, x, **kw)
        print(label, "ok")
    except Exception as e:
        print(label, type(e).__name__ + ":", e)


attempt("not vectorized", strategy="forward-mode")
attempt("unknown strategy", strategy="sideways")
attempt("create_graph", strategy="forward-mode", vectorize=True, create_graph=True)
attempt("strict", strategy="forward-mode", vectorize=True, strict=True)
try:
    hessian(lambda a: (a**3).sum(), x, outer_jacobian_strategy="bogus")
except AssertionError as e:
    print("hessian:", e)
try:
    hessian(lambda a: (a**3).sum(), x, outer_jacobian_strategy="forward-mode")
except NotImplementedError as e:
    print("hessian:", e)
