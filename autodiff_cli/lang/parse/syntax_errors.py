"""The two ways parsing fails before `parser` turns them into located messages.

`UnexpectedCharacters`: the lexer matches no terminal at `pos_in_stream` (`char`);
`UnexpectedToken`: the LALR parser cannot take `token`. Their attributes are those of Lark's
exceptions of the same names (the table builder and the tests still compare with Lark), without
Lark's import cost. `accepts` (the terminals the parser could have taken there) is worked out on
first read: only the messages of some errors need it, and a REPL probes incomplete input often.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class UnexpectedInput(Exception):
    """A syntax error at `line`/`column` (1-based) and offset `pos_in_stream` of the text."""

    line: int
    column: int
    pos_in_stream: int | None = None


class UnexpectedCharacters(UnexpectedInput):
    """No terminal matches the text at `lex_pos`."""

    def __init__(self, text: str, lex_pos: int, line: int, column: int) -> None:
        self.char = text[lex_pos]
        self.line = line
        self.column = column
        self.pos_in_stream = lex_pos
        super().__init__(
            f"No terminal matches {self.char!r} in the current parser context, "
            f"at line {line} col {column}"
        )


class UnexpectedToken(UnexpectedInput):
    """The parser cannot take `token` in its state: `expected` are the terminals of the state's
    row (some of which only reduce, to be rejected later); `accepts` those the parser would
    shift after any reductions."""

    def __init__(
        self, token: Any, expected: set[str], accepts: Callable[[], set[str]] | set[str]
    ) -> None:
        self.token = token
        self.expected = expected
        self._accepts = accepts
        self.line = getattr(token, "line", "?")
        self.column = getattr(token, "column", "?")
        self.pos_in_stream = getattr(token, "start_pos", None)
        super().__init__(
            f"Unexpected token {token!r} at line {self.line}, column {self.column}. "
            f"Expected one of: {sorted(expected)}"
        )

    @property
    def accepts(self) -> set[str]:
        found = self._accepts
        if callable(found):
            found = self._accepts = found()
        return found
