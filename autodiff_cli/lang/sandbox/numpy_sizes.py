"""Output sizes of the script numpy's operations, predicted from shapes before numpy allocates.

An operation can give more elements than its inputs hold in three ways:
- explicit sizes (shapes, counts, repetitions, `num`): checked where they are read
  (`numpy_types.shape_of`, `tile`, `repeat`, `eye`, `arange`...);
- broadcasting several arguments (`clip(a, lo, hi)`, `linspace(start, stop)`, random draws with
  array parameters, `solve`'s stacks of matrices): `numpy_types.check_broadcast`,
  `check_linspace`, `check_solve`;
- an *empty* input reduced over its zero-size dims keeps its other dims, which may be huge:
  `np.zeros((0, 150000000)).sum(axis=0)` has 150,000,000 elements (so do `trace`, `det` and
  `matrix_rank` of a stack of empty matrices, `norm` or `count_nonzero` along an axis, and
  `tolist`, which makes a list per row). `check_reduction` and `check_extent`.
The engine's own ops predict theirs the same way (`engine/core/limits.py`).
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from autodiff_cli.lang import limits


def check_count(count: int, shape: Any = None) -> None:
    """Refuse an array of `count` elements past the element cap (`--max-elements`)."""
    cap = limits.max_elements()
    if count > cap:
        what = f"of shape ({', '.join(str(s) for s in shape)}) " if shape is not None else ""
        raise MemoryError(
            f"refusing to allocate an array {what}with {count} elements: more than the limit "
            f"of {cap} elements"
        )


def check_broadcast(*shapes: tuple) -> None:
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        return  # numpy reports the mismatch itself
    check_count(math.prod(shape), shape)


def _dims(shape: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in shape)


def check_reduction(shape: Any, axis: Any, keepdims: bool = False) -> None:
    """Refuse reducing an array of `shape` over `axis` (None, an int or a sequence of ints)
    when the result would pass the cap (only an empty input can give that)."""
    dims = _dims(shape)
    if 0 not in dims:
        return  # the result has at most the input's elements
    ndim = len(dims)
    if axis is None:
        reduced = set(range(ndim))
    else:
        items = axis if isinstance(axis, (tuple, list)) else (axis,)
        try:
            reduced = {operator.index(a) % ndim for a in items} if ndim else set()
        except (TypeError, ZeroDivisionError):
            return  # numpy reports the bad axis itself
    kept = tuple(
        1 if i in reduced else d for i, d in enumerate(dims) if keepdims or i not in reduced
    )
    check_count(math.prod(kept), kept)


def check_extent(shape: Any) -> None:
    """Refuse work done once per element of the non-empty dims of `shape` (its size, but an
    empty array of shape (n, 0) still has n rows): `tolist` makes n lists."""
    dims = _dims(shape)
    check_count(math.prod(d for d in dims if d), dims)


def check_nonzero(raw: np.ndarray) -> None:
    """`nonzero(a)` gives one index array per dim, each as long as the count of nonzeros."""
    check_count(max(raw.ndim, 1) * int(np.count_nonzero(raw)))


def check_linspace(count: int, start: Any, stop: Any) -> None:
    """`linspace` gives `count` samples of the broadcast of `start` and `stop`."""
    try:
        shape = np.broadcast_shapes(np.shape(start), np.shape(stop))
    except ValueError:
        return  # numpy reports the mismatch itself
    full = (max(count, 0), *shape)
    check_count(math.prod(full), full)


def check_solve(a: Any, b: Any) -> None:
    """`solve(a, b)`: the stacks of matrices broadcast (`(n, 1, k, k)` with `(1, m, k, 1)`
    gives n·m solutions)."""
    a_shape, b_shape = np.shape(a), np.shape(b)
    if len(a_shape) < 2:
        return  # numpy reports it
    core = b_shape[-1:] if len(b_shape) == 1 else b_shape[-2:]
    batch_b = () if len(b_shape) == 1 else b_shape[:-2]
    try:
        batch = np.broadcast_shapes(a_shape[:-2], batch_b)
    except ValueError:
        return
    full = (*batch, *core)
    check_count(math.prod(full), full)
