"""The lexer of the language, from the shipped tables (see `table_builder`).

One regular expression of named alternatives (in the order Lark's basic lexer tries them) finds
the next token; a name that is a keyword gets the keyword's terminal; ignored terminals (blanks,
comments, line continuations) are dropped. Tokens are `syntax_tree.Token`s with Lark's positions
(1-based line and column, end position included); no match raises `UnexpectedCharacters`.

Lark's own `BasicLexer` is not used: built at each start from the terminals, it validates and
compiles every terminal's pattern and the keyword scanners (~30 ms), where this lexer compiles
only the one alternation the tables carry; the tokens are the same (a test checks). Even that
one compile is ~1.5 ms of Python (`re`'s parser and compiler), so the program `re` makes of it
is shipped too (`lexer_program`), for the CPython whose regular-expression engine it was made
for, and handed to that engine directly; any other Python compiles the pattern.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from autodiff_cli.lang.parse import lexer_program
from autodiff_cli.lang.parse.syntax_errors import UnexpectedCharacters
from autodiff_cli.lang.parse.syntax_tree import Token

_new_str = str.__new__


def _matcher(patterns: list[str]) -> Callable[[str, int], Any]:
    compiled = [
        (lexer_program.compiled(pattern) or re.compile(pattern)).match for pattern in patterns
    ]
    if len(compiled) == 1:
        return compiled[0]

    def match(text: str, pos: int) -> Any:
        for attempt in compiled:
            found = attempt(text, pos)
            if found is not None:
                return found
        return None

    return match


class ScriptLexer:
    def __init__(self, data: dict[str, Any]) -> None:
        self._match = _matcher(data["patterns"])
        self._keywords: dict[str, dict[str, str]] = data["keywords"]
        self._ignore = frozenset(data["ignore"])
        self._newline = frozenset(data["newline"])

    def lex(self, text: str) -> Iterator[Token]:
        match, keywords = self._match, self._keywords
        ignore, newline_types = self._ignore, self._newline
        pos, line, line_start, end = 0, 1, 0, len(text)
        while pos < end:
            found = match(text, pos)
            if found is None:
                raise UnexpectedCharacters(text, pos, line, pos - line_start + 1)
            value = found.group(0)
            kind = found.lastgroup
            start, start_line, column = pos, line, pos - line_start + 1
            if kind in newline_types:
                newlines = value.count("\n")
                if newlines:
                    line += newlines
                    line_start = start + value.rindex("\n") + 1
            pos = start + len(value)
            if kind in ignore:
                continue
            table = keywords.get(kind)
            if table is not None:
                kind = table.get(value, kind)
            token = _new_str(Token, value)
            token.type = kind
            token.start_pos = start
            token.value = value
            token.line = start_line
            token.column = column
            token.end_line = line
            token.end_column = pos - line_start + 1
            token.end_pos = pos
            yield token
