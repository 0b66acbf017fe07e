"""`torch.*` forms of Tensor queries and small ops: is_nonzero, is_same_size, is_complex,
typename, adjoint and rsub (with alpha: RsubBackward0 for a Tensor `other`, RsubBackward1 for a
number). The queries check their arguments as PyTorch's bindings do (a TypeError naming the
argument and its position), then call the Tensor method."""

from __future__ import annotations

from typing import Any

from ..core import dtypes
from ..core.apply import apply_op
from ..core.optable import defop
from ..core.tensor import Tensor
from . import arithmetic

__all__ = ["is_nonzero", "is_same_size", "is_complex", "typename", "adjoint", "rsub"]


def _tensor(value: Any, fn: str, name: str, position: int) -> Tensor:
    if not isinstance(value, Tensor):
        raise TypeError(
            f"{fn}(): argument '{name}' (position {position}) must be Tensor, not "
            f"{type(value).__name__}"
        )
    return value


def is_nonzero(input: Tensor) -> bool:
    """The truth of a one-element tensor; a RuntimeError for any other size."""
    return _tensor(input, "is_nonzero", "input", 1).is_nonzero()


def is_same_size(input: Tensor, other: Tensor) -> bool:
    _tensor(input, "is_same_size", "input", 1)
    return input.is_same_size(_tensor(other, "is_same_size", "other", 2))


def is_complex(input: Tensor) -> bool:
    """Always False: the engine has no complex dtypes."""
    return _tensor(input, "is_complex", "input", 1).is_complex()


def typename(obj: Any) -> str:
    """`torch.FloatTensor` for a float32 tensor (its legacy type name); otherwise the object's
    module and qualified name (`torch.nn.modules.linear.Linear`), builtins without a module."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = type(obj).__module__ or ""
        qualname = type(obj).__qualname__
    shown = repr(obj) if module.startswith(_PACKAGE) else ""
    if shown.startswith("<module '"):  # a script's module (a stand-in): its name
        return shown[len("<module '") : -2]
    module = _torch_home(module)
    if module in ("", "builtins"):
        return qualname
    return f"{module}.{qualname}"


_PACKAGE = "autodiff_cli."
# where an engine function or class defined outside its PyTorch home prints from (its
# module's prefix -> PyTorch's module; autograd nodes print bare, as PyTorch's C++ classes)
_HOMES = (
    ("autodiff_cli.engine.core.graph", ""),
    ("autodiff_cli.engine.nn.functional", "torch.nn.functional"),
    ("autodiff_cli.engine.linalg", "torch.linalg"),
    ("autodiff_cli.engine.special", "torch.special"),
    ("autodiff_cli.engine", "torch"),
)


def _torch_home(module: str) -> str:
    """The PyTorch module an engine object's `__module__` stands for (others unchanged)."""
    if not module.startswith(_PACKAGE):
        return module
    for prefix, home in _HOMES:
        if module.startswith(prefix):
            return home
    return ""


def adjoint(input: Tensor) -> Tensor:
    """The conjugate transpose of the last two dims: for a real tensor a transpose view
    (TransposeBackward0)."""
    return _tensor(input, "adjoint", "input", 1).adjoint()


RSUB_TENSOR = defop(
    "rsub_tensor", "RsubBackward0", lambda a, b, alpha=1: b - alpha * a if alpha != 1 else b - a,
    lambda B, g, alpha=1: -g if alpha == 1 else -g * alpha,
    lambda B, g, alpha=1: g,
    rules=("-alpha", "1"),
    aten="rsub",
    aten_args=3,
)  # fmt: skip


def _check_alpha(input: Tensor, other: Any, alpha: Any) -> None:
    """PyTorch's alpha checks: no float alpha for an integral result, bool alpha only for a
    bool result."""
    kind = input._data.dtype.kind
    other_float = isinstance(other, float) or (
        isinstance(other, Tensor) and other._data.dtype.kind == "f"
    )
    integral = kind in "biu" and not other_float
    if isinstance(alpha, bool) and not (kind == "b" and integral):
        if alpha is not True or kind != "b":
            raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if integral and isinstance(alpha, float):
        raise RuntimeError(
            "For integral input tensors, argument alpha must not be a floating point number."
        )


def rsub(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:
    """`other - alpha * input`: RsubBackward0 for a Tensor other, RsubBackward1 for a number."""
    if not isinstance(input, Tensor):
        raise TypeError(
            "rsub() received an invalid combination of arguments - got "
            f"({type(input).__name__}, {type(other).__name__}), but expected one of:\n"
            " * (Tensor input, Tensor other, *, Number alpha = 1)\n"
            " * (Tensor input, Number other, Number alpha = 1)\n"
        )
    _check_alpha(input, other, alpha)
    if isinstance(other, Tensor):
        if input._data.dtype.kind == "b" and other._data.dtype.kind == "b":
            raise RuntimeError(
                "Subtraction, the `-` operator, with two bool tensors is not supported. "
                "Use the `^` or `logical_xor()` operator instead."
            )
        return apply_op(RSUB_TENSOR, (input, other), {"alpha": alpha})
    if isinstance(other, float) and input._data.dtype.kind in "biu":
        input = input.to(dtypes.get_default_dtype())
    params = {"other": arithmetic._operand(other), "alpha": alpha}
    return apply_op(arithmetic.RSUB, (input,), params)
