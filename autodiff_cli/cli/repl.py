"""The REPL: prompt_toolkit on a terminal (`repl_terminal`), plain statement-by-statement reading
otherwise. Both run meta-commands (`repl_commands`)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable

from autodiff_cli.cli.repl_commands import QuitRepl, ReplState, is_meta_command, run_meta_command

PS1, PS2 = ">>> ", "... "
COMPOUND = re.compile(r"(if|for|while|def|class|with|try)\b|@")
_BLOCK_CONTINUATION = re.compile(r"(else|elif|except|finally)\b")


class StatementReader:
    """Groups input lines into chunks that each hold one complete statement.

    As in Python's REPL, a compound statement (`def`, `if`, ...) ends at a blank line; unlike it,
    a line that starts back at column 0 also ends it, so that piped scripts need no blank lines.
    Everything else ends as soon as `is_complete` says so (brackets may span lines).
    """

    def __init__(self, is_complete: Callable[[str], bool]) -> None:
        self._is_complete = is_complete
        self._lines: list[str] = []

    @property
    def pending(self) -> bool:
        return bool(self._lines)

    def reset(self) -> None:
        self._lines.clear()

    def _text(self, extra: list[str] | None = None) -> str:
        return "\n".join(self._lines + (extra or [])) + "\n"

    def _compound(self) -> bool:
        return bool(COMPOUND.match(self._lines[0].lstrip()))

    def _take(self) -> str:
        text = self._text()
        self._lines.clear()
        return text

    def feed(self, line: str) -> list[str]:
        """Add one line (without its newline); return the chunks it completes."""
        chunks: list[str] = []
        stripped = line.strip()
        if not self._lines and (not stripped or stripped.startswith("#")):
            return chunks
        if (
            self._lines
            and stripped
            and not line[:1].isspace()
            and not stripped.startswith("#")
            and not _BLOCK_CONTINUATION.match(line)
            and self._compound()
            and self._is_complete(self._text([""]))
        ):
            chunks.append(self._take())  # a dedent to column 0 ends the compound statement
        self._lines.append(line)
        if (not stripped or not self._compound()) and self._is_complete(self._text()):
            chunks.append(self._take())
        return chunks

    def finish(self) -> list[str]:
        """At end of input: whatever is left, complete or not (the language reports the latter)."""
        return [self._take()] if self._lines else []


def _run(state: ReplState, chunk: str) -> bool:
    """A meta-command or a statement; True on success (QuitRepl propagates)."""
    if is_meta_command(chunk):
        return run_meta_command(state, chunk)
    return state.execute(chunk)


def run_piped(lines: Iterable[str], *, debug: bool = False) -> int:
    """Statements read from a non-terminal: no prompts; exit status 1 if any statement failed."""
    state = ReplState(debug=debug)
    reader = StatementReader(state.session.is_complete)
    ok = True
    try:
        for line in lines:
            if not reader.pending and is_meta_command(line):
                ok = _run(state, line.rstrip("\r\n")) and ok
                continue
            for chunk in reader.feed(line.rstrip("\r\n")):
                ok = _run(state, chunk) and ok
        for chunk in reader.finish():
            ok = _run(state, chunk) and ok
    except QuitRepl:
        pass
    return 0 if ok else 1


def run_repl(*, debug: bool = False) -> int:
    if sys.stdin is None:  # started with standard input closed
        return run_piped([], debug=debug)
    if sys.stdin.isatty() and sys.stdout.isatty():
        from autodiff_cli.cli.repl_terminal import run_terminal

        return run_terminal(debug=debug)
    try:
        return run_piped(sys.stdin, debug=debug)
    except KeyboardInterrupt:
        from autodiff_cli.cli.diagnostics import exit_on_interrupt

        return exit_on_interrupt()
