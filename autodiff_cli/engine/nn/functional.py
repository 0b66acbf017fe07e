"""`torch.nn.functional`: activations, softmax, losses, linear and dropout over the op table.

Where PyTorch has a dedicated backward node (GeluBackward0, SoftmaxBackward0, MseLossBackward0,
NllLossBackward0, ...) the function applies that op-table entry (declared in
ops/nn_functional_ops.py: nn declares no op); where PyTorch composes
other ops (l1_loss, cross_entropy with probabilities, dropout) it composes the same ones.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_inplace, apply_op
from ..core.grad_mode import GradMode as _GradMode
from ..core.saved_hooks import also_shows as _also_shows
from ..core.saved_hooks import shows_saved as _shows_saved
from ..core.tensor import Tensor, _norm_dim, _wrap, broadcast_shape
from ..ops import arithmetic, views
from ..ops import random as _random
from ..ops.activations import SELU_ALPHA, SELU_SCALE
from ..ops.arithmetic import binary_cross_entropy_with_logits  # noqa: F401
from ..ops.formula_ops import DIV_SCALAR, MUL_SCALAR
from ..ops.matrix import linear  # noqa: F401  (there: attention's projections use it too)
from ..ops.nn_functional_ops import (  # noqa: F401  (declared in ops/)
    BCE,
    ELU,
    ELU_,
    GELU,
    HUBER_LOSS,
    LEAKY_RELU,
    LEAKY_RELU_,
    LOG_SIGMOID,
    LOG_SOFTMAX,
    MSE_LOSS,
    NLL_LOSS,
    NLL_LOSS2D,
    SILU,
    SMOOTH_L1_LOSS,
    SOFTMAX,
    _check_reduction,
    _float_only,
)
from ..ops.unary import relu as _relu
from ..ops.unary import sigmoid, softplus, tanh  # noqa: F401
from ._reduction import legacy_reduction as _legacy_reduction

# Activations
# --------------------------------------------------------------------------------------------


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """`torch.relu(input)`, or `input.relu_()` with `inplace` (ReluBackward0 either way)."""
    return input.relu_() if inplace else _relu(input)


def _activation(op: Any, inplace_op: Any, input: Tensor, inplace: bool, params: Any) -> Tensor:
    """An activation, or with `inplace` written into `input` (`inplace_op`: the in-place
    variant, whose grad_fn may differ, e.g. LeakyReluBackward1, which reads the result)."""
    if inplace:
        return apply_inplace(inplace_op, input, (), params)
    return apply_op(op, (input,), params)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    _float_only(input, "leaky_relu_cpu")
    params = {"negative_slope": negative_slope}
    return _activation(LEAKY_RELU, LEAKY_RELU_, input, inplace, params)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    _float_only(input, "GeluKernelImpl")
    return apply_op(GELU, (input,), {"approximate": approximate})


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    _float_only(input, "elu_cpu")
    params = {"alpha": alpha, "scale": 1.0, "input_scale": 1.0}
    return _activation(ELU, ELU_, input, inplace, params)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    _float_only(input, "elu_cpu")
    params = {"alpha": SELU_ALPHA, "scale": SELU_SCALE, "input_scale": 1.0}
    return _activation(ELU, ELU_, input, inplace, params)


def logsigmoid(input: Tensor) -> Tensor:
    _float_only(input, "log_sigmoid_cpu")
    return apply_op(LOG_SIGMOID, (input,))


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    _float_only(input, "silu_cpu")
    return _activation(SILU, SILU, input, inplace, None)


def _softmax_dim(input: Tensor, dim: Any, name: str) -> int:
    if dim is None:
        warnings.warn(
            f"Implicit dimension choice for {name} has been deprecated. Change the call to "
            "include dim=X as an argument.",
            UserWarning,
            stacklevel=3,
        )
        dim = 0 if input.ndim in (0, 1, 3) else 1
    return _norm_dim(int(dim), input.ndim)


def _softmax_op(op: Any, input: Tensor, dim: Any, dtype: Any, name: str) -> Tensor:
    if dtype is not None:
        input = input.to(dtype)
    d = _softmax_dim(input, dim, name)
    if input._data.dtype.kind != "f":
        kernel = "softmax_lastdim_kernel_impl" if d == input.ndim - 1 else "softmax_kernel_impl"
        if op is LOG_SOFTMAX:
            kernel = "log_" + kernel
        _float_only(input, kernel)
    if input.ndim == 0:
        return apply_op(op, (input,), {"dim": None})
    return apply_op(op, (input,), {"dim": d})


def softmax(input: Tensor, dim: Any = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    return _softmax_op(SOFTMAX, input, dim, dtype, "softmax")


def log_softmax(input: Tensor, dim: Any = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:
    return _softmax_op(LOG_SOFTMAX, input, dim, dtype, "log_softmax")


# --------------------------------------------------------------------------------------------
# Losses
# --------------------------------------------------------------------------------------------


def _broadcast_warning(input: Tensor, target: Tensor, stacklevel: int) -> None:
    if input._data.shape != target._data.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
            UserWarning,
            stacklevel=stacklevel + 1,
        )


def _pointwise_loss(
    op: Any, kernel: str, input: Tensor, target: Tensor, reduction: str, **params: Any
) -> Tensor:
    _broadcast_warning(input, target, 3)
    _check_reduction(reduction)
    _float_only(input, kernel)
    if input._data.shape != target._data.shape:
        shape = broadcast_shape(input._data.shape, target._data.shape)
        if input._data.shape != shape:
            input = arithmetic.expand(input, shape)
        if target._data.shape != shape:
            target = arithmetic.expand(target, shape)
    return apply_op(op, (input, target), {"reduction": reduction, **params})


def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    weight: Any = None,
) -> Tensor:
    reduction = _legacy_reduction(size_average, reduce, reduction)
    return _pointwise_loss(MSE_LOSS, "mse_cpu", input, target, reduction)


def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    weight: Any = None,
) -> Tensor:
    """`(input - target).abs()` then the reduction, as PyTorch composes it."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _broadcast_warning(input, target, 2)
    _check_reduction(reduction)
    loss = (input - target).abs()
    if reduction == "mean":
        return loss.mean()
    return loss.sum() if reduction == "sum" else loss


