"""The backward ops of `torch.nn.functional`, each an op-table entry of its own.

PyTorch's backward of softmax is the op `_softmax_backward_data`, of mse_loss `mse_loss_backward`,
and so on: under create_graph the gradient's grad_fn is `SoftmaxBackwardDataBackward0`,
`MseLossBackwardBackward0`, ... and these have their own derivatives (derivatives.yaml). The
formulas of the forward ops call them through `formula_ops.run`, which on numpy arrays is only the
forward below.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.optable import OPS, defop
from . import unary
from .formula_ops import add_scalar, div_scalar, mul_scalar, run

SQRT_2 = math.sqrt(2.0)
SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
GELU_TANH_COEFF = 0.044715
BCE_EPS = 1e-12


def _dims(dim: int | None) -> tuple:
    """The softmax dimension for `B.sum_dims` (a 0-d input has none: the sum is the value)."""
    return () if dim is None else (dim,)


def _numel(x: Any) -> int:
    return int(np.prod(x.shape, dtype=np.int64)) if len(x.shape) else 1


def _ones_like(B: Any, x: Any) -> Any:
    dtype = x._data.dtype if hasattr(x, "_data") else np.asarray(x).dtype
    return B.const(np.ones(tuple(x.shape), dtype))


def _mean_scaled(B: Any, x: Any, reduction: str, n: int) -> Any:
    """A loss's double backward `/= numel` under mean reduction (DivBackward1)."""
    return div_scalar(B, x, n) if reduction == "mean" else x


def _grad_output_grad(B: Any, op: Any, gg: Any, g: Any, a: Any, t: Any, **params: Any) -> Any:
    """The derivative of a pointwise loss backward in its grad_output: the backward itself for
    reduction='none', else `(backward(ones) * gg).sum()` (PyTorch's *_double_backward_grad_output)."""
    if params["reduction"] == "none":
        return run(B, op, gg, a, t, **params)
    return (run(B, op, _ones_like(B, g), a, t, **params) * gg).sum()


# --------------------------------------------------------------------------------------------
# softmax, log_softmax
# --------------------------------------------------------------------------------------------


def _softmax_backward(g: Any, y: Any, dim: int | None) -> Any:
    return y * (g - np.add.reduce(g * y, dim, None, None, True))  # (np.sum's own ufunc)


def _log_softmax_backward(g: Any, y: Any, dim: int | None) -> Any:
    return g - np.exp(y) * np.add.reduce(g, dim, None, None, True)


SOFTMAX_BACKWARD = defop(
    "_softmax_backward_data",
    "SoftmaxBackwardDataBackward0",
    _softmax_backward,
    lambda B, gg, grad_output, output, dim: run(B, SOFTMAX_BACKWARD, gg, output, dim=dim),
    lambda B, gg, grad_output, output, dim: (
        grad_output * gg
        - B.sum_dims(output * grad_output, _dims(dim), True) * gg
        - grad_output * B.sum_dims(output * gg, _dims(dim), True)
    ),
    arg_names=("grad_output", "output"),
    rules=("output · (1 - Σ output)", "grad_output - Σ output · grad_output - ..."),
)
LOG_SOFTMAX_BACKWARD = defop(
    "_log_softmax_backward_data",
    "LogSoftmaxBackwardDataBackward0",
    _log_softmax_backward,
    lambda B, gg, grad_output, output, dim: gg - B.sum_dims(gg * B.exp(output), _dims(dim), True),
    lambda B, gg, grad_output, output, dim: (
        -B.sum_dims(grad_output, _dims(dim), True) * B.exp(output) * gg
    ),
    arg_names=("grad_output", "output"),
    rules=("1 - exp(output)", "-exp(output) · Σ grad_output"),
)

# --------------------------------------------------------------------------------------------
# activations
# --------------------------------------------------------------------------------------------


def _gelu_slope(x: np.ndarray, approximate: str) -> np.ndarray:
    if approximate == "tanh":
        t = np.tanh(SQRT_2_OVER_PI * (x + GELU_TANH_COEFF * x**3))
        d_inner = SQRT_2_OVER_PI * (1 + 3 * GELU_TANH_COEFF * x * x)
        return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * d_inner
    return 0.5 * (1 + unary._erf(x / SQRT_2)) + x * INV_SQRT_2PI * np.exp(-0.5 * x * x)


