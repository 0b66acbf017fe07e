"""Elementwise functions of one tensor (exp, log, trig, tanh, sigmoid, relu, softplus, abs, erf,
rounding...) and the backward ops PyTorch gives some of them (tanh_backward, sigmoid_backward,
threshold_backward, softplus_backward). Each is one `defop` that also declares `torch.<name>`,
`Tensor.<name>` and, where PyTorch has one, `Tensor.<name>_`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtypes, kernels
from ..core.apply import apply_op
from ..core.dtypes import FLOAT_DTYPES, FLOAT_SCALAR_TYPES
from ..core.optable import UNARY, defop
from ..core.out_arg import OutRule
from ..core.tensor import Tensor
from .formula_ops import add_scalar, mul_scalar, run

LN2 = math.log(2.0)
LN10 = math.log(10.0)


def _float_input(fn: Any) -> Any:
    """Wraps a numpy function so integer inputs are computed in the default float dtype."""

    def forward(a: Any) -> Any:
        if (
            a.__class__ not in FLOAT_SCALAR_TYPES
            and a.dtype not in FLOAT_DTYPES  # (found by identity: faster than `.kind`)
            and a.dtype.kind in "biu"
        ):
            a = a.astype(dtypes.get_default_dtype().np)
        return fn(a)

    return forward


def _relu(a: Any) -> Any:
    return np.maximum(a, kernels.zero(a)) if a.dtype.kind != "b" else a


def _softplus(a: Any, beta: float = 1.0, threshold: float = 20.0) -> Any:
    scaled = a * beta
    return np.where(scaled > threshold, a, np.log1p(np.exp(scaled)) / beta).astype(a.dtype)


def _erf(a: Any) -> Any:
    return np.vectorize(math.erf, otypes=[a.dtype])(a)


def _rsqrt_one_minus_square(B: Any, a: Any) -> Any:
    """`(-self * self + 1).rsqrt()`, as PyTorch's asin/acos formulas write it."""
    return run(B, RSQRT, add_scalar(B, -a * a, 1))


