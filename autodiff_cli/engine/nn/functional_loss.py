"""The embedding, ranking and likelihood losses of `torch.nn.functional`: margin_ranking,
hinge_embedding, cosine_embedding, triplet_margin, soft_margin, multilabel_soft_margin,
multi_margin, poisson_nll and gaussian_nll.

soft_margin_loss and multi_margin_loss are kernels of their own in PyTorch (ops/margin_losses.py);
the others are compositions (ATen's or nn.functional's), composed here of the same ops in the same
order so that a loss shows PyTorch's graph: margin_ranking_loss ends in the in-place
`clamp_min_(0)` (ClampMinBackward0), triplet_margin_loss in pairwise distances (NormBackward1),
gaussian_nll_loss in `0.5 * (log(var) + (input - target) ** 2 / var)` (MulBackward0), and the
reduction is `.mean()` / `.sum()` (MeanBackward0 / SumBackward0).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_op
from ..core.grad_mode import GradMode, no_grad
from ..core.saved_hooks import also_shows
from ..core.tensor import Tensor, broadcast_shape
from ..ops import creation, elementwise
from ..ops.arithmetic import where
from ..ops.distances import pairwise_distance
from ..ops.formula_ops import ADD_SCALAR, SUB_SCALAR
from ..ops.margin_losses import MULTI_MARGIN_LOSS, SOFT_MARGIN_LOSS
from ..ops.nn_functional_ops import LOG_SIGMOID, _check_reduction
from ._reduction import legacy_reduction

__all__ = [
    "cosine_embedding_loss",
    "gaussian_nll_loss",
    "hinge_embedding_loss",
    "margin_ranking_loss",
    "multi_margin_loss",
    "multilabel_soft_margin_loss",
    "poisson_nll_loss",
    "soft_margin_loss",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
]

COSINE_EMBEDDING_EPS = 1e-12  # ATen's EPSILON in the squared magnitudes


def _reduction(size_average: Any, reduce: Any, reduction: str) -> str:
    """The reduction in force, checked as `_Reduction.get_enum` checks it."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    _check_reduction(reduction)
    return reduction


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    """ATen's apply_loss_reduction: MeanBackward0 / SumBackward0, or the loss itself."""
    if reduction == "mean":
        return loss.mean()
    return loss.sum() if reduction == "sum" else loss


def _plus(x: Tensor, value: float) -> Tensor:
    """`x + value` with a C++ number (AddBackward1); an integer tensor gives a float one."""
    if x._data.dtype.kind == "f":
        return apply_op(ADD_SCALAR, (x,), {"other": value})
    return x + value


def _minus(x: Tensor, value: float) -> Tensor:
    """`x - value` with a C++ number (SubBackward1)."""
    if x._data.dtype.kind == "f":
        return apply_op(SUB_SCALAR, (x,), {"other": value})
    return x - value


def _number_minus(value: float, x: Tensor) -> Tensor:
    """C++'s `value - x`: `empty_like(x).fill_(value).sub_(x)` (SubBackward0)."""
    return creation.full_like(x, value) - x


def _no_grad_target(function: str, target: Tensor) -> None:
    if GradMode.enabled and target.requires_grad:
        raise RuntimeError(
            f"The function '{function}' is not differentiable with respect to argument 'target'. "
            "This input cannot have requires_grad True."
        )


# --------------------------------------------------------------------------------------------
# margin_ranking_loss, hinge_embedding_loss, cosine_embedding_loss, triplet_margin_loss
# --------------------------------------------------------------------------------------------


def margin_ranking_loss(
    input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
    size_average: Any = None, reduce: Any = None, reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """`max(0, -target · (input1 - input2) + margin)`, reduced."""
    reduction = _reduction(size_average, reduce, reduction)
    if input1.ndim != input2.ndim or input1.ndim != target.ndim:
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} "
        )
    output = _plus(-target * (input1 - input2), margin).clamp_min_(0)
    return _reduce(output, reduction)


