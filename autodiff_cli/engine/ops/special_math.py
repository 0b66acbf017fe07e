"""Element-wise math beyond the basics: inverse hyperbolic functions, deg2rad/rad2deg, sinc,
the gamma family (lgamma, digamma, polygamma, mvlgamma), erfinv, i0, logaddexp2, fmax/fmin,
float_power, heaviside, ldexp, gcd/lcm, frexp, positive; and the ops only `torch.special` names
(i1, entr, log_ndtr, ndtri, xlog1py). The kernels numpy lacks are in special_kernels.py.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_inplace, apply_op, as_default_float
from ..core.optable import UNARY, OpDef, declare_forms, defop, tensor_methods
from ..core.out_arg import write_out
from ..core.tensor import Tensor, _wrap, broadcast_error
from . import arithmetic, indexing
from . import special_kernels as K
from .blends import _floating_kernel
from .elementwise import EXP2
from .formula_ops import add_scalar, mul_scalar, run
from .reductions import _ValuesIndices, return_types
from .unary import RSQRT, _float_input, sin

# `sin` (the same function as ops/unary's) is bound before `sinc` when the engine star-imports
# this module, so that a misspelt `sine` still suggests `sin` (the first of two equally close
# names, as Python's NameError hints choose)
__all__ = [
    "sin", "asinh", "arcsinh", "acosh", "arccosh", "atanh", "arctanh", "deg2rad", "rad2deg", "sinc",
    "lgamma", "digamma", "polygamma", "mvlgamma", "erfinv", "i0", "logaddexp2", "fmax", "fmin",
    "float_power", "heaviside", "ldexp", "gcd", "lcm", "frexp", "positive",
]  # fmt: skip

_SQRT_PI_2 = math.sqrt(math.pi) / 2
_SQRT_2PI = math.sqrt(2 * math.pi)


def _unary(name: str, grad_fn: str, forward: Any, formula: Any, rule: str, **surface: Any) -> Any:
    """A differentiable function of one tensor, integers computed in the default float dtype,
    with `torch.<name>`, `Tensor.<name>` and `Tensor.<name>_`."""
    return defop(
        name, grad_fn, _float_input(forward), formula, rules=(rule,),
        function=UNARY, method=True, inplace=True, **surface,
    )  # fmt: skip


def _sinc(a: Any) -> Any:
    x = a * np.asarray(math.pi, a.dtype)
    return np.where(a == 0, np.asarray(1, a.dtype), np.sin(x) / x).astype(a.dtype)


def _sinc_grad(B: Any, g: Any, self: Any) -> Any:
    """(cos(πx) - sinc(x)) / x, 0 at x = 0."""
    x = mul_scalar(B, self, math.pi)
    slope = (B.cos(x) - B.sin(x) / x) / self
    return B.where(B.const(np.asarray(B.array_of(self) == 0)), 0.0, g * slope)


ASINH = _unary(
    "asinh", "AsinhBackward0", np.arcsinh,
    lambda B, g, self: g * run(B, RSQRT, add_scalar(B, self * self, 1)),
    "1 / sqrt(self² + 1)", aliases=("arcsinh",),
    symbolic=lambda S, self: S.asinh(self),
)  # fmt: skip
ACOSH = _unary(
    "acosh", "AcoshBackward0", np.arccosh,
    lambda B, g, self: g * run(B, RSQRT, add_scalar(B, self * self, -1)),
    "1 / sqrt(self² - 1)", aliases=("arccosh",),
    symbolic=lambda S, self: S.acosh(self),
)  # fmt: skip
ATANH = _unary(
    "atanh", "AtanhBackward0", np.arctanh,
    lambda B, g, self: g / add_scalar(B, -(self * self), 1), "1 / (1 - self²)", aliases=("arctanh",),
    symbolic=lambda S, self: S.atanh(self),
)  # fmt: skip
DEG2RAD = _unary(
    "deg2rad", "Deg2RadBackward0", lambda a: a * np.asarray(math.pi / 180, a.dtype),
    lambda B, g: mul_scalar(B, g, math.pi / 180), "π / 180",
)  # fmt: skip
RAD2DEG = _unary(
    "rad2deg", "Rad2DegBackward0", lambda a: a * np.asarray(180 / math.pi, a.dtype),
    lambda B, g: mul_scalar(B, g, 180 / math.pi), "180 / π",
)  # fmt: skip
SINC = _unary("sinc", "SincBackward0", _sinc, _sinc_grad, "(cos(πx) - sinc(x)) / x, 0 at 0")
LGAMMA = _unary(
    "lgamma", "LgammaBackward0", K.lgamma,
    lambda B, g, self: g * run(B, DIGAMMA, self), "digamma(self)",
)  # fmt: skip
DIGAMMA = _unary(
    "digamma", "DigammaBackward0", K.digamma,
    lambda B, g, self: g * run(B, POLYGAMMA, self, n=1), "polygamma(1, self)",
)  # fmt: skip
ERFINV = _unary(
    "erfinv", "ErfinvBackward0", K.erfinv,
    lambda B, g, self: mul_scalar(B, B.exp(run(B, ERFINV, self) ** 2), _SQRT_PI_2) * g,
    "√π / 2 · exp(erfinv(self)²)",
)  # fmt: skip
I0 = _unary("i0", "I0Backward0", K.i0, lambda B, g, self: g * run(B, I1, self), "i1(self)")


def _i1_grad(B: Any, g: Any, self: Any, result: Any) -> Any:
    """I₁'(x) = I₀(x) - I₁(x) / x, ½ at x = 0."""
    slope = run(B, I0, self) - result / self
    at_zero = np.asarray(B.array_of(self) == 0)
    return g * B.where(B.const(at_zero), 0.5, slope)


