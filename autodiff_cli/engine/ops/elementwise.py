"""Elementwise ops beyond the arithmetic core: atan2, clamp, maximum/minimum, frac, erfc, `//`, `%`,
addcmul, addcdiv."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtypes, kernels
from ..core.apply import apply_inplace, apply_op, as_default_float, leaf_inplace_error
from ..core.grad_mode import GradMode
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.out_arg import OutRule, write_out
from ..core.tensor import Tensor, broadcast_error
from . import arithmetic, unary
from .arithmetic import _binary_number_left, _int_checked, _operand, floor_divide, operator_method
from .formula_ops import mul_scalar, run
from .unary import _float_input

__all__ = [
    "atan2", "arctan2", "sgn", "clamp", "clip", "maximum", "minimum", "frac", "erfc", "exp2",
    "floor_divide", "remainder", "fmod", "round", "clamp_min", "clamp_max", "addcmul", "addcdiv",
]  # fmt: skip

_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def _zero(B: Any, g: Any) -> Any:
    return g * 0


def _erfc(a: Any) -> Any:
    return np.vectorize(math.erfc, otypes=[a.dtype])(a)


def _remainder(a: Any, b: Any) -> Any:
    """Python's modulo with the divisor's sign, from fmod as PyTorch's float kernel: a zero
    remainder keeps fmod's sign (`remainder(-0.75, 0.75)` is -0.)."""
    mod = np.fmod(a, b)
    if np.asarray(mod).dtype.kind != "f":
        return np.remainder(a, b)
    return np.where((mod != 0) & ((mod < 0) != (np.asarray(b) < 0)), mod + b, mod)


def _atan2_grad(B: Any, g: Any, numerator: Any, a: Any, b: Any) -> Any:
    """g · numerator / (self² + other²), as PyTorch's `grad * other * recip` (MulBackward0)."""
    return g * numerator * (1 / (a * a + b * b))


ATAN2 = defop(
    "atan2", "Atan2Backward0", np.arctan2,
    lambda B, g, self, other: _atan2_grad(B, g, other, self, other),
    lambda B, g, self, other: _atan2_grad(B, g, -self, self, other),
    rules=("other / (self² + other²)", "-self / (self² + other²)"),
    symbolic=lambda S, self, other: S.atan2(self, other),
    out=OutRule(cast_copy=True),
)  # fmt: skip
SGN = defop("sgn", "SgnBackward0", kernels.sign, _zero, rules=("0",), out=OutRule("found"))


def _frac(a: Any) -> Any:
    dtypes.require_floating(np.result_type(a), "frac_cpu")
    return a - np.trunc(a)


FRAC = defop("frac", "FracBackward0", _frac, lambda B, g: g, rules=("1",), out=OutRule("found"))
ERFC = defop(
    "erfc", "ErfcBackward0", _float_input(_erfc),
    lambda B, g, self: -g * _TWO_OVER_SQRT_PI * B.exp(-(self * self)),
    rules=("-2/sqrt(pi) · exp(-self²)",),
    out=OutRule(cast_copy=True),
)  # fmt: skip
EXP2 = defop(
    "exp2", "Exp2Backward0", _float_input(np.exp2), lambda B, g, result: mul_scalar(B, g * result, math.log(2)),
    rules=("2^self · ln 2",),
    out=OutRule(cast_copy=True),
)  # fmt: skip
CLAMP = defop(
    "clamp", "ClampBackward1", lambda a, min, max: np.clip(a, min, max).astype(a.dtype, copy=False),
    lambda B, g, self, min, max: g * B.astype_like((self >= min) * (self <= max), g),
    rules=("1 inside [min, max], else 0",),
    out=OutRule("found"),
)  # fmt: skip
CLAMP_MIN = defop(
    "clamp_min", "ClampMinBackward0", lambda a, min: np.maximum(a, np.asarray(min, a.dtype)),
    lambda B, g, self, min: g * B.astype_like(self >= min, g), rules=("1 above min",),
    out=OutRule("found"),
)  # fmt: skip
CLAMP_MAX = defop(
    "clamp_max", "ClampMaxBackward0", lambda a, max: np.minimum(a, np.asarray(max, a.dtype)),
    lambda B, g, self, max: g * B.astype_like(self <= max, g), rules=("1 below max",),
    out=OutRule("found"),
)  # fmt: skip
CLAMP_TENSOR = defop(
    "clamp_tensor", "ClampBackward0", lambda a, lo, hi: _clamp_tensors(a, lo, hi),
    lambda B, g, self, min, max: g * B.astype_like(_inside(self, min, max), g),
    lambda B, g, self, min, max: g * B.astype_like(self < min, g),
    lambda B, g, self, min, max: g * B.astype_like(_above(self, min, max), g),
     arg_names=("self", "min", "max"),
    rules=("1 inside [min, max]", "1 below min", "1 above max"),
    aten="clamp",
)  # fmt: skip


