"""The op entries of `torch.nn.functional`'s activations, softmax and losses (leaky_relu, gelu,
elu, logsigmoid, silu, softmax, log_softmax, mse/smooth_l1/huber, binary_cross_entropy,
nll_loss): one `defop` each, with the numpy forwards and helpers their formulas share (arrays,
or Tensors under `B.creates_graph`). `nn/functional.py` calls them; it declares no op.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtypes, kernels
from ..core.optable import defop
from ..core.out_arg import OutRule
from ..core.tensor import Tensor
from . import indexing, unary
from .arithmetic import _reduce_loss as _reduce_np
from .formula_ops import div_scalar, run
from .nn_backward import (
    BCE_BACKWARD,
    ELU_BACKWARD,
    GELU_BACKWARD,
    HUBER_LOSS_BACKWARD,
    LEAKY_RELU_BACKWARD,
    LOG_SIGMOID_BACKWARD,
    LOG_SOFTMAX_BACKWARD,
    MSE_LOSS_BACKWARD,
    NLL_LOSS2D_BACKWARD,
    NLL_LOSS_BACKWARD,
    SMOOTH_L1_LOSS_BACKWARD,
    SOFTMAX_BACKWARD,
)

SQRT_2 = math.sqrt(2.0)
SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
GELU_TANH_COEFF = 0.044715
LOG_CLAMP = -100.0
REDUCTIONS = ("mean", "sum", "none")

# --------------------------------------------------------------------------------------------
# Helpers shared by forwards and formulas (formulas work on arrays and, with `B.creates_graph`,
# on Tensors)
# --------------------------------------------------------------------------------------------


def _float_only(x: Tensor, kernel: str) -> None:
    dtypes.require_floating(x._data.dtype, kernel)


def _check_reduction(reduction: str) -> None:
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


# --------------------------------------------------------------------------------------------
# Forwards
# --------------------------------------------------------------------------------------------


def _gelu(a: np.ndarray, approximate: str) -> np.ndarray:
    if approximate == "tanh":
        inner = SQRT_2_OVER_PI * (a + GELU_TANH_COEFF * a**3)
        return (0.5 * a * (1 + np.tanh(inner))).astype(a.dtype)
    return (a * 0.5 * (1 + unary._erf(a / SQRT_2))).astype(a.dtype)


def _elu(a: np.ndarray, alpha: float, scale: float, input_scale: float) -> np.ndarray:
    negative = alpha * np.expm1(np.minimum(a, 0) * input_scale)
    return (scale * np.where(a > 0, a, negative)).astype(a.dtype)


# (the reductions as ufunc methods: np.max and np.sum are Python wrappers of them, ~1.5 µs a call)
def _softmax(a: np.ndarray, dim: int) -> np.ndarray:
    e = np.exp(a - np.maximum.reduce(a, dim, None, None, True))
    e /= np.add.reduce(e, dim, None, None, True)  # (`e` is new: divided in place)
    return e.astype(a.dtype, copy=False)


def _log_softmax(a: np.ndarray, dim: int) -> np.ndarray:
    shifted = a - np.maximum.reduce(a, dim, None, None, True)
    shifted -= np.log(np.add.reduce(np.exp(shifted), dim, None, None, True))
    return shifted.astype(a.dtype, copy=False)


def _smooth_l1(a: Any, t: Any, reduction: str, beta: float) -> np.ndarray:
    d = np.abs(a - t)
    loss = np.where(d < beta, 0.5 * d * d / beta if beta else 0 * d, d - 0.5 * beta)
    return _reduce_np(np.asarray(loss, a.dtype), reduction)


def _huber(a: Any, t: Any, reduction: str, delta: float) -> np.ndarray:
    d = np.abs(a - t)
    loss = np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))
    return _reduce_np(np.asarray(loss, a.dtype), reduction)


def _bce(x: np.ndarray, t: np.ndarray, reduction: str, weight: Any) -> np.ndarray:
    log_x = np.maximum(np.log(x), LOG_CLAMP)
    log_1mx = np.maximum(np.log1p(-x), LOG_CLAMP)
    loss = -(t * log_x + (1 - t) * log_1mx)
    if weight is not None:
        loss = loss * weight
    return _reduce_np(np.asarray(loss, x.dtype), reduction)


def _bce_target_grad(B: Any, g: Any, x: Any, t: Any, reduction: str, weight: Any) -> Any:
    """PyTorch's binary_cross_entropy_target_backward: -logit(self) · grad (· weight), then
    `/ numel` (DivBackward1) for the mean."""
    d = (B.log(1 - x) - B.log(x)) * g
    if weight is not None:
        d = d * B.const(weight)
    return div_scalar(B, d, _numel(x)) if reduction == "mean" else d


def _numel(x: Any) -> int:
    return int(np.prod(x.shape, dtype=np.int64)) if len(x.shape) else 1


def _nll(a: np.ndarray, coefficients: np.ndarray, reduction: str, total: float) -> np.ndarray:
    """The loss as a weighted sum: `coefficients` holds -weight[target] at each picked entry.
    Only those entries are multiplied: another class's -inf log-probability (a masked logit)
    must not turn the sum into NaN (0 · -inf), as PyTorch picks the target's entry alone."""
    products = np.multiply(a, coefficients, out=np.zeros_like(a), where=coefficients != 0)
    picked = np.sum(products, axis=-1, dtype=a.dtype) if a.ndim else products
    if reduction == "none":
        return np.asarray(picked, a.dtype)
    out = np.sum(picked, dtype=a.dtype)
    return np.asarray(out / np.asarray(total, a.dtype) if reduction == "mean" else out, a.dtype)


