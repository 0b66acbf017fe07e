"""The legacy typed-tensor API of older tutorials: `torch.FloatTensor`, `torch.LongTensor`...,
`torch.Tensor(...)`, `x.new(...)`, `x.type(...)` and `torch.set_default_tensor_type`.

As in PyTorch, `torch.FloatTensor` is a class of the metaclass `torch.tensortype` that no object
is an instance of: calling it makes a plain `torch.Tensor` of its dtype, and `isinstance(x,
torch.FloatTensor)` asks whether `x` is a CPU tensor (by its real type, never `__class__`) of
that dtype. Every legacy constructor (`torch.Tensor(...)`, `torch.XTensor(...)`, `x.new(...)`)
goes through `legacy_new`, which follows PyTorch's overloads: nothing (an empty tensor), a
tensor (an alias), sizes or a `torch.Size` (a new tensor: uninitialised in PyTorch, zeros here),
or a sequence of data (converted to the class's dtype, never inferred).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core import dtypes, limits, script_data
from ..core.devices import device
from ..core.optable import tensor_methods
from ..core.tensor import Size, Tensor
from . import arithmetic, creation, views

_DATA = Tensor.__dict__["_data"]  # the slot itself: an object's `__getattr__` is never asked
_CUDA_NOT_COMPILED = "Torch not compiled with CUDA enabled."
_CUDA_INIT_MESSAGE = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you are "
    "trying to use some CUDA functionality, but the CUDA library has not been loaded by the "
    "dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't "
    "directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic "
    "library dependencies if you don't depend on any of their symbols.  You can check if this "
    "has occurred by using ldd on your binary to see if there is a dependency on *_cuda.so "
    "library."
)
DEPRECATION_WARNING = (
    "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
    "torch.set_default_dtype() and torch.set_default_device() as alternatives. (Triggered "
    "internally at /__w/pytorch/pytorch/torch/csrc/tensor/python_tensor.cpp:434.)"
)
_SIGNATURES = (
    " * (*, torch.device device = None)\n * (torch.Storage storage)\n * (Tensor other)\n"
    " * (tuple of ints size, *, torch.device device = None)\n"
    " * (object data, *, torch.device device = None)\n"
)
_KEYWORDS = frozenset({"device", "data", "size", "other"})


class tensortype(type):  # noqa: N801 - PyTorch's name
    """The metaclass of the legacy tensor classes (see the module docstring)."""

    def __instancecheck__(cls, instance: Any) -> bool:
        target = cls._np_dtype
        if target is None or cls.is_cuda or not type.__subclasscheck__(Tensor, type(instance)):
            return False
        return _DATA.__get__(instance).dtype == target

    def __call__(cls, *args: Any, **kwargs: Any) -> Tensor:
        return legacy_new(_available(cls), "ctor", args, kwargs)


tensortype.__module__ = "torch"


def _available(cls: tensortype) -> np.dtype:
    """The numpy dtype of a legacy class that can make tensors here (TypeError otherwise)."""
    if cls.is_cuda:
        raise TypeError(f"type {cls.__module__}.{cls.__name__} not available. {_CUDA_NOT_COMPILED}")
    if cls._np_dtype is None:
        raise TypeError(
            f"type torch.{cls.__name__} not available: autodiff has no {cls._dtype_name} dtype"
        )
    return cls._np_dtype


def _legacy_class(scalar: str, dtype_name: str, cuda: bool) -> tensortype:
    dtype = dtypes.ALIASES.get(dtype_name)
    namespace = {
        "__module__": "torch.cuda" if cuda else "torch",
        "__qualname__": f"{scalar}Tensor",
        "__slots__": (),
        "_dtype_name": dtype_name,
        "is_cuda": cuda,
        "is_sparse": False,
        "_np_dtype": dtype.np if dtype is not None else None,
    }
    if dtype is not None:
        namespace["dtype"] = dtype
    return tensortype(f"{scalar}Tensor", (), namespace)


_SCALARS = (
    ("Float", "float32"), ("Double", "float64"), ("Half", "float16"), ("BFloat16", "bfloat16"),
    ("Long", "int64"), ("Int", "int32"), ("Short", "int16"), ("Char", "int8"), ("Byte", "uint8"),
    ("Bool", "bool"),
)  # fmt: skip
CPU_CLASSES = {f"{s}Tensor": _legacy_class(s, d, False) for s, d in _SCALARS}
CUDA_CLASSES = {f"{s}Tensor": _legacy_class(s, d, True) for s, d in _SCALARS}
# `x.type('torch.FloatTensor')`, `set_default_tensor_type('torch.DoubleTensor')`
_BY_NAME = {f"torch.{name}": cls for name, cls in CPU_CLASSES.items()} | {
    f"torch.cuda.{name}": cls for name, cls in CUDA_CLASSES.items()
}
globals().update(CPU_CLASSES)


# ---- the one legacy constructor ------------------------------------------------------------


def legacy_new(np_dtype: np.dtype | None, mode: str, args: tuple, kwargs: dict) -> Tensor:
    """`torch.Tensor(...)` (mode "base", `np_dtype` None: the default dtype), a legacy class
    (mode "ctor") or `x.new(...)` (mode "new"), with PyTorch's overloads and messages."""
    unknown = [name for name in kwargs if name not in _KEYWORDS]
    given = [name for name in ("data", "size", "other") if name in kwargs]
    if unknown or len(given) > 1 or (given and args):
        raise TypeError(_invalid_combination(args, kwargs, unknown))
    target = np_dtype if np_dtype is not None else dtypes.get_default_dtype().np
    where = kwargs.get("device")
    if given:
        args = (kwargs[given[0]],)
    if not args:
        _check_device(where)
        return creation._finish(np.zeros((0,), target), False)
    first = args[0]
    if (given == ["other"] or (isinstance(first, Tensor) and not given)) and len(args) == 1:
        return _alias(first, np_dtype, mode, where)
    if given == ["size"] or _is_size(first):
        _check_device(where)
        if _is_int(first):
            return _new_with_sizes(args, target)
        if not isinstance(first, (list, tuple)):
            raise TypeError(
                f"new(): argument 'size' must be tuple of ints, not {_type_name(first)}"
            )
        return _new_with_sizes(tuple(first), target)
    if len(args) > 1:
        raise TypeError(_invalid_combination(args, kwargs, []))
    _check_device(where)
    return _new_from_sequence(first, target)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_size(value: Any) -> bool:
    """A `torch.Size` (a tuple of data would be data) or a first size."""
    return type(value) is Size or _is_int(value)


