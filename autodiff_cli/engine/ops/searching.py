"""Searching and counting ops: `searchsorted`, `bucketize`, `histc`, `bincount`, `unique`,
`unique_consecutive`.

None has a derivative. As in PyTorch, `histc` never records a node, while `bincount` with
weights that require grad and `unique`/`unique_consecutive` of a tensor that requires grad
record one that raises when the backward pass reaches it."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes, limits, script_data
from ..core.apply import grad_node
from ..core.grad_mode import GradMode
from ..core.graph import Node, new_node, node_call_method
from ..core.optable import tensor_methods
from ..core.tensor import Tensor, _norm_dim
from .predicates import common_dtype, constant, require_tensor, write_constant_out

__all__ = ["searchsorted", "bucketize", "histc", "bincount", "unique", "unique_consecutive"]


# --------------------------------------------------------------------------------------------
# Results with a node that has no derivative
# --------------------------------------------------------------------------------------------


class _NoDerivative(Node):
    """A node whose backward raises: PyTorch declares the op but not its derivative."""

    __slots__ = ()
    error: type = RuntimeError
    message: str = ""
    __call__ = node_call_method

    def apply(self, grads: list, backend: Any) -> list:
        raise self.error(self.message)


def _no_derivative(name: str, error: type, message: str) -> type:
    return type(name, (_NoDerivative,), {"error": error, "message": message, "__slots__": ()})


class _BincountNode(_NoDerivative):
    """PyTorch's generic `NotImplemented` node (named by its C++ class)."""

    __slots__ = ()
    message = "derivative for aten::bincount is not implemented"

    def name(self) -> str:
        return "torch::autograd::NotImplemented"


_BincountNode.__name__ = _BincountNode.__qualname__ = "NotImplemented"
_UNIQUE_NODES = {
    name: _no_derivative(cls, NotImplementedError, f"the derivative for '{op}' is not implemented.")
    for name, cls, op in (
        ("unique", "Unique2Backward0", "_unique2"),
        ("unique_dim", "UniqueDimBackward0", "unique_dim"),
        ("unique_consecutive", "UniqueConsecutiveBackward0", "unique_consecutive"),
    )
}


def _result(data: np.ndarray, source: Tensor | None, node_cls: type) -> Tensor:
    """A result whose node (when `source` requires grad in grad mode) raises on backward."""
    t = constant(data)
    if source is not None and GradMode.enabled and source.requires_grad:
        edge = grad_node(source)
        nrs = (source._output_nr,) if source._grad_fn is not None and source._output_nr else None
        t._grad_fn = new_node(node_cls, (edge,), nrs)
        t._requires_grad = True
    return t


# --------------------------------------------------------------------------------------------
# searchsorted, bucketize
# --------------------------------------------------------------------------------------------


def _bisect(seq: np.ndarray, values: np.ndarray, right: bool) -> np.ndarray:
    """For each row of `values`, the insertion points into the same row of `seq` (rows on the
    last axis): a binary search moving right while the boundary is below the value (or not
    above it, with `right`); NaN boundaries or values never stop it, as in PyTorch."""
    n = seq.shape[-1]
    rows = np.arange(seq.shape[0])[:, None]
    lo = np.zeros(values.shape, np.int64)
    hi = np.full(values.shape, n, np.int64)
    active = lo < hi
    while active.any():
        mid = (lo + hi) // 2
        boundary = seq[rows, np.minimum(mid, n - 1)]
        stop = (boundary > values) if right else (boundary >= values)
        lo = np.where(active & ~stop, mid + 1, lo)
        hi = np.where(active & stop, mid, hi)
        active = lo < hi
    return lo


_SS = "torch.searchsorted(): "