def _nll2d(
    a: np.ndarray,
    target: np.ndarray,
    weight: Any,
    ignore_index: int,
    reduction: str,
    total_weight: Any,
) -> np.ndarray:
    """PyTorch's nll_loss2d forward on (N, C, H, W) input and (N, H, W) targets: -input at the
    target class · weight[target] (0 where ignored); summed and, for the mean, divided by the
    total weight."""
    dtype = a.dtype
    keep = target != ignore_index
    safe = np.where(keep, target, 0)
    picked = np.take_along_axis(a, safe[:, None], axis=1)[:, 0]
    if weight is not None:
        picked = np.asarray(picked * weight[safe], dtype)
    if reduction == "none":
        return np.where(keep, np.negative(picked), dtype.type(0)).astype(dtype)
    if target.size == 0:
        return np.asarray(np.nan if reduction == "mean" else 0, dtype)
    loss = np.negative(picked[keep]).sum(dtype=dtype)
    if reduction == "mean":
        loss = loss / np.asarray(total_weight, dtype)
    return np.asarray(loss, dtype)


# --------------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------------


def _leaky_relu(a: np.ndarray, negative_slope: float) -> np.ndarray:
    return np.where(a > 0, a, a * np.asarray(negative_slope, a.dtype))


LEAKY_RELU = defop(
    "leaky_relu",
    "LeakyReluBackward0",
    _leaky_relu,
    lambda B, g, self, negative_slope: run(
        B, LEAKY_RELU_BACKWARD, g, self, negative_slope=negative_slope
    ),
    rules=("1 if self > 0 else negative_slope",),
)
_INPLACE_NEGATIVE_SLOPE = (
    "In-place {} backward calculation is triggered with a negative slope which is not supported. "
    "This is caused by calling in-place forward function with a negative slope, please call "
    "out-of-place version instead."
)


def _leaky_relu_result_grad(B: Any, g: Any, result: Any, negative_slope: float) -> Any:
    """leaky_relu_'s gradient from its result (the input is overwritten): the result has the
    input's sign only for a slope >= 0, which PyTorch checks here, in the backward."""
    if negative_slope < 0:
        raise RuntimeError(
            _INPLACE_NEGATIVE_SLOPE.format("leakyReLu") + " File an issue at "
            "https://github.com/pytorch/pytorch if you do require supporting in-place leakRelu "
            "backward calculation with negative slope"
        )
    return run(B, LEAKY_RELU_BACKWARD, g, result, negative_slope=negative_slope)