def _check_device(where: Any) -> None:
    """PyTorch's check of a legacy constructor's `device=`: the CPU only."""
    if where is None:
        return
    if _is_int(where):
        raise RuntimeError("Cannot access accelerator device when none is available.")
    kind = device(where).type
    if kind != "cpu":
        raise RuntimeError(
            f"legacy constructor expects device type: cpu but device type: {kind} was passed"
        )


def _alias(other: Tensor, np_dtype: np.dtype | None, mode: str, where: Any) -> Tensor:
    """`torch.Tensor(t)`, `torch.FloatTensor(t)`, `x.new(t)`: `t` itself under a new name
    (`AliasBackward0` when it requires grad), of the class's dtype only."""
    if where is not None:
        if mode == "new":
            raise RuntimeError(
                "Legacy tensor new of the form tensor.new(tensor, device=device) is not "
                "supported.  Use torch.as_tensor(...) instead."
            )
        raise RuntimeError(
            "Legacy tensor constructor of the form torch.Tensor(tensor, device=device) is not "
            "supported.  Use torch.tensor(...) or torch.as_tensor(...) instead."
        )
    have = _DATA.__get__(other).dtype
    if mode != "base" and have != np_dtype:
        raise TypeError(f"expected {_options_text(np_dtype)} (got {_options_text(have)})")
    return views.apply_view(views.ALIAS, other)


