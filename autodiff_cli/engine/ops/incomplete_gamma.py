"""The regularised incomplete gamma functions: torch.igamma (P(a, x), special.gammainc) and
torch.igammac (Q(a, x) = 1 − P, special.gammaincc), with their Tensor methods.

P is summed as its power series where x < a + 1 and taken as 1 − Q from Q's continued fraction
(modified Lentz) elsewhere, in float64, then rounded to the inputs' dtype. The edges are
PyTorch's: NaN for a negative a or x (or both zero), P = 1 at a = 0 or x = ∞, P = 0 at x = 0 or
a = ∞. As in PyTorch, only `other` (x) is differentiable: a gradient reaching `input` (a) raises
"the derivative for 'igamma: input' is not implemented."."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_inplace, apply_op
from ..core.optable import declare_forms, defop
from ..core.out_arg import write_out
from ..core.tensor import Tensor
from .formula_ops import run
from .special_math import LGAMMA

__all__ = ["igamma", "igammac"]

_EPS = 1e-16
_STEPS = 10_000
_TINY = 1e-300


def _series(a: float, x: float) -> float:
    """P(a, x) = e⁻ˣ xᵃ / Γ(a + 1) · Σ xⁿ / ((a + 1)…(a + n))."""
    term = total = 1.0 / a
    for n in range(1, _STEPS):
        term *= x / (a + n)
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _continued_fraction(a: float, x: float) -> float:
    """Q(a, x) = e⁻ˣ xᵃ / Γ(a) · 1/(x + 1 − a − 1·(1 − a)/(x + 3 − a − …)) (Lentz)."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for n in range(1, _STEPS):
        an = -n * (n - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _lower1(a: float, x: float) -> float:
    """P(a, x) for one pair of numbers."""
    if math.isnan(a) or math.isnan(x) or a < 0 or x < 0 or (a == 0 and x == 0):
        return math.nan
    if a == 0 or math.isinf(x):
        return 1.0 if not math.isinf(a) else math.nan
    if x == 0 or math.isinf(a):
        return 0.0
    if x < a + 1.0:
        return _series(a, x)
    return 1.0 - _continued_fraction(a, x)


def _upper1(a: float, x: float) -> float:
    """Q(a, x) for one pair (from its continued fraction where P would lose digits)."""
    if math.isnan(a) or math.isnan(x) or a < 0 or x < 0 or (a == 0 and x == 0):
        return math.nan
    if a == 0 or math.isinf(x):
        return 0.0 if not math.isinf(a) else math.nan
    if x == 0 or math.isinf(a):
        return 1.0
    if x < a + 1.0:
        return 1.0 - _series(a, x)
    return _continued_fraction(a, x)


_LOWER = np.frompyfunc(_lower1, 2, 1)
_UPPER = np.frompyfunc(_upper1, 2, 1)


def _kernel(name: str, fn: Any) -> Any:
    def forward(a: np.ndarray, x: np.ndarray) -> np.ndarray:
        dt = np.result_type(a, x)
        if dt.kind != "f":
            raise NotImplementedError(
                f"\"{name}_cpu\" not implemented for '{dtypes.scalar_name(dt).capitalize()}'"
            )
        values = fn(np.asarray(a, np.float64), np.asarray(x, np.float64))
        return np.asarray(values, np.float64).astype(dt)

    return forward


def _no_input_grad(name: str) -> Any:
    def grad(B: Any, g: Any, self: Any, other: Any) -> Any:
        raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")

    return grad


def _density(B: Any, g: Any, self: Any, other: Any) -> Any:
    """g · e⁻ˣ x^(a−1) / Γ(a): exp((a − 1) log x − x − lgamma(a))."""
    return g * B.exp((self - 1) * B.log(other) - other - run(B, LGAMMA, self))


IGAMMA = defop(
    "igamma", "IgammaBackward0", _kernel("igamma", _LOWER),
    _no_input_grad("igamma"), _density,
    rules=("(not implemented)", "e⁻ˣ x^(a−1) / Γ(a)"),
)  # fmt: skip
IGAMMAC = defop(
    "igammac", "IgammacBackward0", _kernel("igammac", _UPPER),
    _no_input_grad("igammac"), lambda B, g, self, other: -_density(B, g, self, other),
    rules=("(not implemented)", "−e⁻ˣ x^(a−1) / Γ(a)"),
)  # fmt: skip


def _tensors(name: str, input: Any, other: Any) -> None:
    for arg, x, position in (("input", input, 1), ("other", other, 2)):
        if not isinstance(x, Tensor):
            raise TypeError(
                f"{name}(): argument '{arg}' (position {position}) must be Tensor, not "
                f"{type(x).__name__}"
            )


def igamma(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    """P(a, x), the regularised lower incomplete gamma function (IgammaBackward0)."""
    _tensors("igamma", input, other)
    if out is not None:
        return write_out(igamma, out, input, other)
    return apply_op(IGAMMA, (input, other))


def igammac(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    """Q(a, x) = 1 − P(a, x), the regularised upper incomplete gamma function
    (IgammacBackward0)."""
    _tensors("igammac", input, other)
    if out is not None:
        return write_out(igammac, out, input, other)
    return apply_op(IGAMMAC, (input, other))


def igamma_(self: Tensor, other: Tensor) -> Tensor:
    _tensors("igamma_", self, other)
    return apply_inplace(IGAMMA, self, (other,))


def igammac_(self: Tensor, other: Tensor) -> Tensor:
    _tensors("igammac_", self, other)
    return apply_inplace(IGAMMAC, self, (other,))


declare_forms(IGAMMA, igamma, method=True, inplace=igamma_)
declare_forms(IGAMMAC, igammac, method=True, inplace=igammac_)