def smooth_l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    return _pointwise_loss(
        SMOOTH_L1_LOSS, "smooth_l1_cpu", input, target, reduction, beta=float(beta)
    )


def huber_loss(
    input: Tensor,
    target: Tensor,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Any = None,
) -> Tensor:
    return _pointwise_loss(HUBER_LOSS, "huber_cpu", input, target, reduction, delta=float(delta))


def binary_cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if input._data.shape != target._data.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}) is deprecated. Please ensure they have the same size."
        )
    _check_reduction(reduction)
    x = np.asarray(input._data)
    if not np.logical_and(x >= 0, x <= 1).all():  # (a NaN is not between them either)
        raise RuntimeError("all elements of input should be between 0 and 1")
    w = None
    if weight is not None:
        w = np.broadcast_to(np.asarray(weight._data, x.dtype), x.shape)
    return apply_op(BCE, (input, target), {"reduction": reduction, "weight": w})


def _class_targets(input: Tensor, target: Tensor, weight: Tensor | None) -> np.ndarray:
    """Checks class-index targets against an (N, C) or (C,) input, in PyTorch's order; returns
    them as int64 (a (C,) input's target as a 0-d array)."""
    target_shape = target._data.shape
    if input.ndim == 2:
        target_n = target_shape[0] if target_shape else 0
        if input.shape[0] != target_n:
            raise ValueError(
                f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                f"({target_n})."
            )
    elif target._data.ndim == 1:
        if target_shape[0] != 1:
            raise ValueError(
                f"For 1D input, 1D target must have size 1, but got target size: {target_shape[0]}"
            )
        target = target.reshape(())
    if weight is not None and _GradMode.enabled and weight.requires_grad:
        raise RuntimeError(
            "The function 'nll_loss_forward' is not differentiable with respect to argument "
            "'weight'. This input cannot have requires_grad True."
        )
    if target._data.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    kind = dtypes.scalar_name(target._data.dtype)
    if kind not in ("Long", "Byte"):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {kind}")
    n_classes = input._data.shape[-1]
    if weight is not None and (weight.ndim != 1 or weight._data.size != n_classes):
        raise RuntimeError(
            f"weight tensor should be defined either for all {n_classes} classes or no classes "
            f"but got weight tensor of shape: {list(weight.shape)}"
        )
    return np.asarray(target._data, np.int64)


