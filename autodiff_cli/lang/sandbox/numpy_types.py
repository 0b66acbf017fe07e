"""The values a script's `numpy` gives: safe wrappers around numpy arrays, scalars and dtypes.

A script never holds a raw numpy object. `NdArray` (shown as `numpy.ndarray`), the scalar
classes (`numpy.float32`...), `DType` and `ScalarType` (`np.float32` itself) keep the raw value
in a private slot and expose only the public names defined here; every value they return is
wrapped again (`wrap`). Arrays and scalars keep it in the `_held` slot of the engine's
`NumpyWrapper` base, where the engine reads it as numpy data (`t[np_index]`, `torch.Tensor(a)`,
a DataLoader's batch); an array's `__array__` hands it to trusted code (`torch.from_numpy`).
Script values given to numpy are converted first (`to_raw`): plain numbers, nested
lists/tuples of them, wrappers and tensors; anything else (strings, `None`, functions, script
objects, which numpy would turn into object arrays or read through `__array_interface__`) is
refused. Only numeric dtypes exist (`ALLOWED_DTYPES`). Sizes are checked against the element
cap before numpy allocates (`numpy_sizes`); numpy's own exceptions reach scripts as plain
builtin exceptions with the same message (`boundary`).
"""

from __future__ import annotations

import functools
import math
import operator
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from autodiff_cli.engine.core.script_data import NumpyWrapper
from autodiff_cli.lang import limits
from autodiff_cli.lang.sandbox import numpy_sizes as sizes
from autodiff_cli.lang.sandbox import typeview
from autodiff_cli.lang.sandbox.numpy_sizes import check_broadcast, check_count

ALLOWED_DTYPES: dict[str, np.dtype] = {
    name: np.dtype(name)
    for name in (
        "bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64".split()
    )
}
_ALIASES = {
    "float": "float64", "double": "float64", "single": "float32", "half": "float16",
    "int": "int64", "long": "int64", "bool_": "bool", "f8": "float64", "f4": "float32",
    "f2": "float16", "i8": "int64", "i4": "int32", "i2": "int16", "i1": "int8", "u1": "uint8",
    "?": "bool", "d": "float64", "f": "float32",
}  # fmt: skip
_ALLOWED_KINDS = frozenset("biuf")
_PY_TYPES = {float: "float64", int: "int64", bool: "bool"}


# ---- errors at the boundary --------------------------------------------------------------------


_PLAIN_ARGS = frozenset({str, int, float, bool})


def _clean_error(error: Exception) -> Exception:
    """`error` as a builtin exception holding only its message (numpy's exception classes carry
    raw ufuncs and dtypes in `args`)."""
    if type(error).__module__ == "builtins":
        for arg in error.args:  # (a loop, not all() over a generator: most calls a script's
            if type(arg) not in _PLAIN_ARGS:  # numpy refuses end here)
                break
        else:
            return error
    for base in type(error).__mro__:
        if base.__module__ == "builtins" and issubclass(base, Exception):
            return base(str(error))
    return RuntimeError(str(error))


def boundary(function: Callable[..., Any]) -> Callable[..., Any]:
    """Run `function` with numpy's warnings off and its exceptions made plain."""

    @functools.wraps(function)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            with np.errstate(all="ignore"):
                return function(*args, **kwargs)
        except Exception as error:
            clean = _clean_error(error)
            if clean is error:
                raise
            raise clean from None

    return guarded


# ---- printing options -----------------------------------------------------------------------

# `np.set_printoptions` of the running script (reset when a script imports numpy): applied
# around each print, so numpy's own global options never change.
PRINT_OPTIONS: dict[str, Any] = {}
_OPTION_KINDS = {
    "precision": int, "threshold": int, "edgeitems": int, "linewidth": int, "suppress": bool,
    "sign": str, "floatmode": str,
}  # fmt: skip


def set_printoptions(**options: Any) -> None:
    """Check and keep the options numpy would take (plain ints, bools and names only)."""
    checked: dict[str, Any] = {}
    for name, value in options.items():
        kind = _OPTION_KINDS.get(name)
        if kind is None:
            raise TypeError(f"set_printoptions() got an unexpected keyword argument '{name}'")
        if value is None:
            continue
        if kind is int:
            value = index(value)
            if not 0 <= value <= 10**9:
                raise ValueError(f"{name} must be a non-negative integer")
        elif kind is bool:
            value = bool(value)
        elif type(value) is not str or len(value) > 20:
            raise TypeError(f"{name} must be a string")
        checked[name] = value
    with np.printoptions(**(PRINT_OPTIONS | checked)):  # numpy validates the values
        pass
    PRINT_OPTIONS.update(checked)


