"""Indexing: `x[i]`, `x[i] = v`, and masked_fill, index_select, gather, scatter, scatter_add.

`x[...]` is taken apart as PyTorch does: integers become `select`, slices `slice`, `None`
`unsqueeze` (all views, one node each: `x[0, 1]` is two SelectBackward0), then the tensor and
list indices, if any, are applied at once (IndexBackward0). `x[i] = v` writes through the view
the basic part selects (`fill_`/`copy_`, or `index_put_` with tensor indices): on a tensor in a
graph that is an in-place op on a view, recorded as CopySlices (see `inplace.py`).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core import dtypes, script_data
from ..core.apply import apply_inplace, apply_op
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.out_arg import OutRule, write_out
from ..core.saved_hooks import also_shows, shows_saved
from ..core.tensor import Tensor, _dims_text, _norm_dim, _wrap, broadcast_error
from . import views
from .creation import tensor
from .formula_ops import run
from .inplace import COPY, FILL, INDEX_PUT, after_inplace

__all__ = ["masked_fill", "index_select", "gather", "scatter", "scatter_add"]

ZERO_DIM_MESSAGE = (
    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
    "to convert a 0-dim tensor to a number"
)


# --------------------------------------------------------------------------------------------
# Taking an index apart
# --------------------------------------------------------------------------------------------


def _as_int(part: Any) -> int | None:
    """The integer an index part stands for (Python/numpy ints, 0-d integer tensors), or None."""
    if isinstance(part, bool):
        return None
    if isinstance(part, (int, np.integer)):
        return int(part)
    if isinstance(part, Tensor) and part._data.ndim == 0 and part._data.dtype.kind in "iu":
        return int(part._data)
    return None


def _as_bool(part: Any) -> bool | None:
    if isinstance(part, (bool, np.bool_)):
        return bool(part)
    if isinstance(part, Tensor) and part._data.ndim == 0 and part._data.dtype.kind == "b":
        return bool(part._data)
    return None


def _advanced_array(part: Any) -> np.ndarray | None:
    """A tensor or list index as a numpy array (None when `part` is not one)."""
    if isinstance(part, Tensor):
        data = np.asarray(part._data)
    elif isinstance(part, (list, np.ndarray)):
        data = np.asarray(script_data.nested(part) if isinstance(part, list) else part)
        if data.size == 0:
            data = data.astype(np.int64)
    else:
        return None
    if data.dtype.kind not in "biu":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return data


def _consumed(part: Any) -> int:
    """How many dimensions of the indexed tensor an index part uses."""
    if part is None or part is Ellipsis or _as_bool(part) is not None:
        return 0
    if _as_int(part) is not None or isinstance(part, slice):
        return 1
    array = _advanced_array(part)
    if array is None:
        raise IndexError(
            "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
            f"valid indices (got {type(part).__name__})"
        )
    return array.ndim if array.dtype == np.bool_ else 1


def _slice_bounds(part: slice, size: int) -> tuple[int, int, int]:
    if part.step is not None:
        step = int(part.step)
        if step == 0:
            raise ValueError("slice step cannot be zero")
        if step < 0:
            raise ValueError("step must be greater than zero")
    start, stop, step = part.indices(size)
    return start, max(stop, start), step


def _apply_basic(t: Tensor, parts: tuple, keep_full_slices: bool) -> tuple[Tensor, list]:
    """Applies ints, slices, None and ... as views; returns the view and the advanced parts as
    (dimension of the view, numpy array) pairs."""
    ndim = t._data.ndim
    used = sum(_consumed(p) for p in parts)
    if used > ndim:
        if ndim == 0:
            raise IndexError(ZERO_DIM_MESSAGE)
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    result, dim, real_dim = t, 0, 0
    advanced: list = []
    expanded = False
    for part in parts:
        if part is Ellipsis:
            if not expanded:  # a further `...` stands for no dimension
                dim += ndim - used
                real_dim += ndim - used
                expanded = True
            continue
        if part is None:
            result = views.unsqueeze(result, dim)
            dim += 1
            continue
        flag = _as_bool(part)
        if flag is not None:
            result = views.unsqueeze(result, dim)
            advanced.append((dim, np.array([flag])))
            dim += 1
            continue
        index = _as_int(part)
        shape = result._data.shape
        if index is not None:
            size = shape[dim]
            if not -size <= index < size:
                raise IndexError(
                    f"index {index} is out of bounds for dimension {real_dim} with size {size}"
                )
            result = views.select(result, dim, index)
            real_dim += 1
            continue
        if isinstance(part, slice):
            start, stop, step = _slice_bounds(part, shape[dim])
            if keep_full_slices or (start, stop, step) != (0, shape[dim], 1):
                result = views.slice_dim(result, dim, start, stop, step)
            dim += 1
            real_dim += 1
            continue
        array = _advanced_array(part)
        if array.dtype == np.bool_:
            covered = shape[dim : dim + array.ndim]
            for k, n in enumerate(array.shape):
                if covered[k] != n:
                    raise IndexError(
                        f"The shape of the mask {_dims_text(array.shape)} at index {k} does not "
                        f"match the shape of the indexed tensor {_dims_text(shape)} at index "
                        f"{dim + k}"
                    )
        else:
            size = shape[dim]
            bad = array[(array >= size) | (array < -size)]
            if bad.size:
                raise IndexError(
                    f"index {int(bad.flat[0])} is out of bounds for dimension {real_dim} with "
                    f"size {size}"
                )
        advanced.append((dim, array))
        width = array.ndim if array.dtype == np.bool_ else 1
        dim += width
        real_dim += width
    return result, advanced


def _numpy_index(advanced: list) -> tuple:
    """The numpy index applying the advanced parts at their dimensions (`:` elsewhere)."""
    index: list = []
    dim = 0
    for at, array in advanced:
        index.extend([slice(None)] * (at - dim))
        index.append(array)
        dim = at + (array.ndim if array.dtype == np.bool_ else 1)
    return tuple(index)


_SEQUENCE_INDEX_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed "
    "in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be "
    "interpreted as tensor index, x[torch.tensor(seq)], which will result either in an error or "
    "a different result (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/python_variable_indexing.cpp:349.)"
)
_RESHAPED_INDICES = frozenset((range, list, tuple))
_SEQUENCES = (Tensor, list, tuple, range, slice, np.ndarray)


def _range_index(part: Any) -> Any:
    """A Python `range` index part is the long tensor of its numbers (`t[range(n), y]`)."""
    if part.__class__ is range:
        return np.arange(part.start, part.stop, part.step, dtype=np.int64)
    return part


def _index_parts(index: Any) -> Any:
    """The index as PyTorch reads it: ranges as index tensors, and (its legacy numpy rule) a
    short list holding a sequence, slice, `None` or `...` as a tuple of index parts
    (`t[[range(n), y]]` is `t[range(n), y]`, with PyTorch's deprecation warning)."""
    kind = index.__class__
    if kind is range:
        return _range_index(index)
    if kind is list and len(index) < 32:
        if any(isinstance(p, _SEQUENCES) or p is None or p is Ellipsis for p in index):
            warnings.warn(_SEQUENCE_INDEX_WARNING, UserWarning, stacklevel=3)
            index, kind = tuple(index), tuple
    if kind is tuple:
        return tuple(_range_index(part) for part in index)
    return index


def _shown_indices(parts: tuple, np_index: tuple) -> tuple:
    """IndexBackward0's `_saved_indices` as PyTorch shows them: None for a whole dimension, the
    index tensor itself where one was given, else a tensor of the index."""
    given = {id(p._data): p for p in parts if isinstance(p, Tensor)}
    shown = []
    for a in np_index:
        if isinstance(a, slice):
            shown.append(None)
        else:
            t = given.get(id(a))
            shown.append(t if t is not None else _wrap(np.asarray(a)))
    return tuple(shown)


def getitem(self: Tensor, index: Any) -> Tensor:
    index = script_data.unwrapped_index(index)  # a script's numpy arrays: `t[np_index]`
    if index.__class__ in _RESHAPED_INDICES:
        index = _index_parts(index)
    if not isinstance(index, tuple):
        if index is Ellipsis:
            return views.apply_view(views.ALIAS, self)
        if isinstance(index, slice):  # a lone slice is always recorded, even `x[:]`
            if self._data.ndim == 0:
                raise IndexError(ZERO_DIM_MESSAGE)
            start, stop, step = _slice_bounds(index, self._data.shape[0])
            return views.slice_dim(self, 0, start, stop, step)
        index = (index,)
    result, advanced = _apply_basic(self, index, keep_full_slices=False)
    if advanced:
        np_index = _numpy_index(advanced)
        out = views.index_plain(result, np_index)
        if out._grad_fn is not None:
            also_shows(out, indices=_shown_indices(index, np_index))
        return out
    if result is self:
        return views.apply_view(views.ALIAS, self)
    return result


# --------------------------------------------------------------------------------------------
# Index assignment
# --------------------------------------------------------------------------------------------


def _value_tensor(value: Any, like: Tensor) -> Tensor:
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, np.generic)):
        return _wrap(np.asarray(script_data.number(value), dtype=like._data.dtype))
    return tensor(value, dtype=like.dtype)


