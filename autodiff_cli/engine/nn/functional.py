"""`torch.nn.functional` over the op table."""

from __future__ import annotations

from typing import Any

from .. import ops
from ..ops import binary_cross_entropy_with_logits, relu, sigmoid, softplus, tanh  # noqa: F401
from ..tensor import Tensor


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{reduction} is not a valid value for reduction")


def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    return _reduce((input - target) ** 2, reduction)


def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    return _reduce((input - target).abs(), reduction)


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    out = ops.matmul(input, weight.t())
    return out + bias if bias is not None else out


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    return ops.where(input > 0, input, input * negative_slope)
