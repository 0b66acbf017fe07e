import torch
from torch.func import jvp

x = torch.tensor([1.0, 2.0, 3.0])
v = torch.tensor([1.0, 0.0, -1.0])
out, tangent = jvp(torch.sin, (x,), (v,))
print(out, tangent)
print(torch.allclose(tangent, torch.cos(x) * v))

# two primals
print(jvp(lambda a, b: a * b, (x, x * 2), (torch.ones(3), torch.zeros(3))))
# tuple outputs
print(jvp(lambda a: (a.exp(), (a**2).sum()), (x,), (v,)))
# has_aux
print(jvp(lambda a: (a.sin(), a.cos()), (x,), (v,), has_aux=True))
# a linear function: the tangent is pushed exactly
A = torch.tensor([[1.0, 2.0, 0.0], [0.0, -1.0, 3.0]])
print(jvp(lambda a: A @ a, (x,), (v,)))
# an output not depending on the input
print(jvp(lambda a: torch.ones(2), (x,), (v,)))
# float64
print(jvp(lambda a: a.log(), (x.double(),), (v.double(),)))


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, "|", e)


attempt("primals not tuple", lambda: jvp(torch.sin, x, v))
attempt("primals list", lambda: jvp(torch.sin, [x], [v]))
attempt("tangent size", lambda: jvp(torch.sin, (x,), (torch.ones(2),)))
attempt("structure", lambda: jvp(torch.sin, (x,), (v, v)))
attempt("tangents tensor", lambda: jvp(torch.sin, (x,), v))
attempt("empty", lambda: jvp(lambda: x, (), ()))
attempt("aux missing", lambda: jvp(lambda a: a.sin(), (x,), (v,), has_aux=True))
attempt("int output", lambda: jvp(lambda a: 3, (x,), (v,)))
attempt("int tangent", lambda: jvp(torch.sin, (x,), (v.int(),)))
attempt("int primal", lambda: jvp(torch.sin, (x.int(),), (v.int(),)))
