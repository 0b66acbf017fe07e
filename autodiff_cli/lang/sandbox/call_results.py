"""What a call hands back to a script: checked by exact type before the script holds it.

Attribute reads are checked by `capabilities.check_out`; this is the same rule for the values calls
return (an engine function, a method, a builtin), so that no raw numpy array, numpy scalar,
module, foreign function or class reaches a script even if the engine returns one by mistake:

- the common results (numbers, strings, None, tensors, any known engine or script class's
  object) pass after one set lookup;
- a numpy scalar becomes the Python number PyTorch returns (`bool`, `int`, `float`);
- a raw numpy array or any other numpy object, a module, a function or builtin method of
  foreign code is an error; a class becomes what `type()` would give (`typeview`);
- tuples, lists and dicts are checked item by item (nested up to `_MAX_DEPTH` levels: only a
  script's own data, or a cycle, goes deeper), except those a script function returns (they
  hold only what the script held);
- other objects of types scripts cannot read (builtin iterators, generators, context managers)
  pass: they expose no attribute (see `sandbox`).
"""

from __future__ import annotations

import sys
import types
from typing import Any

from autodiff_cli.lang import errors
from autodiff_cli.lang.sandbox import capabilities, typeview

# Learned as met: types whose values pass as they are (never containers, classes or functions).
PLAIN_RESULTS: set[type] = {
    int, float, bool, complex, str, bytes, type(None), slice, range, type(Ellipsis),
    type(NotImplemented), typeview.TypeStandIn, capabilities.ModuleProxy, types.MethodType,
    property, staticmethod, classmethod, type({}.keys()), type({}.values()), type({}.items()),
}  # fmt: skip
_CONTAINERS = (tuple, list, dict, set, frozenset)
_MAX_DEPTH = 32
# errors of an op given an argument of the wrong type (not MemoryError, RecursionError...)
_EXPLAINED = (TypeError, AttributeError, RuntimeError, ValueError, IndexError)


def ResultError(message: str) -> TypeError:  # noqa: N802 - raised like a class
    """A call returned a value scripts may not hold (a bug of the engine, refused here)."""
    return TypeError(message)


def check(value: Any, callee: Any) -> Any:
    """`value`, returned by calling `callee`, as the script may hold it (see the module doc)."""
    kind = type(value)
    if kind in PLAIN_RESULTS:
        return value
    if issubclass(kind, _CONTAINERS) and _is_script_callable(callee):
        return value
    return _checked(value, kind, 0, set())


def arguments(args: tuple) -> tuple:
    """The positional arguments a script function receives, checked like call results: the
    engine calls script functions itself (operators such as `alpha * array` inside a formula,
    `__eq__` with a dtype, hooks, `__setitem__`), so this is where a raw numpy array, dtype,
    class or foreign function would reach script code. Containers are not walked (a script
    passes its own lists on every call)."""
    plain = PLAIN_RESULTS
    changed = None
    for index, value in enumerate(args):
        kind = type(value)
        if kind in plain or issubclass(kind, _CONTAINERS):
            continue
        checked = _argument(value, kind)
        if checked is not value:
            changed = list(args) if changed is None else changed
            changed[index] = checked
    return args if changed is None else tuple(changed)


def keyword_arguments(kwargs: dict) -> dict:
    """The keyword arguments a script function receives, checked as `arguments`."""
    plain = PLAIN_RESULTS
    for name, value in kwargs.items():
        kind = type(value)
        if kind not in plain and not issubclass(kind, _CONTAINERS):
            kwargs[name] = _argument(value, kind)
    return kwargs


def _argument(value: Any, kind: type) -> Any:
    try:
        return _checked(value, kind, 0, set())
    except TypeError as error:
        message = str(error).replace("a call returned", "a script function was passed", 1)
        raise TypeError(message) from None


def _is_script_callable(callee: Any) -> bool:
    if type(callee) is types.MethodType:
        callee = callee.__func__
    return type(callee) is types.FunctionType and bool(
        callee.__dict__.get(capabilities.SCRIPT_MARK)
    )


