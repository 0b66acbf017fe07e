import torch
from torch.func import grad, grad_and_value, jacfwd, jacrev, jvp, vjp, vmap

# The aux output of a torch.func transform: an input returned as it came in is the caller's own
# tensor, a tensor from outside comes back untouched, one computed from the inputs carries the
# outer graph only where it reaches tensors that require grad.
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([0.5, -1.0, 2.0])


def describe(t):
    name = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    return f"is x: {t is x}, is y: {t is y}, grad_fn: {name}, requires_grad: {t.requires_grad}"


def loss_returning(aux):
    return lambda a: ((a**2).sum(), aux(a))


g, aux = grad(loss_returning(lambda a: a), has_aux=True)(x)
print("grad, aux is the input:", g, describe(aux))
g, aux = grad(loss_returning(lambda a: y), has_aux=True)(x)
print("grad, aux from outside:", describe(aux))
g, aux = grad(loss_returning(lambda a: x), has_aux=True)(y)
print("grad, aux x:", describe(aux))
g, aux = grad(loss_returning(lambda a: a * 2), has_aux=True)(x)
print("grad, aux computed from x:", describe(aux))
g, aux = grad(loss_returning(lambda a: a * 2), has_aux=True)(y)
print("grad, aux computed from y:", describe(aux))
g, aux = grad(loss_returning(lambda a: a * x), has_aux=True)(y)
print("grad, aux computed from y and x:", describe(aux))
g, (value, aux) = grad_and_value(loss_returning(lambda a: a), has_aux=True)(x)
print("grad_and_value:", describe(value), "|", describe(aux))
g, (value, aux) = grad_and_value(loss_returning(lambda a: {"y": y, "x": a}), has_aux=True)(y)
print("grad_and_value, dict aux:", describe(aux["y"]), "|", describe(aux["x"]))

out, fn, aux = vjp(lambda a: (a.sin(), a), x, has_aux=True)
print("vjp:", describe(out), "|", describe(aux))
out, fn, aux = vjp(lambda a: (a.sin(), y), x, has_aux=True)
print("vjp, aux from outside:", describe(aux))
out, tangent, aux = jvp(lambda a: (a.sin(), a), (x,), (torch.ones(3),), has_aux=True)
print("jvp:", describe(out), "|", describe(tangent), "|", describe(aux))
out, tangent, aux = jvp(lambda a: (a.sin(), y), (y,), (torch.ones(3),), has_aux=True)
print("jvp, aux from outside:", describe(out), "|", describe(aux))
jac, aux = jacrev(lambda a: (a.sin(), a), has_aux=True)(x)
print("jacrev:", describe(jac), "|", describe(aux))
jac, aux = jacrev(lambda a: (a.sin(), y), has_aux=True)(x)
print("jacrev, aux from outside:", describe(aux))
jac, aux = jacfwd(lambda a: (a.sin(), a), has_aux=True)(x)
print("jacfwd:", describe(jac), "|", describe(aux), aux)
jac, aux = jacfwd(lambda a: (a.sin(), a * 2), has_aux=True)(y)
print("jacfwd, aux computed from y:", describe(aux), aux)
print("vmap of the identity:", describe(vmap(lambda a: a)(y)))
print(
    "vmap of the identity, in_dims=1:",
    vmap(lambda a: a, in_dims=1, out_dims=1)(y.reshape(1, 3)).shape,
)
print("vmap, unmapped output:", describe(vmap(lambda a: (a * 2, y), out_dims=(0, None))(x)[1]))
print(
    "vjp of the identity:", describe(vjp(lambda a: a, x)[0]), "|", describe(vjp(lambda a: a, y)[0])
)
print("jvp of the identity:", describe(jvp(lambda a: a, (x,), (torch.ones(3),))[0]))
print("jvp of the identity, y:", describe(jvp(lambda a: a, (y,), (torch.ones(3),))[0]))
print("grad_and_value, value from y only:", describe(grad_and_value(lambda a: (a * 2).sum())(y)[1]))