def _options_text(np_dtype: np.dtype) -> str:
    return (
        f"TensorOptions(dtype={dtypes.cpp_name(np_dtype)}, device=cpu, layout=Strided, "
        "requires_grad=false (default), pinned_memory=false (default), "
        "memory_format=(nullopt))"
    )


def _new_with_sizes(sizes: tuple, target: np.dtype) -> Tensor:
    """A new tensor of `sizes` (PyTorch leaves its memory uninitialised; zeros here)."""
    shape = []
    for position, size in enumerate(sizes, 1):
        if not _is_int(size):
            raise TypeError(
                f"new(): argument 'size' failed to unpack the object at pos {position} with "
                f'error "type must be tuple of ints,but got {_type_name(size)}"'
            )
        shape.append(int.__index__(size))  # (an int subclass as its plain value)
    for size in shape:
        if size < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {size}: "
                f"[{', '.join(map(str, shape))}]"
            )
    limits.check_shape(shape)
    return creation._finish(np.zeros(tuple(shape), target), False)


def _new_from_sequence(data: Any, target: np.dtype) -> Tensor:
    """Data given to a legacy constructor, in the class's dtype (no inference). A numpy array
    shares its memory when the dtype is already the target, as PyTorch's does."""
    data = script_data.unwrapped(data)
    kind = type(data)
    if kind is np.ndarray:
        _check_numpy(data)
        same = data.dtype == target
        return creation._finish(data if same else data.astype(target), False)
    if kind is str:
        raise TypeError("new(): invalid data type 'str'")
    if not isinstance(data, (list, tuple, range)):
        raise TypeError(f"new(): data must be a sequence (got {_type_name(data)})")
    if kind is range:
        limits.check_elements(len(data))
        data = list(data)
    return creation._finish(creation.array_from_data(data, target), False)


_TORCH_NUMPY_DTYPES = frozenset(d.np for d in dtypes.ALL)


def _check_numpy(array: np.ndarray) -> None:
    """PyTorch's refusals of a numpy array: negative strides, dtypes tensors do not have."""
    if any(stride < 0 for stride in array.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative "
            "strides are not currently supported. (You can probably work around this by making a "
            "copy of your array  with array.copy().) "
        )
    if array.dtype not in _TORCH_NUMPY_DTYPES:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{array.dtype.name}. The only supported "
            "types are: float64, float32, float16, complex64, complex128, int64, int32, int16, "
            "int8, uint64, uint32, uint16, uint8, and bool."
        )


def _type_name(value: Any) -> str:
    """How PyTorch's messages name a value's type (`float`, `NoneType`, `numpy.float32`)."""
    kind = type(value)
    if kind.__module__ == "numpy":
        return f"numpy.{kind.__name__}"
    if isinstance(value, Tensor):
        return "Tensor"
    return kind.__name__


def _described(value: Any) -> str:
    """An argument as the parser's "got (...)" names it (`list of [int]`)."""
    if type(value) in (list, tuple) and value:
        items = list.__iter__(value) if type(value) is list else tuple.__iter__(value)
        names = list(dict.fromkeys(_type_name(item) for item in items))
        return f"{type(value).__name__} of [{', '.join(names)}]"
    return _type_name(value)


def _invalid_combination(args: tuple, kwargs: dict, unknown: list) -> str:
    """PyTorch's "new() received an invalid combination of arguments" for the legacy overloads."""
    got = ", ".join(
        [_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()]
    )
    if kwargs and not args:
        got += ", "
    if unknown:
        reason = f"didn't match because some of the keywords were incorrect: {', '.join(unknown)}"
        # the overloads PyTorch's parser names: those taking as many positional arguments
        if not args:
            marked = (1, 2)
        elif all(_is_int(a) for a in args):
            marked = (3, 4)
        else:
            marked = (0,)
    else:
        shown = ", ".join(f"!{_described(a)}!" for a in args)
        reason = f"didn't match because some of the arguments have invalid types: ({shown})"
        marked = (0,)
    lines = []
    for index, signature in enumerate(_SIGNATURES.splitlines()):
        lines.append(signature)
        if index in marked:
            lines.append(f"      {reason}")
    return (
        f"new() received an invalid combination of arguments - got ({got}), but expected one "
        "of:\n" + "\n".join(lines) + "\n"
    )


