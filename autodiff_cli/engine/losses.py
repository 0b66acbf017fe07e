"""Losses composed from the op table (weighted variants)."""

from __future__ import annotations

from typing import Any

from . import ops
from .tensor import Tensor


def bce_with_logits_weighted(
    input: Tensor, target: Tensor, weight: Any, pos_weight: Any, reduction: str
) -> Tensor:
    log_sig = -ops.softplus(-input)
    log_one_minus = -ops.softplus(input)
    if pos_weight is not None:
        loss = -(pos_weight * target * log_sig + (1 - target) * log_one_minus)
    else:
        loss = -(target * log_sig + (1 - target) * log_one_minus)
    if weight is not None:
        loss = loss * weight
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss
