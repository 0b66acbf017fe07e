"""What a script class body may define: nothing that lets its objects lie about their type or
hand numpy raw memory.

An object's `__class__` differs from `type(obj)` only through a `__class__` in its class's
dictionary (a property, a plain value, a `__slots__` member that raises when unset), a
`__getattribute__`, or a `__getattr__` answering when the normal lookup fails; `isinstance`
believes `__class__`. numpy reads `__array_interface__`, `__array_struct__` and `__array__`
from the instance (a `__getattr__` answers too) and turns their answer into raw memory access.
So a class body may define none of these names, `__slots__` may hold only plain names (no
dunder), a script's `__getattr__` never sees a name starting with `_` (it raises AttributeError,
as for a missing attribute: scripts cannot read such names, so only numpy's hooks and the
engine's private names, `_data` of a "tensor", would reach it), and the class made is checked
once more for `__class__`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# numpy's (and the buffer protocol's) hooks: reading them gives raw memory, or numpy's dispatch
ARRAY_PROTOCOL_NAMES = frozenset(
    "__array__ __array_interface__ __array_struct__ __array_priority__ __array_ufunc__ "
    "__array_function__ __array_wrap__ __array_finalize__ __array_prepare__ __array_namespace__ "
    "__dlpack__ __dlpack_device__ __buffer__ __release_buffer__".split()
)
# Names a class body may not define: they change what the sandbox sees of its objects
# (`__class__`, or a `__getattribute__` answering for it, fakes isinstance for the engine), are
# called by pickling code, or are numpy's hooks. (`__copy__`/`__deepcopy__` are allowed: only
# the script's `copy` module calls them, as script code.)
RESERVED_CLASS_NAMES = ARRAY_PROTOCOL_NAMES | frozenset(
    "__class__ __dict__ __weakref__ __getattribute__ __reduce__ __reduce_ex__ __getstate__ "
    "__setstate__ __mro_entries__ __autodiff_script__".split()
)
_MAX_SLOTS = 10_000


def is_dunder(name: str) -> bool:
    """`__name__`-shaped (read on the exact string: `name` is an exact `str`)."""
    return len(name) > 4 and name[:2] == "__" and name[-2:] == "__"


def check_namespace(namespace: dict[str, Any]) -> None:
    """Refuse reserved names and dunder `__slots__`; make `__getattr__` blind to `_` names."""
    for key in namespace:
        if key in RESERVED_CLASS_NAMES:
            raise TypeError(f"a script class cannot define '{key}'")
    if "__slots__" in namespace:
        namespace["__slots__"] = _checked_slots(namespace["__slots__"])
    getattr_function = namespace.get("__getattr__")
    if getattr_function is not None:
        namespace["__getattr__"] = _blind_to_private_names(getattr_function)


def _checked_slots(slots: Any) -> tuple[str, ...]:
    """`__slots__` as a tuple of exact strings, none a dunder (a `__class__` slot left unset
    makes the lookup fall through to `__getattr__`, which could answer any class)."""
    if type(slots) is str:
        names: list[Any] = [slots]
    elif type(slots) in (list, tuple):
        names = list(slots)
    else:
        raise TypeError("__slots__ of a script class must be a str, or a list or tuple of str")
    if len(names) > _MAX_SLOTS:
        raise TypeError(f"__slots__ of a script class holds at most {_MAX_SLOTS} names")
    for name in names:
        if type(name) is not str:
            raise TypeError(
                f"__slots__ items must be str (not subclasses of str), not '{type(name).__name__}'"
            )
        if is_dunder(name) or name.startswith("_"):
            raise TypeError(
                f"__slots__ of a script class cannot name '{name}' (names starting with '_' are "
                "private)"
            )
    return tuple(names)


def _blind_to_private_names(function: Any) -> Callable[[Any, str], Any]:
    """The class's `__getattr__`, refusing names starting with `_` before the script's code
    sees them (numpy asks for `__array_interface__`, the engine for a tensor's `_data`)."""
    if isinstance(function, (staticmethod, classmethod)) or not callable(function):
        raise TypeError("__getattr__ of a script class must be a function")

    def __getattr__(self: Any, name: str) -> Any:  # noqa: N807
        if type(name) is not str or name[:1] == "_":
            raise AttributeError(
                f"'{type(self).__name__}' object has no attribute '{str.__str__(name)}'"
            )
        return function(self, name)

    __getattr__.__qualname__ = getattr(function, "__qualname__", "__getattr__")
    __getattr__.__wrapped_script__ = function  # type: ignore[attr-defined]
    return __getattr__


def check_class(cls: type) -> None:
    """After the class is made: its own dictionary holds no `__class__` or `__getattribute__`
    (a base's slot or property would have been refused in its own body)."""
    for name in ("__class__", "__getattribute__"):
        if name in cls.__dict__:
            raise TypeError(f"a script class cannot define '{name}'")
