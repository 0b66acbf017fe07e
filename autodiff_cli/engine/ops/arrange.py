"""Rearranging ops written over the view ops, as PyTorch composes them: `tile` (a `repeat`,
RepeatBackward0), `unflatten` (a `view`, ViewBackward0), and `rot90`, an op of its own
(Rot90Backward0)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.apply import apply_op
from ..core.optable import defop, tensor_methods
from ..core.tensor import Tensor, _norm_dim
from .formula_ops import run
from .views import repeat, shape_arg, view

__all__ = ["tile", "unflatten", "rot90"]


def tile(input: Tensor, dims: Any) -> Tensor:
    """`input.repeat(dims)`, `dims` first padded with leading 1s to `input`'s dimensions."""
    dims = shape_arg((dims,) if not isinstance(dims, (tuple, list)) else (tuple(dims),))
    missing = input.ndim - len(dims)
    return repeat(input, *((1,) * missing + tuple(dims)))


def unflatten(input: Tensor, dim: int, sizes: Any) -> Tensor:
    """Dimension `dim` viewed as `sizes` (one of them may be -1)."""
    sizes = tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    d = _norm_dim(dim, input.ndim)
    shape = tuple(input._data.shape)
    known = math.prod(s for s in sizes if s != -1)
    if -1 in sizes:  # the -1 takes what the others leave
        fits = known != 0 and shape[d] % known == 0
    else:
        fits = known == shape[d]
    if not fits:
        raise RuntimeError(
            f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {d} "
            f"({shape[d]}) in the input tensor"
        )
    return view(input, shape[:d] + sizes + shape[d + 1 :])


ROT90 = defop(
    "rot90",
    "Rot90Backward0",
    lambda a, k, dims: np.rot90(a, k, dims).copy(),
    lambda B, g, k, dims: run(B, ROT90, g, k=-k, dims=dims),  # turned back
    rules=("rotated back by -k",),
)


def rot90(input: Tensor, k: int = 1, dims: Any = (0, 1)) -> Tensor:
    dims = tuple(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if input.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {input.ndim}")
    d0, d1 = (_norm_dim(d, input.ndim) for d in dims)
    if d0 == d1:
        raise RuntimeError(
            f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}"
        )
    return apply_op(ROT90, (input,), {"k": int(k), "dims": dims})


tensor_methods("ops.arrange", {"tile": tile, "unflatten": unflatten, "rot90": rot90})
