"""`NdArray`: a script's numpy array (shown as `numpy.ndarray`); registers itself with
`numpy_types` when it loads.

The raw array stays in the private `_held` slot (of `NumpyWrapper`, the engine's base of such
wrappers); indexing, methods and operators take plain or
wrapped arguments only and return wrapped values (see `numpy_types`). `__array__` hands the raw
array to trusted code (the engine's `torch.from_numpy`, `torch.tensor`).
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from autodiff_cli.engine.core.script_data import NumpyWrapper
from autodiff_cli.lang.sandbox import numpy_sizes as sizes
from autodiff_cli.lang.sandbox import numpy_types as nt
from autodiff_cli.lang.sandbox import typeview

boundary = nt.boundary


def _key_part(part: Any) -> Any:
    """One component of an index, as a plain value numpy may see."""
    if part is None or part is Ellipsis or type(part) is bool:
        return part
    if type(part) is slice:
        return slice(
            *(None if v is None else nt.index(v) for v in (part.start, part.stop, part.step))
        )
    if type(part) is NdArray or isinstance(part, list):
        raw = nt.to_raw(part)
        if raw.dtype.kind not in "biu" and raw.size:
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        return raw if raw.size else raw.astype(np.intp)
    if isinstance(part, nt.Scalar) and part._held.dtype.kind == "b":
        return bool(part._held)
    return nt.index(part)


def _key(key: Any) -> Any:
    if type(key) is tuple:
        if len(key) > 64:
            raise IndexError("too many indices for array")
        return tuple(_key_part(part) for part in key)
    return _key_part(key)


def _check_fancy(shape: tuple, key: Any) -> None:
    """Refuse advanced indexing whose result would pass the element cap (before numpy
    allocates): the picked positions times the elements of the dims not indexed by arrays."""
    parts = key if type(key) is tuple else (key,)
    arrays = [p for p in parts if isinstance(p, np.ndarray)]
    if not arrays:
        return
    taken = [(int(p.sum()),) if p.dtype.kind == "b" else p.shape for p in arrays]
    try:
        picked = math.prod(np.broadcast_shapes(*taken))
    except ValueError:
        return  # numpy reports the mismatch
    nt.check_count(picked * math.prod(shape) // max(1, _indexed_size(shape, parts)))


def _width(part: Any) -> int:
    if part is None or type(part) is bool:
        return 0
    return part.ndim if isinstance(part, np.ndarray) and part.dtype.kind == "b" else 1


def _indexed_size(shape: tuple, parts: tuple) -> int:
    """The product of the dims that index arrays consume (counted from both ends of `...`)."""
    split = next((i for i, p in enumerate(parts) if p is Ellipsis), len(parts))
    size = 1
    for group, forward in ((parts[:split], True), (parts[split + 1 :][::-1], False)):
        axis = 0
        for part in group:
            width = _width(part)
            if isinstance(part, np.ndarray):
                dims = (
                    shape[axis : axis + width]
                    if forward
                    else shape[len(shape) - axis - width : len(shape) - axis]
                )
                size *= math.prod(d for d in dims if d)
            axis += width
    return size


def _dot_shape(a: tuple, b: tuple) -> tuple:
    if not a or not b:
        return a or b
    if len(b) == 1:
        return a[:-1]
    return (*a[:-1], *b[:-2], b[-1])


def _reduction(name: str) -> Any:
    @boundary
    def method(
        self: NdArray, axis: Any = None, dtype: Any = None, keepdims: bool = False, **extra: Any
    ) -> Any:
        options: dict[str, Any] = {"axis": nt.axis_of(axis), "keepdims": bool(keepdims)}
        if dtype is not None:
            options["dtype"] = nt.dtype_of(dtype)
        if "ddof" in extra:
            options["ddof"] = nt.number(extra.pop("ddof"))
        if extra:
            raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(extra))}'")
        sizes.check_reduction(self._held.shape, options["axis"], options["keepdims"])
        return nt.wrap(getattr(self._held, name)(**options))

    method.__name__ = name
    return method


def _arg_reduction(name: str) -> Any:
    @boundary
    def method(self: NdArray, axis: Any = None, keepdims: bool = False) -> Any:
        axis = nt.axis_of(axis)
        sizes.check_reduction(self._held.shape, axis, bool(keepdims))
        return nt.wrap(getattr(self._held, name)(axis=axis, keepdims=bool(keepdims)))

    method.__name__ = name
    return method


def _shape_args(args: tuple) -> tuple:
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    return tuple(nt.index(a) for a in args)


class NdArray(NumpyWrapper):
    """A numpy array a script holds (see the module docstring); the raw array is in the `_held`
    slot (the engine reads it there: `t[np_index]`, `torch.Tensor(a)`, a DataLoader's batch)."""

    __slots__ = ()

    def __init__(self, array: np.ndarray) -> None:
        self._held = array

    # printing and conversion
    def __repr__(self) -> str:
        return nt.printed(repr, self._held)

    def __str__(self) -> str:
        return nt.printed(str, self._held)

    def __format__(self, spec: str) -> str:
        return nt._format(self._held, str(self), spec)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self._held if dtype is None else self._held.astype(dtype)

    @boundary
    def __bool__(self) -> bool:
        return bool(self._held)

    @boundary
    def __float__(self) -> float:
        return float(self._held)

    @boundary
    def __int__(self) -> int:
        return int(self._held)

    @boundary
    def __index__(self) -> int:
        return operator.index(self._held)

    @boundary
    def __len__(self) -> int:
        return len(self._held)

    @boundary
    def __iter__(self) -> Any:
        if not self._held.ndim:
            raise TypeError("iteration over a 0-d array")
        return map(nt.wrap, self._held)  # lazily: a long array is not copied into a list

    @boundary
    def __contains__(self, value: Any) -> bool:
        raw = nt.to_raw(value)
        nt.check_broadcast(self._held.shape, np.shape(raw))
        return bool((self._held == raw).any())

    __hash__ = None  # type: ignore[assignment]

    # indexing
    @boundary
    def __getitem__(self, key: Any) -> Any:
        raw_key = _key(key)
        _check_fancy(self._held.shape, raw_key)
        return nt.wrap(self._held[raw_key])

    @boundary
    def __setitem__(self, key: Any, value: Any) -> None:
        self._held[_key(key)] = nt.to_raw(value)

    __neg__ = nt._unary(operator.neg)
    __pos__ = nt._unary(operator.pos)
    __abs__ = nt._unary(operator.abs)
    __invert__ = nt._unary(operator.invert)

    # attributes
    shape = property(lambda self: self._held.shape)
    ndim = property(lambda self: self._held.ndim)
    size = property(lambda self: self._held.size)
    itemsize = property(lambda self: self._held.itemsize)
    nbytes = property(lambda self: self._held.nbytes)
    dtype = property(lambda self: nt.DTYPES[self._held.dtype.name])
    T = property(lambda self: NdArray(self._held.T))

    # methods
    sum = _reduction("sum")
    mean = _reduction("mean")
    prod = _reduction("prod")
    std = _reduction("std")
    var = _reduction("var")
    max = _reduction("max")
    min = _reduction("min")
    all = _reduction("all")
    any = _reduction("any")
    argmax = _arg_reduction("argmax")
    argmin = _arg_reduction("argmin")

    @boundary
    def cumsum(self, axis: Any = None) -> Any:
        return nt.wrap(self._held.cumsum(axis=nt.axis_of(axis)))

    @boundary
    def reshape(self, *shape: Any) -> NdArray:
        return NdArray(self._held.reshape(_shape_args(shape)))

    @boundary
    def transpose(self, *axes: Any) -> NdArray:
        return NdArray(self._held.transpose(_shape_args(axes) or None))

    @boundary
    def astype(self, dtype: Any) -> NdArray:
        return NdArray(self._held.astype(nt.dtype_of(dtype)))

    def copy(self) -> NdArray:
        return NdArray(self._held.copy())

    def flatten(self) -> NdArray:
        return NdArray(self._held.flatten())

    def ravel(self) -> NdArray:
        return NdArray(self._held.ravel())

    @boundary
    def squeeze(self, axis: Any = None) -> NdArray:
        return NdArray(self._held.squeeze(axis=nt.axis_of(axis)))

    @boundary
    def tolist(self) -> Any:
        sizes.check_extent(self._held.shape)
        return self._held.tolist()

    @boundary
    def item(self, *args: Any) -> Any:
        return self._held.item(*(nt.index(a) for a in args))

    @boundary
    def fill(self, value: Any) -> None:
        self._held.fill(nt.number(value))

    @boundary
    def clip(self, min: Any = None, max: Any = None) -> NdArray:  # noqa: A002 - numpy's names
        low = None if min is None else nt.to_raw(min)
        high = None if max is None else nt.to_raw(max)
        nt.check_broadcast(self._held.shape, np.shape(low), np.shape(high))
        return nt.wrap(np.clip(self._held, low, high))

    @boundary
    def round(self, decimals: Any = 0) -> Any:
        return nt.wrap(self._held.round(nt.index(decimals)))

    @boundary
    def dot(self, other: Any) -> Any:
        raw = nt.to_raw(other)
        shape = _dot_shape(self._held.shape, np.shape(raw))
        nt.check_count(math.prod(shape), shape)
        return nt.wrap(np.dot(self._held, raw))

    @boundary
    def argsort(self, axis: Any = -1) -> NdArray:
        return NdArray(self._held.argsort(axis=nt.axis_of(axis), kind="stable"))

    @boundary
    def sort(self, axis: Any = -1) -> None:
        self._held.sort(axis=nt.axis_of(axis), kind="stable")


nt._add_operators(NdArray, inplace=True)
NdArray.__name__ = NdArray.__qualname__ = "ndarray"
NdArray.__module__ = "numpy"
nt.register_array_class(NdArray)

# Scripts may hold these as soon as they exist: `t.numpy()` makes arrays before any script has
# imported numpy, and an attribute reader decided then is kept for the process.
for _cls in (NdArray, nt.DType, nt.ScalarType, *nt.SCALAR_CLASSES.values()):
    typeview.register_wrapper_class(_cls)
del _cls
