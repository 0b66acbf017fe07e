"""Functions the core calls but modules above it define, given by those modules when they load.

The core imports nothing above it, so no import closes a cycle: `ops/legacy_types.py` the legacy constructor (`torch.Tensor(...)`),
`ops/inplace.py` the views' bookkeeping after in-place writes, `ops/fills.py` the copy of a first
gradient under create_graph.
The engine package loads all of them before any script runs; until then each name raises."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _missing(name: str) -> Callable[..., Any]:
    def missing(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"autodiff engine: '{name}' is not loaded (import autodiff_cli.engine)")

    return missing


NAMES = (
    "legacy_new",
    "note_no_grad_view",
    "inplace_on_view",
    "after_inplace",
    "copy_of_gradient",
)
legacy_new = _missing("legacy_new")
note_no_grad_view = _missing("note_no_grad_view")
inplace_on_view = _missing("inplace_on_view")
after_inplace = _missing("after_inplace")
copy_of_gradient = _missing("copy_of_gradient")


def provide(**functions: Callable[..., Any]) -> None:
    """Gives the core the named functions (each one of `NAMES`)."""
    for name, fn in functions.items():
        if name not in NAMES:
            raise ValueError(f"provide: unknown name {name!r}")
        globals()[name] = fn
