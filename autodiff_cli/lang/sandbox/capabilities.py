"""Capabilities: the one attribute checker every script attribute access goes through.

A script reaches only objects of types the sandbox knows (builtin values, the engine's public
types, exceptions, its own functions and classes, module proxies) and, on each, only an explicit
list of attributes:

- builtin values: the allow-list of their type (`builtin_methods.ALLOWED`), with bounded
  versions of the methods that allocate or walk attributes (`format`, `ljust`, `join`...);
- exceptions: `args` and a few plain-valued fields;
- engine objects, module proxies, script objects and functions: public names (no leading `_`,
  except `_version` and `_saved_*`); `Tensor.numpy` gives a numpy wrapper (`numpy_bridge`);
- classes: the same names; an engine method read from its class (`torch.Tensor.add`) refuses a
  `self` of another type, a builtin one (`str.format`) is the bounded version;
- `super()` objects: the attribute of the class that defines it, by the same rules.

Every value read is checked on the way out (`check_out`): a class scripts may not hold becomes
its `typeview.TypeStandIn`; a function, module or object of an unknown type is refused.
"""

from __future__ import annotations

import types
import weakref
from collections.abc import Callable
from typing import Any

from autodiff_cli.lang import exact
from autodiff_cli.lang.sandbox import builtin_methods as builtin
from autodiff_cli.lang.sandbox import engine_private_names, numpy_bridge, typeview, withheld
from autodiff_cli.lang.sandbox.typeview import ENGINE_PREFIX, SCRIPT_MARK, TypeStandIn

__all__ = [
    "ENGINE_PREFIX",
    "SCRIPT_MARK",
    "ModuleProxy",
    "check_out",
    "check_setattr",
    "exposes_attributes",
    "may_read_name",
    "make_getter",
    "may_hold",
    "name_allowed",
    "safe_hasattr",
    "script_delattr",
    "script_setattr",
    "script_super",
]

# ids of engine objects every script shares (dtypes...): scripts must not set their attributes
SHARED_IDS: set[int] = set()


def share(value: Any) -> None:
    """`value` is an engine object every script shares: scripts may not set its attributes."""
    SHARED_IDS.add(id(value))


_REFUSED_ENGINE_NAMES = frozenset({"numpy"})  # `Tensor.numpy()`: wrapped (`_numpy_reader`)
# Public methods of the engine's graph nodes (grad_fn, a custom Function's ctx) that are its
# machinery, not PyTorch's API: they hand out raw arrays (`saved_values`, `extra().params`), run
# formulas on a backend they are given (`apply`), or are the op-table entry (`op`). Scripts may
# neither read them nor set them on a ctx (the backward pass would call the script's `apply`
# with raw gradient arrays).
NODE_INTERNAL_NAMES = frozenset({
    "apply", "op", "saved_values", "saved_attribute", "extra", "hooks", "release",
    "retain_output", "forget_output", "add_tensor_hook", "n_outputs",
})  # fmt: skip
_NODE_CLASSES = (("autodiff_cli.engine.core.graph", "Node"),)
# A custom Function's node: `node.apply(*grads)` calls the script's own `backward` (PyTorch's
# BackwardCFunction.apply), read as the engine's `_script_apply`, never the pass's `apply`.
_CUSTOM_NODE_CLASSES = (("autodiff_cli.engine.autograd.function", "BackwardCFunction"),)
# Read-only on nodes, as in PyTorch: `next_functions` set to script objects put them in the
# graph, and the backward pass called their `apply` with raw gradient arrays.
_NODE_READ_ONLY_NAMES = frozenset({"next_functions", "metadata", "saved_tensors"})


class ModuleProxy:
    """A script's own view of a module: a copy of its public attributes (writes stay local)."""

    def __init__(self, name: str, attributes: dict[str, Any]) -> None:
        self.__dict__.update(attributes)
        object.__setattr__(self, "_proxy_name", name)
        object.__setattr__(self, "_proxy_lazy", {})

    def __getattr__(self, name: str) -> Any:  # only called for missing attributes
        load = self._proxy_lazy.pop(name, None)  # a submodule the module itself loads lazily
        if load is not None:
            value = load()
            object.__setattr__(self, name, value)
            return value
        message = withheld.module_attribute_message(self._proxy_name, name)
        raise AttributeError(message, name=name)

    def __repr__(self) -> str:
        return f"<module '{self._proxy_name}'>"


