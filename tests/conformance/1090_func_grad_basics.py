import torch
from torch.func import grad, grad_and_value

# torch.func.grad: the gradient of a scalar function, as a new function
x = torch.tensor([0.5, -1.0, 2.0])
print(grad(torch.sin)(torch.tensor(1.0)))
print(grad(lambda t: (t**3).sum())(x))
print(grad(lambda t: torch.tanh(t).sum())(x))

# higher derivatives by composition
f = lambda t: torch.sin(t)  # noqa: E731
print(grad(grad(f))(torch.tensor(1.0)))
print(grad(grad(grad(f)))(torch.tensor(1.0)))


# argnums: which positional argument(s)
def loss(w, b, inputs, target):
    return ((inputs @ w + b - target) ** 2).mean()


w = torch.tensor([1.0, -2.0])
b = torch.tensor(0.5)
inputs = torch.tensor([[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5]])
target = torch.tensor([1.0, 0.0, 2.0])
print(grad(loss)(w, b, inputs, target))
print(grad(loss, argnums=1)(w, b, inputs, target))
gw, gb = grad(loss, argnums=(0, 1))(w, b, inputs, target)
print(gw, gb)
print(grad(loss, argnums=-1)(w, b, inputs, target))


# has_aux: a second output carried along
def loss_with_aux(w):
    pred = inputs @ w
    return ((pred - target) ** 2).sum(), pred


g, pred = grad(loss_with_aux, has_aux=True)(w)
print(g, pred)
g, (value, pred) = grad_and_value(loss_with_aux, has_aux=True)(w)
print(g, value, pred)
print(grad_and_value(lambda t: (t * t).sum())(x))

# dicts and lists of parameters
params = {"w": w, "b": b}
print(grad(lambda p: ((inputs @ p["w"] + p["b"]) ** 2).sum())(params))
print(grad(lambda ps: (ps[0] * ps[1]).sum())([x, x * 2]))

# unused inputs get zeros; outer no_grad does not stop grad
print(grad(lambda t, u: (u * 3).sum(), argnums=0)(x, x))
with torch.no_grad():
    print(grad(lambda t: (t**2).sum())(x))

# float64 stays float64
print(grad(lambda t: (t.exp() * t).sum())(torch.tensor([0.1, 0.2], dtype=torch.float64)))