def _extremum_grad(B: Any, g: Any, self: Any, other: Any, loses: Any) -> Any:
    """PyTorch's maximum/minimum gradient: `where(self == other, grad / 2, grad)`, 0 where this
    input `loses`; where either is NaN neither loses, and both get the whole gradient."""
    return B.where(loses, 0.0, B.where(self == other, g / 2, g))


MAXIMUM = defop(
    "maximum", "MaximumBackward0", np.maximum,
    lambda B, g, self, other: _extremum_grad(B, g, self, other, self < other),
    lambda B, g, self, other: _extremum_grad(B, g, self, other, self > other),
    rules=("1 unless self < other (½ on ties)", "1 unless other < self (½ on ties)"),
    out=OutRule(cast_copy=True),
)  # fmt: skip
MINIMUM = defop(
    "minimum", "MinimumBackward0", np.minimum,
    lambda B, g, self, other: _extremum_grad(B, g, self, other, self > other),
    lambda B, g, self, other: _extremum_grad(B, g, self, other, self < other),
    rules=("1 unless self > other (½ on ties)", "1 unless other > self (½ on ties)"),
    out=OutRule(cast_copy=True),
)  # fmt: skip
REMAINDER = defop(
    "remainder", "RemainderBackward1", lambda a, b: _int_checked(_remainder, a, b),
    lambda B, g, self, other: g,
    lambda B, g, self, other: -g * B.floor(self / other),
    rules=("1", "-floor(self / other)"),
    out=OutRule(cast_copy=True),
)  # fmt: skip
REMAINDER_SCALAR = defop(
    "remainder_scalar", "RemainderBackward0",
    lambda a, other: _int_checked(_remainder, a, other), lambda B, g, other: g, rules=("1",),
    aten="remainder",
)  # fmt: skip
FMOD = defop(
    "fmod", "FmodBackward1", lambda a, b: _int_checked(np.fmod, a, b), lambda B, g, self, other: g,
    lambda B, g, self, other: -g * B.trunc(self / other), rules=("1", "-trunc(self / other)"),
    out=OutRule(cast_copy=True),
)  # fmt: skip
FMOD_SCALAR = defop(
    "fmod_scalar", "FmodBackward0", lambda a, other: _int_checked(np.fmod, a, other),
    lambda B, g, other: g, rules=("1",),
    aten="fmod",
)  # fmt: skip
ROUND_DECIMALS = defop(
    "round_decimals", "RoundBackward1", lambda a, decimals: np.round(a, decimals).astype(a.dtype),
    lambda B, g, decimals: g * 0, rules=("0",),
    aten="round",
)  # fmt: skip


# --------------------------------------------------------------------------------------------
# addcmul, addcdiv: `input + value * tensor1 * tensor2` and `input + value * tensor1 / tensor2`
# --------------------------------------------------------------------------------------------


def _addcmul_forward(a: Any, t1: Any, t2: Any, value: Any) -> np.ndarray:
    """PyTorch's CPU kernel: `self + (value * t1) * t2`, the value in the computation dtype
    (truncated for integers); float16 computed in float32."""
    dtype = np.result_type(a, t1, t2)
    work = np.dtype(np.float32) if dtype == np.float16 else dtype
    a, t1, t2 = (np.asarray(x, work) for x in (a, t1, t2))
    return np.asarray(a + np.asarray(value).astype(work) * t1 * t2, dtype)


def _addcdiv_forward(a: Any, t1: Any, t2: Any, value: Any) -> np.ndarray:
    """PyTorch's CPU kernel: `self + (value * t1) / t2`, rounded at each step."""
    dtype = np.result_type(a, t1, t2)
    work = np.dtype(np.float32) if dtype == np.float16 else dtype
    a, t1, t2 = (np.asarray(x, work) for x in (a, t1, t2))
    return np.asarray(a + work.type(value) * t1 / t2, dtype)


