"""The post-lexer that turns Python's indentation into tokens the grammar can parse.

The grammar has no notion of columns: after each line break outside brackets (a `NL_type`
token, whose text ends with the next line's indentation) this post-lexer passes the line break
on, then an `INDENT_type` token when the indentation grows, or one `DEDENT_type` token per
enclosing level it returns to; at the end of input every open level is closed. Inside brackets
line breaks are dropped (an expression continues). A tab counts as `tab_len` columns.

It follows Lark's `Indenter` (whose semantics the grammar was written for) as our own class, so
that parsing imports no Lark module; `grammar.ScriptIndenter` adds located errors and limits.
"""

from __future__ import annotations

from collections.abc import Iterator

from autodiff_cli.lang.parse.syntax_tree import Token


class IndentationMismatch(Exception):
    """A line dedents to a column no enclosing block starts at."""


class Indenter:
    """Injects indentation tokens into a token stream (see the module docstring). Subclasses
    name the token types: `NL_type`, `OPEN_PAREN_types`, `CLOSE_PAREN_types`, `INDENT_type`,
    `DEDENT_type`, and set `tab_len`."""

    NL_type: str
    OPEN_PAREN_types: list[str]
    CLOSE_PAREN_types: list[str]
    INDENT_type: str
    DEDENT_type: str
    tab_len: int

    paren_level: int
    indent_level: list[int]

    def __init__(self) -> None:
        self.paren_level = 0
        self.indent_level = [0]
        if self.tab_len <= 0:
            raise ValueError("tab_len must be positive")

    @property
    def always_accept(self) -> tuple[str, ...]:
        """Terminals a contextual lexer must always match (the line break)."""
        return (self.NL_type,)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        """The tokens of `stream` with indentation tokens added (state reset for each text)."""
        self.paren_level = 0
        self.indent_level = [0]
        return self._process(stream)

    def handle_NL(self, token: Token) -> Iterator[Token]:  # noqa: N802 - Lark's name
        """The line break `token` and the indentation tokens of the line it starts; nothing
        inside brackets."""
        if self.paren_level > 0:
            return
        yield token
        indent_str = token.rsplit("\n", 1)[1]
        indent = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
        levels = self.indent_level
        if indent > levels[-1]:
            levels.append(indent)
            yield Token.new_borrow_pos(self.INDENT_type, indent_str, token)
            return
        while indent < levels[-1]:
            levels.pop()
            yield Token.new_borrow_pos(self.DEDENT_type, indent_str, token)
        if indent != levels[-1]:
            raise IndentationMismatch(
                f"Unexpected dedent to column {indent}. Expected dedent to {levels[-1]}"
            )

    def _process(self, stream: Iterator[Token]) -> Iterator[Token]:
        token = None
        for token in stream:
            if token.type == self.NL_type:
                yield from self.handle_NL(token)
            else:
                yield token
            if token.type in self.OPEN_PAREN_types:
                self.paren_level += 1
            elif token.type in self.CLOSE_PAREN_types:
                self.paren_level -= 1
        while len(self.indent_level) > 1:
            self.indent_level.pop()
            if token is None:
                yield Token(self.DEDENT_type, "", 0, 0, 0, 0, 0, 0)
            else:
                yield Token.new_borrow_pos(self.DEDENT_type, "", token)
