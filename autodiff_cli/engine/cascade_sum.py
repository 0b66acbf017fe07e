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

All of that depends only on the array's shape, strides and dtype and on the axes, so it is worked
out once per such key into a *plan*: a closure making just the numpy calls that do the adds, kept
in a bounded cache (`ordered_sum`, `cascade_sum`). The builders below (`_sequential`,
`_multi_row_sum`, `_row_sum`, `_inner_vectorized`, `_lane_sums`) each return such a closure for a
(rows, lanes) array of a given size; the numpy call counts, not the adds, are what small sums cost.

It runs for float32 and float64 tensors of up to `EXACT_MAX_ELEMENTS` elements: beyond PyTorch's
grain size (32,768) its reductions may be split across threads. Vectors are taken as 256-bit
(AVX2: 8 floats), which is what PyTorch 2.13's sum kernel matched on this project's AVX-512
machines.

A note on zeros: the kernel's accumulators start at +0; the plans start running sums from their
first row or from +0 as is cheaper, and skip adding accumulators that are still zero. That can
only change the sign of a zero, which never changes a non-zero sum, and every result is made
clean of -0 as the kernel's is (a final `+ 0`, or a final running sum started from +0), so the
results agree bit for bit. (NaN payloads are left to numpy: when NaNs of different payloads or
signs meet in one sum, which of them comes out may depend on how numpy's loops split lanes.)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

EXACT_MAX_ELEMENTS = 32768
VECTOR_BYTES = 32
ILP = 4  # partial sums kept per row (`row_sum`'s ilp_factor)
LEVELS = 4  # cascade levels of `multi_row_sum`
MAX_PLANS = 2048  # plans kept per entry point; the cache starts over when full
_EXACT_KINDS = (np.dtype(np.float32), np.dtype(np.float64))
_accumulate = np.add.accumulate  # strictly left to right, unlike np.add.reduce on an inner axis
_add_reduce = np.add.reduce
_concatenate = np.concatenate

Plan = Callable[[np.ndarray], Any]


def _ceil_log2(n: int) -> int:
    return 1 if n <= 2 else (n - 1).bit_length()


# -- the kernel's pieces, as plans over a (rows, lanes) array with its lanes contiguous ------------
# `clean` asks for the `+ 0` the result ends with (a -0 becomes +0): a running sum then starts
# from +0 instead (np.add.reduce's `initial`), which rounds alike and costs nothing, and a sum
# `p + q` is clean when `p` is.
def _first_row(x: np.ndarray) -> np.ndarray:
    return x[0]


def _first_row_clean(x: np.ndarray) -> np.ndarray:
    return x[0] + 0


def _two_rows(x: np.ndarray) -> np.ndarray:
    return x[0] + x[1]


def _add_rows(x: np.ndarray) -> np.ndarray:
    return _add_reduce(x, 0)


def _add_rows_clean(x: np.ndarray) -> np.ndarray:
    return _add_reduce(x, 0, None, None, False, 0)


def _add_lane(x: np.ndarray) -> np.ndarray:
    return _accumulate(x.reshape(-1))[-1:]


def _add_lane_clean(x: np.ndarray) -> np.ndarray:
    return _accumulate(x.reshape(-1))[-1:] + 0


def _sequential(rows: int, lanes: int, clean: bool = False) -> Plan:
    """`x[0] + x[1] + ...` per lane, left to right, for `rows` (>= 1) rows. np.add.reduce adds
    row after row when its inner loop runs over several contiguous lanes; with a single lane it
    would sum pairwise, so that case takes the (strictly sequential) accumulate."""
    if rows == 1:
        return _first_row_clean if clean else _first_row
    if lanes == 1:
        return _add_lane_clean if clean else _add_lane
    if rows == 2 and not clean:  # one add costs less than a reduction
        return _two_rows
    return _add_rows_clean if clean else _add_rows


def _block_sums(groups: int, step: int, lanes: int) -> Plan:
    """The running sums of `groups` consecutive blocks of `step` rows, as (groups, lanes). numpy
    pays for every row it reduces, so many blocks of few lanes are first copied side by side
    into `step` long rows (the same adds, in the same order). Only whole 64-byte vectors of lanes
    are moved, which keeps even NaN payloads where numpy's loops put them."""
    if lanes % 16 == 0 and (groups >= 8 and lanes <= 64 or groups >= 16 and lanes <= 128):
        side_by_side = (step, groups * lanes)

        def wide(x: np.ndarray) -> np.ndarray:
            blocks = x.reshape(groups, step, lanes).transpose(1, 0, 2)
            rows = np.ascontiguousarray(blocks).reshape(side_by_side)
            return _add_reduce(rows, 0).reshape(groups, lanes)

        return wide
    return lambda x: _add_reduce(x.reshape(groups, step, lanes), 1)


def _multi_row_sum(m: int, lanes: int, clean: bool = False) -> Plan:
    """`multi_row_sum` of `m` (>= 1) rows: each lane (column) summed down its rows in a cascade:
    running sums of blocks of `step` rows, of `step` such sums, of `step` of those, and one of all
    the rest. Evaluated level by level (each level a few numpy calls, whatever the length) rather
    than row by row; the adds and their order are the kernel's, the level sums added last, in
    order (zero ones skipped). `lanes` is at least 4 (4 partials per lane, or 4 columns)."""
    step = 1 << max(4, _ceil_log2(m) // LEVELS)
    if m < step:  # no block completes: one running sum
        return _sequential(m, lanes, clean)
    # per level: the rows in full blocks, the blocks, the running sum of the rows left over
    levels: list[tuple[int, Plan, Plan | None]] = []
    n, first = m, clean  # the first sum added up is the one to start from +0
    for _ in range(LEVELS - 1):
        groups, left = divmod(n, step)
        rest = _sequential(left, lanes, first) if left else None
        levels.append((groups * step, _block_sums(groups, step, lanes) if groups else None, rest))
        first = first and not left
        n = groups
        if not groups:
            break
    top = _sequential(n, lanes, first) if n else None  # the last level: its blocks' running sum
    if len(levels) == 2 and levels[1][1] is None:  # one level of blocks (m < step**2): inline
        end, blocks, rest = levels[0]
        clean = clean and rest is None  # else `rest` is the clean one
        if end == step:  # one block
            last = _add_rows_clean if clean else _add_rows
            if rest is None:
                return last
            return lambda x: rest(x[step:]) + _add_reduce(x[:step], 0)
        last = _sequential(end // step, lanes, clean)
        if rest is None:
            return lambda x: last(blocks(x))
        return lambda x: rest(x[end:]) + last(blocks(x[:end]))

    def plan(x: np.ndarray) -> np.ndarray:
        total = None
        for end, blocks, rest in levels:
            if rest is not None:
                partial = rest(x[end:])
                total = partial if total is None else total + partial
            if blocks is not None:
                x = blocks(x[:end])
        if top is not None:
            partial = top(x)
            total = partial if total is None else total + partial
        return total

    return plan


def _row_sum(m: int, lanes: int, clean: bool = False) -> Plan:
    """`row_sum` of `m` (>= 1) rows: each lane read as rows of `ILP` interleaved partial sums,
    the leftover rows added to the first, then the partials added in order; that is one running
    sum down [partial 0, leftover rows, partials 1 to 3]. With no full row of partials they stay
    zero and the leftover rows are the sum."""
    k, left = divmod(m, ILP)
    if not k:
        return _sequential(m, lanes, clean)
    partials = _multi_row_sum(k, ILP * lanes)
    width = ILP * lanes
    if not left:
        final = _sequential(ILP, lanes, clean)
        return lambda x: final(partials(x.reshape(k, width)).reshape(ILP, lanes))
    final = _sequential(ILP + left, lanes, clean)
    end = k * ILP

    def plan(x: np.ndarray) -> np.ndarray:
        p = partials(x[:end].reshape(k, width)).reshape(ILP, lanes)
        return final(_concatenate((p[:1], x[end:], p[1:])))

    return plan


def _inner_vectorized(m: int, lanes: int, width: int, clean: bool = False) -> Plan:
    """`vectorized_inner_sum` of `m` (>= `width`) rows: a lane's rows read as SIMD vectors of
    `width` summed by `_row_sum`; the rows left over, then the vector's own lanes, added to a
    scalar from zero."""
    vectors, left = divmod(m, width)
    end = vectors * width
    vector_sums = _row_sum(vectors, width * lanes)
    final = _sequential(left + width, lanes, clean)
    if not left:
        return lambda x: final(vector_sums(x.reshape(vectors, width * lanes)).reshape(width, lanes))

    def plan(x: np.ndarray) -> np.ndarray:
        sums = vector_sums(x[:end].reshape(vectors, width * lanes))
        return final(_concatenate((x[end:], sums.reshape(width, lanes))))

    return plan


def _lane_sums(
    size0: int, nlanes: int, size1: int, s0: int, s1: int, width: int, clean: bool = False
) -> Plan:
    """The 2-D kernel on (size0 rows, nlanes lanes): one sum per lane, lane j of every group of
    `size1` being the kernel's column j."""
    if s0 == 1 and size0 >= width:
        return _inner_vectorized(size0, nlanes, width, clean)
    if s1 == 1 and size1 >= width:  # vectorised outer: blocks of 4 vectors cascade directly
        block = (size1 // (4 * width)) * 4 * width
    elif s0 < s1:  # scalar inner
        return _row_sum(size0, nlanes, clean)
    else:  # scalar outer: blocks of 4 columns cascade directly
        block = (size1 // 4) * 4
    if block == 0:
        return _row_sum(size0, nlanes, clean)
    groups = nlanes // size1
    cascaded = _multi_row_sum(size0, groups * block, clean)
    if block == size1:
        return cascaded
    rest = _row_sum(size0, groups * (size1 - block), clean)

    def plan(x: np.ndarray) -> np.ndarray:
        columns = x.reshape(size0, groups, size1)
        first = cascaded(columns[:, :, :block].reshape(size0, -1)).reshape(groups, block)
        last = rest(columns[:, :, block:].reshape(size0, -1)).reshape(groups, size1 - block)
        return _concatenate((first, last), axis=1).reshape(nlanes)

    return plan


def _flat_sum(n: int, zero: Any) -> Plan:
    """The whole of a contiguous 1-D array of `n` elements, as a numpy scalar: the common
    `t.sum()`, `t.mean()` and loss (`_inner_vectorized` with one lane, then `+ 0`)."""
    width = VECTOR_BYTES // zero.itemsize
    if n < width:  # scalar `row_sum`: x[0:4] are the partials, x[4:] go to the first
        if n < ILP:

            def tiny(x: np.ndarray) -> Any:
                total = x[0]
                for v in x[1:]:
                    total = total + v
                return total + zero

            return tiny

        def scalar(x: np.ndarray) -> Any:
            total, x1, x2, x3, *rest = x
            for v in rest:
                total = total + v
            return total + x1 + x2 + x3 + zero

        return scalar
    vectors, left = divmod(n, width)
    end = vectors * width
    vector_sums = _row_sum(vectors, width)
    if not left:
        return lambda x: _accumulate(vector_sums(x.reshape(vectors, width)))[-1] + zero
    return lambda x: (
        _accumulate(_concatenate((x[end:], vector_sums(x[:end].reshape(vectors, width)))))[-1]
        + zero
    )


# -- the layout ----------------------------------------------------------------------------------
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


def _general_sum(a: np.ndarray, reduced_axes: set, out_shape: tuple, zero: Any) -> Plan:
    """Any layout: the lanes gathered into a contiguous (size0, lanes) array in iteration order,
    summed by the kernel, then `out += partial` over the reduced dims among the lanes."""
    dims = _layout(a, reduced_axes)
    if not dims or not dims[0][2]:  # nothing of size > 1 is reduced: `out = 0 + a`
        return lambda x: np.reshape(x + zero, out_shape)
    size0, s0 = dims[0][0], dims[0][1]
    size1, s1 = (dims[1][0], dims[1][1]) if len(dims) > 1 else (1, 0)
    # (rows, lanes): the reduced dim's axes, then the other dims' axes slowest first, so the
    # kernel's columns run fastest (size-1 axes anywhere: they do not move anything)
    order = [d for d in range(a.ndim) if a.shape[d] == 1] + dims[0][3]
    for d in reversed(dims[1:]):
        order += d[3]
    order_t = tuple(order)
    # out += partial, in iteration order: the reduced dims among the lanes add up left to right
    lane_dims = list(reversed(dims[1:]))
    kept = [i for i, d in enumerate(lane_dims) if not d[2]]
    summed = [i for i, d in enumerate(lane_dims) if d[2]]
    width = VECTOR_BYTES // a.itemsize
    kernel = _lane_sums(size0, a.size // size0, size1, s0, s1, width, clean=not summed)

    def lanes_of(x: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(x.transpose(order_t).reshape(size0, -1))

    if not summed:
        return lambda x: kernel(lanes_of(x)).reshape(out_shape)
    sizes = tuple(d[0] for d in lane_dims)
    perm = tuple(kept + summed)
    kept_size = math.prod(lane_dims[i][0] for i in kept)

    def plan(x: np.ndarray) -> np.ndarray:
        table = kernel(lanes_of(x)).reshape(sizes).transpose(perm).reshape(kept_size, -1)
        return (_accumulate(table, axis=1)[:, -1] + zero).reshape(out_shape)

    return plan


# -- entry points --------------------------------------------------------------------------------
def _reduced_axes(axis: Any, ndim: int) -> set:
    if axis is None:
        return set(range(ndim))
    if isinstance(axis, int):
        return {axis % ndim}
    return {d % ndim for d in axis}


def _column_sums(x_shape: tuple, rows: int, columns: int, zero: Any, out_shape: tuple) -> Plan:
    """Sums over the leading axes of a contiguous array (a bias's gradient), `columns` > 1."""
    width = VECTOR_BYTES // zero.itemsize
    kernel = _lane_sums(rows, columns, columns, columns, 1, width, clean=True)
    if out_shape == (columns,):
        return kernel if x_shape == (rows, columns) else lambda x: kernel(x.reshape(rows, columns))
    return lambda x: kernel(x.reshape(rows, columns)).reshape(out_shape)


def _flat_into(n: int, zero: Any, out_shape: tuple) -> Plan:
    """A contiguous array's whole sum, reshaped to `out_shape` (one element; `()` keeps the
    numpy scalar)."""
    flat = _flat_sum(n, zero)
    return lambda x: flat(x.reshape(-1)).reshape(out_shape)


def _cascade_plan(a: np.ndarray, axis: Any, keepdims: bool) -> Plan:
    ndim = a.ndim
    reduced_axes = _reduced_axes(axis, ndim)
    out_shape = tuple(
        1 if d in reduced_axes else n
        for d, n in enumerate(a.shape)
        if keepdims or d not in reduced_axes
    )
    zero = a.dtype.type(0)
    contiguous = a.flags.c_contiguous
    if contiguous and len(reduced_axes) == ndim:
        if not out_shape:
            flat = _flat_sum(a.size, zero)
            return flat if ndim == 1 else lambda x: flat(x.reshape(-1))
        return _flat_into(a.size, zero, out_shape)
    if contiguous and reduced_axes == set(range(len(reduced_axes))):
        # leading axes (a bias gradient): rows are the reduced index, lanes the columns
        columns = math.prod(a.shape[len(reduced_axes) :])
        rows = a.size // columns
        if columns == 1:
            return _flat_into(a.size, zero, out_shape)
        if rows > 1:
            return _column_sums(a.shape, rows, columns, zero, out_shape)
    if contiguous and reduced_axes == set(range(ndim - len(reduced_axes), ndim)):
        # trailing axes (a row sum): lanes are the rows, each summed along its contiguous run
        length = math.prod(a.shape[ndim - len(reduced_axes) :])
        rows = a.size // length
        if length > 1 and rows > 1:
            width = VECTOR_BYTES // a.itemsize
            kernel = _lane_sums(length, rows, rows, 1, length, width, clean=True)
            return lambda x: kernel(np.ascontiguousarray(x.reshape(rows, length).T)).reshape(
                out_shape
            )
    return _general_sum(a, reduced_axes, out_shape, zero)


def _ordered_plan(a: np.ndarray, axis: Any, keepdims: bool) -> Plan:
    if a.dtype not in _EXACT_KINDS or not 1 < a.size <= EXACT_MAX_ELEMENTS:
        return lambda x: _add_reduce(x, axis, None, None, keepdims)
    if not keepdims and a.flags.c_contiguous:
        if axis is None:
            flat = _flat_sum(a.size, a.dtype.type(0))
            return flat if a.ndim == 1 else lambda x: flat(x.reshape(-1))
        if axis == 0 and a.shape[0] > 1:  # a bias's gradient: column sums
            zero = a.dtype.type(0)
            columns = a.size // a.shape[0]
            if columns == 1:
                return _flat_into(a.size, zero, a.shape[1:])
            return _column_sums(a.shape, a.shape[0], columns, zero, a.shape[1:])
    return _cascade_plan(a, axis, keepdims)


_ORDERED_PLANS: dict = {}
_CASCADE_PLANS: dict = {}


def _run_planned(
    plans: dict, make_plan: Callable[..., Plan], a: np.ndarray, axis: Any, keepdims: bool
) -> Any:
    """Runs the plan `make_plan` gives for `a`'s layout and these axes, made once and kept in
    `plans` (bounded: it starts over when full)."""
    key = (a.shape, a.strides, a.dtype, axis, axis.__class__, keepdims)
    try:
        plan = plans.get(key)
    except TypeError:  # an unhashable axis (a list): planned each time
        return make_plan(a, axis, keepdims)(a)
    if plan is None:
        if len(plans) >= MAX_PLANS:
            plans.clear()
        plan = plans[key] = make_plan(a, axis, keepdims)
    return plan(a)


def exact_for(a: Any) -> bool:
    """Whether `cascade_sum` replays PyTorch's order for `a` (else numpy's sum is as good)."""
    return a.dtype in _EXACT_KINDS and 1 < a.size <= EXACT_MAX_ELEMENTS


def cascade_sum(a: np.ndarray, axis: Any = None, keepdims: bool = False) -> Any:
    """`a.sum(axis)` added in PyTorch's order; float32 and float64 arrays with `exact_for`.
    A full sum gives a numpy scalar, like np.add.reduce."""
    return _run_planned(_CASCADE_PLANS, _cascade_plan, a, axis, keepdims)


def ordered_sum(a: np.ndarray, axis: Any = None, keepdims: bool = False) -> Any:
    """`np.add.reduce(a, axis, keepdims=keepdims)`, added in PyTorch's order where that order
    is replayed (`exact_for`)."""
    return _run_planned(_ORDERED_PLANS, _ordered_plan, a, axis, keepdims)