def reset_printoptions() -> None:
    """numpy's defaults again (a script's `import numpy`)."""
    PRINT_OPTIONS.clear()


def printed(function: Callable[[Any], str], value: Any) -> str:
    if not PRINT_OPTIONS:
        return function(value)
    with np.printoptions(**PRINT_OPTIONS):
        return function(value)


# ---- plain arguments ---------------------------------------------------------------------------


def index(value: Any) -> int:
    """A script value used as an integer (a bool, int, wrapped integer scalar...)."""
    if issubclass(type(value), Scalar):
        value = value._held
        if value.dtype.kind not in "iub":
            raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer")
        return int(value)
    return int(operator.index(value))


def shape_of(value: Any) -> tuple[int, ...]:
    """A shape argument (`3`, `(2, 3)`, `[2, 3]`) as a tuple of ints, within the cap."""
    if isinstance(value, (tuple, list)):
        items = _items(value)
        if len(items) > 64:
            raise ValueError(
                f"maximum supported dimension for an ndarray is 64, found {len(items)}"
            )
        shape = tuple(index(v) for v in items)
    else:
        shape = (index(value),)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    check_count(math.prod(shape), shape)
    return shape


def axis_of(value: Any) -> int | tuple[int, ...] | None:
    if value is None:
        return None
    if isinstance(value, (tuple, list)):
        return tuple(index(v) for v in _items(value))
    return index(value)


def number(value: Any) -> Any:
    """A plain Python number (or a raw numpy scalar from a wrapper) for a scalar argument."""
    if issubclass(type(value), Scalar):
        return value._held
    if type(value) in (int, float, bool):
        return value
    if isinstance(value, int):  # a subclass: its plain value, without its own methods
        return int.__index__(value)
    if isinstance(value, float):
        return float.__float__(value)
    raise TypeError(f"expected a number, got '{type(value).__name__}'")


def dtype_of(value: Any) -> np.dtype | None:
    """A dtype argument: None, `np.float32`, `a.dtype`, `float`/`int`/`bool`, or a name."""
    if value is None:
        return None
    if isinstance(value, (DType, ScalarType)):
        return value._dt
    if isinstance(value, type) and value in _PY_TYPES:
        return ALLOWED_DTYPES[_PY_TYPES[value]]
    if type(value) is str:
        name = _ALIASES.get(value, value)
        if name in ALLOWED_DTYPES:
            return ALLOWED_DTYPES[name]
        raise TypeError(f"data type '{value}' not understood (scripts may use numeric dtypes)")
    raise TypeError(
        f"Cannot interpret '{value!r}' as a data type (scripts may use numeric dtypes: "
        "np.float32, 'int64', float...)"
        if isinstance(value, (type, str))
        else f"Cannot interpret '{type(value).__name__}' object as a data type"
    )


# ---- script values to raw numpy values --------------------------------------------------------


def _tensor_class() -> type | None:
    engine = sys.modules.get("autodiff_cli.engine")
    return getattr(engine, "Tensor", None)


def to_raw(value: Any) -> Any:
    """A script value as numpy input: a raw array or scalar, or a plain Python number."""
    kind = type(value)
    if issubclass(kind, NumpyWrapper):  # an array or a numpy scalar
        return value._held
    if kind in (int, float, bool):
        return value
    if kind is range:
        check_count(len(value), (len(value),))
        return np.arange(value.start, value.stop, value.step)
    if issubclass(kind, (list, tuple)):  # by the real type: `__class__` may lie
        count, nested = _nested(value, 0)
        check_count(count)
        array = np.array(nested)
        return checked_array(array)
    tensor = _tensor_class()
    if tensor is not None and issubclass(kind, tensor):
        return tensor.numpy(value)  # PyTorch's error for a tensor that requires grad
    if issubclass(kind, (int, float)):
        return number(value)
    if isinstance(value, complex):
        raise TypeError("complex numbers are not supported by numpy in scripts")
    raise TypeError(
        f"cannot convert '{type(value).__name__}' to a numpy array in scripts (numbers, "
        "lists and tuples of numbers, arrays and tensors only)"
    )


