"""`F.bilinear` and `F.embedding_bag`, over their op-table entries `_trilinear`
(ops/bilinear_forms.py) and `_embedding_bag` (ops/embedding_bags.py), with PyTorch's checks and
messages. `bilinear` flattens its inputs to (batch, features), applies `_trilinear`, reshapes
back (ViewBackward0) and adds the bias (AddBackward0), as PyTorch composes it."""

from __future__ import annotations

from ..core.apply import apply_op
from ..core.tensor import Tensor
from ..ops.bilinear_forms import TRILINEAR

__all__ = ["bilinear"]


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """`y = x1ᵀ W x2 + b` over the last dimension of `input1` and `input2`; `weight` is
    (out, in1, in2)."""
    if input1.ndim != input2.ndim:
        raise RuntimeError(
            f"bilinear(): input dimensions do not match: got {input1.ndim} and {input2.ndim}"
        )
    for dim in range(input1.ndim - 1):
        if input1.shape[dim] != input2.shape[dim]:
            raise RuntimeError(
                f"bilinear(): input batch dimensions do not match at dim {dim}: got "
                f"{input1.shape[dim]} and {input2.shape[dim]}"
            )
    if weight.ndim != 3:
        raise IndexError(
            "Dimension out of range (expected to be in range of "
            f"[{-max(weight.ndim, 1)}, {max(weight.ndim, 1) - 1}], but got 2)"
        )
    if input1.shape[-1] != weight.shape[1]:
        raise RuntimeError(
            "bilinear(): input1 size does not match weight size: got "
            f"{input1.shape[-1]} but expected {weight.shape[1]}"
        )
    if input2.shape[-1] != weight.shape[2]:
        raise RuntimeError(
            "bilinear(): input2 size does not match weight size: got "
            f"{input2.shape[-1]} but expected {weight.shape[2]}"
        )
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError(
            "bilinear(): bias size does not match weight size: got "
            f"{bias.shape[-1] if bias.ndim else 1} but expected {weight.shape[0]}"
        )
    out_shape = (*input1.shape[:-1], weight.shape[0])
    flat1 = input1.reshape(-1, input1.shape[-1])
    flat2 = input2.reshape(-1, input2.shape[-1])
    output = apply_op(TRILINEAR, (flat1, weight, flat2)).reshape(out_shape)
    return output if bias is None else output + bias
