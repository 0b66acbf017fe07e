"""Shape ops PyTorch writes as compositions of views, cat and gather, built here in the same
order so that a result shows the grad_fn PyTorch shows: ravel, broadcast_to, atleast_1d/2d/3d,
hstack/vstack/dstack/column_stack, tensor_split and h/v/dsplit, fliplr/flipud, diff, meshgrid,
diagflat, repeat_interleave and take_along_dim; and roll, an op of its own (RollBackward0)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_op
from ..core.inference import mark_new
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.saved_hooks import also_shows
from ..core.tensor import Tensor, _dims_text, _norm_dim, _wrap, broadcast_error
from .arithmetic import ne, sub
from .formula_ops import run
from .indexing import gather, index_select
from .inplace import COPY
from .matrix import DIAG_EMBED, _reshape
from .views import (
    CLONE,
    cat,
    contiguous,
    expand,
    flip,
    reshape,
    shape_arg,
    slice_dim,
    unsqueeze,
    view,
)

__all__ = [
    "ravel",
    "broadcast_to",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "hstack",
    "vstack",
    "row_stack",
    "dstack",
    "column_stack",
    "tensor_split",
    "hsplit",
    "vsplit",
    "dsplit",
    "fliplr",
    "flipud",
    "roll",
    "diff",
    "meshgrid",
    "diagflat",
    "repeat_interleave",
    "take_along_dim",
]


# --------------------------------------------------------------------------------------------
# Argument checks (PyTorch's argument parser's words)
# --------------------------------------------------------------------------------------------


def require_tensor(value: Any, fn: str, arg: str, position: int | None = None) -> None:
    """`fn(): argument 'arg' (position n) must be Tensor, not <type>` for a non-Tensor."""
    if not isinstance(value, Tensor):
        where = f" (position {position})" if position else ""
        raise TypeError(
            f"{fn}(): argument '{arg}'{where} must be Tensor, not {type(value).__name__}"
        )


def require_tensors(items: Any) -> list:
    """The tensors of a list argument, PyTorch's message naming the first that is not one."""
    items = list(items)
    for i, t in enumerate(items):
        if not isinstance(t, Tensor):
            raise TypeError(
                f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}"
            )
    return items


# --------------------------------------------------------------------------------------------
# Views and reshapes
# --------------------------------------------------------------------------------------------


def ravel(input: Tensor) -> Tensor:
    """`contiguous().view(-1)`: ViewBackward0 (over a CloneBackward0 when input is not
    contiguous)."""
    require_tensor(input, "ravel", "input", 1)
    return view(contiguous(input), -1)


def broadcast_to(input: Tensor, size: Any) -> Tensor:
    if not isinstance(size, (tuple, list)):
        raise TypeError(
            "broadcast_to(): argument 'size' (position 2) must be tuple of ints, not "
            f"{type(size).__name__}"
        )
    return expand(input, shape_arg((size,)))


def _atleast(tensors: tuple, name: str, fn: Any) -> Any:
    """PyTorch's atleast_nd: one Tensor gives one result, several (or one sequence) a tuple."""
    if len(tensors) == 1 and isinstance(tensors[0], Tensor):
        return fn(tensors[0])
    items = tensors[0] if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tensors
    if len(items) > 1:
        items = require_tensors(items)
    for t in items:
        if not isinstance(t, Tensor):
            kind = type(t).__name__
            raise TypeError(
                f"{name}() received an invalid combination of arguments - got ({kind}), but "
                "expected one of:\n * (Tensor input)\n      didn't match because some of the "
                f"arguments have invalid types: (!{kind}!)\n * (tuple of Tensors tensors)\n      "
                f"didn't match because some of the arguments have invalid types: (!{kind}!)\n"
            )
    return tuple(fn(t) for t in items)


def _at_least_1d(t: Tensor) -> Tensor:
    return reshape(t, 1) if t.ndim == 0 else t


def _at_least_2d(t: Tensor) -> Tensor:
    if t.ndim == 0:
        return reshape(t, 1, 1)
    return unsqueeze(t, 0) if t.ndim == 1 else t


def _at_least_3d(t: Tensor) -> Tensor:
    if t.ndim == 0:
        return reshape(t, 1, 1, 1)
    if t.ndim == 1:
        return unsqueeze(unsqueeze(t, 0), -1)
    return unsqueeze(t, -1) if t.ndim == 2 else t