def _without_leading_ones(shape: tuple) -> tuple:
    """PyTorch's slicePrefix1sSize: the shape with its leading size-1 dimensions dropped."""
    k = 0
    while k < len(shape) and shape[k] == 1:
        k += 1
    return shape[k:]


def setitem(self: Tensor, index: Any, value: Any) -> None:
    index = script_data.unwrapped_index(index)  # a script's numpy arrays: `t[np_index]`
    if index.__class__ in _RESHAPED_INDICES:
        index = _index_parts(index)
    parts = index if isinstance(index, tuple) else (index,)
    target, advanced = _apply_basic(self, parts, keep_full_slices=False)
    value = _value_tensor(value, self)
    if advanced:
        if _without_leading_ones(value._data.shape) != value._data.shape:
            value = views.view(value, _without_leading_ones(value._data.shape))
        params = {"index": _numpy_index(advanced)}
        apply_inplace(INDEX_PUT, target, (value,), params)
    elif value._data.ndim == 0:
        apply_inplace(FILL, target, (value,))
    else:
        if value._data.shape != target._data.shape:
            # PyTorch's copy_to: a view without the leading 1s, then expand if still needed
            value = views.view(value, _without_leading_ones(value._data.shape))
            if value._data.shape != target._data.shape:
                value = views.expand(value, target._data.shape)
        apply_inplace(COPY, target, (value,))
    if target is self:
        after_inplace(self)


