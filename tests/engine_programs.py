"""Random expression graphs over the op table, for the property tests (engine alone, against
finite differences) and the comparison with PyTorch.

A program is a list of steps `(name, operand indices)` over a growing pool of values that starts
with leaves of shapes LEAF_SHAPES; each step is a function of a torch-like module `T`, so the same
program is built in the engine and in PyTorch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from engine_cases import to_tensor

LEAF_SHAPES = [(2, 3), (2, 3), (3,), (3,), (), (2, 1)]


def _unary(fn: Callable) -> tuple:
    return (1, lambda shapes: True, fn)


def _binary(fn: Callable) -> tuple:
    return (2, lambda shapes: True, fn)


def _when(arity: int, ok: Callable, fn: Callable) -> tuple:
    return (arity, ok, fn)


# name -> (arity, applicable(shapes), fn(T, *operands)); domains are kept by guards built from
# other table ops, so every intermediate stays finite and every op stays differentiable.
STEPS: dict[str, tuple] = {
    "add": _binary(lambda T, a, b: a + b),
    "sub": _binary(lambda T, a, b: a - b),
    "mul": _binary(lambda T, a, b: a * b),
    "div": _binary(lambda T, a, b: a / (b * b + 0.5)),
    "pow": _binary(lambda T, a, b: (a.abs() + 0.5) ** b.tanh()),
    "add_number": _unary(lambda T, a: 1.5 + a),
    "rsub": _unary(lambda T, a: 2.0 - a),
    "mul_number": _unary(lambda T, a: a * -0.75),
    "div_number": _unary(lambda T, a: a / 3.0),
    "rdiv_number": _unary(lambda T, a: 1.0 / (a * a + 1.0)),
    "neg": _unary(lambda T, a: -a),
    "pow_scalar": _unary(lambda T, a: a**2),
    "pow_fraction": _unary(lambda T, a: (a * a + 0.5) ** 1.5),
    "rpow": _unary(lambda T, a: 2.0 ** a.tanh()),
    "reciprocal": _unary(lambda T, a: (a.abs() + 1).reciprocal()),
    "exp": _unary(lambda T, a: a.tanh().exp()),
    "expm1": _unary(lambda T, a: T.expm1(a.sin())),
    "log": _unary(lambda T, a: (a * a + 1).log()),
    "log2": _unary(lambda T, a: T.log2(a.abs() + 1)),
    "log10": _unary(lambda T, a: T.log10(a.sigmoid())),
    "log1p": _unary(lambda T, a: T.log1p(a * a)),
    "sqrt": _unary(lambda T, a: (a * a + 0.25).sqrt()),
    "rsqrt": _unary(lambda T, a: (a * a + 0.25).rsqrt()),
    "sin": _unary(lambda T, a: a.sin()),
    "cos": _unary(lambda T, a: T.cos(a)),
    "tan": _unary(lambda T, a: (a.tanh() * 1.2).tan()),
    "asin": _unary(lambda T, a: (a.tanh() * 0.9).asin()),
    "acos": _unary(lambda T, a: T.acos(a.sin() * 0.9)),
    "atan": _unary(lambda T, a: a.atan()),
    "sinh": _unary(lambda T, a: a.tanh().sinh()),
    "cosh": _unary(lambda T, a: T.cosh(a.tanh())),
    "tanh": _unary(lambda T, a: a.tanh()),
    "sigmoid": _unary(lambda T, a: T.sigmoid(a)),
    "relu": _unary(lambda T, a: a.relu()),
    "softplus": _unary(lambda T, a: T.nn.functional.softplus(a)),
    "abs": _unary(lambda T, a: a.abs()),
    "erf": _unary(lambda T, a: a.erf()),
    "sign": _unary(lambda T, a: a.sign() * a),
    "floor": _unary(lambda T, a: a + a.floor()),
    "round": _unary(lambda T, a: a - T.round(a)),
    "clone": _unary(lambda T, a: a.clone()),
    "sum_keepdim": _unary(lambda T, a: a.sum(-1, keepdim=True)),
    "sum": _unary(lambda T, a: a.sum()),
    "mean": _unary(lambda T, a: a.mean()),
    "mean0_keepdim": _when(1, lambda s: len(s[0]) >= 1, lambda T, a: a.mean(0, keepdim=True)),
    "sum0": _when(1, lambda s: len(s[0]) == 2, lambda T, a: a.sum(0)),
    "norm": _unary(lambda T, a: (a + 0.1).norm()),
    "max": _unary(lambda T, a: a.max()),
    "min": _when(1, lambda s: len(s[0]) >= 1, lambda T, a: a.min(-1, keepdim=True)[0]),
    "matmul": _when(
        2,
        lambda s: len(s[0]) == 2 and s[0][1] == 3 and s[1] == (2, 3),
        lambda T, a, b: a @ b.t(),
    ),
    "mv": _when(2, lambda s: s[0] == (2, 3) and s[1] == (3,), lambda T, a, b: T.mv(a, b)),
    "dot": _when(2, lambda s: s[0] == (3,) and s[1] == (3,), lambda T, a, b: a @ b),
    "outer_mean": _when(
        2, lambda s: s[0] == (3,) and s[1] == (3,), lambda T, a, b: T.outer(a, b).mean(0)
    ),
    "view": _unary(lambda T, a: a.reshape(-1).view(tuple(a.shape))),
    "unsqueeze_squeeze": _unary(lambda T, a: a.unsqueeze(0).squeeze(0)),
    "transpose_twice": _when(1, lambda s: len(s[0]) == 2, lambda T, a: a.t().transpose(0, 1)),
    # `+ 0`: PyTorch names some later views by the strides of an expanded tensor (reshape of a
    # non-contiguous tensor is ReshapeAliasBackward0); the engine has no strides
    "expand": _when(1, lambda s: s[0] in [(), (3,), (2, 1)], lambda T, a: a.expand(2, 3) + 0),
    "select": _when(1, lambda s: len(s[0]) == 2, lambda T, a: a[-1]),
    "slice": _when(1, lambda s: s[0] == (2, 3), lambda T, a: a[1:]),
    "index": _when(1, lambda s: s[0] == (3,), lambda T, a: a[[2, 0, 0]]),
    "stack_sum": _binary(lambda T, a, b: T.stack([a * b, b - a]).sum(0)),
    "unbind_first": _when(1, lambda s: len(s[0]) >= 1, lambda T, a: a.unbind(0)[0]),
    "where": _binary(lambda T, a, b: T.where(a > b, a, b * 2)),
    "bce": _when(
        2,
        lambda s: s[0] == s[1],
        lambda T, a, b: T.nn.functional.binary_cross_entropy_with_logits(a, b.sigmoid()),
    ),
}


def _shape_after(T: Any, name: str, shapes: list[tuple]) -> tuple | None:
    """The result shape of a step, as the module `T` computes it (None if it does not apply)."""
    arity, ok, fn = STEPS[name]
    if not ok(shapes):
        return None
    try:
        out = fn(T, *[T.zeros(s, dtype=T.float64) for s in shapes])
    except (RuntimeError, IndexError):
        return None
    return tuple(out.shape)


def random_program(seed: int, T: Any) -> list[tuple[str, tuple[int, ...]]]:
    """2-7 steps (step name, operand indices into the growing pool of values); the first operand
    is usually the latest value, so the graphs are deep as well as wide."""
    rng = np.random.RandomState(seed)
    shapes = list(LEAF_SHAPES)
    steps: list[tuple[str, tuple[int, ...]]] = []
    names = sorted(STEPS)
    while len(steps) < 2 + seed % 6:
        name = names[rng.randint(len(names))]
        for attempt in range(10):  # steps with shape requirements need a few tries
            operands = tuple(
                len(shapes) - 1
                if k == 0 and steps and attempt == 0 and rng.rand() < 0.7
                else rng.randint(len(shapes))
                for k in range(STEPS[name][0])
            )
            shape = _shape_after(T, name, [shapes[i] for i in operands])
            if shape is not None:
                steps.append((name, operands))
                shapes.append(shape)
                break
    return steps


def _build(T: Any, program: list, leaf_values: list[np.ndarray]) -> tuple[list, Any]:
    leaves = [to_tensor(T, v, requires_grad=True) for v in leaf_values]
    pool = list(leaves)
    for name, operands in program:
        pool.append(STEPS[name][2](T, *[pool[i] for i in operands]))
    return leaves, pool[-1] if program else pool[0].sum()


def describe(program: list) -> str:
    """`v6 = exp(v0); v7 = add(v6, v2)` (v0-v5 are the leaves, shapes LEAF_SHAPES)."""
    first = len(LEAF_SHAPES)
    return "; ".join(
        f"v{first + k} = {name}({', '.join(f'v{i}' for i in operands)})"
        for k, (name, operands) in enumerate(program)
    )
