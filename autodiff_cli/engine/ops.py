"""The op table: every differentiable op declared once, and the functions that apply them.

Each `defop` entry reads like a line of PyTorch's derivatives.yaml: name, grad_fn name, numpy
forward, one backward formula per input (written against the backend `B`, see `backends.py`), what
the formulas need saved, and the local derivative rule in words. Broadcast reduction, dtype promotion
and version checks are done by the machinery (`tensor.apply_op`), not here.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from . import dtypes
from .backends import _sigmoid
from .optable import defop
from .tensor import Size, Tensor, _norm_dim, apply_binary, apply_inplace, apply_op

LN2 = math.log(2.0)
LN10 = math.log(10.0)

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


def _float_input(fn: Any) -> Any:
    """Wraps a numpy function so integer inputs are computed in the default float dtype."""

    def forward(a: Any, **params: Any) -> Any:
        if a.dtype.kind in "biu":
            a = a.astype(dtypes.get_default_dtype().np)
        return fn(a, **params)

    return forward


def _pow_scalar(a: Any, exponent: Any) -> Any:
    if a.dtype.kind in "biu":
        if isinstance(exponent, float):
            a = a.astype(dtypes.get_default_dtype().np)
        elif exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
    return np.power(a, exponent)


def _rpow(a: Any, base: Any) -> Any:
    if a.dtype.kind in "biu" and isinstance(base, float):
        a = a.astype(dtypes.get_default_dtype().np)
    return np.power(np.asarray(base, dtype=a.dtype), a)


def _relu(a: Any) -> Any:
    return np.maximum(a, 0) if a.dtype.kind != "b" else a


def _softplus(a: Any, beta: float = 1.0, threshold: float = 20.0) -> Any:
    scaled = a * beta
    return np.where(scaled > threshold, a, np.log1p(np.exp(scaled)) / beta).astype(a.dtype)


def _erf(a: Any) -> Any:
    return np.vectorize(math.erf, otypes=[a.dtype])(a)


def _reduce_dtype(a: Any) -> Any:
    return np.int64 if a.dtype.kind in "biu" else None


def _sum(a: Any, dim: Any = None, keepdim: bool = False, shape: Any = None) -> Any:
    return np.sum(a, axis=dim, keepdims=keepdim, dtype=_reduce_dtype(a))


def _mean(a: Any, dim: Any = None, keepdim: bool = False, shape: Any = None) -> Any:
    return np.mean(a, axis=dim, keepdims=keepdim, dtype=a.dtype)


def _norm(a: Any, p: float = 2, dim: Any = None, keepdim: bool = False) -> Any:
    if p == 2:
        out = np.sqrt(np.sum(a * a, axis=dim, keepdims=keepdim))
    elif p == math.inf:
        out = np.max(np.abs(a), axis=dim, keepdims=keepdim)
    elif p == -math.inf:
        out = np.min(np.abs(a), axis=dim, keepdims=keepdim)
    elif p == 0:
        out = np.sum(a != 0, axis=dim, keepdims=keepdim).astype(a.dtype)
    elif p == 1:
        out = np.sum(np.abs(a), axis=dim, keepdims=keepdim)
    else:
        out = np.sum(np.abs(a) ** p, axis=dim, keepdims=keepdim) ** (1.0 / p)
    return out.astype(a.dtype) if hasattr(out, "astype") else out


def _softplus_neg(x: Any) -> Any:
    """log(1 + exp(-x)), computed without overflow."""
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0)


def _bce_with_logits(
    x: Any, t: Any, reduction: str = "mean", weight: Any = None, pos_weight: Any = None
) -> Any:
    log_weight = 1 if pos_weight is None else (pos_weight - 1) * t + 1
    loss = (1 - t) * x + log_weight * _softplus_neg(x)
    if weight is not None:
        loss = loss * weight
    return _reduce_loss(np.asarray(loss).astype(x.dtype), reduction)


def _bce_input_grad(
    B: Any, g: Any, x: Any, t: Any, reduction: str, weight: Any, pos_weight: Any
) -> Any:
    if pos_weight is None:
        d = B.sigmoid(x) - t
    else:
        d = (1 - t) - ((B.const(pos_weight) - 1) * t + 1) * (1 - B.sigmoid(x))
    if weight is not None:
        d = d * B.const(weight)
    return d * _loss_scale(g, reduction, _numel(x))


def _bce_target_grad(
    B: Any, g: Any, x: Any, t: Any, reduction: str, weight: Any, pos_weight: Any
) -> Any:
    d = -x
    if pos_weight is not None:
        d = d + (B.const(pos_weight) - 1) * B.softplus_neg(x)
    if weight is not None:
        d = d * B.const(weight)
    return d * _loss_scale(g, reduction, _numel(x))


def _reduce_loss(loss: Any, reduction: str) -> Any:
    if reduction == "mean":
        return np.mean(loss, dtype=loss.dtype)
    if reduction == "sum":
        return np.sum(loss, dtype=loss.dtype)
    return loss


def _select(a: Any, dim: int, index: int, shape: Any = None) -> Any:
    return np.asarray(a)[(slice(None),) * dim + (index, Ellipsis)]  # a view, even when 0-d


def _unbind(a: Any, dim: int = 0) -> tuple:
    lead = (slice(None),) * dim
    a = np.asarray(a)
    return tuple(a[lead + (i, Ellipsis)] for i in range(a.shape[dim]))


def _basic_index(a: Any, index: tuple, shape: Any = None) -> Any:
    """Basic indexing that returns a view (numpy returns a copied scalar for all-int indices)."""
    if not any(p is Ellipsis for p in index):
        index = index + (Ellipsis,)
    return np.asarray(a)[index]


# --------------------------------------------------------------------------------------------
# Backward helpers shared by several formulas (they work on both backends)
# --------------------------------------------------------------------------------------------


def _reduction_grad(B: Any, g: Any, dim: Any, keepdim: bool, shape: tuple) -> Any:
    return B.expand(B.unsqueeze_dims(g, dim, keepdim, len(shape)), shape)


def _count(shape: tuple, dim: Any) -> int:
    if dim is None:
        return int(np.prod(shape, dtype=np.int64)) if shape else 1
    return int(np.prod([shape[d] for d in dim], dtype=np.int64))


def _loss_scale(g: Any, reduction: str, n: int) -> Any:
    return g / n if reduction == "mean" else g


def _norm_grad(B: Any, g: Any, a: Any, r: Any, p: float, dim: Any, keepdim: bool) -> Any:
    nd = len(a.shape)
    g = B.unsqueeze_dims(g, dim, keepdim, nd)
    r = B.unsqueeze_dims(r, dim, keepdim, nd)
    if p == 2:
        return B.where(B.eq(r, 0), 0.0, g * a / r) if not B.creates_graph else g * a / r
    if p == 1:
        return g * B.sign(a)
    if p in (math.inf, -math.inf):
        mask = B.astype_like(B.eq(B.abs(a), r), a)
        return g * B.sign(a) * mask / B.count(mask)
    return g * a * B.abs(a) ** (p - 2) / r ** (p - 1)


def _extreme_grad(B: Any, g: Any, a: Any, r: Any) -> Any:
    mask = B.astype_like(B.eq(a, r), a)
    return g * mask / B.count(mask)


# --------------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------------

# arithmetic
ADD = defop("add", "AddBackward0", operator.add, lambda B, g: g, lambda B, g: g, rules=("1", "1"))
SUB = defop("sub", "SubBackward0", operator.sub, lambda B, g: g, lambda B, g: -g, rules=("1", "-1"))
RSUB = defop(
    "rsub", "RsubBackward1", lambda a, other: other - a, lambda B, g, other: -g, rules=("-1",)
)
MUL = defop(
    "mul",
    "MulBackward0",
    operator.mul,
    lambda B, g, a, b: g * b,
    lambda B, g, a, b: g * a,
    saves=(0, 1),
    cross_saves=True,
    rules=("other", "self"),
)
DIV = defop(
    "div",
    "DivBackward0",
    _true_divide,
    lambda B, g, a, b: g / b,
    lambda B, g, a, b: -g * a / (b * b),
    saves=(0, 1),
    rules=("1 / other", "-self / other²"),
)
NEG = defop("neg", "NegBackward0", operator.neg, lambda B, g: -g, rules=("-1",))
POW = defop(
    "pow_scalar",
    "PowBackward0",
    _pow_scalar,
    lambda B, g, a, exponent: (g * 0 * a) if exponent == 0 else g * exponent * a ** (exponent - 1),
    saves=(0,),
    rules=("exponent · self^(exponent-1)",),
)
POW_TENSOR = defop(
    "pow",
    "PowBackward1",
    np.power,
    lambda B, g, a, b, r: g * b * a ** (b - 1),
    lambda B, g, a, b, r: (
        B.where(B.eq(a, 0), 0.0, g * r * B.log(a)) if not B.creates_graph else g * r * B.log(a)
    ),
    saves=(0, 1, "result"),
    arg_names=("self", "exponent"),
    rules=("exponent · self^(exponent-1)", "self^exponent · ln(self)"),
)
RPOW = defop(
    "rpow",
    "PowBackward2",
    _rpow,
    lambda B, g, r, base: g * r * math.log(base) if base > 0 else g * r * float("nan"),
    saves=("result",),
    rules=("base^exponent · ln(base)",),
)
RECIPROCAL = defop(
    "reciprocal",
    "ReciprocalBackward0",
    _float_input(np.reciprocal),
    lambda B, g, r: -g * r * r,
    saves=("result",),
    rules=("-1 / self²",),
)

# elementwise functions
EXP = defop(
    "exp",
    "ExpBackward0",
    _float_input(np.exp),
    lambda B, g, r: g * r,
    saves=("result",),
    rules=("exp(self)",),
)
LOG = defop(
    "log",
    "LogBackward0",
    _float_input(np.log),
    lambda B, g, a: g / a,
    saves=(0,),
    rules=("1 / self",),
)
LOG2 = defop(
    "log2",
    "Log2Backward0",
    _float_input(np.log2),
    lambda B, g, a: g / (a * LN2),
    saves=(0,),
    rules=("1 / (self · ln 2)",),
)
LOG10 = defop(
    "log10",
    "Log10Backward0",
    _float_input(np.log10),
    lambda B, g, a: g / (a * LN10),
    saves=(0,),
    rules=("1 / (self · ln 10)",),
)
LOG1P = defop(
    "log1p",
    "Log1PBackward0",
    _float_input(np.log1p),
    lambda B, g, a: g / (a + 1),
    saves=(0,),
    rules=("1 / (1 + self)",),
)
EXPM1 = defop(
    "expm1",
    "Expm1Backward0",
    _float_input(np.expm1),
    lambda B, g, r: g * (r + 1),
    saves=("result",),
    rules=("exp(self)",),
)
SQRT = defop(
    "sqrt",
    "SqrtBackward0",
    _float_input(np.sqrt),
    lambda B, g, r: g / (2 * r),
    saves=("result",),
    rules=("1 / (2 · sqrt(self))",),
)
RSQRT = defop(
    "rsqrt",
    "RsqrtBackward0",
    _float_input(lambda a: 1 / np.sqrt(a)),
    lambda B, g, r: -0.5 * g * r * r * r,
    saves=("result",),
    rules=("-1 / (2 · self^(3/2))",),
)
SIN = defop(
    "sin",
    "SinBackward0",
    _float_input(np.sin),
    lambda B, g, a: g * B.cos(a),
    saves=(0,),
    rules=("cos(self)",),
)
COS = defop(
    "cos",
    "CosBackward0",
    _float_input(np.cos),
    lambda B, g, a: -g * B.sin(a),
    saves=(0,),
    rules=("-sin(self)",),
)
TAN = defop(
    "tan",
    "TanBackward0",
    _float_input(np.tan),
    lambda B, g, r: g * (r * r + 1),
    saves=("result",),
    rules=("1 + tan²(self)",),
)
ASIN = defop(
    "asin",
    "AsinBackward0",
    _float_input(np.arcsin),
    lambda B, g, a: g / B.sqrt(1 - a * a),
    saves=(0,),
    rules=("1 / sqrt(1 - self²)",),
)
ACOS = defop(
    "acos",
    "AcosBackward0",
    _float_input(np.arccos),
    lambda B, g, a: -g / B.sqrt(1 - a * a),
    saves=(0,),
    rules=("-1 / sqrt(1 - self²)",),
)
ATAN = defop(
    "atan",
    "AtanBackward0",
    _float_input(np.arctan),
    lambda B, g, a: g / (a * a + 1),
    saves=(0,),
    rules=("1 / (1 + self²)",),
)
SINH = defop(
    "sinh",
    "SinhBackward0",
    _float_input(np.sinh),
    lambda B, g, a: g * B.cosh(a),
    saves=(0,),
    rules=("cosh(self)",),
)
COSH = defop(
    "cosh",
    "CoshBackward0",
    _float_input(np.cosh),
    lambda B, g, a: g * B.sinh(a),
    saves=(0,),
    rules=("sinh(self)",),
)
TANH = defop(
    "tanh",
    "TanhBackward0",
    _float_input(np.tanh),
    lambda B, g, r: B.tanh_backward(g, r),
    saves=("result",),
    rules=("1 - tanh²(self)",),
)
SIGMOID = defop(
    "sigmoid",
    "SigmoidBackward0",
    _float_input(_sigmoid),
    lambda B, g, r: B.sigmoid_backward(g, r),
    saves=("result",),
    rules=("sigmoid(self) · (1 - sigmoid(self))",),
)
RELU = defop(
    "relu",
    "ReluBackward0",
    _relu,
    lambda B, g, r: g * B.gt0(r),
    saves=("result",),
    rules=("1 if self > 0 else 0",),
)
SOFTPLUS = defop(
    "softplus",
    "SoftplusBackward0",
    _softplus,
    lambda B, g, a, beta=1.0, threshold=20.0: (
        B.where(a * beta > threshold, g, g * B.sigmoid(a * beta))
        if not B.creates_graph
        else g * B.sigmoid(a * beta)
    ),
    saves=(0,),
    rules=("sigmoid(beta · self)",),
)
ABS = defop(
    "abs",
    "AbsBackward0",
    np.abs,
    lambda B, g, a: g * B.sign(a),
    saves=(0,),
    rules=("sign(self)",),
)
ERF = defop(
    "erf",
    "ErfBackward0",
    _float_input(_erf),
    lambda B, g, a: g * (2 / math.sqrt(math.pi)) * B.exp(-(a * a)),
    saves=(0,),
    rules=("2/sqrt(pi) · exp(-self²)",),
)
SIGN = defop("sign", "SignBackward0", np.sign, lambda B, g: g * 0, rules=("0",))
FLOOR = defop("floor", "FloorBackward0", np.floor, lambda B, g: g * 0, rules=("0",))
CEIL = defop("ceil", "CeilBackward0", np.ceil, lambda B, g: g * 0, rules=("0",))
ROUND = defop("round", "RoundBackward0", np.round, lambda B, g: g * 0, rules=("0",))
TRUNC = defop("trunc", "TruncBackward0", np.trunc, lambda B, g: g * 0, rules=("0",))

# the backward formulas of tanh and sigmoid are ops of their own under create_graph, as in PyTorch
TANH_BACKWARD = defop(
    "tanh_backward",
    "TanhBackwardBackward0",
    lambda g, r: g * (1 - r * r),
    lambda B, gg, g, r: gg * (1 - r * r),
    lambda B, gg, g, r: gg * g * -2 * r,
    saves=(0, 1),
    arg_names=("grad_output", "output"),
    rules=("1 - output²", "-2 · grad_output · output"),
)
SIGMOID_BACKWARD = defop(
    "sigmoid_backward",
    "SigmoidBackwardBackward0",
    lambda g, r: g * r * (1 - r),
    lambda B, gg, g, r: gg * r * (1 - r),
    lambda B, gg, g, r: gg * g * (1 - 2 * r),
    saves=(0, 1),
    arg_names=("grad_output", "output"),
    rules=("output · (1 - output)", "grad_output · (1 - 2 · output)"),
)

# comparisons and other non-differentiable ops
EQ = defop("eq", None, np.equal)
NE = defop("ne", None, np.not_equal)
LT = defop("lt", None, np.less)
LE = defop("le", None, np.less_equal)
GT = defop("gt", None, np.greater)
GE = defop("ge", None, np.greater_equal)
LOGICAL_NOT = defop("logical_not", None, np.logical_not)
FLOOR_DIVIDE = defop("floor_divide", None, np.floor_divide)
REMAINDER = defop("remainder", None, np.remainder)
ISNAN = defop("isnan", None, np.isnan)

# reductions
SUM = defop(
    "sum",
    "SumBackward0",
    _sum,
    lambda B, g, dim=None, keepdim=False, shape=(): _reduction_grad(B, g, dim, keepdim, shape),
    rules=("1",),
)
SUM_DIM = defop(
    "sum_dim",
    "SumBackward1",
    _sum,
    lambda B, g, dim=None, keepdim=False, shape=(): _reduction_grad(B, g, dim, keepdim, shape),
    rules=("1",),
)
MEAN = defop(
    "mean",
    "MeanBackward0",
    _mean,
    lambda B, g, dim=None, keepdim=False, shape=(): (
        _reduction_grad(B, g, dim, keepdim, shape) / _count(shape, dim)
    ),
    rules=("1 / n",),
)
MEAN_DIM = defop(
    "mean_dim",
    "MeanBackward1",
    _mean,
    lambda B, g, dim=None, keepdim=False, shape=(): (
        _reduction_grad(B, g, dim, keepdim, shape) / _count(shape, dim)
    ),
    rules=("1 / n",),
)
NORM = defop(
    "norm",
    "LinalgVectorNormBackward0",
    _norm,
    lambda B, g, a, r, p=2, dim=None, keepdim=False: _norm_grad(B, g, a, r, p, dim, keepdim),
    saves=(0, "result"),
    rules=("self / ‖self‖",),
)
MAX_ALL = defop(
    "max",
    "MaxBackward1",
    np.max,
    lambda B, g, a, r: _extreme_grad(B, g, a, r),
    saves=(0, "result"),
    rules=("1 at the maximum (shared among ties)",),
)
MIN_ALL = defop(
    "min",
    "MinBackward1",
    np.min,
    lambda B, g, a, r: _extreme_grad(B, g, a, r),
    saves=(0, "result"),
    rules=("1 at the minimum (shared among ties)",),
)

# linear algebra
MM = defop(
    "mm",
    "MmBackward0",
    np.matmul,
    lambda B, g, a, b: B.matmul(g, B.transpose(b)),
    lambda B, g, a, b: B.matmul(B.transpose(a), g),
    saves=(0, 1),
    cross_saves=True,
    arg_names=("self", "mat2"),
    rules=("grad @ mat2.T", "self.T @ grad"),
)
BMM = defop(
    "bmm",
    "BmmBackward0",
    np.matmul,
    lambda B, g, a, b: B.matmul(g, B.transpose(b, -1, -2)),
    lambda B, g, a, b: B.matmul(B.transpose(a, -1, -2), g),
    saves=(0, 1),
    rules=("grad @ other.T", "self.T @ grad"),
)
MATMUL_ND = defop(
    "matmul_nd",
    "UnsafeViewBackward0",
    np.matmul,
    lambda B, g, a, b: B.matmul(g, B.transpose(b, -1, -2)),
    lambda B, g, a, b: B.matmul(B.transpose(a, -1, -2), g),
    saves=(0, 1),
    rules=("grad @ other.T", "self.T @ grad"),
)
DOT = defop(
    "dot",
    "DotBackward0",
    np.dot,
    lambda B, g, a, b: g * b,
    lambda B, g, a, b: g * a,
    saves=(0, 1),
    cross_saves=True,
    arg_names=("self", "tensor"),
    rules=("tensor", "self"),
)
MV = defop(
    "mv",
    "MvBackward0",
    np.matmul,
    lambda B, g, m, v: B.outer(g, v),
    lambda B, g, m, v: B.matmul(B.transpose(m), g),
    saves=(0, 1),
    cross_saves=True,
    arg_names=("self", "vec"),
    rules=("outer(grad, vec)", "self.T @ grad"),
)
OUTER = defop(
    "outer",
    "OuterBackward0",
    np.outer,
    lambda B, g, a, b: B.matmul(g, b),
    lambda B, g, a, b: B.matmul(B.transpose(g), a),
    saves=(0, 1),
    rules=("grad @ vec2", "grad.T @ self"),
)

# shape and views
T = defop(
    "t", "TBackward0", lambda a: a.T, lambda B, g: B.transpose(g), rules=("transpose",), view=True
)
TRANSPOSE = defop(
    "transpose",
    "TransposeBackward0",
    lambda a, dim0, dim1: np.swapaxes(a, dim0, dim1),
    lambda B, g, dim0, dim1: B.transpose(g, dim0, dim1),
    rules=("transpose",),
    view=True,
)
VIEW = defop(
    "view",
    "ViewBackward0",
    lambda a, shape, source: np.reshape(a, shape),
    lambda B, g, shape, source: B.reshape(g, source),
    rules=("reshape back",),
    view=True,
)
UNSQUEEZE = defop(
    "unsqueeze",
    "UnsqueezeBackward0",
    lambda a, dim: np.expand_dims(a, dim),
    lambda B, g, dim: B.reshape(g, tuple(s for i, s in enumerate(g.shape) if i != dim)),
    rules=("squeeze back",),
    view=True,
)
SQUEEZE = defop(
    "squeeze",
    "SqueezeBackward0",
    lambda a, source: np.reshape(a, [s for s in a.shape if s != 1]),
    lambda B, g, source: B.reshape(g, source),
    rules=("unsqueeze back",),
    view=True,
)
SQUEEZE_DIM = defop(
    "squeeze_dim",
    "SqueezeBackward1",
    lambda a, dim, source: np.squeeze(a, dim) if a.shape[dim] == 1 else a,
    lambda B, g, dim, source: B.reshape(g, source),
    rules=("unsqueeze back",),
    view=True,
)
SQUEEZE_DIMS = defop(
    "squeeze_dims",
    "SqueezeBackward4",
    lambda a, dims, source: np.squeeze(a, tuple(d for d in dims if a.shape[d] == 1)),
    lambda B, g, dims, source: B.reshape(g, source),
    rules=("unsqueeze back",),
    view=True,
)
EXPAND = defop(
    "expand",
    "ExpandBackward0",
    lambda a, shape: np.broadcast_to(a, shape),
    lambda B, g, shape: g,
    rules=("sum over the expanded dimensions",),
    view=True,
)
CLONE = defop(
    "clone", "CloneBackward0", lambda a: np.array(a, copy=True), lambda B, g: g, rules=("1",)
)
TO_COPY = defop(
    "to",
    "ToCopyBackward0",
    lambda a, dtype: a.astype(dtype),
    lambda B, g, dtype: g,
    promotes=False,
    rules=("1",),
)
SELECT = defop(
    "select",
    "SelectBackward0",
    _select,
    lambda B, g, dim, index, shape: B.select_backward(g, shape, dim, index),
    rules=("1 at the selected index",),
    view=True,
)
INDEX = defop(
    "index",
    "IndexBackward0",
    lambda a, index, shape: a[index],
    lambda B, g, index, shape: B.index_backward(g, shape, index),
    rules=("1 at the indexed positions",),
)
SLICE = defop(
    "slice",
    "SliceBackward0",
    _basic_index,
    lambda B, g, index, shape: B.index_backward(g, shape, index),
    rules=("1 at the sliced positions",),
    view=True,
)
UNBIND = defop(
    "unbind",
    "UnbindBackward0",
    _unbind,
    lambda B, grads, dim=0: B.stack(grads, dim),
    n_outputs=-1,
    rules=("1 at each row",),
    view=True,
)
STACK = defop(
    "stack",
    "StackBackward0",
    lambda *arrays, dim=0: np.stack(arrays, axis=dim),
    lambda B, g, i, dim=0: _select_any(B, g, dim, i),
    variadic=True,
    rules=("1 at its slice",),
)
WHERE = defop(
    "where",
    "WhereBackward0",
    np.where,
    None,
    lambda B, g, c: B.where(c, g, 0.0),
    lambda B, g, c: B.where(c, 0.0, g),
    saves=(0,),
    promotes=False,
    rules=("", "1 where condition", "1 where not condition"),
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
)


def _numel(x: Any) -> int:
    return int(np.prod(x.shape, dtype=np.int64)) if len(x.shape) else 1


def _select_any(B: Any, g: Any, dim: int, i: int) -> Any:
    if B.creates_graph:
        return g.select(dim, i)
    return g[(slice(None),) * dim + (i,)]


# --------------------------------------------------------------------------------------------
# Functions: the torch.* / Tensor.* surface over the table
# --------------------------------------------------------------------------------------------


def _operand(x: Any) -> Any:
    if isinstance(x, (Tensor, bool, int, float)):
        return x
    if isinstance(x, np.generic):
        return x.item()
    raise TypeError(f"unsupported operand type(s): 'Tensor' and '{type(x).__name__}'")


def add(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    if alpha != 1:
        other = mul(other, alpha) if isinstance(other, Tensor) else other * alpha
    if not isinstance(input, Tensor):
        return apply_binary(ADD, other, _operand(input))
    return apply_binary(ADD, input, _operand(other))


def sub(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    if alpha != 1:
        other = mul(other, alpha) if isinstance(other, Tensor) else other * alpha
    if not isinstance(input, Tensor):
        return rsub(other, input)
    return apply_binary(SUB, input, _operand(other))


def rsub(input: Tensor, other: Any) -> Tensor:
    if isinstance(other, Tensor):
        return apply_op(SUB, (other, input))
    if isinstance(other, float) and input._data.dtype.kind in "biu":
        input = to_dtype(input, dtypes.get_default_dtype())
    return apply_op(RSUB, (input,), {"other": _operand(other)})


def mul(input: Any, other: Any) -> Tensor:
    if not isinstance(input, Tensor):
        return apply_binary(MUL, other, _operand(input))
    return apply_binary(MUL, input, _operand(other))


def div(input: Any, other: Any, *, rounding_mode: str | None = None) -> Tensor:
    if rounding_mode == "floor":
        return floor_divide(input, other)
    if rounding_mode == "trunc":
        return trunc(div(input, other))
    if not isinstance(input, Tensor):
        return mul(reciprocal(other), input)
    return apply_binary(DIV, input, _operand(other))


true_divide = divide = div
multiply = mul
subtract = sub


def floor_divide(input: Any, other: Any) -> Tensor:
    if not isinstance(input, Tensor):
        return apply_op(FLOOR_DIVIDE, (_as_tensor(input, other), other))
    return apply_op(FLOOR_DIVIDE, (input, _operand(other)))


def remainder(input: Any, other: Any) -> Tensor:
    if not isinstance(input, Tensor):
        return apply_op(REMAINDER, (_as_tensor(input, other), other))
    return apply_op(REMAINDER, (input, _operand(other)))


fmod = remainder


def _as_tensor(value: Any, like: Tensor) -> Tensor:
    from .creation import tensor as make

    return make(value)


def pow(input: Any, exponent: Any) -> Tensor:
    if not isinstance(input, Tensor):
        return apply_op(RPOW, (exponent,), {"base": input})
    if isinstance(exponent, Tensor):
        return apply_op(POW_TENSOR, (input, exponent))
    return apply_op(POW, (input,), {"exponent": _operand(exponent)})


def square(input: Tensor) -> Tensor:
    return pow(input, 2)


def neg(input: Tensor) -> Tensor:
    return apply_op(NEG, (input,))


negative = neg


def _unary(op: Any):
    def fn(input: Tensor) -> Tensor:
        return apply_op(op, (input,))

    fn.__name__ = op.name
    fn.__doc__ = f"torch.{op.name} (grad_fn {op.grad_fn})"
    return fn


exp = _unary(EXP)
log = _unary(LOG)
log2 = _unary(LOG2)
log10 = _unary(LOG10)
log1p = _unary(LOG1P)
expm1 = _unary(EXPM1)
sqrt = _unary(SQRT)
rsqrt = _unary(RSQRT)
sin = _unary(SIN)
cos = _unary(COS)
tan = _unary(TAN)
asin = arcsin = _unary(ASIN)
acos = arccos = _unary(ACOS)
atan = arctan = _unary(ATAN)
sinh = _unary(SINH)
cosh = _unary(COSH)
tanh = _unary(TANH)
sigmoid = _unary(SIGMOID)
relu = _unary(RELU)
abs = absolute = _unary(ABS)
erf = _unary(ERF)
sign = _unary(SIGN)
floor = _unary(FLOOR)
ceil = _unary(CEIL)
trunc = fix = _unary(TRUNC)
reciprocal = _unary(RECIPROCAL)
isnan = _unary(ISNAN)
logical_not = _unary(LOGICAL_NOT)


def round(input: Tensor, *, decimals: int = 0) -> Tensor:
    return apply_op(ROUND, (input,))


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    return apply_op(SOFTPLUS, (input,), {"beta": beta, "threshold": threshold})


def _compare(op: Any):
    def fn(input: Any, other: Any) -> Tensor:
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


def _dims(dim: Any, ndim: int) -> tuple | None:
    if dim is None:
        return None
    if isinstance(dim, (list, tuple)):
        return tuple(_norm_dim(int(d), ndim) for d in dim)
    return (_norm_dim(int(dim), ndim),)


def sum(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    if dtype is not None:
        input = input.to(dtype)
    dims = _dims(dim, input.ndim)
    op = SUM if dims is None else SUM_DIM
    return apply_op(op, (input,), {"dim": dims, "keepdim": keepdim, "shape": input._data.shape})


def mean(input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    if dtype is not None:
        input = input.to(dtype)
    if input._data.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {_type_word(input._data.dtype)}"
        )
    dims = _dims(dim, input.ndim)
    op = MEAN if dims is None else MEAN_DIM
    return apply_op(op, (input,), {"dim": dims, "keepdim": keepdim, "shape": input._data.shape})


def _type_word(dt: Any) -> str:
    return {
        "float32": "Float",
        "float64": "Double",
        "int64": "Long",
        "int32": "Int",
        "bool": "Bool",
        "float16": "Half",
    }.get(str(dt), str(dt))


def norm(
    input: Tensor, p: Any = "fro", dim: Any = None, keepdim: bool = False, dtype: Any = None
) -> Tensor:
    if p in ("fro", None):
        p = 2
    if input._data.dtype.kind != "f":
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            f"{_type_word(input._data.dtype)}"
        )
    return apply_op(
        NORM, (input,), {"p": float(p), "dim": _dims(dim, input.ndim), "keepdim": keepdim}
    )


def max(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    if isinstance(dim, Tensor):
        return maximum(input, dim)
    if dim is None:
        if input._data.size == 0:
            raise RuntimeError(
                "max(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                "the reduction dim with the 'dim' argument."
            )
        return apply_op(MAX_ALL, (input,))
    from .reductions import max_dim

    return max_dim(input, dim, keepdim)


def min(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    if isinstance(dim, Tensor):
        return minimum(input, dim)
    if dim is None:
        if input._data.size == 0:
            raise RuntimeError(
                "min(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                "the reduction dim with the 'dim' argument."
            )
        return apply_op(MIN_ALL, (input,))
    from .reductions import min_dim

    return min_dim(input, dim, keepdim)


def maximum(input: Tensor, other: Tensor) -> Tensor:
    from .elementwise import maximum as elementwise_maximum

    return elementwise_maximum(input, other)


def minimum(input: Tensor, other: Tensor) -> Tensor:
    from .elementwise import minimum as elementwise_minimum

    return elementwise_minimum(input, other)


def _check_matmul_dtypes(a: Tensor, b: Tensor, what: str) -> None:
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {a._data.dtype} != {b._data.dtype}"
            if what == "mm"
            else f"expected scalar type {_type_word(a._data.dtype)} but found {_type_word(b._data.dtype)}"
        )


def mm(input: Tensor, mat2: Tensor) -> Tensor:
    if input.ndim != 2 or mat2.ndim != 2:
        raise RuntimeError(f"{'self' if input.ndim != 2 else 'mat2'} must be a matrix")
    if input.shape[1] != mat2.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({input.shape[0]}x{input.shape[1]} and "
            f"{mat2.shape[0]}x{mat2.shape[1]})"
        )
    _check_matmul_dtypes(input, mat2, "mm")
    return apply_op(MM, (input, mat2))


def dot(input: Tensor, other: Tensor) -> Tensor:
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {other.ndim}D tensors")
    if input.shape[0] != other.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{input.shape[0]}] and src [{other.shape[0]}] to have the same number "
            f"of elements, but got {input.shape[0]} and {other.shape[0]} elements respectively"
        )
    return apply_op(DOT, (input, other))


inner = dot


def mv(input: Tensor, vec: Tensor) -> Tensor:
    if input.ndim != 2 or vec.ndim != 1:
        raise RuntimeError("vector + matrix @ vector expected")
    if input.shape[1] != vec.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({input.shape[0]}), mat ({input.shape[0]}x{input.shape[1]}), "
            f"vec ({vec.shape[0]})"
        )
    return apply_op(MV, (input, vec))


def outer(input: Tensor, vec2: Tensor) -> Tensor:
    return apply_op(OUTER, (input, vec2))


ger = outer


def matmul(input: Tensor, other: Tensor) -> Tensor:
    """Dispatches as PyTorch does: dot, mv, mm, unsqueeze-mm-squeeze, or a batched product."""
    da, db = input.ndim, other.ndim
    if da == 0 or db == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D"
        )
    if da == 1 and db == 1:
        return dot(input, other)
    if da == 2 and db == 1:
        return mv(input, other)
    if da == 1 and db == 2:
        if input.shape[0] != other.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied (1x{input.shape[0]} and "
                f"{other.shape[0]}x{other.shape[1]})"
            )
        return squeeze_dims(mm(unsqueeze(input, 0), other), (0,))
    if da == 2 and db == 2:
        return mm(input, other)
    if input.shape[-1] != other.shape[-2 if db > 1 else 0]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{input.shape[0]}, {input.shape[-1]}] but got: [{other.shape[0]}, {other.shape[-2 if db > 1 else 0]}]."
        )
    if db == 1:
        return squeeze_dims(apply_op(MATMUL_ND, (input, unsqueeze(other, 1))), (-1,))
    if da == 1:
        return squeeze_dims(apply_op(MATMUL_ND, (unsqueeze(input, 0), other)), (-2,))
    return apply_op(MATMUL_ND, (input, other))


def bmm(input: Tensor, mat2: Tensor) -> Tensor:
    if input.ndim != 3 or mat2.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    return apply_op(BMM, (input, mat2))


def t(input: Tensor) -> Tensor:
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return apply_op(T, (input,))


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    nd = input.ndim
    return apply_op(TRANSPOSE, (input,), {"dim0": _norm_dim(dim0, nd), "dim1": _norm_dim(dim1, nd)})


swapaxes = swapdims = transpose


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    return apply_op(UNSQUEEZE, (input,), {"dim": _norm_dim(dim, input.ndim + 1)})


def squeeze(input: Tensor, dim: Any = None) -> Tensor:
    source = input._data.shape
    if dim is None:
        return apply_op(SQUEEZE, (input,), {"source": source})
    if isinstance(dim, (tuple, list)):
        return squeeze_dims(input, tuple(dim))
    return apply_op(SQUEEZE_DIM, (input,), {"dim": _norm_dim(dim, input.ndim), "source": source})


def squeeze_dims(input: Tensor, dims: tuple) -> Tensor:
    nd = input.ndim
    dims = tuple(_norm_dim(d, nd) for d in dims)
    return apply_op(SQUEEZE_DIMS, (input,), {"dims": dims, "source": input._data.shape})


def _infer_shape(shape: tuple, numel: int) -> tuple:
    shape = tuple(int(s) for s in shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            if s < 0:
                raise RuntimeError(f"invalid shape dimension {s}")
            known *= s
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(
                f"shape '[{', '.join(str(s) for s in shape)}]' is invalid for input of size {numel}"
            )
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise RuntimeError(
            f"shape '[{', '.join(str(s) for s in shape)}]' is invalid for input of size {numel}"
        )
    return shape


def shape_arg(args: tuple) -> tuple:
    """`f(2, 3)`, `f((2, 3))`, `f([2, 3])` and `f(torch.Size([2, 3]))` all mean shape (2, 3)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    out = []
    for a in args:
        if isinstance(a, Tensor):
            a = a.__index__()
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            raise TypeError(f"an integer is required for each dimension (got {type(a).__name__})")
        out.append(int(a))
    return tuple(out)


