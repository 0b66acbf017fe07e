"""Errors raised while Python finalizes an object in the middle of a script.

CPython cannot raise an exception that happens while it collects an object (a script
generator's `finally` raising as the generator is dropped, a weak reference's callback) and
hands it to `sys.unraisablehook`, whose default prints a traceback of the interpreter's own
frames: host paths, the compiler's internals, and the message with its control bytes as they
are. While a script runs, `Program.run` puts `hook_for(filename)` in its place that writes one
line on stderr, located in the script where the error was raised, as Python's own report
begins ("Exception ignored ...") and escaped like every error message:

    script.py:5:9: Exception ignored while closing a generator: ValueError: boom\\x1b[31m

An interrupt (Ctrl-C, `--timeout`) swallowed that way is not reported: it stays pending and
stops the script at its next step. Scripts start no threads, so `threading.excepthook` has
nothing to report.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from autodiff_cli.lang.errors import (
    LOCATION_ATTRIBUTE,
    _own_attributes,
    error_message,
    is_user_interrupt,
    printable,
)
from autodiff_cli.lang.limits import ScriptTimeout


def _what(obj: Any) -> str:
    """What was being finalized, in words (its repr would show the compiler's internals)."""
    if isinstance(obj, types.GeneratorType):
        return "while closing a generator"
    return "in a finalizer"


def _line(unraisable: Any, filename: str) -> str | None:
    error = unraisable.exc_value
    if error is None or is_user_interrupt(error) or isinstance(error, ScriptTimeout):
        return None
    location = _own_attributes(error).get(LOCATION_ATTRIBUTE)
    where = (
        f"{location.source.filename}:{location.line}:{location.column}"
        if location is not None
        else filename
    )
    message = error_message(error)
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return printable(f"{where}: Exception ignored {_what(unraisable.object)}: {text}")


def hook_for(filename: str) -> Any:
    """An unraisable hook for a run of the script `filename` (see the module docstring)."""

    def report(unraisable: Any) -> None:
        try:
            line = _line(unraisable, filename)
            if line is not None:
                sys.stderr.write(line + "\n")
                sys.stderr.flush()
        except BaseException:  # noqa: BLE001, S110 - a report must never fail a collection
            pass

    return report
