import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

x = torch.tensor([1.0, 2.0, 3.0])
v = torch.tensor([1.0, -1.0, 0.5])


def f(a):
    return (a**3).sum() + a[0] * a[1]


def g(a):
    return a.sin() * 2


def h(a, b):
    return (a * b**2).sum()


print(vjp(g, x, v))
print(jvp(g, x, v))
print(jvp(lambda a: (a.sin(), a.cos()), x, v))
print(jvp(lambda a, b: a * b, (x, x), (v, v)))
print(jvp(lambda a: a * 2, torch.tensor(2.0)))
print(hvp(f, x, v))
print(vhp(f, x, v))
print(hvp(h, (x, x), (v, v)))
print(vhp(h, (x, x), (v, v)))
print(torch.allclose(hvp(f, x, v)[1], hessian(f, x) @ v))
print(torch.allclose(jvp(g, x, v)[1], jacobian(g, x) @ v))

out, r = jvp(g, x, v, create_graph=True)
print(out.requires_grad, r.requires_grad)
xr = x.clone().requires_grad_()
out, r = hvp(f, xr, v, create_graph=True)
print(out.grad_fn is not None, r.grad_fn is not None)
out, r = hvp(f, xr, v)
print(out.requires_grad, r.requires_grad)
print(hvp(lambda a: a.sum(), x, v))
print(jvp(lambda a: torch.ones(3), x, v))


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, "|", e)


attempt("jvp v None", lambda: jvp(g, x))
attempt("hvp v None", lambda: hvp(f, x))
attempt("vjp v None", lambda: vjp(g, x))
attempt("hvp non-scalar", lambda: hvp(g, x, v))
attempt("vhp non-scalar", lambda: vhp(g, x, v))
attempt("hessian non-scalar", lambda: hessian(g, x))
attempt("hvp strict linear", lambda: hvp(lambda a: a.sum(), x, v, strict=True))
attempt("jvp strict constant", lambda: jvp(lambda a: torch.ones(3), x, v, strict=True))
attempt("vjp strict constant", lambda: vjp(lambda a: torch.ones(()), x, strict=True))
attempt("jvp v size", lambda: jvp(g, x, torch.ones(2)))
attempt("hvp v size", lambda: hvp(f, x, torch.ones(2)))
attempt("vjp v size", lambda: vjp(g, x, torch.ones(2)))
attempt("jvp v length", lambda: jvp(lambda a, b: a * b, (x, x), (v,)))
attempt("jvp float input", lambda: jvp(g, 3.0, v))
attempt("jacobian float in tuple", lambda: jacobian(g, (x, 3.0)))
attempt("jvp float output", lambda: jvp(lambda a: 3.0, x, v))
attempt("hvp float output", lambda: hvp(lambda a: 3.0, x, v))