def reshape(input: Tensor, *shape: Any) -> Tensor:
    target = _infer_shape(shape_arg(shape), input._data.size)
    return apply_op(VIEW, (input,), {"shape": target, "source": input._data.shape})


view = reshape


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    shape = input._data.shape
    if not shape:
        return reshape(input, 1)
    s, e = _norm_dim(start_dim, len(shape)), _norm_dim(end_dim, len(shape))
    if s == e:
        return input
    n = 1
    for d in shape[s : e + 1]:
        n *= d
    return reshape(input, shape[:s] + (n,) + shape[e + 1 :])


def expand(input: Tensor, *sizes: Any) -> Tensor:
    target = list(shape_arg(sizes))
    shape = input._data.shape
    if len(target) < len(shape):
        raise RuntimeError(
            f"expand(torch.FloatTensor{{[{', '.join(map(str, shape))}]}}, size=[{', '.join(map(str, target))}]): "
            "the number of sizes provided ({}) must be greater or equal to the number of dimensions "
            "in the tensor ({})".format(len(target), len(shape))
        )
    lead = len(target) - len(shape)
    for i, s in enumerate(shape):
        if target[lead + i] == -1:
            target[lead + i] = s
        elif s != 1 and target[lead + i] != s:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[lead + i]}) must match the existing size "
                f"({s}) at non-singleton dimension {lead + i}.  Target sizes: "
                f"[{', '.join(map(str, target))}].  Tensor sizes: [{', '.join(map(str, shape))}]"
            )
    return apply_op(EXPAND, (input,), {"shape": tuple(target)})


