"""Classes as scripts see them: which real classes a script may hold, and stand-ins for the rest.

A script holds a real class only when the class is one of its capabilities: the builtin value
types and exceptions it can name, the engine's classes (as PyTorch's `torch.Tensor`...), and the
classes it defined. `type(x)` of anything else (a numpy array, `type` itself, a function, a
module proxy) is a `TypeStandIn`: it prints, compares, answers `isinstance`/`issubclass` and
`__name__` as the real class would, but has no attributes, cannot be subclassed or given to
`super()`, and cannot be called (except `type(None)()`).
"""

from __future__ import annotations

import sys
import types
from typing import Any

ENGINE_PREFIX = ("autodiff_cli.engine", "torch")  # engine classes present as `torch.Tensor`
SCRIPT_MARK = "__autodiff_script__"  # set on functions and classes a script defines

# Builtin classes a script can name (`int`, `str`...) or meet as plain values.
VALUE_CLASSES = frozenset({
    int, float, complex, bool, str, bytes, list, tuple, dict, set, frozenset, slice, range,
    object, property, staticmethod, classmethod,
})  # fmt: skip
# The engine classes PyTorch users subclass (looked up by name on first use).
_ENGINE_BASES = (
    ("autodiff_cli.engine.nn", "Module"),
    ("autodiff_cli.engine.autograd.function", "Function"),
    ("autodiff_cli.engine.utils.data", "Dataset"),
    ("autodiff_cli.engine.utils.data", "IterableDataset"),
    ("autodiff_cli.engine.utils.data", "Sampler"),
    ("autodiff_cli.engine.optim", "Optimizer"),
    ("autodiff_cli.engine.optim.lr_scheduler", "LRScheduler"),
    ("autodiff_cli.engine.optim.lr_scheduler", "_LRScheduler"),
)
# Builtin classes of the script's own `map`, `zip`... (registered by `runtime`).
SCRIPT_ITERATOR_CLASSES: set[type] = set()
# Classes of the library modules scripts import (`lang/modules`: deque, Counter, namedtuples...),
# and those of them a script class may derive from.
LIBRARY_CLASSES: set[type] = set()
LIBRARY_BASES: set[type] = set()
# Wrapper classes of library values (numpy arrays, scalars, dtypes: `lang/sandbox/numpy_types.py`):
# scripts hold their instances and read their public names, but `type()` gives a stand-in.
WRAPPER_CLASSES: set[type] = set()
_known: dict[type, bool] = {}
_stand_ins: dict[type, TypeStandIn] = {}
_DISPLAY_NAMES: dict[type, str] = {}  # the real class a stand-in imitates, if not its own name


def register_iterator_class(cls: type) -> None:
    """`cls` is a lazy iterator of the script's library (`map`, `itertools.chain`...): scripts
    may hold its instances, which record how deep they are nested (`nesting`)."""
    SCRIPT_ITERATOR_CLASSES.add(cls)


def register_library_class(cls: type, base: bool) -> None:
    """`cls` is a class of the script's library (`collections.deque`...): scripts may hold its
    instances, and with `base` derive classes from it."""
    LIBRARY_CLASSES.add(cls)
    if base:
        LIBRARY_BASES.add(cls)


def register_wrapper_class(cls: type) -> None:
    """Let scripts hold instances of `cls` and read its public names: called where the class is
    made, before any instance exists (an attribute reader chosen earlier is kept)."""
    WRAPPER_CLASSES.add(cls)


def is_script_class(cls: type) -> bool:
    """A class the script defined (its own body ran under the sandbox)."""
    return bool(cls.__dict__.get(SCRIPT_MARK))


def is_engine_class(cls: type) -> bool:
    return (getattr(cls, "__module__", None) or "").startswith(ENGINE_PREFIX)


def is_builtin_exception(cls: type) -> bool:
    return issubclass(cls, BaseException) and cls.__module__ == "builtins"