@_shows_saved(target="target", weight="weight")
def nll_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """-input[i, target[i]] · weight[target[i]], skipping `ignore_index`, then the reduction
    (the mean divides by the total weight of the targets that count)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    if input.ndim == 0:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    if input.ndim > 2:
        return _nll_loss_nd(input, target, weight, ignore_index, reduction)
    targets = _class_targets(input, target, weight)
    n_classes = input._data.shape[-1]
    class_weight = np.ones(n_classes) if weight is None else np.asarray(weight._data, np.float64)
    rows = targets.reshape(-1)
    counted = np.flatnonzero(rows != ignore_index)
    classes = rows[counted]
    outside = (classes < 0) | (classes >= n_classes)
    if outside.any():
        raise IndexError(f"Target {classes[outside][0]} is out of bounds.")  # (the first one)
    coefficients = np.zeros((rows.size, n_classes), input._data.dtype)
    picked_weights = class_weight[classes]
    coefficients[counted, classes] = -picked_weights
    total = float(np.add.reduce(picked_weights))
    if input.ndim == 1:
        coefficients = coefficients[0]
    params = {"coefficients": coefficients, "reduction": reduction, "total": total}
    out = apply_op(NLL_LOSS, (input,), params)
    shown = np.asarray(total if reduction != "none" else 0.0, input._data.dtype)
    _also_shows(out, total_weight=_wrap(shown))  # as PyTorch's node shows it
    return out


def _nll_loss_nd(
    input: Tensor, target: Tensor, weight: Tensor | None, ignore_index: int, reduction: str
) -> Tensor:
    """nll_loss on (N, C, d1, ...) input, as ATen's nll_loss_nd: a 4-D input goes straight to
    nll_loss2d (NllLoss2DBackward0); any other is made contiguous, viewed as (N, C, 1, -1), and
    a reduction='none' result viewed back to (N, d1, ...)."""
    shape = input._data.shape
    target_shape = target._data.shape
    n, c = shape[0], shape[1]
    target_n = target_shape[0] if target_shape else 0
    if target_n != n:
        raise ValueError(
            f"Expected input batch_size ({n}) to match target batch_size ({target_n})."
        )
    x, targets = input, np.asarray(target._data)
    if input.ndim != 4:
        out_size = (n,) + shape[2:]
        if target_shape[1:] != shape[2:]:
            raise RuntimeError(f"Expected target size {list(out_size)}, got {list(target_shape)}")
        empty = input._data.size == 0
        x = views.view(views.contiguous(input), (n, c, 0, 0) if empty else (n, c, 1, -1))
        targets = targets.reshape((n, 0, 0) if targets.size == 0 else (n, 1, -1))
    if weight is not None and _GradMode.enabled and weight.requires_grad:
        raise RuntimeError(
            "The function 'nll_loss2d_forward' is not differentiable with respect to argument "
            "'weight'. This input cannot have requires_grad True."
        )
    if targets.ndim != 3:
        raise RuntimeError(
            "only batches of spatial targets supported (3D tensors) but got targets of "
            f"dimension: {targets.ndim}"
        )
    target_type = dtypes.scalar_name(targets.dtype)
    if target_type not in ("Long", "Byte"):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target_type}")
    if weight is not None and weight._data.size != c:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    x_shape = x._data.shape
    if (x_shape[0], x_shape[2], x_shape[3]) != targets.shape:
        raise RuntimeError(
            f"size mismatch (got input: {list(x_shape)} , target: {list(targets.shape)}"
        )
    dtype = x._data.dtype
    _float_only(x, "nll_loss2d_forward_out_frame")
    w = None
    if weight is not None:
        if weight._data.dtype != dtype:
            raise RuntimeError(
                f"expected scalar type {dtypes.scalar_name(dtype)} but found "
                f"{dtypes.scalar_name(weight._data.dtype)}"
            )
        w = np.asarray(weight._data).reshape(-1)
    if target_type == "Byte":
        raise RuntimeError("expected scalar type Long but found Byte")
    keep = targets != ignore_index
    bad = keep & ((targets < 0) | (targets >= c))
    if bad.any() and (reduction == "none" or targets.size):
        raise IndexError(f"Target {int(targets[bad][0])} is out of bounds.")
    if w is None:
        total = dtype.type(np.count_nonzero(keep))
    elif targets.size:
        total = w[targets[keep]].sum(dtype=dtype)
    else:
        total = dtype.type(0)
    params = {
        "target": targets,
        "weight": w,
        "ignore_index": ignore_index,
        "reduction": reduction,
        "total_weight": total,
    }
    out = apply_op(NLL_LOSS2D, (x,), params)
    if reduction == "none" and input.ndim != 4:
        out = views.view(out, out_size)
    return out


def _mul_scalar(x: Tensor, value: float) -> Tensor:
    return apply_op(MUL_SCALAR, (x,), {"other": value})


def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """log_softmax over the class dimension, then nll_loss (class indices, any number of
    dimensions after the class one) or the probability-weighted sum (a float target of the
    input's shape), as ATen composes it."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    class_dim = 0 if input.ndim == 1 else 1
    if input._data.shape == target._data.shape:
        if target._data.dtype.kind != "f":
            kind = dtypes.scalar_name(target._data.dtype)
            raise RuntimeError(
                f"Expected floating point type for target with class probabilities, got {kind}"
            )
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        n_classes = input._data.shape[class_dim]
        if weight is not None and (weight.ndim != 1 or weight._data.size != n_classes):
            raise RuntimeError(
                f"cross_entropy: weight tensor should be defined either for all {n_classes} "
                f"classes or no classes but got weight tensor of shape: {list(weight.shape)}"
            )
        logp = log_softmax(input, class_dim)
        if label_smoothing > 1.0:
            raise RuntimeError(
                f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}"
            )
        return _cross_entropy_probabilities(logp, target, weight, reduction, label_smoothing)
    if label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    logp = log_softmax(input, class_dim)
    loss = nll_loss(logp, target, weight, None, ignore_index, None, reduction)
    if not label_smoothing > 0.0:
        return loss
    n_classes = input._data.shape[class_dim]
    if weight is not None:
        shape = [1] * logp.ndim
        shape[class_dim] = weight._data.shape[0]
        smooth = -(logp * weight.view(shape)).sum(class_dim)
    else:
        smooth = -logp.sum(class_dim)
    ignored = target == ignore_index
    smooth.masked_fill_(ignored, 0.0)
    if reduction == "mean":
        if weight is not None:
            kept = np.asarray(target._data)[~np.asarray(ignored._data)]
            denominator = _wrap(np.asarray(weight._data)[kept.reshape(-1)]).sum()
        else:
            denominator = (~ignored).sum()
        smooth = smooth.sum() / denominator
    elif reduction == "sum":
        smooth = smooth.sum()
    return _mul_scalar(loss, 1 - label_smoothing) + _mul_scalar(smooth, label_smoothing / n_classes)