I1 = defop("special_i1", "SpecialI1Backward0", _float_input(K.i1), _i1_grad, rules=("i0 - i1 / x",))
POLYGAMMA = defop(
    "polygamma", "PolygammaBackward0", lambda a, n: K.polygamma(a, n),
    lambda B, g, self, n: g * run(B, POLYGAMMA, self, n=n + 1), rules=("polygamma(n + 1, self)",),
)  # fmt: skip


def _mvlgamma(a: Any, p: int) -> Any:
    """Σ_j lgamma(a - j/2) + p (p - 1) / 4 · log π; the arguments rounded in a's dtype (as
    PyTorch's: near a pole that decides between inf and a finite value)."""
    total = sum(K.lgamma(a - np.asarray(j / 2, a.dtype)).astype(np.float64) for j in range(p))
    return np.asarray(total + p * (p - 1) / 4 * math.log(math.pi), a.dtype)


MVLGAMMA = defop(
    "mvlgamma", "MvlgammaBackward0", _mvlgamma,
    lambda B, g, self, p: g * sum(run(B, DIGAMMA, add_scalar(B, self, -j / 2)) for j in range(p)),
    rules=("Σ_j digamma(self - j/2)",),
)  # fmt: skip

# the ops torch.special adds
ENTR = defop(
    "special_entr", "SpecialEntrBackward0",
    _float_input(lambda a: np.where(a > 0, -a * np.log(a), np.where(a == 0, 0, a * np.inf))),
    lambda B, g, self: g * -add_scalar(B, B.log(self), 1), rules=("-(1 + log(self))",),
)  # fmt: skip
LOG_NDTR = defop(
    "special_log_ndtr", "SpecialLogNdtrBackward0", _float_input(K.log_ndtr),
    lambda B, g, self, result: g * B.exp(-(result + self * self / 2)) / _SQRT_2PI,
    rules=("exp(-x²/2) / (√(2π) Φ(x))",),
)  # fmt: skip
NDTRI = defop(
    "special_ndtri", "SpecialNdtriBackward0", _float_input(K.ndtri),
    lambda B, g, result: mul_scalar(B, g, _SQRT_2PI) * B.exp(result * result / 2),
    rules=("√(2π) · exp(result² / 2)",),
)  # fmt: skip


