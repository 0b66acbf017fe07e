"""PyTorch's dtype objects and its type-promotion rules, mapped onto numpy dtypes."""

from __future__ import annotations

from typing import Any

import numpy as np


class dtype:  # noqa: N801 - named as PyTorch names it
    """A tensor element type, printed as `torch.float32`."""

    __slots__ = ("name", "np", "is_floating_point", "is_signed", "itemsize", "_category")

    def __init__(self, name: str, np_dtype: type, category: int) -> None:
        self.name = name
        self.np = np.dtype(np_dtype)
        self._category = category  # 0 bool, 1 integer, 2 floating
        self.is_floating_point = category == 2
        self.is_signed = name != "uint8" and name != "bool"
        self.itemsize = self.np.itemsize

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self) -> str:
        return self.name


dtype.__module__ = "torch"
bool_ = dtype("bool", np.bool_, 0)
uint8 = dtype("uint8", np.uint8, 1)
int8 = dtype("int8", np.int8, 1)
int16 = dtype("int16", np.int16, 1)
int32 = dtype("int32", np.int32, 1)
int64 = dtype("int64", np.int64, 1)
float16 = dtype("float16", np.float16, 2)
float32 = dtype("float32", np.float32, 2)
float64 = dtype("float64", np.float64, 2)

ALL = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64)
BY_NUMPY = {d.np: d for d in ALL}
ALIASES = {
    "bool": bool_,
    "uint8": uint8,
    "int8": int8,
    "int16": int16,
    "short": int16,
    "int32": int32,
    "int": int32,
    "int64": int64,
    "long": int64,
    "float16": float16,
    "half": float16,
    "float32": float32,
    "float": float32,
    "float64": float64,
    "double": float64,
}

# The one table of dtype names PyTorch's messages use: the ScalarType ("Float"), the C++ type
# ("c10::Half", "long int"), the short C name ("half", "long"); the legacy tensor type is the
# ScalarType + "Tensor" ("torch.FloatTensor").
NAMES = {
    "bool": ("Bool", "bool", "bool"),
    "uint8": ("Byte", "unsigned char", "unsigned char"),
    "int8": ("Char", "signed char", "signed char"),
    "int16": ("Short", "short int", "short"),
    "int32": ("Int", "int", "int"),
    "int64": ("Long", "long int", "long"),
    "float16": ("Half", "c10::Half", "half"),
    "float32": ("Float", "float", "float"),
    "float64": ("Double", "double", "double"),
}
SCALAR_NAMES = {name: names[0] for name, names in NAMES.items()}


def _key(dt: Any) -> str:
    """`float32` for a numpy dtype, a torch dtype or their names."""
    return (
        dt.name if isinstance(dt, dtype) else str(np.dtype(dt)) if not isinstance(dt, str) else dt
    )


def scalar_name(dt: Any) -> str:
    """PyTorch's ScalarType name: `Float`, `Long`, `Bool`..."""
    key = _key(dt)
    return NAMES[key][0] if key in NAMES else key


def cpp_name(dt: Any) -> str:
    """The C++ type name some messages print: `float`, `c10::Half`, `long int`..."""
    key = _key(dt)
    return NAMES[key][1] if key in NAMES else key


def c_name(dt: Any) -> str:
    """The short C name other messages print: `float`, `half`, `long`..."""
    key = _key(dt)
    return NAMES[key][2] if key in NAMES else key


def legacy_type(dt: Any) -> str:
    """`FloatTensor`, `LongTensor`... (`Tensor` for a dtype outside the table)."""
    key = _key(dt)
    return NAMES[key][0] + "Tensor" if key in NAMES else "Tensor"


NP_FLOAT32 = float32.np
NP_INT64 = int64.np
NP_BOOL = bool_.np
# numpy's floating scalar types: a 0-d tensor's data is one of them, and its class tells it is
# floating sooner than `.dtype.kind` (a numpy scalar makes its dtype on each read: 53 -> 15 ns)
FLOAT_SCALAR_TYPES = frozenset({np.float16, np.float32, np.float64})
# numpy's floating dtypes, most common first: `dtype in FLOAT_DTYPES` finds an array's dtype by
# identity (10 ns) where `dtype.kind == "f"` reads an attribute of numpy's (25 ns). The fast
# paths that ask it leave the rest (a byte-swapped float dtype among them) to the general path.
FLOAT_DTYPES = (float32.np, float64.np, float16.np)


