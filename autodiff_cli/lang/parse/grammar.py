"""The grammar file, the indentation post-lexer, and the shared parser."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from autodiff_cli import lazy_imports
from autodiff_cli.lang.parse import parse_tables
from autodiff_cli.lang.parse.grammar_file import (
    START_SYMBOLS,
    grammar_checksum,
    grammar_path,
    grammar_text,
)
from autodiff_cli.lang.parse.indenter import Indenter
from autodiff_cli.lang.parse.syntax_tree import Token

MAX_BRACKET_DEPTH = 200  # as CPython: "too many nested parentheses"
MAX_INDENT_DEPTH = 100  # as CPython: "too many levels of indentation"

_OPENERS = {"LPAR": "(", "LSQB": "[", "LBRACE": "{"}
_CLOSERS = {"RPAR": ")", "RSQB": "]", "RBRACE": "}"}
_MATCHING = {"(": ")", "[": "]", "{": "}"}


class LayoutError(Exception):
    """A bracket or indentation problem found while injecting indentation tokens.

    `line`/`column` locate it; `at_end` is true when more input could still fix it.
    """

    def __init__(
        self,
        message: str,
        line: int,
        column: int,
        *,
        at_end: bool = False,
        indentation: bool = False,
    ) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.at_end = at_end
        self.indentation = indentation

    @classmethod
    def at_token(cls, message: str, token: Any, *, at_end: bool = False) -> LayoutError:
        return cls(message, token.line, token.column, at_end=at_end)


class ScriptIndenter(Indenter):
    """Python's indentation rules: the `Indenter` post-lexer (its `process` and `handle_NL`
    inject _INDENT/_DEDENT tokens after each line break outside brackets), which also reports
    unmatched brackets, bad dedents and too deep nesting as located `LayoutError`s."""

    NL_type = "_NEWLINE"
    OPEN_PAREN_types = list(_OPENERS)
    CLOSE_PAREN_types = list(_CLOSERS)
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def _process(self, stream: Iterator[Any]) -> Iterator[Any]:
        brackets: list[Any] = []
        token = None
        for token in stream:
            kind = token.type
            if kind == self.NL_type:
                yield from self.handle_NL(token)  # nothing inside brackets
                continue
            if kind in _OPENERS:
                brackets.append(token)
                if len(brackets) > MAX_BRACKET_DEPTH:
                    raise LayoutError.at_token("too many nested parentheses", token)
            elif kind in _CLOSERS:
                if not brackets:
                    raise LayoutError.at_token(f"unmatched '{token}'", token)
                opener = brackets.pop()
                if _MATCHING[str(opener)] != str(token):
                    raise LayoutError.at_token(
                        f"closing parenthesis '{token}' does not match opening "
                        f"parenthesis '{opener}'",
                        token,
                    )
            self.paren_level = len(brackets)
            yield token
        if brackets:
            raise LayoutError.at_token(
                f"'{brackets[-1]}' was never closed", brackets[-1], at_end=True
            )
        while len(self.indent_level) > 1:
            self.indent_level.pop()
            if token is None:
                yield Token(self.DEDENT_type, "", 0, 1, 1, 1, 1, 0)
            else:
                yield Token.new_borrow_pos(self.DEDENT_type, "", token)

    def handle_NL(self, token: Any) -> Iterator[Any]:  # noqa: N802 - Lark's name
        """The base class's, after the checks that give located errors (its
        `IndentationMismatch` has no position)."""
        if not self.paren_level:
            indent_str = token.rsplit("\n", 1)[1]
            indent = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
            levels = self.indent_level
            if indent < levels[-1] and indent not in levels:
                raise LayoutError(
                    "unindent does not match any outer indentation level",
                    token.end_line,
                    token.end_column,
                    indentation=True,
                )
            if indent > levels[-1] and len(levels) > MAX_INDENT_DEPTH:
                raise LayoutError(
                    "too many levels of indentation",
                    token.end_line,
                    token.end_column,
                    indentation=True,
                )
        return super().handle_NL(token)


@lru_cache(maxsize=1)
def get_parser() -> Any:
    """The shared parser, from the tables shipped with the package (built once per process).

    In a checkout whose grammar file was edited since the tables were generated, the tables are
    rebuilt in memory with Lark (slow; `python -m autodiff_cli.lang.parse.table_builder` updates the
    file)."""
    tables = parse_tables.load_tables()
    text = grammar_text()
    if text is not None and grammar_checksum(text) != tables["grammar_crc32"]:
        try:
            table_builder = lazy_imports.load("autodiff_cli.lang.parse.table_builder")
        except ImportError as error:
            raise RuntimeError(
                f"{grammar_path()} differs from the shipped parse tables and Lark is not "
                "installed to rebuild them (pip install lark; then run "
                "python -m autodiff_cli.lang.parse.table_builder)"
            ) from error
        tables = table_builder.build_table_data(text, START_SYMBOLS)
    return parse_tables.ScriptParser(tables, ScriptIndenter())
