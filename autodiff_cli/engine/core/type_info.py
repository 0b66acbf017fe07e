"""`torch.finfo` and `torch.iinfo`: the limits of a floating or integer dtype (`eps` for a
numerically safe division, `max` for a mask fill), with PyTorch's attributes, repr and errors.

The numbers come from numpy's `finfo`/`iinfo` of the dtype's numpy type, as Python floats and
ints (PyTorch's types); `resolution` is 10 to the minus the decimal digits the type holds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .arguments import type_name
from .dtypes import dtype, get_default_dtype

_REQUIRED: Any = object()


def _dtype_argument(function: str, value: Any) -> dtype:
    if type(value) is not dtype:
        raise TypeError(
            f"{function}(): argument 'type' (position 1) must be torch.dtype, not "
            f"{type_name(value)}"
        )
    return value


class _Limits:
    """What finfo and iinfo share: equal when all their fields are, unhashable (as PyTorch's)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and _fields(self) == _fields(other)

    def __hash__(self) -> int:
        raise TypeError(f"unhashable type: 'torch.{type(self).__name__}'")


class finfo(_Limits):  # noqa: N801 - named as PyTorch names it
    """The limits of a floating point dtype (the default dtype when none is given)."""

    __slots__ = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")

    def __init__(self, type: dtype | None = None) -> None:  # noqa: A002 - PyTorch's name
        kind = get_default_dtype() if type is None else _dtype_argument("finfo", type)
        if not kind.is_floating_point:
            raise TypeError(
                "torch.finfo() requires a floating point input type. "
                "Use torch.iinfo to handle 'torch.finfo'"
            )
        info = np.finfo(kind.np)
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = float(10.0 ** -int(info.precision))
        self.dtype = kind.name

    def __repr__(self) -> str:
        return (
            f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
            f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, "
            f"dtype={self.dtype})"
        )


class iinfo(_Limits):  # noqa: N801 - named as PyTorch names it
    """The limits of an integer dtype."""

    __slots__ = ("bits", "max", "min", "dtype")

    def __init__(self, type: dtype = _REQUIRED) -> None:  # noqa: A002 - PyTorch's name
        if type is _REQUIRED:
            raise TypeError('iinfo() missing 1 required positional arguments: "type"')
        kind = _dtype_argument("iinfo", type)
        if kind.name == "bool":
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if kind.is_floating_point:
            raise TypeError(
                "torch.iinfo() requires an integer input type. "
                "Use torch.finfo to handle 'torch.iinfo'"
            )
        info = np.iinfo(kind.np)
        self.bits = int(info.bits)
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = kind.name

    def __repr__(self) -> str:
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"


def _fields(info: _Limits) -> tuple:
    return tuple(getattr(info, name) for name in type(info).__slots__)


finfo.__module__ = iinfo.__module__ = "torch"
