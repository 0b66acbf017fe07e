"""Reporting script failures and engine warnings on stderr, never on stdout."""

from __future__ import annotations

import os
import sys
import traceback
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

from autodiff_cli.cli.output import optional
from autodiff_cli.cli.output.hints import hint_for
from autodiff_cli.cli.output.terminal import print_error
from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang import ScriptError
from autodiff_cli.lang.errors import Location, error_message, printable, safe_str
from autodiff_cli.lang.runtime.script_stack import stack_of

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))


def report_exception(error: BaseException, *, debug: bool, context: str = "") -> None:
    """Print a failure: a ScriptError's located text, or `Type: message` for anything else.

    With `debug`, the Python traceback follows: the ScriptError's `__cause__` (the exception
    raised inside the engine or the runtime), or the error itself when it has no cause.
    """
    if isinstance(error, ScriptError):
        text = str(error) + call_stack_text(error)
    else:
        prefix = f"{context}: " if context else ""
        text = f"{prefix}error\n{type(error).__name__}: {error_message(error)}"
    print_error(text)

    hint = hint_for(error)
    if hint is not None:
        print_error(hint)
    if debug:
        shown = error.__cause__ if error.__cause__ is not None else error
        try:  # the traceback module reads attributes a script class may define
            print_error("".join(traceback.format_exception(shown)).rstrip("\n"))
        except BaseException:  # noqa: BLE001
            print_error("(the Python traceback cannot be shown for this error)")


def call_stack_text(error: BaseException) -> str:
    """The script's frames an error passed through, as lines after its message, when it
    happened inside a script function (only the script's frames, as Python's traceback shows
    them: `  deep.py:9 in main` and the source line); '' at the top level."""
    cause = error.__cause__
    entries = stack_of(cause) if cause is not None else []
    if len(entries) < 2:
        return ""
    lines = ["", _("Script call stack (most recent call last):")]
    for filename, line, name, source in entries:
        lines.append(printable(f"  {filename}:{line} in {name}"))
        if source.strip():
            lines.append("    " + printable(source.strip()))
    return "\n".join(lines)


def _script_line(script_name: str) -> int | None:
    """The line of the script statement running now, read from the language's statement frames.

    Compiled statements keep their `Location` in a local named `where`; the innermost one that
    belongs to this script is the statement that triggered the warning.
    """
    frame = sys._getframe(1)
    while frame is not None:
        where = frame.f_locals.get("where") if frame.f_code.co_name == "run" else None
        if isinstance(where, Location) and where.source.filename == script_name:
            return where.line
        frame = frame.f_back
    return None


@contextmanager
def warnings_to_stderr(script_name: str) -> Iterator[None]:
    """Show Python warnings raised while a script runs as `file:line: Category: message`.

    A warning raised inside this package (the engine warning on the script's behalf) is
    attributed to the script statement running at the time; like Python's default filter, each
    message is shown once per script line.
    """
    shown: set[tuple] = set()

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        if str(filename).startswith(_PACKAGE_DIR):
            filename, lineno = script_name, _script_line(script_name)
        key = (filename, lineno, category, str(message))
        if key in shown:
            return
        shown.add(key)
        location = filename if lineno is None else f"{filename}:{lineno}"
        print_error(f"{location}: {category.__name__}: {message}")

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = show
        yield


def exit_on_interrupt() -> int:
    """The exit status after Ctrl-C, printed as Python prints it."""
    print_error("KeyboardInterrupt")
    return 130


def json_error(
    type_name: str,
    message: str,
    file: str | None = None,
    line: int | None = None,
    column: int | None = None,
) -> None:
    """An error under `--json`: `{"error": {"type", "message", "file", "line", "column"}}` as
    one line on stdout (`null` for what is not known)."""
    record = {"type": type_name, "message": message, "file": file, "line": line, "column": column}
    sys.stdout.write(optional("json_text").dumps({"error": record}, sys.stdout) + "\n")
    sys.stdout.flush()


def json_exception(error: BaseException, context: str | None = None) -> None:
    """`json_error` for an exception: a ScriptError's location, else `context` as the file."""
    if isinstance(error, ScriptError):
        located = error.line > 0
        json_error(
            error.type_name,
            error.message,
            error.filename,
            error.line if located else None,
            error.column if located else None,
        )
    else:
        json_error(type(error).__name__, safe_str(error), context)