# --------------------------------------------------------------------------------------------
# masked_fill, index_select, gather, scatter, scatter_add
# --------------------------------------------------------------------------------------------


def _masked_fill_forward(a: Any, *value: Any, mask: Any) -> np.ndarray:
    fill = value[0] if value else None
    try:
        out = np.where(mask, np.asarray(fill).astype(a.dtype), a)
    except ValueError:
        raise broadcast_error([mask.shape, a.shape]) from None
    if out.shape != a.shape:
        raise broadcast_error([mask.shape, a.shape])
    return out


MASKED_FILL = defop(
    "masked_fill",
    "MaskedFillBackward0",
    lambda a, mask, value: _masked_fill_forward(a, value, mask=mask),
    lambda B, g, mask, value: B.where(B.const(mask), 0.0, g),
    promotes=False,
    rules=("1 where the mask is False, else 0",),
)
MASKED_FILL_TENSOR = defop(
    "masked_fill_tensor",
    "MaskedFillBackward1",
    lambda a, value, mask: _masked_fill_forward(a, value, mask=mask),
    lambda B, g, mask: B.where(B.const(mask), 0.0, g),
    lambda B, g, mask: B.where(B.const(mask), g, 0.0),
    promotes=False,
    arg_names=("self", "value"),
    rules=("1 where the mask is False, else 0", "sum of the gradient where the mask is True"),
    aten="masked_fill",
)


def _masked_fill_args(input: Tensor, mask: Any, value: Any) -> tuple:
    if not isinstance(mask, Tensor) or mask._data.dtype != np.bool_:
        dtype = dtypes.c_name(mask.dtype)
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype {dtype}"
        )
    if isinstance(value, Tensor) and value._data.ndim != 0:
        raise RuntimeError(
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value._data.ndim} dimension(s)."
        )
    if not isinstance(value, Tensor):
        value = script_data.number(value, "masked_fill(): value")
    return np.asarray(mask._data), value


