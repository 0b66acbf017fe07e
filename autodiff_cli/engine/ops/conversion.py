"""Tensor methods beyond the op table: dtype conversion, fills and copies (indexing is in
`indexing.py`, views in `views.py`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes, limits, script_data
from ..core.apply import apply_op
from ..core.devices import as_meta, check_device, is_device_arg
from ..core.numpy_names import varargs_keyword
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.tensor import META_COPY_MESSAGE, Tensor, _norm_dim
from . import arithmetic
from .creation import _finish, tensor


def to(self: Tensor, *args: Any, dtype: Any = None, **kwargs: Any) -> Tensor:
    """`.to(dtype)`, `.to(device)`, `.to(device, dtype)`, `.to(other)`: the CPU and the meta
    device (others fail as in a CPU-only PyTorch build)."""
    where = None
    for a in args:
        if isinstance(a, dtypes.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype, where = a.dtype, a.device
        elif is_device_arg(a) or isinstance(a, int):
            check_device(a)
            where = a
    if kwargs.get("device") is not None:
        check_device(kwargs["device"])
        where = kwargs["device"]
    if where is not None and check_device(where) != self.is_meta:
        return to_device(self, dtype, check_device(where))
    if dtype is None:
        return self
    return arithmetic.to_dtype(self, dtype)


def to_device(self: Tensor, dtype: Any, meta: bool) -> Tensor:
    """A copy on the meta device (`ToCopyBackward0`); a meta tensor has nothing to copy out."""
    if not meta:
        raise NotImplementedError(META_COPY_MESSAGE)
    target = dtypes.to_numpy(dtype) if dtype is not None else self._data.dtype
    out = apply_op(arithmetic.TO_COPY, (self,), {"dtype": target})
    out._data = as_meta(out._data)
    return out


def cuda(self: Any, device: Any = None, non_blocking: bool = False) -> Any:
    check_device("cuda")


def _converter(target: dtypes.dtype):
    def convert(self: Tensor, memory_format: Any = None) -> Tensor:
        return arithmetic.to_dtype(self, target)

    return convert


def new_tensor(
    self: Tensor, data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    if device is None and self.is_meta:
        device = "meta"
    return tensor(data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


def new_filled(
    self: Tensor, size: tuple, fill: Any, dtype: Any, device: Any, requires_grad: bool
) -> Tensor:
    """`new_ones`/`new_zeros`/`new_full`: `fill` in `size`, of this tensor's dtype unless given
    (the element cap checked first)."""
    meta = check_device(device) if device is not None else self.is_meta
    shape = arithmetic.shape_arg(size)
    limits.check_shape(shape)
    if isinstance(fill, Tensor):
        fill = fill.item()
    fill = script_data.number(fill, "new_full(): fill_value")
    data = np.full(shape, fill, dtypes.to_numpy(dtype) or self._data.dtype)
    return _finish(as_meta(data) if meta else data, requires_grad)  # (inference mode: marked)


def _new_filled(fill: Any):
    @varargs_keyword("size", fixed=1)
    def make(
        self: Tensor, *size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False
    ) -> Tensor:
        return new_filled(self, size, fill, dtype, device, requires_grad)

    return make


def is_contiguous(self: Tensor, memory_format: Any = None) -> bool:
    data = self._data
    return not isinstance(data, np.ndarray) or data.flags.c_contiguous


def stride(self: Tensor, dim: int | None = None) -> Any:
    """Strides in elements, as PyTorch lays out the same view (numpy's own arrangement except
    where numpy leaves a size-1 dimension at stride 0: PyTorch gives it the next dimension's
    extent, as its unsqueeze does)."""
    data = self._data
    if not isinstance(data, np.ndarray) or data.ndim == 0:
        strides: tuple = ()
    elif data.size == 0:  # PyTorch's contiguous strides, a size-0 dim counting as 1
        extents = [max(n, 1) for n in data.shape]
        strides = tuple(int(np.prod(extents[d + 1 :])) for d in range(data.ndim))
    else:
        raw = [s // data.itemsize for s in data.strides]
        for d in range(data.ndim - 1, -1, -1):
            if raw[d] == 0 and data.shape[d] == 1:
                raw[d] = raw[d + 1] * data.shape[d + 1] if d + 1 < data.ndim else 1
        strides = tuple(raw)
    if dim is None:
        return strides
    if not strides:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return strides[_norm_dim(dim, len(strides))]


def storage_offset(self: Tensor) -> int:
    """Elements between the start of the memory this tensor views and its first element."""
    data = self._data
    owner = data
    while isinstance(owner, np.ndarray) and isinstance(owner.base, np.ndarray):
        owner = owner.base
    if owner is data or not isinstance(data, np.ndarray) or data.size == 0:
        return 0
    start = data.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    return start // data.itemsize


def cpu(self: Tensor, memory_format: Any = None) -> Tensor:
    if self.is_meta:
        raise NotImplementedError(META_COPY_MESSAGE)
    return self


def get_device(self: Tensor) -> int:
    return -1


def equal(self: Tensor, other: Tensor) -> bool:
    return self._data.shape == other._data.shape and bool(np.all(self._data == other._data))


def _isclose_forward(
    a: np.ndarray, b: np.ndarray, rtol: float, atol: float, equal_nan: bool
) -> np.ndarray:
    """`|a - b| <= atol + rtol * |b|` elementwise (equal values, infinities included, are close;
    NaNs only with `equal_nan`), in the inputs' float dtype, integers and bools in the default."""
    if a.dtype.kind != "f":
        a, b = a.astype(dtypes.get_default_dtype().np), b.astype(dtypes.get_default_dtype().np)
    kind = a.dtype.type
    with np.errstate(invalid="ignore", over="ignore"):
        error = np.abs(a - b)
        close = (a == b) | (np.isfinite(error) & (error <= kind(atol) + np.abs(kind(rtol) * b)))
    if equal_nan:
        close |= np.isnan(a) & np.isnan(b)
    return close