def hinge_embedding_loss(
    input: Tensor, target: Tensor, margin: float = 1.0, size_average: Any = None,
    reduce: Any = None, reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """`input` where target is 1, `max(0, margin - input)` where it is -1, reduced."""
    reduction = _reduction(size_average, reduce, reduction)
    zeros = creation.zeros_like(input)
    margin_clamp = _number_minus(margin, input).clamp_min_(0)
    output_margin = where(target != 1, margin_clamp, zeros)
    output_self = where(target != -1, input, zeros)
    return _reduce(output_margin + output_self, reduction)


def _check_embedding_dims(input1: Tensor, input2: Tensor, target: Tensor) -> None:
    if target.ndim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    expected = 2 if target.ndim == 1 else 1
    if input1.ndim != expected or input2.ndim != expected:
        raise RuntimeError(
            f"{target.ndim}D target tensor expects {expected}D input tensors, but found inputs "
            f"with sizes {list(input1.shape)} and {list(input2.shape)}."
        )


def cosine_embedding_loss(
    input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
    size_average: Any = None, reduce: Any = None, reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """`1 - cos(x1, x2)` where target is 1, `max(0, cos(x1, x2) - margin)` where it is -1."""
    reduction = _reduction(size_average, reduce, reduction)
    _check_embedding_dims(input1, input2, target)
    dim = target.ndim
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = _plus((input1 * input1).sum(dim), COSINE_EMBEDDING_EPS)
    mag_square2 = _plus((input2 * input2).sum(dim), COSINE_EMBEDDING_EPS)
    cos = prod_sum / (mag_square1 * mag_square2).sqrt_()
    zeros = creation.zeros_like(cos)
    pos = _number_minus(1, cos)
    neg = _minus(cos, margin).clamp_min_(0)
    output_pos = where(target == 1, pos, zeros)
    output_neg = where(target == -1, neg, zeros)
    return _reduce(output_pos + output_neg, reduction)


def _check_triplet_dims(anchor: Tensor, positive: Tensor, negative: Tensor) -> None:
    dims = (anchor.ndim, positive.ndim, negative.ndim)
    if len(set(dims)) != 1:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number of "
            f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative "
            f"{dims[2]}D inputs"
        )


def triplet_margin_loss(
    anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0, p: float = 2,
    eps: float = 1e-6, swap: bool = False, size_average: Any = None, reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """`max(0, margin + d(anchor, positive) - d(anchor, negative))` with pairwise p-norm
    distances (with `swap`, the smaller of d(a, n) and d(p, n)), reduced."""
    reduction = _reduction(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_triplet_dims(anchor, positive, negative)
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = elementwise.minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    output = elementwise.clamp_min(_plus(dist_pos, margin) - dist_neg, 0)
    return _reduce(output, reduction)


def triplet_margin_with_distance_loss(
    anchor: Tensor, positive: Tensor, negative: Tensor, *,
    distance_function: Callable[[Tensor, Tensor], Tensor] | None = None, margin: float = 1.0,
    swap: bool = False, reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """triplet_margin_loss with any distance (pairwise_distance by default), composed as
    nn.functional composes it: `clamp_min(margin + d(a, p) - d(a, n), 0)`, reduced."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    _check_triplet_dims(anchor, positive, negative)
    distance = pairwise_distance if distance_function is None else distance_function
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = elementwise.minimum(dist_neg, distance(positive, negative))
    return _reduce(elementwise.clamp_min(margin + dist_pos - dist_neg, 0), reduction)


# --------------------------------------------------------------------------------------------
# soft_margin_loss, multilabel_soft_margin_loss, multi_margin_loss
# --------------------------------------------------------------------------------------------


def soft_margin_loss(
    input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """`log(1 + exp(-target · input))`, reduced (SoftMarginLossBackward0)."""
    reduction = _reduction(size_average, reduce, reduction)
    _no_grad_target("soft_margin_loss", target)
    shape = broadcast_shape(input._data.shape, target._data.shape)
    if shape != input._data.shape:
        raise RuntimeError(
            f"output with shape {list(input.shape)} doesn't match the broadcast shape {list(shape)}"
        )
    dtypes.require_floating(input._data.dtype, "soft_margin_loss")
    values = np.broadcast_to(np.asarray(target._data, input._data.dtype), shape)
    out = apply_op(SOFT_MARGIN_LOSS, (input,), {"target": values, "reduction": reduction})
    also_shows(out, target=target)  # (`grad_fn._saved_target`, as PyTorch's node shows it)
    return out


def multilabel_soft_margin_loss(
    input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None,
    reduce: Any = None, reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """The mean over classes of the binary logistic losses, then the reduction over samples."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    log_p, log_not_p = apply_op(LOG_SIGMOID, (input,)), apply_op(LOG_SIGMOID, (-input,))
    loss = -(target * log_p + (1 - target) * log_not_p)
    if weight is not None:
        loss = loss * weight
    class_dim = input.ndim - 1
    loss = loss.sum(dim=class_dim) / input.shape[class_dim]
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return _reduce(loss, reduction)


def _multi_margin_target(input: Tensor, target: Tensor, weight: Tensor | None) -> np.ndarray:
    """ATen's shape checks, in its order; the target as int64 class indices."""
    shape, ndim = tuple(input.shape), input.ndim
    if not (ndim == 2 and shape[1] != 0 or ndim == 1 and shape[0] != 0 or ndim == 0):
        raise RuntimeError(
            "Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
            f"{list(shape)}"
        )
    n = 1 if ndim <= 1 else shape[0]
    classes = 1 if ndim == 0 else shape[-1]
    if target.ndim > 1 or target._data.size != n:
        raise RuntimeError(
            "multi_margin_loss: target tensor should be 1-D with size equal to the number of "
            f"input samples (batch size). Expected target size [{n}], but got "
            f"{list(target.shape)}. Input has shape {list(shape)}."
        )
    if weight is not None and (weight.ndim > 1 or weight._data.size != classes):
        raise RuntimeError(
            f"inconsistent weight size, expected {classes} but got {list(weight.shape)}"
        )
    dtypes.require_floating(input._data.dtype, "multi_margin_loss_cpu_kernel")
    kind = dtypes.scalar_name(target._data.dtype)
    if kind != "Long":
        raise RuntimeError(f"expected scalar type Long but found {kind}")
    indices = np.asarray(target._data, np.int64).reshape(-1)
    if ((indices < 0) | (indices >= classes)).any():
        raise RuntimeError("target out of range")
    return indices


def multi_margin_loss(
    input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,
    weight: Tensor | None = None, size_average: Any = None, reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """The multi-class hinge loss: per sample, Σ over the other classes j of
    `max(0, margin - x[y] + x[j])^p · weight[y]`, over the class count; then the reduction."""
    reduction = _reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.ndim != 1:
        raise ValueError("weight must be one-dimensional")
    indices = _multi_margin_target(input, target, weight)
    w = None if weight is None else np.asarray(weight._data, input._data.dtype).reshape(-1)
    params = {
        "target": indices, "p": int(p), "margin": float(margin), "weight": w,
        "reduction": reduction, "shape": (indices.size,) if target.ndim else (),
    }  # fmt: skip
    out = apply_op(MULTI_MARGIN_LOSS, (input,), params)
    also_shows(out, target=target, weight=weight)
    return out


# --------------------------------------------------------------------------------------------
# poisson_nll_loss, gaussian_nll_loss
# --------------------------------------------------------------------------------------------


def poisson_nll_loss(
    input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,
    size_average: Any = None, eps: float = 1e-8, reduce: Any = None, reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """`exp(input) - target · input` (log_input) or `input - target · log(input + eps)`, plus
    Stirling's approximation of log(target!) for targets over 1 with `full`; reduced."""
    reduction = _reduction(size_average, reduce, reduction)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * _plus(input, eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _reduce(loss, reduction)


def _variance_like(input: Tensor, var: Any) -> Tensor:
    """`var` checked and shaped against `input` as nn.functional does (a number: everywhere)."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * creation.ones_like(input)
    elif not isinstance(var, Tensor):
        raise TypeError(f"gaussian_nll_loss(): var must be a Tensor or a float, not {_type(var)}")
    elif (np.asarray(var._data) < 0).any():
        raise ValueError("var has negative entry/entries")
    in_shape, var_shape = tuple(input.shape), tuple(var.shape)
    if var_shape != in_shape:
        if in_shape[:-1] == var_shape:
            var = var.unsqueeze(-1)
        elif not (
            input.ndim == var.ndim and sum(v for i, v in zip(in_shape, var_shape) if i != v) == 1
        ):
            raise ValueError("var is of incorrect size")
    return var


def _type(value: Any) -> str:
    return type(value).__name__


def gaussian_nll_loss(
    input: Tensor, target: Tensor, var: Any, full: bool = False, eps: float = 1e-6,
    reduction: str = "mean",
) -> Tensor:  # fmt: skip
    """`0.5 · (log(var) + (input - target)² / var)` with var clamped at eps (outside the graph),
    plus `0.5 · log(2π)` with `full`; reduced."""
    var = _variance_like(input, var)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)