@shows_saved(mask="mask")
def masked_fill(input: Tensor, mask: Tensor, value: Any) -> Tensor:
    mask_data, value = _masked_fill_args(input, mask, value)
    if isinstance(value, Tensor):
        return apply_op(MASKED_FILL_TENSOR, (input, value), {"mask": mask_data})
    return apply_op(MASKED_FILL, (input,), {"mask": mask_data, "value": value})


def masked_fill_(self: Tensor, mask: Tensor, value: Any) -> Tensor:
    mask_data, value = _masked_fill_args(self, mask, value)
    if isinstance(value, Tensor):
        out = apply_inplace(MASKED_FILL_TENSOR, self, (value,), {"mask": mask_data})
    else:
        out = apply_inplace(MASKED_FILL, self, (), {"mask": mask_data, "value": value})
    after_inplace(self)
    return out


def _index_grad(B: Any, g: Any, index: tuple, shape: tuple) -> Any:
    return views.index_backward_any(B, g, shape, index)


INDEX_SELECT = defop(
    "index_select",
    "IndexSelectBackward0",
    lambda a, index, shape: a[index],
    lambda B, g, index, shape: _index_grad(B, g, index, shape),
    rules=("1 at the selected rows (summed where repeated)",),
    out=OutRule(
        "same_as_input",
        message="index_select(): self and result must have the same scalar type",
        no_overlap=True,
    ),
)
GATHER = defop(
    "gather",
    "GatherBackward0",
    lambda a, index, shape: a[index],
    lambda B, g, index, shape: _index_grad(B, g, index, shape),
    rules=("1 at the gathered positions (summed where repeated)",),
    out=OutRule("exact", no_overlap=True),
)


def _gather_any(B: Any, g: Any, index: tuple) -> Any:
    """The gradient of a scatter's source: `grad.gather(dim, index)` (GatherBackward0)."""
    return run(B, GATHER, g, index=index, shape=tuple(g.shape))


def _scatter_add_forward(a: Any, src: Any, index: tuple, region: tuple) -> np.ndarray:
    out = np.array(a, copy=True)
    np.add.at(out, index, src[region])
    return out


def _scatter_forward(a: Any, *src: Any, index: tuple, region: tuple, value: Any = None) -> Any:
    out = np.array(a, copy=True)
    out[index] = src[0][region] if src else value
    return out


SCATTER_ADD = defop(
    "scatter_add",
    "ScatterAddBackward0",
    lambda a, src, index, region: _scatter_add_forward(a, src, index, region),
    lambda B, g, index, region: g,
    lambda B, g, index, region: _gather_any(B, g, index),
    arg_names=("self", "src"),
    rules=("1", "1 at the positions it was added to"),
    out=OutRule("exact"),
)
SCATTER = defop(
    "scatter",
    "ScatterBackward0",
    lambda a, src, index, region: _scatter_forward(a, src, index=index, region=region),
    lambda B, g, index, region: _zero_grad_at(B, g, index),
    lambda B, g, index, region: _gather_any(B, g, index),
    arg_names=("self", "src"),
    rules=("1 where not overwritten", "1 at the positions it was written to"),
    out=OutRule("exact"),
)
SCATTER_VALUE = defop(
    "scatter_value",
    "ScatterBackward1",
    lambda a, index, region, value: _scatter_forward(a, index=index, region=region, value=value),
    lambda B, g, index, region, value: _zero_grad_at(B, g, index),
    rules=("1 where not overwritten",),
    aten="scatter",
)


def _zero_grad_at(B: Any, g: Any, index: tuple) -> Any:
    mask = np.ones(g.shape, dtype=bool)
    mask[index] = False
    return B.where(B.const(mask), g, 0.0)


def _check_index_dtype(index: Any, what: str) -> np.ndarray:
    data = np.asarray(index._data)
    if data.dtype.kind not in "iu":
        raise RuntimeError(what)
    return data