typeview.set_display_name(ModuleProxy, "module")

# Types whose values a script may receive as they are (grows with engine and script types).
_SAFE_VALUES: set[type] = {
    int, float, complex, bool, str, bytes, type(None), list, tuple, dict, set, frozenset, slice,
    range, type(Ellipsis), type(NotImplemented), types.MethodType, ModuleProxy, TypeStandIn,
    property, staticmethod, classmethod, type({}.keys()), type({}.values()), type({}.items()),
}  # fmt: skip
_SAFE_MODULES_OF_BUILTINS = frozenset({"builtins", "math"})


def name_allowed(name: str) -> bool:
    """Attribute names scripts may use on any exposed object."""
    return (
        not name.startswith("_")
        or name in ("_version", "__version__")
        or name.startswith("_saved_")
        or name.startswith("_raw_saved_")
    )


def _is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


# The lang layer's own marks on script objects (an exception's location `_autodiff_location`):
# never a script's name, whatever the object.
_LANG_PREFIX = "_autodiff"
# Module tables PyTorch users read as they are (`print(model._modules)`): readable on any
# nn.Module, never assigned (their entries are checked by Module's own setattr, not the dicts').
_MODULE_TABLES = frozenset({"_modules", "_parameters", "_buffers"})
_MODULE_CLASSES = (("autodiff_cli.engine.nn.module", "Module"),)


def owns_private(obj: Any, name: str) -> bool:
    """Whether the private name `name` (leading `_`, not a dunder) of `obj` is the script's own:
    an attribute of its own functions, classes and their instances. On a script class deriving
    from an engine or library class, only names that class never uses (`engine_private_names`)
    and that no non-script class of the MRO defines; engine objects own none."""
    if _is_dunder(name) or name.startswith(_LANG_PREFIX):
        return False
    if isinstance(obj, type):
        return typeview.is_script_class(obj) and _free_private_name(obj, name)
    kind = type(obj)
    if kind is types.FunctionType:
        return bool(obj.__dict__.get(SCRIPT_MARK))
    return typeview.is_script_class(kind) and _free_private_name(kind, name)


def _free_private_name(cls: type, name: str) -> bool:
    """Whether a script class `cls` may use the private `name` (see `owns_private`)."""
    reserved: frozenset[str] = frozenset()
    for klass in cls.__mro__:
        if typeview.is_script_class(klass):
            continue
        if name in klass.__dict__:
            return False
        if typeview.is_engine_class(klass):
            reserved = reserved | engine_private_names.ENGINE
        elif klass.__module__ != "builtins":  # a library class (`lang/modules`)
            reserved = reserved | engine_private_names.LIBRARY
    return name not in reserved


def may_read_name(obj: Any, name: str) -> bool:
    """Whether a script may read attribute `name` of `obj` by its name alone (`dir` asks)."""
    if name_allowed(name):
        return True
    if name in _MODULE_TABLES and _is_module(obj):
        return True
    return owns_private(obj, name)


def _is_module(obj: Any) -> bool:
    classes = typeview.resolve_classes(_MODULE_CLASSES)
    return bool(classes) and not isinstance(obj, type) and issubclass(type(obj), classes)


def _shown_type(obj: Any) -> str:
    kind = type(obj)
    return typeview.display_name(kind) if kind is not type else "type"


def _refuse(obj: Any, name: str) -> AttributeError:
    """The error for reading `name` of `obj`, which the script may not: Python's own when the
    attribute does not exist (with its "Did you mean"), else why it is withheld."""
    if not withheld.exists(obj, name):
        shown = typeview.display_name(obj) if isinstance(obj, type) else _shown_type(obj)
        return AttributeError(withheld.missing_message(obj, name, shown), name=name)
    if isinstance(obj, type):
        subject = f"class '{typeview.display_name(obj)}'"
    else:
        subject = f"'{_shown_type(obj)}' objects"
    return AttributeError(withheld.withheld_message(subject, name, not name_allowed(name)))


def _refuse_assignment(obj: Any, name: str) -> AttributeError:
    """The error for assigning or deleting `name` of `obj`, which the script may not: why it is
    withheld (whether or not the attribute exists yet: an assignment may create it)."""
    if isinstance(obj, type):
        subject = f"class '{typeview.display_name(obj)}'"
    else:
        subject = f"'{_shown_type(obj)}' objects"
    return AttributeError(withheld.withheld_message(subject, name, not name_allowed(name)))


