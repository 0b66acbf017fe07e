"""The one attribute checker every script attribute access goes through, and safe `str.format`.

Rules: names starting with `_` are refused, except `_version`, `_saved_*`, and `__name__`/`__doc__`
on types and functions. Only objects of safe types expose attributes at all: builtin values and
containers, exceptions, functions/classes the script defined, module proxies, and objects whose
type comes from `autodiff_cli.engine`.
"""

from __future__ import annotations

import types
from typing import Any

ENGINE_PREFIX = ("autodiff_cli.engine", "torch")  # engine classes present as `torch.Tensor`
SCRIPT_MARK = "__autodiff_script__"  # set on functions and classes a script defines

_SAFE_BUILTIN_TYPES = {
    str, int, float, complex, bool, type(None), list, tuple, dict, set, frozenset, slice, range,
    type(Ellipsis), types.MethodType, types.BuiltinMethodType, super,
    type({}.keys()), type({}.values()), type({}.items()),
}  # fmt: skip
_type_cache: dict[type, bool] = {}
# ids of engine objects every script shares (dtypes...): scripts must not set their attributes
SHARED_IDS: set[int] = set()
_PADDING_METHODS = {"ljust", "rjust", "center", "zfill", "expandtabs"}


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
        raise AttributeError(f"module '{self._proxy_name}' has no attribute '{name}'")

    def __repr__(self) -> str:
        return f"<module '{self._proxy_name}'>"


def _type_is_safe(kind: type) -> bool:
    safe = _type_cache.get(kind)
    if safe is None:
        module = getattr(kind, "__module__", "") or ""
        safe = (
            kind in _SAFE_BUILTIN_TYPES
            or issubclass(kind, BaseException)
            or kind is ModuleProxy
            or module.startswith(ENGINE_PREFIX)
            or bool(kind.__dict__.get(SCRIPT_MARK))
            or any(base.__dict__.get(SCRIPT_MARK) for base in kind.__mro__[1:-1])
        )
        _type_cache[kind] = safe
    return safe


def exposes_attributes(obj: Any) -> bool:
    """True when scripts may read/write attributes of `obj`."""
    kind = type(obj)
    if kind is types.FunctionType:
        return bool(obj.__dict__.get(SCRIPT_MARK)) or (obj.__module__ or "").startswith(
            ENGINE_PREFIX
        )
    if isinstance(obj, type):
        return (
            bool(obj.__dict__.get(SCRIPT_MARK))
            or (obj.__module__ or "").startswith(ENGINE_PREFIX)
            or _is_script_class(obj)
            or obj in _SAFE_BUILTIN_TYPES
            or issubclass(obj, BaseException)
        )
    return _type_is_safe(kind)


def _writable(obj: Any) -> bool:
    """Objects whose attributes a script may set: its own classes and functions, and objects
    (tensors, modules...) that are not shared with the engine or other scripts."""
    if isinstance(obj, type):
        return _is_script_class(obj)
    if isinstance(obj, types.FunctionType):
        return bool(obj.__dict__.get(SCRIPT_MARK))
    if isinstance(obj, (types.MethodType, types.BuiltinMethodType, super)):
        return False
    return id(obj) not in SHARED_IDS


def _is_script_class(cls: type) -> bool:
    return any(base.__dict__.get(SCRIPT_MARK) for base in cls.__mro__)


def name_allowed(name: str) -> bool:
    """Attribute names scripts may use on any exposed object."""
    return not name.startswith("_") or name == "_version" or name.startswith("_saved_")


def _refuse(obj: Any, name: str) -> AttributeError:
    if not name_allowed(name):
        return AttributeError(
            f"access to attribute '{name}' of '{type(obj).__name__}' object is not allowed "
            "in scripts (names starting with '_' are private)"
        )
    return AttributeError(
        f"access to attributes of '{type(obj).__name__}' objects is not allowed in scripts"
    )


