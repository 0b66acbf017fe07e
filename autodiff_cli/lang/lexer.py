"""Lark's basic lexer with its token loop written out in one function.

`BasicLexer.next_token` spends most of a token's time in calls: the scanner's `match`, the line
counter's `feed`, `Token.__new__`, and, for every name, a regex `fullmatch` against the keywords.
`ScriptLexer.lex` does the same work inline: one regex match, the keywords looked up in a dict,
the token's slots set directly, the line counter updated in place. It yields the same tokens with
the same positions. Anything it does not expect (more than one regex, other callbacks, a character
no terminal matches) is left to Lark's own `next_token`, so errors are Lark's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from lark.lexer import BasicLexer, PatternStr, Token, UnlessCallback

_new_str = str.__new__


class ScriptLexer(BasicLexer):
    def _keyword_types(self) -> dict[str, dict[str, str]] | None:
        """{terminal: {keyword text: keyword terminal}} from Lark's keyword callbacks, or None
        when a callback is something else (then the plain loop is not used)."""
        keywords: dict[str, dict[str, str]] = {}
        for name, callback in self.callback.items():
            if type(callback) is not UnlessCallback:
                return None
            table = keywords[name] = {}
            for terminal in callback.scanner.terminals:
                pattern = terminal.pattern
                if type(pattern) is not PatternStr or pattern.flags:
                    return None
                table[pattern.value] = terminal.name
        return keywords

    def lex(self, state: Any, parser_state: Any) -> Iterator[Token]:
        scanner = self.scanner  # builds the regex and the callbacks on first use
        keywords = self._keyword_types()
        if len(scanner._mres) != 1 or keywords is None:
            yield from super().lex(state, parser_state)
            return
        match = scanner._mres[0].match
        ignore_types, newline_types = self.ignore_types, self.newline_types
        text, end = state.text.text, state.text.end
        counter = state.line_ctr
        newline = counter.newline_char
        while counter.char_pos < end:
            found = match(text, counter.char_pos, end)
            if found is None:  # Lark's next_token raises its UnexpectedCharacters
                yield self.next_token(state, parser_state)
                continue
            value = found.group(0)
            kind = found.lastgroup
            start = counter.char_pos
            line = counter.line
            column = counter.column
            if kind in newline_types:
                newlines = value.count(newline)
                if newlines:
                    counter.line += newlines
                    counter.line_start_pos = start + value.rindex(newline) + 1
            counter.char_pos = start + len(value)
            counter.column = counter.char_pos - counter.line_start_pos + 1
            if kind in ignore_types:
                continue
            table = keywords.get(kind)
            if table is not None:
                kind = table.get(value, kind)
            token = _new_str(Token, value)
            token.type = kind
            token.start_pos = start
            token.value = value
            token.line = line
            token.column = column
            token.end_line = counter.line
            token.end_column = counter.column
            token.end_pos = counter.char_pos
            state.last_token = token
            yield token
