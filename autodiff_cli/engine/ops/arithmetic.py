"""The op table: every differentiable op declared once, and the functions that apply them.

Each `defop` entry reads like a line of PyTorch's derivatives.yaml: name, grad_fn name, numpy
forward, one backward formula per input (written against the backend `B`, see
`formula_backends.py`), what the formulas need saved, and the local derivative rule in words. Broadcast reduction, dtype promotion
and version checks are done by the machinery (`apply.apply_op`), not here.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from ..core import dtypes, kernels
from ..core.apply import apply_op, promote
from ..core.fast_paths import apply_binary, apply_inplace
from ..core.optable import UNARY, declare_forms, defop, tensor_methods
from ..core.out_arg import OutRule, declare_out, write_out
from ..core.saved_hooks import shows_saved
from ..core.tensor import Size, Tensor
from .creation import tensor as make_tensor
from .formula_ops import div_scalar, mul_scalar, run, sub_scalar
from .unary import _float_input, abs, softplus
from .views import (  # noqa: F401  (re-exported: the view ops used to live here)
    INDEX,
    SELECT,
    SLICE,
    SQUEEZE_DIM,
    TRANSPOSE,
    UNSQUEEZE,
    VIEW,
    _infer_shape,
    clone,
    expand,
    expand_as,
    flatten,
    index_backward,
    reshape,
    select,
    select_backward,
    shape_arg,
    squeeze,
    squeeze_dims,
    stack,
    swapaxes,
    swapdims,
    transpose,
    unbind,
    unsqueeze,
    view,
)
from .views import t as _t

t = _t  # `ops.t` (the name is also a parameter below)


# --------------------------------------------------------------------------------------------
# numpy forwards that need more than one numpy call
# --------------------------------------------------------------------------------------------


def _is_integral(x: Any) -> bool:
    if isinstance(x, (bool, int)):
        return True
    if isinstance(x, float):
        return False
    return x.dtype.kind in "biu"


def _true_divide(a: Any, b: Any) -> Any:
    if _is_integral(a) and _is_integral(b):
        default = dtypes.get_default_dtype().np
        a = np.asarray(a, dtype=default)
        if not isinstance(b, (bool, int)):
            b = b.astype(default)
    return a / b


def _pow_scalar(a: Any, exponent: Any) -> Any:
    if a.dtype.kind in "biu":
        if isinstance(exponent, float):
            a = a.astype(dtypes.get_default_dtype().np)
        elif exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        return np.power(a, exponent)
    if a.dtype.kind == "f":
        special = _FLOAT_POWERS.get(exponent) if isinstance(exponent, (int, float)) else None
        if special is not None:
            return special(a)
    return np.power(a, exponent)


# PyTorch's float kernels for these exponents (products and quotients, rounded step by step);
# others go through `pow`.
_FLOAT_POWERS = {
    1: np.positive,  # a copy
    2: lambda a: a * a,
    3: lambda a: a * a * a,
    -2: lambda a: 1 / (a * a),
    -1: lambda a: 1 / a,
    0.5: np.sqrt,
    -0.5: lambda a: 1 / np.sqrt(a),
}


def power_scalar(B: Any, x: Any, exponent: Any) -> Any:
    """`exponent * x.pow(exponent - 1)`, PyTorch's factor of `grad` in pow's backward: the power
    by the same kernel as the forward (`x ** -2` is `1 / (x * x)`), so a hand-written
    `g * (n * x ** (n - 1))` gives autograd's bits."""
    return mul_scalar(B, run(B, POW, x, exponent=exponent - 1), exponent)


def _rpow(a: Any, base: Any) -> Any:
    if a.dtype.kind in "biu" and isinstance(base, float):
        a = a.astype(dtypes.get_default_dtype().np)
    return np.power(np.asarray(base, dtype=a.dtype), a)


def _bce_with_logits(
    x: Any, t: Any, reduction: str = "mean", weight: Any = None, pos_weight: Any = None
) -> Any:
    one = kernels.one(t)
    if pos_weight is None:  # PyTorch's (1 - t)·x - log_sigmoid(x)
        loss = (one - t) * x + kernels.softplus_neg(x)
    else:
        loss = (one - t) * x + ((pos_weight - 1) * t + 1) * kernels.softplus_neg(x)
    if weight is not None:
        loss = loss * weight
    if loss.dtype != x.dtype:
        loss = loss.astype(x.dtype)
    return _reduce_loss(loss, reduction) if reduction != "none" else np.asarray(loss)


