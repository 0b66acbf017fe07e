"""`functools` for scripts: `reduce`, `partial`, `lru_cache`/`cache`, `wraps`/`update_wrapper`,
`cmp_to_key`, `total_ordering`, written here so that no C object of `functools` (with its
`__setstate__`, unbounded nesting or module globals) reaches a script."""

from __future__ import annotations

import functools as _functools
import types
from collections.abc import Callable
from typing import Any

from autodiff_cli.lang import exact, limits
from autodiff_cli.lang.pylib.modules.collections_module import namedtuple
from autodiff_cli.lang.pylib.modules.registry import register_class
from autodiff_cli.lang.sandbox import typeview

_NO_INITIAL = object()


def reduce(function: Any, iterable: Any, initial: Any = _NO_INITIAL, /) -> Any:
    """`functools.reduce`, stopping at an interrupt between steps."""
    iterator = iter(iterable)
    if initial is _NO_INITIAL:
        try:
            value = next(iterator)
        except StopIteration:
            raise TypeError("reduce() of empty iterable with no initial value") from None
    else:
        value = initial
    interrupt = limits.Interrupt
    for item in iterator:
        if interrupt.pending is not None:
            limits.raise_interrupt()
        value = function(value, item)
    return value


class partial:
    """`functools.partial`: `func`, `args`, `keywords`; a partial of a partial is flattened (as
    CPython does), so calls never nest."""

    __slots__ = ("func", "args", "keywords", "__dict__", "__weakref__")  # a __dict__ as CPython's

    def __new__(cls, func: Any, /, *args: Any, **keywords: Any) -> partial:
        if not callable(func):
            raise TypeError("the first argument must be callable")
        if type(func) is partial:
            args = func.args + args
            keywords = {**func.keywords, **keywords}
            func = func.func
        limits.check_length(len(args) + len(keywords), "partial() arguments")
        self = object.__new__(cls)
        object.__setattr__(self, "func", func)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "keywords", keywords)
        return self

    def __call__(self, /, *args: Any, **keywords: Any) -> Any:
        return self.func(*self.args, *args, **{**self.keywords, **keywords})

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("func", "args", "keywords"):
            raise AttributeError(f"readonly attribute '{name}'")
        raise AttributeError(f"cannot set attribute '{name}' of 'functools.partial' in scripts")

    def __repr__(self) -> str:
        parts = [repr(self.func), *map(repr, self.args)]
        parts += [f"{key}={value!r}" for key, value in self.keywords.items()]
        return f"functools.partial({', '.join(parts)})"


register_class(partial, "func args keywords", module="functools")

CacheInfo = namedtuple("CacheInfo", ["hits", "misses", "maxsize", "currsize"])
CacheInfo.__module__ = "functools"


class _CacheWrapper:
    """What `lru_cache` returns: calls `__wrapped__` once per distinct arguments; `cache_info()`,
    `cache_clear()`; bound as a method when stored in a class."""

    __slots__ = ("_function", "_maxsize", "_typed", "_cache", "_hits", "_misses", "__dict__")

    def __init__(self, function: Any, maxsize: int | None, typed: bool) -> None:
        if not callable(function):
            raise TypeError("the first argument must be callable")
        self._function, self._maxsize, self._typed = function, maxsize, typed
        self._cache: dict[Any, Any] = {}
        self._hits = self._misses = 0
        for name in ("__name__", "__qualname__", "__doc__"):
            value = getattr(function, name, None)
            if isinstance(value, str) or (name == "__doc__" and value is None):
                self.__dict__[name] = value

    def _key(self, args: tuple, kwargs: dict) -> Any:
        if not kwargs and not self._typed and len(args) == 1 and type(args[0]) in (int, str):
            return args[0]  # as CPython: an int or str alone is its own key (1 and 1.0 differ)
        key: tuple = args
        if kwargs:
            key += (_KWD_MARK, *kwargs.items())
        if self._typed:
            key += tuple(type(v) for v in args) + tuple(type(v) for v in kwargs.values())
        return key

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        key = self._key(args, kwargs)
        cache = self._cache
        if key in cache:
            self._hits += 1
            value = cache.pop(key)
            cache[key] = value  # most recently used last
            return value
        self._misses += 1
        value = self._function(*args, **kwargs)
        if self._maxsize != 0:
            cache[key] = value
            if self._maxsize is not None and len(cache) > self._maxsize:
                del cache[next(iter(cache))]
        return value

    def cache_info(self) -> Any:
        _check_self(self, "cache_info")
        return CacheInfo(self._hits, self._misses, self._maxsize, len(self._cache))

    def cache_clear(self) -> None:
        _check_self(self, "cache_clear")
        self._cache.clear()
        self._hits = self._misses = 0

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        return self if obj is None else types.MethodType(self, obj)

    def __repr__(self) -> str:
        return f"<functools._lru_cache_wrapper object at {id(self):#x}>"


_KWD_MARK = object()


def _check_self(obj: Any, name: str) -> None:
    """Methods read from the class (`type(f).cache_clear(x)`) take only a cache wrapper."""
    if not isinstance(obj, _CacheWrapper):
        raise TypeError(
            f"descriptor '{name}' for 'functools._lru_cache_wrapper' objects doesn't apply to a "
            f"'{type(obj).__name__}' object"
        )


