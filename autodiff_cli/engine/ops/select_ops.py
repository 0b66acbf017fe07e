"""Sign and selection ops: copysign (CopysignBackward0 with a Tensor, CopysignBackward1 with a
number), signbit (bool, not differentiable), masked_select (MaskedSelectBackward0; its gradient
a masked_scatter into zeros), take (TakeBackward0; its gradient a `put` with accumulation,
PutBackward0 under create_graph). Each with its Tensor method and PyTorch's refusals."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_inplace, apply_op, as_default_float
from ..core.arguments import checks_own_arguments
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.out_arg import write_out
from ..core.saved_hooks import shows_saved
from ..core.tensor import Tensor, broadcast_shape
from .formula_ops import run
from .index_ops import MASKED_SCATTER

__all__ = ["copysign", "signbit", "masked_select", "take"]

# --------------------------------------------------------------------------------------------
# copysign, signbit
# --------------------------------------------------------------------------------------------


def _copysign(a: Any, b: Any) -> np.ndarray:
    """|a| with b's sign bit; integer and bool operands computed in the default float dtype."""
    dtype = np.result_type(a, b)
    if dtype.kind != "f":
        dtype = dtypes.get_default_dtype().np
    return np.copysign(np.asarray(a, dtype), np.asarray(b, dtype))


def _copysign_number(a: Any, other: float) -> np.ndarray:
    if a.dtype.kind != "f":
        a = np.asarray(a, dtypes.get_default_dtype().np)
    return np.copysign(a, np.asarray(other, a.dtype))


def _copysign_self_grad(B: Any, g: Any, self: Any, result: Any) -> Any:
    """result / self (±1, NaN where self is NaN or infinite), 0 where self is 0."""
    return g * B.where(self == 0, 0.0, result / self)


COPYSIGN = defop(
    "copysign",
    "CopysignBackward0",
    _copysign,
    _copysign_self_grad,
    lambda B, g, self, result: B.zeros_like(g),
    rules=("sign(self) · sign(result), 0 at self = 0", "0"),
)
COPYSIGN_SCALAR = defop(
    "copysign_scalar",
    "CopysignBackward1",
    lambda a, other: _copysign_number(a, other),
    lambda B, g, self, result, other: _copysign_self_grad(B, g, self, result),
    promotes=False,
    rules=("sign(self) · sign(result), 0 at self = 0",),
)


def _signbit(a: Any) -> np.ndarray:
    return np.zeros(a.shape, bool) if a.dtype.kind == "b" else np.signbit(a)


SIGNBIT = defop("signbit", None, _signbit)

_COPYSIGN_FORMS = (
    " * (Tensor input, Tensor other, *, Tensor out = None)\n"
    " * (Tensor input, Number other, *, Tensor out = None)\n"
)


def _copysign_operands(input: Any, other: Any) -> tuple:
    """(op, inputs, params) for `copysign(input, other)`, or PyTorch's TypeError."""
    if isinstance(input, Tensor):
        if isinstance(other, Tensor):
            return COPYSIGN, (input, other), None
        if isinstance(other, (bool, int, float, np.generic)):
            return COPYSIGN_SCALAR, (as_default_float(input),), {"other": float(other)}
    raise TypeError(
        "copysign() received an invalid combination of arguments - got "
        f"({type(input).__name__}, {type(other).__name__}), but expected one of:\n"
        + _COPYSIGN_FORMS
    )


@checks_own_arguments  # (its own overload message)
def copysign(input: Tensor, other: Any, *, out: Any = None) -> Tensor:
    """`|input|` with the sign of `other` (a Tensor, broadcast, or a number)."""
    if out is not None:
        return write_out(copysign, out, input, other)
    op, inputs, params = _copysign_operands(input, other)
    return apply_op(op, inputs, params)


def copysign_(self: Tensor, other: Any) -> Tensor:
    """`copysign` written into `self` (refused for an integer `self`: the result is float)."""
    op, inputs, params = _copysign_operands(self, other)
    return apply_inplace(op, self, inputs[1:], params)


def signbit(input: Tensor, *, out: Any = None) -> Tensor:
    """True where the sign bit is set (-0. and -NaN included); bool, without a gradient."""
    if out is not None:
        return write_out(signbit, out, input)
    return apply_op(SIGNBIT, (input,))


# --------------------------------------------------------------------------------------------
# masked_select
# --------------------------------------------------------------------------------------------


def _masked_select(a: Any, mask: np.ndarray) -> np.ndarray:
    return np.broadcast_to(a, mask.shape)[mask]