def _search_checks(
    seq: Tensor, values: Any, out_int32: bool, side: str | None, right: bool, sorter: Any
) -> bool:
    """PyTorch's checks of searchsorted's arguments; the side it searches from (right?)."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"{_SS}side can only be 'left' or 'right' but got {side}")
        if side == "left" and right:
            raise RuntimeError(
                f"{_SS}side and right can't be set to opposites, got side of left while right "
                "was True"
            )
        right = side == "right"
    if seq.ndim == 0:
        raise RuntimeError(
            f"{_SS}boundaries tensor should have positive dimension, but got 0 dimension"
        )
    if not isinstance(values, Tensor):
        if seq.ndim != 1:
            raise RuntimeError(
                f"{_SS}input value can be a scalar only when boundaries tensor dimension is 1, but "
                f"we got boundaries tensor dim({seq.ndim}) and input value's dim(0) numel(1)"
            )
    elif seq.ndim != 1 and (
        values.ndim != seq.ndim or values._data.shape[:-1] != seq._data.shape[:-1]
    ):
        raise RuntimeError(
            f"{_SS}boundaries tensor should be 1 dimension or the first N-1 dimensions of "
            "boundaries tensor and input value tensor must match, but we got boundaries tensor "
            f"{list(seq._data.shape)} and input value tensor {list(values._data.shape)}"
        )
    if sorter is not None:
        if sorter._data.dtype != np.int64:
            raise RuntimeError(
                f"{_SS}sorter must be a tensor of long dtype but got dtype "
                f"{dtypes.scalar_name(sorter._data.dtype)}"
            )
        if sorter._data.shape != seq._data.shape:
            raise RuntimeError(
                f"{_SS}boundary and sorter must have the same size, but got boundary tensor "
                f"{list(seq._data.shape)}and got sorter tensor {list(sorter._data.shape)}"
            )
        n = seq._data.shape[-1]
        if sorter._data.size and (sorter._data.min() < 0 or sorter._data.max() >= n):
            raise RuntimeError(f"{_SS}sorter index out of range")
    return right


def as_int(name: str, arg: str, value: Any) -> int:
    """An integer argument as PyTorch's parser takes it (a 0-d integer tensor counts)."""
    if isinstance(value, Tensor) and value.ndim == 0 and value._data.dtype.kind in "iu":
        return int(value.item())
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}(): argument '{arg}' must be int, not {type(value).__name__}")
    return int(value)


def _search_out_dtype(out: Any, out_int32: bool) -> None:
    have = out._data.dtype
    if have != (np.int32 if out_int32 else np.int64):
        raise RuntimeError(
            f"{_SS}output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) "
            "depending on whether out_int32 flag is True, but we got output tensor's dtype "
            f"{dtypes.scalar_name(have)} and out_int32 flag is {bool(out_int32)}"
        )


def searchsorted(
    sorted_sequence: Tensor,
    input: Any = None,
    *,
    out_int32: bool = False,
    right: bool = False,
    side: str | None = None,
    sorter: Tensor | None = None,
    out: Any = None,
    self: Any = None,
) -> Tensor:
    """Where each value of `input` would be inserted into the innermost dimension of
    `sorted_sequence` to keep it sorted (`sorter`: the indices that sort it); int64, or int32
    with `out_int32`."""
    input = self if input is None else input
    require_tensor("searchsorted", sorted_sequence, "sorted_sequence")
    right = _search_checks(sorted_sequence, input, out_int32, side, right, sorter)
    if out is not None:
        if isinstance(out, Tensor):
            _search_out_dtype(out, out_int32)
        return write_constant_out(
            searchsorted,
            out,
            sorted_sequence,
            input,
            out_int32=out_int32,
            right=right,
            sorter=sorter,
        )
    seq = sorted_sequence._data
    common = common_dtype(sorted_sequence, input)
    if common == np.bool_:
        raise NotImplementedError("\"searchsorted_out_cpu\" not implemented for 'Bool'")
    seq = seq.astype(common, copy=False)
    values = np.asarray(
        input._data
        if isinstance(input, Tensor)
        else script_data.number(input, "searchsorted(): value")
    ).astype(common)
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter._data, -1)
    n = seq.shape[-1]
    rows = int(np.prod(seq.shape[:-1], dtype=np.int64))
    per_row = values.size if seq.ndim == 1 else values.shape[-1]
    found = _bisect(seq.reshape(rows, n), values.reshape(rows, per_row), right)
    return constant(found.reshape(values.shape).astype(np.int32 if out_int32 else np.int64))


def bucketize(
    input: Any = None,
    boundaries: Tensor | None = None,
    *,
    out_int32: bool = False,
    right: bool = False,
    out: Any = None,
    self: Any = None,
) -> Tensor:
    """The bucket of each value of `input` among the sorted 1-d `boundaries` (`right`: a value
    equal to a boundary goes to the bucket after it)."""
    input = self if input is None else input
    require_tensor("bucketize", boundaries, "boundaries", 2)
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")
    if out is not None:
        if isinstance(out, Tensor):
            _search_out_dtype(out, out_int32)
        return write_constant_out(
            bucketize, out, input, boundaries, out_int32=out_int32, right=right
        )
    if not isinstance(input, Tensor):
        input = constant(np.asarray(script_data.number(input, "bucketize(): input")))
    if boundaries._data.dtype == np.bool_ and input._data.dtype != np.bool_:
        boundaries = constant(boundaries._data.astype(input._data.dtype))
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