class _Defaults:
    float_dtype = float32


def get_default_dtype() -> dtype:
    return _Defaults.float_dtype


def set_default_dtype(d: dtype) -> None:
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _Defaults.float_dtype = d


def from_numpy(np_dtype: np.dtype) -> dtype:
    """The torch dtype of a numpy dtype (unsupported numpy types raise TypeError)."""
    try:
        return BY_NUMPY[np_dtype]
    except KeyError:
        raise TypeError(f"can't convert np.ndarray of type {np_dtype}.") from None


def to_numpy(d: dtype | None) -> np.dtype | None:
    if d is None:
        return None
    if isinstance(d, dtype):
        return d.np
    if d is float:
        return np.dtype(np.float64)
    if d is int:
        return NP_INT64
    if d is bool:
        return NP_BOOL
    raise TypeError(f"dtype must be torch.dtype, not {type(d).__name__}")


def category_of(np_dtype: np.dtype) -> int:
    kind = np_dtype.kind
    if kind == "f":
        return 2
    if kind == "b":
        return 0
    return 1


def promote_types(a: np.dtype, b: np.dtype) -> np.dtype:
    """torch.promote_types on numpy dtypes: bool < integers < floats, within a kind by width."""
    if a == b:
        return a
    ca, cb = category_of(a), category_of(b)
    if ca != cb:
        if ca == 0:
            return b
        if cb == 0:
            return a
        return a if ca > cb else b  # integer with float: the float type
    return np.promote_types(a, b)


def require_floating(dtype: np.dtype, kernel: str) -> None:
    """PyTorch's refusal of a kernel without an integer (or bool) version."""
    if dtype.kind != "f":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_name(dtype)}'")


_INT_RANGES: dict = {}  # integer dtype -> (min, max)


def wrapped_int(value: int, dtype: np.dtype) -> Any:
    """A Python int as PyTorch casts it beside an integer tensor of `dtype`: as it is when it
    fits, else modulo 2**bits (two's complement, as a C cast: int8 and 200 give -56); beyond 64
    bits Python's OverflowError. numpy refuses such a number instead."""
    bounds = _INT_RANGES.get(dtype)
    if bounds is None:
        info = np.iinfo(dtype)
        bounds = _INT_RANGES[dtype] = (int(info.min), int(info.max))
    if bounds[0] <= value <= bounds[1]:
        return value
    if not -(2**63) <= value < 2**64:
        raise OverflowError("int too big to convert")
    return np.array(value & 0xFFFF_FFFF_FFFF_FFFF, np.uint64).astype(dtype)[()]


def scalar_np_dtype(value: object) -> np.dtype:
    """The dtype a Python number takes when wrapped by PyTorch."""
    if isinstance(value, bool):
        return NP_BOOL
    if isinstance(value, int):
        return NP_INT64
    return _Defaults.float_dtype.np


def result_type(dim_dtypes: list, zero_dim_dtypes: list, scalar_dtypes: list) -> np.dtype:
    """PyTorch's result_type: tensors with dimensions outrank 0-d tensors, which outrank Python
    numbers, unless a lower-priority operand is of a higher category (bool < int < float)."""

    def fold(dtypes: list) -> np.dtype | None:
        out = None
        for d in dtypes:
            out = d if out is None else promote_types(out, d)
        return out

    def combine(higher: np.dtype | None, lower: np.dtype | None) -> np.dtype | None:
        if higher is None:
            return lower
        if lower is None:
            return higher
        if category_of(higher) == 2:
            return higher
        if category_of(higher) == 0 or category_of(lower) == 2:
            return promote_types(higher, lower)
        return higher

    scalar = fold(scalar_dtypes)
    if scalar is not None and category_of(scalar) == 2:
        scalar = _Defaults.float_dtype.np
    out = combine(fold(dim_dtypes), combine(fold(zero_dim_dtypes), scalar))
    return out if out is not None else _Defaults.float_dtype.np