LEAKY_RELU_ = defop(
    "leaky_relu_",
    "LeakyReluBackward1",
    _leaky_relu,
    _leaky_relu_result_grad,
    rules=("1 if result > 0 else negative_slope",),
)
GELU = defop(
    "gelu",
    "GeluBackward0",
    _gelu,
    lambda B, g, self, approximate: run(B, GELU_BACKWARD, g, self, approximate=approximate),
    rules=("Φ(self) + self · φ(self)",),
)
ELU = defop(
    "elu",
    "EluBackward0",
    _elu,
    lambda B, g, self, **params: run(B, ELU_BACKWARD, g, self, **params),
    rules=("scale if self > 0 else scale · alpha · exp(self)",),
)


def _elu_result_grad(
    B: Any, g: Any, result: Any, alpha: float, scale: float, input_scale: float
) -> Any:
    """elu_'s (and selu_'s) gradient from its result, PyTorch's `elu_backward(is_result=True)`:
    `input_scale · (result + alpha · scale)` where result <= 0, else `scale`."""
    if alpha < 0:
        raise RuntimeError(_INPLACE_NEGATIVE_SLOPE.format("elu"))
    return B.where(result <= 0, g * (input_scale * (result + alpha * scale)), g * scale)


ELU_ = defop(
    "elu_",
    "EluBackward1",
    _elu,
    _elu_result_grad,
    rules=("scale if result > 0 else input_scale · (result + alpha · scale)",),
)
LOG_SIGMOID = defop(
    "log_sigmoid",
    "LogSigmoidBackward0",
    lambda a: np.asarray(np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a))), a.dtype),
    lambda B, g, self: run(B, LOG_SIGMOID_BACKWARD, g, self),
    rules=("sigmoid(-self)",),
)
SILU = defop(
    "silu",
    "SiluBackward0",
    lambda a: (a * kernels.sigmoid(a)).astype(a.dtype),
    lambda B, g, self: g * B.sigmoid(self) * (1 + self * (1 - B.sigmoid(self))),
    rules=("sigmoid(self) · (1 + self · (1 - sigmoid(self)))",),
)
SOFTMAX = defop(
    "softmax",
    "SoftmaxBackward0",
    _softmax,
    lambda B, g, result, dim: run(B, SOFTMAX_BACKWARD, g, result, dim=dim),
    rules=("softmax · (grad - Σ grad · softmax)",),
    out=OutRule("exact"),
    aten="_softmax",
)
LOG_SOFTMAX = defop(
    "log_softmax",
    "LogSoftmaxBackward0",
    _log_softmax,
    lambda B, g, result, dim: run(B, LOG_SOFTMAX_BACKWARD, g, result, dim=dim),
    rules=("grad - softmax · Σ grad",),
    out=OutRule("exact"),
    aten="_log_softmax",
)
MSE_LOSS = defop(
    "mse_loss",
    "MseLossBackward0",
    lambda a, t, reduction: _reduce_np(np.asarray((a - t) ** 2, a.dtype), reduction),
    lambda B, g, self, target, reduction: run(
        B, MSE_LOSS_BACKWARD, g, self, target, reduction=reduction
    ),
    lambda B, g, self, target, reduction: run(
        B, MSE_LOSS_BACKWARD, g, target, self, reduction=reduction
    ),
    arg_names=("self", "target"),
    rules=("2 · (self - target) / n", "-2 · (self - target) / n"),
)
SMOOTH_L1_LOSS = defop(
    "smooth_l1_loss",
    "SmoothL1LossBackward0",
    _smooth_l1,
    lambda B, g, self, target, **params: run(B, SMOOTH_L1_LOSS_BACKWARD, g, self, target, **params),
    lambda B, g, self, target, **params: run(B, SMOOTH_L1_LOSS_BACKWARD, g, target, self, **params),
    arg_names=("self", "target"),
    rules=("(self - target) / beta inside beta, else sign", "the negative"),
)
HUBER_LOSS = defop(
    "huber_loss",
    "HuberLossBackward0",
    _huber,
    lambda B, g, self, target, **params: run(B, HUBER_LOSS_BACKWARD, g, self, target, **params),
    lambda B, g, self, target, **params: run(B, HUBER_LOSS_BACKWARD, g, target, self, **params),
    arg_names=("self", "target"),
    rules=("self - target inside delta, else delta · sign", "the negative"),
)
BCE = defop(
    "binary_cross_entropy",
    "BinaryCrossEntropyBackward0",
    _bce,
    lambda B, g, x, t, **params: run(B, BCE_BACKWARD, g, x, t, **params),
    _bce_target_grad,
    saves=(0, 1),
    arg_names=("self", "target"),
    rules=("(self - target) / (self · (1 - self))", "log(1 - self) - log(self)"),
)
NLL_LOSS = defop(
    "nll_loss",
    "NllLossBackward0",
    _nll,
    lambda B, g, self, **params: run(B, NLL_LOSS_BACKWARD, g, self, **params),
    promotes=False,
    rules=("-weight[target] at the target class",),
)
NLL_LOSS2D = defop(
    "nll_loss2d",
    "NllLoss2DBackward0",
    _nll2d,
    lambda B, g, self, **params: run(B, NLL_LOSS2D_BACKWARD, g, self, **params),
    promotes=False,
    rules=("-weight[target] at the target class",),
)
# --------------------------------------------------------------------------------------------


