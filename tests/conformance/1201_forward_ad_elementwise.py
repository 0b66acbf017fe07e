# Tangents of elementwise functions, checked against the closed-form derivative.
import math

import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([0.2, 0.7, 1.3, 2.1], dtype=torch.float64)
t = torch.tensor([1.0, -0.5, 0.25, 2.0], dtype=torch.float64)

functions = {
    "sin": torch.sin,
    "cos": torch.cos,
    "exp": torch.exp,
    "log": torch.log,
    "sqrt": torch.sqrt,
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
    "relu": torch.relu,
    "abs": torch.abs,
    "reciprocal": torch.reciprocal,
    "atan": torch.atan,
    "erf": torch.erf,
    "pow3": lambda v: v**3,
    "rpow": lambda v: 2.0**v,
    "softplus": torch.nn.functional.softplus,
    "gelu": torch.nn.functional.gelu,
    "silu": torch.nn.functional.silu,
    "clamp": lambda v: v.clamp(0.5, 1.5),
    "floor": torch.floor,
}

with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    for name, f in functions.items():
        out = f(d)
        print(f"{name:10s}", fwAD.unpack_dual(out).tangent)
    y = torch.sin(d) * torch.exp(-d) + d.log1p() / (1 + d * d)
    print(y)
    manual = []
    for xi, ti in zip(x.tolist(), t.tolist()):
        dy = (math.cos(xi) * math.exp(-xi) - math.sin(xi) * math.exp(-xi)) + (
            1 / (1 + xi) / (1 + xi * xi) - math.log1p(xi) * 2 * xi / (1 + xi * xi) ** 2
        )
        manual.append(round(dy * ti, 10))
    print(manual)
    print([round(v, 10) for v in fwAD.unpack_dual(y).tangent.tolist()])
    two = fwAD.make_dual(torch.tensor([1.5, -0.5]), torch.tensor([0.5, 1.0]))
    other = torch.tensor([2.0, 3.0])
    print(two * other, two / other, torch.atan2(two, other), torch.maximum(two, other * 0))
