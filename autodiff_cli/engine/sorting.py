"""Sorting and selection: sort, argsort, msort, topk, kthvalue.

The order of equal elements is PyTorch's on CPU, which is that of the C++ standard library it calls
(libstdc++): `std::sort` (introsort: not stable beyond 16 elements) for `sort(stable=False)`,
`std::stable_sort` for `stable=True`, `std::nth_element` / `std::partial_sort` for `topk` and
ATen's own quickselect for `kthvalue`. Those algorithms are emulated here on each row's dense
ranks (NaN ranks above everything, as PyTorch orders it), so ties and NaNs land where PyTorch puts
them; rows without ties take numpy's stable argsort, which every algorithm then agrees with.

Gradients: each op's values are the input at the returned indices; the backward scatters the
gradient back to those positions (PyTorch's `value_selecting_reduction_backward`,
ScatterBackward0 under `create_graph`), as `reductions.py` does for max/min along a dim.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .optable import defop
from .reductions import _along, _along_grad, _as_dim, _return_type, _ReturnTypes
from .tensor import Tensor, _norm_dim, _wrap, apply_op

__all__ = ["argsort", "kthvalue", "msort", "sort", "topk"]

_THRESHOLD = 16  # libstdc++'s _S_threshold: introsort leaves runs this short to insertion sort
# Inputs with ties and more elements than this are not replayed through libstdc++'s algorithms
# (Python loops: seconds for 10^6 elements); their equal elements keep a stable order instead.
EMULATED_MAX_ELEMENTS = 65536

for _name in ("sort", "topk", "kthvalue"):
    setattr(_ReturnTypes, _name, _return_type(_name))
del _name


# --------------------------------------------------------------------------------------------
# libstdc++'s algorithms on a list of keys (smaller key = earlier) and a parallel index list
# --------------------------------------------------------------------------------------------


class _Seq:
    """Keys and indices moved together, as PyTorch's composite (value, index) accessor."""

    __slots__ = ("k", "i")

    def __init__(self, keys: list, idx: list) -> None:
        self.k = keys
        self.i = idx

    def swap(self, a: int, b: int) -> None:
        k, i = self.k, self.i
        k[a], k[b] = k[b], k[a]
        i[a], i[b] = i[b], i[a]


def _insertion_sort(s: _Seq, first: int, last: int) -> None:
    k, ix = s.k, s.i
    for i in range(first + 1, last):
        vk, vi = k[i], ix[i]
        if vk < k[first]:
            k[first + 1 : i + 1] = k[first:i]
            ix[first + 1 : i + 1] = ix[first:i]
            k[first], ix[first] = vk, vi
        else:
            _unguarded_linear_insert(s, i)


def _unguarded_linear_insert(s: _Seq, last: int) -> None:
    k, ix = s.k, s.i
    vk, vi = k[last], ix[last]
    nxt = last - 1
    while vk < k[nxt]:
        k[last], ix[last] = k[nxt], ix[nxt]
        last = nxt
        nxt -= 1
    k[last], ix[last] = vk, vi


def _final_insertion_sort(s: _Seq, first: int, last: int) -> None:
    if last - first > _THRESHOLD:
        _insertion_sort(s, first, first + _THRESHOLD)
        for i in range(first + _THRESHOLD, last):
            _unguarded_linear_insert(s, i)
    else:
        _insertion_sort(s, first, last)


def _move_median_to_first(s: _Seq, result: int, a: int, b: int, c: int) -> None:
    k = s.k
    if k[a] < k[b]:
        if k[b] < k[c]:
            s.swap(result, b)
        elif k[a] < k[c]:
            s.swap(result, c)
        else:
            s.swap(result, a)
    elif k[a] < k[c]:
        s.swap(result, a)
    elif k[b] < k[c]:
        s.swap(result, c)
    else:
        s.swap(result, b)


def _unguarded_partition(s: _Seq, first: int, last: int, pivot: int) -> int:
    k = s.k
    while True:
        while k[first] < k[pivot]:
            first += 1
        last -= 1
        while k[pivot] < k[last]:
            last -= 1
        if not first < last:
            return first
        s.swap(first, last)
        first += 1