def _xlog1py(a: Any, b: Any) -> Any:
    out = a * np.log1p(b)
    return np.where((a == 0) & ~np.isnan(b), np.zeros((), out.dtype), out).astype(out.dtype)


def _xlog1py_self_grad(B: Any, g: Any, x: Any, y: Any) -> Any:
    """xlog1py(grad, other), 0 where self == 0 and other <= -1."""
    mask = np.asarray((B.array_of(x) == 0) & (B.array_of(y) <= -1))
    return run(B, indexing.MASKED_FILL, run(B, XLOG1PY, g, y), mask=mask, value=0.0)


XLOG1PY = defop(
    "special_xlog1py", "SpecialXlog1PyBackward0", _xlog1py, _xlog1py_self_grad,
    lambda B, g, x, y: g * x / add_scalar(B, y, 1), saves=(0, 1),
    rules=("log1p(other) (0 where self == 0 and other <= -1)", "self / (1 + other)"),
)  # fmt: skip
XLOG1PY_SCALAR_SELF = defop(
    "special_xlog1py_scalar_self", "SpecialXlog1PyBackward1",
    lambda y, self: _xlog1py(np.asarray(self, y.dtype), y),
    lambda B, g, other, self: g * self / add_scalar(B, other, 1),
    arg_names=("other",), rules=("self / (1 + other)",),
)  # fmt: skip
XLOG1PY_SCALAR_OTHER = defop(
    "special_xlog1py_scalar_other", "SpecialXlog1PyBackward2",
    lambda x, other: _xlog1py(x, np.asarray(other, x.dtype)),
    lambda B, g, self, other: _xlog1py_self_grad(
        B, g, self, B.const(np.asarray(other, B.array_of(g).dtype))
    ),
    rules=("log1p(other) (0 where self == 0 and other <= -1)",),
)  # fmt: skip

# ops of two tensors
LOGADDEXP2 = defop(
    "logaddexp2", "Logaddexp2Backward0", _floating_kernel("logaddexp2_cpu", np.logaddexp2),
    lambda B, g, self, other: g / add_scalar(B, run(B, EXP2, other - self), 1),
    lambda B, g, self, other: g / add_scalar(B, run(B, EXP2, self - other), 1),
    rules=("1 / (1 + 2^(other - self))", "1 / (1 + 2^(self - other))"),
)  # fmt: skip


def _keeps(B: Any, first: Any, second: Any, compare: Any) -> Any:
    """Where `first` is the value fmax/fmin took: it wins `compare` (ties included) or `second`
    is NaN; the gradient goes there only."""
    a, b = B.array_of(first), B.array_of(second)
    return B.const(np.asarray(compare(a, b) | np.isnan(b)))


FMAX = defop(
    "fmax", "FmaxBackward0", np.fmax,
    lambda B, g, self, other: B.where(_keeps(B, self, other, np.greater_equal), g, 0.0),
    lambda B, g, self, other: B.where(_keeps(B, self, other, np.greater_equal), 0.0, g),
    rules=("1 where self ≥ other or other is NaN", "1 elsewhere"),
)  # fmt: skip
FMIN = defop(
    "fmin", "FminBackward0", np.fmin,
    lambda B, g, self, other: B.where(_keeps(B, self, other, np.less_equal), g, 0.0),
    lambda B, g, self, other: B.where(_keeps(B, self, other, np.less_equal), 0.0, g),
    rules=("1 where self ≤ other or other is NaN", "1 elsewhere"),
)  # fmt: skip


def _ldexp(a: Any, b: Any) -> Any:
    """a · 2^b; integer operands give the default float dtype."""
    if np.result_type(a, b).kind in "biu":
        a = np.asarray(a, dtypes.get_default_dtype().np)
    return a * np.exp2(np.asarray(b, a.dtype))


