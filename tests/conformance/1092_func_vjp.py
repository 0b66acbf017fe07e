import torch
from torch.func import vjp

x = torch.tensor([1.0, 2.0, 3.0])
out, vjp_fn = vjp(torch.sin, x)
print(out)
print(vjp_fn(torch.ones(3)))
print(vjp_fn(torch.tensor([1.0, 0.0, -1.0])))
(g,) = vjp_fn(torch.ones(3))
print(torch.allclose(g, torch.cos(x)))

# several primals, several outputs
out, vjp_fn = vjp(lambda a, b: (a * b, a + b), x, x * 2)
print(out)
print(vjp_fn((torch.ones(3), torch.ones(3))))
print(vjp_fn((torch.ones(3), torch.zeros(3))))

# dict outputs and inputs
out, vjp_fn = vjp(lambda p: {"y": p["w"] * 3, "z": p["w"].sum()}, {"w": x})
print(out)
print(vjp_fn({"y": torch.ones(3), "z": torch.tensor(2.0)}))

# has_aux
out, vjp_fn, aux = vjp(lambda a: (a.exp(), a.log()), x, has_aux=True)
print(out, aux)
print(vjp_fn(torch.ones(3)))


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, "|", e)


out, vjp_fn = vjp(torch.sin, x)
attempt("wrong shape", lambda: vjp_fn(torch.ones(2)))
attempt("tuple for tensor", lambda: vjp_fn((torch.ones(3),)))
attempt("list for tensor", lambda: vjp_fn([torch.ones(3)]))
_, vjp_fn2 = vjp(lambda a: (a * 2, a * 3), x)
attempt("tensor for tuple", lambda: vjp_fn2(torch.ones(3)))
attempt("aux missing", lambda: vjp(lambda a: a.sin(), x, has_aux=True))
attempt("int output", lambda: vjp(lambda a: 3, x))
attempt("int dtype output", lambda: vjp(lambda a: a.int(), x))
attempt("float primal", lambda: vjp(lambda a: a.sin(), 3.0))
