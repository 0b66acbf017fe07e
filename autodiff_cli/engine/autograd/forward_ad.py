"""`torch.autograd.forward_ad`: forward-mode AD with dual tensors.

Inside `dual_level()`, `make_dual(primal, tangent)` gives a view of `primal` carrying `tangent`;
every op on dual tensors gives its outputs the tangent J t (see `forward_rules.py` for how each
op's rule is derived from the op table), and `unpack_dual(t)` reads `(primal, tangent)` back.
One level at a time, as PyTorch; leaving it drops every tangent.
"""

from __future__ import annotations

import functools
from collections import namedtuple
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.arguments import checks_own_arguments
from ..core.tensor import Tensor, _wrap
from . import forward_rules
from .forward_rules import Level

NO_LEVEL_MESSAGE = (
    "Trying to create a dual Tensor for forward AD but no level exists, make sure to "
    "enter_dual_level() first."
)
NESTED_MESSAGE = "Nested forward mode AD is not supported at the moment"
EXIT_ORDER_MESSAGE = (
    "Trying to exit a forward AD level that was not the last one that was created. This is not "
    "supported."
)
ALREADY_DUAL_MESSAGE = (
    "Making a dual Tensor based on a Tensor that already has a forward gradient at the same "
    "level {} is not supported."
)
INVALID_INDEX_MESSAGE = (
    "Trying to access a forward AD level with an invalid index. This index was either not "
    "created or is already deleted."
)

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__module__ = "torch.autograd.forward_ad"
UnpackedDualTensor.__doc__ = "The primal and tangent of a dual tensor, as `unpack_dual` gives them."


def enter_dual_level() -> int:
    """Starts a dual level and returns its index (0: one level at a time)."""
    if Level.current is not None:
        raise RuntimeError(NESTED_MESSAGE)
    forward_rules.start()
    return 0


def exit_dual_level(*, level: int | None = None) -> None:
    """Ends the dual level (every tangent is dropped)."""
    if level is None:
        level = -1 if Level.current is None else Level.current
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if level != Level.current:
        raise RuntimeError(EXIT_ORDER_MESSAGE)
    forward_rules.stop()


class dual_level:  # noqa: N801 - PyTorch's name
    """Context manager (and decorator) for a dual level: `with dual_level(): ...`."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc: Any) -> None:
        exit_dual_level()

    def __call__(self, fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with dual_level():
                return fn(*args, **kwargs)

        return wrapper


dual_level.__module__ = "torch.autograd.forward_ad"


def _check_floating(value: Any, what: str) -> None:
    if not isinstance(value, Tensor):
        raise AttributeError(
            f"'{type(value).__name__}' object has no attribute 'is_floating_point'"
        )
    if value._data.dtype.kind not in "fc":
        raise ValueError(f"Expected {what} to be floating point or complex, but got: {value.dtype}")


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A view of `tensor` whose tangent is `tangent` (the same tensor unless its layout
    differs from `tensor`'s: then a copy in `tensor`'s layout)."""
    if level is None:
        level = Level.current
    if Level.current is None or level is None or level < 0:
        raise RuntimeError(NO_LEVEL_MESSAGE)
    if level != Level.current:
        raise RuntimeError("Invalid level given to _make_dual")
    _check_floating(tensor, "primal")
    _check_floating(tangent, "tangent")
    if forward_rules.tangent_of(tensor) is not None:
        raise RuntimeError(ALREADY_DUAL_MESSAGE.format(level))
    if np.shape(tangent._data) != tensor._data.shape:
        raise forward_rules.size_error(tensor, tangent)
    with forward_rules.suspended():
        dual = tensor.view(tuple(tensor._data.shape))
    forward_rules.set_tangent(dual, _in_layout_of(tangent, tensor))
    return dual


def _in_layout_of(tangent: Tensor, primal: Tensor) -> Tensor:
    t, p = np.asarray(tangent._data), np.asarray(primal._data)
    if t.ndim == 0 or [s // t.itemsize for s in t.strides] == [s // p.itemsize for s in p.strides]:
        return tangent
    copy = np.empty(p.shape, t.dtype, order="C" if p.flags.c_contiguous else "K")
    np.copyto(copy, t)
    return _wrap(copy)


@checks_own_arguments
def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """`(primal, tangent)` of a dual tensor: a view of it without tangent, and its tangent
    (None when it has none). Outside a level, `tensor` itself and None."""
    if not isinstance(tensor, Tensor):
        raise TypeError(
            "_unpack_dual(): argument 'dual' (position 1) must be Tensor, not "
            f"{type(tensor).__name__}"
        )
    if Level.current is None:  # (whatever `level` says, as PyTorch)
        return UnpackedDualTensor(tensor, None)
    if level is None:
        level = Level.current
    if level < 0:
        raise RuntimeError(INVALID_INDEX_MESSAGE)
    if level != Level.current:
        raise RuntimeError("Invalid level given to _fw_primal")
    with forward_rules.suspended():
        primal = tensor.view(tuple(tensor._data.shape))
    return UnpackedDualTensor(primal, forward_rules.tangent_of(tensor))


__all__ = [
    "UnpackedDualTensor",
    "enter_dual_level",
    "exit_dual_level",
    "make_dual",
    "unpack_dual",
    "dual_level",
]