def atleast_1d(*tensors: Any) -> Any:
    return _atleast(tensors, "atleast_1d", _at_least_1d)


def atleast_2d(*tensors: Any) -> Any:
    return _atleast(tensors, "atleast_2d", _at_least_2d)


def atleast_3d(*tensors: Any) -> Any:
    return _atleast(tensors, "atleast_3d", _at_least_3d)


# --------------------------------------------------------------------------------------------
# Stacking: atleast_nd, then cat
# --------------------------------------------------------------------------------------------


def _stack_list(tensors: Any, name: str) -> list:
    if isinstance(tensors, Tensor):
        raise TypeError(
            f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"
        )
    tensors = require_tensors(tensors)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


def hstack(tensors: Any, *, out: Any = None) -> Tensor:
    """Concatenated along dim 1, or dim 0 for 1-D tensors (0-D ones made 1-D first)."""
    parts = [_at_least_1d(t) for t in _stack_list(tensors, "hstack")]
    return cat(parts, 0 if parts[0].ndim == 1 else 1, out=out)


def vstack(tensors: Any, *, out: Any = None) -> Tensor:
    return cat([_at_least_2d(t) for t in _stack_list(tensors, "vstack")], 0, out=out)


def row_stack(tensors: Any, *, out: Any = None) -> Tensor:
    return cat([_at_least_2d(t) for t in _stack_list(tensors, "row_stack")], 0, out=out)


def dstack(tensors: Any, *, out: Any = None) -> Tensor:
    return cat([_at_least_3d(t) for t in _stack_list(tensors, "dstack")], 2, out=out)


def column_stack(tensors: Any, *, out: Any = None) -> Tensor:
    """0-D and 1-D tensors become columns (a view to (n, 1)), then cat along dim 1."""
    parts = _stack_list(tensors, "column_stack")
    columns = [_reshape(t, (t.numel(), 1)) if t.ndim <= 1 else t for t in parts]
    return cat(columns, 1, out=out)


# --------------------------------------------------------------------------------------------
# Splitting: slices (SliceBackward0 each)
# --------------------------------------------------------------------------------------------


def _split_points(input: Tensor, what: Any, dim: int) -> list:
    """The boundaries of tensor_split's pieces: from a number of sections or from indices."""
    size = input._data.shape[dim]
    if isinstance(what, Tensor):
        if what._data.dtype != np.int64:
            name = dtypes.scalar_name(what._data.dtype)
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                f"{name}"
            )
        if what.ndim > 1:
            raise RuntimeError(
                "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                f"one-dimensional tensor, but got a tensor with {what.ndim} dims"
            )
        what = int(what._data) if what.ndim == 0 else [int(i) for i in what._data]
    if isinstance(what, (list, tuple)):
        bounds = [0]
        for index in what:
            index = int(index)
            bounds.append(max(index + size, 0) if index < 0 else min(index, size))
        return [*bounds, size]
    if isinstance(what, bool) or not isinstance(what, (int, np.integer)):
        raise TypeError(
            "tensor_split() received an invalid combination of arguments - got (Tensor, "
            f"{type(what).__name__}), but expected one of:\n * (Tensor input, tuple of ints "
            "indices, int dim = 0)\n * (Tensor input, Tensor tensor_indices_or_sections, int dim "
            "= 0)\n * (Tensor input, int sections, int dim = 0)\n"
        )
    sections = int(what)
    if sections <= 0:
        raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
    small, extra = divmod(size, sections)
    bounds = [0]
    for i in range(sections):
        bounds.append(bounds[-1] + small + (1 if i < extra else 0))
    return bounds


def tensor_split(
    input: Tensor,
    indices_or_sections: Any = None,
    dim: int = 0,
    *,
    sections: Any = None,
    indices: Any = None,
    tensor_indices_or_sections: Any = None,
) -> tuple:
    """Pieces of `input` along `dim`: `n` sections as equal as possible (the first ones one
    longer), or cut at `indices` (clamped to the size, as slices are)."""
    given = (indices_or_sections, sections, indices, tensor_indices_or_sections)
    what = next((w for w in given if w is not None), None)
    if input.ndim == 0:
        raise RuntimeError(
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"
        )
    dim = _norm_dim(dim, input.ndim)
    bounds = _split_points(input, what, dim)
    return tuple(
        slice_dim(input, dim, start, max(start, stop)) for start, stop in zip(bounds, bounds[1:])
    )


