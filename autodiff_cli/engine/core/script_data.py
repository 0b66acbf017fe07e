"""The one way data from outside the engine becomes numpy input: `torch.tensor(data)`,
`new_tensor`, `torch.full`'s and `fill_`'s values, `masked_fill`/`scatter` values, values
assigned by indexing, `grad_outputs` and vjp vectors (all through `tensor`).

numpy reads `__array_interface__`, `__array_struct__` and `__array__` of any object it is
given and trusts the memory they describe; it also believes `__class__`, `__len__` and
`__iter__`. So a value is accepted by its exact type only: Python numbers (`bool`, `int`,
`float`; subclasses of int and float as their plain value, read without their methods),
lists and tuples of them (read by the builtin's own iterator, nested at most 64 deep, at most
the element cap of items), tensors, and raw numpy arrays and scalars (only the engine and the
language's numpy bridge hold those). Anything else is a TypeError before numpy sees it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import limits
from .tensor import Tensor

MAX_DEPTH = 64  # numpy's own limit of dimensions
_PLAIN = (bool, int, float)
# Set by the language on every class a script defines (`lang.typeview.SCRIPT_MARK`); a script
# cannot define it itself, nor fake it with `__module__`, so it tells script objects apart.
SCRIPT_MARK = "__autodiff_script__"
# op parameter types that reach formulas as they are
_PLAIN_PARAMS = frozenset({bool, int, float, str, type(None), complex, slice, type(Ellipsis)})
_KEPT_PARAMS = _PLAIN_PARAMS | {np.ndarray}  # (`_param` gives these back as they are)


def number(value: Any, what: str = "value") -> Any:
    """`value` as a plain Python number (or a raw numpy scalar), else TypeError."""
    kind = type(value)
    if kind is float or kind is int or kind is bool:
        return value
    if kind.__module__ == "numpy" and issubclass(kind, np.generic):
        return value
    if issubclass(kind, int):  # a subclass: its plain value, no `__index__` of its own
        return int.__index__(value)
    if issubclass(kind, float):
        return float.__float__(value)
    if kind is complex:
        raise TypeError("complex tensors are not supported")
    raise TypeError(f"{what} must be a number, not '{kind.__name__}'")


def operand(value: Any, op_name: str) -> Any:
    """A non-Tensor input of an op (`apply_op`): a number, None, or the engine's raw numpy
    data; anything else (a script object numpy would read) is a TypeError."""
    kind = type(value)
    if kind in _PLAIN or value is None or kind is np.ndarray:
        return value
    if kind.__module__ == "numpy" and issubclass(kind, np.generic):
        return value
    if issubclass(kind, (int, float)) and kind is not complex:
        return number(value)
    raise TypeError(f"{op_name}(): expected a Tensor or a number, not '{kind.__name__}'")


def is_script_object(value: Any) -> bool:
    """Whether `value`'s class, or one of its bases, is a class a script defined."""
    return any(SCRIPT_MARK in vars(klass) for klass in type(value).__mro__)


def params(values: dict | None, op_name: str) -> dict | None:
    """An op's parameters (`alpha`, `value`, `pad`...) as its formulas may use them. Formulas
    compute with them on the engine's raw arrays (`alpha * np.expm1(x)`), so a script's number
    subclass or object would have its `__mul__` called with those arrays: a script's int or
    float subclass becomes its plain value, a script's list or tuple subclass a plain one, and
    any other script object is a TypeError."""
    if not values:
        return values
    for value in values.values():
        kind = type(value)
        if kind in _KEPT_PARAMS or (
            kind is tuple and (_PLAIN_PARAMS.issuperset(map(type, value)) or _plain_pairs(value))
        ):
            continue  # (a shape, stride or dims tuple: immutable, of plain items; the op's arrays)
        break
    else:
        return values
    return {name: _param(value, name, op_name, 0) for name, value in values.items()}


def _plain_pairs(value: tuple) -> bool:
    """A tuple of plain items and tuples of plain items (a convolution's padding pairs): what
    `_param` would rebuild equal, so it is kept as it is."""
    return all(
        type(item) in _PLAIN_PARAMS
        or (type(item) is tuple and _PLAIN_PARAMS.issuperset(map(type, item)))
        for item in value
    )


