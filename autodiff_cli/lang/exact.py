"""Script values read by the builtin's own methods, never by the object's.

A `str` subclass can override `startswith`, `__len__`, `count`, `__eq__`, `__hash__`...; a
security decision (an attribute name, a size) must not ask it. These helpers return exact
builtin copies (`str.__str__` of a subclass instance is an exact `str` copy of its characters,
made without running any of the subclass's methods) or measure with the builtin's method.
"""

from __future__ import annotations

from collections import deque
from typing import Any


def text(value: Any) -> str:
    """The exact `str` holding `value`'s characters (a `str` or a subclass), else TypeError."""
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    raise TypeError(f"expected str, not '{type(value).__name__}'")


def text_or_bytes(value: Any) -> Any:
    """An exact `str` or `bytes` copy of `value` (either or a subclass), else `value` as is."""
    kind = type(value)
    if kind is str or kind is bytes:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bytes):
        return bytes(memoryview(value))
    return value


def length(value: Any) -> int | None:
    """`len(value)` by the builtin's own length for str/bytes/list/tuple/dict/set/deque (or
    subclasses: their `__len__` may lie), else None."""
    for kind in _SIZED:
        if isinstance(value, kind):
            return kind.__len__(value)
    return None


_SIZED = (str, bytes, bytearray, list, tuple, dict, set, frozenset, deque)