# hardtanh (relu6), xlogy (kl_div)


def _hardtanh_backward(g: Any, x: Any, min_val: float, max_val: float) -> Any:
    inside = (x > min_val) & (x < max_val)
    return np.where(inside, g, np.zeros((), np.asarray(g).dtype))


HARDTANH_BACKWARD = defop(
    "hardtanh_backward",
    "HardtanhBackwardBackward0",
    _hardtanh_backward,
    lambda B, gg, grad_output, self, **params: run(B, HARDTANH_BACKWARD, gg, self, **params),
    lambda B, gg, grad_output, self, **params: B.zeros_like(gg),
    arg_names=("grad_output", "self"),
    rules=("1 inside (min_val, max_val), else 0", "0"),
)
HARDTANH = defop(
    "hardtanh",
    "HardtanhBackward0",
    lambda a, min_val, max_val: np.asarray(np.clip(a, min_val, max_val), a.dtype),
    lambda B, g, self, **params: run(B, HARDTANH_BACKWARD, g, self, **params),
    rules=("1 inside (min_val, max_val), else 0",),
)


def _xlogy(x: Any, y: Any) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(x == 0, 0, x * np.log(y))
    out = np.where(np.isnan(y), np.nan, out)
    return np.asarray(out, np.result_type(x, y))


def _xlogy_self_grad(B: Any, g: Any, x: Any, y: Any) -> Any:
    """PyTorch's `xlogy(grad, other).masked_fill((self == 0) & (other <= 0), 0)`."""
    out = run(B, XLOGY, g, y)
    mask = np.asarray((B.array_of(x) == 0) & (B.array_of(y) <= 0))
    return run(B, indexing.MASKED_FILL, out, mask=mask, value=0.0)


XLOGY = defop(
    "xlogy",
    "XlogyBackward0",
    _xlogy,
    _xlogy_self_grad,
    lambda B, g, x, y: g * x / y,
    saves=(0, 1),
    rules=("log(other) (0 where self == 0 and other <= 0)", "self / other"),
)


XLOGY_SCALAR_SELF = defop(
    "xlogy_scalar_self", "XlogyBackward1", lambda y, self: _xlogy(np.asarray(self, y.dtype), y),
    lambda B, g, other, self: g * self / other,
    arg_names=("other",), rules=("self / other",),
)  # fmt: skip
XLOGY_SCALAR_OTHER = defop(
    "xlogy_scalar_other", "XlogyBackward2", lambda x, other: _xlogy(x, np.asarray(other, x.dtype)),
    lambda B, g, self, other: _xlogy_self_grad(
        B, g, self, B.const(np.asarray(other, B.array_of(g).dtype))
    ),
    rules=("log(other) (0 where self == 0 and other <= 0)",),
)  # fmt: skip
