"""`collections` for scripts: `defaultdict`, `OrderedDict`, `Counter`, `deque` (subclasses of
CPython's, printed the same, with bounded repetition and counts) and `namedtuple` (classes built
here without `exec`)."""

from __future__ import annotations

import collections as _collections
import keyword
import operator
from typing import Any

from autodiff_cli.lang import exact, limits
from autodiff_cli.lang.pylib.modules.registry import register_class

# CPython's own: nothing to bound, and `isinstance(model.state_dict(), OrderedDict)` holds as in
# PyTorch (the engine's OrderedDict and defaultdict derive from them).
defaultdict = _collections.defaultdict
OrderedDict = _collections.OrderedDict


class Counter(_collections.Counter):
    """`collections.Counter`; `elements()` refuses a total past the element cap; operators give
    this class (CPython's make a plain `collections.Counter`)."""

    def elements(self) -> Any:
        total = sum(count for count in self.values() if isinstance(count, int) and count > 0)
        limits.check_length(total, "Counter.elements()")
        return super().elements()


def _own_counter(name: str) -> Any:
    method = getattr(_collections.Counter, name)

    def operator_method(self: Any, *args: Any) -> Any:
        result = method(self, *args)
        if type(result) is _collections.Counter:
            result = Counter(result)
        return result

    operator_method.__name__ = operator_method.__qualname__ = name
    return operator_method


for _name in ("__add__", "__sub__", "__or__", "__and__", "__pos__", "__neg__"):
    setattr(Counter, _name, _own_counter(_name))


class deque(_collections.deque):  # noqa: N801 - the name scripts see
    """`collections.deque`; repetition, `+` and `extend` refuse results past the element cap."""

    __slots__ = ()

    def _check_grow(self, extra: Any, what: str) -> None:
        if hasattr(extra, "__len__") and not isinstance(extra, type):
            size = len(self) + len(extra)
            if self.maxlen is None or size <= self.maxlen:
                limits.check_length(size, what)

    def __mul__(self, count: Any) -> Any:
        times = limits.repeat_count(count)
        if times is not None and self.maxlen is None:
            limits.check_length(len(self) * times, "'deque' repetition")
        return super().__mul__(count)

    __rmul__ = __mul__

    def __imul__(self, count: Any) -> Any:
        times = limits.repeat_count(count)
        if times is not None and self.maxlen is None:
            limits.check_length(len(self) * times, "'deque' repetition")
        return super().__imul__(count)

    def __add__(self, other: Any) -> Any:
        self._check_grow(other, "'deque'")
        return super().__add__(other)

    def __iadd__(self, other: Any) -> Any:
        self._check_grow(other, "'deque'")
        return super().__iadd__(other)

    def extend(self, iterable: Any) -> None:
        self._check_grow(iterable, "'deque'")
        super().extend(iterable)

    def extendleft(self, iterable: Any) -> None:
        self._check_grow(iterable, "'deque'")
        super().extendleft(iterable)


_DEQUE = (
    "append appendleft clear copy count extend extendleft index insert maxlen pop popleft "
    "remove reverse rotate"
)
register_class(defaultdict, "default_factory", module="collections", base=True)
register_class(OrderedDict, "move_to_end", module="collections", base=True)
register_class(Counter, "most_common elements subtract total", module="collections", base=True,
               also=(_collections.Counter,))  # fmt: skip
register_class(deque, _DEQUE, module="collections", base=True, also=(_collections.deque,))


# ---- namedtuple ------------------------------------------------------------------------------

_TUPLE_NAMES = "_asdict _replace _fields _make _field_defaults count index"


def _text(value: Any) -> str:
    """`str(value)` as an exact `str` (a script `__str__` may return a str subclass)."""
    return exact.text(value if isinstance(value, str) else str(value))


