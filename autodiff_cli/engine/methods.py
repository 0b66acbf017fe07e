"""Tensor methods beyond the op table: indexing, dtype conversion, fills and copies."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes, ops
from .grad_mode import GradMode
from .tensor import LEAF_INPLACE_MESSAGE, Tensor, _wrap, apply_op


def _index_parts(index: Any) -> tuple:
    return index if isinstance(index, tuple) else (index,)


def _to_numpy_index(part: Any) -> Any:
    if isinstance(part, Tensor):
        data = np.asarray(part._data)
        if data.dtype.kind == "f":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return data
    if isinstance(part, list):
        return np.asarray([_to_numpy_index(p) for p in part])
    if (
        isinstance(part, bool)
        or isinstance(part, (int, np.integer, slice))
        or part is None
        or part is Ellipsis
    ):
        return part
    raise IndexError(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
        "valid indices (got " + type(part).__name__ + ")"
    )


def getitem(self: Tensor, index: Any) -> Tensor:
    """`x[i]` on one integer is `select` (SelectBackward0); `x[a:b]` is a slice (SliceBackward0);
    anything else is advanced indexing (IndexBackward0)."""
    parts = _index_parts(index)
    nd = self._data.ndim
    if (
        len(parts) == 1
        and isinstance(parts[0], (int, np.integer))
        and not isinstance(parts[0], bool)
    ):
        if nd == 0:
            raise IndexError(
                "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number"
            )
        return ops.select(self, 0, parts[0])
    np_index = tuple(_to_numpy_index(p) for p in parts)
    _check_bounds(self._data.shape, np_index)
    basic = all(
        isinstance(p, (int, np.integer, slice)) or p is None or p is Ellipsis for p in np_index
    )
    op = ops.SLICE if basic else ops.INDEX
    try:
        return apply_op(op, (self,), {"index": np_index, "shape": self._data.shape})
    except IndexError as e:
        raise IndexError(str(e)) from None


def _check_bounds(shape: tuple, index: tuple) -> None:
    dim = 0
    for p in index:
        if p is None:
            continue
        if p is Ellipsis:
            dim = len(shape) - sum(1 for q in index if q is not None and q is not Ellipsis) + dim
            continue
        if dim >= len(shape):
            raise IndexError(f"too many indices for tensor of dimension {len(shape)}")
        if isinstance(p, (int, np.integer)) and not isinstance(p, bool):
            if not -shape[dim] <= p < shape[dim]:
                raise IndexError(
                    f"index {p} is out of bounds for dimension {dim} with size {shape[dim]}"
                )
        dim += 1


def setitem(self: Tensor, index: Any, value: Any) -> None:
    if GradMode.enabled and self._requires_grad and self._grad_fn is None:
        raise RuntimeError(LEAF_INPLACE_MESSAGE)
    np_index = tuple(_to_numpy_index(p) for p in _index_parts(index))
    arr = self._array()
    src = value._data if isinstance(value, Tensor) else value
    arr[np_index] = src
    self._bump_version()
    if GradMode.enabled and (
        self._requires_grad or (isinstance(value, Tensor) and value._requires_grad)
    ):
        from .inplace import record_index_put

        record_index_put(self, np_index, value)


def zero_(self: Tensor) -> Tensor:
    return fill_(self, 0)


def fill_(self: Tensor, value: Any) -> Tensor:
    if GradMode.enabled and self._requires_grad and self._grad_fn is None:
        raise RuntimeError(LEAF_INPLACE_MESSAGE)
    if isinstance(value, Tensor):
        value = value.item()
    arr = self._array()
    arr[...] = value
    self._bump_version()
    if self._grad_fn is not None and GradMode.enabled:
        from .inplace import record_fill

        record_fill(self)
    return self


def copy_(self: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    if GradMode.enabled and self._requires_grad and self._grad_fn is None:
        raise RuntimeError(LEAF_INPLACE_MESSAGE)
    arr = self._array()
    arr[...] = np.broadcast_to(src._data if isinstance(src, Tensor) else src, arr.shape)
    self._bump_version()
    return self


def to(self: Tensor, *args: Any, dtype: Any = None, **kwargs: Any) -> Tensor:
    for a in args:
        if isinstance(a, dtypes.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
    if dtype is None:
        return self
    return ops.to_dtype(self, dtype)


def type_(self: Tensor, dtype: Any = None) -> Any:
    if dtype is None:
        kind = {
            "float32": "FloatTensor",
            "float64": "DoubleTensor",
            "int64": "LongTensor",
            "int32": "IntTensor",
            "bool": "BoolTensor",
            "float16": "HalfTensor",
        }.get(self.dtype.name, "Tensor")
        return f"torch.{kind}"
    return ops.to_dtype(self, dtype)


def _converter(target: dtypes.dtype):
    def convert(self: Tensor, memory_format: Any = None) -> Tensor:
        return ops.to_dtype(self, target)

    return convert


def new_tensor(self: Tensor, data: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    from .creation import tensor

    return tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)


def _new_filled(fill: Any):
    def make(self: Tensor, *size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
        shape = ops.shape_arg(size)
        out = _wrap(np.full(shape, fill, dtypes.to_numpy(dtype) or self._data.dtype))
        if requires_grad:
            out.requires_grad_(True)
        return out

    return make


def contiguous(self: Tensor, memory_format: Any = None) -> Tensor:
    return self


def is_contiguous(self: Tensor, memory_format: Any = None) -> bool:
    data = self._data
    return not isinstance(data, np.ndarray) or data.flags.c_contiguous


def cpu(self: Tensor) -> Tensor:
    return self


def get_device(self: Tensor) -> int:
    return -1


def _index_plain(self: Tensor, index: Any) -> Tensor:
    return apply_op(ops.INDEX, (self,), {"index": index, "shape": self._data.shape})


def argmax(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    data = self._data
    if dim is None:
        return _wrap(np.asarray(np.argmax(data.reshape(-1)), dtype=np.int64))
    out = np.argmax(data, axis=dim)
    if keepdim:
        out = np.expand_dims(out, dim)
    return _wrap(np.asarray(out, dtype=np.int64))


def argmin(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    data = self._data
    if dim is None:
        return _wrap(np.asarray(np.argmin(data.reshape(-1)), dtype=np.int64))
    out = np.argmin(data, axis=dim)
    if keepdim:
        out = np.expand_dims(out, dim)
    return _wrap(np.asarray(out, dtype=np.int64))


def all_(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    return _wrap(np.asarray(np.all(self._data, axis=dim, keepdims=keepdim)))


def any_(self: Tensor, dim: Any = None, keepdim: bool = False) -> Tensor:
    return _wrap(np.asarray(np.any(self._data, axis=dim, keepdims=keepdim)))


def equal(self: Tensor, other: Tensor) -> bool:
    return self._data.shape == other._data.shape and bool(np.all(self._data == other._data))


def allclose(
    self: Tensor, other: Tensor, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False
) -> bool:
    return bool(np.allclose(self._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def attach() -> None:
    Tensor.__getitem__ = getitem
    Tensor.__setitem__ = setitem
    Tensor.to = to
    Tensor.type = type_
    Tensor.float = _converter(dtypes.float32)
    Tensor.double = _converter(dtypes.float64)
    Tensor.half = _converter(dtypes.float16)
    Tensor.long = _converter(dtypes.int64)
    Tensor.int = _converter(dtypes.int32)
    Tensor.short = _converter(dtypes.int16)
    Tensor.bool = _converter(dtypes.bool_)
    Tensor.new_tensor = new_tensor
    Tensor.new_ones = _new_filled(1)
    Tensor.new_zeros = _new_filled(0)
    Tensor.new_empty = _new_filled(0)
    Tensor.contiguous = contiguous
    Tensor.is_contiguous = is_contiguous
    Tensor.cpu = cpu
    Tensor.get_device = get_device
    Tensor._index_plain = _index_plain
    Tensor.argmax = argmax
    Tensor.argmin = argmin
    Tensor.all = all_
    Tensor.any = any_
    Tensor.equal = equal
    Tensor.allclose = allclose


attach()