def _split_along(input: Tensor, what: Any, name: str, dim: int, least: int) -> tuple:
    """hsplit/vsplit/dsplit: an int must divide the dimension evenly; indices as tensor_split."""
    if isinstance(what, (bool, float)):
        got = f"(Tensor, !{type(what).__name__}!)"
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got (Tensor, "
            f"{type(what).__name__}), but expected one of:\n * (Tensor input, int sections)\n"
            f"      didn't match because some of the arguments have invalid types: {got}\n"
            " * (Tensor input, tuple of ints indices)\n"
            f"      didn't match because some of the arguments have invalid types: {got}\n"
        )
    if input.ndim < least:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {least} dimension, but got a tensor "
            f"with {input.ndim} dimensions!"
        )
    if not isinstance(what, (list, tuple)):
        size = input._data.shape[dim]
        split_size = int(what)
        if split_size == 0 or size % split_size:
            raise RuntimeError(
                f"torch.{name} attempted to split along dimension {dim}, but the size of the "
                f"dimension {size} is not divisible by the split_size {split_size}!"
            )
    return tensor_split(input, what, dim)


def hsplit(input: Tensor, indices_or_sections: Any) -> tuple:
    dim = 0 if input.ndim == 1 else 1
    return _split_along(input, indices_or_sections, "hsplit", dim, 1)


def vsplit(input: Tensor, indices_or_sections: Any) -> tuple:
    return _split_along(input, indices_or_sections, "vsplit", 0, 2)


def dsplit(input: Tensor, indices_or_sections: Any) -> tuple:
    return _split_along(input, indices_or_sections, "dsplit", 2, 3)


# --------------------------------------------------------------------------------------------
# Flips, roll and diff
# --------------------------------------------------------------------------------------------


def fliplr(input: Tensor) -> Tensor:
    if input.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(input, 1)


def flipud(input: Tensor) -> Tensor:
    if input.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(input, 0)


def _roll(a: Any, shifts: tuple, dims: tuple) -> np.ndarray:
    if not dims:  # over the flattened tensor
        return np.roll(a, shifts[0])
    return np.roll(a, shifts, dims)


ROLL = defop(
    "roll",
    "RollBackward0",
    _roll,
    lambda B, g, shifts, dims: run(B, ROLL, g, shifts=tuple(-s for s in shifts), dims=dims),
    rules=("rolled back by -shifts",),
)


def _int_tuple(value: Any, name: str = "shifts", position: int = 2) -> tuple:
    """An int or a sequence of ints as a tuple (PyTorch's IntArrayRef argument)."""
    values = value if isinstance(value, (list, tuple)) else (value,)
    for v in values:
        if isinstance(v, Tensor):
            v = v.item()
        if isinstance(v, float) or isinstance(v, bool):
            raise TypeError(
                f"roll(): argument '{name}' (position {position}) must be tuple of ints, not "
                f"{type(value).__name__}"
            )
    return tuple(int(v) for v in values)


def roll(input: Tensor, shifts: Any, dims: Any = None) -> Tensor:
    """Elements shifted cyclically along `dims` (over the flattened tensor without dims)."""
    require_tensor(input, "roll", "input", 1)
    shifts = _int_tuple(shifts)
    dims_t = () if dims is None else _int_tuple(dims, "dims", 3)
    if (dims is None and len(shifts) != 1) or (dims is not None and len(shifts) != len(dims_t)):
        raise RuntimeError(
            f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims_t)}"
        )
    if input.ndim == 0 and dims_t:
        raise IndexError(f"Dimension specified as {dims_t[0]} but tensor has no dimensions")
    normed = tuple(_norm_dim(d, input.ndim) for d in dims_t)
    result = apply_op(ROLL, (input,), {"shifts": shifts, "dims": normed})
    # PyTorch's node shows the arguments as given, a negative one as an unsigned int64
    also_shows(result, shifts=_unsigned(shifts), dims=_unsigned(dims_t))
    return result


def _unsigned(values: tuple) -> tuple:
    return tuple(v + 2**64 if v < 0 else v for v in values)