ADDCMUL = defop(
    "addcmul", "AddcmulBackward0", _addcmul_forward,
    lambda B, g, tensor1, tensor2, value: g,
    lambda B, g, tensor1, tensor2, value: g * mul_scalar(B, tensor2, value),
    lambda B, g, tensor1, tensor2, value: g * mul_scalar(B, tensor1, value),
     arg_names=("self", "tensor1", "tensor2"),
    rules=("1", "value · tensor2", "value · tensor1"),
    out=OutRule(cast_copy=True),
)  # fmt: skip
ADDCDIV = defop(
    "addcdiv", "AddcdivBackward0", _addcdiv_forward,
    lambda B, g, tensor1, tensor2, value: g,
    lambda B, g, tensor1, tensor2, value: g * run(B, arithmetic.DIV, value, tensor2),
    lambda B, g, tensor1, tensor2, value: -g * (mul_scalar(B, tensor1, value) / (tensor2 * tensor2)),
     arg_names=("self", "tensor1", "tensor2"),
    rules=("1", "value / tensor2", "-value · tensor1 / tensor2²"),
    out=OutRule(cast_copy=True),
)  # fmt: skip


def _clamp_tensors(a: Any, lo: Any, hi: Any) -> Any:
    out = a
    if lo is not None:
        out = np.maximum(out, lo)
    if hi is not None:
        out = np.minimum(out, hi)
    return out


def _inside(a: Any, lo: Any, hi: Any) -> Any:
    ok = True
    if lo is not None:
        ok = a >= lo
    if hi is not None:
        ok = ok * (a <= hi)
    return ok


def _above(a: Any, lo: Any, hi: Any) -> Any:
    return a > hi


