"""A script file as `autodiff run`, `graph --file` and the REPL's `:load` read it: bytes of a
regular file (or stdin) under a size limit, never a FIFO, a device or a directory."""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass

STDIN_NAME = "<stdin>"
DEFAULT_MAX_SCRIPT_SIZE = 1 << 20


@dataclass(frozen=True)
class Script:
    name: str  # as the user wrote it; errors are located with it
    source: str | bytes
    report_cells: bool = False  # a notebook under --json: one JSON line per cell (`notebook`)


class UsageError(Exception):
    """A path that cannot be read: reported before any script runs, exit status 2."""


def read_script(path: str, max_size: int = DEFAULT_MAX_SCRIPT_SIZE) -> Script:
    """The script's bytes (the language decodes them, so bad bytes get a located syntax error).

    Only a regular file (or stdin) of at most `max_size` bytes: a FIFO, a device or a directory
    is a usage error, never a hang.
    """
    if path == "-":
        data = sys.stdin.buffer.read(max_size + 1) if sys.stdin is not None else b""
        _check_size(STDIN_NAME, len(data), max_size)
        return Script(STDIN_NAME, data)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise UsageError(f"autodiff run: error: file not found: {path}") from None
    except OSError as error:
        raise UsageError(f"autodiff run: error: cannot read {path}: {error.strerror}") from None
    if stat.S_ISDIR(info.st_mode):
        raise UsageError(f"autodiff run: error: is a directory, not a script: {path}")
    if not stat.S_ISREG(info.st_mode):
        raise UsageError(f"autodiff run: error: not a regular file: {path}")
    _check_size(path, info.st_size, max_size)
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_size + 1)
    except OSError as error:
        raise UsageError(f"autodiff run: error: cannot read {path}: {error.strerror}") from None
    _check_size(path, len(data), max_size)
    return Script(path, data)


def _check_size(name: str, size: int, max_size: int) -> None:
    if size > max_size:
        raise UsageError(
            f"autodiff run: error: {name} is larger than {max_size} bytes (--max-script-size)"
        )