def _check_diff_extra(input: Tensor, extra: Any, name: str) -> None:
    if extra is not None:
        require_tensor(extra, "diff", name)
    if extra is not None and extra.ndim != input.ndim:
        raise RuntimeError("diff expects prepend or append to be the same dimension as input")


def diff(
    input: Tensor, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None
) -> Tensor:
    """The n-th forward difference along `dim`: `x[1:] - x[:-1]` (SubBackward0 over two
    SliceBackward0), `!=` for bool; prepend/append concatenated first (CatBackward0)."""
    require_tensor(input, "diff", "input", 1)
    if input.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    dim = _norm_dim(dim, input.ndim)
    _check_diff_extra(input, prepend, "prepend")
    _check_diff_extra(input, append, "append")
    if prepend is not None or append is not None:
        parts = [t for t in (prepend, input, append) if t is not None]
        input = cat(parts, dim)
    if n == 0:  # a copy (PyTorch's empty_like(...).copy_(...): CopyBackwards)
        result = apply_op(COPY, (_wrap(np.zeros_like(input._data)), input))
        result._data = np.array(result._data)
        return result
    for _ in range(min(n, input._data.shape[dim])):  # (as PyTorch: no more than the size)
        size = input._data.shape[dim]
        later = slice_dim(input, dim, min(1, size), size)
        earlier = slice_dim(input, dim, 0, max(size - 1, 0))
        input = ne(later, earlier) if input._data.dtype == np.bool_ else sub(later, earlier)
    return input


# --------------------------------------------------------------------------------------------
# meshgrid, diagflat
# --------------------------------------------------------------------------------------------

_MESHGRID_WARNED: list = []
_MESHGRID_WARNING = (
    "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument. "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4215.)"
)


def _meshgrid_inputs(tensors: tuple) -> list:
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    tensors = tuple(require_tensors(tensors))
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError(
                "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: "
                f"{_dims_text(t._data.shape)}"
            )
        if t._data.dtype != tensors[0]._data.dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    return list(tensors)


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple:
    """Coordinate grids: each tensor viewed along its own dim (ViewBackward0), then expanded
    (ExpandBackward0); with indexing='xy' the first two dims are swapped. PyTorch warns once
    when `indexing` is omitted (then 'ij')."""
    items = _meshgrid_inputs(tensors)
    if indexing is None:
        if not _MESHGRID_WARNED:
            _MESHGRID_WARNED.append(True)
            warnings.warn(_MESHGRID_WARNING, UserWarning, 2)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(
            f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}'
        )
    order = list(range(len(items)))
    if indexing == "xy" and len(items) >= 2:
        order[0], order[1] = 1, 0
    shape = [0] * len(items)
    for i, t in enumerate(items):
        shape[order[i]] = t.numel()
    grids = []
    for i, t in enumerate(items):
        target = [1] * len(items)
        target[order[i]] = -1
        grids.append(expand(view(t, target), shape))
    return tuple(grids)


def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    """The flattened input on diagonal `offset` of a square matrix (DiagEmbedBackward0 over
    ravel's ViewBackward0)."""
    return apply_op(DIAG_EMBED, (ravel(input),), {"offset": int(offset)})


# --------------------------------------------------------------------------------------------
# repeat_interleave, take_along_dim
# --------------------------------------------------------------------------------------------


def _repeats_array(repeats: Tensor, size: int, dim: int = 0) -> np.ndarray:
    data = np.asarray(repeats._data)
    if data.dtype not in (np.int64, np.int32):
        name = dtypes.scalar_name(data.dtype)
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{name}'")
    if data.ndim > 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    data = data.reshape(-1)
    if data.size == 1:
        data = np.full(size, data[0])
    elif data.size != size:
        raise RuntimeError(
            "repeats must have the same size as input along dim, but got repeats.size(0) = "
            f"{data.size} and input.size({dim}) = {size}"
        )
    if (data < 0).any():
        raise RuntimeError("repeats can not be negative")
    return data


def _repeat_interleave_overloads(input: Any, repeats: Any) -> str:
    got = ", ".join(type(a).__name__ for a in (input, repeats) if a is not None)
    return (
        f"repeat_interleave() received an invalid combination of arguments - got ({got}), but "
        "expected one of:\n * (Tensor input, Tensor repeats, int dim = None, *, int "
        "output_size = None)\n * (Tensor repeats, *, int output_size = None)\n * (Tensor "
        "input, int repeats, int dim = None, *, int output_size = None)\n"
    )