LDEXP = defop(
    "ldexp", "LdexpBackward0", _ldexp,
    lambda B, g, self, other: g * run(B, EXP2, other),
    lambda B, g, self, other: mul_scalar(B, g * self * run(B, EXP2, other), math.log(2)),
    rules=("2^other", "self · 2^other · ln 2"),
)  # fmt: skip


def _integer_kernel(kernel: str, fn: Any) -> Any:
    def forward(a: Any, b: Any) -> Any:
        shapes = [np.shape(a), np.shape(b)]
        try:
            np.broadcast_shapes(*shapes)
        except ValueError:
            raise broadcast_error(shapes) from None
        dt = np.result_type(a, b)
        if dt.kind not in "iu":
            raise NotImplementedError(
                f"\"{kernel}\" not implemented for '{dtypes.scalar_name(dt)}'"
            )
        return fn(a, b)

    return forward


def _no_derivative(name: str) -> Any:
    def formula(B: Any, g: Any) -> Any:
        raise RuntimeError(f"derivative for aten::{name} is not implemented")

    return formula


def _unlisted(name: str, grad_fn: str | None, forward: Any, *grads: Any) -> OpDef:
    """An op kept out of the table `OPS` (whose tests list the ops without gradients by name):
    gcd and lcm have none, heaviside's node (NotImplemented) raises when reached."""
    return OpDef(name, grad_fn, forward, grads or None, (), True, 1, True, ())


def _heaviside(a: Any, values: Any) -> Any:
    return np.where(a == 0, values, a > 0).astype(a.dtype)


HEAVISIDE = _unlisted(
    "heaviside", "NotImplemented", _heaviside,
    _no_derivative("heaviside"), _no_derivative("heaviside"),
)  # fmt: skip
HEAVISIDE.node_class().name = lambda self: "torch::autograd::NotImplemented"
GCD = _unlisted("gcd", None, _integer_kernel("gcd_cpu", np.gcd))
LCM = _unlisted("lcm", None, _integer_kernel("lcm_cpu", np.lcm))
FREXP = defop(
    "frexp", "FrexpBackward0", lambda a, exponent: np.frexp(a)[0],
    lambda B, g, exponent: g / B.astype_like(B.const(np.exp2(exponent)), g),
    rules=("1 / 2^exponent",),
)  # fmt: skip

asinh = arcsinh = ASINH.function
acosh = arccosh = ACOSH.function
atanh = arctanh = ATANH.function
deg2rad = DEG2RAD.function
rad2deg = RAD2DEG.function
sinc = SINC.function
lgamma = LGAMMA.function
digamma = DIGAMMA.function
erfinv = ERFINV.function
i0 = I0.function


def _tensor_arg(fn: str, name: str, position: int, value: Any) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(
            f"{fn}(): argument '{name}' (position {position}) must be Tensor, not "
            f"{type(value).__name__}"
        )