# --------------------------------------------------------------------------------------------
# histc, bincount
# --------------------------------------------------------------------------------------------


def _number(value: float, from_data: bool) -> str:
    """A range end as PyTorch prints it (the NaN its reduction finds prints as -nan)."""
    if np.isnan(value):
        return "-nan" if from_data else "nan"
    return f"{float(value):g}"


def _histc_range(a: np.ndarray, min: float, max: float) -> tuple:
    if min > max:
        raise RuntimeError("torch.histc: max must be larger than min")
    lo, hi = a.dtype.type(min), a.dtype.type(max)
    from_data = bool(lo == hi and a.size)
    if from_data:
        lo, hi = a.min(), a.max()
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise RuntimeError(
            f"torch.histc: range of [{_number(lo, from_data)}, {_number(hi, from_data)}] is not "
            "finite"
        )
    return lo, hi


def histc(
    input: Tensor, bins: int = 100, min: float = 0, max: float = 0, *, out: Any = None
) -> Tensor:
    """A histogram of `bins` equal bins over [min, max] (the data's range when both are 0);
    values outside are ignored, the last bin includes `max`. Never differentiable."""
    require_tensor("histc", input)
    if out is not None:
        if isinstance(out, Tensor) and out._data.dtype != input._data.dtype:
            raise RuntimeError(
                "torch.histogram: input tensor and hist tensor should have the same dtype, but "
                f"got input {dtypes.scalar_name(input._data.dtype).lower()} and hist "
                f"{dtypes.scalar_name(out._data.dtype).lower()}"
            )
        return write_constant_out(histc, out, input, bins, min, max)
    bins = as_int("histc", "bins", bins)
    a = input._data
    dtypes.require_floating(a.dtype, "histogram_cpu")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    limits.check_elements(bins, (bins,))
    lo, hi = _histc_range(a, min, max)
    flat = a.ravel()
    inside = flat[(flat >= lo) & (flat <= hi)]
    width = hi - lo
    if not np.isfinite(width):  # PyTorch counts nothing when the width overflows
        return constant(np.zeros(bins, a.dtype))
    position = (inside - lo) * a.dtype.type(bins) / width  # (in the input's dtype)
    overflow = np.isinf(position)  # PyTorch counts these in the first bin
    index = np.minimum(np.where(overflow, 0, position).astype(np.int64), bins - 1)
    return constant(np.bincount(index, minlength=bins).astype(a.dtype))