def _nested(value: Any, depth: int) -> tuple[int, Any]:
    """(element count, plain copy) of nested lists/tuples of numbers and arrays."""
    if depth > 64:
        raise ValueError("maximum supported dimension for an ndarray is 64")
    if issubclass(type(value), (list, tuple)):
        total, items = 0, []
        for item in _items(value):
            count, plain = _nested(item, depth + 1)
            total += count
            items.append(plain)
        return max(total, len(items)), items
    raw = to_raw(value)
    return (raw.size if isinstance(raw, np.ndarray) else 1), raw


def _items(value: Any) -> list[Any]:
    """The items of a list or tuple (or subclass) as the builtin stores them: a subclass's
    `__iter__`/`__len__` may lie."""
    if isinstance(value, list):
        return list(list.__iter__(value))
    return list(tuple.__iter__(value))


def checked_array(array: Any) -> Any:
    """`array` if its dtype is one scripts may hold, else TypeError."""
    if array.dtype.kind not in _ALLOWED_KINDS or array.dtype.str[1:] not in _NATIVE:
        raise TypeError(f"arrays of dtype {array.dtype} are not supported in scripts")
    return array


_NATIVE = frozenset(dt.str[1:] for dt in ALLOWED_DTYPES.values())


def wrap(value: Any) -> Any:
    """A raw numpy result as a script value (arrays, scalars; tuples/lists of them)."""
    if isinstance(value, np.ndarray):
        checked_array(value)
        return NdArray(value)
    if isinstance(value, np.generic):
        checked_array(np.asarray(value))
        return SCALAR_CLASSES[value.dtype.name](value)
    if type(value) in (int, float, bool):
        return value
    if isinstance(value, tuple):
        return tuple(wrap(v) for v in value)
    if isinstance(value, list):
        return [wrap(v) for v in value]
    raise TypeError(f"internal: numpy returned a '{type(value).__name__}'")


# ---- dtypes ----------------------------------------------------------------------------------


class DType:
    """`a.dtype`, `np.dtype('float32')`: prints as numpy's dtype."""

    __slots__ = ("_dt",)

    def __init__(self, dt: np.dtype) -> None:
        self._dt = dt

    name = property(lambda self: self._dt.name)
    itemsize = property(lambda self: self._dt.itemsize)
    kind = property(lambda self: self._dt.kind)
    char = property(lambda self: self._dt.char)
    type = property(lambda self: SCALAR_TYPES[self._dt.name])

    def __repr__(self) -> str:
        return repr(self._dt)

    def __str__(self) -> str:
        return str(self._dt)

    def __eq__(self, other: Any) -> bool:
        try:
            return self._dt == dtype_of(other)
        except TypeError:
            return False

    def __hash__(self) -> int:
        return hash(self._dt)


class ScalarType:
    """`np.float32`...: makes scalars (or casts arrays), works with `isinstance` and `dtype=`."""

    __slots__ = ("_dt",)

    def __init__(self, dt: np.dtype) -> None:
        self._dt = dt

    @boundary
    def __call__(self, value: Any = 0) -> Any:
        return wrap(self._dt.type(to_raw(value)))

    def __repr__(self) -> str:
        return f"<class 'numpy.{self._dt.type.__name__}'>"

    __str__ = __repr__

    def __instancecheck__(self, instance: Any) -> bool:
        return isinstance(instance, Scalar) and instance._held.dtype == self._dt

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, (ScalarType, DType)) and other._dt == self._dt

    def __hash__(self) -> int:
        return hash(self._dt)


SCALAR_TYPES = {name: ScalarType(dt) for name, dt in ALLOWED_DTYPES.items()}
DTYPES = {name: DType(dt) for name, dt in ALLOWED_DTYPES.items()}


# ---- operators shared by arrays and scalars ---------------------------------------------------


def _operand(value: Any) -> Any:
    """The raw right-hand operand, or NotImplemented (tensors take over, as in PyTorch)."""
    tensor = _tensor_class()
    if tensor is not None and isinstance(value, tensor):
        return NotImplemented
    try:
        return to_raw(value)
    except TypeError:
        return NotImplemented


def _shape(raw: Any) -> tuple:
    return getattr(raw, "shape", ())


