# torch.special: the aliases keep the grad_fn PyTorch shows for them (expit is a sigmoid, round
# the decimals overload, ndtr a composite ending in a product), and its own ops (i1, entr,
# log_ndtr, ndtri, xlog1py) with their gradients, tails and integer inputs
import math

import torch
import torch.special
from torch.special import expit, ndtr

x = torch.tensor([-2.5, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
p = torch.tensor([0.0, 0.1, 0.5, 0.9, 1.0], requires_grad=True)
ints = torch.tensor([0, 1, 2])
S = torch.special
unary = [
    ("expit", S.expit),
    ("erf", S.erf),
    ("erfc", S.erfc),
    ("expm1", S.expm1),
    ("exp2", S.exp2),
    ("log1p", S.log1p),
    ("gammaln", S.gammaln),
    ("digamma", S.digamma),
    ("psi", S.psi),
    ("i0", S.i0),
    ("i1", S.i1),
    ("sinc", S.sinc),
    ("round", S.round),
    ("entr", S.entr),
    ("ndtr", S.ndtr),
    ("log_ndtr", S.log_ndtr),
]
for name, fn in unary:
    y = fn(x)
    print(name, y, [type(n).__name__ for n, _ in y.grad_fn.next_functions])
    if name != "round":
        print(name, "int", fn(ints))
for name, fn in [("logit", S.logit), ("erfinv", S.erfinv), ("ndtri", S.ndtri)]:
    y = fn(p)
    (g,) = torch.autograd.grad(y.sum(), p)
    print(name, y, g)
print(expit(ints), ndtr(x))
print(torch.special.polygamma(1, x), torch.special.multigammaln(x + 3, 2))
print(torch.special.logit(p, eps=0.2), torch.special.round(x, decimals=1))
print(torch.special.xlogy(x, p), torch.special.xlogy(2, p), torch.special.xlogy(x, 2))
print(torch.special.xlog1py(x, p), torch.special.xlog1py(2, p), torch.special.xlog1py(x, 2))
print(torch.special.xlog1py(torch.tensor([0.0, 0.0]), torch.tensor([math.nan, -1.0])))
print(torch.special.logsumexp(x, 0), torch.special.logsumexp(x, dim=0, keepdim=True))
print(torch.special.softmax(x, 0), torch.special.log_softmax(x, 0, dtype=torch.float64))

t = torch.tensor([-40.0, -10.0, -1.0, 0.0, 3.0, 10.0], dtype=torch.float64, requires_grad=True)
y = torch.special.log_ndtr(t)
print(y, torch.autograd.grad(y.sum(), t))
q = torch.tensor([1e-300, 1e-10, 0.3, 0.975, 1.0], dtype=torch.float64, requires_grad=True)
y = torch.special.ndtri(q)
print(y, torch.autograd.grad(y.sum(), q))
e = torch.tensor([0.0, 0.5, 1.0, -1.0, math.inf], requires_grad=True)
y = torch.special.entr(e)
print(y, torch.autograd.grad(y.sum(), e))
z = torch.tensor([-3.0, 0.0, 2.5], requires_grad=True)
y = torch.special.i1(z)
print(y, torch.autograd.grad(y.sum(), z, create_graph=True))

for bad in [
    lambda: torch.special.round(ints),
    lambda: torch.special.logsumexp(x),
    lambda: torch.special.polygamma(1.5, x),
]:
    try:
        bad()
    except Exception as err:
        print(type(err).__name__, err)
