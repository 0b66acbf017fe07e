"""Why a script cannot have something that Python, numpy or PyTorch has: errors say it "is not
available in scripts" and why, never that it does not exist (a learner would look for a typo);
what really does not exist gets Python's own message.

Whether an attribute exists is decided from the class dictionaries and the instance dictionary
alone: no getter, `__getattr__` or other code of the object runs to find out.
"""

from __future__ import annotations

import builtins
import sys
from typing import Any

from autodiff_cli.i18n import gettext as _

# reasons, marked for translation (xgettext reads `_N`); translated when a message is made
_N = str

FILES = _N("scripts cannot read or write files; io.BytesIO keeps bytes in memory")
SYSTEM = _N("scripts cannot reach the operating system, processes or the network")
CLOCK = _N("scripts are not given the clock or sleep")
CODE = _N("scripts cannot load or build code outside the language")
TERMINAL = _N("scripts cannot read the terminal; give values in the script or with --at")
PRIVATE = _N("names starting with '_' are private to Python and the engine")
OUTSIDE = _N("it reaches beyond the objects scripts may use; see SECURITY.md")
IMPORTABLE = _N(
    "scripts can import torch, numpy, math, random, warnings, functools, itertools, "
    "collections, copy and io"
)

_MODULE_REASONS = {
    **dict.fromkeys(("time", "datetime", "sched", "asyncio"), CLOCK),
    **dict.fromkeys(
        ("os", "sys", "subprocess", "shutil", "pathlib", "socket", "signal", "threading",
         "multiprocessing", "ctypes", "resource", "platform", "tempfile", "glob", "fcntl",
         "select", "mmap", "urllib", "http", "ssl", "concurrent", "gc", "inspect"),
        SYSTEM,
    ),
    **dict.fromkeys(("pickle", "marshal", "shelve", "importlib", "builtins", "code", "types",
                     "dis", "runpy", "pkgutil", "zipimport"), CODE),
    **dict.fromkeys(("io", "csv", "json", "sqlite3", "zipfile", "tarfile", "gzip"), FILES),
}  # fmt: skip
_BUILTIN_REASONS = {
    "open": FILES,
    "input": TERMINAL,
    "breakpoint": TERMINAL,
    "exec": CODE,
    "compile": CODE,
    "__import__": CODE,
    "globals": OUTSIDE,
    "locals": OUTSIDE,
    "vars": OUTSIDE,
    "memoryview": OUTSIDE,
    "exit": SYSTEM,
    "quit": SYSTEM,
}
_FILE_FUNCTIONS = frozenset({
    "load", "save", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt", "fromfile",
    "tofile", "memmap", "open", "fromregex", "DataSource",
})  # fmt: skip
THIRD_PARTY = frozenset({"scipy", "sympy", "pandas", "matplotlib", "sklearn", "jax", "tensorflow"})
IMPORTED = frozenset({"torch", "numpy"})


def _reason_text(reason: str) -> str:
    return f" ({_(reason)})"


def module_message(name: str) -> str:
    """ModuleNotFoundError's text for `import name`: Python's own for a module nobody has."""
    first = name.partition(".")[0]
    if "." in name or first in IMPORTED:  # a part of a module: withheld only if it exists
        known = name in sys.modules
    else:
        known = first in getattr(sys, "stdlib_module_names", ()) or first in THIRD_PARTY
    if known:
        reason = _MODULE_REASONS.get(first, IMPORTABLE)
        return _("module '{name}' is not available in scripts").format(name=name) + _reason_text(
            reason
        )
    return f"No module named '{name}'"


def builtin_message(name: str) -> str | None:
    """NameError's text for a Python builtin scripts are not given (None: not a builtin)."""
    if name not in vars(builtins) or name.startswith("_") and name != "__import__":
        return None
    reason = _BUILTIN_REASONS.get(name, OUTSIDE)
    return _("name '{name}' is not available in scripts").format(name=name) + _reason_text(reason)


def module_attribute_message(module: str, name: str) -> str:
    """AttributeError's text for `module.name` the script's view of the module lacks."""
    real = sys.modules.get(module)
    if real is not None and not name.startswith("_") and name in vars(real):
        reason = FILES if name in _FILE_FUNCTIONS else OUTSIDE
        text = _("module '{module}' attribute '{name}' is not available in scripts")
        return text.format(module=module, name=name) + _reason_text(reason)
    return f"module '{module}' has no attribute '{name}'"


def exists(obj: Any, name: str) -> bool:
    """Whether `obj` has attribute `name`, judged from dictionaries only (see module doc)."""
    classes = list(type(obj).__mro__)
    if isinstance(obj, type):
        classes = list(obj.__mro__) + classes
    for klass in classes:
        if name in type.__dict__["__dict__"].__get__(klass):
            return True
    try:
        own = object.__getattribute__(obj, "__dict__")
    except Exception:  # noqa: BLE001 - no instance dictionary (or a script's odd `__dict__`)
        return False
    return type(own) is dict and name in own


def missing_message(obj: Any, name: str, shown_type: str) -> str:
    """Python's message for an attribute that does not exist."""
    if isinstance(obj, type):
        return f"type object '{shown_type}' has no attribute '{name}'"
    return f"'{shown_type}' object has no attribute '{name}'"


def withheld_message(subject: str, name: str, private: bool) -> str:
    """The message for an attribute that exists and that scripts may not read; `subject` is
    `'Tensor' objects` or `class 'int'`."""
    text = _("attribute '{name}' of {subject} is not available in scripts")
    return text.format(name=name, subject=subject) + _reason_text(PRIVATE if private else OUTSIDE)
