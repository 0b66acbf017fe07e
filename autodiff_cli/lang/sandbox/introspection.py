"""`dir()` and `help()` for scripts: only what the sandbox lets a script read, no pydoc.

`dir(x)` lists the attribute names a script may read on `x` (the allow-list of a builtin type,
the public names of engine, script and module objects), sorted, without evaluating any of them;
`dir()` lists the script's global names. `help(x)` prints a short text: the signature and
docstring of a function, a class's docstring and public methods, a module's public names.
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Callable
from typing import Any

from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang.sandbox import builtin_methods, capabilities, learner_docs, typeview

# marks the script's `dir` (`dir()` in a function lists its locals); a dunder, so no script
# function can carry it
LISTS_SCOPE = "__autodiff_lists_scope__"


def script_dir(namespace: dict) -> Callable[..., list[str]]:
    """The script's `dir` (without argument: the names of `namespace`; the compiler makes
    `dir()` inside a function list the function's variables)."""

    def dir(*args: Any) -> list[str]:  # noqa: A001 - the builtin's name
        if len(args) > 1:
            raise TypeError(f"dir expected at most 1 argument, got {len(args)}")
        if not args:
            return sorted(name for name in namespace if isinstance(name, str))
        return sorted(readable_names(args[0]))

    setattr(dir, LISTS_SCOPE, True)
    return dir


def readable_names(obj: Any) -> set[str]:
    """The attributes of `obj` a script may read (decided from its type; nothing is read)."""
    if isinstance(obj, capabilities.ModuleProxy):
        held = {key for key, value in vars(obj).items() if capabilities.may_hold(value)}
        return {name for name in held | set(obj._proxy_lazy) if capabilities.name_allowed(name)}
    if isinstance(obj, typeview.TypeStandIn) or not capabilities.exposes_attributes(obj):
        return set()
    if isinstance(obj, type):
        names = {name for name in _names_of(obj) if capabilities.safe_hasattr(obj, name)}
        return names - _REFUSED_ON_INSTANCES if typeview.is_engine_class(obj) else names
    kind = type(obj)
    if isinstance(obj, BaseException):
        found = {name for name in builtin_methods.EXCEPTION_ATTRIBUTES if hasattr(obj, name)}
        return found | _own_names(obj)
    allowed = builtin_methods.allowed_names(kind)
    names = _names_of(kind, obj) | _own_names(obj) | _engine_dir(obj)
    if allowed is not None:
        script_names = {name for name in names if _defined_by_script_class(kind, name)}
        return (allowed & names) | script_names | _own_names(obj)
    refused = _REFUSED_ON_INSTANCES
    if capabilities.is_node_class(
        kind
    ):  # a grad_fn's engine machinery (capabilities.NODE_INTERNAL_NAMES)
        refused = refused | capabilities.NODE_INTERNAL_NAMES
        names = {name for name in names if not _is_saved_name(name) or _node_has(obj, name)}
    names |= set(capabilities.instance_table_names(obj))
    return {name for name in names if capabilities.may_read_name(obj, name)} - refused


def _is_saved_name(name: str) -> bool:
    return name.startswith(("_saved_", "_raw_saved_"))


def _node_has(node: Any, name: str) -> bool:
    """Whether a grad_fn has the saved value `name` (node classes share the names ops show
    besides their formulas'; PyTorch lists only the node's own)."""
    try:
        capabilities.make_getter(name)(node)
    except AttributeError:
        return False
    except Exception:  # noqa: BLE001 - freed or holding engine arrays: still its name
        return True
    return True


_REFUSED_ON_INSTANCES = frozenset({"numpy"})  # engine attributes the sandbox refuses


def _names_of(cls: type, holder: Any = None) -> set[str]:
    """The names `cls` and its bases define that a script may read on `holder` (the class
    itself when not given)."""
    holder = cls if holder is None else holder
    names: set[str] = set()
    for klass in cls.__mro__:
        names.update(key for key in vars(klass) if isinstance(key, str))
    return {name for name in names if capabilities.may_read_name(holder, name)}


def _engine_dir(obj: Any) -> set[str]:
    """What an engine class's own `__dir__` adds (an nn.Module's parameters, submodules)."""
    method = getattr(type(obj), "__dir__", None)
    if method is object.__dir__ or not typeview.is_engine_class(_owner(type(obj), "__dir__")):
        return set()
    return {
        name for name in method(obj) if isinstance(name, str) and capabilities.name_allowed(name)
    }


def _owner(cls: type, name: str) -> type:
    for klass in cls.__mro__:
        if name in vars(klass):
            return klass
    return object


def _own_names(obj: Any) -> set[str]:
    try:
        own = object.__getattribute__(obj, "__dict__")
    except AttributeError:
        return set()
    return {key for key in own if isinstance(key, str) and capabilities.may_read_name(obj, key)}


def _defined_by_script_class(kind: type, name: str) -> bool:
    for klass in kind.__mro__:
        if not typeview.is_script_class(klass):
            return False
        if name in vars(klass):
            return capabilities.name_allowed(name) or capabilities.owns_private(kind, name)
    return False


# ---- help --------------------------------------------------------------------------------


def script_help(write: Callable[[str], None]) -> Callable[..., None]:
    """The script's `help`: prints a short description through `write` (the script's print)."""

    def help(*args: Any) -> None:  # noqa: A001 - the builtin's name
        if len(args) != 1:
            write("help() is not interactive in scripts: use help(object).")
            return
        write(describe(args[0]).rstrip("\n"))

    return help


