"""The attributes scripts may use on builtin values, and bounded versions of the risky methods.

Each builtin type has an explicit allow-list. Methods that can allocate without bound (padding,
`replace`, `join`, `translate`, `expandtabs`, `to_bytes`) or walk attributes (`format`,
`format_map`) are replaced by checked versions, bound (`s.ljust(n)`) and unbound (`str.ljust(s,
n)`, `super().ljust(n)` in `class S(str)`) alike, so no way of reaching them skips the checks.
"""

from __future__ import annotations

import _string
import string  # imported now: a locked-down child process cannot open files later
from collections.abc import Callable
from typing import Any

from autodiff_cli.lang import exact, limits

_TEXT = (
    "capitalize center count endswith expandtabs find index isalnum isalpha isascii isdigit "
    "islower isspace istitle isupper join ljust lower lstrip maketrans partition removeprefix "
    "removesuffix replace rfind rindex rjust rpartition rsplit rstrip split splitlines "
    "startswith strip swapcase title translate upper zfill"
)
_INT = "bit_length bit_count conjugate denominator numerator imag real to_bytes from_bytes as_integer_ratio"
_SET = "copy difference intersection isdisjoint issubset issuperset symmetric_difference union"
ALLOWED: dict[type, frozenset[str]] = {
    kind: frozenset(names.split())
    for kind, names in {
        str: f"{_TEXT} casefold encode format format_map isdecimal isidentifier isnumeric isprintable",
        bytes: f"{_TEXT} decode fromhex hex",
        int: _INT,
        bool: _INT,
        float: "as_integer_ratio conjugate fromhex hex imag is_integer real",
        complex: "conjugate imag real",
        list: "append clear copy count extend index insert pop remove reverse sort",
        tuple: "count index",
        dict: "clear copy fromkeys get items keys pop popitem setdefault update values",
        set: f"{_SET} add clear difference_update discard intersection_update pop remove "
        "symmetric_difference_update update",
        frozenset: _SET,
        slice: "indices start step stop",
        range: "count index start step stop",
        type({}.keys()): "isdisjoint",
        type({}.items()): "isdisjoint",
        property: "deleter fdel fget fset getter setter",
    }.items()
}  # fmt: skip
# Attributes of exceptions (all plain values): `e.args`, StopIteration's `value`, ...
EXCEPTION_ATTRIBUTES = frozenset(
    "args value code name encoding reason start end object "
    "msg lineno offset text filename end_lineno end_offset".split()  # SyntaxError's (eval)
)

_PADDING = frozenset({"ljust", "rjust", "center", "zfill"})
CHECKED_NAMES = _PADDING | {"expandtabs", "replace", "join", "translate", "to_bytes", "format",
                            "format_map", "extend"}  # fmt: skip


def allow_methods(kind: type, names: frozenset[str]) -> None:
    """Scripts may call `names` on instances of `kind` (a library class: `collections.deque`)."""
    ALLOWED[kind] = names


def allowed_names(kind: type) -> frozenset[str] | None:
    """The allow-list of the builtin type `kind` (or of its nearest builtin base), if any."""
    for base in kind.__mro__:
        names = ALLOWED.get(base)
        if names is not None:
            return names
    return None


GetterMaker = Callable[[str], Callable[[Any], Any]]


def checked_method(
    owner: type, name: str, self: Any, make_getter: GetterMaker
) -> Callable[..., Any]:
    """The bounded version of `owner.name` bound to `self` (an instance of `owner`);
    `make_getter(name)` reads attributes for `str.format`'s `{0.attr}` fields (the sandbox's
    attribute rules: `capabilities.make_getter`)."""
    formatting = _FORMATTING.get(name)
    if formatting is not None:
        return formatting(self, make_getter)
    return _CHECKERS[name](getattr(owner, name), self)


_MISSING = object()


def checked_unbound(owner: type, name: str, make_getter: GetterMaker) -> Callable[..., Any]:
    """`owner.name` called as `owner.name(self, ...)`, with the checks of the bound method."""

    def unbound(self: Any = _MISSING, *args: Any, **kwargs: Any) -> Any:
        if self is _MISSING:
            raise TypeError(f"unbound method {owner.__name__}.{name}() needs an argument")
        if not issubclass(type(self), owner):
            raise TypeError(
                f"descriptor '{name}' for '{owner.__name__}' objects doesn't apply to a "
                f"'{type(self).__name__}' object"
            )
        return checked_method(owner, name, self, make_getter)(*args, **kwargs)

    unbound.__name__ = unbound.__qualname__ = name
    return unbound


def _padding(method: Callable[..., Any], self: Any) -> Callable[..., Any]:
    def pad(width: Any, *args: Any) -> Any:
        return method(self, limits.checked_width(width), *args)

    return pad


def _expandtabs(method: Callable[..., Any], self: Any) -> Callable[..., Any]:
    def expandtabs(tabsize: Any = 8) -> Any:
        size = limits.checked_width(tabsize)
        text = exact.text_or_bytes(self)  # measured on an exact copy: `count`/`len` may lie
        tabs = text.count("\t" if type(text) is str else b"\t")
        limits.check_length(len(text) + tabs * size, "expanded string")
        return method(text, size)

    return expandtabs


