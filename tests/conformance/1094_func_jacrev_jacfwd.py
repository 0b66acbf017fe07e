import torch
from torch.func import jacfwd, jacrev

x = torch.tensor([1.0, 2.0, 3.0])
print(jacrev(torch.sin)(x))
print(jacfwd(torch.sin)(x))
print(torch.allclose(jacrev(torch.sin)(x), torch.diag(torch.cos(x))))


def f(a, b):
    return a * b.sum() + a**2


print(jacrev(f)(x, x))
print(jacfwd(f, argnums=1)(x, x))
ja, jb = jacrev(f, argnums=(0, 1))(x, x)
print(ja, jb)
ja, jb = jacfwd(f, argnums=(0, 1))(x, x)
print(ja, jb)

# matrices: output shape + input shape
M = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(jacrev(lambda m: m @ m)(M).shape)
print(jacfwd(lambda m: m @ m)(M)[0, 1])

# several outputs, has_aux, dicts
print(jacrev(lambda a: (a.sin(), a.sum()))(x))
print(jacfwd(lambda a: (a.sin(), a.sum()))(x))
print(jacrev(lambda a: (a.exp(), a.sum()), has_aux=True)(x))
print(jacfwd(lambda a: (a.exp(), a.sum()), has_aux=True)(x))
print(jacrev(lambda d: d["a"] * d["b"])({"a": x, "b": x + 1}))
print(jacrev(lambda a: {"s": a.sin(), "n": (a * a).sum()})(x))
print(jacrev(lambda a: a.sum())(torch.tensor(2.0)))


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, "|", e)


attempt("jacrev float output", lambda: jacrev(lambda a: 3.0)(x))
attempt("jacfwd float output", lambda: jacfwd(lambda a: 3.0)(x))
attempt("jacrev argnum", lambda: jacrev(torch.sin, argnums=2)(x))
attempt("jacfwd argnum", lambda: jacfwd(torch.sin, argnums=3)(x))
attempt("jacrev aux", lambda: jacrev(torch.sin, has_aux=True)(x))
attempt("jacfwd aux", lambda: jacfwd(torch.sin, has_aux=True)(x))
attempt("jacrev float input", lambda: jacrev(torch.sin)(3.0))
attempt("jacrev int output", lambda: jacrev(lambda a: a.int())(x))