def _cross_entropy_probabilities(
    logp: Tensor, target: Tensor, weight: Any, reduction: str, label_smoothing: float
) -> Tensor:
    class_dim = 0 if logp.ndim == 1 else 1
    n_classes = logp._data.shape[class_dim]
    if label_smoothing > 0:
        target = target * (1 - label_smoothing) + label_smoothing / n_classes
    terms = logp * target
    if weight is not None:
        shape = [1] * logp.ndim
        shape[class_dim] = n_classes
        terms = terms * weight.reshape(shape)
    if reduction == "none":
        return -terms.sum(class_dim)
    total = -terms.sum()
    if reduction == "sum":
        return total
    return apply_op(DIV_SCALAR, (total,), {"other": logp._data.size / n_classes})


# --------------------------------------------------------------------------------------------
# linear, dropout
# --------------------------------------------------------------------------------------------


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zeroes each element with probability `p` and scales the rest by 1 / (1 - p); the input
    itself when not training or when p is 0."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    shape = input._data.shape
    if p == 1.0 or input.is_meta:  # (a meta input has no values to drop: nothing is drawn)
        mask = np.zeros_like(input._data)
    else:
        # PyTorch's noise: bernoulli_(1 - p) (float64 uniforms), then divided by 1 - p
        dtype = input._data.dtype
        keep = _random.stream.bernoulli(_random.default_generator, 1.0 - p, int(np.prod(shape)))
        scale = np.asarray(1.0, dtype) / np.asarray(1.0 - p, dtype)
        mask = keep.reshape(shape).astype(dtype) * scale
    return input.mul_(_wrap(mask)) if inplace else input * _wrap(mask)