def _masked_select_grad(B: Any, g: Any, mask: np.ndarray) -> Any:
    """The gradient scattered back to the True positions of the (broadcast) mask; the op's
    node sums it to the input's shape."""
    zeros = B.const(np.zeros(mask.shape, B.array_of(g).dtype))
    return run(B, MASKED_SCATTER, zeros, g, mask=mask, src_shape=tuple(g.shape))


MASKED_SELECT = defop(
    "masked_select",
    "MaskedSelectBackward0",
    _masked_select,
    _masked_select_grad,
    promotes=False,
    rules=("1 at the selected positions",),
)


def _tensor_argument(value: Any, fn: str, name: str, position: int) -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(
            f"{fn}(): argument '{name}' (position {position}) must be Tensor, "
            f"not {type(value).__name__}"
        )
    return value


def _masked_select_call(input: Tensor, mask: Any, position: int) -> Tensor:
    mask = _tensor_argument(mask, "masked_select", "mask", position)
    if mask._data.dtype.kind != "b":
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    shape = broadcast_shape(tuple(mask.shape), tuple(input.shape))
    full = np.broadcast_to(np.asarray(mask._data, bool), shape)
    return apply_op(MASKED_SELECT, (input,), {"mask": full})


@shows_saved(mask="mask")
def masked_select(input: Tensor, mask: Tensor, *, out: Any = None) -> Tensor:
    """The elements of `input` where `mask` (bool, broadcast with it) is True, as a 1-d tensor."""
    if out is not None:
        return write_out(masked_select, out, input, mask)
    return _masked_select_call(input, mask, 2)


@shows_saved(mask="mask")
def _masked_select_method(self: Tensor, mask: Tensor) -> Tensor:
    return _masked_select_call(self, mask, 1)


# --------------------------------------------------------------------------------------------
# take (and put, its gradient)
# --------------------------------------------------------------------------------------------


def _put(a: Any, source: Any, index: np.ndarray, accumulate: bool) -> np.ndarray:
    flat = np.array(a, copy=True).reshape(-1)
    if accumulate:
        np.add.at(flat, index.reshape(-1), np.reshape(source, -1))
    else:
        flat[index.reshape(-1)] = np.reshape(source, -1)
    return flat.reshape(np.shape(a))


def _put_self_grad(B: Any, g: Any, index: np.ndarray, accumulate: bool) -> Any:
    if accumulate:
        return g
    written = np.zeros(int(np.prod(g.shape, dtype=np.int64)), bool)
    written[index.reshape(-1)] = True
    return B.where(B.const(written.reshape(tuple(g.shape))), 0.0, g)


PUT = defop(
    "put",
    "PutBackward0",
    _put,
    _put_self_grad,
    lambda B, g, index, accumulate: run(B, TAKE, g, index=index),
    arg_names=("self", "source"),
    promotes=False,
    rules=("1 (0 where overwritten)", "1 at the position it was put"),
)
TAKE = defop(
    "take",
    "TakeBackward0",
    lambda a, index: np.reshape(a, -1)[index],
    lambda B, g, self, index: run(
        B, PUT, B.const(np.zeros(tuple(self.shape), B.array_of(g).dtype)), g,
        index=index, accumulate=True,
    ),
    promotes=False,
    rules=("1 at each taken position (summed where repeated)",),
)  # fmt: skip


def _take_index(input: Tensor, index: Any, position: int) -> np.ndarray:
    index = _tensor_argument(index, "take", "index", position)
    if index._data.dtype != np.int64:
        raise RuntimeError(
            "take(): Expected a long tensor for index, but got "
            + dtypes.scalar_name(index._data.dtype)
        )
    n = int(np.prod(input.shape, dtype=np.int64))
    idx = np.asarray(index._data)
    if idx.size and n == 0:
        raise IndexError("take(): tried to take from an empty tensor")
    bad = idx[(idx >= n) | (idx < -n)]
    if bad.size:
        raise IndexError(
            f"out of range: tried to access index {int(bad.reshape(-1)[0])} on a tensor of "
            f"{n} elements."
        )
    return np.where(idx < 0, idx + n, idx)


@shows_saved(index="index")
def take(input: Tensor, index: Tensor, *, out: Any = None) -> Tensor:
    """The elements of `input` seen as 1-d at `index` (int64), in `index`'s shape."""
    if out is not None:
        return write_out(take, out, input, index)
    return apply_op(TAKE, (input,), {"index": _take_index(input, index, 2)})


@shows_saved(index="index")
def _take_method(self: Tensor, index: Tensor) -> Tensor:
    return apply_op(TAKE, (self,), {"index": _take_index(self, index, 1)})


tensor_methods(
    "ops.select_ops",
    {
        "masked_select": _masked_select_method,
        "take": _take_method,
    },
)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(COPYSIGN, copysign, method=True, inplace=copysign_)
declare_forms(SIGNBIT, signbit, method=True)