def _bincount_weights(weights: Any, n: int) -> np.ndarray:
    w = weights._data
    if w.ndim != 1 or w.shape[0] != n:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    return w if w.dtype in (np.float32, np.float64) else w.astype(np.float64)


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    """How often each value 0..max(input) occurs in the 1-d non-negative integer `input` (at
    least `minlength` counts); with `weights`, their sums (float32 for float32 weights, else
    float64)."""
    require_tensor("bincount", input)
    minlength = as_int("bincount", "minlength", minlength)
    a = input._data
    if a.dtype.kind not in "iu":
        raise NotImplementedError(
            f"\"bincount_cpu\" not implemented for '{dtypes.scalar_name(a.dtype)}'"
        )
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if a.ndim != 1 or (a.size and a.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    size = max(int(a.max()) + 1 if a.size else 0, minlength)
    limits.check_elements(size, (size,))
    if weights is None:
        return constant(np.bincount(a, minlength=minlength).astype(np.int64))
    w = _bincount_weights(weights, a.shape[0])
    if a.size == 0:  # PyTorch's empty case: integer zeros, whatever the weights
        return constant(np.zeros(minlength, np.int64))
    counts = np.zeros(size, w.dtype)
    np.add.at(counts, a, w)  # summed in order in the weights' dtype, as PyTorch does
    return _result(counts, weights, _BincountNode)


# --------------------------------------------------------------------------------------------
# unique, unique_consecutive
# --------------------------------------------------------------------------------------------


def _rows(a: np.ndarray, dim: int | None) -> np.ndarray:
    """The items compared: the elements (dim None), or the slices along `dim` flattened."""
    if dim is None:
        return a.reshape(-1, 1)
    moved = np.moveaxis(a, dim, 0)
    return moved.reshape(moved.shape[0], int(np.prod(moved.shape[1:], dtype=np.int64)))


def _group_starts(rows: np.ndarray) -> np.ndarray:
    """Whether each row differs from the one before (NaN never equals NaN: each is its own)."""
    new = np.ones(rows.shape[0], np.bool_)
    if rows.shape[0] > 1:
        new[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    return new


def _unique_dim(a: np.ndarray, dim: Any) -> int | None:
    if dim is None:
        return None
    if a.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = _norm_dim(dim, a.ndim)
    if any(size == 0 for i, size in enumerate(a.shape) if i != d):
        raise RuntimeError(
            "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied"
        )
    return d


def _unique_outputs(
    a: np.ndarray, dim: int | None, order: np.ndarray, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Values, inverse and counts of `rows` taken in `order` (grouping equal neighbours)."""
    starts = _group_starts(rows[order])
    group = np.cumsum(starts) - 1
    inverse = np.empty(rows.shape[0], np.int64)
    inverse[order] = group
    first = order[starts]
    counts = np.diff(np.append(np.flatnonzero(starts), rows.shape[0])).astype(np.int64)
    if dim is None:
        return a.reshape(-1)[first], inverse.reshape(a.shape), counts
    return np.take(a, first, axis=dim), inverse, counts


def _unique_result(
    values: tuple, input: Tensor, node: type, return_inverse: bool, return_counts: bool
) -> Any:
    out = _result(values[0], input, node)
    if not (return_inverse or return_counts):
        return out
    extra = [constant(values[1])] if return_inverse else []
    if return_counts:
        extra.append(constant(values[2]))
    return (out, *extra)


def unique(
    input: Tensor,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """The distinct elements (or slices along `dim`) in ascending order (always sorted, as on
    PyTorch's CPU), with the inverse indices and counts when asked; NaNs stay distinct."""
    require_tensor("unique", input)
    a = input._data
    d = _unique_dim(a, dim)
    rows = _rows(a, d)
    if d is None:
        order = np.argsort(rows[:, 0], kind="stable")
    else:
        order = np.lexsort(rows.T[::-1]) if rows.shape[1] else np.arange(rows.shape[0])
    values = _unique_outputs(a, d, order, rows)
    node = _UNIQUE_NODES["unique" if dim is None else "unique_dim"]
    return _unique_result(values, input, node, return_inverse, return_counts)


def _unique_consecutive(
    input: Tensor, return_inverse: bool = False, return_counts: bool = False, dim: int | None = None
) -> Any:
    """`Tensor.unique_consecutive`: each run of equal consecutive elements (or slices along
    `dim`) kept once."""
    require_tensor("unique_consecutive", input)
    a = input._data
    d = _unique_dim(a, dim)
    rows = _rows(a, d)
    values = _unique_outputs(a, d, np.arange(rows.shape[0]), rows)
    node = _UNIQUE_NODES["unique_consecutive"]
    return _unique_result(values, input, node, return_inverse, return_counts)


_CONSECUTIVE_ARGS = ("return_inverse", "return_counts", "dim")


def unique_consecutive(input: Tensor, *args: Any, **kwargs: Any) -> Any:
    """`torch.unique_consecutive`, as `Tensor.unique_consecutive` when its flags are keywords.
    Given by position, PyTorch picks which results to return from the flags in swapped places
    (the first for the counts, the second for the inverse) while computing with them in
    order: the result not computed is empty (with `dim`, both are computed)."""
    if len(args) > len(_CONSECUTIVE_ARGS):
        raise TypeError(
            f"unique_consecutive() takes from 1 to 4 positional arguments but {len(args) + 1} "
            "were given"
        )
    for name in kwargs:
        if name not in _CONSECUTIVE_ARGS:
            raise TypeError(f"unique_consecutive() got an unexpected keyword argument '{name}'")
    params = dict(zip(_CONSECUTIVE_ARGS, args)) | kwargs
    if not args[:2]:
        return _unique_consecutive(input, **params)
    counts_wanted = kwargs.get("return_counts", args[0])
    inverse_wanted = kwargs.get("return_inverse", args[1] if len(args) > 1 else False)
    flags = (params.get("return_inverse", False), params.get("return_counts", False))
    result = _unique_consecutive(input, True, True, params.get("dim"))
    values, inverse, counts = result
    computed = params.get("dim") is not None
    if not (computed or flags[0]):
        inverse = constant(np.zeros(0, np.int64))
    if not (computed or flags[1]):
        counts = constant(np.zeros(0, np.int64))
    if counts_wanted:
        return (values, inverse, counts) if inverse_wanted else (values, counts)
    return (values, inverse) if inverse_wanted else values


tensor_methods(
    "ops.searching",
    {
        "histc": histc,
        "bincount": bincount,
        "unique": unique,
        "unique_consecutive": _unique_consecutive,
    },
)