def _gelu_curvature(B: Any, x: Any, approximate: str) -> Any:
    """gelu''(x): φ(x)(2 - x²) exactly; for the tanh form, (1 - t²)(u' + x(u'' - 2tu'²)/2) with
    u = √(2/π)(x + 0.044715x³), t = tanh(u)."""
    if approximate == "tanh":
        t = B.tanh((x + x * x * x * GELU_TANH_COEFF) * SQRT_2_OVER_PI)
        du = (x * x * (3 * GELU_TANH_COEFF) + 1) * SQRT_2_OVER_PI
        ddu = x * (6 * GELU_TANH_COEFF * SQRT_2_OVER_PI)
        return (1 - t * t) * (du + x * 0.5 * (ddu - t * du * du * 2))
    return B.exp(x * x * -0.5) * INV_SQRT_2PI * (2 - x * x)


GELU_BACKWARD = defop(
    "gelu_backward",
    "GeluBackwardBackward0",
    lambda g, x, approximate: np.asarray(g * _gelu_slope(x, approximate), x.dtype),
    lambda B, gg, grad_output, self, approximate: run(
        B, GELU_BACKWARD, gg, self, approximate=approximate
    ),
    lambda B, gg, grad_output, self, approximate: (
        gg * grad_output * _gelu_curvature(B, self, approximate)
    ),
    arg_names=("grad_output", "self"),
    rules=("gelu'(self)", "grad_output · gelu''(self)"),
)


def _elu_backward(g: Any, x: Any, alpha: float, scale: float, input_scale: float) -> Any:
    negative = g * (alpha * scale * input_scale) * np.exp(x * input_scale)
    # (PyTorch's `x <= 0 ? negative : positive`: a NaN input takes the positive slope)
    return np.asarray(np.where(x <= 0, negative, g * scale), x.dtype)


def _elu_self_grad(B: Any, gg: Any, g: Any, x: Any, **params: Any) -> Any:
    """elu's second derivative: elu_backward(gg · g · input_scale, x) where x < 0, else 0
    (0 at x = 0 too, as PyTorch's)."""
    inner = run(B, ELU_BACKWARD, gg * g * params["input_scale"], x, **params)
    return inner * B.astype_like(x < 0, inner)


ELU_BACKWARD = defop(
    "elu_backward",
    "EluBackwardBackward0",
    _elu_backward,
    lambda B, gg, g, x, **params: run(B, ELU_BACKWARD, gg, x, **params),
    _elu_self_grad,
    saves=(0, 1),
    arg_names=("grad_output", "self_or_result"),
    rules=("elu'(self)", "grad_output · elu''(self)"),
)


def _log_sigmoid_backward(g: Any, x: Any) -> Any:
    """PyTorch's log_sigmoid_backward: (max_deriv - sign · z / (1 + z)) · grad, z = exp(-|x|)."""
    z = np.exp(-np.abs(x))
    negative = x < 0
    slope = np.where(negative, 1 - z / (1 + z), z / (1 + z))
    return np.asarray(slope * g, x.dtype)


def _log_sigmoid_self_grad(B: Any, gg: Any, g: Any, x: Any) -> Any:
    """d/dx of grad · sigmoid(-x): -grad · sigmoid(-x) · sigmoid(x)."""
    return -(gg * g) * B.sigmoid(-x) * B.sigmoid(x)


LOG_SIGMOID_BACKWARD = defop(
    "log_sigmoid_backward",
    "LogSigmoidBackwardBackward0",
    _log_sigmoid_backward,
    lambda B, gg, g, x: run(B, LOG_SIGMOID_BACKWARD, gg, x),
    _log_sigmoid_self_grad,
    saves=(0, 1),
    arg_names=("grad_output", "self"),
    rules=("sigmoid(-self)", "-grad_output · sigmoid(self) · sigmoid(-self)"),
)
LEAKY_RELU_BACKWARD = defop(
    "leaky_relu_backward",
    "LeakyReluBackwardBackward0",
    lambda g, x, negative_slope: np.where(x > 0, g, g * np.asarray(negative_slope, g.dtype)),
    lambda B, gg, grad_output, self, negative_slope: run(
        B, LEAKY_RELU_BACKWARD, gg, self, negative_slope=negative_slope
    ),
    lambda B, gg, grad_output, self, negative_slope: B.zeros_like(gg),
    arg_names=("grad_output", "self"),
    rules=("1 if self > 0 else negative_slope", "0"),
)

# --------------------------------------------------------------------------------------------
# pointwise losses: backward(grad_output, self, target, reduction, ...)
# --------------------------------------------------------------------------------------------


def _per_element(g: Any, slope: Any, reduction: str) -> Any:
    """`slope` times the incoming gradient, over the element count for reduction='mean'."""
    scale = g / slope.size if reduction == "mean" else g
    return np.asarray(slope * scale, slope.dtype)