def _partition_pivot(s: _Seq, first: int, last: int) -> int:
    mid = first + (last - first) // 2
    _move_median_to_first(s, first, first + 1, mid, last - 1)
    return _unguarded_partition(s, first + 1, last, first)


def _push_heap(s: _Seq, first: int, hole: int, top: int, vk: Any, vi: int) -> None:
    k, ix = s.k, s.i
    parent = (hole - 1) // 2
    while hole > top and k[first + parent] < vk:
        k[first + hole], ix[first + hole] = k[first + parent], ix[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    k[first + hole], ix[first + hole] = vk, vi


def _adjust_heap(s: _Seq, first: int, hole: int, length: int, vk: Any, vi: int) -> None:
    k, ix = s.k, s.i
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if k[first + child] < k[first + child - 1]:
            child -= 1
        k[first + hole], ix[first + hole] = k[first + child], ix[first + child]
        hole = child
    if length & 1 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        k[first + hole], ix[first + hole] = k[first + child - 1], ix[first + child - 1]
        hole = child - 1
    _push_heap(s, first, hole, top, vk, vi)


def _make_heap(s: _Seq, first: int, last: int) -> None:
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(s, first, parent, length, s.k[first + parent], s.i[first + parent])
        if parent == 0:
            return
        parent -= 1


def _pop_heap(s: _Seq, first: int, last: int, result: int) -> None:
    k, ix = s.k, s.i
    vk, vi = k[result], ix[result]
    k[result], ix[result] = k[first], ix[first]
    _adjust_heap(s, first, 0, last - first, vk, vi)


def _heap_select(s: _Seq, first: int, middle: int, last: int) -> None:
    _make_heap(s, first, middle)
    for i in range(middle, last):
        if s.k[i] < s.k[first]:
            _pop_heap(s, first, middle, i)


def _sort_heap(s: _Seq, first: int, last: int) -> None:
    while last - first > 1:
        last -= 1
        _pop_heap(s, first, last, last)


def _partial_sort(s: _Seq, first: int, middle: int, last: int) -> None:
    _heap_select(s, first, middle, last)
    _sort_heap(s, first, middle)


def _lg(n: int) -> int:
    return n.bit_length() - 1


def _introsort_loop(s: _Seq, first: int, last: int, depth: int) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _partial_sort(s, first, last, last)
            return
        depth -= 1
        cut = _partition_pivot(s, first, last)
        _introsort_loop(s, cut, last, depth)
        last = cut


def _std_sort(s: _Seq, first: int, last: int) -> None:
    if last - first > 0:
        _introsort_loop(s, first, last, _lg(last - first) * 2)
        _final_insertion_sort(s, first, last)


def _nth_element(s: _Seq, first: int, nth: int, last: int) -> None:
    if first == last or nth == last:
        return
    depth = _lg(last - first) * 2
    while last - first > 3:
        if depth == 0:
            _heap_select(s, first, nth + 1, last)
            s.swap(first, nth)
            return
        depth -= 1
        cut = _partition_pivot(s, first, last)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(s, first, last)


def _quick_select(s: _Seq, k: int) -> None:
    """ATen's `quick_select_template` (kthvalue, median) with `gt_or_nan` as key comparison."""
    a = s.k
    lo, hi = 0, len(a) - 1
    while True:
        if hi <= lo:
            return
        if hi == lo + 1:
            if a[lo] > a[hi]:
                s.swap(lo, hi)
            return
        p = lo + (hi - lo) // 2
        s.swap(p, lo + 1)
        if a[lo + 1] > a[hi]:
            s.swap(lo + 1, hi)
        if a[lo] > a[hi]:
            s.swap(lo, hi)
        if a[lo + 1] > a[lo]:
            s.swap(lo + 1, lo)
        i, j = lo + 1, hi
        piv = a[lo]
        while True:
            i += 1
            while piv > a[i]:
                i += 1
            j -= 1
            while a[j] > piv:
                j -= 1
            if j < i:
                break
            s.swap(i, j)
        s.swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1


# --------------------------------------------------------------------------------------------
# Rows: dense ranks, the fast path without ties, and the emulated algorithms
# --------------------------------------------------------------------------------------------


def _ranks(row: np.ndarray) -> tuple[np.ndarray, bool]:
    """Dense ranks of a 1-d row (NaNs all equal and above everything, -0.0 == 0.0) and whether
    the row has ties."""
    if row.dtype.kind == "f":
        nan = np.isnan(row)
        clean = np.where(nan, 0, row)
        uniq, inverse = np.unique(clean[~nan], return_inverse=True)
        ranks = np.full(row.shape, len(uniq), dtype=np.int64)
        ranks[~nan] = inverse.reshape(-1)
        ties = len(uniq) + (1 if nan.any() else 0) < row.size or int(nan.sum()) > 1
        return ranks, bool(ties)
    uniq, inverse = np.unique(row, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64), len(uniq) < row.size


def _rows(a: np.ndarray, dim: int) -> np.ndarray:
    """`a` with `dim` moved last, as a 2-d array of rows."""
    moved = np.moveaxis(a, dim, -1)
    return moved.reshape(int(np.prod(moved.shape[:-1], dtype=np.int64)), a.shape[dim])


def _unrows(rows: np.ndarray, shape: tuple, dim: int, n: int) -> np.ndarray:
    moved_shape = tuple(s for i, s in enumerate(shape) if i != dim) + (n,)
    return np.ascontiguousarray(np.moveaxis(rows.reshape(moved_shape), -1, dim))


def _any_ties(ordered: np.ndarray) -> bool:
    """Whether some row of these sorted rows has equal elements (two NaNs are equal; so are
    -0.0 and 0.0)."""
    if ordered.shape[1] < 2:
        return False
    if (ordered[:, 1:] == ordered[:, :-1]).any():
        return True
    return ordered.dtype.kind == "f" and bool((np.isnan(ordered).sum(axis=1) > 1).any())


def _sort_row(row: np.ndarray, descending: bool, stable: bool) -> np.ndarray:
    ranks, ties = _ranks(row)
    keys = -ranks if descending else ranks
    if stable or not ties or row.size <= _THRESHOLD:
        return np.argsort(keys, kind="stable")
    s = _Seq(keys.tolist(), list(range(row.size)))
    _std_sort(s, 0, row.size)
    return np.asarray(s.i, dtype=np.int64)


def _sort_indices(a: np.ndarray, dim: int, descending: bool, stable: bool) -> np.ndarray:
    n = a.shape[dim]
    if a.strides[dim] == 0:  # PyTorch leaves an expanded dim as it is (all equal)
        return np.broadcast_to(
            np.arange(n).reshape((n,) + (1,) * (a.ndim - dim - 1)), a.shape
        ).astype(np.int64)
    rows = _rows(a, dim)
    order = np.argsort(rows, axis=1, kind="stable")
    if not _any_ties(np.take_along_axis(rows, order, axis=1)):
        # every algorithm agrees: numpy's order, reversed for descending
        return _unrows(order[:, ::-1] if descending else order, a.shape, dim, n)
    if rows.size > EMULATED_MAX_ELEMENTS:  # too big to replay in Python: a stable order
        if not descending:
            return _unrows(order, a.shape, dim, n)
        flipped = np.argsort(rows[:, ::-1], axis=1, kind="stable")[:, ::-1]
        return _unrows(n - 1 - flipped, a.shape, dim, n)
    out = np.empty(rows.shape, dtype=np.int64)
    for r in range(rows.shape[0]):
        out[r] = _sort_row(rows[r], descending, stable)
    return _unrows(out, a.shape, dim, n)


def _topk_row(row: np.ndarray, k: int, largest: bool, sorted_: bool) -> np.ndarray:
    n = row.size
    ranks, ties = _ranks(row)
    keys = -ranks if largest else ranks
    partial = k * 64 <= n
    if not ties and (partial or sorted_):
        return np.argsort(keys, kind="stable")[:k]
    s = _Seq(keys.tolist(), list(range(n)))
    if partial:
        _partial_sort(s, 0, k, n)
    else:
        _nth_element(s, 0, k - 1, n)
        if sorted_:
            _std_sort(s, 0, k - 1)
    return np.asarray(s.i[:k], dtype=np.int64)


def _kth_row(row: np.ndarray, k: int) -> int:
    ranks, ties = _ranks(row)
    if not ties:
        return int(np.argsort(ranks, kind="stable")[k - 1])
    s = _Seq(ranks.tolist(), list(range(row.size)))
    _quick_select(s, k - 1)
    return s.i[k - 1]


# --------------------------------------------------------------------------------------------
# The table: values at precomputed indices; the gradient scattered back to them
# --------------------------------------------------------------------------------------------


def _sorted_along(a: Any, dim: int, indices: Tensor, shape: tuple) -> Any:
    if not shape:
        return np.array(a)
    return np.take_along_axis(np.asarray(a), np.asarray(indices._data), axis=dim)


def _sorted_grad(B: Any, g: Any, dim: int, indices: Tensor, shape: tuple) -> Any:
    return _along_grad(B, g, dim, True, indices, shape)


SORT = defop(
    "sort",
    "SortBackward0",
    _sorted_along,
    _sorted_grad,
    rules=("1 at the element moved to each position",),
)
SORT_STABLE = defop(  # `sort(stable=...)`: PyTorch's sort.stable overload has its own node
    "sort_stable",
    "SortBackward1",
    _sorted_along,
    _sorted_grad,
    rules=("1 at the element moved to each position",),
)
TOPK = defop(
    "topk",
    "TopkBackward0",
    _sorted_along,
    _sorted_grad,
    rules=("1 at the selected elements",),
)
KTHVALUE = defop(
    "kthvalue",
    "KthvalueBackward0",
    _along,
    _along_grad,
    rules=("1 at the selected element",),
)


# --------------------------------------------------------------------------------------------
# Functions
# --------------------------------------------------------------------------------------------


def _dim_of(input: Tensor, dim: Any) -> int:
    return _norm_dim(_as_dim(dim), input.ndim)


_UNSET = object()
_SORT_SIGNATURES = (
    " * (Tensor input, *, bool stable, int dim = -1, bool descending = False, "
    "{out} out = None)\n * (Tensor input, int dim = -1, bool descending = False{more})\n"
)


def _check_overload(name: str, positional: tuple, stable: Any, method: bool = False) -> None:
    """`stable` selects PyTorch's keyword-only overload: no positional dim/descending with it
    (PyTorch's argument parser words the refusal by how many arguments came)."""
    if stable is _UNSET or not positional:
        return
    n = len(positional)
    if n >= 2 and (method or name == "argsort"):
        first = 0 if method else 1
        raise TypeError(
            f"{name}() takes from {first + 1} to {first} positional arguments but "
            f"{n + first} were given"
        )
    types = [type(a).__name__ for a in positional] + ["stable=bool"]
    if method:
        expected = (
            " * (*, bool stable, int dim = -1, bool descending = False)\n"
            " * (int dim = -1, bool descending = False)\n"
        )
    elif name == "sort":
        expected = _SORT_SIGNATURES.format(
            out="tuple of Tensors", more=", *, tuple of Tensors out = None"
        )
    else:
        expected = _SORT_SIGNATURES.format(out="Tensor", more="")
    if method or name == "argsort":
        expected += "      didn't match because some of the keywords were incorrect: stable\n"
    got = ", ".join(types if method else ["Tensor", *types])
    raise TypeError(
        f"{name}() received an invalid combination of arguments - got ({got}), but expected one "
        f"of:\n{expected}"
    )


def _sort_impl(input: Tensor, dim: Any, descending: bool, stable: bool, op: Any = SORT) -> tuple:
    d = _dim_of(input, dim)
    data = np.asarray(input._data)
    if data.ndim == 0:
        indices = _wrap(np.zeros((), dtype=np.int64))
        params = {"dim": 0, "indices": indices, "shape": ()}
        return apply_op(op, (input,), params), indices
    indices = _wrap(_sort_indices(data, d, bool(descending), bool(stable)))
    params = {"dim": d, "indices": indices, "shape": data.shape}
    return apply_op(op, (input,), params), indices


def sort(input: Tensor, *args: Any, stable: Any = _UNSET, **kwargs: Any) -> Any:
    _check_overload("sort", args, stable)
    dim, descending = _dim_descending("sort", args, kwargs)
    op = SORT if stable is _UNSET else SORT_STABLE
    values, indices = _sort_impl(input, dim, descending, bool(stable and stable is not _UNSET), op)
    return _ReturnTypes.sort(values, indices)


def _dim_descending(name: str, args: tuple, kwargs: dict) -> tuple:
    if len(args) > 2:
        raise TypeError(
            f"{name}() takes from 1 to 3 positional arguments but {len(args) + 1} were given"
        )
    params = {"dim": -1, "descending": False}
    params.update(zip(("dim", "descending"), args))
    for key, value in kwargs.items():
        if key not in params:
            raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
        params[key] = value
    return params["dim"], params["descending"]


def argsort(input: Tensor, *args: Any, stable: Any = _UNSET, **kwargs: Any) -> Tensor:
    _check_overload("argsort", args, stable)
    dim, descending = _dim_descending("argsort", args, kwargs)
    stable = bool(stable and stable is not _UNSET)
    d = _dim_of(input, dim)
    data = np.asarray(input._data)
    if data.ndim == 0:
        return _wrap(np.zeros((), dtype=np.int64))
    return _wrap(_sort_indices(data, d, bool(descending), bool(stable)))


def msort(input: Tensor) -> Tensor:
    return _sort_impl(input, 0, False, False)[0]


def _k(name: str, k: Any) -> int:
    if isinstance(k, Tensor) and k.ndim == 0 and k._data.dtype.kind in "iu":
        return int(k.item())
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"{name}(): argument 'k' (position 2) must be int, not {type(k).__name__}")
    return int(k)