# ---- Tensor.type, Tensor.new, set_default_tensor_type ----------------------------------------


def type_(self: Tensor, dtype: Any = None, non_blocking: Any = False, **kwargs: Any) -> Any:
    """`x.type()`: the legacy name (`torch.FloatTensor`); `x.type(T)` with a legacy class, its
    name, `torch.Tensor` (the default type) or a dtype: `x` converted (itself when unchanged)."""
    for name in kwargs:
        if name != "memory_format":
            raise TypeError(f"type() got an unexpected keyword argument '{name}'")
    if type(non_blocking) is not bool:
        raise TypeError(
            "type(): argument 'non_blocking' (position 2) must be bool, not "
            f"{_type_name(non_blocking)}"
        )
    if dtype is None:
        return f"torch.{dtypes.legacy_type(self.dtype)}"
    if isinstance(dtype, dtypes.dtype):
        return arithmetic.to_dtype(self, dtype)
    if isinstance(dtype, type):
        if type(dtype) is tensortype:
            cls = dtype
        elif dtype is Tensor:
            return arithmetic.to_dtype(self, dtypes.get_default_dtype())
        else:
            raise ValueError(f"invalid type: '{type.__dict__['__name__'].__get__(dtype)}'")
    elif isinstance(dtype, str):
        name = str.__str__(dtype)  # an exact copy: a str subclass's `__eq__` decides nothing
        if name == "torch.Tensor":
            return arithmetic.to_dtype(self, dtypes.get_default_dtype())
        cls = _BY_NAME.get(name)
        if cls is None:
            raise ValueError(f"invalid type: '{name}'")
    else:
        raise TypeError("dtype must be a type, str, or dtype object")
    if cls.is_cuda:
        raise RuntimeError(_CUDA_INIT_MESSAGE)
    return arithmetic.to_dtype(self, dtypes.BY_NUMPY[_available(cls)])


def new(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """`x.new(...)`: the legacy constructor in `x`'s dtype."""
    return legacy_new(_DATA.__get__(self).dtype, "new", args, kwargs)


class _Warned:
    deprecation = False  # PyTorch warns once per process; here once per script (reset_warnings)


def reset_warnings() -> None:
    _Warned.deprecation = False


def set_default_tensor_type(t: Any, /) -> None:
    """`torch.set_default_tensor_type(torch.DoubleTensor)` (or its name): deprecated in
    PyTorch 2.1, sets the default dtype (the CPU is the only device)."""
    if isinstance(t, str):
        name = str.__str__(t)
        cls = _BY_NAME.get(name)
        if cls is None:
            module = name.split(".")[0]
            if module != "torch":
                raise ModuleNotFoundError(f"No module named '{module}'")
            t = None  # another torch name (`torch.float64`): not a tensor type
        else:
            t = cls
    if not _Warned.deprecation:
        _Warned.deprecation = True
        warnings.warn(DEPRECATION_WARNING, UserWarning, stacklevel=2)
    if type(t) is not tensortype:
        raise TypeError(
            "invalid type object: only floating-point types are supported as the default type"
        )
    if t.is_cuda:
        raise TypeError(f"type torch.cuda.{t.__name__} not available. {_CUDA_NOT_COMPILED}")
    chosen = dtypes.BY_NUMPY.get(_available(t))
    if not chosen.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    dtypes.set_default_dtype(chosen)


tensor_methods("ops.legacy_types", {"type": type_, "new": new})

# `torch.Tensor(...)`: Tensor's metaclass calls `Tensor._legacy_new` (core/tensor.py)
tensor_methods("ops.legacy_types (torch.Tensor(...))", {"_legacy_new": staticmethod(legacy_new)})

__all__ = [*CPU_CLASSES, "set_default_tensor_type"]