def repeat_interleave(
    input: Tensor, repeats: Any = None, dim: int | None = None, *, output_size: int | None = None
) -> Tensor:
    """Each element (each slice along `dim`) repeated `repeats` times. An int repeat is
    unsqueeze, expand, clone and view (ViewBackward0); a tensor of repeats an index_select
    (IndexSelectBackward0); `repeat_interleave(repeats)` alone gives the indices."""
    if not isinstance(input, Tensor) or isinstance(repeats, (bool, float)):
        raise TypeError(_repeat_interleave_overloads(input, repeats))
    if repeats is None:
        counts = _repeats_array(input, input.numel())
        if output_size is not None and output_size != counts.sum():
            raise RuntimeError("allocated size does not match required size")
        index = np.repeat(np.arange(counts.size, dtype=input._data.dtype), counts)
        return mark_new(_wrap(index))
    if dim is None:
        input, dim = _reshape(input, (input.numel(),)) if input.ndim != 1 else input, 0
    dim = _norm_dim(dim, input.ndim)
    if isinstance(repeats, Tensor):
        counts = _repeats_array(repeats, input._data.shape[dim], dim)
        if output_size is not None and output_size != counts.sum():
            raise RuntimeError("allocated size does not match required size")
        index = np.repeat(np.arange(counts.size, dtype=np.int64), counts)
        return index_select(input, dim, _wrap(index))
    count = int(repeats)
    if count < 0:
        raise RuntimeError("Repeats must be non-negative")
    shape = list(input._data.shape)
    if output_size is not None and output_size != shape[dim] * count:
        raise RuntimeError(
            "repeat_interleave: Invalid output_size, expected "
            f"{shape[dim] * count} but got {output_size}"
        )
    wide = unsqueeze(input, dim + 1)
    grown = expand(wide, shape[: dim + 1] + [count] + shape[dim + 1 :])
    shape[dim] *= count
    copy = apply_op(CLONE, (grown,), {"memory_format": "contiguous"})  # (even of one repeat)
    return view(copy, shape)


def take_along_dim(
    input: Tensor, indices: Tensor, dim: int | None = None, *, out: Any = None
) -> Tensor:
    """`gather` with `input` and `indices` broadcast against each other except along `dim`
    (ExpandBackward0 under the GatherBackward0); without `dim`, over the flattened input."""
    require_tensor(input, "take_along_dim", "input", 1)
    require_tensor(indices, "take_along_dim", "indices", 2)
    if indices._data.dtype != np.int64:
        name = dtypes.scalar_name(indices._data.dtype)
        raise RuntimeError(
            f"torch.take_along_dim(): dtype of indices should be Long but got {name}"
        )
    if dim is None:
        return gather(view(input, -1), 0, view(indices, -1), out=out)
    if input.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if input.ndim != indices.ndim:
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of "
            f"dimensions, but got {input.ndim} dimensions for input, and {indices.ndim} "
            "dimensions for indices"
        )
    dim = _norm_dim(dim, input.ndim)
    a, b = list(input._data.shape), list(indices._data.shape)
    a[dim] = b[dim] = 1
    try:
        common = list(np.broadcast_shapes(tuple(a), tuple(b)))
    except ValueError:
        raise broadcast_error([tuple(a), tuple(b)]) from None
    input_shape = common[:dim] + [input._data.shape[dim]] + common[dim + 1 :]
    index_shape = common[:dim] + [indices._data.shape[dim]] + common[dim + 1 :]
    return gather(expand(input, input_shape), dim, expand(indices, index_shape), out=out)


def _repeat_interleave_method(
    self: Tensor, repeats: Any, dim: int | None = None, *, output_size: int | None = None
) -> Tensor:
    return repeat_interleave(self, repeats, dim, output_size=output_size)


tensor_methods(
    "ops.reshaping",
    {
        "ravel": ravel,
        "broadcast_to": broadcast_to,
        "tensor_split": tensor_split,
        "hsplit": hsplit,
        "vsplit": vsplit,
        "dsplit": dsplit,
        "fliplr": fliplr,
        "flipud": flipud,
        "diff": diff,
        "diagflat": diagflat,
        "repeat_interleave": _repeat_interleave_method,
        "take_along_dim": take_along_dim,
    },
)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(ROLL, roll, method=True)
