"""The REPL: prompt_toolkit on a terminal (`terminal`), plain statement-by-statement reading
otherwise (`input`). Both send statements and meta-commands (`commands`) to the session
(`session`), whose namespace lives in a locked-down child process where processes can be
forked; completion (`completion`) runs there too."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

from autodiff_cli import lazy_imports
from autodiff_cli.cli.jail.isolation import Limits
from autodiff_cli.cli.output.diagnostics import exit_on_interrupt
from autodiff_cli.cli.repl.commands import QuitRepl, is_meta_command
from autodiff_cli.cli.repl.input import StatementReader
from autodiff_cli.cli.repl.session import open_session, run_chunk


def run_piped(lines: Iterable[str], *, debug: bool = False, limits: Any = None) -> int:
    """Statements read from a non-terminal: no prompts; exit status 1 if any statement failed.
    Error lines count from the start of the input, as Python's do for a piped script."""
    session = open_session(debug=debug, limits=limits)
    reader = StatementReader(session.is_complete)
    ok = True
    try:
        for line in lines:
            if not reader.pending and is_meta_command(line):
                reader.skip()
                ok = run_chunk(session, line.rstrip("\r\n")) and ok
                continue
            chunks = reader.feed(line.rstrip("\r\n"))
            for chunk, first_line in zip(chunks, reader.first_lines):
                ok = run_chunk(session, chunk, first_line) and ok
        chunks = reader.finish()
        for chunk, first_line in zip(chunks, reader.first_lines):
            ok = run_chunk(session, chunk, first_line) and ok
    except QuitRepl:
        pass
    finally:
        session.close()
    return 0 if ok else 1


def run_repl(
    *, debug: bool = False, max_memory: int | None = None, max_output: int | None = None
) -> int:
    """`autodiff repl`: a terminal session, or statements piped in. `max_memory`, `max_output`:
    the session child's limits in bytes (memory, output per statement; None: the default)."""
    limits = Limits.of(max_memory, max_output, None)
    if sys.stdin is None:  # started with standard input closed
        return run_piped([], debug=debug, limits=limits)
    if sys.stdin.isatty() and sys.stdout.isatty():
        terminal = lazy_imports.load("autodiff_cli.cli.repl.terminal")
        return terminal.run_terminal(debug=debug, limits=limits)
    try:
        return run_piped(sys.stdin, debug=debug, limits=limits)
    except KeyboardInterrupt:
        return exit_on_interrupt()
