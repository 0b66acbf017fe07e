"""`torch.device`: autodiff computes on the CPU, and knows the `meta` device (tensors with a
shape and a dtype but no values, for building big models before loading their weights). Other
devices can be named (scripts build `torch.device("cuda")` freely) but not used: moving a tensor
there fails as it does in a CPU-only PyTorch build.

A meta tensor's data is a `MetaArray`: zeros (`np.zeros` takes untouched pages from the system
lazily) whose type is the mark. numpy keeps the subclass through ufuncs, views and reductions,
and `__array_function__` through its other functions; the op machinery (`core/apply.py`) marks
every op's outputs meta when an input is (`as_meta`), so an op's result is meta whatever numpy
did inside it, and computes the shape by running the op on the zeros.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

DEVICE_TYPES = (
    "cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
    "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone",
)  # fmt: skip
_NO_CUDA = "Torch not compiled with CUDA enabled"


class device:  # noqa: N801 - PyTorch's name
    """A device name: a type (`cpu`, `cuda`, ...) and an optional index."""

    __slots__ = ("type", "index")

    def __init__(self, type: Any, index: int | None = None) -> None:  # noqa: A002
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if not isinstance(type, str):
            raise TypeError(
                "device() received an invalid combination of arguments - got "
                f"({_type_name(type)}), but expected one of:\n * (torch.device device)\n"
                "      didn't match because some of the arguments have invalid types: "
                f"(!{_type_name(type)}!)\n * (str type, int index = -1)\n"
            )
        name, _, number = type.partition(":")
        if name not in DEVICE_TYPES:
            raise RuntimeError(
                f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of device "
                f"string: {type}"
            )
        if number:
            if not number.isdigit() or index is not None:
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(number)
        self.type = name
        self.index = index

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, device):
            return False
        return self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self) -> Any:
        return (device, (self.type, self.index))

    def __enter__(self) -> device:
        """`with torch.device("meta"):` factories without `device=` make tensors there."""
        check_device(self)
        _DEFAULT.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        if len(_DEFAULT) > 1:
            _DEFAULT.pop()


def _type_name(value: Any) -> str:
    return type(value).__name__


CPU = device("cpu")
META = device("meta")
_DEFAULT: list[device] = [CPU]  # `with torch.device(...)` / `set_default_device` push here


def check_device(where: Any) -> bool:
    """Whether `where` (a device, a device string or an index; None: the default device) names
    the meta device; raises unless it names the CPU or the meta device."""
    if where is None:
        return _DEFAULT[-1] is not CPU and _DEFAULT[-1].type == "meta"
    if where is CPU:
        return False
    if isinstance(where, int) and not isinstance(where, bool):
        raise AssertionError(_NO_CUDA)  # a bare index means a CUDA device
    kind = device(where).type
    if kind == "cuda":
        raise AssertionError(_NO_CUDA)
    if kind == "meta":
        return True
    if kind != "cpu":
        raise RuntimeError(f"PyTorch is not linked with support for {kind} devices")
    return False


def set_default_device(where: Any) -> None:
    """`torch.set_default_device(device)` (None: the CPU)."""
    chosen = CPU if where is None else device(where)
    check_device(chosen)
    _DEFAULT[0] = chosen
    del _DEFAULT[1:]


def get_default_device() -> device:
    return _DEFAULT[-1]


@contextmanager
def default_device(where: Any) -> Iterator[None]:
    """Factories without `device=` follow `where` (an nn module built with `device=`)."""
    check_device(where)
    _DEFAULT.append(device(where) if not isinstance(where, device) else where)
    try:
        yield
    finally:
        _DEFAULT.pop()


# ---- meta tensors' data ----------------------------------------------------------------------

USED = [False]  # set by the first meta array: until then the op machinery checks nothing


class MetaArray(np.ndarray):
    """The data of a meta tensor (see the module docstring)."""

    __array_priority__ = 100  # above ndarray (results take this class), below Tensor

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        result = super().__array_function__(func, types, args, kwargs)
        return as_meta(result) if result is not NotImplemented else result


def meta_zeros(shape: tuple, dtype: Any) -> MetaArray:
    USED[0] = True
    return np.zeros(shape, dtype).view(MetaArray)


def as_meta(value: Any) -> Any:
    """`value` (an array, or a tuple/list of them) as meta data; other values unchanged."""
    kind = type(value)
    if kind is MetaArray:
        return value
    if isinstance(value, np.ndarray):
        USED[0] = True
        return value.view(MetaArray)
    if isinstance(value, np.generic):
        USED[0] = True
        return np.asarray(value).view(MetaArray)
    if kind is tuple or kind is list:
        return kind(as_meta(item) for item in value)
    return value


def is_meta_data(data: Any) -> bool:
    return type(data) is MetaArray


def check_same_device(first: Any, *others: Any) -> None:
    """PyTorch's refusal of a meta and a CPU tensor (of one or more dimensions) in one call,
    worded from the first tensor's device (what a function checks before its kernels run)."""
    if not USED[0]:
        return
    meta = is_meta_data(getattr(first, "_data", None))
    for other in others:
        data = getattr(other, "_data", None)
        if isinstance(data, np.ndarray) and is_meta_data(data) != meta and data.ndim:
            here, expected = ("cpu", "meta") if meta else ("meta", "cpu")
            raise RuntimeError(f"Tensor on device {here} is not on the expected device {expected}!")


def on_device(function: Callable, *, like: bool = False, keeps_rng: Any = None) -> Callable:
    """A factory following `device=` (or the default device; with `like`, also its first
    argument's device): on the meta device its result is meta, and `keeps_rng()` gives the
    generators whose state the draw must leave as it found it (meta tensors draw nothing)."""

    @functools.wraps(function)
    def factory(*args: Any, **kwargs: Any) -> Any:
        where = kwargs.get("device")
        if like and where is None and args and is_meta_data(getattr(args[0], "_data", None)):
            where = META
        if not check_device(where):
            return function(*args, **kwargs)
        kwargs["device"] = CPU
        states = [(g, g.get_state()) for g in keeps_rng(kwargs)] if keeps_rng else ()
        try:
            result = function(*args, **kwargs)
        finally:
            for generator, state in states:
                generator.set_state(state)
        result._data = as_meta(result._data)
        return result

    return factory


def is_device_arg(value: Any) -> bool:
    """Whether a positional argument of `.to(...)` names a device."""
    return isinstance(value, (device, str))


device.__module__ = "torch"
