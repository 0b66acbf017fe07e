"""`typing` for scripts: the names tutorials annotate with (`List`, `Tuple`, `Optional`, `Dict`,
`Callable`, `Any`, `Union`, `TypeVar`, `NamedTuple`...), as objects of our own.

Python's typing objects carry machinery a script must not reach (`__origin__` is a class,
`_GenericAlias.__getattr__` forwards to it, `get_type_hints` evaluates strings with Python's
`eval`), so each form here is a `TypingForm`: a name, a kind and its arguments, printed,
compared, subscripted, instantiated and `isinstance`-checked as Python 3.11's typing does, with
no public attribute. Arguments are kept as the script gave them (they are values it holds).
"""

from __future__ import annotations

import collections.abc as _abc
import types
from typing import Any

from autodiff_cli.lang.pylib.modules import collections_module
from autodiff_cli.lang.pylib.modules.registry import register_class
from autodiff_cli.lang.sandbox.typeview import TypeStandIn

_NONE = type(None)
_SUBSCRIPTED_CHECK = "Subscripted generics cannot be used with class and instance checks"


class ForwardRef:
    """A quoted name inside a subscripted form (`List['Node']`)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"ForwardRef({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is ForwardRef and other.text == self.text

    def __hash__(self) -> int:
        return hash(("ForwardRef", self.text))


def _arg(value: Any) -> Any:
    """An argument as typing stores it: `None` is `NoneType`, a string a forward reference."""
    if value is None:
        return _NONE
    if type(value) is str:
        return ForwardRef(value)
    return value


def _type_repr(value: Any) -> str:
    """How typing shows an argument: a class by its dotted name, `...`, a function's name."""
    if value is ...:
        return "..."
    if isinstance(value, (type, TypeStandIn)):
        text = repr(value)
        if text.startswith("<class '") and text.endswith("'>"):
            text = text[8:-2]
        return text.removeprefix("builtins.")
    if type(value) is types.FunctionType:
        return value.__name__
    return repr(value)


class TypingForm:
    """One typing object: `kind` is "alias" (List...), "special" (Any, Optional, Union...),
    "union", "typevar" or "newtype"; `args` is None until subscripted."""

    __slots__ = ("name", "kind", "args", "origin", "arity", "variance")

    def __init__(
        self,
        name: str,
        kind: str,
        args: tuple | None = None,
        origin: Any = None,
        arity: int = 1,
        variance: str = "~",
    ) -> None:
        self.name, self.kind, self.args = name, kind, args
        self.origin, self.arity, self.variance = origin, arity, variance

    # -- printing and comparing ------------------------------------------------------------
    def __repr__(self) -> str:
        if self.kind == "typevar":
            return f"{self.variance}{self.name}"
        if self.kind == "newtype":
            return f"__main__.{self.name}"
        if self.kind == "union":
            if len(self.args) == 2 and _NONE in self.args:
                other = self.args[0] if self.args[1] is _NONE else self.args[1]
                return f"typing.Optional[{_type_repr(other)}]"
            return f"typing.Union[{', '.join(_type_repr(a) for a in self.args)}]"
        if self.args is None:
            return f"typing.{self.name}"
        if self.name == "Callable":
            *params, result = self.args
            shown = "..." if params == [...] else f"[{', '.join(_type_repr(p) for p in params)}]"
            return f"typing.Callable[{shown}, {_type_repr(result)}]"
        if self.name == "Tuple" and not self.args:
            return "typing.Tuple[()]"
        show = repr if self.name == "Literal" else _type_repr
        return f"typing.{self.name}[{', '.join(show(a) for a in self.args)}]"

    def _key(self) -> Any:
        args = frozenset(self.args) if self.kind == "union" else self.args
        return (self.name, self.kind, args)

    def __eq__(self, other: object) -> bool:
        if type(other) is not TypingForm:
            return NotImplemented
        if self.kind in ("typevar", "newtype"):
            return self is other
        return self._key() == other._key()

    def __hash__(self) -> int:
        if self.kind in ("typevar", "newtype"):
            return id(self)
        return hash(self._key())

    def __or__(self, other: Any) -> Any:
        return _union((self, other))

    def __ror__(self, other: Any) -> Any:
        return _union((other, self))

    # -- subscripting ----------------------------------------------------------------------
    def __getitem__(self, item: Any) -> Any:
        items = item if type(item) is tuple else (item,)
        if self.kind == "union" or self.args is not None or self.kind in ("typevar", "newtype"):
            if self.kind in ("typevar", "newtype"):
                raise TypeError(f"'{_shown_class(self)}' object is not subscriptable")
            raise TypeError(f"{self!r} is not a generic class")
        if self.kind == "special":
            return _special_item(self, items)
        if self.name == "Callable":
            return _callable_item(self, items)
        if self.name == "Tuple":
            if items == ((),):
                items = ()
            return TypingForm("Tuple", "alias", tuple(_arg(a) for a in items), self.origin)
        if len(items) != self.arity:
            few = "many" if len(items) > self.arity else "few"
            raise TypeError(
                f"Too {few} arguments for {self!r}; actual {len(items)}, expected {self.arity}"
            )
        return TypingForm(self.name, "alias", tuple(_arg(a) for a in items), self.origin)

    # -- calling and isinstance ------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.kind == "newtype":
            return args[0] if len(args) == 1 and not kwargs else _newtype_call_error(args)
        if self.kind == "typevar":
            raise TypeError("'TypeVar' object is not callable")
        if self.kind in ("special", "union"):
            if self.name == "Any":
                raise TypeError("Any cannot be instantiated")
            raise TypeError(f"Cannot instantiate {_plain(self)!r}")
        factory = _FACTORIES.get(self.name)
        if factory is not None:
            return factory(*args, **kwargs)
        if self.origin is not None and self.origin.__module__ == "builtins":
            raise TypeError(
                f"Type {self.name} cannot be instantiated; use {self.origin.__name__}() instead"
            )
        raise TypeError(f"Can't instantiate abstract class {self.name}")

    def __instancecheck__(self, obj: Any) -> bool:
        return self._check(lambda kind: isinstance(obj, kind), callable(obj))

    def __subclasscheck__(self, cls: Any) -> bool:
        return self._check(lambda kind: issubclass(cls, kind), None)

    def _check(self, test: Any, is_callable: Any) -> bool:
        if self.kind == "union":
            for arg in self.args:
                if type(arg) is TypingForm:
                    if arg.kind != "alias" or arg.args is not None:
                        raise TypeError(_SUBSCRIPTED_CHECK)
                    if arg._check(test, is_callable):
                        return True
                elif test(arg):
                    return True
            return False
        if self.kind in ("typevar", "newtype"):
            raise TypeError("isinstance() arg 2 must be a type, a tuple of types, or a union")
        if self.kind == "special":
            raise TypeError(f"{_plain(self)!r} cannot be used with isinstance()")
        if self.args is not None:
            raise TypeError(_SUBSCRIPTED_CHECK)
        if self.name == "Callable" and is_callable is not None:
            return bool(is_callable)
        return test(self.origin)