def class_is_known(cls: type) -> bool:
    """True when a script may hold the real class `cls` (see the module docstring)."""
    known = _known.get(cls)
    if known is None:
        metaclass = type(cls)
        known = (
            (metaclass is type or is_engine_class(metaclass))
            and not issubclass(cls, type)  # a metaclass makes classes from any dict: never
        ) and (
            cls in VALUE_CLASSES
            or cls in SCRIPT_ITERATOR_CLASSES
            or cls in LIBRARY_CLASSES
            or is_script_class(cls)
            or is_engine_class(cls)
            or issubclass(cls, BaseException)
        )
        _known[cls] = known
    return known


def resolve_classes(names: tuple[tuple[str, str], ...]) -> tuple[type, ...]:
    """The classes named `(module, name)` among the modules already imported. Nothing is
    imported here (a locked-down child cannot open files): a class whose module is not loaded
    cannot be the class of anything a script holds."""
    found = []
    for module_name, name in names:
        value = getattr(sys.modules.get(module_name), name, None)
        if isinstance(value, type):
            found.append(value)
    return tuple(found)


def is_engine_base(cls: type) -> bool:
    """Whether scripts may derive from the engine class `cls` (`nn.Module`...)."""
    return cls in resolve_classes(_ENGINE_BASES)


def check_base(base: Any) -> None:
    """Raise TypeError unless a script class may derive from `base`."""
    if isinstance(base, type) and (
        is_script_class(base)
        or base in VALUE_CLASSES - {bool, range, slice, property, staticmethod, classmethod}
        or (
            issubclass(base, BaseException)
            and (is_builtin_exception(base) or is_engine_class(base))
        )
        or is_engine_base(base)
        or base in LIBRARY_BASES
    ):
        return
    shown = display_name(base) if isinstance(base, (type, TypeStandIn)) else type(base).__name__
    raise TypeError(
        f"scripts cannot derive a class from '{shown}': bases may be script classes, object, "
        "builtin values and exceptions, nn.Module, autograd.Function, Dataset, Optimizer and "
        "LRScheduler"
    )


def display_name(cls: type | TypeStandIn) -> str:
    if isinstance(cls, TypeStandIn):
        return cls.__name__
    return _DISPLAY_NAMES.get(cls, cls.__name__)


class TypeStandIn:
    """What `type(x)` gives for a class scripts may not hold (see the module docstring)."""

    __slots__ = ("_real", "__name__", "__qualname__", "_shown")

    def __init__(self, real: type) -> None:
        self._real = real
        self.__name__ = _DISPLAY_NAMES.get(real, real.__name__)
        self.__qualname__ = self.__name__
        module = "" if real.__module__ == "builtins" or real in _DISPLAY_NAMES else real.__module__
        self._shown = f"{module}.{real.__qualname__}" if module else self.__name__

    def __repr__(self) -> str:
        return f"<class '{self._shown}'>"

    def __instancecheck__(self, instance: Any) -> bool:
        return isinstance(instance, self._real)

    def __subclasscheck__(self, subclass: Any) -> bool:
        real = subclass._real if isinstance(subclass, TypeStandIn) else subclass
        return isinstance(real, type) and issubclass(real, self._real)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._real is type(None) and not args and not kwargs:
            return None
        raise TypeError(f"cannot create '{self._shown}' instances in scripts")

    def __reduce__(self) -> Any:  # never pickled or copied with its real class
        raise TypeError(f"cannot pickle '{self._shown}'")


def stand_in(cls: type) -> TypeStandIn:
    """The one stand-in of `cls` (so `type(a) is type(b)` holds as for the real class)."""
    if cls is TypeStandIn:
        cls = type
    result = _stand_ins.get(cls)
    if result is None:
        result = _stand_ins[cls] = TypeStandIn(cls)
    return result


def script_view_of_class(cls: type) -> type | TypeStandIn:
    """`cls` itself when scripts may hold it, else its stand-in."""
    return cls if class_is_known(cls) else stand_in(cls)


def script_type(*args: Any) -> type | TypeStandIn:
    """The script's `type(x)`; the 3-argument form (creating a class) is refused."""
    if len(args) != 1:
        raise TypeError("type() takes 1 argument in scripts")
    return script_view_of_class(type(args[0]))


def set_display_name(cls: type, name: str) -> None:
    """Show stand-ins of `cls` as the class it imitates (`<class 'module'>` for a module proxy)."""
    _DISPLAY_NAMES[cls] = name


set_display_name(types.FunctionType, "function")
