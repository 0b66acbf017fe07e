"""Where the running script is: its own frames, outermost first, as Python's traceback names
them (`File "script.py", line 7, in model` and the source line). Anomaly mode records it for
the forward call that made a node (`engine/core/anomaly.py`) when a script switched the mode on:
the script's switches are made with it (`script_switch`).

A compiled statement runs in a closure named `run` (`blocks.located`) holding its `Location` in
`where`; a script function's call runs in `functions.make_function`'s `function`, a class body
in `definitions`' `define_class`. Walking the Python stack outward, the innermost statement of
each such frame is that frame's line, as in a Python traceback. Nothing is read from files.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from autodiff_cli import lazy_imports
from autodiff_cli.lang.errors import Location

_LANG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_BLOCKS = os.path.join(_LANG_DIR, "compile", "blocks.py")
_FUNCTIONS = os.path.join(_LANG_DIR, "runtime", "functions.py")
_DEFINITIONS = os.path.join(_LANG_DIR, "compile", "definitions.py")

# (filename, line, function name, source line)
Entry = tuple[str, int, str, str]


def _function_name(frame: Any) -> str:
    """A script function's name, from the argument binder its call frame holds (the binder
    keeps the name for Python's TypeError messages)."""
    binder = frame.f_locals.get("bind")
    for _ in range(3):
        code = getattr(binder, "__code__", None)
        cells = getattr(binder, "__closure__", None)
        if code is None or cells is None:
            break
        names = code.co_freevars
        if "name" in names:
            name = cells[names.index("name")].cell_contents
            return name if isinstance(name, str) else "<function>"
        if "bind" not in names:
            break
        binder = cells[names.index("bind")].cell_contents
    return "<function>"


def _frame_name(frame: Any) -> str | None:
    """The name a Python traceback gives this frame if it is a script function's call or a
    class body; None for any other frame."""
    code = frame.f_code
    if code.co_name == "function" and code.co_filename == _FUNCTIONS:
        return _function_name(frame)
    if code.co_name == "define_class" and code.co_filename == _DEFINITIONS:
        qualname = frame.f_locals.get("qualname")
        return qualname.rsplit(".", 1)[-1] if isinstance(qualname, str) else "<class>"
    return None


def script_stack() -> list[Entry]:
    """The running script's frames, outermost first: for each, its innermost statement."""
    frames = []
    frame = sys._getframe(1)
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    return _entries(frames)


def stack_of(error: BaseException) -> list[Entry]:
    """The script's frames an exception passed through, outermost first (its traceback's)."""
    frames = []
    trace = error.__traceback__
    while trace is not None:
        frames.append(trace.tb_frame)
        trace = trace.tb_next
    frames.reverse()
    return _entries(frames)


def statement_locations() -> list[Location | None]:
    """The running statement of each script function on the stack, innermost first, the
    module's last (None for a call that runs no statement yet): where `warnings.warn` and
    the engine's warnings point (`stacklevel` counts these)."""
    found: list[Location | None] = []
    current = None
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "function" and code.co_filename == _FUNCTIONS:
            found.append(current)
            current = None
        elif current is None and code.co_name == "run":
            where = frame.f_locals.get("where")
            if isinstance(where, Location):
                current = where
        frame = frame.f_back
    found.append(current)
    return found


def _entries(frames: list[Any]) -> list[Entry]:
    """The script's entries of Python frames given innermost first, outermost first."""
    entries: list[Entry] = []
    innermost: Location | None = None
    for frame in frames:
        code = frame.f_code
        if code.co_name == "run" and code.co_filename == _BLOCKS:
            if innermost is None:
                where = frame.f_locals.get("where")
                if isinstance(where, Location):
                    innermost = where
        else:
            name = _frame_name(frame)
            if name is not None and innermost is not None:
                entries.append(_entry(innermost, name))
                innermost = None
    if innermost is not None:
        entries.append(_entry(innermost, "<module>"))
    entries.reverse()
    return entries


def _entry(where: Location, name: str) -> Entry:
    return (where.source.filename, where.line, name, where.source.line(where.line))


# The engine's anomaly switches as scripts have them (made once a script reaches one).
_SWITCHES: dict[str, type] = {}


def script_switch(engine_switch: type) -> type:
    """The script's `torch.autograd.detect_anomaly` (or `set_detect_anomaly`) for the engine's
    class: alike in every way but where forward traces come from, this module's script stack
    (Python's, where no script runs: Python code calling the engine)."""
    if not _SWITCHES:
        anomaly = lazy_imports.load("autodiff_cli.engine.core.anomaly")
        python_stack = anomaly.python_stack

        def script_or_python_stack() -> list[Entry]:
            return script_stack() or python_stack()

        for switch in anomaly.anomaly_switches(script_or_python_stack):
            _SWITCHES[switch.__name__] = switch
    return _SWITCHES[engine_switch.__name__]