ISCLOSE = defop("isclose", None, _isclose_forward, promotes=False)


def _closeness(
    name: str, self: Tensor, other: Tensor, rtol: float, atol: float, equal_nan: bool
) -> Tensor:
    """`isclose` after PyTorch's checks: Tensors of the same dtype, tolerances >= 0."""
    for position, (arg, value) in enumerate((("input", self), ("other", other)), 1):
        if not isinstance(value, Tensor):
            raise TypeError(
                f"{name}(): argument '{arg}' (position {position}) must be Tensor, not "
                f"{type(value).__name__}"
            )
    if self._data.dtype != other._data.dtype:
        raise RuntimeError(
            f"{dtypes.scalar_name(self._data.dtype)} did not match {dtypes.scalar_name(other._data.dtype)}"
        )
    for what, value in (("rtol", rtol), ("atol", atol)):
        if value < 0:
            raise RuntimeError(f"{what} must be greater than or equal to zero, but got {value:g}")
    params = {"rtol": rtol, "atol": atol, "equal_nan": equal_nan}
    return apply_op(ISCLOSE, (self, other), params)


def isclose(
    self: Tensor, other: Tensor, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False
) -> Tensor:
    return _closeness("isclose", self, other, rtol, atol, equal_nan)


def allclose(
    self: Tensor, other: Tensor, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False
) -> bool:
    return bool(_closeness("allclose", self, other, rtol, atol, equal_nan)._data.all())


tensor_methods(
    "ops.conversion",
    {
        "to": to,
        "float": _converter(dtypes.float32),
        "double": _converter(dtypes.float64),
        "half": _converter(dtypes.float16),
        "long": _converter(dtypes.int64),
        "int": _converter(dtypes.int32),
        "short": _converter(dtypes.int16),
        "bool": _converter(dtypes.bool_),
        "new_tensor": new_tensor,
        "new_ones": _new_filled(1),
        "new_zeros": _new_filled(0),
        "new_empty": _new_filled(0),
        "is_contiguous": is_contiguous,
        "stride": stride,
        "storage_offset": storage_offset,
        "cpu": cpu,
        "cuda": cuda,
        "get_device": get_device,
        "equal": equal,
        "allclose": allclose,
    },
)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(ISCLOSE, isclose, method=True)
