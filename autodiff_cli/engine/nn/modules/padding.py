"""The padding layers over `F.pad`: `nn.ZeroPad1d/2d/3d`, `nn.ConstantPad1d/2d/3d`,
`nn.ReflectionPad1d/2d/3d` and `nn.ReplicationPad1d/2d/3d`. An int pads every side by it; a
sequence is kept as given (left, right, top, bottom, front, back), as PyTorch's `_ntuple`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...core.tensor import Tensor
from ...pytorch_home import name_classes_after
from .. import functional as F
from ..module import Module

__all__ = [
    "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d",
    "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d",
    "ZeroPad2d", "ZeroPad3d",
]  # fmt: skip


def _sides(padding: Any, n: int) -> tuple:
    """`padding` as PyTorch's `_ntuple(n)`: an int repeated n times, a sequence as a tuple."""
    if isinstance(padding, Iterable) and not isinstance(padding, str):
        return tuple(padding)
    return (padding,) * n


class _PadNd(Module):
    _mode = "constant"
    _sides = 2

    def __init__(self, padding: Any) -> None:
        super().__init__()
        self.padding = _sides(padding, self._sides)

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding: Any, value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pads the last dim with `value`."""


class ConstantPad2d(_ConstantPadNd):
    """Pads the last two dims with `value`."""

    _sides = 4


class ConstantPad3d(_ConstantPadNd):
    """Pads the last three dims with `value`."""

    _sides = 6


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroPadNd):
    """Pads the last dim with zeros."""


class ZeroPad2d(_ZeroPadNd):
    """Pads the last two dims with zeros."""

    _sides = 4


class ZeroPad3d(_ZeroPadNd):
    """Pads the last three dims with zeros."""

    _sides = 6


class ReflectionPad1d(_PadNd):
    """Pads the last dim with its reflection (the edge not repeated)."""

    _mode = "reflect"


class ReflectionPad2d(_PadNd):
    _mode = "reflect"
    _sides = 4


class ReflectionPad3d(_PadNd):
    _mode = "reflect"
    _sides = 6


class ReplicationPad1d(_PadNd):
    """Pads the last dim with copies of its edge values."""

    _mode = "replicate"


class ReplicationPad2d(_PadNd):
    _mode = "replicate"
    _sides = 4


class ReplicationPad3d(_PadNd):
    _mode = "replicate"
    _sides = 6


name_classes_after(globals(), "torch.nn.modules.padding")
