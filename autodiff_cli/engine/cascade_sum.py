"""Float sums added in the order PyTorch's CPU kernel adds them, so sums and means round alike.

numpy sums a contiguous axis pairwise in blocks of 8 and other axes one row after another;
PyTorch 2.13's `cascade_sum` (aten/src/ATen/native/cpu/SumKernel.cpp) keeps 4 interleaved partial
sums of SIMD vectors and carries them up 4 levels of 16-row blocks. The two disagree in the last
bit on about half of all float32 sums and means, which `loss.item()` shows. This module replays
PyTorch's order with numpy's exactly rounded element-wise adds:

1. Lay the reduction out as TensorIterator does: drop size-1 dims, put reduced dims first (by input
   stride), kept dims after (by output stride), merge dims that are contiguous in memory.
2. Its first two dims are the kernel's 2-D loop: `size0` along the reduced dim, `size1` columns.
   Pick the kernel as `cascade_sum` does (vectorised inner or outer, scalar inner or outer); each
   column becomes a lane of a (rows, lanes) array summed by `_row_sum` or `_multi_row_sum`.
3. Column results land in the output with `out += partial`, in iteration order, which adds up the
   further reduced dims.

It runs for float32 and float64 tensors of up to `EXACT_MAX_ELEMENTS` elements: beyond PyTorch's
grain size (32,768) its reductions may be split across threads. Vectors are taken as 256-bit
(AVX2: 8 floats), which is what PyTorch 2.13's sum kernel matched on this project's AVX-512
machines.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

EXACT_MAX_ELEMENTS = 32768
VECTOR_BYTES = 32
ILP = 4  # partial sums kept per row (`row_sum`'s ilp_factor)
LEVELS = 4  # cascade levels of `multi_row_sum`
_EXACT_KINDS = (np.dtype(np.float32), np.dtype(np.float64))
_accumulate = np.add.accumulate  # strictly left to right, unlike np.add.reduce on an inner axis
_add_reduce = np.add.reduce


def _running_sum(x: np.ndarray, axis: int) -> np.ndarray:
    """Left-to-right sums along `axis` (not the last). np.add.reduce adds row after row when
    its inner loop runs over contiguous lanes; with a single lane it would sum pairwise, so
    that case takes the (strictly sequential, slower) accumulate."""
    if x.shape[-1] > 1 and x.strides[-1] == x.itemsize and x.flags.c_contiguous:
        return _add_reduce(x, axis)
    return np.take(_accumulate(x, axis=axis), -1, axis=axis)


def _sequential(start: Any, rows: np.ndarray) -> Any:
    """`start + rows[0] + rows[1] + ...` per lane, left to right (`start` None is zero)."""
    if rows.shape[0] <= 4:  # a few adds cost less than gathering them for one call
        total = start
        for row in rows:
            total = row if total is None else total + row
        return total
    if start is not None:
        rows = np.concatenate((start[None], rows))
    return _running_sum(rows, 0)


def _ceil_log2(n: int) -> int:
    return 1 if n <= 2 else (n - 1).bit_length()


def _group_sums(x: np.ndarray, size: int) -> tuple[np.ndarray, Any]:
    """Running sums over consecutive groups of `size` rows: (one per full group, the running sum
    of the rows left over or None)."""
    groups = x.shape[0] // size
    rest = _sequential(None, x[groups * size :]) if groups * size < x.shape[0] else None
    if not groups:
        return x[:0], rest
    full = _running_sum(x[: groups * size].reshape(groups, size, -1), 1)
    return full.reshape((groups,) + x.shape[1:]), rest


def _multi_row_sum(x: np.ndarray) -> np.ndarray:
    """`multi_row_sum`: each lane (column) of `x` summed down its rows in a cascade: running sums
    of blocks of `step` rows, of `step` such sums, of `step` of those, and one of all the rest.
    Evaluated level by level (each level a few numpy calls, whatever the length) rather than row
    by row; the adds and their order are the kernel's. Zero accumulators are None: adding them
    is exact."""
    m = x.shape[0]
    step = 1 << max(4, _ceil_log2(m) // LEVELS)
    if m < step:  # no block completes: one running sum
        return _sequential(None, x) if m else np.zeros(x.shape[1:], x.dtype)
    acc: list[Any] = [None] * LEVELS
    level = x
    for j in range(LEVELS - 1):
        level, acc[j] = _group_sums(level, step)
        if not level.shape[0]:
            break
    else:
        acc[LEVELS - 1] = _sequential(None, level)
    total = None
    for partial in acc:
        if partial is not None:
            total = partial if total is None else total + partial
    return np.zeros(x.shape[1:], x.dtype) if total is None else total


def _row_sum(x: np.ndarray) -> np.ndarray:
    """`row_sum`: each lane of `x` (rows, lanes) read as rows of `ILP` interleaved partial sums,
    the leftover rows added to the first, then the partials added in order."""
    m, lanes = x.shape
    k = m // ILP
    if 16 <= k < 256 and lanes > 1 and x.flags.c_contiguous:
        partials = _one_level_sum(x[: k * ILP].reshape(k, ILP * lanes)).reshape(ILP, lanes)
    else:
        partials = _multi_row_sum(x[: k * ILP].reshape(k, ILP * lanes)).reshape(ILP, lanes)
    if k * ILP < m:
        partials = partials.copy()
        for row in x[k * ILP :]:
            partials[0] += row
    return _running_sum(partials, 0)


def _one_level_sum(x: np.ndarray) -> np.ndarray:
    """`_multi_row_sum` for 16 to 255 contiguous rows of several lanes: blocks of 16 rows summed
    in a running sum of their own, the rows after the last block in another, added last."""
    blocks = x.shape[0] // 16
    block_sums = _add_reduce(x[: blocks * 16].reshape(blocks, 16, x.shape[1]), 1)
    total = _add_reduce(block_sums, 0) if blocks > 1 else block_sums[0]
    if blocks * 16 < x.shape[0]:
        return _add_reduce(x[blocks * 16 :], 0) + total
    return total


def _inner_vectorized(x: np.ndarray, width: int) -> np.ndarray:
    """`vectorized_inner_sum`: a lane's rows read as SIMD vectors of `width` summed by `_row_sum`;
    the rows left over, then the vector's own lanes, added to a scalar from zero."""
    m, lanes = x.shape
    vectors = m // width
    vector_sums = _row_sum(x[: vectors * width].reshape(vectors, width * lanes))
    return _sequential(
        None, np.concatenate((x[vectors * width :], vector_sums.reshape(width, lanes)))
    )