def _mse_double(B: Any, gg: Any, g: Any, a: Any, reduction: str) -> Any:
    return _mean_scaled(B, mul_scalar(B, gg * g, 2.0), reduction, _numel(a))


MSE_LOSS_BACKWARD = defop(
    "mse_loss_backward",
    "MseLossBackwardBackward0",
    lambda g, a, t, reduction: _per_element(g, (a - t) * 2, reduction),
    lambda B, gg, grad_output, self, target, reduction: _grad_output_grad(
        B, MSE_LOSS_BACKWARD, gg, grad_output, self, target, reduction=reduction
    ),
    lambda B, gg, grad_output, self, target, reduction: _mse_double(
        B, gg, grad_output, self, reduction
    ),
    lambda B, gg, grad_output, self, target, reduction: (
        -_mse_double(B, gg, grad_output, self, reduction)
    ),
    arg_names=("grad_output", "self", "target"),
    rules=("2 · (self - target) / n", "2 · grad_output / n", "-2 · grad_output / n"),
)


def _smooth_l1_slope(a: Any, t: Any, beta: float) -> np.ndarray:
    d = a - t
    if not beta:
        return np.sign(d)
    return np.where(np.abs(d) < beta, d / beta, np.sign(d))


def _smooth_l1_double(B: Any, gg: Any, g: Any, a: Any, t: Any, reduction: str, beta: float) -> Any:
    if not beta:
        return B.zeros_like(gg * g)
    inside = B.astype_like(B.abs(a - t) < beta, gg)
    return _mean_scaled(B, div_scalar(B, gg * g * inside, beta), reduction, _numel(a))


SMOOTH_L1_LOSS_BACKWARD = defop(
    "smooth_l1_loss_backward",
    "SmoothL1LossBackwardBackward0",
    lambda g, a, t, reduction, beta: _per_element(g, _smooth_l1_slope(a, t, beta), reduction),
    lambda B, gg, grad_output, self, target, reduction, beta: _grad_output_grad(
        B, SMOOTH_L1_LOSS_BACKWARD, gg, grad_output, self, target, reduction=reduction, beta=beta
    ),
    lambda B, gg, grad_output, self, target, reduction, beta: _smooth_l1_double(
        B, gg, grad_output, self, target, reduction, beta
    ),
    lambda B, gg, grad_output, self, target, reduction, beta: (
        -_smooth_l1_double(B, gg, grad_output, self, target, reduction, beta)
    ),
    arg_names=("grad_output", "self", "target"),
    rules=("the smooth L1 slope", "1 / beta inside beta, else 0", "the negative"),
)


def _huber_double(B: Any, gg: Any, g: Any, a: Any, t: Any, reduction: str, delta: float) -> Any:
    inside = B.astype_like(B.abs(a - t) < delta, gg)
    return _mean_scaled(B, gg * g * inside, reduction, _numel(a))


HUBER_LOSS_BACKWARD = defop(
    "huber_loss_backward",
    "HuberLossBackwardBackward0",
    lambda g, a, t, reduction, delta: _per_element(
        g, np.where(np.abs(a - t) < delta, a - t, delta * np.sign(a - t)), reduction
    ),
    lambda B, gg, grad_output, self, target, reduction, delta: _grad_output_grad(
        B, HUBER_LOSS_BACKWARD, gg, grad_output, self, target, reduction=reduction, delta=delta
    ),
    lambda B, gg, grad_output, self, target, reduction, delta: _huber_double(
        B, gg, grad_output, self, target, reduction, delta
    ),
    lambda B, gg, grad_output, self, target, reduction, delta: (
        -_huber_double(B, gg, grad_output, self, target, reduction, delta)
    ),
    arg_names=("grad_output", "self", "target"),
    rules=("the Huber slope", "1 inside delta, else 0", "the negative"),
)

# --------------------------------------------------------------------------------------------
# binary_cross_entropy, nll_loss
# --------------------------------------------------------------------------------------------


def _bce_backward(g: Any, x: Any, t: Any, reduction: str, weight: Any) -> Any:
    slope = (x - t) / np.maximum((1 - x) * x, BCE_EPS)
    if weight is not None:
        slope = slope * weight
    return _per_element(g, np.asarray(slope, x.dtype), reduction)


def _one_minus(B: Any, x: Any) -> Any:
    """`1 - x` with 1 a tensor (SubBackward0 on Tensors), as PyTorch's BCE formulas record it."""
    return B.const(np.ones((), B.array_of(x).dtype)) - x


