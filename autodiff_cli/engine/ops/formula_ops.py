"""Ops that backward formulas call, so a create_graph gradient has PyTorch's grad_fn.

PyTorch's backward formulas are C++: they call dedicated ops (`_softmax_backward_data`,
`mse_loss_backward`, ...) and add, subtract, multiply or divide C++ numbers (`aten::add.Scalar`,
AddBackward1; `aten::sub.Scalar`, SubBackward1; `aten::mul.Scalar`, MulBackward1; `aten::div.Scalar`,
DivBackward1). `run` applies such an op inside a formula: on numpy arrays it is
just the op's forward (the plain backward pass pays nothing), on Tensors it is recorded in the graph
with its own grad_fn and its own backward formulas.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ..core.apply import apply_op
from ..core.dtypes import FLOAT_DTYPES
from ..core.kernels import number_operand
from ..core.optable import OpDef, defop


def run(B: Any, op: OpDef, *inputs: Any, **params: Any) -> Any:
    """`op` applied inside a backward formula on backend `B`."""
    if B.creates_graph:
        if op.view:
            inputs[0]._array()  # a view aliases materialised data (as views.apply_view)
        return apply_op(op, inputs, params)
    return op.forward(*inputs, **params) if params else op.forward(*inputs)


class ForwardJacobian:
    """`depth` > 0 while forward-mode AD takes the vjp of an op's vjps (autograd/forward_rules):
    a formula PyTorch has no derivative for (`not_implemented_formula`) then computes its real
    value, since PyTorch gives those ops a forward formula of their own instead."""

    depth = 0


def not_implemented_formula(name: str, formula: Any) -> Any:
    """A formula that raises PyTorch's "derivative for aten::<name> is not implemented" when a
    backward pass reaches it, except under forward-mode AD (`ForwardJacobian`)."""

    def grad(B: Any, g: Any, *saved: Any, **params: Any) -> Any:
        if ForwardJacobian.depth:
            return formula(B, g, *saved, **params)
        raise RuntimeError(f"derivative for aten::{name} is not implemented")

    return grad


def add_scalar(B: Any, x: Any, other: float) -> Any:
    """`x + other` with a C++ number: AddBackward1 under create_graph."""
    return run(B, ADD_SCALAR, x, other=other)


def sub_scalar(B: Any, x: Any, other: float) -> Any:
    """`x - other` with a C++ number: SubBackward1 under create_graph."""
    return run(B, SUB_SCALAR, x, other=other)


def mul_scalar(B: Any, x: Any, factor: float) -> Any:
    """`x * factor` with a C++ number: MulBackward1 under create_graph."""
    return run(B, MUL_SCALAR, x, other=factor)


def div_scalar(B: Any, x: Any, divisor: float) -> Any:
    """`x / divisor` with a C++ number: DivBackward1 under create_graph."""
    return run(B, DIV_SCALAR, x, other=divisor)


def _in_dtype_of(a: Any, combine: Any, other: float) -> Any:
    """`combine(a, other)` in `a`'s dtype (a C++ number does not promote the tensor); beside a
    floating array, the number as a 0-d array of its dtype (kernels.number_operand)."""
    if a.__class__ is np.ndarray and a.dtype in FLOAT_DTYPES and other.__class__ in _NUMBERS:
        return combine(a, number_operand(other, a.dtype))
    return np.asarray(combine(a, other), dtype=np.asarray(a).dtype)


_NUMBERS = (float, int)


def _plus(a: Any, other: float) -> Any:
    return _in_dtype_of(a, operator.add, other)


def _minus(a: Any, other: float) -> Any:
    return _in_dtype_of(a, operator.sub, other)


def _times(a: Any, other: float) -> Any:
    return _in_dtype_of(a, operator.mul, other)


def _over(a: Any, other: float) -> Any:
    return _in_dtype_of(a, operator.truediv, other)


ADD_SCALAR = defop(
    "add_scalar",
    "AddBackward1",
    _plus,
    lambda B, g, other: g,
    promotes=False,
    rules=("1",),
    aten="add",
)
SUB_SCALAR = defop(
    "sub_scalar",
    "SubBackward1",
    _minus,
    lambda B, g, other: g,
    promotes=False,
    rules=("1",),
    aten="sub",
)
MUL_SCALAR = defop(
    "mul_scalar",
    "MulBackward1",
    _times,
    lambda B, g, other: mul_scalar(B, g, other),
    promotes=False,
    rules=("other",),
    aten="mul",
)
DIV_SCALAR = defop(
    "div_scalar",
    "DivBackward1",
    _over,
    lambda B, g, other: div_scalar(B, g, other),
    promotes=False,
    rules=("1 / other",),
    aten="div",
)
