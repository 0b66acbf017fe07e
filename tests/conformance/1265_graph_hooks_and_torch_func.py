# torch.func's reverse-mode transforms refuse saved-tensor hooks around or inside them, as PyTorch;
# vmap, jvp and jacfwd run under them.
import torch
from torch.autograd.graph import saved_tensors_hooks
from torch.func import grad, grad_and_value, hessian, jacfwd, jacrev, jvp, vjp, vmap


def f(t):
    return (t.sin() * t).sum()


x = torch.tensor([0.5, 1.0])
calls = [
    ("grad", lambda: grad(f)(x)),
    ("grad_and_value", lambda: grad_and_value(f)(x)),
    ("vjp", lambda: vjp(f, x)),
    ("jacrev", lambda: jacrev(f)(x)),
    ("hessian", lambda: hessian(f)(x)),
    ("vmap", lambda: vmap(torch.sin)(x)),
    ("jvp", lambda: jvp(f, (x,), (x,))),
    ("jacfwd", lambda: jacfwd(f)(x)),
]
for name, call in calls:
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        try:
            print(name, call())
        except RuntimeError as e:
            print(name, "RuntimeError:", e)


def g(t):
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        return (t.sin() * t).sum()


try:
    print(grad(g)(x))
except RuntimeError as e:
    print("inside grad, RuntimeError:", e)
print(grad(f)(x))
with saved_tensors_hooks(lambda t: t, lambda t: t):
    y = x.requires_grad_().sin()
print(y)