def _with_tensor(op: Callable[[Any, Any], Any], mine: Any, tensor: Any, tensor_first: bool) -> Any:
    """`tensor op array` as PyTorch computes it: the array as a tensor of its dtype, a numpy
    scalar as a Python number."""
    if isinstance(mine, np.ndarray):
        mine = sys.modules["autodiff_cli.engine"].from_numpy(mine)
    else:
        mine = mine.item()
    return op(tensor, mine) if tensor_first else op(mine, tensor)


def _binary(
    op: Callable[[Any, Any], Any], reflected: bool = False, comparison: bool = False
) -> Callable[..., Any]:
    @boundary
    def method(self: Any, other: Any) -> Any:
        raw = _operand(other)
        if raw is NotImplemented:
            tensor = _tensor_class()
            scalar = type(self) is not NdArray
            if (
                tensor is not None
                and isinstance(other, tensor)
                and (reflected or comparison or scalar)
            ):
                mine = self._held
                return _with_tensor(op, mine, other, tensor_first=reflected)
            return NotImplemented
        mine = self._held
        check_broadcast(_shape(mine), _shape(raw))
        return wrap(op(raw, mine) if reflected else op(mine, raw))

    return method


def _inplace(op: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    @boundary
    def method(self: NdArray, other: Any) -> Any:
        raw = _operand(other)
        if raw is NotImplemented:
            return NotImplemented
        op(self._held, raw)
        return self

    return method


def _matmul_count(a: tuple, b: tuple) -> tuple:
    if not a or not b:
        return ()
    left = a if len(a) > 1 else (1, *a)
    right = b if len(b) > 1 else (*b, 1)
    try:
        batch = np.broadcast_shapes(left[:-2], right[:-2])
    except ValueError:
        return ()
    return (*batch, left[-2], right[-1])


def _matmul(reflected: bool) -> Callable[..., Any]:
    @boundary
    def method(self: Any, other: Any) -> Any:
        raw = _operand(other)
        if raw is NotImplemented:
            return NotImplemented
        left, right = (raw, self._held) if reflected else (self._held, raw)
        shape = _matmul_count(_shape(left), _shape(right))
        check_count(math.prod(shape), shape)
        return wrap(np.matmul(left, right))

    return method


_OPERATORS = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
    "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow,
    "and": operator.and_, "or": operator.or_, "xor": operator.xor,
    "lshift": operator.lshift, "rshift": operator.rshift,
}  # fmt: skip
_INPLACE = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide,
    "floordiv": np.floor_divide, "mod": np.remainder, "pow": np.power, "and": np.bitwise_and,
    "or": np.bitwise_or, "xor": np.bitwise_xor,
}  # fmt: skip
_COMPARISONS = {
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
    "gt": operator.gt, "ge": operator.ge,
}  # fmt: skip


def _inplace_op(ufunc: Any) -> Callable[[Any, Any], Any]:
    return lambda target, raw: ufunc(target, raw, out=target)


def _add_operators(cls: type, inplace: bool) -> None:
    for name, op in _OPERATORS.items():
        setattr(cls, f"__{name}__", _binary(op))
        setattr(cls, f"__r{name}__", _binary(op, reflected=True))
        if inplace and name in _INPLACE:
            setattr(cls, f"__i{name}__", _inplace(_inplace_op(_INPLACE[name])))
    for name, op in _COMPARISONS.items():
        setattr(cls, f"__{name}__", _binary(op, comparison=name == "eq"))
    cls.__matmul__ = _matmul(False)
    cls.__rmatmul__ = _matmul(True)


def _unary(op: Callable[[Any], Any]) -> Callable[..., Any]:
    @boundary
    def method(self: Any) -> Any:
        return wrap(op(self._held))

    return method


def _format(raw: Any, text: str, spec: str) -> str:
    if not spec:
        return text
    limits.check_format_spec(spec)
    if isinstance(raw, np.ndarray):
        if raw.ndim:
            raise TypeError("unsupported format string passed to numpy.ndarray.__format__")
        raw = raw[()]
    return format(raw.item(), spec)


# ---- scalars ---------------------------------------------------------------------------------


