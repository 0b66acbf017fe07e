"""`Tensor.resize_` and `resize_as_`: a new shape in place, PyTorch's advice for reusing an `out=`
tensor (`t.resize_(0)`). Shrinking keeps the first elements in memory order, sharing memory as
before; growing back within what the tensor held finds the old values (as PyTorch's storage),
beyond it new zeros follow the old values (PyTorch leaves them uninitialised). Only the tensor's
own memory is reused, never the rest of an array it is a view of."""

from __future__ import annotations

import math
import weakref
from typing import Any

import numpy as np

from ..core import limits
from ..core.optable import tensor_methods
from ..core.tensor import Tensor


def _sizes(sizes: tuple) -> tuple:
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    for s in sizes:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(
                "resize_(): argument 'size' (position 1) must be tuple of ints, not "
                f"{type(s).__name__}"
            )
        if s < 0:
            raise RuntimeError("numel: integer multiplication overflow")
    return tuple(int(s) for s in sizes)


# the memory a tensor had before it shrank (only its own: growing never reaches further)
_STORAGE: dict[int, tuple[weakref.ref, np.ndarray]] = {}


def _address(array: np.ndarray) -> int:
    return array.__array_interface__["data"][0]


def _own_memory(tensor: Tensor, data: np.ndarray) -> np.ndarray:
    """The flat memory the tensor's array starts: what it held before shrinking, else itself."""
    entry = _STORAGE.get(id(tensor))
    if entry is not None and entry[0]() is tensor:
        flat = entry[1]
        if _address(flat) == _address(data) and flat.size >= data.size:
            return flat
    flat = data.reshape(-1)
    key = id(tensor)
    _STORAGE[key] = (weakref.ref(tensor, lambda _, key=key: _STORAGE.pop(key, None)), flat)
    return flat


def _first(tensor: Tensor, data: np.ndarray, n: int) -> np.ndarray:
    """`n` elements in memory order, sharing the tensor's memory as far as it reaches."""
    if data.flags.c_contiguous and data.flags.writeable:
        flat = _own_memory(tensor, data)
        if n <= flat.size:
            return flat[:n]
    grown = np.zeros(n, dtype=data.dtype)
    kept = min(n, data.size)
    grown[:kept] = data.reshape(-1)[:kept]
    return grown


def resize_(self: Tensor, *sizes: Any, memory_format: Any = None) -> Tensor:
    """`t.resize_(2, 3)`: t takes the shape in place (refused for a tensor requiring grad)."""
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    shape = _sizes(sizes)
    limits.check_shape(shape)
    data = self._array()
    if data.shape != shape:
        self._data = _first(self, data, math.prod(shape)).reshape(shape)
    self._bump_version()
    return self


def resize_as_(self: Tensor, the_template: Tensor, memory_format: Any = None) -> Tensor:
    return resize_(self, tuple(the_template.shape))


tensor_methods("ops.resize", {"resize_": resize_, "resize_as_": resize_as_})
