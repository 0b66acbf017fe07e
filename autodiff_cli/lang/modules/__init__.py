"""Standard-library modules scripts may import: `random`, `warnings`, `functools`, `itertools`,
`collections`.

Each is made per script namespace as a `ModuleProxy` of sandboxed wrappers (a script's `random`
has its own generator, its `warnings` its own filters). The classes these modules hand out are
registered here as library classes: scripts may hold them and read the attributes of their
allow-list (`register_class`), sizes are bounded as for builtins, and lazy iterators record how
deep they are nested (`lang/nesting.py`).
"""

from __future__ import annotations

import builtins
import importlib
from typing import Any

from autodiff_cli.lang import builtin_methods, sandbox, typeview

__all__ = ["BUILTIN_NAMES", "NAMES", "module_for", "preload", "register_class"]

# Python's warning categories, builtins as in Python (`warnings.warn(..., DeprecationWarning)`).
BUILTIN_NAMES = {
    name: getattr(builtins, name)
    for name in (
        "Warning UserWarning DeprecationWarning PendingDeprecationWarning SyntaxWarning "
        "RuntimeWarning FutureWarning ImportWarning UnicodeWarning BytesWarning ResourceWarning "
        "EncodingWarning"
    ).split()
}


def register_class(
    cls: type,
    names: str = "",
    *,
    module: str,
    base: bool = False,
    also: tuple[type, ...] = (),
) -> type:
    """Make `cls` a library class: scripts may hold it and its instances, and read `names` on
    them (with the allow-list of its builtin base: a `defaultdict` has dict's methods too).
    `base`: scripts may derive classes from it. `also`: the real classes `cls` derives from,
    which `super()` in a script subclass reaches (same names)."""
    if cls.__module__ != module:
        cls.__module__ = module
    inherited = builtin_methods.allowed_names(cls) or frozenset()
    allowed = inherited | frozenset(names.split())
    for kind in (cls, *also):
        builtin_methods.ALLOWED[kind] = allowed
    typeview.LIBRARY_CLASSES.add(cls)
    if base:
        typeview.LIBRARY_BASES.add(cls)
    return cls


NAMES = frozenset({"random", "warnings", "functools", "itertools", "collections"})


def _submodule(name: str) -> Any:
    """The module implementing library module `name` (imported on first use: a locked-down
    child cannot import, so the parent preloads what its scripts name, `preload`)."""
    return importlib.import_module(f"{__name__}.{name}_module")


def preload(sources: bytes | None = None) -> None:
    """Import the library modules `sources` may name (all without `sources`), before a fork."""
    for name in sorted(NAMES):
        if sources is None or name.encode() in sources:
            _submodule(name)


def module_for(namespace: Any, name: str) -> sandbox.ModuleProxy:
    """The script's own proxy of library module `name` (made on its first import)."""
    made = namespace.__dict__.setdefault("_library_modules", {})
    proxy = made.get(name)
    if proxy is None:
        proxy = made[name] = sandbox.ModuleProxy(name, _submodule(name).make_module(namespace))
    return proxy
