"""Element-wise ops that combine or repair values: logaddexp, hypot, lerp, logit, nan_to_num
(each one `defop`, its `torch.*` function and its Tensor method)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_inplace, apply_op, as_default_float
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.out_arg import write_out
from ..core.tensor import Tensor
from .arithmetic import _operand

__all__ = ["logaddexp", "hypot", "lerp", "logit", "nan_to_num"]


def _floating_kernel(kernel: str, fn: Any) -> Any:
    """`fn` on floating operands only: PyTorch's kernel `kernel` has no integer version."""

    def forward(a: Any, *others: Any, **params: Any) -> Any:
        dtypes.require_floating(np.result_type(a), kernel)
        return fn(a, *others, **params)

    return forward


LOGADDEXP = defop(
    "logaddexp", "LogaddexpBackward0", _floating_kernel("logaddexp_cpu", np.logaddexp),
    lambda B, g, self, other: g / (1 + B.exp(other - self)),
    lambda B, g, self, other: g / (1 + B.exp(self - other)),
    rules=("1 / (1 + exp(other - self))", "1 / (1 + exp(self - other))"),
    symbolic=lambda S, self, other: S.log(S.exp(self) + S.exp(other)),
)  # fmt: skip
HYPOT = defop(
    "hypot", "HypotBackward0", _floating_kernel("hypot_cpu", np.hypot),
    lambda B, g, self, other, result: g * self / result,
    lambda B, g, self, other, result: g * other / result,
    rules=("self / result", "other / result"),
    symbolic=lambda S, self, other: S.sqrt(self**2 + other**2),
)  # fmt: skip


def _lerp(start: Any, end: Any, weight: Any) -> Any:
    """PyTorch's lerp: from `start` for |weight| < 0.5, from `end` otherwise (so that both ends
    are exact)."""
    w = np.asarray(weight, start.dtype)
    near_start = np.abs(w) < 0.5
    diff = end - start
    return np.where(near_start, start + w * diff, end - diff * (1 - w)).astype(start.dtype)


LERP = defop(
    "lerp", "LerpBackward0", _floating_kernel("lerp_kernel_scalar", _lerp),
    lambda B, g, weight: g * (1 - weight),
    lambda B, g, weight: g * weight,
    rules=("1 - weight", "weight"),
)  # fmt: skip
LERP_TENSOR = defop(
    "lerp_tensor", "LerpBackward1", _floating_kernel("lerp_kernel_tensor", _lerp),
    lambda B, g, self, end, weight: g * (1 - weight),
    lambda B, g, self, end, weight: g * weight,
    lambda B, g, self, end, weight: g * (end - self),
    arg_names=("self", "end", "weight"),
    rules=("1 - weight", "weight", "end - self"),
)  # fmt: skip


def _logit(a: Any, eps: float | None) -> Any:
    if eps is not None:
        a = np.clip(a, eps, 1 - eps)
    return np.log(a / (1 - a))


def _logit_grad(B: Any, g: Any, self: Any, eps: float | None) -> Any:
    """PyTorch's logit gradient: grad / (x (1 - x)); outside [eps, 1 - eps] 0 with eps, NaN
    outside [0, 1] without."""
    slope = g / (self * (1 - self))
    if eps is None:  # (NaN outside [0, 1], where the forward is NaN)
        return B.where((self < 0) | (self > 1), math.nan, slope)
    return B.where((self < eps) | (self > 1 - eps), 0.0, slope)


LOGIT = defop("logit", "LogitBackward0", _logit, _logit_grad, rules=("1 / (x (1 - x))",))


def _nan_to_num(a: Any, nan: float, posinf: float | None, neginf: float | None) -> Any:
    if a.dtype.kind not in "fc":
        return np.array(a, copy=True)
    return np.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf)


NAN_TO_NUM = defop(
    "nan_to_num", "NanToNumBackward0", _nan_to_num,
    lambda B, g, self, **params: g * B.astype_like(B.const(np.isfinite(B.array_of(self))), g),
    rules=("1 where self is finite, else 0",),
)  # fmt: skip


def logaddexp(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(logaddexp, out, input, other)
    return apply_op(LOGADDEXP, (input, other))


def hypot(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(hypot, out, input, other)
    return apply_op(HYPOT, (input, other))


def lerp(input: Tensor, end: Tensor, weight: Any, *, out: Any = None) -> Tensor:
    """`input + weight · (end - input)`; `weight` a number (LerpBackward0) or a Tensor
    (LerpBackward1)."""
    if out is not None:
        return write_out(lerp, out, input, end, weight)
    if isinstance(weight, Tensor):
        return apply_op(LERP_TENSOR, (input, end, weight))
    return apply_op(LERP, (input, end), {"weight": _operand(weight)})


def logit(input: Tensor, eps: float | None = None, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(logit, out, input, eps)
    return apply_op(LOGIT, (as_default_float(input),), {"eps": eps})


def nan_to_num(
    input: Tensor,
    nan: float = 0.0,
    posinf: float | None = None,
    neginf: float | None = None,
    *,
    out: Any = None,
) -> Tensor:
    if out is not None:
        return write_out(nan_to_num, out, input, nan, posinf, neginf)
    params = {"nan": nan, "posinf": posinf, "neginf": neginf}
    return apply_op(NAN_TO_NUM, (input,), params)


def hypot_(self: Tensor, other: Tensor) -> Tensor:
    return apply_inplace(HYPOT, self, (other,))


def lerp_(self: Tensor, end: Tensor, weight: Any) -> Tensor:
    if isinstance(weight, Tensor):
        return apply_inplace(LERP_TENSOR, self, (end, weight))
    return apply_inplace(LERP, self, (end,), {"weight": _operand(weight)})


def logit_(self: Tensor, eps: float | None = None) -> Tensor:
    return apply_inplace(LOGIT, self, (), {"eps": eps})


def nan_to_num_(
    self: Tensor, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None
) -> Tensor:
    return apply_inplace(NAN_TO_NUM, self, (), {"nan": nan, "posinf": posinf, "neginf": neginf})


tensor_methods(
    "ops.blends",
    {},
)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(HYPOT, hypot, method=True, inplace=hypot_)
declare_forms(LERP, lerp, method=True, inplace=lerp_)
declare_forms(LOGADDEXP, logaddexp, method=True)
declare_forms(LOGIT, logit, method=True, inplace=logit_)
declare_forms(NAN_TO_NUM, nan_to_num, method=True, inplace=nan_to_num_)
