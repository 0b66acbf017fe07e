import torch
from torch.func import vmap

x = torch.arange(6.0).reshape(2, 3)


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, "|", e)


attempt("float output", lambda: vmap(lambda a: 3.0)(x))
attempt("tuple with float", lambda: vmap(lambda a: (a, 3.0))(x))
attempt("in_dim out of range", lambda: vmap(lambda a: a, in_dims=2)(x))
attempt("in_dims structure", lambda: vmap(lambda a: a, in_dims=(0, 0))(x))
attempt("sizes differ", lambda: vmap(lambda a, b: a + b)(x, torch.ones(3, 3)))
attempt("nothing mapped", lambda: vmap(lambda a, b: a + b, in_dims=(None, None))(x, x))
attempt("float input", lambda: vmap(lambda a: a)(3.0))
attempt("float second input", lambda: vmap(lambda a, b: a * b)(x, 3.0))
attempt("in_dims float", lambda: vmap(lambda a: a, in_dims=1.5)(x))
attempt("in_dims list", lambda: vmap(lambda a: a, in_dims=[0])(x))
attempt("out_dims out of range", lambda: vmap(lambda a: a, out_dims=3)(x))
attempt("batched with out_dims None", lambda: vmap(lambda a: a, out_dims=None)(x))
attempt("zero-dim input", lambda: vmap(lambda a: a)(torch.tensor(1.0)))
attempt("no inputs", lambda: vmap(lambda: x)())
attempt("bad randomness", lambda: vmap(lambda a: a, randomness="bogus")(x))
