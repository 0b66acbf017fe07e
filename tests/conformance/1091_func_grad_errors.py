import torch
from torch.func import grad, grad_and_value

x = torch.tensor([1.0, 2.0, 3.0])


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, "|", e)


attempt("non-scalar", lambda: grad(lambda t: t * 2)(x))
attempt("one-element", lambda: grad(lambda t: t.sum().reshape(1))(x))
attempt("python float", lambda: grad(lambda t: 3.0)(x))
attempt("item", lambda: grad(lambda t: t.sum().item())(x))
attempt("tuple out", lambda: grad(lambda t: (t.sum(), 2))(x))
attempt("argnum too big", lambda: grad(lambda t: t.sum(), argnums=1)(x))
attempt("argnum negative", lambda: grad(lambda t, u: t.sum(), argnums=-3)(x, x))
attempt("argnums float", lambda: grad(lambda t: t.sum(), argnums=1.5)(x))
attempt("argnums list", lambda: grad(lambda t, u: t.sum(), argnums=[0, 1])(x, x))
attempt("argnums empty", lambda: grad(lambda t: t.sum(), argnums=())(x))
attempt("argnums repeated", lambda: grad(lambda t, u: t.sum(), argnums=(0, 0))(x, x))
attempt("argnums element", lambda: grad(lambda t, u: t.sum(), argnums=(0, 1.0))(x, x))
attempt("no inputs", lambda: grad(lambda t: t.sum())())
attempt("float input", lambda: grad(lambda t: t * 2)(3.0))
attempt("int tensor", lambda: grad(lambda t: t.sum())(torch.tensor([1, 2])))
attempt("aux not tuple", lambda: grad(lambda t: t.sum(), has_aux=True)(x))
attempt("aux one item", lambda: grad(lambda t: (t.sum(),), has_aux=True)(x))
attempt("aux list", lambda: grad(lambda t: [t.sum(), t], has_aux=True)(x))
attempt("aux float", lambda: grad(lambda t: (t.sum(), 3.5), has_aux=True)(x))
attempt("aux None", lambda: grad(lambda t: (t.sum(), None), has_aux=True)(x))
attempt("value non-scalar", lambda: grad_and_value(lambda t: t**2)(x))
attempt("detached", lambda: grad(lambda t: (t.detach() * 2).sum())(x))
attempt("constant", lambda: grad(lambda t: torch.ones(()))(x))
