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
from collections.abc import Callable
from typing import Any

from autodiff_cli.lang import builtin_methods, sandbox, typeview

__all__ = ["BUILTIN_NAMES", "NAMES", "module_for", "register_class"]

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
    cls.__module__ = module
    inherited = builtin_methods.allowed_names(cls) or frozenset()
    allowed = inherited | frozenset(names.split())
    for kind in (cls, *also):
        builtin_methods.ALLOWED[kind] = allowed
    typeview.LIBRARY_CLASSES.add(cls)
    if base:
        typeview.LIBRARY_BASES.add(cls)
    return cls


def _factories() -> dict[str, Callable[[Any], dict[str, Any]]]:
    from autodiff_cli.lang.modules import (
        collections_module,
        functools_module,
        itertools_module,
        random_module,
        warnings_module,
    )

    return {
        "random": random_module.make_module,
        "warnings": warnings_module.make_module,
        "functools": functools_module.make_module,
        "itertools": itertools_module.make_module,
        "collections": collections_module.make_module,
    }


NAMES = frozenset({"random", "warnings", "functools", "itertools", "collections"})
_FACTORIES = _factories()


def module_for(namespace: Any, name: str) -> sandbox.ModuleProxy:
    """The script's own proxy of library module `name` (made on its first import)."""
    made = namespace.__dict__.setdefault("_library_modules", {})
    proxy = made.get(name)
    if proxy is None:
        proxy = made[name] = sandbox.ModuleProxy(name, _FACTORIES[name](namespace))
    return proxy