class Scalar(NumpyWrapper):
    """A numpy scalar (`np.float32(1.5)`): prints as numpy prints it; arithmetic as numpy's.
    The raw scalar is in the `_held` slot (the engine reads it there: `t[np.int64(2)]`). Unlike
    numpy's, `np.float64` is not a float subclass (the engine would take it for a float64
    operand, not a Python number)."""

    __slots__ = ()
    _held: np.generic

    def __init__(self, value: np.generic) -> None:
        self._held = value

    def __repr__(self) -> str:
        return printed(repr, self._held)

    def __str__(self) -> str:
        return printed(str, self._held)

    def __format__(self, spec: str) -> str:
        return _format(self._held, str(self._held), spec)

    def __bool__(self) -> bool:
        return bool(self._held)

    def __float__(self) -> float:
        return float(self._held)

    def __int__(self) -> int:
        return int(self._held)

    def __index__(self) -> int:
        return index(self)

    def __hash__(self) -> int:
        return hash(self._held)

    @boundary
    def __round__(self, ndigits: Any = None) -> Any:
        if ndigits is None:
            return round(self._held)
        return wrap(round(self._held, index(ndigits)))

    __neg__ = _unary(operator.neg)
    __pos__ = _unary(operator.pos)
    __abs__ = _unary(operator.abs)
    __invert__ = _unary(operator.invert)
    dtype = property(lambda self: DTYPES[self._held.dtype.name])
    shape = property(lambda self: ())
    ndim = property(lambda self: 0)
    size = property(lambda self: 1)
    itemsize = property(lambda self: self._held.dtype.itemsize)

    def item(self) -> Any:
        return self._held.item()

    def tolist(self) -> Any:
        return self._held.item()

    @boundary
    def astype(self, dtype: Any) -> Any:
        return wrap(self._held.astype(dtype_of(dtype)))

    def is_integer(self) -> bool:
        return float(self._held).is_integer()


_add_operators(Scalar, inplace=False)


def _scalar_reduction(name: str) -> Any:
    """`np.float32(1.5).mean()`: numpy scalars have the array reductions (of themselves)."""

    @boundary
    def reduction(self: Scalar) -> Any:
        return wrap(getattr(self._held, name)())

    reduction.__name__ = name
    return reduction


for _name in "mean sum prod max min std var any all argmax argmin cumsum conjugate".split():
    setattr(Scalar, _name, _scalar_reduction(_name))


def _scalar_class(name: str) -> type:
    cls = type(name, (Scalar,), {"__slots__": ()})
    cls.__module__ = "numpy"
    return cls


SCALAR_CLASSES: dict[str, type] = {name: _scalar_class(name) for name in ALLOWED_DTYPES}


# ---- arrays (`NdArray`, shown as `numpy.ndarray`) -----------------------------------------


def _key_part(part: Any) -> Any:
    """One component of an index, as a plain value numpy may see."""
    if part is None or part is Ellipsis or type(part) is bool:
        return part
    if type(part) is slice:
        return slice(*(None if v is None else index(v) for v in (part.start, part.stop, part.step)))
    if type(part) is NdArray or isinstance(part, list):
        raw = to_raw(part)
        if raw.dtype.kind not in "biu" and raw.size:
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        return raw if raw.size else raw.astype(np.intp)
    if isinstance(part, Scalar) and part._held.dtype.kind == "b":
        return bool(part._held)
    return index(part)


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
    check_count(picked * math.prod(shape) // max(1, _indexed_size(shape, parts)))


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
        options: dict[str, Any] = {"axis": axis_of(axis), "keepdims": bool(keepdims)}
        if dtype is not None:
            options["dtype"] = dtype_of(dtype)
        if "ddof" in extra:
            options["ddof"] = number(extra.pop("ddof"))
        if extra:
            raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(extra))}'")
        sizes.check_reduction(self._held.shape, options["axis"], options["keepdims"])
        return wrap(getattr(self._held, name)(**options))

    method.__name__ = name
    return method


def _arg_reduction(name: str) -> Any:
    @boundary
    def method(self: NdArray, axis: Any = None, keepdims: bool = False) -> Any:
        axis = axis_of(axis)
        sizes.check_reduction(self._held.shape, axis, bool(keepdims))
        return wrap(getattr(self._held, name)(axis=axis, keepdims=bool(keepdims)))

    method.__name__ = name
    return method


def _shape_args(args: tuple) -> tuple:
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    return tuple(index(a) for a in args)


