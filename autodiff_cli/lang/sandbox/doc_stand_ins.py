"""The functions scripts get in place of the engine's (the script's `torch.tensor`, which reads
numpy wrappers), each with the path of the `learner_docs` entry it shares, so that help() shows
PyTorch's documentation for them. Weak: each namespace makes its own stand-ins. Imports nothing of
the language, so that the modules making stand-ins can register them without a cycle."""

from __future__ import annotations

import types
import weakref
from typing import Any

_STAND_INS: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def document_as(function: types.FunctionType, path: str) -> None:
    """Let `function`, a stand-in scripts get for the engine's `path`, show that path's entry."""
    _STAND_INS[function] = path


def documented_path(obj: Any) -> str | None:
    """The path a stand-in was registered with, else None."""
    return _STAND_INS.get(obj) if isinstance(obj, types.FunctionType) else None