# ---- values on the way out -------------------------------------------------------------------


def check_out(value: Any, obj: Any, name: str) -> Any:
    """`value`, read as attribute `name` of `obj`, if a script may have it (see module doc)."""
    kind = type(value)
    if kind in _SAFE_VALUES:
        return value
    if kind in typeview.WRAPPER_CLASSES:
        _SAFE_VALUES.add(kind)
        return value
    if isinstance(value, type):
        return typeview.script_view_of_class(value)
    if kind is types.FunctionType:
        if _is_script_or_engine_function(value):
            return value
    elif kind is types.BuiltinFunctionType:
        owner = value.__self__
        if not isinstance(owner, types.ModuleType) or owner.__name__ in _SAFE_MODULES_OF_BUILTINS:
            return value
    elif typeview.class_is_known(kind):
        _SAFE_VALUES.add(kind)
        return value
    raise AttributeError(
        f"attribute '{name}' of '{_shown_type(obj)}' is a '{kind.__module__}.{kind.__qualname__}'"
        " object, which scripts cannot use"
    )


def may_hold(value: Any) -> bool:
    """Whether `check_out` lets a script have `value` as it is."""
    try:
        return check_out(value, None, "") is value
    except AttributeError:
        return False


def _is_script_or_engine_function(function: types.FunctionType) -> bool:
    return bool(function.__dict__.get(SCRIPT_MARK)) or (function.__module__ or "").startswith(
        _TRUSTED_FUNCTION_MODULES
    )


_TRUSTED_FUNCTION_MODULES = (*ENGINE_PREFIX, "autodiff_cli.lang.")  # engine + checked builtins


# ---- readers: how attribute `name` is read from objects of one type ----------------------------

Reader = Callable[[Any], Any]
_PLAIN: Reader = lambda obj: obj  # noqa: E731 - marker: getattr, then check_out (inlined)


def _refuser(name: str) -> Reader:
    def refuse(obj: Any) -> Any:
        raise _refuse(obj, name)

    return refuse


def _numpy_reader(obj: Any) -> Any:
    """`tensor.numpy`: the method giving the script's numpy wrapper (`lang/sandbox/numpy_bridge.py`)."""
    return numpy_bridge.numpy_method(obj)


def _first_foreign_base(kind: type) -> type:
    """The first class in `kind`'s MRO that the script did not define (`object` at worst)."""
    for klass in kind.__mro__:
        if not typeview.is_script_class(klass):
            return klass
    return object


def _builtin_reader(owner: type, name: str) -> Reader | None:
    """Reading `name` from an instance of the builtin `owner` (or a script subclass)."""
    if issubclass(owner, BaseException):
        return _PLAIN if name in builtin.EXCEPTION_ATTRIBUTES else None
    names = builtin.allowed_names(owner)
    if names is None or name not in names:
        return None
    if name in builtin.CHECKED_NAMES:
        return lambda obj: builtin.checked_method(owner, name, obj, make_getter)
    return _PLAIN


def _defined_by_script(obj: Any, name: str) -> bool:
    """Whether `name` is an attribute the script itself gave `obj` or one of its classes."""
    for klass in type(obj).__mro__:
        if not typeview.is_script_class(klass):
            break
        if name in klass.__dict__:
            return True
    try:
        return name in object.__getattribute__(obj, "__dict__")
    except AttributeError:
        return False


def _private_reader(kind: type, name: str) -> Reader:
    """Reading the private `name`: the script's own (`owns_private`) or a Module table."""
    if kind is super:

        def read_super_private(proxy: super) -> Any:
            target = proxy.__self__
            if not owns_private(target, name):
                raise _refuse(proxy, name)
            return _super_attribute(proxy, name)

        return read_super_private
    if kind is types.FunctionType:

        def read_function_private(function: Any) -> Any:
            if not owns_private(function, name):
                raise _refuse(function, name)
            return check_out(getattr(function, name), function, name)

        return read_function_private
    if issubclass(kind, type):

        def read_class_private(cls: Any) -> Any:
            if not owns_private(cls, name):
                raise _refuse(cls, name)
            if _defining_class(cls.__mro__, name) is None:
                raise AttributeError(f"type object '{cls.__name__}' has no attribute '{name}'")
            return check_out(getattr(cls, name), cls, name)

        return read_class_private
    if typeview.is_script_class(kind) and _free_private_name(kind, name):
        return _PLAIN
    if name in _MODULE_TABLES and issubclass(kind, typeview.resolve_classes(_MODULE_CLASSES)):
        return _PLAIN
    return _refuser(name)


