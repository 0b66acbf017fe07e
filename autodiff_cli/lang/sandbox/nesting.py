"""Bounded nesting of lazy iterators and hashed data, where C code would recurse without a limit.

`map(f, map(f, ...))` nested a million deep, or generator expressions over each other, make the
first `next()` recurse in C until the stack overflows; so does `hash()` of a tuple nested a
million deep. The script's `map`/`filter`/`zip`/`enumerate` and its generator expressions record
how deep they are nested and refuse to go past `MAX_ITERATOR_NESTING` (a RecursionError, as
Python gives for deep Python recursion); `checked_hash` measures tuples before hashing them.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any

from autodiff_cli.lang.sandbox import typeview

MAX_ITERATOR_NESTING = 1000
MAX_HASH_NESTING = 10_000
_generator_depths: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()


def depth_of(value: Any) -> int:
    """How many tracked lazy iterators `value` is (0 for anything else)."""
    if type(value) in typeview.SCRIPT_ITERATOR_CLASSES:
        return value._depth
    try:
        return _generator_depths.get(value, 0)
    except TypeError:  # unhashable or not weak-referenceable: not one of ours
        return 0


def nested_depth(sources: Iterable[Any]) -> int:
    """The depth of a new lazy iterator reading `sources`; refused past the limit."""
    depth = 1 + max((depth_of(source) for source in sources), default=0)
    if depth > MAX_ITERATOR_NESTING:
        raise RecursionError(
            f"iterators nested more than {MAX_ITERATOR_NESTING} deep (map/filter/zip/enumerate "
            "or generator expressions over each other)"
        )
    return depth


def track_generator(generator: Any, source: Any) -> Any:
    """Record the depth of a generator expression reading `source`; returns `generator`."""
    _generator_depths[generator] = nested_depth((source,))
    return generator


def _make_iterator_class(builtin: type, first_source: int, last_source: int | None) -> type:
    """A subclass of `map`/`filter`/`zip`/`enumerate` that records its nesting depth; the
    iterators it reads are `args[first_source:last_source]` (and keyword arguments)."""

    def __new__(cls: type, *args: Any, **kwargs: Any) -> Any:
        depth = nested_depth([*args[first_source:last_source], *kwargs.values()])
        self = builtin.__new__(cls, *args, **kwargs)
        self._depth = depth
        return self

    cls = type(builtin.__name__, (builtin,), {"__slots__": ("_depth",), "__new__": __new__})
    cls.__module__ = "builtins"
    cls.__qualname__ = builtin.__name__
    typeview.register_iterator_class(cls)
    return cls


ScriptMap = _make_iterator_class(map, 1, None)
ScriptFilter = _make_iterator_class(filter, 1, 2)
ScriptZip = _make_iterator_class(zip, 0, None)
ScriptEnumerate = _make_iterator_class(enumerate, 0, 1)


def checked_hash(value: Any) -> int:
    """`hash(value)`, refusing tuples nested deeper than `MAX_HASH_NESTING` (C recursion)."""
    if isinstance(value, tuple):
        _check_tuple_depth(value)
    return hash(value)


def _check_tuple_depth(value: tuple) -> None:
    stack = [(value, 1)]
    seen: set[int] = set()
    while stack:
        item, depth = stack.pop()
        if depth > MAX_HASH_NESTING:
            raise RecursionError("maximum recursion depth exceeded while hashing a nested tuple")
        for child in item:
            if isinstance(child, tuple) and id(child) not in seen:
                seen.add(id(child))
                stack.append((child, depth + 1))
