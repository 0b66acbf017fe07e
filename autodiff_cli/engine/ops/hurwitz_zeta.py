"""torch.special.zeta: the Hurwitz zeta function ζ(x, q) = Σₖ (k + q)^−x, for tensors and a
number on either side (SpecialZetaBackward0/1/2). As in PyTorch, only q is differentiable
(∂ζ/∂q = −x ζ(x + 1, q)); a gradient reaching x raises "the derivative for 'zeta' is not
implemented.". The edges are Cephes's, as PyTorch's: inf at x = 1 and at the poles q = 0, −1, ...,
NaN for x < 1, for q = ±inf and for a negative q with a non-integer x."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.apply import apply_op, as_default_float
from ..core.optable import defop
from ..core.out_arg import write_out
from ..core.tensor import Tensor
from .formula_ops import add_scalar, run
from .special_kernels import hurwitz_zeta

__all__: list[str] = []


def _zeta_of(s: float, q: np.ndarray) -> np.ndarray:
    """ζ(s, q) for one exponent s over an array of q."""
    if np.isnan(s) or s < 1:
        return np.full(q.shape, np.nan)
    if s == 1:
        return np.full(q.shape, np.inf)
    if np.isinf(s):  # only the terms with k + q = 1 (or below) survive
        return np.where(q == 1, 1.0, np.where(q > 1, 0.0, np.where(q > 0, np.inf, np.nan)))
    out = hurwitz_zeta(s, q)
    if s != np.floor(s):
        out = np.where((q < 0) & (q != np.floor(q)), np.nan, out)
    return out


def _zeta(x: Any, q: Any) -> np.ndarray:
    dt = np.result_type(x, q)
    xs, qs = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    out = np.empty(xs.shape, np.float64)
    nan = np.isnan(xs)
    out[nan] = np.nan
    for s in set(xs[~nan].tolist()):  # (not np.unique: it imports numpy.ma, which a jailed
        where = xs == s  # child cannot)
        out[where] = _zeta_of(s, qs[where])
    return out.astype(dt)


def _no_x_grad(B: Any, g: Any, *saved: Any, **params: Any) -> Any:
    raise NotImplementedError("the derivative for 'zeta' is not implemented.")


SPECIAL_ZETA = defop(
    "special_zeta", "SpecialZetaBackward0", _zeta,
    lambda B, g, self, other: _no_x_grad(B, g),
    lambda B, g, self, other: g * -self * run(B, SPECIAL_ZETA, add_scalar(B, self, 1.0), other),
    rules=("(not implemented)", "−x ζ(x + 1, q)"),
)  # fmt: skip
SPECIAL_ZETA_SCALAR_SELF = defop(
    "special_zeta_self_scalar", "SpecialZetaBackward1",
    lambda q, self: _zeta(np.asarray(self, q.dtype), q),
    lambda B, g, other, self: g * -self * run(
        B, SPECIAL_ZETA_SCALAR_SELF, other, self=self + 1.0
    ),
    arg_names=("other",), rules=("−x ζ(x + 1, q)",),
)  # fmt: skip
SPECIAL_ZETA_SCALAR_OTHER = defop(
    "special_zeta_other_scalar", "SpecialZetaBackward2",
    lambda x, other: _zeta(x, np.asarray(other, x.dtype)),
    _no_x_grad,
    rules=("(not implemented)",),
)  # fmt: skip


def zeta(input: Any, other: Any, *, out: Any = None) -> Tensor:
    """ζ(input, other), the Hurwitz zeta function (integer tensors as the default float)."""
    if out is not None:
        return write_out(zeta, out, input, other)
    if not isinstance(input, Tensor):
        return apply_op(SPECIAL_ZETA_SCALAR_SELF, (as_default_float(other),), {"self": input})
    if not isinstance(other, Tensor):
        return apply_op(SPECIAL_ZETA_SCALAR_OTHER, (as_default_float(input),), {"other": other})
    if input._data.dtype.kind in "biu" and other._data.dtype.kind in "biu":
        input = as_default_float(input)
    return apply_op(SPECIAL_ZETA, (input, other))
