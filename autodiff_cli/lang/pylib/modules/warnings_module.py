"""`warnings` for scripts: `warn`, `simplefilter`, `filterwarnings`, `resetwarnings`,
`catch_warnings` (with `record=True`), over filters of the script's own.

A warning is located at the script statement running (`stacklevel` counts script function
calls) and shown on stderr as `file:line: Category: message`, once per line under the default
action (as `autodiff run` shows the engine's warnings). Once the script changes its filters or
enters `catch_warnings`, the engine's warnings go through the script's filters too.
"""

from __future__ import annotations

import os
import re
import sys
import warnings as _warnings
from typing import Any

from autodiff_cli.lang import errors
from autodiff_cli.lang.pylib.modules.registry import register_class
from autodiff_cli.lang.sandbox.typeview import TypeStandIn

_ACTIONS = ("error", "ignore", "always", "default", "module", "once")
_PACKAGE_DIR = os.path.realpath(os.path.join(__file__, *[os.pardir] * 4))  # autodiff_cli/
Filter = tuple[str, Any, type, Any, int]


def _default_filters() -> list[Filter]:
    return [
        ("default", None, DeprecationWarning, re.compile("__main__"), 0),
        ("ignore", None, DeprecationWarning, None, 0),
        ("ignore", None, PendingDeprecationWarning, None, 0),
        ("ignore", None, ImportWarning, None, 0),
        ("ignore", None, ResourceWarning, None, 0),
    ]


class WarningMessage:
    """One recorded warning (`catch_warnings(record=True)`)."""

    def __init__(self, message: Warning, category: type, filename: str, lineno: int) -> None:
        self.message, self.category = message, category
        self.filename, self.lineno = filename, lineno
        self.file = self.line = self.source = None

    def __str__(self) -> str:
        return (
            f"{{message : {self.message!r}, category : {self.category.__name__!r}, filename : "
            f"{self.filename!r}, lineno : {self.lineno}, line : {self.line!r}}}"
        )


register_class(WarningMessage, "message category filename lineno file line source",
               module="warnings")  # fmt: skip


# ---- where the script is ---------------------------------------------------------------------


def _location(namespace: Any, stacklevel: int) -> tuple[str, int, str]:
    """(filename, line, module) of the script frame `stacklevel` calls up (the running script's
    statements, innermost first, as its namespace reads them from the stack)."""
    frames = [where for where in namespace.statement_locations() if where is not None]
    level = max(stacklevel, 1)
    if level > len(frames):
        return "sys", 1, "sys"
    where = frames[level - 1]
    return where.source.filename, where.line, "__main__"


# ---- the script's filters --------------------------------------------------------------------


class _State:
    """A script's filters, the warnings already shown, and where warnings are recorded."""

    def __init__(self, namespace: Any) -> None:
        self.namespace = namespace
        self.filters: list[Filter] = _default_filters()
        self.shown: set[tuple] = set()  # "default"/"module" keys (cleared when filters change)
        self.once: set[tuple] = set()
        self.record: list | None = None
        self.hooked = False

    def changed(self) -> None:
        self.shown.clear()
        self.hook_engine()

    def hook_engine(self) -> None:
        """From now on, the engine's warnings go through these filters (again after a REPL
        statement's own warning context restored Python's handler)."""
        self.hooked = True
        if _warnings.showwarning != self.engine_warning:
            _warnings.showwarning = self.engine_warning

    def engine_warning(self, message: Any, category: type, filename: str, lineno: int,
                       file: Any = None, line: Any = None) -> None:  # fmt: skip
        module = "__main__"
        if str(filename).startswith(_PACKAGE_DIR):
            located = self.namespace.statement_locations()
            frames = [where for where in located if where is not None]
            filename, lineno = (frames[0].source.filename, frames[0].line) if frames else ("sys", 1)
        self.handle(message, category, str(filename), lineno, module)

    def action_for(self, text: str, category: type, module: str, lineno: int) -> str:
        for action, message, kind, module_pattern, line in self.filters:
            if (
                (message is None or message.match(text))
                and issubclass(category, kind)
                and (module_pattern is None or module_pattern.match(module))
                and (line == 0 or line == lineno)
            ):
                return action
        return "default"

    def handle(self, message: Any, category: type, filename: str, lineno: int, module: str):  # noqa: ANN201
        if isinstance(message, Warning):
            text, category = str(message), type(message)
        else:
            text, message = str(message), category(message)
        action = self.action_for(text, category, module, lineno)
        if action == "error":
            raise message
        if action == "ignore":
            return
        key: tuple = (text, category)
        if action == "once":
            if key in self.once:
                return
            self.once.add(key)
        elif action in ("default", "module"):
            key = (text, category, lineno if action == "default" else 0, filename)
            if key in self.shown:
                return
            self.shown.add(key)
        self.show(message, category, filename, lineno)

    def show(self, message: Warning, category: type, filename: str, lineno: int) -> None:
        if self.record is not None:
            self.record.append(WarningMessage(message, category, filename, lineno))
            return
        stdout = self.namespace.stdout if self.namespace.stdout is not None else sys.stdout
        stdout.flush()
        text = f"{filename}:{lineno}: {category.__name__}: {message}"
        sys.stderr.write(errors.printable(text, keep_newlines=True) + "\n")
        sys.stderr.flush()

    def add_filter(self, item: Filter, append: bool) -> None:
        if not append:
            if item in self.filters:
                self.filters.remove(item)
            self.filters.insert(0, item)
        elif item not in self.filters:
            self.filters.append(item)
        self.changed()


