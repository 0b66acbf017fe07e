"""What a Tensor shows of its data: shape, dtype and device, Python numbers and lists, printing
(`TensorValues`, a base of `Tensor` with no state of its own) and `torch.Size`. The autograd
slots and their rules are `core/tensor.py`."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from . import dtypes, modes
from .devices import CPU, META, MetaArray
from .grad_mode import GradMode
from .printing import format_tensor

SCALAR_MESSAGE = "only one element tensors can be converted to Python scalars"
META_ITEM_MESSAGE = "Tensor.item() cannot be called on meta tensors"
META_COPY_MESSAGE = "Cannot copy out of meta tensor; no data!"
SCALAR_WITH_GRAD_WARNING = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first."
)


class Size(tuple):
    """`torch.Size`: a tuple printed as `torch.Size([2, 3])`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item: Any) -> Any:
        out = tuple.__getitem__(self, item)
        return Size(out) if isinstance(item, slice) else out

    def __add__(self, other: tuple) -> Size:
        return Size(tuple(self) + tuple(other))


Size.__module__ = "torch"  # printed as <class 'torch.Size'>


class TensorValues:
    """The Tensor methods that read its data (`self._data`) and no autograd state."""

    __slots__ = ()

    @property
    def device(self) -> Any:
        return META if type(self._data) is MetaArray else CPU

    @property
    def is_meta(self) -> bool:
        return type(self._data) is MetaArray

    # -- shape, dtype, device --------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_norm_dim(dim, self._data.ndim)]

    @property
    def dtype(self) -> dtypes.dtype:
        return dtypes.BY_NUMPY[self._data.dtype]

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    def element_size(self) -> int:
        return self._data.dtype.itemsize

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def item(self) -> Any:
        data = self._data
        if data.size != 1:
            raise RuntimeError(f"a Tensor with {data.size} elements cannot be converted to Scalar")
        if type(data) is MetaArray:
            raise RuntimeError(META_ITEM_MESSAGE)
        return data.item() if data.ndim == 0 else data.reshape(()).item()

    def tolist(self) -> Any:
        if type(self._data) is MetaArray:
            raise NotImplementedError(META_COPY_MESSAGE)
        return self._data.tolist()

    def numpy(self) -> np.ndarray:
        if type(self._data) is MetaArray:
            raise TypeError(
                "can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the "
                "tensor to host memory first."
            )
        if self._requires_grad:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        return self._array()

    def __bool__(self) -> bool:
        data = self._data
        if data.size != 1:
            if data.size == 0:
                raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        if type(data) is MetaArray:
            raise RuntimeError(META_ITEM_MESSAGE)
        return bool(data.reshape(()) if data.ndim else data)

    def _scalar(self, kind: type) -> Any:
        if self._data.size != 1:
            raise ValueError(SCALAR_MESSAGE)
        if type(self._data) is MetaArray:
            raise RuntimeError(META_ITEM_MESSAGE)
        return kind(self._data.reshape(()).item())

    def __float__(self) -> float:
        if self._requires_grad and GradMode.enabled and not _warned_scalar_with_grad:
            _warn_scalar_with_grad()
        return self._scalar(float)

    def __int__(self) -> int:
        return self._scalar(int)

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        if type(self._data) is MetaArray:
            raise RuntimeError(META_ITEM_MESSAGE)
        return int(self._data.reshape(()).item())

    def __complex__(self) -> complex:
        return self._scalar(complex)

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        data = self._data
        return format_tensor(
            data if type(data) is MetaArray else np.asarray(data),
            suffixes=self._repr_suffixes(),
            default_dtype=dtypes.get_default_dtype().name,
        )

    def _repr_suffixes(self) -> list[str]:
        if self._grad_fn is not None:
            items = [f"grad_fn=<{type(self._grad_fn).__name__}>"]
        elif self._requires_grad:
            items = ["requires_grad=True"]
        else:
            items = []
        if _OBSERVED:  # a mode's own items (forward AD's `tangent=...`)
            items += modes.repr_suffixes(self)
        return items

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:  # as PyTorch: a 0-d tensor formats as its Python number
            return format(self._data.item(), spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise TypeError("cannot pickle 'Tensor' object")


def _norm_dim(dim: int, ndim: int) -> int:
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim + n if dim < 0 else dim


_OBSERVED = False  # True while a mode watches every op call (core/modes.py)
_warned_scalar_with_grad = False


def _warn_scalar_with_grad() -> None:
    """`float()` of a tensor that requires grad, with grad mode on: PyTorch warns once per
    process (a script run, or a REPL session)."""
    global _warned_scalar_with_grad
    _warned_scalar_with_grad = True
    warnings.warn(SCALAR_WITH_GRAD_WARNING, UserWarning, stacklevel=3)


def _set_observed(on: bool) -> None:
    global _OBSERVED
    _OBSERVED = on


modes.on_change(_set_observed)
