"""Imports the parts of Lark that parsing needs, and only those. Imported first by the `lang`
package, before anything that imports Lark.

Parsing with the shipped tables needs Lark's lexer, tree, LALR parser and indenter modules.
`import lark` runs the package's `__init__`, which also loads the Earley and CYK parsers and
more (~10 ms of every one-liner's start-up). So the package is registered without running its
`__init__`, and the runtime modules are imported into it; the `__init__` runs on the first access
to anything else of the package (`from lark import Lark`, `lark.__version__`), so that other code
still sees the usual `lark`. Lark also picks up the optional third-party `regex` module when
installed: the language does not use it, and importing it costs ~8 ms; it is kept out.

`lark.indenter` takes one name from `lark.lark`: `PostLex`, the interface of a post-lexer (an
abstract `process(stream)` and `always_accept`). Importing `lark.lark` itself loads the grammar
loader, the Earley and CYK frontends, `hashlib` and `pkgutil` (~15-20 ms of a one-liner). So while
`lark.indenter` loads, `lark.lark` is a stand-in module holding only an equivalent `PostLex`;
then the stand-in is removed, and a later `from lark import Lark` (the table builder, tests)
imports the real `lark.lark`. The indenter only ever runs in our own parser (`parse_tables`),
never inside a `Lark` frontend, so its base being the stand-in's `PostLex` changes nothing.

Likewise `lark.utils` makes Lark's `logger` at import (`logging.getLogger("lark")`, a stream
handler, level CRITICAL), which loads `logging` (~1.5 ms). While it loads, `logging` is a
stand-in whose `getLogger` gives a `DeferredLogger`: Lark's setup calls are dropped, and the first
later use of the logger makes the real one, set up as Lark sets it up. The parser never logs (Lark
logs while building tables and lexers, which `table_builder` does with `logging` loaded).
"""

from __future__ import annotations

import importlib.util
import sys
import types
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import Any

RUNTIME_MODULES = (
    "lark.lexer",
    "lark.tree",
    "lark.exceptions",
    "lark.common",
    "lark.parsers.lalr_parser",
)


class PostLex(ABC):
    """The post-lexer interface `lark.indenter.Indenter` derives from (see the module docstring)."""

    @abstractmethod
    def process(self, stream: Iterator[Any]) -> Iterator[Any]:
        return stream

    always_accept: Iterable[str] = ()


def _import_indenter(package: Any) -> None:
    """`lark.indenter`, with a stand-in `lark.lark` that holds only `PostLex` while it loads."""
    stand_in = types.ModuleType("lark.lark")
    stand_in.PostLex = PostLex  # type: ignore[attr-defined]
    sys.modules["lark.lark"] = stand_in
    try:
        importlib.import_module("lark.indenter")
    finally:
        del sys.modules["lark.lark"]
        package.__dict__.pop("lark", None)  # the attribute the submodule import set


class DeferredLogger:
    """Lark's `logger`, made on first use (see the module docstring)."""

    def __init__(self) -> None:
        self._real: Any = None
        self._ready = False  # False while Lark's import sets it up

    def __getattr__(self, name: str) -> Any:
        if not self._ready:  # addHandler(StreamHandler()), setLevel(CRITICAL): see _real_logger
            return _ignored
        if self._real is None:
            self._real = _real_logger()
        return getattr(self._real, name)


def _ignored(*_: Any) -> None:
    return None


def _real_logger() -> Any:
    import logging

    logger = logging.getLogger("lark")
    if not logger.handlers:
        logger.addHandler(logging.StreamHandler())
        logger.setLevel(logging.CRITICAL)
    return logger


def _with_deferred_logging(load: Any) -> None:
    """Run `load` with a stand-in `logging` module (unless the real one is loaded already)."""
    if "logging" in sys.modules:
        load()
        return
    logger = DeferredLogger()
    stand_in = types.ModuleType("logging")
    stand_in.Logger = DeferredLogger  # type: ignore[attr-defined]  # (Lark's annotation)
    stand_in.getLogger = lambda name: logger  # type: ignore[attr-defined]
    stand_in.StreamHandler = _ignored  # type: ignore[attr-defined]
    stand_in.CRITICAL = 50  # type: ignore[attr-defined]
    sys.modules["logging"] = stand_in
    try:
        load()
    finally:
        del sys.modules["logging"]
        logger._ready = True


def _without_regex(load: Any) -> None:
    blocked = "regex" not in sys.modules
    if blocked:
        sys.modules["regex"] = None  # type: ignore[assignment]  # makes `import regex` fail
    try:
        load()
    finally:
        if blocked:
            del sys.modules["regex"]


def _lazy_package() -> Any:
    """The `lark` package module, registered but not initialised; None if Lark is not found
    as a regular package."""
    spec = importlib.util.find_spec("lark")
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return None
    package = importlib.util.module_from_spec(spec)
    initialising = False

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module hook (PEP 562)
        nonlocal initialising
        if initialising:
            raise AttributeError(f"module 'lark' has no attribute {name!r}")
        initialising = True
        _without_regex(lambda: spec.loader.exec_module(package))
        return getattr(package, name)

    package.__getattr__ = __getattr__
    return package


def _load() -> None:
    if "lark" in sys.modules:
        return
    package = _lazy_package()
    if package is not None:
        sys.modules["lark"] = package
        try:
            for name in RUNTIME_MODULES:
                importlib.import_module(name)
            _import_indenter(package)
            return
        except Exception:  # noqa: BLE001 - an unexpected layout: import Lark as usual
            for name in [name for name in sys.modules if name.split(".")[0] == "lark"]:
                del sys.modules[name]
    import lark  # noqa: F401


_with_deferred_logging(lambda: _without_regex(_load))