class NdArray(NumpyWrapper):
    """A numpy array a script holds (see the module docstring); the raw array is in the `_held`
    slot (the engine reads it there: `t[np_index]`, `torch.Tensor(a)`, a DataLoader's batch)."""

    __slots__ = ()

    def __init__(self, array: np.ndarray) -> None:
        self._held = array

    # printing and conversion
    def __repr__(self) -> str:
        return printed(repr, self._held)

    def __str__(self) -> str:
        return printed(str, self._held)

    def __format__(self, spec: str) -> str:
        return _format(self._held, str(self), spec)

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
        return map(wrap, self._held)  # lazily: a long array is not copied into a list

    @boundary
    def __contains__(self, value: Any) -> bool:
        raw = to_raw(value)
        check_broadcast(self._held.shape, np.shape(raw))
        return bool((self._held == raw).any())

    __hash__ = None  # type: ignore[assignment]

    # indexing
    @boundary
    def __getitem__(self, key: Any) -> Any:
        raw_key = _key(key)
        _check_fancy(self._held.shape, raw_key)
        return wrap(self._held[raw_key])

    @boundary
    def __setitem__(self, key: Any, value: Any) -> None:
        self._held[_key(key)] = to_raw(value)

    __neg__ = _unary(operator.neg)
    __pos__ = _unary(operator.pos)
    __abs__ = _unary(operator.abs)
    __invert__ = _unary(operator.invert)

    # attributes
    shape = property(lambda self: self._held.shape)
    ndim = property(lambda self: self._held.ndim)
    size = property(lambda self: self._held.size)
    itemsize = property(lambda self: self._held.itemsize)
    nbytes = property(lambda self: self._held.nbytes)
    dtype = property(lambda self: DTYPES[self._held.dtype.name])
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
        return wrap(self._held.cumsum(axis=axis_of(axis)))

    @boundary
    def reshape(self, *shape: Any) -> NdArray:
        return NdArray(self._held.reshape(_shape_args(shape)))

    @boundary
    def transpose(self, *axes: Any) -> NdArray:
        return NdArray(self._held.transpose(_shape_args(axes) or None))

    @boundary
    def astype(self, dtype: Any) -> NdArray:
        return NdArray(self._held.astype(dtype_of(dtype)))

    def copy(self) -> NdArray:
        return NdArray(self._held.copy())

    def flatten(self) -> NdArray:
        return NdArray(self._held.flatten())

    def ravel(self) -> NdArray:
        return NdArray(self._held.ravel())

    @boundary
    def squeeze(self, axis: Any = None) -> NdArray:
        return NdArray(self._held.squeeze(axis=axis_of(axis)))

    @boundary
    def tolist(self) -> Any:
        sizes.check_extent(self._held.shape)
        return self._held.tolist()

    @boundary
    def item(self, *args: Any) -> Any:
        return self._held.item(*(index(a) for a in args))

    @boundary
    def fill(self, value: Any) -> None:
        self._held.fill(number(value))

    @boundary
    def clip(self, min: Any = None, max: Any = None) -> NdArray:  # noqa: A002 - numpy's names
        low = None if min is None else to_raw(min)
        high = None if max is None else to_raw(max)
        check_broadcast(self._held.shape, np.shape(low), np.shape(high))
        return wrap(np.clip(self._held, low, high))

    @boundary
    def round(self, decimals: Any = 0) -> Any:
        return wrap(self._held.round(index(decimals)))

    @boundary
    def dot(self, other: Any) -> Any:
        raw = to_raw(other)
        shape = _dot_shape(self._held.shape, np.shape(raw))
        check_count(math.prod(shape), shape)
        return wrap(np.dot(self._held, raw))

    @boundary
    def argsort(self, axis: Any = -1) -> NdArray:
        return NdArray(self._held.argsort(axis=axis_of(axis), kind="stable"))

    @boundary
    def sort(self, axis: Any = -1) -> None:
        self._held.sort(axis=axis_of(axis), kind="stable")


_add_operators(NdArray, inplace=True)
NdArray.__name__ = NdArray.__qualname__ = "ndarray"
NdArray.__module__ = "numpy"

# Scripts may hold these as soon as they exist: `t.numpy()` makes arrays before any script has
# imported numpy, and an attribute reader decided then is kept for the process.
for _cls in (NdArray, DType, ScalarType, *SCALAR_CLASSES.values()):
    typeview.register_wrapper_class(_cls)
del _cls


__all__ = [
    "DTYPES",
    "SCALAR_CLASSES",
    "SCALAR_TYPES",
    "DType",
    "NdArray",
    "Scalar",
    "ScalarType",
    "axis_of",
    "boundary",
    "check_broadcast",
    "check_count",
    "dtype_of",
    "index",
    "number",
    "shape_of",
    "to_raw",
    "wrap",
]