# --------------------------------------------------------------------------------------------
# Tensor methods
# --------------------------------------------------------------------------------------------

from ..ops.activations import (  # noqa: E402, F401
    celu,
    celu_,
    glu,
    hardsigmoid,
    hardswish,
    mish,
    threshold,
    threshold_,
)
from . import dropout as _dropout  # noqa: E402
from . import functional_activations as _activations  # noqa: E402
from . import functional_attention as _attention  # noqa: E402
from . import functional_conv as _conv  # noqa: E402
from . import functional_layers as _layers  # noqa: E402
from . import functional_loss as _loss  # noqa: E402
from . import functional_norm as _norm  # noqa: E402
from . import functional_ops as _ops  # noqa: E402
from . import functional_pool as _pool  # noqa: E402
from . import functional_spatial as _spatial  # noqa: E402
from .dropout import *  # noqa: E402, F401, F403  (dropout1d/2d/3d, alpha_dropout)
from .functional_activations import *  # noqa: E402, F401, F403  (prelu, rrelu, softsign...)
from .functional_attention import *  # noqa: E402, F401, F403  (scaled_dot_product_attention)
from .functional_conv import *  # noqa: E402, F401, F403  (conv1d/2d/3d, conv_transpose*)
from .functional_layers import *  # noqa: E402, F401, F403  (bilinear, embedding_bag)
from .functional_loss import *  # noqa: E402, F401, F403  (margin, embedding, nll losses)
from .functional_norm import *  # noqa: E402, F401, F403  (group/instance_norm, shuffles)
from .functional_ops import *  # noqa: E402, F401, F403  (embedding, layer_norm, pad, kl_div...)
from .functional_pool import *  # noqa: E402, F401, F403  (pooling, interpolate, unfold, fold)
from .functional_spatial import *  # noqa: E402, F401, F403  (affine_grid, grid_sample)

# What a script sees of this module (the language exports only these names: the op entries,
# formulas and constants imported above to build the ops are not PyTorch's API).
__all__ = [
    "Tensor", "binary_cross_entropy", "binary_cross_entropy_with_logits", "celu", "celu_",
    "cross_entropy", "dropout", "elu", "gelu", "glu", "hardsigmoid", "hardswish", "huber_loss",
    "l1_loss", "leaky_relu", "linear", "log_softmax", "logsigmoid", "mish", "mse_loss",
    "nll_loss", "relu", "selu", "sigmoid", "silu", "smooth_l1_loss", "softmax", "softplus",
    "tanh", "threshold", "threshold_", *_dropout.__all__, *_ops.__all__, *_activations.__all__,
    *_conv.__all__, *_pool.__all__, *_norm.__all__, *_loss.__all__, *_attention.__all__,
    *_spatial.__all__, *_layers.__all__,
]  # fmt: skip