def _int_arg(fn: str, name: str, position: int, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(
            f"{fn}(): argument '{name}' (position {position}) must be int, not "
            f"{type(value).__name__}"
        )
    return int(value)


def _binary(op: OpDef, fn: str, input: Tensor, other: Any, name: str = "other") -> Tensor:
    _tensor_arg(fn, "input", 1, input)
    _tensor_arg(fn, name, 2, other)
    return apply_op(op, (input, other))


def logaddexp2(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    """log2(2^input + 2^other)."""
    if out is not None:
        return write_out(logaddexp2, out, input, other)
    return _binary(LOGADDEXP2, "logaddexp2", input, other)


def fmax(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    """The element-wise maximum, ignoring NaN (NaN only where both are)."""
    if out is not None:
        return write_out(fmax, out, input, other)
    return _binary(FMAX, "fmax", input, other)


def fmin(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    """The element-wise minimum, ignoring NaN (NaN only where both are)."""
    if out is not None:
        return write_out(fmin, out, input, other)
    return _binary(FMIN, "fmin", input, other)


def ldexp(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    """input · 2^other."""
    if out is not None:
        if isinstance(out, Tensor) and out._data.dtype.kind in "biu":
            raise RuntimeError(
                "ldexp can't be cast to the desired output type "
                + dtypes.scalar_name(out._data.dtype)
            )
        return write_out(ldexp, out, input, other)
    return _binary(LDEXP, "ldexp", input, other)


def gcd(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(gcd, out, input, other)
    return _binary(GCD, "gcd", input, other)


def lcm(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(lcm, out, input, other)
    return _binary(LCM, "lcm", input, other)


def _check_same_dtype(input: Tensor, values: Any) -> None:
    _tensor_arg("heaviside", "values", 2, values)
    if input._data.dtype != values._data.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")


def heaviside(input: Tensor, values: Tensor, *, out: Any = None) -> Tensor:
    """0 below 0, 1 above, `values` at 0; PyTorch has no derivative for it."""
    if out is not None:
        return write_out(heaviside, out, input, values)
    _check_same_dtype(input, values)
    return _binary(HEAVISIDE, "heaviside", input, values, "values")


def float_power(input: Any, exponent: Any, *, out: Any = None) -> Tensor:
    """pow computed in float64: the tensors are converted first (ToCopyBackward0), then
    PowBackward0 (a number exponent), PowBackward1 (a tensor) or PowBackward2 (a number base)."""
    if out is not None:
        if isinstance(out, Tensor) and out._data.dtype != np.float64:
            raise RuntimeError(
                f"the output given to float_power has dtype {dtypes.scalar_name(out._data.dtype)}"
                " but the operation's result requires dtype Double"
            )
        return write_out(float_power, out, input, exponent)
    if isinstance(input, Tensor):
        base: Any = input.to(dtypes.float64)
    elif isinstance(exponent, Tensor):
        base = float(input) if not isinstance(input, complex) else input
    else:
        raise TypeError(
            "float_power() received an invalid combination of arguments - got "
            f"({type(input).__name__}, {type(exponent).__name__}), but expected one of:\n"
            " * (Tensor input, Tensor exponent, *, Tensor out = None)\n"
            " * (Number self, Tensor exponent, *, Tensor out = None)\n"
            " * (Tensor input, Number exponent, *, Tensor out = None)\n"
        )
    if isinstance(exponent, Tensor):
        return arithmetic.pow(base, exponent.to(dtypes.float64))
    return arithmetic.pow(base, float(exponent))


def _float_power_(self: Tensor, exponent: Any) -> Tensor:
    if self._data.dtype != np.float64:
        raise RuntimeError(
            "the base given to float_power_ has dtype "
            f"{dtypes.scalar_name(self._data.dtype)} but the operation's result requires dtype "
            "Double"
        )
    if isinstance(exponent, Tensor):
        return arithmetic.pow_(self, exponent.to(dtypes.float64))
    return arithmetic.pow_(self, float(exponent))


class frexp_type(_ValuesIndices):  # noqa: N801 - PyTorch's name
    """`torch.return_types.frexp`: (mantissa, exponent)."""

    __slots__ = ()

    @property
    def mantissa(self) -> Tensor:
        return self[0]

    @property
    def exponent(self) -> Tensor:
        return self[1]

    def __repr__(self) -> str:
        name = type(self).__name__
        return f"torch.return_types.{name}(\nmantissa={self[0]!r},\nexponent={self[1]!r})"

    __str__ = __repr__


frexp_type.__name__ = frexp_type.__qualname__ = "frexp"
frexp_type.__module__ = "torch.return_types"
type(return_types).frexp = frexp_type


def frexp(input: Tensor, *, out: Any = None) -> frexp_type:
    """The mantissa in [0.5, 1) (FrexpBackward0) and the int32 exponent: input = m · 2^e."""
    if out is not None:
        exponent = out[1] if isinstance(out, (tuple, list)) and len(out) == 2 else None
        if isinstance(exponent, Tensor) and exponent._data.dtype != np.int32:
            raise RuntimeError(
                "torch.frexp() expects exponent to have int dtype but got "
                + dtypes.cpp_name(exponent._data.dtype)
            )
        return write_out(frexp, out, input)
    if input._data.dtype.kind != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    exponent = np.frexp(np.asarray(input._data))[1].astype(np.int32)
    mantissa = apply_op(FREXP, (input,), {"exponent": exponent})
    return frexp_type(mantissa, _wrap(exponent))


def positive(input: Tensor) -> Tensor:
    """The input itself (not a copy), as PyTorch's; bool tensors are refused."""
    if input._data.dtype == np.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def polygamma(n: int, input: Tensor, *, out: Any = None) -> Tensor:
    """The n-th derivative of digamma."""
    if out is not None:
        return write_out(polygamma, out, n, input)
    n = _int_arg("polygamma", "n", 1, n)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return apply_op(POLYGAMMA, (as_default_float(input),), {"n": n})


def mvlgamma(input: Tensor, p: int, *, out: Any = None) -> Tensor:
    """The log of the multivariate gamma function of dimension p."""
    if out is not None:
        return write_out(mvlgamma, out, input, p)
    p = _int_arg("mvlgamma", "p", 2, p)
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return apply_op(MVLGAMMA, (as_default_float(input),), {"p": p})


def _inplace(op: OpDef, fn: str, name: str = "other") -> Any:
    def method(self: Tensor, other: Tensor) -> Tensor:
        _tensor_arg(fn + "_", name, 1, other)
        kind, other_kind = self._data.dtype.kind, other._data.dtype.kind
        if kind in "biu" and other_kind == "f":
            raise RuntimeError(
                f"result type {dtypes.scalar_name(other._data.dtype)} can't be cast to the "
                f"desired output type {dtypes.scalar_name(self._data.dtype)}"
            )
        return apply_inplace(op, self, (other,))

    method.__name__ = method.__qualname__ = fn + "_"
    return method


def _ldexp_(self: Tensor, other: Tensor) -> Tensor:
    if self._data.dtype.kind in "biu":
        raise RuntimeError(
            f"ldexp can't be cast to the desired output type {dtypes.scalar_name(self._data.dtype)}"
        )
    return _inplace(LDEXP, "ldexp")(self, other)


def _heaviside_(self: Tensor, values: Tensor) -> Tensor:
    _check_same_dtype(self, values)
    return _inplace(HEAVISIDE, "heaviside", "values")(self, values)


def _polygamma_method(self: Tensor, n: int) -> Tensor:
    return polygamma(n, self)


def _polygamma_(self: Tensor, n: int) -> Tensor:
    n = _int_arg("polygamma_", "n", 1, n)
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return apply_inplace(POLYGAMMA, self, (), {"n": n})


def _mvlgamma_(self: Tensor, p: int) -> Tensor:
    p = _int_arg("mvlgamma_", "p", 1, p)
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    return apply_inplace(MVLGAMMA, self, (), {"p": p})


tensor_methods(
    "ops.special_math",
    {
        "gcd": gcd,
        "gcd_": _inplace(GCD, "gcd"),
        "lcm": lcm,
        "lcm_": _inplace(LCM, "lcm"),
        "heaviside": heaviside,
        "heaviside_": _heaviside_,
        "float_power": float_power,
        "float_power_": _float_power_,
        "positive": positive,
        "polygamma": _polygamma_method,
    },
)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(FMAX, fmax, method=True)
declare_forms(FMIN, fmin, method=True)
declare_forms(FREXP, frexp, method=True)
declare_forms(LDEXP, ldexp, method=True, inplace=_ldexp_)
declare_forms(LOGADDEXP2, logaddexp2, method=True)
declare_forms(MVLGAMMA, mvlgamma, method=True, inplace=_mvlgamma_)
declare_forms(POLYGAMMA, None, inplace=_polygamma_)