register_class(_CacheWrapper, "cache_info cache_clear", module="functools")
_CacheWrapper.__name__ = _CacheWrapper.__qualname__ = "_lru_cache_wrapper"


def lru_cache(maxsize: Any = 128, typed: bool = False) -> Any:
    """`functools.lru_cache`, as a decorator with or without arguments."""
    if callable(maxsize) and isinstance(typed, bool):
        return _CacheWrapper(maxsize, 128, typed)
    if maxsize is not None:
        if not isinstance(maxsize, int):
            raise TypeError("Expected first argument to be an integer, a callable, or None")
        maxsize = max(int(maxsize), 0)
    return lambda function: _CacheWrapper(function, maxsize, typed)


def cache(function: Any, /) -> Any:
    """`functools.cache`: `lru_cache(maxsize=None)`."""
    return _CacheWrapper(function, None, False)


_WRAPPED_NAMES = ("__name__", "__qualname__", "__doc__")


def update_wrapper(wrapper: Any, wrapped: Any, *args: Any, **kwargs: Any) -> Any:
    """`functools.update_wrapper` for what a script may change: a script function (or a cache
    wrapper) takes the name, qualified name and docstring of `wrapped`, and its public
    attributes."""
    own = _script_function(wrapper) or type(wrapper) is _CacheWrapper
    if not own:
        return wrapper
    for name in _WRAPPED_NAMES:
        value = getattr(wrapped, name, None)
        if isinstance(value, str):
            setattr(wrapper, name, exact.text(value))  # never a str subclass's methods
        elif name == "__doc__" and value is None:
            setattr(wrapper, name, value)
    extra = getattr(wrapped, "__dict__", None) if _script_function(wrapped) else None
    if isinstance(extra, dict):
        for key, value in extra.items():
            if type(key) is str and not key.startswith("_"):
                wrapper.__dict__.setdefault(key, value)
    wrapper.__dict__["__wrapped__"] = wrapped
    return wrapper


def _script_function(value: Any) -> bool:
    return type(value) is types.FunctionType and bool(value.__dict__.get(typeview.SCRIPT_MARK))


def wraps(wrapped: Any, *args: Any, **kwargs: Any) -> Callable[[Any], Any]:
    """`functools.wraps`: a decorator applying `update_wrapper`."""
    return lambda wrapper: update_wrapper(wrapper, wrapped)


def cmp_to_key(mycmp: Any) -> Any:
    """`functools.cmp_to_key` (CPython's own, which only calls `mycmp`)."""
    return _functools.cmp_to_key(mycmp)


_ORDERINGS = {
    "__lt__": (("__gt__", lambda a, b, lt: not lt and a != b),
               ("__le__", lambda a, b, lt: lt or a == b),
               ("__ge__", lambda a, b, lt: not lt)),
    "__le__": (("__ge__", lambda a, b, le: not le or a == b),
               ("__lt__", lambda a, b, le: le and a != b),
               ("__gt__", lambda a, b, le: not le)),
    "__gt__": (("__lt__", lambda a, b, gt: not gt and a != b),
               ("__ge__", lambda a, b, gt: gt or a == b),
               ("__le__", lambda a, b, gt: not gt)),
    "__ge__": (("__le__", lambda a, b, ge: not ge or a == b),
               ("__gt__", lambda a, b, ge: ge and a != b),
               ("__lt__", lambda a, b, ge: not ge)),
}  # fmt: skip


def total_ordering(cls: Any) -> Any:
    """`functools.total_ordering` for a script class: the missing comparisons from the one it
    defines (and `==`)."""
    if not isinstance(cls, type) or not typeview.is_script_class(cls):
        raise TypeError("total_ordering() in scripts takes a class the script defined")
    roots = [op for op in _ORDERINGS if getattr(cls, op, None) is not getattr(object, op, None)]
    if not roots:
        raise ValueError("must define at least one ordering operation: < > <= >=")
    root = min(roots, key=list(_ORDERINGS).index)  # as CPython: __lt__, __le__, __gt__, __ge__
    for name, rule in _ORDERINGS[root]:
        if name not in roots:
            setattr(cls, name, _derived(root, name, rule))
    return cls


def _derived(root: str, name: str, rule: Callable[[Any, Any, Any], bool]) -> Any:
    def compare(self: Any, other: Any) -> Any:
        result = getattr(type(self), root)(self, other)
        if result is NotImplemented:
            return result
        return rule(self, other, result)

    compare.__name__ = compare.__qualname__ = name
    return compare


def make_module(namespace: Any) -> dict[str, Any]:
    return {
        "reduce": reduce,
        "partial": partial,
        "lru_cache": lru_cache,
        "cache": cache,
        "wraps": wraps,
        "update_wrapper": update_wrapper,
        "cmp_to_key": cmp_to_key,
        "total_ordering": total_ordering,
        "WRAPPER_ASSIGNMENTS": ("__module__", "__name__", "__qualname__", "__doc__"),
        "WRAPPER_UPDATES": ("__dict__",),
    }
