"""`nn.Parameter`: a leaf tensor a Module registers when it is assigned as an attribute."""

from __future__ import annotations

import numpy as np

from ..core import dtypes
from ..core.dtypes import get_default_dtype as _get_default_dtype
from ..core.grad_mode import NO_VERSION as _NO_VERSION
from ..core.grad_mode import REQUIRES_GRAD_INFERENCE_MESSAGE as _REQUIRES_GRAD_INFERENCE
from ..core.grad_mode import InferenceMode as _InferenceMode
from ..core.printing import format_parameter as _format_parameter
from ..core.tensor import FACTORY_FLOAT_ONLY_MESSAGE, Tensor, _init


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
        return _format_parameter(
            np.asarray(self._data), self._repr_suffixes(), default_dtype=_get_default_dtype().name
        )

    __str__ = __repr__

    def __deepcopy__(self, memo: dict) -> Parameter:
        out = Parameter(Tensor.__deepcopy__(self, {}), self._requires_grad)
        memo[id(self)] = out
        return out


Parameter.__module__ = "torch.nn.parameter"


def typename(value: object) -> str:
    """`torch.typename`: `torch.FloatTensor` for tensors, the qualified class name otherwise."""
    if isinstance(value, Tensor):
        return "torch." + dtypes.legacy_type(value._data.dtype)
    cls = value if isinstance(value, type) else type(value)  # a class names itself
    if cls.__module__ in ("builtins", "__builtin__", None):
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


# What a script sees of this module (the language exports only these names).
__all__ = ["Parameter"]
