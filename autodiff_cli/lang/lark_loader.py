"""Imports Lark without the optional third-party `regex` module it picks up when installed: the
language does not use it, and importing it costs ~8 ms of every one-liner's start-up. Import this
module before anything that imports Lark."""

from __future__ import annotations

import sys

if "lark" not in sys.modules and "regex" not in sys.modules:
    sys.modules["regex"] = None  # type: ignore[assignment]  # makes `import regex` fail
    try:
        import lark  # noqa: F401
    finally:
        del sys.modules["regex"]
