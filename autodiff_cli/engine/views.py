"""View ops beyond the basic ones in the op table."""

from __future__ import annotations

from typing import Any

import numpy as np

from .optable import defop

__all__ = ["permute"]
from .tensor import Tensor, _norm_dim, apply_op

PERMUTE = defop(
    "permute",
    "PermuteBackward0",
    lambda a, dims: np.transpose(a, dims),
    lambda B, g, dims: _inverse_permute(B, g, dims),
    rules=("permute back",),
)


def _inverse_permute(B: Any, g: Any, dims: tuple) -> Any:
    inverse = tuple(int(i) for i in np.argsort(dims))
    if B.creates_graph:
        return permute(g, inverse)
    return np.transpose(g, inverse)


def permute(input: Tensor, *dims: Any) -> Tensor:
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    nd = input.ndim
    if len(dims) != nd:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {nd} is not equal to "
            f"len(dims) = {len(dims)}"
        )
    dims = tuple(_norm_dim(d, nd) for d in dims)
    return apply_op(PERMUTE, (input,), {"dims": dims})


Tensor.permute = permute