def expand_as(input: Tensor, other: Tensor) -> Tensor:
    return expand(input, other._data.shape)


def clone(input: Tensor, *, memory_format: Any = None) -> Tensor:
    return apply_op(CLONE, (input,))


def to_dtype(input: Tensor, dtype: Any) -> Tensor:
    target = dtypes.to_numpy(dtype)
    if input._data.dtype == target:
        return input
    return apply_op(TO_COPY, (input,), {"dtype": target})


def select(input: Tensor, dim: int, index: int) -> Tensor:
    nd = input.ndim
    if nd == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _norm_dim(dim, nd)
    size = input._data.shape[dim]
    index = int(index)
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
    return apply_op(
        SELECT,
        (input,),
        {"dim": dim, "index": index % size if size else index, "shape": input._data.shape},
    )


def unbind(input: Tensor, dim: int = 0) -> tuple:
    if input.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return apply_op(UNBIND, (input,), {"dim": _norm_dim(dim, input.ndim)})


def stack(tensors: Any, dim: int = 0) -> Tensor:
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0]._data.shape
    for i, t_ in enumerate(tensors):
        if t_._data.shape != first:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got [{', '.join(map(str, first))}] "
                f"at entry 0 and [{', '.join(map(str, t_._data.shape))}] at entry {i}"
            )
    return apply_op(STACK, tuple(tensors), {"dim": _norm_dim(dim, len(first) + 1)})


