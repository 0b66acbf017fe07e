"""Sorting and selection: sort, argsort, msort, topk, kthvalue.

Every op takes its indices from numpy's stable argsort along the dim: NaN sorts as the largest
value (as in PyTorch), and equal elements keep their original order. That is PyTorch's order for
`stable=True`; for `stable=False`, `topk` and `kthvalue` PyTorch leaves the order of equal
elements unspecified, and any order is correct. `topk` returns its elements sorted whether or not
`sorted=True` is asked (PyTorch leaves the order unspecified then).

Gradients: each op's values are the input at the returned indices; the backward scatters the
gradient back to those positions (PyTorch's `value_selecting_reduction_backward`,
ScatterBackward0 under `create_graph`), as `reductions.py` does for max/min along a dim.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.apply import apply_op
from ..core.devices import as_meta, is_meta_data
from ..core.inference import mark_new
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.out_arg import OutRule, declare_out, write_out
from ..core.tensor import Tensor, _norm_dim, _wrap
from .reductions import _along, _along_grad, _as_dim, _return_type, _ReturnTypes

__all__ = ["argsort", "kthvalue", "msort", "sort", "topk"]

for _name in ("sort", "topk", "kthvalue"):
    setattr(_ReturnTypes, _name, _return_type(_name))
del _name


# --------------------------------------------------------------------------------------------
# Indices: numpy's stable sort along rows (NaN sorts as the largest value, -0.0 equals 0.0)
# --------------------------------------------------------------------------------------------


def _rows(a: np.ndarray, dim: int) -> np.ndarray:
    """`a` with `dim` moved last, as a 2-d array of rows."""
    moved = np.moveaxis(a, dim, -1)
    return moved.reshape(int(np.prod(moved.shape[:-1], dtype=np.int64)), a.shape[dim])


def _unrows(rows: np.ndarray, shape: tuple, dim: int, n: int) -> np.ndarray:
    moved_shape = tuple(s for i, s in enumerate(shape) if i != dim) + (n,)
    return np.ascontiguousarray(np.moveaxis(rows.reshape(moved_shape), -1, dim))


def _row_order(rows: np.ndarray, descending: bool) -> np.ndarray:
    """Each row's indices in sorted order, equal elements in their original order (also when
    descending: the reversed row sorted ascending, read backwards)."""
    if not descending:
        return np.argsort(rows, axis=1, kind="stable")
    n = rows.shape[1]
    return n - 1 - np.argsort(rows[:, ::-1], axis=1, kind="stable")[:, ::-1]


def _on_device_of(input: Tensor, indices: np.ndarray) -> np.ndarray:
    """Indices of a meta tensor are meta (computed from its zeros: only their shape counts)."""
    return as_meta(indices) if is_meta_data(input._data) else indices


def _sort_indices(a: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    order = _row_order(_rows(a, dim), descending)
    return _unrows(order.astype(np.int64, copy=False), a.shape, dim, a.shape[dim])


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
    aten="sort",
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
    out=OutRule(("kth_values", "kth_indices")),
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


def _sort_impl(input: Tensor, dim: Any, descending: bool, op: Any = SORT) -> tuple:
    d = _dim_of(input, dim)
    data = np.asarray(input._data)
    if data.ndim == 0:
        indices = mark_new(_wrap(np.zeros((), dtype=np.int64)))
        params = {"dim": 0, "indices": indices, "shape": ()}
        return apply_op(op, (input,), params), indices
    indices = mark_new(_wrap(_on_device_of(input, _sort_indices(data, d, bool(descending)))))
    params = {"dim": d, "indices": indices, "shape": data.shape}
    return apply_op(op, (input,), params), indices


def sort(input: Tensor, *args: Any, stable: Any = _UNSET, out: Any = None, **kwargs: Any) -> Any:
    if out is not None:
        return write_out(sort, out, input, *args, stable=stable, **kwargs)
    _check_overload("sort", args, stable)
    dim, descending = _dim_descending("sort", args, kwargs)
    op = SORT if stable is _UNSET else SORT_STABLE
    values, indices = _sort_impl(input, dim, descending, op)
    return _ReturnTypes.sort(values, indices)


def _dim_descending(name: str, args: tuple, kwargs: dict) -> tuple:
    if len(args) > 2:
        raise TypeError(
            f"{name}() takes from 1 to 3 positional arguments but {len(args) + 1} were given"
        )
    params = {"dim": -1, "descending": False}
    params.update(zip(("dim", "descending"), args))
    for key, value in kwargs.items():
        if key == "axis" and "dim" not in kwargs and not args:  # numpy's spelling
            key = "dim"
        if key not in params:
            raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
        params[key] = value
    return params["dim"], params["descending"]


def argsort(input: Tensor, *args: Any, stable: Any = _UNSET, **kwargs: Any) -> Tensor:
    _check_overload("argsort", args, stable)
    dim, descending = _dim_descending("argsort", args, kwargs)
    d = _dim_of(input, dim)
    data = np.asarray(input._data)
    if data.ndim == 0:
        return mark_new(_wrap(np.zeros((), dtype=np.int64)))
    return mark_new(_wrap(_on_device_of(input, _sort_indices(data, d, bool(descending)))))


def msort(input: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(msort, out, input)
    return _sort_impl(input, 0, False)[0]


declare_out("msort", OutRule("exact"))


def _k(name: str, k: Any) -> int:
    if isinstance(k, Tensor) and k.ndim == 0 and k._data.dtype.kind in "iu":
        return int(k.item())
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"{name}(): argument 'k' (position 2) must be int, not {type(k).__name__}")
    return int(k)


def topk(
    input: Tensor,
    k: Any,
    dim: Any = -1,
    largest: bool = True,
    sorted: bool = True,
    *,
    out: Any = None,
) -> Any:
    if out is not None:
        return write_out(topk, out, input, k, dim, largest, sorted)
    k = _k("topk", k)
    d = _dim_of(input, dim)
    data = np.asarray(input._data)
    size = data.shape[d] if data.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if data.ndim == 0:
        indices = mark_new(_wrap(np.zeros((), dtype=np.int64)))
        values = apply_op(TOPK, (input,), {"dim": 0, "indices": indices, "shape": ()})
        return _ReturnTypes.topk(values, indices)
    out = _row_order(_rows(data, d), bool(largest))[:, :k]  # sorted, whatever `sorted` asks
    indices = mark_new(_wrap(_unrows(out.astype(np.int64), data.shape, d, k)))
    values = apply_op(TOPK, (input,), {"dim": d, "indices": indices, "shape": data.shape})
    return _ReturnTypes.topk(values, indices)


def kthvalue(
    input: Tensor, k: Any, dim: Any = -1, keepdim: bool = False, *, out: Any = None
) -> Any:
    if out is not None:
        return write_out(kthvalue, out, input, k, dim, keepdim)
    k = _k("kthvalue", k)
    d = _dim_of(input, dim)
    data = np.asarray(input._data)
    size = data.shape[d] if data.ndim else 1
    if size == 0:
        raise IndexError(f"kthvalue(): Expected reduction dim {d} to have non-zero size.")
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    if data.ndim == 0:
        indices = mark_new(_wrap(np.zeros((), dtype=np.int64)))
        params = {"dim": 0, "keepdim": bool(keepdim), "indices": indices, "shape": ()}
        return _ReturnTypes.kthvalue(apply_op(KTHVALUE, (input,), params), indices)
    picked = _row_order(_rows(data, d), False)[:, k - 1 : k].astype(np.int64)
    kept = _unrows(picked, data.shape, d, 1)
    indices = mark_new(_wrap(np.array(kept if keepdim else np.squeeze(kept, d))))
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


tensor_methods(
    "ops.sorting",
    {
        "sort": _sort_method,
        "argsort": _argsort_method,
        "msort": msort,
    },
)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(KTHVALUE, kthvalue, method=True)
declare_forms(TOPK, topk, method=True)
