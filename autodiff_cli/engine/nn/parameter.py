"""`nn.Parameter`: a leaf tensor a Module registers when it is assigned as an attribute."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes
from ..core.devices import check_device, meta_zeros
from ..core.dtypes import get_default_dtype as _get_default_dtype
from ..core.grad_mode import NO_VERSION as _NO_VERSION
from ..core.grad_mode import REQUIRES_GRAD_INFERENCE_MESSAGE as _REQUIRES_GRAD_INFERENCE
from ..core.grad_mode import InferenceMode as _InferenceMode
from ..core.inference import mark_new as _mark_new
from ..core.printing import format_parameter as _format_parameter
from ..core.tensor import FACTORY_FLOAT_ONLY_MESSAGE, Tensor, _init, _wrap
from ..ops.creation import _check_size


class Parameter(Tensor):
    """Shares its data and version counter with the tensor it wraps; printed `Parameter containing:`."""

    __slots__ = ()

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        if data is None:
            array = np.zeros((0,), np.float32)
        elif isinstance(data, Tensor):
            array = data._array()
        else:
            raise TypeError(
                f"Parameter.__new__() argument 'data' must be Tensor, not {type(data).__name__}"
            )
        if requires_grad and array.dtype.kind != "f":
            raise RuntimeError(FACTORY_FLOAT_ONLY_MESSAGE)
        if requires_grad and data._vbox is _NO_VERSION and not _InferenceMode.enabled:
            raise RuntimeError(_REQUIRES_GRAD_INFERENCE)
        _init(self, array, bool(requires_grad), None, 0)
        if data is not None:
            self._vbox = data._version_box()

    def __repr__(self) -> str:
        data = self._data if self.is_meta else np.asarray(self._data)
        return _format_parameter(
            data, self._repr_suffixes(), default_dtype=_get_default_dtype().name
        )

    __str__ = __repr__

    def __deepcopy__(self, memo: dict) -> Parameter:
        out = Parameter(Tensor.__deepcopy__(self, {}), self._requires_grad)
        memo[id(self)] = out
        return out


Parameter.__module__ = "torch.nn.parameter"

_UNINITIALIZED_SHAPE = (
    "Can't access the shape of an uninitialized parameter or buffer. This error usually happens "
    "in `load_state_dict` when trying to load an uninitialized parameter into an initialized one. "
    "Call `forward` to initialize the parameters before accessing their attributes."
)


def _uninitialized_use(name: str) -> ValueError:
    return ValueError(
        f"Attempted to use an uninitialized parameter in <method '{name}' of "
        "'torch._C.TensorBase' objects>. This error happens when you are using a `LazyModule` or "
        "explicitly manipulating `torch.nn.parameter.UninitializedParameter` objects. When using "
        "LazyModules Call `forward` with a dummy batch to initialize the parameters before calling "
        "torch functions"
    )


class UninitializedParameter(Parameter):
    """A lazy module's parameter before its first call (`nn/lazy.py`): no shape yet, printed
    `<UninitializedParameter>`; `materialize(shape)` turns it into a Parameter in place."""

    __slots__ = ()
    cls_to_become = Parameter

    def __init__(self, requires_grad: bool = True, device: object = None, dtype: object = None):
        np_dtype = dtype.np if dtype is not None else _get_default_dtype().np
        _init(self, np.zeros((0,), np_dtype), bool(requires_grad), None, 0)

    def __repr__(self) -> str:
        return "<UninitializedParameter>"

    __str__ = __repr__

    @property
    def shape(self) -> None:
        raise RuntimeError(_UNINITIALIZED_SHAPE)

    def detach(self) -> UninitializedParameter:
        """Still uninitialised (a lazy module's `state_dict()` lists these)."""
        return UninitializedParameter(False, dtype=dtypes.BY_NUMPY[self._data.dtype])

    def materialize(self, shape: tuple, device: object = None, dtype: object = None) -> None:
        """Gives the parameter its shape (zeros until a layer initialises it); it becomes a
        plain Parameter, the same object (an optimizer holding it keeps it)."""
        shape = tuple(int(n) for n in shape)
        _check_size(shape)
        np_dtype = dtype.np if dtype is not None else self._data.dtype
        self._data = np.zeros(shape, np_dtype)
        self.__class__ = Parameter


def _refuse_use(name: str) -> object:
    def refused(self: UninitializedParameter, *args: object, **kwargs: object) -> None:
        raise _uninitialized_use(name)

    refused.__name__ = name
    return refused


for _name in (
    "numel add sub mul div matmul sum mean __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ "
    "__truediv__ __rtruediv__ __matmul__ __rmatmul__ __pow__ __neg__ t view reshape"
).split():
    setattr(UninitializedParameter, _name, _refuse_use(_name.strip("_")))
UninitializedParameter.__module__ = "torch.nn.parameter"


def typename(value: object) -> str:
    """`torch.typename`: `torch.FloatTensor` for tensors, the qualified class name otherwise."""
    if isinstance(value, Tensor):
        return "torch." + dtypes.legacy_type(value._data.dtype)
    cls = value if isinstance(value, type) else type(value)  # a class names itself
    if cls.__module__ in ("builtins", "__builtin__", None):
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def parameter_storage(shape: tuple, dtype: Any) -> Tensor:
    """A parameter's storage, under the element cap (`nn.Linear(16000, 16000)` is refused)."""
    _check_size(tuple(shape))
    np_dtype = dtype.np if dtype is not None else dtypes.get_default_dtype().np
    if check_device(None):  # built with `device="meta"` (or under `with torch.device("meta")`)
        return _mark_new(_wrap(meta_zeros(shape, np_dtype)))
    return _mark_new(_wrap(np.zeros(shape, np_dtype)))  # inference mode: an inference tensor


# What a script sees of this module (the language exports only these names).
__all__ = ["Parameter", "UninitializedParameter"]
