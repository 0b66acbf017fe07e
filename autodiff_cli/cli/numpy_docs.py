"""numpy loaded without its docstrings, in the `autodiff` command's own process.

`import numpy` spends ~4 ms of its ~55 ms running two modules that only attach docstrings to
its C functions and scalar types (`numpy._core._add_newdocs`, `_add_newdocs_scalars`: text that
`help()` on a raw numpy object shows). No raw numpy object reaches a script or the user here
(`np` in scripts is the language's own module, with its own help), so the command registers
both as empty modules while numpy loads. `tests/test_numpy_docs.py` checks, on the installed
numpy, that the two modules still do nothing but attach text; the engine imported as a library
(`import autodiff_cli.engine`) loads numpy as usual.

Imports only `sys`, `types` and `lazy_imports`: it runs in every command's start-up, before
numpy.
"""

from __future__ import annotations

import sys
import types

from autodiff_cli import lazy_imports

DOCSTRING_MODULES = ("numpy._core._add_newdocs", "numpy._core._add_newdocs_scalars")


def import_numpy_without_docstrings() -> None:
    """Import numpy, its docstring modules stood in for by empty ones (unless numpy is loaded)."""
    if "numpy" in sys.modules:
        return
    stand_ins = {name: types.ModuleType(name) for name in DOCSTRING_MODULES}
    for name, module in stand_ins.items():
        sys.modules.setdefault(name, module)
    try:
        lazy_imports.load("numpy")
    finally:
        for name, module in stand_ins.items():
            if sys.modules.get(name) is module:  # a later import loads the real one
                del sys.modules[name]