def _layout(a: np.ndarray, reduced_axes: set) -> list[tuple[int, int, bool, list[int]]]:
    """The iteration TensorIterator builds: (size, input stride, reduced, original axes) per dim,
    fastest first, contiguous neighbours merged."""
    itemsize = a.itemsize
    dims = [(a.shape[d], a.strides[d] // itemsize, d in reduced_axes, [d]) for d in range(a.ndim)]
    dims = [d for d in dims if d[0] != 1][::-1]  # TensorIterator starts from the last axis
    out_stride, running = {}, 1
    for d in dims:  # the output is contiguous over the kept dims, in axis order
        if not d[2]:
            out_stride[d[3][0]] = running
            running *= d[0]

    def should_swap(d0: tuple, d1: tuple) -> int:
        # output first: reduced dims to the front, kept dims by output stride
        if d0[2] != d1[2]:
            return 1 if d1[2] else -1
        if not d0[2]:
            s0, s1 = out_stride[d0[3][0]], out_stride[d1[3][0]]
            return -1 if s0 < s1 else 1 if s0 > s1 else 0
        s0, s1 = d0[1], d1[1]  # then the input
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return -1 if s0 < s1 else 1
        return 1 if d0[0] > d1[0] else 0

    for i in range(1, len(dims)):  # TensorIterator's insertion sort, ambiguities and all
        k = i
        for j in range(i - 1, -1, -1):
            order = should_swap(dims[j], dims[k])
            if order > 0:
                dims[j], dims[k] = dims[k], dims[j]
                k = j
            elif order < 0:
                break
    merged: list[tuple[int, int, bool, list[int]]] = []
    for size, stride, reduced, axes in dims:
        if merged:
            psize, pstride, preduced, paxes = merged[-1]
            if preduced == reduced and psize * pstride == stride:
                merged[-1] = (psize * size, pstride, reduced, axes + paxes)
                continue
        merged.append((size, stride, reduced, list(axes)))
    return merged


def _lane_sums(lanes_x: np.ndarray, size1: int, s0: int, s1: int, width: int) -> np.ndarray:
    """The 2-D kernel on (size0 rows, lanes): one sum per lane, lane j of every group of
    `size1` being the kernel's column j."""
    size0, nlanes = lanes_x.shape
    if s0 == 1 and size0 >= width:
        return _inner_vectorized(lanes_x, width)
    if s1 == 1 and size1 >= width:  # vectorised outer: blocks of 4 vectors cascade directly
        block = (size1 // (4 * width)) * 4 * width
    elif s0 < s1:  # scalar inner
        return _row_sum(lanes_x)
    else:  # scalar outer: blocks of 4 columns cascade directly
        block = (size1 // 4) * 4
    if block == 0:
        return _row_sum(lanes_x)
    columns = lanes_x.reshape(size0, nlanes // size1, size1)
    cascaded = _multi_row_sum(columns[:, :, :block].reshape(size0, -1)).reshape(-1, block)
    if block == size1:
        return cascaded.reshape(nlanes)
    rest = _row_sum(columns[:, :, block:].reshape(size0, -1)).reshape(-1, size1 - block)
    return np.concatenate((cascaded, rest), axis=1).reshape(nlanes)


def exact_for(a: Any) -> bool:
    """Whether `cascade_sum` replays PyTorch's order for `a` (else numpy's sum is as good)."""
    return a.dtype in _EXACT_KINDS and 1 < a.size <= EXACT_MAX_ELEMENTS


def _flat_sum(x: np.ndarray) -> Any:
    """The whole of a contiguous 1-D `x`: the common `t.sum()`, `t.mean()` and loss, taken
    without the general layout (fewer numpy calls; the same adds in the same order)."""
    n = x.shape[0]
    width = VECTOR_BYTES // x.itemsize
    vectors = n // width
    if vectors == 0:  # scalar `row_sum`: x[0:4] are the partials, x[4:] go to the first
        if n < ILP:
            total = x[0]
            for v in x[1:]:
                total = total + v
        else:
            total = x[0]
            for v in x[ILP:]:
                total = total + v
            total = total + x[1] + x[2] + x[3]
        return total + x.dtype.type(0)
    k = vectors // ILP
    if k < 16:  # one cascade block at most: a running sum of rows of 4 vectors
        if k:
            partials = _running_sum(x[: k * ILP * width].reshape(k, ILP * width), 0)
            partials = partials.reshape(ILP, width)
        else:
            partials = np.zeros((ILP, width), x.dtype)
        for r in range(k * ILP, vectors):  # `partials` is a new array: add in place
            partials[0] += x[r * width : (r + 1) * width]
        vector_sum = _add_reduce(partials, 0)  # 4 rows of `width` lanes: row after row
    else:
        vector_sum = _row_sum(x[: vectors * width].reshape(vectors, width))
    if vectors * width < n:
        vector_sum = np.concatenate((x[vectors * width :], vector_sum))
    return _accumulate(vector_sum)[-1] + x.dtype.type(0)


def cascade_sum(a: np.ndarray, axis: Any = None, keepdims: bool = False) -> Any:
    """`a.sum(axis)` added in PyTorch's order; float32 and float64 arrays with `exact_for`.
    A full sum gives a numpy scalar, like np.add.reduce."""
    ndim = a.ndim
    if axis is None:
        reduced_axes = set(range(ndim))
    elif isinstance(axis, int):
        reduced_axes = {axis % ndim}
    else:
        reduced_axes = {d % ndim for d in axis}
    out_shape = tuple(
        1 if d in reduced_axes else n
        for d, n in enumerate(a.shape)
        if keepdims or d not in reduced_axes
    )
    contiguous = a.flags.c_contiguous
    if contiguous and len(reduced_axes) == ndim:
        total = _flat_sum(a.reshape(-1))
        return total if not out_shape else np.reshape(total, out_shape)
    if contiguous and reduced_axes == set(range(len(reduced_axes))):
        # leading axes (a bias gradient): rows are the reduced index, lanes the columns
        columns = math.prod(a.shape[len(reduced_axes) :])
        rows = a.size // columns
        if columns == 1:
            return np.reshape(_flat_sum(a.reshape(-1)), out_shape)
        if rows > 1:
            width = VECTOR_BYTES // a.itemsize
            out = _lane_sums(a.reshape(rows, columns), columns, columns, 1, width)
            return (out + a.dtype.type(0)).reshape(out_shape)
    if contiguous and reduced_axes == set(range(ndim - len(reduced_axes), ndim)):
        # trailing axes (a row sum): lanes are the rows, each summed along its contiguous run
        length = math.prod(a.shape[ndim - len(reduced_axes) :])
        rows = a.size // length
        if length > 1 and rows > 1:
            width = VECTOR_BYTES // a.itemsize
            lanes_x = np.ascontiguousarray(a.reshape(rows, length).T)
            out = _lane_sums(lanes_x, rows, 1, length, width)
            return (out + a.dtype.type(0)).reshape(out_shape)
    return _general_sum(a, reduced_axes, out_shape)


def _general_sum(a: np.ndarray, reduced_axes: set, out_shape: tuple) -> np.ndarray:
    dims = _layout(a, reduced_axes)
    if not dims or not dims[0][2]:  # nothing of size > 1 is reduced: `out = 0 + a`
        return np.reshape(a + a.dtype.type(0), out_shape)
    size0, s0 = dims[0][0], dims[0][1]
    size1, s1 = (dims[1][0], dims[1][1]) if len(dims) > 1 else (1, 0)
    # (rows, lanes): lanes in iteration order, the kernel's columns fastest
    view = np.lib.stride_tricks.as_strided(
        a,
        [d[0] for d in reversed(dims)],
        [d[1] * a.itemsize for d in reversed(dims)],
        writeable=False,
    )
    lanes_x = np.ascontiguousarray(view.reshape(-1, size0).T)
    partials = _lane_sums(lanes_x, size1, s0, s1, VECTOR_BYTES // a.itemsize)
    # out += partial, in iteration order: the reduced dims among the lanes add up left to right
    lane_dims = list(reversed(dims[1:]))
    partials = partials.reshape([d[0] for d in lane_dims])
    kept = [i for i, d in enumerate(lane_dims) if not d[2]]
    summed = [i for i, d in enumerate(lane_dims) if d[2]]
    kept_size = math.prod(lane_dims[i][0] for i in kept)
    table = np.transpose(partials, kept + summed).reshape(kept_size, -1)
    zero = np.zeros((kept_size, 1), a.dtype)
    out = _accumulate(np.concatenate((zero, table), axis=1), axis=1)[:, -1]
    return out.reshape(out_shape)


def ordered_sum(a: np.ndarray, axis: Any = None, keepdims: bool = False) -> Any:
    """`np.add.reduce(a, axis, keepdims=keepdims)`, added in PyTorch's order where that order
    is replayed (`exact_for`)."""
    if a.dtype not in _EXACT_KINDS or not 1 < a.size <= EXACT_MAX_ELEMENTS:
        return _add_reduce(a, axis, None, None, keepdims)
    if not keepdims and a.flags.c_contiguous:
        if axis is None:
            return _flat_sum(a.reshape(-1))
        if axis == 0 and a.shape[0] > 1:  # a bias's gradient: column sums
            columns = a.size // a.shape[0]
            if columns == 1:
                return np.reshape(_flat_sum(a.reshape(-1)), a.shape[1:])
            width = VECTOR_BYTES // a.itemsize
            sums = _lane_sums(a.reshape(a.shape[0], columns), columns, columns, 1, width)
            return (sums + a.dtype.type(0)).reshape(a.shape[1:])
    return cascade_sum(a, axis, keepdims)