def _shown_class(form: TypingForm) -> str:
    return {"typevar": "TypeVar", "newtype": "NewType"}.get(form.kind, "TypingForm")


def _plain(form: TypingForm) -> TypingForm:
    """The unsubscripted special form (`Optional`, `Union`) an instance came from."""
    return TypingForm(form.name if form.kind == "special" else "Union", "special")


def _newtype_call_error(args: tuple) -> Any:
    raise TypeError(f"NewType takes 1 positional argument but {len(args)} were given")


def _union(items: tuple) -> Any:
    """`Union[...]`: nested unions flattened, duplicates dropped, one left returned as it is."""
    if not items:
        raise TypeError("Cannot take a Union of no types.")
    flat: list[Any] = []
    for item in items:
        members = item.args if type(item) is TypingForm and item.kind == "union" else (item,)
        for member in members:
            member = _arg(member)
            if member not in flat:
                flat.append(member)
    if len(flat) == 1:
        return flat[0]
    return TypingForm("Union", "union", tuple(flat))


def _special_item(form: TypingForm, items: tuple) -> Any:
    name = form.name
    if name == "Union":
        return _union(items)
    if name == "Optional":
        if len(items) != 1:
            got = ", ".join(repr(_arg(a)) for a in items)
            raise TypeError(f"typing.Optional requires a single type. Got ({got}).")
        return _union((items[0], None))
    if name in ("Any", "NoReturn", "Never", "TypeAlias"):
        raise TypeError(f"type {name!r} is not subscriptable" if name == "Any" else
                        f"{form!r} is not subscriptable")  # fmt: skip
    if name == "Literal":
        return TypingForm("Literal", "special", tuple(items))
    if len(items) != 1:
        raise TypeError(f"{form!r} accepts only single type.")
    return TypingForm(name, "special", (_arg(items[0]),))


def _callable_item(form: TypingForm, items: tuple) -> TypingForm:
    if len(items) != 2:
        raise TypeError("Callable must be used as Callable[[arg, ...], result].")
    params, result = items
    if params is ...:
        args: tuple = (..., _arg(result))
    else:
        listed = params if type(params) is list else [params]
        args = (*(_arg(p) for p in listed), _arg(result))
    return TypingForm("Callable", "alias", args, form.origin)


# Deque(), DefaultDict(list), OrderedDict(), Counter() make the collection, as in Python.
_FACTORIES = {
    "Deque": collections_module.deque,
    "DefaultDict": collections_module.defaultdict,
    "OrderedDict": collections_module.OrderedDict,
    "Counter": collections_module.Counter,
}