def where(condition: Any, input: Any = None, other: Any = None) -> Any:
    if input is None and other is None:
        from .creation import tensor as make

        return tuple(make(ix) for ix in np.nonzero(condition._data))
    from .tensor import promote

    ops_ = [x if isinstance(x, Tensor) else _operand(x) for x in (input, other)]
    datas, target = promote([x._data if isinstance(x, Tensor) else x for x in ops_], tuple(ops_))
    a = ops_[0].to(dtypes.BY_NUMPY[target]) if isinstance(ops_[0], Tensor) else ops_[0]
    b = ops_[1].to(dtypes.BY_NUMPY[target]) if isinstance(ops_[1], Tensor) else ops_[1]
    cond = condition if isinstance(condition, Tensor) else _as_tensor(condition, None)
    if cond._data.dtype != np.bool_:
        cond = cond.to(dtypes.bool_)
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        from .creation import tensor as make

        a = make(a, dtype=dtypes.BY_NUMPY[target])
    out = apply_op(WHERE, (cond, a, b))
    if out._data.dtype != target:
        out._data = out._data.astype(target)
    return out


def select_backward(g: Tensor, shape: tuple, dim: int, index: int) -> Tensor:
    return apply_op(SELECT_BACKWARD, (g,), {"shape": shape, "dim": dim, "index": index})


