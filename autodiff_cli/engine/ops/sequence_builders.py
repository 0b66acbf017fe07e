"""Tensors built from a 1-D tensor or a pair of bounds: combinations, vander and the deprecated
torch.range. combinations and vander are composites in PyTorch, so they are built here from the
same ops in the same order (meshgrid + masked_select + stack; slice copies + cumprod + flip) and
show PyTorch's grad_fn chain."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ..core import dtypes, limits
from ..core.devices import check_device
from ..core.tensor import Tensor, _dims_text, _wrap
from . import arithmetic, creation, reductions, reshaping, select_ops, views

__all__ = ["combinations", "vander", "range"]

_RANGE_DEPRECATED = (
    "torch.range is deprecated and will be removed in a future release because its behavior is "
    "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values "
    "in [start, end)."
)


def _one_dim(x: Any, fn: str, message: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(
            f"{fn}(): argument '{'self' if fn == 'combinations' else 'x'}' (position 1) must be "
            f"Tensor, not {type(x).__name__}"
        )
    if x.ndim != 1:
        raise RuntimeError(message.format(shape=_dims_text(tuple(x.shape))))
    return x


def _index_mask(n: int, r: int, with_replacement: bool) -> np.ndarray:
    """PyTorch's triu mask of the r-dim index grid: i < j < k ... (i <= j <= k with
    replacement), so that equal values still count as distinct elements."""
    grids = np.meshgrid(*([np.arange(n)] * r), indexing="ij")
    mask = np.ones((n,) * r, dtype=bool)
    for a, b in zip(grids, grids[1:]):
        mask &= (a <= b) if with_replacement else (a < b)
    return mask


def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """The length-r combinations of a 1-D tensor's elements, one per row, in lexicographic
    order of positions: r meshgrid grids (ViewBackward0, ExpandBackward0), each masked_select'ed
    (MaskedSelectBackward0) and stacked along dim 1 (StackBackward0), as PyTorch builds it."""
    input = _one_dim(input, "combinations", "Expect a 1D vector, but got shape {shape}")
    if isinstance(r, bool) or not isinstance(r, (int, np.integer)):
        raise TypeError(f"combinations(): argument 'r' must be int, not {type(r).__name__}")
    r = int(r)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return creation.empty(0, dtype=input.dtype)
    n = input.shape[0]
    limits.check_elements(n**r, (n,) * r)
    mask = _wrap(_index_mask(n, r, bool(with_replacement)))
    grids = reshaping.meshgrid(*([input] * r), indexing="ij")
    return arithmetic.stack([select_ops.masked_select(g, mask) for g in grids], 1)


def vander(x: Tensor, N: int | None = None, increasing: bool = False) -> Tensor:  # noqa: N803
    """The Vandermonde matrix of x: columns x^(N-1) ... x^0 (x^0 ... x^(N-1) when increasing).
    PyTorch's composite: ones in column 0, x copied into the rest, their cumprod copied back
    (CopySlices over CumprodBackward0), then flipped (FlipBackward0) unless increasing; integer
    and bool inputs give int64, as cumprod promotes them."""
    x = _one_dim(x, "vander", "x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else int(N)
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    kind = x._data.dtype.kind
    dtype = dtypes.int64 if kind in "biu" else x.dtype
    result = creation.empty(x.shape[0], n, dtype=dtype)
    if n > 0:
        result.select(1, 0).fill_(1)
        if n > 1:
            result[:, 1:].copy_(x.unsqueeze(1))
            result[:, 1:].copy_(reductions.cumprod(result[:, 1:], 1))
    if not increasing:
        return views.flip(result, [1])
    return result


def _range_bounds(start: Any, end: Any, step: Any, np_dtype: np.dtype) -> tuple:
    """start, end, step in the accumulation type (float64, or int64 for integer dtypes)."""
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if np_dtype.kind in "biu":
        return tuple(int(v) for v in values)
    return tuple(float(v) for v in values)


def _number(v: Any) -> str:
    """A bound as PyTorch's C++ prints it (`inf`, `1.5`, `2`)."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def range(
    start: Any = 0,
    end: Any = None,
    step: Any = 1,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    out: Any = None,
) -> Tensor:
    """Deprecated `torch.range`: from start to end INCLUSIVE by step, in the default float dtype
    unless `dtype` is given; warns PyTorch's UserWarning on each call."""
    warnings.warn(_RANGE_DEPRECATED, UserWarning, 2)
    if end is None:
        raise TypeError("range() missing required argument 'end' (pos 2)")
    check_device(device)
    np_dtype = dtypes.to_numpy(dtype) or dtypes.get_default_dtype().np
    s, e, st = _range_bounds(start, end, step, np_dtype)
    if st == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(s) and math.isfinite(e)):
        raise RuntimeError(f"unsupported range: {_number(s)} -> {_number(e)}")
    if not ((st > 0 and e >= s) or (st < 0 and e <= s)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = int((e - s) / st + 1)
    limits.check_elements(n)
    if np_dtype.kind in "biu":
        data = s + st * np.arange(n, dtype=np.int64)
    else:
        data = s + np.arange(n, dtype=np.float64) * st
    result = _wrap(data.astype(np_dtype))
    if requires_grad:
        result.requires_grad_(True)
    if out is not None:
        out.resize_(result.shape)
        out.copy_(result)
        return out
    return result