@shows_saved(index="index", dim="dim")
def index_select(input: Tensor, dim: int, index: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(index_select, out, input, dim, index)
    data = _check_index_dtype(index, "index_select(): Expected dtype int32 or int64 for index")
    if data.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    nd = input._data.ndim
    dim = _norm_dim(dim, nd)
    size = input._data.shape[dim] if nd else 1
    data = data.reshape(-1)
    if data.size and (data.max() >= size or data.min() < -size):
        raise IndexError("index out of range in self")
    if nd == 0:
        return apply_op(views.CLONE, (input,))
    np_index = (slice(None),) * dim + (data,)
    return apply_op(INDEX_SELECT, (input,), {"index": np_index, "shape": input._data.shape})


def _scatter_index(input_shape: tuple, dim: int, data: np.ndarray) -> tuple:
    """The numpy index picking, for each position of `index`, the element along `dim`."""
    nd = len(input_shape)
    parts = []
    for d in range(nd):
        if d == dim:
            parts.append(data)
        else:
            shape = [1] * nd
            shape[d] = data.shape[d]
            parts.append(np.arange(data.shape[d]).reshape(shape))
    return tuple(parts)


def _check_scatter_index(input: Tensor, dim: int, index: Tensor, name: str, what: str) -> tuple:
    nd = input._data.ndim
    dim = _norm_dim(dim, nd)
    data = _check_index_dtype(index, f"{name}(): Expected dtype int32/int64 for index")
    if data.ndim != nd:
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {what} tensor")
    dim = _norm_dim(dim, nd)
    size = input._data.shape[dim]
    bad = data[(data >= size) | (data < -size)]
    if bad.size:
        raise RuntimeError(
            f"index {int(bad.flat[0])} is out of bounds for dimension {dim} with size {size}"
        )
    return dim, data


@shows_saved(index="index", dim="dim", self="input")
def gather(
    input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False, out: Any = None
) -> Tensor:
    if out is not None:
        return write_out(gather, out, input, dim, index, sparse_grad=sparse_grad)
    dim, data = _check_scatter_index(input, dim, index, "gather", "input")
    np_index = _scatter_index(input._data.shape, dim, data)
    return apply_op(GATHER, (input,), {"index": np_index, "shape": input._data.shape})


def _scatter_params(input: Tensor, dim: int, index: Tensor, name: str) -> dict:
    dim, data = _check_scatter_index(input, dim, index, name, "self")
    return {
        "index": _scatter_index(input._data.shape, dim, data),
        "region": tuple(slice(0, n) for n in data.shape),
    }


@shows_saved(index="index", dim="dim")
def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(scatter_add, out, input, dim, index, src)
    return apply_op(SCATTER_ADD, (input, src), _scatter_params(input, dim, index, "scatter_add"))


def scatter_add_(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    params = _scatter_params(self, dim, index, "scatter_add")
    out = apply_inplace(SCATTER_ADD, self, (src,), params)
    after_inplace(self)
    return out


@shows_saved(index="index", dim="dim")
def scatter(
    input: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None, out: Any = None
) -> Any:
    if out is not None:
        return write_out(scatter, out, input, dim, index, src, value=value)
    params = _scatter_params(input, dim, index, "scatter")
    source = value if src is None else src
    if isinstance(source, Tensor):
        return apply_op(SCATTER, (input, source), params)
    source = script_data.number(source, "scatter(): value")
    return apply_op(SCATTER_VALUE, (input,), {**params, "value": source})


def scatter_(self: Tensor, dim: int, index: Tensor, src: Any = None, *, value: Any = None) -> Any:
    params = _scatter_params(self, dim, index, "scatter")
    source = value if src is None else src
    if isinstance(source, Tensor):
        out = apply_inplace(SCATTER, self, (source,), params)
    else:
        source = script_data.number(source, "scatter_(): value")
        out = apply_inplace(SCATTER_VALUE, self, (), {**params, "value": source})
    after_inplace(self)
    return out


tensor_methods(
    "ops.indexing",
    {
        "__getitem__": getitem,
        "__setitem__": setitem,
    },
)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(GATHER, gather, method=True)
declare_forms(INDEX_SELECT, index_select, method=True)
declare_forms(MASKED_FILL, masked_fill, method=True, inplace=masked_fill_)
declare_forms(SCATTER, scatter, method=True, inplace=scatter_)
declare_forms(SCATTER_ADD, scatter_add, method=True, inplace=scatter_add_)
