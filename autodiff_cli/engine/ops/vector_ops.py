"""`torch.cross` / `torch.linalg.cross` (LinalgCrossBackward0: its gradients are cross products
too) and `torch.logcumsumexp` (LogcumsumexpBackward0), with their Tensor methods and PyTorch's
refusals."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_op
from ..core.optable import defop, tensor_methods
from ..core.out_arg import write_out
from ..core.saved_hooks import shows_saved
from ..core.tensor import Tensor, _norm_dim
from .formula_ops import ForwardJacobian, run
from .views import FLIP

__all__ = ["cross", "logcumsumexp"]

# --------------------------------------------------------------------------------------------
# cross
# --------------------------------------------------------------------------------------------


def _cross(a: Any, b: Any, dim: int) -> np.ndarray:
    return np.asarray(np.cross(a, b, axis=dim), np.result_type(a, b))


LINALG_CROSS = defop(
    "linalg_cross",
    "LinalgCrossBackward0",
    _cross,
    lambda B, g, self, other, dim: run(B, LINALG_CROSS, other, g, dim=dim),
    lambda B, g, self, other, dim: run(B, LINALG_CROSS, g, self, dim=dim),
    cross_saves=True,
    promotes=False,
    rules=("other × grad", "grad × self"),
)

_DEFAULT_DIM_WARNING = (
    "Using torch.cross without specifying the dim arg is deprecated.\n"
    "Please either pass the dim explicitly or simply use torch.linalg.cross.\n"
    "The default value of dim will change to agree with that of linalg.cross in a future "
    "release. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Cross.cpp:63.)"
)


class _Warned:
    default_dim = False  # PyTorch warns once per process


def _default_dim(input: Tensor) -> int:
    if not _Warned.default_dim:
        _Warned.default_dim = True
        warnings.warn(_DEFAULT_DIM_WARNING, UserWarning, stacklevel=3)
    for d, n in enumerate(input.shape):
        if n == 3:
            return d
    raise RuntimeError("no dimension of size 3 in input")


@shows_saved(dim="dim")  # (the dim as given: PyTorch shows -1 unsigned)
def _cross_call(input: Tensor, other: Tensor, dim: int) -> Tensor:
    a, b = input._data.dtype, other._data.dtype
    if input.ndim != other.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    if input.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = _norm_dim(dim, input.ndim)
    if input.shape[d] != 3 or other.shape[d] != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got "
            f"{input.shape[d]} and {other.shape[d]}"
        )
    if a != b:
        raise RuntimeError(
            f"expected scalar type {dtypes.scalar_name(a)} but found {dtypes.scalar_name(b)}"
        )
    if a.kind == "b":
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    return apply_op(LINALG_CROSS, (input, other), {"dim": d})


def cross(input: Tensor, other: Tensor, dim: int | None = None, *, out: Any = None) -> Tensor:
    """The cross product along `dim` (of size 3; without it, the first such dimension of
    `input`, with PyTorch's deprecation warning)."""
    if out is not None:
        return write_out(cross, out, input, other, dim)
    return _cross_call(input, other, _default_dim(input) if dim is None else dim)


def linalg_cross(input: Tensor, other: Tensor, *, dim: int = -1, out: Any = None) -> Tensor:
    """`torch.linalg.cross`: the cross product along `dim` (the last by default)."""
    if out is not None:
        return write_out(linalg_cross, out, input, other, dim=dim)
    return _cross_call(input, other, dim)


# --------------------------------------------------------------------------------------------
# logcumsumexp
# --------------------------------------------------------------------------------------------


def _logcumsumexp(a: np.ndarray, dim: int) -> np.ndarray:
    if a.ndim == 0:
        return np.array(a, copy=True)
    return np.logaddexp.accumulate(a, axis=dim, dtype=a.dtype)


def _reversed_logcumsumexp(B: Any, z: Any, dim: int) -> Any:
    flipped = run(B, FLIP, z, dims=(dim,))
    return run(B, FLIP, run(B, LOGCUMSUMEXP, flipped, dim=dim), dims=(dim,))


def _linear_grad(B: Any, g: Any, self: Any, result: Any, dim: int) -> Any:
    """Σ_{j >= i} grad_j · exp(self_i - result_j) as an explicit (n, n) weighting along `dim`:
    linear in grad, so forward-mode AD's double vjp (which differentiates it at grad = 0, where
    the log-space form has no derivative) gets the Jacobian; exp(...) <= 1 where j >= i."""
    shape = tuple(self.shape)
    n = shape[dim]
    rows = B.reshape(self, shape[: dim + 1] + (1,) + shape[dim + 1 :])
    cols = B.reshape(result, shape[:dim] + (1,) + shape[dim:])
    later = np.triu(np.ones((n, n), bool)).reshape(
        (1,) * dim + (n, n) + (1,) * (len(shape) - dim - 1)
    )
    weights = B.exp(B.where(B.const(later), rows - cols, -np.inf))
    return B.sum_dims(weights * B.reshape(g, shape[:dim] + (1,) + shape[dim:]), (dim + 1,), False)


def _logcumsumexp_grad(B: Any, g: Any, self: Any, result: Any, dim: int) -> Any:
    """Σ_{j >= i} grad_j · exp(self_i - result_j), summed in log space for the positive and
    the negative parts of the gradient separately (no overflow), then subtracted."""
    if len(self.shape) == 0:
        return g
    if ForwardJacobian.depth:
        return _linear_grad(B, g, self, result, dim)
    log_abs = B.log(B.abs(g)) - result
    positive = B.where(g > 0, log_abs, -np.inf)  # (a zero gradient adds nothing, even where
    negative = B.where(g < 0, log_abs, -np.inf)  # result is -inf)
    up = B.exp(self + _reversed_logcumsumexp(B, positive, dim))
    down = B.exp(self + _reversed_logcumsumexp(B, negative, dim))
    return up - down


LOGCUMSUMEXP = defop(
    "logcumsumexp",
    "LogcumsumexpBackward0",
    _logcumsumexp,
    _logcumsumexp_grad,
    promotes=False,
    rules=("Σ_{j >= i} grad_j · exp(self_i - result_j)",),
)


class _Missing:
    """The default of a required `dim` (PyTorch's own message when it is left out)."""


@shows_saved(dim="dim")
def logcumsumexp(input: Tensor, dim: Any = _Missing, *, out: Any = None) -> Tensor:
    """`log(cumsum(exp(input), dim))`, computed without overflow."""
    if dim is _Missing:
        raise TypeError('logcumsumexp() missing 1 required positional arguments: "dim"')
    if out is not None:
        return write_out(logcumsumexp, out, input, dim)
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(
            f"logcumsumexp(): argument 'dim' (position 2) must be int, not {type(dim).__name__}"
        )
    d = _norm_dim(dim, input.ndim)
    dtypes.require_floating(input._data.dtype, "logcumsumexp_out_cpu")
    return apply_op(LOGCUMSUMEXP, (input,), {"dim": d})


tensor_methods("ops.vector_ops", {"cross": cross, "logcumsumexp": logcumsumexp})