def _bce_input_grad(
    B: Any,
    g: Any,
    x: Any,
    t: Any,
    reduction: str = "mean",
    weight: Any = None,
    pos_weight: Any = None,
) -> Any:
    """PyTorch's binary_cross_entropy_with_logits_backward: the slope times the gradient, then
    the weight, then `/ numel` for the mean."""
    if pos_weight is None:
        d = (B.sigmoid(x) - t) * g
    else:
        scaled_t = B.const(pos_weight) * t
        d = (scaled_t + 1 - t) * B.sigmoid(x) - scaled_t
        d = d * g
    if weight is not None:
        d = d * B.const(weight)
    return _mean_of(B, d, reduction, x)


def _bce_target_grad(
    B: Any,
    g: Any,
    x: Any,
    t: Any,
    reduction: str = "mean",
    weight: Any = None,
    pos_weight: Any = None,
) -> Any:
    d = -x
    if pos_weight is not None:
        d = d + (B.const(pos_weight) - 1) * B.softplus_neg(x)
    d = d * g
    if weight is not None:
        d = d * B.const(weight)
    return _mean_of(B, d, reduction, x)


def _reduce_loss(loss: Any, reduction: str) -> Any:
    # (`np.add.reduce` is what `ndarray.sum` calls, through a Python function of numpy's)
    if reduction == "mean":  # PyTorch's loss.mean(): the sum, then / n
        scalar = loss.dtype.type
        return scalar(np.add.reduce(loss, None) / scalar(loss.size))
    if reduction == "sum":
        return loss.dtype.type(np.add.reduce(loss, None))
    return loss


# --------------------------------------------------------------------------------------------
# Backward helpers shared by several formulas (they work on both backends)
# --------------------------------------------------------------------------------------------


def _values(x: Any) -> Any:
    """The numpy values of a saved input on either backend (for masks, which carry no graph)."""
    return x._data if isinstance(x, Tensor) else x


def _zero_base(a: Any, b: Any) -> Any:
    """Where `self ** exponent` has a 0 base and exponent >= 0: its d/dexponent is 0 there."""
    return np.logical_and(_values(a) == 0, _values(b) >= 0)


def _mean_of(B: Any, d: Any, reduction: str, x: Any) -> Any:
    """A loss gradient's `/ numel` under reduction='mean': `div.Scalar` (DivBackward1) when the
    gradient is recorded, a plain division on arrays."""
    return div_scalar(B, d, math.prod(x.shape)) if reduction == "mean" else d


# --------------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------------

# arithmetic


def _add(a: Any, b: Any, alpha: Any = 1) -> Any:
    return a + b if alpha == 1 else a + alpha * b


def _sub(a: Any, b: Any, alpha: Any = 1) -> Any:
    return a - b if alpha == 1 else a - alpha * b


def _operand(x: Any) -> Any:
    if isinstance(x, (Tensor, bool, int, float)):
        return x
    if isinstance(x, np.generic):
        return x.item()
    raise TypeError(f"unsupported operand type(s): 'Tensor' and '{type(x).__name__}'")