# elementwise functions
EXP = defop(
    "exp",
    "ExpBackward0",
    _float_input(np.exp),
    lambda B, g, result: g * result,
    rules=("exp(self)",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.exp(self),
    out=OutRule(cast_copy=True),
    backend=True,
)
LOG = defop(
    "log",
    "LogBackward0",
    _float_input(np.log),
    lambda B, g, self: g / self,
    rules=("1 / self",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.log(self),
    out=OutRule(cast_copy=True),
    backend=True,
)
LOG2 = defop(
    "log2",
    "Log2Backward0",
    _float_input(np.log2),
    lambda B, g, self: g / (self * LN2),
    rules=("1 / (self · ln 2)",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.log(self, 2),
    out=OutRule(cast_copy=True),
)
LOG10 = defop(
    "log10",
    "Log10Backward0",
    _float_input(np.log10),
    lambda B, g, self: g / (self * LN10),
    rules=("1 / (self · ln 10)",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.log(self, 10),
    out=OutRule(cast_copy=True),
)
LOG1P = defop(
    "log1p",
    "Log1PBackward0",
    _float_input(np.log1p),
    lambda B, g, self: g / (self + 1),
    rules=("1 / (1 + self)",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.log(1 + self),
    out=OutRule(cast_copy=True),
    backend=True,
)
EXPM1 = defop(
    "expm1",
    "Expm1Backward0",
    _float_input(np.expm1),
    lambda B, g, result: g * (result + 1),
    rules=("exp(self)",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.exp(self) - 1,
    out=OutRule(cast_copy=True),
    backend=True,
)
SQRT = defop(
    "sqrt",
    "SqrtBackward0",
    _float_input(np.sqrt),
    lambda B, g, result: g / (2 * result),
    rules=("1 / (2 · sqrt(self))",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.sqrt(self),
    out=OutRule(cast_copy=True),
    backend=True,
)
RSQRT = defop(
    "rsqrt",
    "RsqrtBackward0",
    _float_input(lambda a: 1 / np.sqrt(a)),
    lambda B, g, result: -0.5 * g * (result * result * result),  # -0.5·g·result.pow(3)
    rules=("-1 / (2 · self^(3/2))",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: 1 / S.sqrt(self),
    out=OutRule(cast_copy=True),
)
SIN = defop(
    "sin",
    "SinBackward0",
    _float_input(np.sin),
    lambda B, g, self: g * B.cos(self),
    rules=("cos(self)",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.sin(self),
    out=OutRule(cast_copy=True),
    backend=True,
)
COS = defop(
    "cos",
    "CosBackward0",
    _float_input(np.cos),
    lambda B, g, self: -g * B.sin(self),
    rules=("-sin(self)",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.cos(self),
    out=OutRule(cast_copy=True),
    backend=True,
)
TAN = defop(
    "tan",
    "TanBackward0",
    _float_input(np.tan),
    lambda B, g, result: g * (result * result + 1),
    rules=("1 + tan²(self)",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.tan(self),
    out=OutRule(cast_copy=True),
)
ASIN = defop(
    "asin",
    "AsinBackward0",
    _float_input(np.arcsin),
    lambda B, g, self: g * _rsqrt_one_minus_square(B, self),
    rules=("1 / sqrt(1 - self²)",),
    function=UNARY,
    method=True,
    aliases=("arcsin",),
    inplace=True,
    symbolic=lambda S, self: S.asin(self),
    out=OutRule(cast_copy=True),
)
ACOS = defop(
    "acos",
    "AcosBackward0",
    _float_input(np.arccos),
    lambda B, g, self: g * -_rsqrt_one_minus_square(B, self),
    rules=("-1 / sqrt(1 - self²)",),
    function=UNARY,
    method=True,
    aliases=("arccos",),
    inplace=True,
    symbolic=lambda S, self: S.acos(self),
    out=OutRule(cast_copy=True),
)
ATAN = defop(
    "atan",
    "AtanBackward0",
    _float_input(np.arctan),
    lambda B, g, self: g / (self * self + 1),
    rules=("1 / (1 + self²)",),
    function=UNARY,
    method=True,
    aliases=("arctan",),
    inplace=True,
    symbolic=lambda S, self: S.atan(self),
    out=OutRule(cast_copy=True),
)
SINH = defop(
    "sinh",
    "SinhBackward0",
    _float_input(np.sinh),
    lambda B, g, self: g * B.cosh(self),
    rules=("cosh(self)",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.sinh(self),
    out=OutRule(cast_copy=True),
    backend=True,
)
COSH = defop(
    "cosh",
    "CoshBackward0",
    _float_input(np.cosh),
    lambda B, g, self: g * B.sinh(self),
    rules=("sinh(self)",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.cosh(self),
    out=OutRule(cast_copy=True),
    backend=True,
)
TANH = defop(
    "tanh",
    "TanhBackward0",
    _float_input(np.tanh),
    lambda B, g, result: run(B, TANH_BACKWARD, g, result),
    rules=("1 - tanh²(self)",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.tanh(self),
    out=OutRule(cast_copy=True),
    backend=True,
)
SIGMOID = defop(
    "sigmoid",
    "SigmoidBackward0",
    _float_input(kernels.sigmoid),
    lambda B, g, result: run(B, SIGMOID_BACKWARD, g, result),
    rules=("sigmoid(self) · (1 - sigmoid(self))",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: 1 / (1 + S.exp(-self)),
    out=OutRule(cast_copy=True),
    backend=True,
)
RELU = defop(
    "relu",
    "ReluBackward0",
    _relu,
    lambda B, g, result: run(B, THRESHOLD_BACKWARD, g, result, threshold=0),
    rules=("1 if self > 0 else 0",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.relu(self),
    out=OutRule(refused=True),
)
SOFTPLUS = defop(
    "softplus",
    "SoftplusBackward0",
    _softplus,
    lambda B, g, self, beta=1.0, threshold=20.0: run(
        B, SOFTPLUS_BACKWARD, g, self, beta=beta, threshold=threshold
    ),
    rules=("sigmoid(beta · self)",),
    symbolic=lambda S, self, beta=1.0, threshold=20.0: S.log(1 + S.exp(beta * self)) / beta,
)
ABS = defop(
    "abs",
    "AbsBackward0",
    np.abs,
    lambda B, g, self: g * B.sign(self),
    rules=("sign(self)",),
    function=UNARY,
    method=True,
    aliases=("absolute",),
    inplace=True,
    symbolic=lambda S, self: S.abs(self),
    out=OutRule("found"),
    backend=True,
)
ERF = defop(
    "erf",
    "ErfBackward0",
    _float_input(_erf),
    lambda B, g, self: g * (2 / math.sqrt(math.pi)) * B.exp(-(self * self)),
    rules=("2/sqrt(pi) · exp(-self²)",),
    function=UNARY,
    method=True,
    inplace=True,
    symbolic=lambda S, self: S.erf(self),
    out=OutRule(cast_copy=True),
)
SIGN = defop(
    "sign",
    "SignBackward0",
    kernels.sign,
    lambda B, g: g * 0,
    rules=("0",),
    function=UNARY,
    method=True,
    inplace=True,
    out=OutRule("found"),
    backend=True,
)
FLOOR = defop(
    "floor",
    "FloorBackward0",
    np.floor,
    lambda B, g: g * 0,
    rules=("0",),
    function=UNARY,
    method=True,
    inplace=True,
    out=OutRule("found"),
    backend=True,
)
CEIL = defop(
    "ceil",
    "CeilBackward0",
    np.ceil,
    lambda B, g: g * 0,
    rules=("0",),
    function=UNARY,
    method=True,
    inplace=True,
    out=OutRule("found"),
)
ROUND = defop(
    "round",
    "RoundBackward0",
    np.round,
    lambda B, g: g * 0,
    rules=("0",),
    inplace=True,
    out=OutRule("found"),
)
TRUNC = defop(
    "trunc",
    "TruncBackward0",
    np.trunc,
    lambda B, g: g * 0,
    rules=("0",),
    function=UNARY,
    method=True,
    aliases=("fix",),
    inplace=True,
    out=OutRule("found"),
    backend=True,
)

# the backward formulas of tanh, sigmoid, relu and softplus are ops of their own under create_graph,
# as in PyTorch
TANH_BACKWARD = defop(
    "tanh_backward",
    "TanhBackwardBackward0",
    kernels.tanh_backward,
    lambda B, gg, grad_output, output: run(B, TANH_BACKWARD, gg, output),
    lambda B, gg, grad_output, output: gg * (mul_scalar(B, output, -2) * grad_output),
    arg_names=("grad_output", "output"),
    rules=("1 - output²", "-2 · grad_output · output"),
)
SIGMOID_BACKWARD = defop(
    "sigmoid_backward",
    "SigmoidBackwardBackward0",
    kernels.sigmoid_backward,
    lambda B, gg, grad_output, output: run(B, SIGMOID_BACKWARD, gg, output),
    lambda B, gg, grad_output, output: (
        gg * grad_output * add_scalar(B, mul_scalar(B, output, -2), 1)
    ),
    arg_names=("grad_output", "output"),
    rules=("output · (1 - output)", "grad_output · (1 - 2 · output)"),
)


def _threshold_backward(g: Any, x: Any, threshold: float) -> Any:
    """`grad` where self > threshold (or is NaN), else +0: a masked multiply (np.where is ~10x
    slower), redone with np.where only where a non-finite gradient would make 0 · inf a NaN."""
    dead = x <= kernels.operand(threshold, x)
    out = g * ~dead
    if not np.isfinite(out).all():
        return np.where(dead, 0, g)
    out += kernels.zero(out)  # a negative `g` masked is -0.: PyTorch's masked gradient is +0.
    return out


THRESHOLD_BACKWARD = defop(
    "threshold_backward",
    "ThresholdBackwardBackward0",
    _threshold_backward,
    lambda B, gg, self, threshold: run(B, THRESHOLD_BACKWARD, gg, self, threshold=threshold),
    lambda B, gg, self, threshold: B.zeros_like(gg),
    arg_names=("grad_output", "self"),
    rules=("1 if self > threshold else 0", "0"),
)


def _softplus_backward(g: Any, x: Any, beta: float, threshold: float) -> Any:
    scaled = x * beta
    z = np.exp(scaled)
    return np.asarray(np.where(scaled > threshold, g, g * z / (z + 1)), x.dtype)


def _softplus_double_backward(
    B: Any, gg: Any, g: Any, x: Any, beta: float, threshold: float
) -> Any:
    """PyTorch's softplus_double_backward(gg · g, self, beta, threshold)."""
    scaled = mul_scalar(B, x, beta)
    inside = run(B, SIGMOID_BACKWARD, gg * g, B.sigmoid(scaled)) * (scaled < threshold)
    return mul_scalar(B, inside, beta)


SOFTPLUS_BACKWARD = defop(
    "softplus_backward",
    "SoftplusBackwardBackward0",
    _softplus_backward,
    lambda B, gg, g, x, **params: run(B, SOFTPLUS_BACKWARD, gg, x, **params),
    _softplus_double_backward,
    saves=(0, 1),
    arg_names=("grad_output", "self"),
    rules=("sigmoid(beta · self)", "grad_output · beta · sigmoid'(beta · self)"),
)


LOGICAL_NOT = defop("logical_not", None, np.logical_not, function=UNARY, method=True)
ISNAN = defop(
    "isnan", None, np.isnan, function=UNARY, method=True, out=OutRule(refused=True), backend=True
)

exp = EXP.function
log = LOG.function
log2 = LOG2.function
log10 = LOG10.function
log1p = LOG1P.function
expm1 = EXPM1.function
sqrt = SQRT.function
rsqrt = RSQRT.function
sin = SIN.function
cos = COS.function
tan = TAN.function
asin = arcsin = ASIN.function
acos = arccos = ACOS.function
atan = arctan = ATAN.function
sinh = SINH.function
cosh = COSH.function
tanh = TANH.function
sigmoid = SIGMOID.function
relu = RELU.function
abs = absolute = ABS.function
erf = ERF.function
sign = SIGN.function
floor = FLOOR.function
ceil = CEIL.function
trunc = fix = TRUNC.function
isnan = ISNAN.function
logical_not = LOGICAL_NOT.function


def round(input: Tensor, *, decimals: int = 0) -> Tensor:
    return apply_op(ROUND, (input,))


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return apply_op(SOFTPLUS, (input,), {"beta": beta, "threshold": threshold})
