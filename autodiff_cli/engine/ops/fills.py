"""In-place writes of new values: `fill_`, `zero_`, `copy_` (nothing flows back to the old value)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import script_data
from ..core.apply import apply_inplace, apply_op
from ..core.arguments import not_tensor
from ..core.fast_paths import fill_without_graph
from ..core.optable import defop, tensor_methods
from ..core.tensor import Tensor, _wrap
from .creation import tensor
from .inplace import COPY

FILL = defop(
    "fill_", "FillBackward2", lambda a, value: np.full_like(a, value), lambda B, g, value: g * 0,
    promotes=False, rules=("0",),
)  # fmt: skip
ZERO = defop("zero_", "ZeroBackward0", lambda a: np.zeros_like(a), lambda B, g: g * 0, rules=("0",))


def fill_(self: Tensor, value: Any) -> Tensor:
    if isinstance(value, Tensor):
        value = value.item()
    value = script_data.number(value, "fill_(): value")
    if fill_without_graph(self, value):  # nothing to record: straight into the array
        return self
    return apply_inplace(FILL, self, (), {"value": value})


def zero_(self: Tensor) -> Tensor:
    if fill_without_graph(self, 0):
        return self
    return apply_inplace(ZERO, self, ())


def copy_(self: Tensor, src: Any, non_blocking: bool = False) -> Tensor:
    if not isinstance(src, Tensor):
        if not isinstance(src, (bool, int, float, np.generic)):  # a number is copied; no list
            raise not_tensor("copy_", "other", src, 1)
        src = tensor(src)
    return apply_inplace(COPY, self, (src,))


def copy_of_gradient(target: Tensor, g: Tensor) -> Tensor:
    """The first gradient a leaf receives under create_graph: PyTorch copies it (CopyBackwards)."""
    out = apply_op(COPY, (_wrap(np.zeros(target._data.shape, target._data.dtype)), g))
    out._data = np.array(out._data)  # copy's forward is a read-only broadcast; `.grad` is written
    return out


tensor_methods("ops.fills", {"fill_": fill_, "zero_": zero_, "copy_": copy_})


def _copy_as_gradient_of(g: Tensor, target: Tensor) -> Tensor:
    """backward.py's first gradient of `target` under create_graph (`copy_of_gradient`)."""
    return copy_of_gradient(target, g)


tensor_methods("ops.fills (core/backward.py)", {"_copy_as_gradient_of": _copy_as_gradient_of})