def add(input: Any, other: Any, *, alpha: Any = 1, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(add, out, input, other, alpha=alpha)
    if alpha != 1:
        if isinstance(other, Tensor):
            return apply_op(ADD, (input, other), {"alpha": alpha})
        other = other * alpha
    if not isinstance(input, Tensor):
        return apply_binary(ADD, other, _operand(input))
    return apply_binary(ADD, input, _operand(other))


def sub(input: Any, other: Any, *, alpha: Any = 1, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(sub, out, input, other, alpha=alpha)
    if alpha != 1:
        if isinstance(other, Tensor):
            return apply_op(SUB, (input, other), {"alpha": alpha})
        other = other * alpha
    if not isinstance(input, Tensor):
        return rsub(other, input)
    return apply_binary(SUB, input, _operand(other))


def rsub(input: Tensor, other: Any) -> Tensor:
    if isinstance(other, Tensor):
        return apply_op(SUB, (other, input))
    if isinstance(other, float) and input._data.dtype.kind in "biu":
        input = to_dtype(input, dtypes.get_default_dtype())
    return apply_op(RSUB, (input,), {"other": _operand(other)})


def mul(input: Any, other: Any, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(mul, out, input, other)
    if not isinstance(input, Tensor):
        return apply_binary(MUL, other, _operand(input))
    return apply_binary(MUL, input, _operand(other))


def div(input: Any, other: Any, *, rounding_mode: str | None = None, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(div, out, input, other, rounding_mode=rounding_mode)
    if rounding_mode is not None:
        if rounding_mode not in ("trunc", "floor"):
            raise RuntimeError(
                "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                f"'{rounding_mode}'"
            )
        if not isinstance(input, Tensor):
            input = make_tensor(input)
        return apply_op(DIV_MODE, (input, _operand(other)), {"rounding_mode": rounding_mode})
    if not isinstance(input, Tensor):
        return mul(reciprocal(other), input)
    return apply_binary(DIV, input, _operand(other))


true_divide = divide = div
multiply = mul
subtract = sub


def _inplace_alpha(name: str):
    """`add_`/`sub_` with PyTorch's `alpha=` (a number `other` is scaled first)."""

    def method(self: Tensor, other: Any, *, alpha: Any = 1) -> Tensor:
        op = ADD if name == "add" else SUB
        if alpha != 1:
            if isinstance(other, Tensor):
                return inplace(op, self, other, alpha=alpha)
            other = other * alpha
        return apply_inplace(op, self, (_operand(other),))

    method.__name__ = method.__qualname__ = name + "_"
    return method


# `alpha` is a parameter only when it is not 1 (`torch.add(a, b, alpha=2)`)
ADD = defop(
    "add",
    "AddBackward0",
    _add,
    lambda B, g, alpha=1: g,
    lambda B, g, alpha=1: g if alpha == 1 else g * alpha,
    rules=("1", "1"),  # alpha: "alpha"
    binary=operator.add,
    function=add,
    method=True,
    dunder="add",
    reflected=True,
    symbolic=lambda S, self, other, alpha=1: self + alpha * other,
    out=OutRule(cast_copy=True),
    inplace_ufunc=np.add,
    inplace=_inplace_alpha("add"),
    aten_args=3,
)
SUB = defop(
    "sub",
    "SubBackward0",
    _sub,
    lambda B, g, alpha=1: g,
    lambda B, g, alpha=1: -g if alpha == 1 else -g * alpha,
    rules=("1", "-1"),  # alpha: "-alpha"
    binary=operator.sub,
    function=sub,
    method=True,
    aliases=("subtract",),
    dunder="sub",
    symbolic=lambda S, self, other, alpha=1: self - alpha * other,
    out=OutRule(cast_copy=True),
    inplace_ufunc=np.subtract,
    inplace=_inplace_alpha("sub"),
    aten_args=3,
)
RSUB = defop(
    "rsub", "RsubBackward1", lambda a, other, alpha=1: other - a if alpha == 1 else other - alpha * a,
    lambda B, g, other, alpha=1: -g if alpha == 1 else -g * alpha, rules=("-alpha",),
    symbolic=lambda S, self, other, alpha=1: other - alpha * self,
    aten_args=3,
)  # fmt: skip
MUL = defop(
    "mul",
    "MulBackward0",
    operator.mul,
    lambda B, g, self, other: g * other,
    lambda B, g, self, other: g * self,
    cross_saves=True,
    rules=("other", "self"),
    function=mul,
    method=True,
    aliases=("multiply",),
    dunder="mul",
    reflected=True,
    symbolic=lambda S, self, other: self * other,
    out=OutRule(cast_copy=True),
    inplace_ufunc=np.multiply,
    inplace=True,
)


def _trunc_divide(a: Any, b: Any) -> Any:
    """The quotient rounded toward zero: exact for integers (`a - fmod(a, b)` is a multiple of
    `b`), `trunc(a / b)` for floats, as PyTorch's kernels."""
    if _is_integral(a) and _is_integral(b):
        return np.floor_divide(a - np.fmod(a, b), b)
    return np.trunc(a / b)


def _divide_rounded(a: Any, b: Any, rounding_mode: str) -> Any:
    division = np.floor_divide if rounding_mode == "floor" else _trunc_divide
    return _int_checked(division, a, b)


# torch.div(a, b, rounding_mode=...): its gradient is 0 for both inputs, as PyTorch's
DIV_MODE = defop(
    "div_mode", "DivBackward2", _divide_rounded,
    lambda B, g, self, other, rounding_mode: g * 0,
    lambda B, g, self, other, rounding_mode: g * 0,
    rules=("0", "0"),
)  # fmt: skip
DIV = defop(
    "div",
    "DivBackward0",
    _true_divide,
    lambda B, g, self, other: g / other,
    lambda B, g, self, other: -g * ((self / other) / other),
    rules=("1 / other", "-self / other²"),
    function=div,
    method=True,
    aliases=("true_divide", "divide"),
    dunder="truediv",
    symbolic=lambda S, self, other: self / other,
    out=OutRule(cast_copy=True),
    inplace=True,
)


def _negative(a: Any) -> Any:
    if a.dtype.kind == "b":  # (numpy's refusal words it for numpy)
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return -a


NEG = defop(
    "neg",
    "NegBackward0",
    _negative,
    lambda B, g: -g,
    rules=("-1",),
    function=UNARY,
    method=True,
    aliases=("negative",),
    inplace=True,
    symbolic=lambda S, self: -self,
    out=OutRule("found"),
)
POW = defop(
    "pow_scalar",
    "PowBackward0",
    _pow_scalar,
    lambda B, g, self, exponent: (
        B.zeros_like(self) if exponent == 0 else g * power_scalar(B, self, exponent)
    ),
    rules=("exponent · self^(exponent-1)",),
    symbolic=lambda S, self, exponent: self**exponent,
    aten="pow",
)
POW_TENSOR = defop(
    "pow",
    "PowBackward1",
    np.power,
    lambda B, g, self, exponent, result: B.where(
        _values(exponent) == 0, 0.0, g * (exponent * self ** sub_scalar(B, exponent, 1))
    ),
    lambda B, g, self, exponent, result: (
        g * B.where(_zero_base(self, exponent), 0.0, result * B.log(self))
    ),
    arg_names=("self", "exponent"),
    rules=("exponent · self^(exponent-1)", "self^exponent · ln(self)"),
    symbolic=lambda S, self, exponent: self**exponent,
    out=OutRule(cast_copy=True),
)
RPOW = defop(
    "rpow",
    "PowBackward2",
    _rpow,
    lambda B, g, result, base: (
        g * result * math.log(base) if base > 0 else g * result * float("nan")
    ),
    rules=("base^exponent · ln(base)",),
    symbolic=lambda S, self, base: base**self,
    out=OutRule(cast_copy=True),
    aten="pow",
)
RECIPROCAL = defop(
    "reciprocal",
    "ReciprocalBackward0",
    _float_input(np.reciprocal),
    lambda B, g, result: -g * (result * result),  # derivatives.yaml's order
    rules=("-1 / self²",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: 1 / self,
    out=OutRule(cast_copy=True),
)

# `//` and torch.div(rounding_mode='floor'): not differentiable, as in PyTorch
FLOOR_DIVIDE = defop(
    "floor_divide", "NotImplemented", lambda a, b: _int_checked(np.floor_divide, a, b),
    lambda B, g: _not_implemented("floor_divide"),
    lambda B, g: _not_implemented("floor_divide"),
    rules=("not differentiable", "not differentiable"),
)  # fmt: skip
FLOOR_DIVIDE.node_class().name = lambda self: "torch::autograd::NotImplemented"  # repr stays short

# comparisons and other non-differentiable ops
EQ = defop("eq", None, np.equal, out=OutRule(cast_copy=True, compares=True))
NE = defop("ne", None, np.not_equal, out=OutRule(cast_copy=True, compares=True))
LT = defop("lt", None, np.less, out=OutRule(cast_copy=True, compares=True))
LE = defop("le", None, np.less_equal, out=OutRule(cast_copy=True, compares=True))
GT = defop("gt", None, np.greater, out=OutRule(cast_copy=True, compares=True))
GE = defop("ge", None, np.greater_equal, out=OutRule(cast_copy=True, compares=True))

# linear algebra: the matmul family is declared in matrix.py

# shape and views: see views.py
TO_COPY = defop(
    "to",
    "ToCopyBackward0",
    lambda a, dtype: a.astype(dtype),
    lambda B, g, dtype: g,
    promotes=False,
    rules=("1",),
    symbolic=lambda S, self, dtype: self,
)
WHERE = defop(
    "where",
    "WhereBackward0",
    lambda a, b, condition: np.where(condition, a, b),
    lambda B, g, condition: B.where(B.const(condition), g, 0.0),
    lambda B, g, condition: B.where(B.const(condition), 0.0, g),
    rules=("1 where condition", "1 where not condition"),
    out=OutRule("same_as_input", message="Expected out type to be {0} but got {1}"),
)

# losses
BCE_WITH_LOGITS = defop(
    "binary_cross_entropy_with_logits",
    "BinaryCrossEntropyWithLogitsBackward0",
    _bce_with_logits,
    _bce_input_grad,
    _bce_target_grad,
    saves=(0, 1),
    arg_names=("self", "target"),
    rules=("(sigmoid(input) - target) / n", "-input / n"),
    exact_grads=True,
)


def _not_implemented(name: str) -> Any:
    raise RuntimeError(f"derivative for aten::{name} is not implemented")


def _int_checked(fn: Any, a: Any, b: Any) -> Any:
    if (
        np.asarray(a).dtype.kind in "iub"
        and np.asarray(b).dtype.kind in "iub"
        and np.any(np.asarray(b) == 0)
    ):
        raise RuntimeError("ZeroDivisionError")
    return fn(a, b)


def _binary_number_left(op: Any, input: Any, other: Any) -> Tensor:
    if not isinstance(input, Tensor):
        input = make_tensor(input)
    return apply_op(op, (input, _operand(other)))


def floor_divide(input: Any, other: Any, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(floor_divide, out, input, other)
    return _binary_number_left(FLOOR_DIVIDE, input, other)


def _numel(x: Any) -> int:
    return math.prod(x.shape)


# --------------------------------------------------------------------------------------------
# Functions: the torch.* / Tensor.* surface over the table
# --------------------------------------------------------------------------------------------


def _as_tensor(value: Any, like: Tensor) -> Tensor:
    return make_tensor(value)


def pow(input: Any, exponent: Any, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(pow, out, input, exponent)
    if not isinstance(input, Tensor):
        return apply_op(RPOW, (exponent,), {"base": input})
    if isinstance(exponent, Tensor):
        return apply_op(POW_TENSOR, (input, exponent))
    return apply_op(POW, (input,), {"exponent": _operand(exponent)})


def square(input: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(square, out, input)
    return pow(input, 2)


declare_out("square", OutRule(named="pow", cast_copy=True))


neg = negative = NEG.function
reciprocal = RECIPROCAL.function


def operator_method(fn: Any, swap: bool = False) -> Any:
    """`fn` as a Tensor operator method (`__eq__`, `__rmod__`...): NotImplemented for operands
    that are not tensors or numbers, so Python tries the other side."""

    def method(self: Tensor, other: Any) -> Any:
        if not isinstance(other, (Tensor, bool, int, float, np.generic)):
            return NotImplemented
        return fn(other, self) if swap else fn(self, other)

    return method


def _compare(op: Any):
    def fn(input: Any, other: Any, *, out: Any = None) -> Tensor:
        if out is not None:
            return write_out(fn, out, input, other)
        if not isinstance(input, Tensor):
            input, other = _as_tensor(input, other), other
        return apply_op(op, (input, _operand(other)))

    fn.__name__ = op.name
    return fn


eq = _compare(EQ)
ne = not_equal = _compare(NE)
lt = less = _compare(LT)
le = less_equal = _compare(LE)
gt = greater = _compare(GT)
ge = greater_equal = _compare(GE)
declare_forms(EQ, eq, method=True, operator="eq")
declare_forms(NE, ne, method=True, aliases=("not_equal",), operator="ne")
declare_forms(LT, lt, method=True, aliases=("less",), operator="lt")
declare_forms(LE, le, method=True, aliases=("less_equal",), operator="le")
declare_forms(GT, gt, method=True, aliases=("greater",), operator="gt")
declare_forms(GE, ge, method=True, aliases=("greater_equal",), operator="ge")


def to_dtype(input: Tensor, dtype: Any) -> Tensor:
    target = dtypes.to_numpy(dtype)
    if input._data.dtype == target:
        return input
    return apply_op(TO_COPY, (input,), {"dtype": target})


@shows_saved(condition="condition")
def where(condition: Any, input: Any = None, other: Any = None, *, out: Any = None) -> Any:
    """`torch.where(cond, a, b)`; the condition is a constant of the node, as in PyTorch."""
    if out is not None:
        return write_out(where, out, condition, input, other)
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if input is None and other is None:
        return tuple(make_tensor(ix) for ix in np.nonzero(cond))
    operands = tuple(x if isinstance(x, Tensor) else _operand(x) for x in (input, other))
    _, target = promote([x._data if isinstance(x, Tensor) else x for x in operands], operands)
    a, b = (to_dtype(x, dtypes.BY_NUMPY[target]) if isinstance(x, Tensor) else x for x in operands)
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        a = make_tensor(a, dtype=dtypes.BY_NUMPY[target])
    out = apply_op(WHERE, (a, b), {"condition": cond.astype(np.bool_, copy=False)})
    if out._data.dtype != target:
        out._data = out._data.astype(target)
    return out


def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    if input._data.shape != target._data.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})"
        )
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if weight is None and pos_weight is None and reduction == "mean":
        return apply_binary(BCE_WITH_LOGITS, input, target)  # the defaults: no params dict
    params = {
        "reduction": reduction,
        "weight": None if weight is None else np.asarray(weight._data),
        "pos_weight": None if pos_weight is None else np.asarray(pos_weight._data),
    }
    return apply_op(BCE_WITH_LOGITS, (input, target), params)


# --------------------------------------------------------------------------------------------
# In-place variants: `x.add_(y)`, `x += y`
# --------------------------------------------------------------------------------------------


def inplace(op: Any, target: Tensor, *inputs: Any, **params: Any) -> Tensor:
    return apply_inplace(op, target, tuple(_operand(x) for x in inputs), params or None)


def pow_(self: Tensor, exponent: Any) -> Tensor:
    if isinstance(exponent, Tensor):
        return apply_inplace(POW_TENSOR, self, (exponent,))
    return apply_inplace(POW, self, (), {"exponent": _operand(exponent)})


def _rtruediv(self: Tensor, other: Any) -> Any:
    return mul(reciprocal(self), other) if _is_number(other) else NotImplemented


def _where(condition: Tensor, input: Any, other: Any) -> Any:
    """`B.where(condition, a, b)` in formulas under create_graph (formula_backends)."""
    return where(condition, input, other)


tensor_methods("ops.arithmetic (formula_backends.TensorBackend.where)", {"_where": _where})

# The unary functions are bound by their `defop` (method=True, inplace=True); `round` with
# `decimals` by elementwise.py, reductions by reductions.py, `@` by matrix.py, `~` by bitwise.py.
tensor_methods(
    "ops.arithmetic",
    {
        "square": square,
        "softplus": softplus,
        "__rsub__": lambda self, other: rsub(self, other) if _is_number(other) else NotImplemented,
        "__rtruediv__": _rtruediv,
        "__pow__": operator_method(pow),
        "__rpow__": lambda self, other: pow(other, self) if _is_number(other) else NotImplemented,
        "__neg__": neg,
        "__pos__": lambda self: self,
        "__abs__": abs,
        "__hash__": lambda self: id(self),
        "square_": lambda self: pow_(self, 2),
        "__ipow__": pow_,
    },
)


def _is_number(x: Any) -> bool:
    return isinstance(x, (bool, int, float, np.generic))


__all__ = ["Size"]

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(POW_TENSOR, pow, method=True, inplace=pow_)