def atan2(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(atan2, out, input, other)
    return apply_op(ATAN2, (input, other))


arctan2 = atan2


def sgn(input: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(sgn, out, input)
    return apply_op(SGN, (input,))


def frac(input: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(frac, out, input)
    return apply_op(FRAC, (input,))


def erfc(input: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(erfc, out, input)
    return apply_op(ERFC, (input,))


def exp2(input: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(exp2, out, input)
    return apply_op(EXP2, (input,))


def clamp(input: Tensor, min: Any = None, max: Any = None, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(clamp, out, input, min, max)
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return apply_op(CLAMP_TENSOR, (input, min, max))
    lo = -np.inf if min is None else _operand(min)
    hi = np.inf if max is None else _operand(max)
    return apply_op(CLAMP, (_bounded(input, min, max),), {"min": lo, "max": hi})


def _bounded(input: Tensor, *bounds: Any) -> Tensor:
    """The tensor a clamp computes on: an integer or bool tensor with a float bound is clamped
    in the default float dtype (PyTorch's result type), with int bounds it stays as it is."""
    if any(b.__class__ is float for b in bounds):
        return as_default_float(input)
    return input


clip = clamp


def clamp_min(input: Tensor, min: Any, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(clamp_min, out, input, min)
    return apply_op(CLAMP_MIN, (_bounded(input, min),), {"min": _operand(min)})


def clamp_max(input: Tensor, max: Any, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(clamp_max, out, input, max)
    return apply_op(CLAMP_MAX, (_bounded(input, max),), {"max": _operand(max)})


def maximum(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(maximum, out, input, other)
    return apply_op(MAXIMUM, (input, other))


def minimum(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(minimum, out, input, other)
    return apply_op(MINIMUM, (input, other))


def _with_number(op: Any, input: Tensor, other: Any) -> Tensor:
    """`op(input, other=number)` in PyTorch's result type: an integer tensor with a float
    number computes in the default float dtype, an int number is cast to the tensor's integer
    dtype as PyTorch casts it (modulo 2**bits)."""
    other = _operand(other)
    dtype = input._data.dtype
    if dtype.kind in "iu":
        if other.__class__ is float:
            input = as_default_float(input)
        elif other.__class__ is int:
            other = dtypes.wrapped_int(other, dtype)
    return apply_op(op, (input,), {"other": other})


def remainder(input: Any, other: Any, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(remainder, out, input, other)
    if isinstance(input, Tensor) and not isinstance(other, Tensor):
        return _with_number(REMAINDER_SCALAR, input, other)
    return _binary_number_left(REMAINDER, input, other)


def fmod(input: Any, other: Any, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(fmod, out, input, other)
    if isinstance(input, Tensor) and not isinstance(other, Tensor):
        return _with_number(FMOD_SCALAR, input, other)
    return _binary_number_left(FMOD, input, other)


def round(input: Tensor, *, decimals: int = 0, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(round, out, input, decimals=decimals)
    if decimals:
        return apply_op(ROUND_DECIMALS, (input,), {"decimals": int(decimals)})
    return apply_op(unary.ROUND, (input,))


_ADDCDIV_INTEGER_MESSAGE = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will "
    "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be "
    "implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer "
    "inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv "
    "behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all "
    "dtypes."
)


def _addc_args(name: str, tensors: tuple, first: int, value: Any) -> Any:
    """PyTorch's argument checks: three Tensors and a Number (a 0-d Tensor counts as its item)."""
    for arg, x, position in zip(
        ("input", "tensor1", "tensor2")[-len(tensors) :], tensors, range(first, 4)
    ):
        if not isinstance(x, Tensor):
            raise TypeError(
                f"{name}(): argument '{arg}' (position {position}) must be Tensor, not "
                f"{type(x).__name__}"
            )
    if isinstance(value, Tensor) and value.ndim == 0:
        return value.item()
    if isinstance(value, np.generic):
        return value.item()
    if not isinstance(value, (bool, int, float)):
        kind = "torch.dtype" if type(value).__name__ == "dtype" else type(value).__name__
        raise TypeError(f"{name}(): argument 'value' must be Number, not {kind}")
    return value


def _addc_check(name: str, op: Any, tensors: tuple) -> tuple:
    """The broadcast shape (PyTorch's message when there is none) and dtype checks."""
    shape: tuple = tensors[0]._data.shape
    for x in tensors[1:]:
        try:
            shape = tuple(np.broadcast_shapes(shape, x._data.shape))
        except ValueError:
            raise broadcast_error([shape, x._data.shape]) from None
    kinds = [x._data.dtype.kind for x in tensors]
    if op is ADDCDIV and kinds[1] in "biu" and kinds[2] in "biu":
        raise RuntimeError(_ADDCDIV_INTEGER_MESSAGE)
    if all(k == "b" for k in kinds):
        raise NotImplementedError(f"\"{name}_cpu_out\" not implemented for 'Bool'")
    return shape


def _keep_needed_saves(result: Tensor, op: Any, tensor1: Tensor, tensor2: Tensor) -> Tensor:
    """PyTorch saves tensor1 only when tensor2 requires grad, and (addcmul) tensor2 only when
    tensor1 does: a tensor not needed is neither shown by `_saved_*` nor version-checked."""
    node = result._grad_fn
    if node is None or type(node) is not op.node_class():
        return result
    keep = (tensor2._requires_grad, tensor1._requires_grad or op is ADDCDIV)
    if all(keep) or node._saved is None:
        return result
    node._saved = tuple(v if k else None for v, k in zip(node._saved, keep))
    if node._versions is not None:
        versions = tuple(entry for entry in node._versions if keep[entry[0]])
        node._versions = versions or None
    return result


def _addc(op: Any, name: str, input: Any, tensor1: Any, tensor2: Any, value: Any) -> Tensor:
    value = _addc_args(name, (input, tensor1, tensor2), 1, value)
    _addc_check(name, op, (input, tensor1, tensor2))
    result = apply_op(op, (input, tensor1, tensor2), {"value": value})
    return _keep_needed_saves(result, op, tensor1, tensor2)


def _addc_(op: Any, name: str, self: Tensor, tensor1: Any, tensor2: Any, value: Any) -> Tensor:
    value = _addc_args(f"{name}_", (tensor1, tensor2), 1, value)
    if GradMode.enabled and self._requires_grad and self._grad_fn is None:
        raise leaf_inplace_error(self)
    shape = _addc_check(name, op, (self, tensor1, tensor2))
    if shape != self._data.shape:
        raise RuntimeError(
            f"output with shape {list(self._data.shape)} doesn't match the broadcast shape "
            f"{list(shape)}"
        )
    apply_inplace(op, self, (tensor1, tensor2), {"value": value})
    return _keep_needed_saves(self, op, tensor1, tensor2)


def addcmul(
    input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1, out: Any = None
) -> Tensor:
    """`input + value * tensor1 * tensor2`, broadcast (AddcmulBackward0)."""
    if out is not None:
        return write_out(addcmul, out, input, tensor1, tensor2, value=value)
    return _addc(ADDCMUL, "addcmul", input, tensor1, tensor2, value)


def addcdiv(
    input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1, out: Any = None
) -> Tensor:
    """`input + value * tensor1 / tensor2`, broadcast (AddcdivBackward0); not for integer
    tensor1 and tensor2."""
    if out is not None:
        return write_out(addcdiv, out, input, tensor1, tensor2, value=value)
    return _addc(ADDCDIV, "addcdiv", input, tensor1, tensor2, value)


def _addcmul_method(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    value = _addc_args("addcmul", (tensor1, tensor2), 1, value)
    return addcmul(self, tensor1, tensor2, value=value)


def _addcdiv_method(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    value = _addc_args("addcdiv", (tensor1, tensor2), 1, value)
    return addcdiv(self, tensor1, tensor2, value=value)


def _addcmul_inplace(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    return _addc_(ADDCMUL, "addcmul", self, tensor1, tensor2, value)


def _addcdiv_inplace(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
    return _addc_(ADDCDIV, "addcdiv", self, tensor1, tensor2, value)


def _clamp_inplace(self: Tensor, min: Any, max: Any) -> Tensor:
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    lo = -np.inf if min is None else _operand(min)
    hi = np.inf if max is None else _operand(max)
    return apply_inplace(CLAMP, self, (), {"min": lo, "max": hi})


def _where_method(self: Tensor, condition: Any, other: Any) -> Tensor:
    return arithmetic.where(condition, self, other)


def _clamp_inplace_method(self: Tensor, min: Any = None, max: Any = None) -> Tensor:
    return _clamp_inplace(self, min, max)


def _inplace_unary(op: Any) -> Any:
    def method(self: Tensor) -> Tensor:
        return apply_inplace(op, self, ())

    method.__name__ = op.name + "_"
    return method


def _atan2_(self: Tensor, other: Tensor) -> Tensor:
    return apply_inplace(ATAN2, self, (other,))


def _clamp_min_(self: Tensor, min: Any) -> Tensor:
    return apply_inplace(CLAMP_MIN, self, (), {"min": _operand(min)})


def _clamp_max_(self: Tensor, max: Any) -> Tensor:
    return apply_inplace(CLAMP_MAX, self, (), {"max": _operand(max)})


def _with_number_inplace(number_op: Any, tensor_op: Any) -> Any:
    """`fmod_`/`remainder_`: by a number (its op's `other` parameter) or by a Tensor."""

    def method(self: Tensor, other: Any) -> Tensor:
        if isinstance(other, Tensor):
            return apply_inplace(tensor_op, self, (other,))
        return apply_inplace(number_op, self, (), {"other": _operand(other)})

    method.__name__ = tensor_op.name + "_"
    return method


tensor_methods(
    "ops.elementwise",
    {
        "arctan2": atan2,
        "clip": clamp,
        "floor_divide": floor_divide,
        "round": round,
        "where": _where_method,
        "addcmul": _addcmul_method,
        "addcdiv": _addcdiv_method,
        "clip_": _clamp_inplace_method,
        "arctan2_": _atan2_,
        "__imod__": _with_number_inplace(REMAINDER_SCALAR, REMAINDER),
        "__floordiv__": operator_method(floor_divide),
        "__rfloordiv__": operator_method(floor_divide, swap=True),
        "__mod__": operator_method(remainder),
        "__rmod__": operator_method(remainder, swap=True),
    },  # fmt: skip
)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(ADDCDIV, None, inplace=_addcdiv_inplace)
declare_forms(ADDCMUL, None, inplace=_addcmul_inplace)
declare_forms(ATAN2, atan2, method=True, inplace=_atan2_)
declare_forms(CLAMP, clamp, method=True, inplace=_clamp_inplace_method)
declare_forms(CLAMP_MAX, clamp_max, method=True, inplace=_clamp_max_)
declare_forms(CLAMP_MIN, clamp_min, method=True, inplace=_clamp_min_)
declare_forms(ERFC, erfc, method=True, inplace=_inplace_unary(ERFC))
declare_forms(EXP2, exp2, method=True, inplace=_inplace_unary(EXP2))
declare_forms(FMOD, fmod, method=True, inplace=_with_number_inplace(FMOD_SCALAR, FMOD))
declare_forms(FRAC, frac, method=True, inplace=_inplace_unary(FRAC))
declare_forms(MAXIMUM, maximum, method=True)
declare_forms(MINIMUM, minimum, method=True)
declare_forms(
    REMAINDER, remainder, method=True, inplace=_with_number_inplace(REMAINDER_SCALAR, REMAINDER)
)
declare_forms(SGN, sgn, method=True, inplace=_inplace_unary(SGN))
