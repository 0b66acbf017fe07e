import math

import torch

# Each op's gradient written by hand in the order of operations of PyTorch's derivatives.yaml
# formula, compared bit for bit with autograd's (`torch.equal`). Where PyTorch's kernel rounds
# differently from the formula (tanh's 1 - y² rounded once, by a fused multiply-add) the
# comparison is False in PyTorch and must be False here too. (softmax and log_softmax are left
# out: PyTorch's kernels sum in vector lanes whose width depends on the CPU.)
torch.manual_seed(0)


def sum_to(g, like):
    dims = [i for i, (s, n) in enumerate(zip(g.shape, like.shape)) if n == 1 and s != 1]
    return g.sum(dims, keepdim=True) if dims else g


CASES = {
    "mul": (lambda a, b: a * b, ("x", "x"), lambda g, a, b, r: [g * b, g * a]),
    "mul, broadcast column": (
        lambda a, b: a * b,
        ("x", "col"),
        lambda g, a, b, r: [g * b, sum_to(g * a, b)],
    ),
    "div": (lambda a, b: a / b, ("x", "pos"), lambda g, a, b, r: [g / b, -g * ((a / b) / b)]),
    "div, broadcast column": (
        lambda a, b: a / b,
        ("x", "colpos"),
        lambda g, a, b, r: [g / b, sum_to(-g * ((a / b) / b), b)],
    ),
    "pow 2": (lambda a: a**2, ("x",), lambda g, a, r: [g * (2 * a**1)]),
    "pow 3": (lambda a: a**3, ("x",), lambda g, a, r: [g * (3 * a**2)]),
    "pow -1": (lambda a: a**-1, ("pos",), lambda g, a, r: [g * (-1 * a**-2)]),
    "pow -1, as a student writes it": (lambda a: a**-1, ("pos",), lambda g, a, r: [(-(a**-2)) * g]),
    "pow -2": (lambda a: a**-2, ("pos",), lambda g, a, r: [g * (-2 * a**-3)]),
    "pow 0.5": (lambda a: a**0.5, ("pos",), lambda g, a, r: [g * (0.5 * a**-0.5)]),
    "pow -0.5": (lambda a: a**-0.5, ("pos",), lambda g, a, r: [g * (-0.5 * a**-1.5)]),
    "pow 1.5": (lambda a: a**1.5, ("pos",), lambda g, a, r: [g * (1.5 * a**0.5)]),
    "reciprocal": (lambda a: a.reciprocal(), ("pos",), lambda g, a, r: [-g * (r * r)]),
    "exp": (lambda a: a.exp(), ("x",), lambda g, a, r: [g * r]),
    "log": (lambda a: a.log(), ("pos",), lambda g, a, r: [g / a]),
    "log2": (lambda a: a.log2(), ("pos",), lambda g, a, r: [g / (a * math.log(2))]),
    "log1p": (lambda a: a.log1p(), ("pos",), lambda g, a, r: [g / (a + 1)]),
    "expm1": (lambda a: a.expm1(), ("x",), lambda g, a, r: [g * (r + 1)]),
    "tanh": (lambda a: a.tanh(), ("x",), lambda g, a, r: [g * (1 - r * r)]),
    "sigmoid": (lambda a: a.sigmoid(), ("x",), lambda g, a, r: [g * (1 - r) * r]),
    "sqrt": (lambda a: a.sqrt(), ("pos",), lambda g, a, r: [g / (2 * r)]),
    "rsqrt": (lambda a: a.rsqrt(), ("pos",), lambda g, a, r: [-0.5 * g * r**3]),
    "sin": (lambda a: a.sin(), ("x",), lambda g, a, r: [g * a.cos()]),
    "cos": (lambda a: a.cos(), ("x",), lambda g, a, r: [g * -a.sin()]),
    "sub, broadcast column": (
        lambda a, b: a - b,
        ("x", "col"),
        lambda g, a, b, r: [g, (-g).sum(1, keepdim=True)],
    ),
    "add, broadcast row": (
        lambda a, b: a + b,
        ("x", "row"),
        lambda g, a, b, r: [g, g.sum(0, keepdim=True)],
    ),
    "sum(1, keepdim)": (
        lambda a: a.sum(1, keepdim=True),
        ("x",),
        lambda g, a, r: [torch.ones_like(a) * g],
    ),
    "mean": (lambda a: a.mean(), ("x",), lambda g, a, r: [g.expand(a.shape) / a.numel()]),
    "mean(0)": (lambda a: a.mean(0), ("x",), lambda g, a, r: [g.expand(a.shape) / a.shape[0]]),
    "var(0)": (
        lambda a: a.var(0, keepdim=True),
        ("x",),
        lambda g, a, r: [(2.0 / (a.shape[0] - 1)) * g * (a - a.mean(0, True))],
    ),
    "std(0)": (
        lambda a: a.std(0, keepdim=True),
        ("x",),
        lambda g, a, r: [(2.0 / (a.shape[0] - 1)) * (g / (r * 2)) * (a - a.mean(0, True))],
    ),
    "max(1)": (
        lambda a: a.max(1, keepdim=True).values,
        ("x",),
        lambda g, a, r: [torch.zeros_like(a).scatter(1, a.max(1, keepdim=True).indices, g)],
    ),
    "matmul": (lambda a, b: a @ b, ("x", "matrix"), lambda g, a, b, r: [g @ b.T, a.T @ g]),
}

for dtype in (torch.float32, torch.float64):
    inputs = {
        "x": torch.randn(32, 27, dtype=dtype),
        "pos": torch.rand(32, 27, dtype=dtype) + 0.1,
        "col": torch.randn(32, 1, dtype=dtype),
        "colpos": torch.rand(32, 1, dtype=dtype) + 0.1,
        "row": torch.randn(1, 27, dtype=dtype),
        "matrix": torch.randn(27, 16, dtype=dtype),
    }
    print(dtype)
    for name, (forward, kinds, by_hand) in CASES.items():
        xs = [inputs[k].clone().requires_grad_() for k in kinds]
        out = forward(*xs)
        g = torch.randn(out.shape, dtype=dtype) * 0.1
        out.backward(g)
        with torch.no_grad():
            grads = by_hand(g, *[x.detach() for x in xs], out.detach())
        print(f"  {name:32s}", [torch.equal(x.grad, d) for x, d in zip(xs, grads)])
