"""`Tensor.apply_` and `Tensor.map_`: a Python function applied element by element, written back
in place (PyTorch's CPU-only helpers), and `Tensor.data_ptr`.

As in PyTorch, they refuse a tensor that requires grad (whatever the grad mode), leave its
version unchanged (autograd does not see them), hand the function Python numbers of the
tensor's kind (float, int or bool) and cast what it returns back to the tensor's dtype.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.optable import tensor_methods
from ..core.tensor import Tensor

_INT64_RANGE = (-(2**63), 2**63 - 1)


def _element(value: Any, dtype: np.dtype) -> Any:
    """What the function returned, as one element of a tensor of `dtype`."""
    if not isinstance(value, (bool, int, float)):
        raise TypeError(f"must be real number, not {type(value).__name__}")
    kind = dtype.kind
    if kind == "b":
        return bool(value)
    if kind in "iu":
        whole = int(value)  # (a float is truncated toward zero, as a C cast)
        if not _INT64_RANGE[0] <= whole <= _INT64_RANGE[1]:
            raise ValueError("Overflow when unpacking long long")
        limits = np.iinfo(dtype)  # (uint8 takes -255..-1 too, wrapping them, as PyTorch)
        if not (limits.min or -limits.max) <= whole <= limits.max:
            raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")
        return whole
    return float(value)


def _write_back(self: Tensor, values: list) -> Tensor:
    array = self._array()
    elements = [_element(v, array.dtype) for v in values]
    with np.errstate(over="ignore"):  # (a float beyond float32's range becomes inf)
        array[...] = np.array(elements).astype(array.dtype).reshape(array.shape)
    return self


def _refuse_grad(self: Tensor, name: str) -> None:
    if self._requires_grad:
        raise RuntimeError(
            f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() "
            "instead."
        )


def apply_(self: Tensor, callable: Callable[[Any], Any]) -> Tensor:
    """Each element `v` replaced by `callable(v)`, in row-major order."""
    _refuse_grad(self, "apply_")
    return _write_back(self, [callable(v) for v in self._array().ravel().tolist()])


def map_(self: Tensor, tensor: Tensor, callable: Callable[[Any, Any], Any]) -> Tensor:
    """Each element `a` replaced by `callable(a, b)`, `b` the element of `tensor` (broadcast
    to this tensor's shape, of the same dtype) at the same place."""
    _refuse_grad(self, "map_")
    if not isinstance(tensor, Tensor) or tensor._data.dtype != self._data.dtype:
        got = dtypes.legacy_type(tensor.dtype) if isinstance(tensor, Tensor) else "?"
        raise TypeError(
            f"map_: expected torch.{dtypes.legacy_type(self.dtype)} for 'other' (got torch.{got})"
        )
    others = tensor.expand(*self.shape)._data
    mine = self._array().ravel().tolist()
    return _write_back(self, [callable(a, b) for a, b in zip(mine, np.ravel(others).tolist())])


def data_ptr(self: Tensor) -> int:
    """The address of the first element (0 for a tensor without elements)."""
    array = self._array()
    return array.__array_interface__["data"][0] if array.size else 0


tensor_methods("ops.python_maps", {"apply_": apply_, "map_": map_, "data_ptr": data_ptr})

__all__: list[str] = []