def _checked(value: Any, kind: type, depth: int, seen: set[int]) -> Any:
    if kind in PLAIN_RESULTS:
        return value
    numpy = sys.modules.get("numpy")
    if numpy is not None and issubclass(kind, (numpy.generic, numpy.ndarray)):
        if issubclass(kind, numpy.generic) and kind.__module__ == "numpy":
            plain = value.item()
            if type(plain) in (bool, int, float):
                return plain
        raise ResultError(
            f"a call returned a raw numpy '{kind.__name__}' object, which scripts cannot use"
        )
    if issubclass(kind, _CONTAINERS):
        if depth > _MAX_DEPTH or id(value) in seen:  # a script's own deep data, a cycle
            return value
        seen.add(id(value))  # (each container once: `a = [a, a]` is not walked 2**32 times)
        return _checked_container(value, kind, depth, seen)
    if isinstance(value, type):
        return typeview.script_view_of_class(value)
    if kind in typeview.WRAPPER_CLASSES:
        PLAIN_RESULTS.add(kind)
        return value
    if typeview.class_is_known(kind):
        PLAIN_RESULTS.add(kind)
        return value
    if kind is types.ModuleType or (kind.__module__ or "").split(".")[0] == "numpy":
        raise ResultError(
            f"a call returned a '{kind.__module__}.{kind.__qualname__}' object, which scripts "
            "cannot use"
        )
    if kind in (types.FunctionType, types.BuiltinFunctionType):
        owner = getattr(value, "__self__", None) if kind is types.BuiltinFunctionType else None
        if (
            _is_dunder(value.__name__)
            or not capabilities.may_hold(value)
            or not (
                owner is None or type(owner) is types.ModuleType or capabilities.may_hold(owner)
            )
        ):
            raise ResultError("a call returned a function of code scripts cannot use")
        return value
    if kind in _FOREIGN_METHODS:
        owner = getattr(value, "__self__", None)
        objclass = getattr(value, "__objclass__", None)
        if (
            _is_dunder(value.__name__)
            or (owner is not None and not capabilities.may_hold(owner))
            or (objclass is not None and not typeview.class_is_known(objclass))
        ):
            raise ResultError("a call returned a method of an object scripts cannot use")
    return value  # inert: scripts read no attribute of an unknown type


def _is_dunder(name: Any) -> bool:
    return type(name) is str and name[:2] == "__" and name[-2:] == "__"


# bound and unbound methods of C types: `ndarray.fill` bound to an engine array would write it
_FOREIGN_METHODS = frozenset({
    type([].append), type("".__add__), type(str.__dict__["upper"]), type(object.__init__),
})  # fmt: skip


def _checked_container(value: Any, kind: type, depth: int, seen: set[int]) -> Any:
    if not typeview.class_is_known(kind):
        raise ResultError(
            f"a call returned a '{kind.__module__}.{kind.__qualname__}' object, which scripts "
            "cannot use"
        )
    plain = PLAIN_RESULTS
    if kind is dict or issubclass(kind, dict):
        for key, item in dict.items(value):
            if type(key) not in plain:
                _same(key, _checked(key, type(key), depth + 1, seen))
            if type(item) not in plain:
                _same(item, _checked(item, type(item), depth + 1, seen))
        return value
    items = _raw_iterator(value, kind)
    changed: list[Any] | None = None
    for index, item in enumerate(items):
        item_kind = type(item)
        if item_kind in plain:
            if changed is not None:
                changed.append(item)
            continue
        checked = _checked(item, item_kind, depth + 1, seen)
        if checked is not item and changed is None:
            if kind is not list and kind is not tuple:
                _same(item, checked)
            changed = list(_prefix(value, kind, index))
        if changed is not None:
            changed.append(checked)
    if changed is None:
        return value
    return changed if kind is list else tuple(changed)


def _raw_iterator(value: Any, kind: type) -> Any:
    """The items as the builtin base stores them (a script subclass's `__iter__` may lie)."""
    for base in _CONTAINERS:
        if issubclass(kind, base):
            return base.__iter__(value)
    raise AssertionError(kind)


def _prefix(value: Any, kind: type, stop: int) -> list[Any]:
    return [item for _, item in zip(range(stop), _raw_iterator(value, kind))]


def _same(item: Any, checked: Any) -> None:
    if checked is not item:
        raise ResultError(
            f"a call returned a '{type(item).__name__}' inside a container, which scripts "
            "cannot use"
        )


def explained(
    error: BaseException, callee: Any, args: tuple, kwargs: dict | None, name: str | None
) -> BaseException:
    """`error`, raised by calling `callee`, or PyTorch's TypeError naming the argument of the
    wrong type when `callee` is an engine function given a non-Tensor where it takes a Tensor
    (`torch.sum([1.0])`: see `engine/core/arguments.py`). Only an error raised in the engine
    itself is explained: one that already has a location came from script code deeper down.
    PyTorch checks types before an op runs, so any error of the op is replaced (`torch.mm(x,
    [1])` fails here on the shape first)."""
    if not issubclass(type(error), _EXPLAINED) or errors.has_location(error):
        return error
    arguments_module = sys.modules.get("autodiff_cli.engine.core.arguments")  # (with the engine)
    if arguments_module is None:
        return error  # the engine is not loaded: no engine function was called
    better = arguments_module.wrong_argument(callee, args, kwargs, name)
    return error if better is None else better
