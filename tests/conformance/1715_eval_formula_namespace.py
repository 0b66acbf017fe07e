# ruff: noqa: F841 - the locals are read by eval
# Formulas given as strings (a calculus-course pattern): eval with an explicit namespace and
# inside functions that see their local variables, then autograd derivatives of each formula
import math

import torch

formulas = ["x**2 + 3*x", "torch.sin(x) * torch.exp(-x)", "torch.log(1 + x**2)", "x / (1 + abs(x))"]
x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
for text in formulas:
    y = eval(text, {"torch": torch, "x": x, "abs": torch.abs})
    (g,) = torch.autograd.grad(y.sum(), x)
    print(text, "->", y.detach(), g)


def taylor(expr, a, order):
    t = torch.tensor(a, requires_grad=True)
    value = eval(expr, {"torch": torch}, {"x": t})
    terms = [value.item()]
    d = value
    for k in range(1, order + 1):
        (d,) = torch.autograd.grad(d, t, create_graph=True)
        terms.append(d.item() / math.factorial(k))
    return [round(c, 6) for c in terms]


print(taylor("torch.exp(x)", 0.0, 4))
print(taylor("torch.cos(x)", 0.0, 4))


def scaled(k):
    base = torch.tensor([1.0, 2.0])
    return eval("base * k + offset", {"offset": 0.5}, {"base": base, "k": k})


print(scaled(3))


def local_view():
    alpha = 2.0
    beta = torch.tensor([1.0, -1.0])
    return eval("alpha * beta")


print(local_view())
print(eval("x.grad is None"), eval("[v for v in (1, 2, 3) if v > 1]"))