def make_getter(name: str):  # noqa: ANN201 - returns a hot-path closure
    """A function `getter(obj)` reading attribute `name` under the sandbox rules."""
    if name in ("__name__", "__doc__"):

        def get_name(obj: Any) -> Any:
            if isinstance(obj, (type, types.FunctionType, types.BuiltinFunctionType)):
                return getattr(obj, name)
            if isinstance(obj, ModuleProxy) and name == "__name__":
                return obj._proxy_name
            raise _refuse(obj, name)

        return get_name
    if not name_allowed(name):
        if name == "__init__":  # only `super().__init__(...)`

            def get_init(obj: Any) -> Any:
                if type(obj) is super:
                    return obj.__init__
                raise _refuse(obj, name)

            return get_init

        def refuse(obj: Any) -> Any:
            raise _refuse(obj, name)

        return refuse
    if name in ("format", "format_map"):
        return _format_getter(name)
    if name in _PADDING_METHODS or name == "replace":
        return _string_method_getter(name)
    cache = _type_cache

    def get(obj: Any) -> Any:
        if cache.get(type(obj)) or exposes_attributes(obj):
            return getattr(obj, name)
        raise _refuse(obj, name)

    return get


def _format_getter(name: str):  # noqa: ANN202
    def get(obj: Any) -> Any:
        if isinstance(obj, str):
            if name == "format":
                return lambda *args, **kwargs: safe_format(obj, args, kwargs)
            return lambda mapping: safe_format(obj, (), mapping)
        if exposes_attributes(obj):
            return getattr(obj, name)
        raise _refuse(obj, name)

    return get


def _string_method_getter(name: str):  # noqa: ANN202
    """`ljust`, `center`... and `replace` of str, refusing results past the element cap."""
    from autodiff_cli.lang import limits

    def get(obj: Any) -> Any:
        method = getattr(obj, name) if exposes_attributes(obj) else None
        if method is None:
            raise _refuse(obj, name)
        if not isinstance(obj, str):
            return method
        if name == "replace":

            def replace(old: Any, new: Any, count: int = -1) -> str:
                if isinstance(old, str) and isinstance(new, str) and len(new) > len(old):
                    found = obj.count(old) if count < 0 else min(count, obj.count(old))
                    limits.check_length(len(obj) + found * (len(new) - len(old)), "str")
                return method(old, new, count)

            return replace

        def pad(width: Any = 8, *args: Any) -> str:
            limits.checked_width(width * max(1, obj.count("\t")) if name == "expandtabs" else width)
            return method(width, *args)

        return pad

    return get


def check_setattr(obj: Any, name: str) -> None:
    """Raise unless a script may assign/delete attribute `name` of `obj`."""
    if not name_allowed(name) or not exposes_attributes(obj):
        raise _refuse(obj, name)
    if not _writable(obj):
        raise AttributeError(
            f"cannot set attribute '{name}' of '{type(obj).__name__}' object: it is shared "
            "with the engine (scripts may only change their own objects)"
        )


def safe_hasattr(obj: Any, name: str) -> bool:
    if not isinstance(name, str):
        raise TypeError("hasattr(): attribute name must be string")
    try:
        make_getter(name)(obj)
    except AttributeError:
        return False
    return True


def _formatter():  # noqa: ANN202 - built on first use (keeps `import string` off start-up)
    global _FORMATTER
    if _FORMATTER is None:
        import string

        class SafeFormatter(string.Formatter):
            """`str.format` whose `{0.attr}` / `{0[key]}` fields obey the attribute rules."""

            def get_field(self, field_name: str, args: Any, kwargs: Any) -> Any:
                import _string

                first, rest = _string.formatter_field_name_split(field_name)
                obj = self.get_value(first, args, kwargs)
                for is_attribute, key in rest:
                    obj = make_getter(key)(obj) if is_attribute else obj[key]
                return obj, first

            def format_field(self, value: Any, format_spec: str) -> Any:
                from autodiff_cli.lang import limits

                limits.check_format_spec(format_spec)
                return super().format_field(value, format_spec)

        _FORMATTER = SafeFormatter()
    return _FORMATTER


_FORMATTER = None


def safe_format(template: str, args: Any, kwargs: Any) -> str:
    return _formatter().vformat(template, args, kwargs)
