"""The margin losses PyTorch computes with kernels of their own: soft_margin_loss
(SoftMarginLossBackward0, whose gradient is SoftMarginLossBackwardBackward0 under create_graph)
and multi_margin_loss (MultiMarginLossBackward0; PyTorch cannot differentiate its backward, whose
node is `NotImplemented`). nn.functional (nn/functional_loss.py) checks the arguments and applies
them; the targets are parameters, not inputs (PyTorch refuses a target that requires grad)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.optable import defop
from .formula_ops import not_implemented_formula, run
from .nn_backward import _mean_scaled, _numel, _ones_like, _per_element


def _grad_output_grad(B: Any, op: Any, gg: Any, g: Any, a: Any, **params: Any) -> Any:
    """The backward's derivative in its grad_output (linear in it): the backward of `gg` for
    reduction='none', else `(backward(ones) * gg).sum()` (the target is a parameter here)."""
    if params["reduction"] == "none":
        return run(B, op, gg, a, **params)
    return (run(B, op, _ones_like(B, g), a, **params) * gg).sum()


def _reduced(loss: np.ndarray, reduction: str, dtype: np.dtype) -> np.ndarray:
    if reduction == "mean":
        return np.asarray(loss.mean(), dtype)
    if reduction == "sum":
        return np.asarray(loss.sum(), dtype)
    return np.asarray(loss, dtype)


# --------------------------------------------------------------------------------------------
# soft_margin_loss: log(1 + exp(-target · input))
# --------------------------------------------------------------------------------------------


def _soft_margin(a: np.ndarray, target: np.ndarray, reduction: str) -> np.ndarray:
    with np.errstate(over="ignore"):
        return _reduced(np.log1p(np.exp(-a * target)), reduction, a.dtype)


def _soft_margin_slope(a: np.ndarray, target: np.ndarray) -> np.ndarray:
    """d/da log(1 + exp(-t a)) = -t · z / (1 + z), z = exp(-t a)."""
    with np.errstate(over="ignore", invalid="ignore"):
        z = np.exp(-target * a)
        return np.asarray(-target * z / (1 + z), a.dtype)


def _soft_margin_double(B: Any, gg: Any, g: Any, a: Any, target: Any, reduction: str) -> Any:
    """d/da of the backward, in ATen's order: `gg · grad_output · t² · z / (z + 1)²` with
    z = exp(-t · a), over n for 'mean'."""
    t = B.const(target)
    z = B.exp(a * -t)
    z_plus_1 = z + 1
    return _mean_scaled(B, gg * g * (t * t) * z / (z_plus_1 * z_plus_1), reduction, _numel(a))


SOFT_MARGIN_LOSS_BACKWARD = defop(
    "soft_margin_loss_backward",
    "SoftMarginLossBackwardBackward0",
    lambda g, a, target, reduction: _per_element(g, _soft_margin_slope(a, target), reduction),
    lambda B, gg, grad_output, self, **params: _grad_output_grad(
        B, SOFT_MARGIN_LOSS_BACKWARD, gg, grad_output, self, **params
    ),
    lambda B, gg, grad_output, self, target, reduction: _soft_margin_double(
        B, gg, grad_output, self, target, reduction
    ),
    arg_names=("grad_output", "self"),
    rules=("-target · z / (1 + z), z = exp(-target · self)", "target² · z / (1 + z)²"),
)


SOFT_MARGIN_LOSS = defop(
    "soft_margin_loss",
    "SoftMarginLossBackward0",
    _soft_margin,
    lambda B, g, self, **params: run(B, SOFT_MARGIN_LOSS_BACKWARD, g, self, **params),
    rules=("-target · z / (1 + z), z = exp(-target · self)",),
)


# --------------------------------------------------------------------------------------------
# multi_margin_loss: Σ_{j ≠ y} max(0, margin - x[y] + x[j])^p · weight[y] / C per sample
# --------------------------------------------------------------------------------------------


def _margins(a: np.ndarray, target: np.ndarray, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """The samples as rows (n, C) and `margin - x[y] + x[j]`, 0 at the target class."""
    x = a.reshape(target.size, -1)
    rows = np.arange(target.size)
    z = margin - x[rows, target][:, None] + x
    z[rows, target] = 0
    return x, z


def _class_weights(weight: np.ndarray | None, target: np.ndarray, dtype: np.dtype) -> Any:
    return np.ones((target.size, 1), dtype) if weight is None else weight[target][:, None]


def _multi_margin(
    a: np.ndarray, target: np.ndarray, p: int, margin: float, weight: Any, reduction: str,
    shape: tuple,
) -> np.ndarray:  # fmt: skip
    x, z = _margins(a, target, margin)
    hinge = np.maximum(z, 0)
    if p == 2:
        hinge = hinge * hinge
    per_sample = (hinge * _class_weights(weight, target, a.dtype)).sum(1) / x.shape[1]
    if reduction == "none":
        return np.asarray(per_sample, a.dtype).reshape(shape)
    return _reduced(per_sample, reduction, a.dtype)


def _per_sample_grad(g: Any, n: int, reduction: str) -> np.ndarray:
    """The incoming gradient for each sample, as a column."""
    if reduction == "none":
        return np.asarray(g).reshape(n, 1)
    return np.full((n, 1), np.asarray(g) / n if reduction == "mean" else np.asarray(g))


def _multi_margin_backward(
    g: Any, a: np.ndarray, target: np.ndarray, p: int, margin: float, weight: Any,
    reduction: str, shape: tuple,
) -> np.ndarray:  # fmt: skip
    x, z = _margins(a, target, margin)
    slope = np.where(z > 0, 2 * z if p == 2 else 1, 0)
    scale = _class_weights(weight, target, a.dtype) / x.shape[1]
    grad = slope * scale * _per_sample_grad(g, target.size, reduction)
    rows = np.arange(target.size)
    grad[rows, target] = 0 - grad.sum(1)  # (0, not -0, where no class is violated)
    return np.asarray(grad, a.dtype).reshape(a.shape)


def _multi_margin_hvp(
    B: Any, gg: Any, g: Any, a: Any, target: np.ndarray, p: int, margin: float, weight: Any,
    reduction: str, shape: tuple,
) -> Any:  # fmt: skip
    """The backward's derivative in the input applied to `gg` (0 for p = 1): only forward-mode
    AD reaches it (`not_implemented_formula`)."""
    values, v = B.array_of(a), B.array_of(gg)
    _, z = _margins(values, target, margin)
    rows = np.arange(target.size)
    vs = v.reshape(target.size, -1)
    pairs = (z > 0) * (2.0 if p == 2 else 0.0) * (vs - vs[rows, target][:, None])
    pairs = pairs * _class_weights(weight, target, values.dtype) / vs.shape[1]
    pairs = pairs * _per_sample_grad(B.array_of(g), target.size, reduction)
    pairs[rows, target] = -pairs.sum(1)
    return B.const(np.asarray(pairs, values.dtype).reshape(values.shape))


MULTI_MARGIN_LOSS_BACKWARD = defop(
    "multi_margin_loss_backward",
    "NotImplemented",
    _multi_margin_backward,
    not_implemented_formula(
        "multi_margin_loss_backward",
        lambda B, gg, grad_output, self, **params: _grad_output_grad(
            B, MULTI_MARGIN_LOSS_BACKWARD, gg, grad_output, self, **params
        ),
    ),
    not_implemented_formula("multi_margin_loss_backward", _multi_margin_hvp),
    saves=(0, 1),
    arg_names=("grad_output", "self"),
    rules=("not differentiable", "not differentiable"),
)
MULTI_MARGIN_LOSS_BACKWARD.node_class().name = lambda self: "torch::autograd::NotImplemented"
MULTI_MARGIN_LOSS = defop(
    "multi_margin_loss",
    "MultiMarginLossBackward0",
    _multi_margin,
    lambda B, g, self, **params: run(B, MULTI_MARGIN_LOSS_BACKWARD, g, self, **params),
    rules=("weight[y] / C (p = 1) or 2 · margin term · weight[y] / C at each violated class",),
    forward_ad=False,
)