def _field_names(typename: Any, field_names: Any, rename: bool) -> tuple[str, list[str]]:
    if isinstance(field_names, str):
        field_names = exact.text(field_names).replace(",", " ").split()
    # exact copies of the texts: a str subclass's `startswith`/`isidentifier` would pass
    # `__class__` or `__getattr__` as a field name
    names = [_text(name) for name in field_names]
    limits.check_length(len(names), "namedtuple() fields")
    typename = _text(typename)
    if rename:
        seen: set[str] = set()
        for index, name in enumerate(names):
            if (
                not name.isidentifier()
                or keyword.iskeyword(name)
                or name.startswith("_")
                or name in seen
            ):
                names[index] = f"_{index}"
            seen.add(name)
    for name in [typename, *names]:
        if not name.isidentifier():
            raise ValueError(f"Type names and field names must be valid identifiers: {name!r}")
        if keyword.iskeyword(name):
            raise ValueError(f"Type names and field names cannot be a keyword: {name!r}")
    seen = set()
    for name in names:
        if name.startswith("_") and not rename:
            raise ValueError(f"Field names cannot start with an underscore: {name!r}")
        if name in seen:
            raise ValueError(f"Encountered duplicate field name: {name!r}")
        seen.add(name)
    return typename, names


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _binder(typename: str, names: list[str], defaults: dict[str, Any]) -> Any:
    """`bind(args, kwargs) -> tuple` with the errors of the `__new__` CPython generates."""
    n = len(names)
    required = n - len(defaults)

    def bind(args: tuple, kwargs: dict) -> tuple:
        if len(args) > n:
            takes = f"from {required + 1} to {n + 1}" if defaults else f"{n + 1}"
            plural = "s" if n + 1 != 1 or defaults else ""
            given = "was" if len(args) + 1 == 1 else "were"
            raise TypeError(
                f"{typename}.__new__() takes {takes} positional argument{plural} but "
                f"{len(args) + 1} {given} given"
            )
        values = dict(zip(names, args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError(f"{typename}.__new__() got an unexpected keyword argument {key!r}")
            if key in values:
                raise TypeError(f"{typename}.__new__() got multiple values for argument {key!r}")
            values[key] = value
        missing = [name for name in names if name not in values and name not in defaults]
        if missing:
            quoted = [f"'{name}'" for name in missing]
            listed = (
                " and ".join(quoted)
                if len(quoted) < 3
                else ", ".join(quoted[:-1]) + ", and " + quoted[-1]  # CPython's comma
            )
            raise TypeError(
                f"{typename}.__new__() missing {len(missing)} required positional "
                f"argument{'s' if len(missing) > 1 else ''}: {listed}"
            )
        return tuple(values[name] if name in values else defaults[name] for name in names)

    return bind


def namedtuple(
    typename: Any,
    field_names: Any,
    *,
    rename: bool = False,
    defaults: Any = None,
    module: Any = None,
) -> type:
    """`collections.namedtuple`: a tuple subclass with named fields, `_asdict`, `_replace`,
    `_make`, `_fields`, `_field_defaults`, built without `exec` (`module` is ignored: the class
    belongs to `__main__`)."""
    typename, names = _field_names(typename, field_names, rename)
    defaults = tuple(defaults) if defaults is not None else ()
    if len(defaults) > len(names):
        raise TypeError("Got more default values than field names")
    field_defaults = dict(reversed(list(zip(reversed(names), reversed(defaults)))))
    bind = _binder(typename, names, field_defaults)
    fields = tuple(names)

    def __new__(cls: type, *args: Any, **kwargs: Any) -> Any:
        return tuple.__new__(cls, bind(args, kwargs))

    def _make(cls: type, iterable: Any) -> Any:
        result = tuple.__new__(cls, iterable)
        if len(result) != len(fields):
            raise TypeError(f"Expected {len(fields)} arguments, got {len(result)}")
        return result

    def _replace(self: Any, /, **kwargs: Any) -> Any:
        result = self._make(kwargs.pop(name, value) for name, value in zip(fields, self))
        if kwargs:
            raise ValueError(f"Got unexpected field names: {list(kwargs)!r}")
        return result

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{name}={value!r}" for name, value in zip(fields, self))
        return f"{type(self).__name__}({inner})"

    def _asdict(self: Any) -> dict[str, Any]:
        return dict(zip(fields, self))

    def __getnewargs__(self: Any) -> tuple:
        return tuple(self)

    body: dict[str, Any] = {
        "__doc__": f"{typename}({', '.join(names)})",
        "__slots__": (),
        "_fields": fields,
        "_field_defaults": field_defaults,
        "__new__": __new__,
        "_make": classmethod(_make),
        "_replace": _replace,
        "__repr__": __repr__,
        "_asdict": _asdict,
        "__getnewargs__": __getnewargs__,
        "__match_args__": fields,
        "__module__": "__main__",
    }
    for index, name in enumerate(names):
        body[name] = property(operator.itemgetter(index), doc=f"Alias for field number {index}")
    cls = type(typename, (tuple,), body)
    for function in (__new__, _make, _replace, __repr__, _asdict):
        function.__qualname__ = f"{typename}.{function.__name__}"
    register_class(cls, _TUPLE_NAMES + " " + " ".join(names), module="__main__", base=True)
    return cls


def make_module(namespace: Any) -> dict[str, Any]:
    return {
        "defaultdict": defaultdict,
        "OrderedDict": OrderedDict,
        "Counter": Counter,
        "deque": deque,
        "namedtuple": namedtuple,
    }