def _reader_for(kind: type, name: str) -> Reader:
    """The reader of attribute `name` for every instance of `kind` (cached by the getter)."""
    if not name_allowed(name):
        return _private_reader(kind, name)
    if kind is ModuleProxy or kind in typeview.WRAPPER_CLASSES:
        return _PLAIN
    if kind is types.FunctionType:
        return _function_reader(name)
    if kind is super:
        return lambda obj: _super_attribute(obj, name)
    if issubclass(kind, type):
        return lambda obj: _class_attribute(obj, name)
    if not typeview.class_is_known(kind) or kind in typeview.SCRIPT_ITERATOR_CLASSES:
        return _refuser(name)
    base = _first_foreign_base(kind)
    if typeview.is_engine_class(base):
        if is_node_class(kind):
            if name == "apply" and _is_script_function_node(kind):
                return _custom_node_apply
            if name in NODE_INTERNAL_NAMES:
                return _refuser(name)
            if name.startswith("_saved_"):
                return _saved_value_reader(name)
        value_base = _builtin_value_base(kind)
        if value_base is not None and not _defined_before(kind, value_base, name):
            # `torch.__version__` (a str), the profiler's lists: the builtin's names are its
            # allow-list and bounded methods, never CPython's raw `format`/`join`/`extend`
            return _builtin_reader(value_base, name) or _refuser(name)
        reader = _numpy_reader if name in _REFUSED_ENGINE_NAMES else _PLAIN
        if _uses_instance_table(kind, name):
            return _instance_table_reader(name, reader)
        return reader
    if base is object:
        return _PLAIN
    inherited = _builtin_reader(base, name) or _refuser(name)
    if base is kind:
        return inherited

    def script_subclass_of_builtin(obj: Any) -> Any:
        if _defined_by_script(obj, name):
            return check_out(getattr(obj, name), obj, name)
        if inherited is _PLAIN:
            return check_out(getattr(obj, name), obj, name)
        return inherited(obj)

    return script_subclass_of_builtin


def _builtin_value_base(kind: type) -> type | None:
    """The builtin value type (str, list, tuple...) an engine class derives from, if any."""
    for klass in kind.__mro__:
        if klass in builtin.ALLOWED:
            return klass
    return None


def _defined_before(kind: type, stop: type, name: str) -> bool:
    """Whether a class of `kind`'s MRO before `stop` (the engine's own classes) defines `name`."""
    for klass in kind.__mro__:
        if klass is stop:
            return False
        if name in klass.__dict__:
            return True
    return False


def is_node_class(kind: type) -> bool:
    """Whether `kind` is a graph node class of the engine (a grad_fn's, a custom Function's)."""
    return issubclass(kind, typeview.resolve_classes(_NODE_CLASSES))


def _is_script_function_node(kind: type) -> bool:
    """Whether `kind` is the node class of a custom Function the script defined."""
    if not issubclass(kind, typeview.resolve_classes(_CUSTOM_NODE_CLASSES)):
        return False
    function_class = kind.__dict__.get("_fn_cls")
    return isinstance(function_class, type) and typeview.is_script_class(function_class)


def _custom_node_apply(node: Any) -> Any:
    """`node.apply` of a script Function's node: the engine's `_script_apply`, bound."""
    return node._script_apply


def _saved_value_reader(name: str) -> Reader:
    """`grad_fn._saved_<name>`: a tensor, a number or a tuple of them; a value holding the
    engine's arrays (an index kept as an array) is refused."""

    def read(node: Any) -> Any:
        value = check_out(getattr(node, name), node, name)
        if not _holdable_items(value, 3):
            raise AttributeError(
                f"attribute '{name}' of '{_shown_type(node)}' holds engine arrays, which scripts "
                "cannot use"
            )
        return value

    return read


def _holdable_items(value: Any, depth: int) -> bool:
    """Whether every item of a (nested) tuple or list is a value scripts may hold."""
    if not isinstance(value, (tuple, list)):
        return True
    if depth == 0:
        return False
    return all(may_hold(item) and _holdable_items(item, depth - 1) for item in value)


def _function_reader(name: str) -> Reader:
    def read(function: types.FunctionType) -> Any:
        if not _is_script_or_engine_function(function):
            raise _refuse(function, name)
        return check_out(getattr(function, name), function, name)

    return read