def topk(input: Tensor, k: Any, dim: Any = -1, largest: bool = True, sorted: bool = True) -> Any:
    k = _k("topk", k)
    d = _dim_of(input, dim)
    data = np.asarray(input._data)
    size = data.shape[d] if data.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if data.ndim == 0:
        indices = _wrap(np.zeros((), dtype=np.int64))
        values = apply_op(TOPK, (input,), {"dim": 0, "indices": indices, "shape": ()})
        return _ReturnTypes.topk(values, indices)
    rows = _rows(data, d)
    out = np.empty((rows.shape[0], k), dtype=np.int64)
    if k:
        for r in range(rows.shape[0]):
            out[r] = _topk_row(rows[r], k, bool(largest), bool(sorted))
    indices = _wrap(_unrows(out, data.shape, d, k))
    values = apply_op(TOPK, (input,), {"dim": d, "indices": indices, "shape": data.shape})
    return _ReturnTypes.topk(values, indices)


def kthvalue(input: Tensor, k: Any, dim: Any = -1, keepdim: bool = False) -> Any:
    k = _k("kthvalue", k)
    d = _dim_of(input, dim)
    data = np.asarray(input._data)
    size = data.shape[d] if data.ndim else 1
    if size == 0:
        raise IndexError(f"kthvalue(): Expected reduction dim {d} to have non-zero size.")
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    if data.ndim == 0:
        indices = _wrap(np.zeros((), dtype=np.int64))
        params = {"dim": 0, "keepdim": bool(keepdim), "indices": indices, "shape": ()}
        return _ReturnTypes.kthvalue(apply_op(KTHVALUE, (input,), params), indices)
    rows = _rows(data, d)
    picked = np.array([_kth_row(rows[r], k) for r in range(rows.shape[0])], dtype=np.int64)
    kept = _unrows(picked, data.shape, d, 1)
    indices = _wrap(np.array(kept if keepdim else np.squeeze(kept, d)))
    params = {"dim": d, "keepdim": bool(keepdim), "indices": indices, "shape": data.shape}
    return _ReturnTypes.kthvalue(apply_op(KTHVALUE, (input,), params), indices)


# --------------------------------------------------------------------------------------------
# Tensor methods
# --------------------------------------------------------------------------------------------


def _sort_method(self: Tensor, *args: Any, stable: Any = _UNSET, **kwargs: Any) -> Any:
    _check_overload("sort", args, stable, method=True)
    return sort(self, *args, stable=stable, **kwargs)


def _argsort_method(self: Tensor, *args: Any, stable: Any = _UNSET, **kwargs: Any) -> Tensor:
    _check_overload("argsort", args, stable, method=True)
    return argsort(self, *args, stable=stable, **kwargs)


def _attach() -> None:
    for name, fn in {
        "sort": _sort_method,
        "argsort": _argsort_method,
        "msort": msort,
        "topk": topk,
        "kthvalue": kthvalue,
    }.items():
        setattr(Tensor, name, fn)


_attach()