def describe(obj: Any) -> str:
    if isinstance(obj, str):
        return (
            f"No Python documentation found for {obj!r}.\n"
            "Use help() to get the interactive help utility.\n"
            "Use help(str) for help on the str class."
        )
    if isinstance(obj, capabilities.ModuleProxy):
        names = sorted(readable_names(obj))
        return f"Help on module {obj._proxy_name}:\n\nNAME\n    {obj._proxy_name}\n\n" + (
            "CONTENTS\n" + _columns(names) if names else ""
        )
    if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType, types.MethodType)):
        if not capabilities.exposes_attributes(obj) and not isinstance(obj, types.MethodType):
            return f"Help on {typeview.display_name(type(obj))} object."
        return _describe_function(obj)
    if isinstance(obj, typeview.TypeStandIn):
        return f"Help on class {obj.__name__}:\n\nclass {obj.__name__}"
    kind = obj if isinstance(obj, type) else type(obj)
    if kind in typeview.WRAPPER_CLASSES:  # its public names are what scripts read
        return _describe_class(kind)
    return _describe_class(typeview.script_view_of_class(kind))


def _describe_function(function: Any) -> str:
    name = getattr(function, "__name__", "function")
    module = _module_name(getattr(function, "__module__", None))
    where = f" in module {module}" if module else ""
    kind = "method" if isinstance(function, types.MethodType) else "function"
    entry = learner_docs.doc_for(function)
    if entry is not None:
        path, signature, text = entry
        where = f" in module {learner_docs.module_of(path)}"
        return f"Help on {kind} {name}{where}:\n\n{signature}\n" + _indented(text, "    ")
    head = f"Help on {kind} {name}{where}:\n\n{signature_line(function, name)}\n"
    return head + _indented(_short_doc(function, module), "    ")


def _short_doc(obj: Any, module: str) -> str | None:
    """A script's own docstring whole; the engine's (written for its developers) cut to its
    first line, with where to read more."""
    doc = getattr(obj, "__doc__", None)
    if module != "torch":
        return doc
    first = inspect.cleandoc(doc).split("\n")[0] if isinstance(doc, str) and doc.strip() else ""
    more = _("(not described here: it works as in PyTorch, whose documentation has it)")
    return f"{first}\n{more}" if first else more


def _describe_class(cls: Any) -> str:
    if isinstance(cls, typeview.TypeStandIn):
        return f"Help on class {cls.__name__}:\n\nclass {cls.__name__}"
    name = typeview.display_name(cls)
    module = _module_name(cls.__module__)
    bases = ", ".join(typeview.display_name(base) for base in cls.__bases__ if base is not object)
    lines = [f"Help on class {name}{f' in module {module}' if module else ''}:", ""]
    lines.append(f"class {name}({bases})" if bases else f"class {name}")
    entry = learner_docs.doc_for(cls)
    if entry is not None:
        lines.append(f" |  {entry[1]}")
        lines.append(" |  ")
    doc = _indented(entry[2] if entry else _short_doc(cls, module), " |  ")
    if doc:
        lines.append(doc.rstrip("\n"))
    wrapper = cls in typeview.WRAPPER_CLASSES  # our own class: its methods read directly
    names = _names_of(cls) if wrapper else readable_names(cls)
    methods = sorted(key for key in names if _inherited_callable(cls, key))
    if methods:
        lines += [" |  ", " |  Methods:", " |  "]
        for key in methods:
            function = getattr(cls, key) if wrapper else capabilities.make_getter(key)(cls)
            method_entry = learner_docs.doc_for(function)
            doc = method_entry[2] if method_entry else getattr(function, "__doc__", None)
            first = _indented(doc, "").split("\n")[0]
            signature = method_entry[1] if method_entry else signature_line(function, key)
            lines.append(f" |  {signature}")
            if first:
                lines.append(f" |      {first}")
    return "\n".join(lines)


def _inherited_callable(cls: type, key: str) -> bool:
    for klass in cls.__mro__:
        if key in vars(klass):
            value = vars(klass)[key]
            return callable(value) or isinstance(value, (staticmethod, classmethod))
    return False


def signature_line(function: Any, name: str) -> str:
    """`name(a, b=1)`: the parameters without annotations (`name(...)` when unknown)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return f"{name}(...)"
    kinds = [parameter.kind for parameter in signature.parameters.values()]
    if kinds == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD]:
        return f"{name}(...)"  # a generic wrapper: its parameters say nothing
    empty = inspect.Parameter.empty
    plain = [parameter.replace(annotation=empty) for parameter in signature.parameters.values()]
    return f"{name}{signature.replace(parameters=plain, return_annotation=empty)}"


def _module_name(module: str | None) -> str:
    if not module:
        return ""
    if module.startswith(typeview.ENGINE_PREFIX):
        return "torch"
    return "" if module == "builtins" else module


def _indented(doc: str | None, prefix: str) -> str:
    if not isinstance(doc, str) or not doc.strip():
        return ""
    return "".join(f"{prefix}{line}".rstrip() + "\n" for line in inspect.cleandoc(doc).split("\n"))


def _columns(names: list[str]) -> str:
    return "".join(f"    {name}\n" for name in names)


def install(namespace: Any) -> None:
    """Give a script namespace `dir`, `help` and `GeneratorExit` (once)."""
    table = getattr(namespace, "builtins", None)
    if table is None or "help" in table:
        return
    printer = table.get("print", print)
    table["dir"] = script_dir(namespace)
    table["help"] = script_help(printer)
    table["GeneratorExit"] = GeneratorExit
