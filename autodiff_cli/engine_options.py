"""How the engine is imported, chosen before its first import (read once, by the engine).

`autodiff grad`'s one-liner asks for a lean engine: `import autodiff_cli.engine` then leaves out
the op families an expression seldom names (`engine._EXTRA_FAMILIES`); they load on first use
of one of their names, or when the jail's warm-up sees the expression name one. Everything else
imports the whole engine. The choice is a call here, not a flag set on another module.
"""

from __future__ import annotations

_lean = False


def request_lean_engine() -> None:
    """Ask for the lean engine; only an engine not imported yet takes it."""
    global _lean
    _lean = True


def lean_engine_requested() -> bool:
    """Whether the engine, when first imported, leaves its extra op families out."""
    return _lean