def make_getter(name: str) -> Reader:
    """A function `getter(obj)` reading attribute `name` under the sandbox rules (shared by
    every use of the same name: `hasattr` and format fields ask for one per call)."""
    if type(name) is not str:  # a str subclass's `startswith`/`__eq__` would decide the checks
        name = exact.text(name)
    getter = _GETTERS.get(name)
    if getter is None:
        getter = _new_getter(name)
        if len(_GETTERS) < 10_000:
            _GETTERS[name] = getter
    return getter


_GETTERS: dict[str, Reader] = {}


def _new_getter(name: str) -> Reader:
    if name in ("__name__", "__doc__"):
        return _name_getter(name)
    if name in _SPECIAL_GETTERS:
        return _SPECIAL_GETTERS[name]
    if not name_allowed(name) and (_is_dunder(name) or name.startswith(_LANG_PREFIX)):
        if name == "__init__":  # only `super().__init__(...)`

            def get_init(obj: Any) -> Any:
                if type(obj) is super:
                    return obj.__init__
                raise _refuse(obj, name)

            return get_init
        return _refuser(name)
    if name in LIBRARY_PRIVATE_NAMES:
        return _library_private_getter(name)
    readers: dict[type, Reader] = {}
    safe = _SAFE_VALUES
    plain = _PLAIN

    def get(obj: Any) -> Any:
        reader = readers.get(type(obj))
        if reader is plain:
            value = getattr(obj, name)
            if type(value) in safe:
                return value
            return check_out(value, obj, name)
        if reader is None:
            reader = readers[type(obj)] = _reader_for(type(obj), name)
            return get(obj)
        return reader(obj)

    return get


def _dict_getter(obj: Any) -> Any:
    """`obj.__dict__` of the script's own objects: the live dictionary of an instance of a
    script class over `object` or builtin values (an exception's is a copy without the
    language's marks); engine objects, classes and functions keep theirs private."""
    kind = type(obj)
    if not isinstance(obj, type) and typeview.is_script_class(kind):
        if all(
            typeview.is_script_class(klass) or klass.__module__ == "builtins"
            for klass in kind.__mro__
        ):
            try:
                own = object.__getattribute__(obj, "__dict__")
            except AttributeError:
                raise AttributeError(
                    f"'{typeview.display_name(kind)}' object has no attribute '__dict__'"
                ) from None
            if isinstance(obj, BaseException):
                return {
                    key: value
                    for key, value in own.items()
                    if not (isinstance(key, str) and key.startswith(_LANG_PREFIX))
                }
            return own
    raise _refuse(obj, "__dict__")


def _annotations_getter(obj: Any) -> Any:
    """`__annotations__` of the script's own functions and classes (and instances of such a
    class): the dictionary its annotations were stored in, whose values are script values
    (`lang/compile/annotations.py`). An engine function's or class's are refused; an instance reads the
    first class of its MRO that has annotations, which must be the script's."""
    if type(obj) is types.FunctionType:
        if obj.__dict__.get(SCRIPT_MARK):
            return check_out(obj.__annotations__, obj, "__annotations__")
    elif isinstance(obj, type):
        if typeview.is_script_class(obj):
            return check_out(obj.__annotations__, obj, "__annotations__")  # never inherited
    elif typeview.is_script_class(type(obj)):
        for klass in type(obj).__mro__:
            if "__annotations__" in klass.__dict__:
                if typeview.is_script_class(klass):
                    return check_out(klass.__dict__["__annotations__"], obj, "__annotations__")
                break
        else:
            raise AttributeError(
                f"'{typeview.display_name(type(obj))}' object has no attribute '__annotations__'"
            )
    raise _refuse(obj, "__annotations__")


# On a script function: a callable giving its `__code__` facts (`reflection.code_maker`).
CODE_ATTRIBUTE = "__autodiff_code__"


def _code_getter(obj: Any) -> Any:
    """`function.__code__` of a script function or a method bound to one: read-only facts about
    it (`reflection.CodeFacts`, made by the callable the function keeps), never a code object."""
    function = obj.__func__ if type(obj) is types.MethodType else obj
    make = function.__dict__.get(CODE_ATTRIBUTE) if type(function) is types.FunctionType else None
    if make is None:
        raise AttributeError(
            f"'{typeview.display_name(typeview.script_type(obj))}' object has no attribute "
            "'__code__'"
            if not isinstance(obj, (types.FunctionType, types.MethodType))
            else "access to attribute '__code__' is allowed in scripts only on the script's "
            "own functions"
        )
    return make()


