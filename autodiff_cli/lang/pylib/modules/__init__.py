"""Standard-library modules scripts may import: `random`, `warnings`, `functools`, `itertools`,
`collections`, `copy`, `io` (BytesIO, for torch.save), `typing` (forms of our own) and
`functorch` (PyTorch's deprecated aliases of `torch.func`).

Each is made per script namespace as a `ModuleProxy` of sandboxed wrappers (a script's `random`
has its own generator, its `warnings` its own filters). The classes these modules hand out are
registered here as library classes: scripts may hold them and read the attributes of their
allow-list (`register_class`), sizes are bounded as for builtins, and lazy iterators record how
deep they are nested (`lang/sandbox/nesting.py`).
"""

from __future__ import annotations

import builtins
import importlib
from typing import Any

# (collections_module registers CPython's OrderedDict and defaultdict, which the engine hands
# out whether or not a script imports `collections`: `torch.load` of a state dict, a saved
# optimizer's state. Imported here, they are known in every run, jailed or in-process.)
from autodiff_cli.lang.pylib.modules import collections_module  # noqa: F401
from autodiff_cli.lang.pylib.modules.registry import register_class
from autodiff_cli.lang.sandbox import capabilities

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


NAMES = frozenset({
    "random", "warnings", "functools", "itertools", "collections", "copy", "io", "typing",
    "functorch",
})  # fmt: skip


def _submodule(name: str) -> Any:
    """The module implementing library module `name` (imported on first use: a locked-down
    child cannot import, so the parent preloads what its scripts name, `preload`)."""
    return importlib.import_module(f"{__name__}.{name}_module")


def preload(sources: bytes | None = None) -> None:
    """Import the library modules `sources` may name (all without `sources`), before a fork."""
    for name in sorted(NAMES):
        if sources is None or name.encode() in sources:
            _submodule(name)


def module_for(namespace: Any, name: str) -> capabilities.ModuleProxy:
    """The script's own proxy of library module `name` (made on its first import)."""
    made = namespace.__dict__.setdefault("_library_modules", {})
    proxy = made.get(name)
    if proxy is None:
        proxy = made[name] = capabilities.ModuleProxy(name, _submodule(name).make_module(namespace))
    return proxy
