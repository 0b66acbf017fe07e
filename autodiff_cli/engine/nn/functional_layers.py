"""`F.bilinear` and `F.embedding_bag`, over their op-table entries `_trilinear`
(ops/bilinear_forms.py) and `_embedding_bag` (ops/embedding_bags.py), with PyTorch's checks and
messages. `bilinear` flattens its inputs to (batch, features), applies `_trilinear`, reshapes
back (ViewBackward0) and adds the bias (AddBackward0), as PyTorch composes it."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_op
from ..core.tensor import Tensor
from ..ops.bilinear_forms import BILINEAR_SPEC, TRILINEAR
from ..ops.embedding_bags import BAG_MODES, EMBEDDING_BAG

__all__ = ["bilinear", "embedding_bag"]


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
    output = apply_op(TRILINEAR, (flat1, weight, flat2), {"spec": BILINEAR_SPEC})
    output = output.reshape(out_shape)
    return output if bias is None else output + bias


def _bag_indices(input: Tensor) -> np.ndarray:
    if input._data.dtype.kind not in "iu":
        word = dtypes.scalar_name(input._data.dtype)
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got torch.{word}Tensor instead (while checking arguments "
            "for embedding_bag)"
        )
    return np.asarray(input._data, np.int64).reshape(-1)


def _bags_of(input: Tensor, offsets: Any, include_last_offset: bool) -> tuple[np.ndarray, int]:
    """Each entry's bag number (n_bags past include_last_offset's end), and the bag count."""
    if input.ndim == 2:
        if offsets is not None:
            kind = "torch.Tensor" if isinstance(offsets, Tensor) else type(offsets).__name__
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a "
                f"mini-batch of fixed length sequences. However, found offsets of type <class "
                f"'{kind}'>"
            )
        rows, length = input.shape
        return np.repeat(np.arange(rows), length), rows
    if input.ndim != 1:
        raise ValueError(
            f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.ndim}"
        )
    if offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if not isinstance(offsets, Tensor) or offsets.ndim != 1:
        raise ValueError("offsets has to be a 1D Tensor")
    starts = _bag_indices(offsets)
    length = input.shape[0]
    if starts.size and starts[0] != 0:
        raise RuntimeError(
            "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
            f"from position 0. However, got {starts[0]}"
        )
    if starts.size and starts[-1] > length:
        raise RuntimeError(
            f"offsets[-1] can not be greater than input's length {length} but got "
            f"offsets[-1] of {starts[-1]}"
        )
    n_bags = max(starts.size - 1, 0) if include_last_offset else starts.size
    bags = np.searchsorted(starts, np.arange(length), side="right") - 1
    return np.minimum(np.maximum(bags, 0), n_bags), n_bags


def embedding_bag(
    input: Tensor,
    weight: Tensor,
    offsets: Tensor | None = None,
    max_norm: float | None = None,
    norm_type: float = 2,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> Tensor:
    """Sums, means or maxima of bags of embedding rows: a bag per row of a 2-D `input`, or the
    runs of a 1-D `input` starting at `offsets`; EmbeddingBagBackward0 (edges to weight and
    per_sample_weights)."""
    if per_sample_weights is not None and tuple(input.shape) != tuple(per_sample_weights.shape):
        raise ValueError(
            f"embedding_bag: If per_sample_weights (torch.Size({list(per_sample_weights.shape)}))"
            " is not None, then it must have the same shape as the input "
            f"(torch.Size({list(input.shape)}))"
        )
    if weight.ndim != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.ndim}")
    bags, n_bags = _bags_of(input, offsets, include_last_offset)
    if mode not in BAG_MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
            f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
            "GitHub."
        )
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError(
            "embedding_bag: max_norm, scale_grad_by_freq and sparse are not supported"
        )
    dtypes.require_floating(weight._data.dtype, "embedding_bag_cpu_out")
    indices = _bag_indices(input)
    rows = weight.shape[0]
    bad = np.flatnonzero((indices < 0) | (indices >= rows))
    if bad.size and (mode == "max" or weight._data.dtype != np.float32):  # (the general kernel)
        raise RuntimeError(
            "embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be "
            f"{indices[bad[0]]}"
        )
    if bad.size:
        raise RuntimeError(
            f"Index {bad[0]} of input takes value {indices[bad[0]]} which is not in the valid "
            f"range [0, {rows})"
        )
    if padding_idx is None:
        padding_idx = -1
    elif not -rows <= padding_idx < rows:
        raise RuntimeError(
            f"padding_idx must be within the number of embeddings, -{rows} through {rows - 1}, "
            f"but got {padding_idx}"
        )
    elif padding_idx < 0:
        padding_idx += rows
    params = {
        "indices": indices, "bags": bags, "n_bags": n_bags, "mode": BAG_MODES[mode],
        "padding_idx": int(padding_idx),
    }  # fmt: skip
    return apply_op(EMBEDDING_BAG, (weight, per_sample_weights), params)