def _bce_self_grad(B: Any, gg: Any, g: Any, x: Any, t: Any, reduction: str, weight: Any) -> Any:
    """PyTorch's binary_cross_entropy_double_backward (with its 1e-12 guards)."""
    numerator = x * x - mul_scalar(B, x, 2.0) * t + t
    low, high = add_scalar(B, x, BCE_EPS), add_scalar(B, _one_minus(B, x), BCE_EPS)
    out = numerator / (low**2 * high**2) * (gg * g)
    if weight is not None:
        out = out * B.const(weight)
    return _mean_scaled(B, out, reduction, _numel(x))


def _bce_target_grad(B: Any, gg: Any, g: Any, x: Any, t: Any, reduction: str, weight: Any) -> Any:
    """PyTorch's binary_cross_entropy_double_backward_target."""
    out = -gg * g
    if weight is not None:
        out = out * B.const(weight)
    denominator = B.at_least(_one_minus(B, x) * x, BCE_EPS)
    return _mean_scaled(B, out / denominator, reduction, _numel(x))


def _bce_grad_output_grad(
    B: Any, gg: Any, g: Any, x: Any, t: Any, reduction: str, weight: Any
) -> Any:
    low, high = add_scalar(B, x, BCE_EPS), add_scalar(B, _one_minus(B, x), BCE_EPS)
    out = (x - t) / (low * high) * gg
    if weight is not None:
        out = out * B.const(weight)
    if reduction == "none":
        return out
    return _mean_scaled(B, out, reduction, _numel(x)).sum()


BCE_BACKWARD = defop(
    "binary_cross_entropy_backward",
    "BinaryCrossEntropyBackwardBackward0",
    _bce_backward,
    _bce_grad_output_grad,
    _bce_self_grad,
    _bce_target_grad,
    saves=(0, 1, 2),
    arg_names=("grad_output", "self", "target"),
    rules=(
        "(self - target) / (self · (1 - self))",
        "grad_output · (self² - 2·self·target + target) / (self² (1 - self)²)",
        "-grad_output / (self · (1 - self))",
    ),
)


def _nll_backward(g: Any, a: Any, coefficients: Any, reduction: str, total: float) -> Any:
    c = coefficients.astype(g.dtype)
    if reduction == "none" and c.ndim == 2:
        return np.reshape(g, (c.shape[0], 1)) * c
    return g * c / total if reduction == "mean" else g * c


def _nll_grad_output_grad(B: Any, gg: Any, **params: Any) -> Any:
    """nll_loss of the incoming gradient itself, as PyTorch's derivative of nll_loss_backward."""
    return run(B, OPS["nll_loss"], gg, **params)  # declared in nn/functional.py, above ops


NLL_LOSS_BACKWARD = defop(
    "nll_loss_backward",
    "NllLossBackwardBackward0",
    _nll_backward,
    _nll_grad_output_grad,
    lambda B, gg, **params: B.zeros_like(gg),
    arg_names=("grad_output", "self"),
    rules=("nll_loss of the gradient", "0"),
)


def _nll2d_backward(
    g: Any,
    a: Any,
    target: Any,
    weight: Any,
    ignore_index: int,
    reduction: str,
    total_weight: Any,
) -> np.ndarray:
    """PyTorch's nll_loss2d_backward: -weight[t] · grad at each target class, in the input's
    dtype; under a reduction the scale is `-(grad / total_weight)` (mean) or `-grad`, then
    `weight[t] · scale`."""
    dtype = np.asarray(a).dtype
    g = np.asarray(g, dtype)
    out = np.zeros(np.shape(a), dtype)
    keep = target != ignore_index
    safe = np.where(keep, target, 0)
    if reduction == "none":
        w = np.ones((), dtype) if weight is None else weight[safe]
        values = np.asarray(-w * g, dtype)
    else:
        scale = -(g / np.asarray(total_weight, dtype)) if reduction == "mean" else -g
        values = np.broadcast_to(
            np.asarray(scale, dtype) if weight is None else weight[safe] * scale, target.shape
        )
    b, h, w_ = np.nonzero(keep)
    out[b, safe[b, h, w_], h, w_] = values[b, h, w_]
    return out


def _nll2d_grad_output_grad(B: Any, gg: Any, **params: Any) -> Any:
    """nll_loss2d of the incoming gradient, as PyTorch's derivative of nll_loss2d_backward."""
    return run(B, OPS["nll_loss2d"], gg, **params)


NLL_LOSS2D_BACKWARD = defop(
    "nll_loss2d_backward",
    "NllLoss2DBackwardBackward0",
    _nll2d_backward,
    _nll2d_grad_output_grad,
    lambda B, gg, **params: B.zeros_like(gg),
    arg_names=("grad_output", "self"),
    rules=("nll_loss2d of the gradient", "0"),
)
