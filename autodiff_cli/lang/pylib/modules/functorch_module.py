"""`functorch` for scripts: PyTorch 2.13's deprecated aliases of `torch.func` and its
`make_functional` family (`engine/func/deprecated.py`), imported as a module of its own."""

from __future__ import annotations

from typing import Any

from autodiff_cli.engine.func import deprecated
from autodiff_cli.lang.sandbox import engine_exports


def make_module(namespace: Any) -> dict[str, Any]:
    table = dict(engine_exports.public_attributes(deprecated))
    table["torch"] = namespace.root_module("torch")
    table["__version__"] = namespace.root_module("torch").__version__
    return table
