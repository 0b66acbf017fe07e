"""The REPL's input reader: lines grouped into complete statements, as Python's REPL groups them
(`StatementReader`), for piped input and the line-by-line terminal alike; the prompts."""

from __future__ import annotations

import re
from collections.abc import Callable

from autodiff_cli.lang import ScriptError, compile_source

PS1, PS2 = ">>> ", "... "
COMPOUND = re.compile(r"(if|for|while|def|class|with|try)\b|@")
_BLOCK_CONTINUATION = re.compile(r"(else|elif|except|finally)\b")


class StatementReader:
    """Groups input lines into chunks that each hold one complete statement.

    As in Python's REPL, a compound statement (`def`, `if`, ...) ends at a blank line; unlike it,
    a line that starts back at column 0 also ends it, so that piped scripts need no blank lines.
    Everything else ends as soon as `is_complete` says so (brackets may span lines). With
    `eager_errors` (a terminal), a block that no further line can make valid ends at once, so its
    syntax error shows as soon as the line is entered.
    """

    def __init__(self, is_complete: Callable[[str], bool], *, eager_errors: bool = False) -> None:
        self._is_complete = is_complete
        self._eager_errors = eager_errors
        self._lines: list[str] = []
        self._count = 0  # lines fed so far
        self._first = 0  # the line number of the pending chunk's first line
        self.first_lines: list[int] = []  # the first line of each chunk the last call returned

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
        self.first_lines.append(self._first)
        return text

    def skip(self) -> None:
        """Count a line that is not fed (a meta-command), so later line numbers stay right."""
        self._count += 1

    def feed(self, line: str) -> list[str]:
        """Add one line (without its newline); return the chunks it completes (and their first
        lines in `first_lines`, counted from 1 at the first line fed or skipped)."""
        chunks: list[str] = []
        self.first_lines = []
        self._count += 1
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
        if not self._lines:
            self._first = self._count
        self._lines.append(line)
        text = self._text()
        if (not stripped or not self._compound()) and self._is_complete(text):
            chunks.append(self._take())
        elif self._eager_errors and cannot_become_valid(text, self._is_complete):
            chunks.append(self._take())
        return chunks

    def finish(self) -> list[str]:
        """At end of input: whatever is left, complete or not (the language reports the latter)."""
        self.first_lines = []
        return [self._take()] if self._lines else []


def cannot_become_valid(text: str, is_complete: Callable[[str], bool]) -> bool:
    """Whether no further lines can make `text` valid: the parser takes it as complete (its
    error is not at the end of the text), yet it does not compile. Compiling runs no code."""
    if not text.strip() or not is_complete(text):
        return False
    try:
        compile_source(text, "<stdin>", "single")
    except ScriptError as error:
        return error.is_syntax_error
    except Exception:  # noqa: BLE001 - e.g. too deeply nested: the run reports it
        return False
    return False