def _check_category(category: Any) -> type:
    if not (isinstance(category, type) and issubclass(category, Warning)):
        shown = "type" if isinstance(category, (type, TypeStandIn)) else type(category).__name__
        raise TypeError(f"category must be a Warning subclass, not '{shown}'")
    return category


def _check_filter_arguments(action: Any, category: Any, lineno: Any) -> None:
    if action not in _ACTIONS:
        raise AssertionError(f"invalid action: {action!r}")
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise AssertionError("category must be a Warning subclass")
    if not (isinstance(lineno, int) and lineno >= 0):
        raise AssertionError("lineno must be an int >= 0")


class catch_warnings:  # noqa: N801 - the name scripts see
    """`warnings.catch_warnings`: the filters (and where warnings go) are restored on exit."""

    def __init__(self, *, record: bool = False, module: Any = None, action: Any = None,
                 category: Any = Warning, lineno: int = 0, append: bool = False) -> None:  # fmt: skip
        self._record = bool(record)
        self._filter = (action, category, lineno, append) if action is not None else None
        self._saved: Any = None

    def __repr__(self) -> str:
        return "catch_warnings(record=True)" if self._record else "catch_warnings()"

    def __enter__(self) -> list | None:
        if self._saved is not None:
            raise RuntimeError(f"Cannot enter {self!r} twice")
        state = self._state
        self._saved = (list(state.filters), state.record)
        state.changed()
        if self._filter is not None:
            action, category, lineno, append = self._filter
            _simplefilter(state, action, category, lineno, append)
        if self._record:
            state.record = []
            return state.record
        return None

    def __exit__(self, *exc_info: Any) -> None:
        if self._saved is None:
            raise RuntimeError(f"Cannot exit {self!r} without entering first")
        state = self._state
        state.filters, state.record = self._saved
        state.changed()


def _simplefilter(state: _State, action: Any, category: Any, lineno: Any, append: Any) -> None:
    _check_filter_arguments(action, category, lineno)
    state.add_filter((action, None, category, None, int(lineno)), bool(append))


def make_module(namespace: Any) -> dict[str, Any]:
    """The script's `warnings`, over filters of its own."""
    state = _State(namespace)

    def warn(message: Any, category: Any = None, stacklevel: int = 1, source: Any = None) -> None:
        if isinstance(message, Warning):
            category = type(message)
        category = _check_category(UserWarning if category is None else category)
        filename, lineno, module = _location(namespace, int(stacklevel))
        if state.hooked:
            state.hook_engine()
        state.handle(message, category, filename, lineno, module)

    def simplefilter(action: Any, category: Any = Warning, lineno: Any = 0, append: Any = False):  # noqa: ANN202
        _simplefilter(state, action, category, lineno, append)

    def filterwarnings(action: Any, message: Any = "", category: Any = Warning, module: Any = "",
                       lineno: Any = 0, append: Any = False) -> None:  # fmt: skip
        _check_filter_arguments(action, category, lineno)
        if not isinstance(message, str):
            raise AssertionError("message must be a string")
        if not isinstance(module, str):
            raise AssertionError("module must be a string")
        item = (
            action,
            re.compile(message, re.I) if message else None,
            category,
            re.compile(module) if module else None,
            int(lineno),
        )
        state.add_filter(item, bool(append))

    def resetwarnings() -> None:
        state.filters = []
        state.changed()

    class _CatchWarnings(catch_warnings):
        _state = state

    _CatchWarnings.__name__ = _CatchWarnings.__qualname__ = "catch_warnings"
    register_class(_CatchWarnings, module="warnings")
    return {
        "warn": warn,
        "simplefilter": simplefilter,
        "filterwarnings": filterwarnings,
        "resetwarnings": resetwarnings,
        "catch_warnings": _CatchWarnings,
        "WarningMessage": WarningMessage,
    }