_SPECIAL_GETTERS: dict[str, Reader] = {
    "__dict__": _dict_getter,
    "__code__": _code_getter,
    "__annotations__": _annotations_getter,
}


# Names with a leading `_` that library classes publish (a namedtuple's `_asdict`...): readable
# only on a library class (or an instance, or a script subclass) whose allow-list has them.
LIBRARY_PRIVATE_NAMES = frozenset({"_asdict", "_replace", "_fields", "_make", "_field_defaults"})


def _library_private_getter(name: str) -> Reader:
    def get(obj: Any) -> Any:
        kind = obj if isinstance(obj, type) else type(obj)
        if typeview.class_is_known(kind):
            for klass in kind.__mro__:
                if klass in typeview.LIBRARY_CLASSES:
                    if name in builtin.ALLOWED.get(klass, ()):
                        return check_out(getattr(obj, name), obj, name)
                    break
        if owns_private(obj, name):  # a script class's own `_fields`
            return check_out(getattr(obj, name), obj, name)
        raise _refuse(obj, name)

    return get


def _name_getter(name: str) -> Reader:
    def get_name(obj: Any) -> Any:
        if isinstance(obj, (type, types.FunctionType, types.BuiltinFunctionType, TypeStandIn)):
            return getattr(obj, name)
        if isinstance(obj, ModuleProxy) and name == "__name__":
            return obj._proxy_name
        raise _refuse(obj, name)

    return get_name


# ---- classes and super() ---------------------------------------------------------------------

_UNBOUND: dict[tuple[type, str], Callable[..., Any]] = {}


def _class_attribute(cls: type, name: str) -> Any:
    """`cls.name` for a class the script holds (see the module docstring)."""
    found = _defining_class(cls.__mro__, name)
    if found is None or not typeview.class_is_known(cls):
        raise _refuse(cls, name)
    if name in NODE_INTERNAL_NAMES and is_node_class(cls):
        raise _refuse(cls, name)
    owner, raw = found
    if typeview.is_script_class(owner):
        return check_out(getattr(cls, name), cls, name)
    if typeview.is_engine_class(owner):
        if name in _REFUSED_ENGINE_NAMES:
            return _engine_unbound(owner, name, lambda self: _numpy_reader(self)())
        if isinstance(raw, types.FunctionType):
            return _engine_unbound(owner, name, raw)
        if isinstance(raw, (classmethod, staticmethod)) or not hasattr(type(raw), "__get__"):
            return check_out(getattr(cls, name), cls, name)
        raise _refuse(cls, name)  # a property or other descriptor: its getter takes any self
    if owner is object or issubclass(owner, BaseException):
        raise _refuse(cls, name)
    names = builtin.ALLOWED.get(owner)
    if names is None or name not in names:
        raise _refuse(cls, name)
    if name in builtin.CHECKED_NAMES:
        key = (owner, name)
        if key not in _UNBOUND:
            _UNBOUND[key] = builtin.checked_unbound(owner, name, make_getter)
        return _UNBOUND[key]
    return getattr(cls, name)


def _defining_class(mro: tuple[type, ...], name: str) -> tuple[type, Any] | None:
    for klass in mro:
        raw = klass.__dict__.get(name, _ABSENT)
        if raw is not _ABSENT:
            return klass, raw
    return None


_ABSENT = object()