_ALIASES = {
    # name: (origin for isinstance, number of arguments)
    "List": (list, 1), "Dict": (dict, 2), "Set": (set, 1), "FrozenSet": (frozenset, 1),
    "Tuple": (tuple, -1), "Type": (type, 1), "Callable": (_abc.Callable, -1),
    "Iterable": (_abc.Iterable, 1), "Iterator": (_abc.Iterator, 1),
    "Sequence": (_abc.Sequence, 1), "MutableSequence": (_abc.MutableSequence, 1),
    "Mapping": (_abc.Mapping, 2), "MutableMapping": (_abc.MutableMapping, 2),
    "Collection": (_abc.Collection, 1), "Container": (_abc.Container, 1),
    "AbstractSet": (_abc.Set, 1), "MutableSet": (_abc.MutableSet, 1),
    "Reversible": (_abc.Reversible, 1), "Generator": (_abc.Generator, 3),
    "Hashable": (_abc.Hashable, 0), "Sized": (_abc.Sized, 0),
    "Deque": (collections_module.deque, 1), "DefaultDict": (collections_module.defaultdict, 2),
    "OrderedDict": (collections_module.OrderedDict, 2), "Counter": (collections_module.Counter, 1),
    "KeysView": (_abc.KeysView, 1), "ValuesView": (_abc.ValuesView, 1),
    "ItemsView": (_abc.ItemsView, 2),
}  # fmt: skip
_SPECIALS = ("Any", "Optional", "Union", "Literal", "ClassVar", "Final", "NoReturn", "Never",
             "TypeAlias")  # fmt: skip


def TypeVar(  # noqa: N802 - typing's name
    name: str, *constraints: Any, bound: Any = None, covariant: bool = False,
    contravariant: bool = False,
) -> TypingForm:  # fmt: skip
    """`TypeVar('T')`: printed `~T` (`+T` covariant, `-T` contravariant)."""
    if type(name) is not str:
        raise TypeError("TypeVar name must be a string")
    if covariant and contravariant:
        raise ValueError("Bivariant types are not supported.")
    if len(constraints) == 1:
        raise TypeError("A single constraint is not allowed")
    variance = "+" if covariant else "-" if contravariant else "~"
    return TypingForm(name, "typevar", variance=variance)


def NewType(name: str, tp: Any) -> TypingForm:  # noqa: N802 - typing's name
    """`NewType('UserId', int)`: calling it gives its argument back."""
    return TypingForm(str(name), "newtype")


def NamedTuple(typename: str, fields: Any = None, **kwargs: Any) -> type:  # noqa: N802
    """`NamedTuple('Point', [('x', int), ('y', int)])` (the class form: `named_tuple_class`)."""
    pairs = list(fields) if fields is not None else list(kwargs.items())
    return collections_module.namedtuple(typename, [name for name, _ in pairs])


def named_tuple_base(name: str, namespace: dict) -> type:
    """`class Point(NamedTuple): x: int; y: int = 0`: the namedtuple of the annotated fields
    (with their defaults, taken out of the class body) that the script's class derives from."""
    fields = list(namespace.get("__annotations__", {}))
    default_names: list[str] = []
    for field in fields:
        if field in namespace:
            default_names.append(field)
        elif default_names:
            raise TypeError(
                f"Non-default namedtuple field {field} cannot follow default field"
                f"{'s' if len(default_names) > 1 else ''} {', '.join(default_names)}"
            )
    defaults = [namespace.pop(field) for field in default_names]
    return collections_module.namedtuple(name, fields, defaults=defaults or None)


def cast(typ: Any, val: Any) -> Any:
    return val


def _identity(function: Any) -> Any:
    return function


def get_origin(tp: Any) -> Any:
    if type(tp) is not TypingForm or tp.args is None:
        return None
    if tp.kind == "union":
        return TypingForm("Union", "special")
    return tp.origin if tp.kind == "alias" else TypingForm(tp.name, "special")


def get_args(tp: Any) -> tuple:
    if type(tp) is not TypingForm or tp.args is None or tp.kind in ("typevar", "newtype"):
        return ()
    if tp.name == "Callable" and tp.args[:-1] != (...,):
        return (list(tp.args[:-1]), tp.args[-1])
    return tp.args


def _overload_dummy(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError(
        "You should not call an overloaded function. A series of @overload-decorated functions "
        "outside a stub module should always be followed by an implementation that is not "
        "@overload-ed."
    )


def overload(function: Any) -> Any:
    return _overload_dummy


register_class(TypingForm, module="typing")
register_class(ForwardRef, module="typing")


def make_module(namespace: Any) -> dict[str, Any]:
    table: dict[str, Any] = {
        name: TypingForm(name, "alias", origin=origin, arity=arity)
        for name, (origin, arity) in _ALIASES.items()
    }
    table.update({name: TypingForm(name, "special") for name in _SPECIALS})
    table.update(
        TypeVar=TypeVar, NewType=NewType, NamedTuple=NamedTuple, cast=cast, overload=overload,
        final=_identity, no_type_check=_identity, runtime_checkable=_identity,
        get_origin=get_origin, get_args=get_args, TYPE_CHECKING=False, Text=str,
        AnyStr=TypeVar("AnyStr", bytes, str), ForwardRef=ForwardRef,
    )  # fmt: skip
    return table