def _param(value: Any, name: str, op_name: str, depth: int) -> Any:
    kind = type(value)
    if kind in _PLAIN_PARAMS:
        return value
    if issubclass(kind, (list, tuple)) and depth < MAX_DEPTH:
        items = list.__iter__(value) if issubclass(kind, list) else tuple.__iter__(value)
        plain = [_param(item, name, op_name, depth + 1) for item in items]
        return plain if issubclass(kind, list) else tuple(plain)
    if not is_script_object(value):
        return value  # the engine's own values (arrays, dtypes, tensors, generators...)
    if issubclass(kind, (int, float)):
        return number(value)
    raise TypeError(f"{op_name}(): argument '{name}' must be a number, not '{kind.__name__}'")


def nested(value: Any, *, data: bool = False) -> Any:
    """`value` as nested lists of plain numbers and raw numpy data (tensors as their lists),
    ready for `np.array`; TypeError for anything else, MemoryError past the element cap.
    With `data` (a tensor's data, `torch.tensor([...])`), PyTorch's rules for what a sequence
    holds: a tensor in it is one number (`item()`: one element only), and a str where the
    shape is read (the first item at each level) has too many dimensions."""
    counter = [0, limits.get_max_elements()]
    return _nested(value, 0, counter, data, True)


def _nested(value: Any, depth: int, counter: list, data: bool, first: bool) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return _count(value, 1, counter)
    if issubclass(kind, (list, tuple)):
        if depth >= MAX_DEPTH:
            raise ValueError(f"too many dimensions: data nested deeper than {MAX_DEPTH} levels")
        items = list.__iter__(value) if issubclass(kind, list) else tuple.__iter__(value)
        return _count(
            [
                _nested(item, depth + 1, counter, data, first and i == 0)
                for i, item in enumerate(items)
            ],
            1,
            counter,
        )
    tensor = _tensor_class()
    if issubclass(kind, tensor):
        array = value._data
        if data and depth:
            if np.size(array) != 1:
                raise ValueError("only one element tensors can be converted to Python scalars")
            return _count(np.asarray(array).reshape(()).tolist(), 1, counter)
        return _count(np.asarray(array).tolist(), np.size(array), counter)
    if kind is np.ndarray or (kind.__module__ == "numpy" and issubclass(kind, np.generic)):
        return _count(value, value.size, counter)
    if kind is complex:
        raise TypeError("complex tensors are not supported")
    if issubclass(kind, (int, float)):
        return _count(number(value), 1, counter)
    if data and depth and first and kind is str:
        raise ValueError("too many dimensions 'str'")
    raise TypeError(f"new(): invalid data type '{kind.__name__}'")


def _count(result: Any, size: int, counter: list) -> Any:
    counter[0] += size
    if counter[0] > counter[1]:
        limits.check_elements(counter[0])
    return result


class NumpyWrapper:
    """The base of a layer above's wrappers around one raw numpy array or scalar (the script
    language's `numpy.ndarray` and numpy scalars, which scripts hold instead of numpy's own
    objects). The engine reads such a wrapper as numpy data where PyTorch reads a numpy array:
    an index (`t[a]`, `t[mask] = 0`), a legacy constructor's data (`torch.Tensor(a)`), a
    DataLoader's batch. It never names the wrapper classes: a value is one if its real type
    (`type()`, never `__class__`) derives from this class, and the engine reads its raw value
    from this class's own slot (no method of the wrapper runs), taken only if that value's
    exact type is numpy's array or a numpy scalar (`unwrapped`)."""

    __slots__ = ("_held",)


_HELD_SLOT = NumpyWrapper._held  # the slot's descriptor: reads the value, whatever the subclass


def unwrapped(value: Any) -> Any:
    """The raw numpy array or scalar a `NumpyWrapper` holds; any other value as it is."""
    if not issubclass(type(value), NumpyWrapper):
        return value
    raw = _HELD_SLOT.__get__(value, NumpyWrapper)
    kind = type(raw)
    if kind is np.ndarray or (kind.__module__ == "numpy" and issubclass(kind, np.generic)):
        return raw
    raise TypeError(f"a wrapped numpy value holds a '{kind.__name__}'")


def unwrapped_index(index: Any) -> Any:
    """An index with its numpy wrappers (the whole index, or parts of a tuple) read as raw
    numpy data; any other index as it is (the common case: one type check per part)."""
    if type(index) is tuple:
        for part in index:
            if issubclass(type(part), NumpyWrapper):
                return tuple(unwrapped(p) for p in index)
        return index
    return unwrapped(index)


def _tensor_class() -> type:
    return Tensor