def _replace(method: Callable[..., Any], self: Any) -> Callable[..., Any]:
    def replace(old: Any, new: Any, count: Any = -1) -> Any:
        limit = limits.repeat_count(count)
        text, old, new = (
            exact.text_or_bytes(self),
            exact.text_or_bytes(old),
            exact.text_or_bytes(new),
        )
        if type(old) in _TEXT_TYPES and type(new) in _TEXT_TYPES and len(new) > len(old):
            found = text.count(old) if old else len(text) + 1
            if limit is not None and limit >= 0:
                found = min(found, limit)
            limits.check_length(len(text) + found * (len(new) - len(old)), "replaced string")
        return method(text, old, new, count if limit is None else limit)

    return replace


_TEXT_TYPES = (str, bytes)


def _join(method: Callable[..., Any], self: Any) -> Callable[..., Any]:
    def join(iterable: Any) -> Any:
        # an exact list of exact strings: the sizes measured are the ones joined
        items = [exact.text_or_bytes(item) for item in iterable]
        separator = exact.text_or_bytes(self)
        total = len(separator) * max(len(items) - 1, 0)
        for item in items:
            if type(item) in _TEXT_TYPES:
                total += len(item)
        limits.check_length(total, "joined string")
        return method(separator, items)

    return join


def _translate(method: Callable[..., Any], self: Any) -> Callable[..., Any]:
    def translate(table: Any, *args: Any) -> Any:
        text = exact.text_or_bytes(self)
        if type(text) is str:
            if not isinstance(table, dict):
                raise TypeError("str.translate() in scripts takes a dict (see str.maketrans)")
            table = {key: exact.text_or_bytes(v) for key, v in dict.items(table)}
            longest = max((len(v) for v in table.values() if type(v) is str), default=1)
            limits.check_length(len(text) * longest, "translated string")
        return method(text, table, *args)

    return translate


def _to_bytes(method: Callable[..., Any], self: Any) -> Callable[..., Any]:
    def to_bytes(length: Any = 1, *args: Any, **kwargs: Any) -> Any:
        return method(self, limits.checked_width(length), *args, **kwargs)

    return to_bytes


def _extend(method: Callable[..., Any], self: Any) -> Callable[..., Any]:
    """`list.extend`, refused past the cap when the addition's size is known (`x.extend(x)`
    doubles a list as `x += x` does); sizes by the builtin's own length."""

    def extend(iterable: Any) -> None:
        added = exact.length(iterable)
        if added is None and isinstance(iterable, range):
            added = len(iterable)
        if added is not None:
            limits.check_length(exact.length(self) + added, f"'{type(self).__name__}'")
        return method(self, iterable)

    return extend


def _format(self: Any, make_getter: GetterMaker) -> Callable[..., Any]:
    def format(*args: Any, **kwargs: Any) -> str:  # noqa: A001
        return safe_format(exact.text(self), args, kwargs, make_getter)

    return format


def _format_map(self: Any, make_getter: GetterMaker) -> Callable[..., Any]:
    def format_map(mapping: Any) -> str:
        return safe_format(exact.text(self), (), mapping, make_getter)

    return format_map


_FORMATTING: dict[str, Callable[[Any, GetterMaker], Callable[..., Any]]] = {
    "format": _format, "format_map": _format_map,
}  # fmt: skip


_CHECKERS: dict[str, Callable[[Callable[..., Any], Any], Callable[..., Any]]] = {
    **dict.fromkeys(_PADDING, _padding),
    "expandtabs": _expandtabs, "replace": _replace, "join": _join, "translate": _translate,
    "to_bytes": _to_bytes, "extend": _extend,
}  # fmt: skip


def _formatter_class() -> type:  # built on first use
    global _FORMATTER_CLASS
    if _FORMATTER_CLASS is None:

        class SafeFormatter(string.Formatter):
            """`str.format` whose `{0.attr}` / `{0[key]}` fields obey the attribute rules."""

            def __init__(self, make_getter: GetterMaker) -> None:
                self.make_getter = make_getter

            def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
                first, rest = _string.formatter_field_name_split(field_name)
                obj = self.get_value(first, args, kwargs)
                for is_attribute, key in rest:
                    obj = self.make_getter(key)(obj) if is_attribute else obj[key]
                return obj, first

            def format_field(self, value: Any, format_spec: str) -> Any:
                limits.check_format_spec(format_spec)
                return format(value, format_spec)

        _FORMATTER_CLASS = SafeFormatter
    return _FORMATTER_CLASS


_FORMATTER_CLASS: type | None = None


def safe_format(template: str, args: Any, kwargs: Any, make_getter: GetterMaker) -> str:
    """`template.format(*args, **kwargs)` under the sandbox's attribute rules (`make_getter`
    reads `{0.attr}` fields) and size limits."""
    if not isinstance(template, str):
        raise TypeError(f"format() template must be str, not {type(template).__name__}")
    return _formatter_class()(make_getter).vformat(exact.text(template), args, kwargs)
