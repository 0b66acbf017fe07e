"""Tensors and a script's numpy arrays: `t.numpy()`, `torch.from_numpy`, `torch.tensor(a)`.

As in PyTorch, `t.numpy()` and `torch.from_numpy(a)` share memory (the script gets an
`NdArray` wrapper around the tensor's own array); `torch.tensor(a)` copies; `torch.as_tensor`
shares when the dtype stays. Nothing here imports numpy's wrappers until a
script holds one (they exist only once `lang/sandbox/numpy_types.py` is loaded).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from autodiff_cli import lazy_imports
from autodiff_cli.lang.sandbox import typeview
from autodiff_cli.lang.sandbox.doc_stand_ins import document_as

_TYPES = "autodiff_cli.lang.sandbox.numpy_types"


def _types() -> Any:
    """`numpy_types`, loaded on first use (in-process runs; jailed children preload it)."""
    return lazy_imports.load(_TYPES)


def numpy_method(tensor: Any) -> Callable[..., Any]:
    """`tensor.numpy`: a function returning the tensor's data as the script's array (also for
    a tensor that requires grad under `no_grad`, as PyTorch allows)."""

    def numpy(*, force: bool = False) -> Any:
        engine = sys.modules["autodiff_cli.engine"]
        source = tensor.detach() if force or not engine.is_grad_enabled() else tensor
        nt = _types()
        with_boundary = nt.boundary(source.numpy)
        return nt.NdArray(nt.checked_array(with_boundary()))

    return numpy


def _raw(value: Any) -> Any:
    """`value` with numpy wrappers (also inside lists and tuples) replaced by raw numpy data."""
    kind = type(value)
    if kind in typeview.WRAPPER_CLASSES:
        nt = _types()
        if kind is nt.NdArray:
            return value._held
        if isinstance(value, nt.Scalar):
            return value._held
        return value
    if kind is list or kind is tuple:
        return kind(_raw(v) for v in value)
    return value


def _holds_wrapper(value: Any) -> bool:
    if type(value) in typeview.WRAPPER_CLASSES:
        return True
    return type(value) in (list, tuple) and any(_holds_wrapper(v) for v in value)


_TORCH_DTYPES = frozenset("float64 float32 float16 int64 int32 int16 int8 uint8 bool".split())


def _check_for_torch(array: Any) -> Any:
    """PyTorch's refusals of a numpy array: negative strides, dtypes tensors do not have."""
    if any(stride < 0 for stride in array.strides):
        raise ValueError(
            "At least one stride in the given numpy array is negative, and tensors with negative "
            "strides are not currently supported. (You can probably work around this by making a "
            "copy of your array  with array.copy().) "
        )
    if array.dtype.name not in _TORCH_DTYPES:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{array.dtype.name}. The only supported "
            "types are: float64, float32, float16, complex64, complex128, int64, int32, int16, "
            "int8, uint8, and bool."
        )
    return array


def torch_functions(torch: Any) -> dict[str, Callable[..., Any]]:
    """The script's `torch.from_numpy`, `tensor`, `as_tensor` over the engine's."""
    engine_tensor = torch.tensor
    engine_as_tensor = torch.as_tensor
    engine_from_numpy = torch.from_numpy

    def from_numpy(ndarray: Any) -> Any:
        nt = sys.modules.get(_TYPES)
        if nt is None or type(ndarray) is not nt.NdArray:
            raise TypeError(f"expected np.ndarray (got {typeview.display_name(type(ndarray))})")
        return nt.boundary(engine_from_numpy)(_check_for_torch(ndarray._held))

    def tensor(data: Any, *args: Any, **kwargs: Any) -> Any:
        if _holds_wrapper(data):  # lists of arrays or numpy scalars: numpy's dtype, as PyTorch
            nt = _types()
            if type(data) is nt.NdArray:
                _check_for_torch(data._held)
            return nt.boundary(engine_tensor)(nt.boundary(nt.to_raw)(data), *args, **kwargs)
        return engine_tensor(data, *args, **kwargs)

    def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Any:
        nt = sys.modules.get(_TYPES)
        if nt is not None and type(data) is nt.NdArray:
            shared = from_numpy(data)
            if dtype is None or dtype == shared.dtype:
                return shared
            return shared.to(dtype)
        return engine_as_tensor(_raw(data), dtype=dtype, device=device)

    functions = {"from_numpy": from_numpy, "tensor": tensor, "as_tensor": as_tensor}
    for name, function in functions.items():
        function.__qualname__ = name
        document_as(function, f"torch.{name}")  # help(torch.tensor)
    return functions
