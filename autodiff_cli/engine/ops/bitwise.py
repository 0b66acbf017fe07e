"""Bitwise and logical ops: `&`, `|`, `^`, `~`, torch.bitwise_* and torch.logical_*.

None is differentiable: PyTorch gives their results no grad_fn. The bitwise ops take integer and
bool tensors only (after PyTorch's type promotion); the logical ones take any dtype and give bool.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_inplace, apply_op
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.out_arg import OutRule, write_out
from ..core.tensor import Tensor
from .arithmetic import _operand
from .creation import tensor
from .unary import LOGICAL_NOT

__all__ = [
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
    "logical_and", "logical_or", "logical_xor",
]  # fmt: skip


def _integral(name: str, fn: Any) -> Any:
    """`fn` on integer or bool arrays; PyTorch's error for a floating dtype."""

    def forward(*arrays: Any) -> np.ndarray:
        dtype = np.result_type(*arrays)
        if dtype.kind not in "biu":
            raise NotImplementedError(
                f"\"{name}_cpu\" not implemented for '{dtypes.scalar_name(dtype)}'"
            )
        return fn(*arrays)

    return forward


BITWISE_AND = defop(
    "bitwise_and", None, _integral("bitwise_and", np.bitwise_and), out=OutRule(cast_copy=True)
)
BITWISE_OR = defop(
    "bitwise_or", None, _integral("bitwise_or", np.bitwise_or), out=OutRule(cast_copy=True)
)
BITWISE_XOR = defop(
    "bitwise_xor", None, _integral("bitwise_xor", np.bitwise_xor), out=OutRule(cast_copy=True)
)
BITWISE_NOT = defop("bitwise_not", None, _integral("bitwise_not", np.invert), out=OutRule("found"))
LOGICAL_AND = defop("logical_and", None, np.logical_and, promotes=False)
LOGICAL_OR = defop("logical_or", None, np.logical_or, promotes=False)
LOGICAL_XOR = defop("logical_xor", None, np.logical_xor, promotes=False)


def _tensor_operands(input: Any, other: Any) -> tuple[Tensor, Any]:
    if not isinstance(input, Tensor):
        input = tensor(input)
    return input, _operand(other)


def _binary(op: Any) -> Any:
    def fn(input: Any, other: Any, *, out: Any = None) -> Tensor:
        if out is not None:
            return write_out(fn, out, input, other)
        if op.name.startswith("logical"):  # PyTorch has no Scalar overloads of these
            for position, (arg, value) in enumerate((("input", input), ("other", other)), 1):
                if not isinstance(value, Tensor):
                    raise TypeError(
                        f"{op.name}(): argument '{arg}' (position {position}) must be Tensor, "
                        f"not {type(value).__name__}"
                    )
        return apply_op(op, _tensor_operands(input, other))

    fn.__name__ = op.name
    fn.__doc__ = f"torch.{op.name} (not differentiable)"
    return fn


bitwise_and = _binary(BITWISE_AND)
bitwise_or = _binary(BITWISE_OR)
bitwise_xor = _binary(BITWISE_XOR)
logical_and = _binary(LOGICAL_AND)
logical_or = _binary(LOGICAL_OR)
logical_xor = _binary(LOGICAL_XOR)


def bitwise_not(input: Tensor, *, out: Any = None) -> Tensor:
    """torch.bitwise_not: `~` on integers, logical not on bool (not differentiable)."""
    if out is not None:
        return write_out(bitwise_not, out, input)
    op = LOGICAL_NOT if input._data.dtype == np.bool_ else BITWISE_NOT
    return apply_op(op, (input,))


def _invert(self: Tensor) -> Tensor:
    if self._data.dtype.kind not in "biu":
        raise TypeError(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
        )
    return bitwise_not(self)


def _inplace(op: Any) -> Any:
    def method(self: Tensor, other: Any) -> Tensor:
        if op.name.startswith("bitwise") and self._data.dtype.kind not in "biu":
            op.forward(self._data, self._data)  # raises PyTorch's error for the dtype
        return apply_inplace(op, self, (_operand(other),))

    return method


for _op, _fn, _operator in (
    (BITWISE_AND, bitwise_and, "and"),
    (BITWISE_OR, bitwise_or, "or"),
    (BITWISE_XOR, bitwise_xor, "xor"),
):
    declare_forms(_op, _fn, method=True, inplace=_inplace(_op), operator=_operator, reflected=True)
for _op, _fn in ((LOGICAL_AND, logical_and), (LOGICAL_OR, logical_or), (LOGICAL_XOR, logical_xor)):
    declare_forms(_op, _fn, method=True, inplace=_inplace(_op))
declare_forms(BITWISE_NOT, bitwise_not, method=True)
tensor_methods(
    "ops.bitwise",
    {
        "__invert__": _invert,
    },  # fmt: skip
)