def _engine_unbound(owner: type, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """An engine method taken from its class: it refuses a `self` that is not an `owner`."""
    key = (owner, name)
    wrapper = _UNBOUND.get(key)
    if wrapper is None:

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not args:
                raise TypeError(f"unbound method {owner.__name__}.{name}() needs an argument")
            if not issubclass(type(args[0]), owner):
                raise TypeError(
                    f"descriptor '{name}' for '{owner.__name__}' objects doesn't apply to a "
                    f"'{_shown_type(args[0])}' object"
                )
            return function(*args, **kwargs)

        wrapper.__name__ = wrapper.__qualname__ = name
        wrapper.__module__ = owner.__module__  # an engine function (passes check_out)
        _UNBOUND[key] = wrapper
    return wrapper


def unbound_origin(function: Any) -> tuple[type, str] | None:
    """(class, name) of an engine method a script took from its class (`torch.Tensor.backward`
    is a checking wrapper), for help() to find its documentation."""
    for key, wrapper in _UNBOUND.items():
        if wrapper is function:
            return key
    return None


def _super_attribute(proxy: super, name: str) -> Any:
    """`super().name`: the attribute of the next class after the script class that has it."""
    this, start = proxy.__thisclass__, proxy.__self_class__
    mro = start.__mro__
    found = _defining_class(mro[mro.index(this) + 1 :], name)
    if found is None:
        raise _refuse(proxy, name)
    owner, _ = found
    target = proxy.__self__
    if typeview.is_script_class(owner) or typeview.is_engine_class(owner):
        return check_out(getattr(proxy, name), proxy, name)
    reader = _builtin_reader(owner, name) if owner is not object else None
    if reader is None or not isinstance(target, owner):
        raise _refuse(proxy, name)
    if reader is _PLAIN:
        return check_out(getattr(proxy, name), proxy, name)
    return builtin.checked_method(owner, name, target, make_getter)


def script_super(*args: Any) -> super:
    """The script's `super(cls, obj)`: `cls` must be a class the script defined."""
    if not args:
        raise RuntimeError("super(): no arguments")
    cls = args[0]
    if not isinstance(cls, type) or not typeview.is_script_class(cls):
        raise TypeError("super() in scripts takes a class the script defined as first argument")
    return super(*args)


# ---- writing ---------------------------------------------------------------------------------


def exposes_attributes(obj: Any) -> bool:
    """True when scripts may read (some) attributes of `obj` (REPL completion asks)."""
    kind = type(obj)
    if kind is types.FunctionType:
        return _is_script_or_engine_function(obj)
    if isinstance(obj, type):
        return typeview.class_is_known(obj)
    return (
        kind is ModuleProxy
        or kind in typeview.WRAPPER_CLASSES
        or (typeview.class_is_known(kind) and kind not in typeview.SCRIPT_ITERATOR_CLASSES)
    )


def _writable(obj: Any) -> bool:
    """Objects whose attributes a script may set: its own classes and functions, and objects
    (tensors, modules...) that are not shared with the engine or other scripts."""
    if isinstance(obj, type):
        return typeview.is_script_class(obj)
    if isinstance(obj, types.FunctionType):
        return bool(obj.__dict__.get(SCRIPT_MARK))
    if isinstance(obj, (types.MethodType, types.BuiltinMethodType, super, TypeStandIn)):
        return False
    kind = type(obj)
    if typeview.is_engine_class(kind) and not _owned_engine_kind(kind):
        return False  # a device, dtype, Size...: values the engine hands to every tensor
    return id(obj) not in SHARED_IDS


# Engine objects a script owns and may give attributes (`ctx.k = k`, `self.fc = ...`).
_WRITABLE_ENGINE_CLASSES = (
    ("autodiff_cli.engine.core.tensor", "Tensor"),
    ("autodiff_cli.engine.nn.module", "Module"),
    ("autodiff_cli.engine.optim.optimizer", "Optimizer"),
    ("autodiff_cli.engine.optim.lr_scheduler", "LRScheduler"),
    ("autodiff_cli.engine.utils.data", "Dataset"),
    ("autodiff_cli.engine.utils.data", "Sampler"),
    ("autodiff_cli.engine.utils.data", "DataLoader"),
    ("autodiff_cli.engine.autograd.function", "FunctionCtx"),
    ("autodiff_cli.engine.core.graph", "Node"),
)
_owned_kinds: dict[type, bool] = {}


def _owned_engine_kind(kind: type) -> bool:
    owned = _owned_kinds.get(kind)
    if owned is None:
        owned = _owned_kinds[kind] = issubclass(
            kind, typeview.resolve_classes(_WRITABLE_ENGINE_CLASSES)
        )
    return owned


def check_setattr(obj: Any, name: str) -> None:
    """Raise unless a script may assign/delete attribute `name` of `obj` (an exact `str`)."""
    if type(name) is not str:
        raise TypeError("attribute name must be an exact str")
    if not exposes_attributes(obj) or not (name_allowed(name) or owns_private(obj, name)):
        raise _refuse_assignment(obj, name)
    if name in NODE_INTERNAL_NAMES and is_node_class(type(obj)):
        raise _refuse_assignment(obj, name)
    if name in _NODE_READ_ONLY_NAMES and is_node_class(type(obj)):
        raise AttributeError(f"attribute '{name}' of '{_shown_type(obj)}' objects is not writable")
    if not _writable(obj):
        raise AttributeError(
            f"cannot set attribute '{name}' of '{_shown_type(obj)}' object: it is shared "
            "with the engine (scripts may only change their own objects)"
        )


def script_setattr(obj: Any, name: str, value: Any) -> None:
    """`obj.name = value` by a script (assignments, `setattr`, augmented assignments)."""
    check_setattr(obj, name)
    if _uses_instance_table(type(obj), name):
        table = _INSTANCE_TABLES.get(id(obj))
        if table is None:
            key = id(obj)
            table = _INSTANCE_TABLES[key] = {}
            weakref.finalize(obj, _INSTANCE_TABLES.pop, key, None)
        table[name] = value
        return
    setattr(obj, name, value)


def script_delattr(obj: Any, name: str) -> None:
    """`del obj.name` by a script (the statement and `delattr`)."""
    check_setattr(obj, name)
    if _uses_instance_table(type(obj), name):
        table = _INSTANCE_TABLES.get(id(obj))
        if table is not None and name in table:
            del table[name]
            return
        raise AttributeError(f"'{_shown_type(obj)}' object has no attribute '{name}'")
    delattr(obj, name)


# Tensors have no instance dictionary (their fields are slots the engine reads), yet PyTorch lets
# a script give one any attribute, even over a method's name (`t.retain_grad = ...`, `t.note =
# 1`): such attributes live here, by the tensor's id until it dies, and only the script's reads
# see them; the engine's own calls (`t.retain_grad()` inside the engine) never do.
_INSTANCE_TABLES: dict[int, dict[str, Any]] = {}
_TENSOR_CLASSES = (("autodiff_cli.engine.core.tensor", "Tensor"),)
_instance_table_names: dict[tuple[type, str], bool] = {}


def _uses_instance_table(kind: type, name: str) -> bool:
    """Whether `obj.name = value` on an object of `kind` goes to the instance table: a tensor's
    attribute that is not one of its fields or properties (a method's name, or a new name)."""
    key = (kind, name)
    found = _instance_table_names.get(key)
    if found is None:
        found = False
        tensor = typeview.resolve_classes(_TENSOR_CLASSES)
        if tensor and issubclass(kind, tensor) and name_allowed(name) and not _is_dunder(name):
            defined = _defining_class(kind.__mro__, name)
            found = defined is None or isinstance(
                defined[1], (types.FunctionType, staticmethod, classmethod)
            )
        if len(_instance_table_names) < 10_000:
            _instance_table_names[key] = found
    return found


def _instance_table_reader(name: str, fallback: Reader) -> Reader:
    def read(obj: Any) -> Any:
        table = _INSTANCE_TABLES.get(id(obj)) if _INSTANCE_TABLES else None
        if table is not None and name in table:
            return table[name]
        if fallback is _PLAIN:
            return check_out(getattr(obj, name), obj, name)
        return fallback(obj)

    return read


def instance_table_names(obj: Any) -> tuple[str, ...]:
    """The names a script gave `obj` through the instance table (`dir` lists them)."""
    table = _INSTANCE_TABLES.get(id(obj)) if _INSTANCE_TABLES else None
    return tuple(table) if table else ()


# Protocol methods a script may ask about with `hasattr` (d2l's `hasattr(X, "__len__")`): the
# answer comes from the dictionaries of the object's exact type (and of a class's own MRO), never
# from the object; reading them (`x.__len__`) stays refused, so no builtin method is handed out.
PROTOCOL_NAMES = frozenset({
    "__len__", "__iter__", "__next__", "__reversed__", "__getitem__", "__setitem__",
    "__delitem__", "__contains__", "__call__", "__enter__", "__exit__", "__bool__", "__int__",
    "__float__", "__index__",
})  # fmt: skip


def _has_protocol(obj: Any, name: str) -> bool:
    """Whether `obj` has the protocol method `name`, as Python's `hasattr` would say."""
    kind = type(obj)
    mros = (obj.__mro__, kind.__mro__) if issubclass(kind, type) else (kind.__mro__,)
    return any(name in klass.__dict__ for mro in mros for klass in mro)


def safe_hasattr(obj: Any, name: str) -> bool:
    if not isinstance(name, str):
        raise TypeError("hasattr(): attribute name must be string")
    name = exact.text(name)
    if name in PROTOCOL_NAMES:
        return _has_protocol(obj, name)
    try:
        make_getter(name)(obj)
    except AttributeError:
        return False
    return True