def index_backward(g: Tensor, shape: tuple, index: Any) -> Tensor:
    return apply_op(INDEX_BACKWARD, (g,), {"shape": shape, "index": index})


def _select_backward_np(g: Any, shape: tuple, dim: int, index: int) -> Any:
    out = np.zeros(shape, dtype=g.dtype)
    out[(slice(None),) * dim + (index,)] = g
    return out


def _index_backward_np(g: Any, shape: tuple, index: Any) -> Any:
    out = np.zeros(shape, dtype=g.dtype)
    np.add.at(out, index, g)
    return out


SELECT_BACKWARD = defop(
    "select_backward",
    "SelectBackwardBackward0",
    _select_backward_np,
    lambda B, g, shape, dim, index: _select_any(B, g, dim, index),
    rules=("select",),
)
INDEX_BACKWARD = defop(
    "index_backward",
    "IndexPutBackward0",
    _index_backward_np,
    lambda B, g, shape, index: g[index] if not B.creates_graph else g._index_plain(index),
    rules=("index",),
)


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


def _attach_tensor_methods() -> None:
    """Tensor methods and operators are the functions above, bound."""
    methods = {
        "add": add,
        "sub": sub,
        "mul": mul,
        "div": div,
        "true_divide": div,
        "divide": div,
        "multiply": mul,
        "subtract": sub,
        "pow": pow,
        "square": square,
        "neg": neg,
        "negative": neg,
        "floor_divide": floor_divide,
        "remainder": remainder,
        "fmod": remainder,
        "exp": exp,
        "log": log,
        "log2": log2,
        "log10": log10,
        "log1p": log1p,
        "expm1": expm1,
        "sqrt": sqrt,
        "rsqrt": rsqrt,
        "sin": sin,
        "cos": cos,
        "tan": tan,
        "asin": asin,
        "acos": acos,
        "atan": atan,
        "arcsin": asin,
        "arccos": acos,
        "arctan": atan,
        "sinh": sinh,
        "cosh": cosh,
        "tanh": tanh,
        "sigmoid": sigmoid,
        "relu": relu,
        "abs": abs,
        "absolute": abs,
        "erf": erf,
        "sign": sign,
        "floor": floor,
        "ceil": ceil,
        "round": round,
        "trunc": trunc,
        "fix": trunc,
        "reciprocal": reciprocal,
        "isnan": isnan,
        "logical_not": logical_not,
        "eq": eq,
        "ne": ne,
        "lt": lt,
        "le": le,
        "gt": gt,
        "ge": ge,
        "not_equal": ne,
        "less": lt,
        "less_equal": le,
        "greater": gt,
        "greater_equal": ge,
        "sum": sum,
        "mean": mean,
        "norm": norm,
        "max": max,
        "min": min,
        "maximum": maximum,
        "minimum": minimum,
        "mm": mm,
        "dot": dot,
        "inner": dot,
        "mv": mv,
        "outer": outer,
        "ger": outer,
        "matmul": matmul,
        "bmm": bmm,
        "t": t,
        "transpose": transpose,
        "swapaxes": transpose,
        "swapdims": transpose,
        "unsqueeze": unsqueeze,
        "squeeze": squeeze,
        "reshape": reshape,
        "view": reshape,
        "flatten": flatten,
        "expand": expand,
        "expand_as": expand_as,
        "clone": clone,
        "select": select,
        "unbind": unbind,
        "softplus": softplus,
    }
    for name, fn in methods.items():
        setattr(Tensor, name, fn)

    def view_as(self: Tensor, other: Tensor) -> Tensor:
        return reshape(self, other._data.shape)

    def reshape_as(self: Tensor, other: Tensor) -> Tensor:
        return reshape(self, other._data.shape)

    Tensor.view_as = view_as
    Tensor.reshape_as = reshape_as
    Tensor.T = property(lambda self: self if self.ndim < 2 else _permute_all(self))
    Tensor.mT = property(lambda self: transpose(self, -2, -1))

    def _binary(fn: Any, swap: bool = False):
        def method(self: Tensor, other: Any) -> Any:
            if not isinstance(other, (Tensor, bool, int, float, np.generic)):
                return NotImplemented
            return fn(other, self) if swap else fn(self, other)

        return method

    def _fast(op: Any, slow: Any):
        """`x * y` with a Tensor or float straight to the machinery; the rest via `slow`."""

        def method(self: Tensor, other: Any) -> Any:
            cls = other.__class__
            if cls is float or cls is Tensor:
                return apply_binary(op, self, other)
            if not isinstance(other, (Tensor, bool, int, float, np.generic)):
                return NotImplemented
            return slow(self, other)

        return method

    def _fast_reflected(op: Any):
        def method(self: Tensor, other: Any) -> Any:
            if other.__class__ is float:
                return apply_binary(op, self, other)
            return apply_binary(op, self, _operand(other)) if _is_number(other) else NotImplemented

        return method

    Tensor.__add__ = _fast(ADD, add)
    Tensor.__radd__ = _fast_reflected(ADD)
    Tensor.__sub__ = _fast(SUB, sub)
    Tensor.__rsub__ = lambda self, other: rsub(self, other) if _is_number(other) else NotImplemented
    Tensor.__mul__ = _fast(MUL, mul)
    Tensor.__rmul__ = _fast_reflected(MUL)
    Tensor.__truediv__ = _fast(DIV, div)
    Tensor.__rtruediv__ = lambda self, other: (
        mul(reciprocal(self), other) if _is_number(other) else NotImplemented
    )
    Tensor.__floordiv__ = _binary(floor_divide)
    Tensor.__rfloordiv__ = _binary(floor_divide, swap=True)
    Tensor.__mod__ = _binary(remainder)
    Tensor.__rmod__ = _binary(remainder, swap=True)
    Tensor.__pow__ = _binary(pow)
    Tensor.__rpow__ = lambda self, other: pow(other, self) if _is_number(other) else NotImplemented
    Tensor.__matmul__ = lambda self, other: (
        matmul(self, other) if isinstance(other, Tensor) else NotImplemented
    )
    Tensor.__rmatmul__ = lambda self, other: (
        matmul(other, self) if isinstance(other, Tensor) else NotImplemented
    )
    Tensor.__neg__ = neg
    Tensor.__pos__ = lambda self: self
    Tensor.__abs__ = abs
    Tensor.__invert__ = logical_not
    Tensor.__eq__ = _binary(eq)
    Tensor.__ne__ = _binary(ne)
    Tensor.__lt__ = _binary(lt)
    Tensor.__le__ = _binary(le)
    Tensor.__gt__ = _binary(gt)
    Tensor.__ge__ = _binary(ge)
    Tensor.__hash__ = lambda self: id(self)

    def _inplace_method(op: Any):
        def method(self: Tensor, other: Any) -> Tensor:
            return inplace(op, self, other)

        return method

    Tensor.add_ = _inplace_method(ADD)
    Tensor.sub_ = _inplace_method(SUB)
    Tensor.mul_ = _inplace_method(MUL)
    Tensor.div_ = _inplace_method(DIV)

    def _iop(op: Any):
        def method(self: Tensor, other: Any) -> Any:
            if not isinstance(other, (Tensor, bool, int, float, np.generic)):
                return NotImplemented
            return inplace(op, self, other)

        return method

    Tensor.__iadd__ = _iop(ADD)
    Tensor.__isub__ = _iop(SUB)
    Tensor.__imul__ = _iop(MUL)
    Tensor.__itruediv__ = _iop(DIV)

    def pow_(self: Tensor, exponent: Any) -> Tensor:
        if isinstance(exponent, Tensor):
            return apply_inplace(POW_TENSOR, self, (exponent,))
        return apply_inplace(POW, self, (), {"exponent": _operand(exponent)})

    Tensor.pow_ = pow_
    Tensor.__ipow__ = pow_
    for name, op in (
        ("exp_", EXP),
        ("log_", LOG),
        ("sin_", SIN),
        ("cos_", COS),
        ("tanh_", TANH),
        ("sigmoid_", SIGMOID),
        ("relu_", RELU),
        ("abs_", ABS),
        ("neg_", NEG),
        ("sqrt_", SQRT),
        ("floor_", FLOOR),
        ("ceil_", CEIL),
        ("round_", ROUND),
        ("trunc_", TRUNC),
        ("reciprocal_", RECIPROCAL),
        ("sign_", SIGN),
    ):
        setattr(Tensor, name, (lambda o: lambda self: apply_inplace(o, self, ()))(op))


def _is_number(x: Any) -> bool:
    return isinstance(x, (bool, int, float, np.generic))


def _permute_all(t_: Tensor) -> Tensor:
    from .views import permute

    return permute(t_, tuple(range(t_.ndim - 1, -1, -1)))


_attach_tensor_methods()

__all__ = ["Size"]
