"""The LALR parser of the language, run from the tables shipped in `parse_tables.json`.

The tables are data (JSON), built from the grammar by `table_builder` and committed with the
package: nothing is cached or loaded from a writable place at run time, and parsing needs no
part of Lark but its public `Token` and `Tree` classes. The driver is the textbook LALR(1)
loop; reductions build the tree with `tree_builder` callbacks. Syntax errors are raised as
`UnexpectedCharacter` / `UnexpectedToken`, which `parser` turns into located messages.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from autodiff_cli.lang.lexer import ScriptLexer, UnexpectedCharacter
from autodiff_cli.lang.syntax_tree import Token
from autodiff_cli.lang.tree_builder import RulePlan, make_callback

TABLES_FILE = Path(__file__).resolve().parent / "parse_tables.json"
TABLE_FORMAT = 1  # the layout `table_builder` writes: bump it when that changes

__all__ = ["ScriptParser", "UnexpectedCharacter", "UnexpectedToken", "load_tables"]


class UnexpectedToken(Exception):
    """The parser met `token` where it accepts only the terminals in `expected`."""

    def __init__(self, token: Any, expected: set[str]) -> None:
        super().__init__(f"unexpected token {token!r} (type {token.type})")
        self.token = token
        self.expected = expected


def load_tables(path: Path = TABLES_FILE) -> dict[str, Any]:
    """The tables as written by `table_builder` (a ValueError if the file is not of its format)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
        raise ValueError(f"{path}: not a parse table file of format {TABLE_FORMAT}")
    return data


class ScriptParser:
    """The lexer, the post-lexer (indentation) and the LALR(1) driver over the tables."""

    def __init__(self, tables: dict[str, Any], postlex: Any) -> None:
        symbols = tables["symbols"]
        name = symbols.__getitem__
        self._states: list[dict[str, int]] = [
            dict(zip(map(name, row[0::2]), row[1::2])) for row in tables["states"]
        ]
        self._rules: list[tuple[int, str, Any]] = []
        plans: dict[tuple, Any] = {}  # one callback per distinct plan
        for origin, *fields in tables["rules"]:
            key = repr(fields)
            if key not in plans:
                plan_name, expand1, include, nones_after, filtered, size = fields
                plan = RulePlan(
                    plan_name,
                    expand1,
                    tuple((index, splice, nones) for index, splice, nones in include),
                    nones_after,
                    filtered,
                    size,
                )
                plans[key] = make_callback(plan)
            self._rules.append((fields[-1], origin, plans[key]))
        origins = {rule[1] for rule in self._rules}
        self._terminals = frozenset(symbols) - origins
        self._start_states: dict[str, int] = tables["start_states"]
        self._end_states: dict[str, int] = tables["end_states"]
        self._literals: dict[str, str] = tables["literals"]
        self._lexer = ScriptLexer(tables["lexer"])
        self._postlex = postlex

    def literal(self, terminal: str) -> str | None:
        """The fixed text of a keyword or operator terminal; None for a pattern terminal."""
        return self._literals.get(terminal)

    def parse(self, text: str, start: str) -> Any:
        states, rules = self._states, self._rules
        stack = [self._start_states[start]]
        values: list = []
        token = None
        for token in self._postlex.process(self._lexer.lex(text)):
            kind = token.type
            while True:
                try:
                    code = states[stack[-1]][kind]
                except KeyError:
                    raise self._unexpected(token, stack) from None
                if code >= 0:
                    stack.append(code)
                    values.append(token)
                    break
                size, origin, callback = rules[~code]
                if size:
                    children = values[-size:]
                    del values[-size:]
                    del stack[-size:]
                else:
                    children = []
                values.append(callback(children))
                stack.append(states[stack[-1]][origin])
        return self._finish(stack, values, token, self._end_states[start])

    def _finish(self, stack: list[int], values: list, last: Any, end_state: int) -> Any:
        """Reduce at the end of input until the start symbol is complete."""
        states, rules = self._states, self._rules
        if last is None:
            end = Token("$END", "", 0, 1, 1, 1, 1, 0)
        else:
            end = Token.new_borrow_pos("$END", "", last)
        while True:
            code = states[stack[-1]].get("$END")
            if code is None or code >= 0:
                raise self._unexpected(end, stack)
            size, origin, callback = rules[~code]
            if size:
                children = values[-size:]
                del values[-size:]
                del stack[-size:]
            else:
                children = []
            values.append(callback(children))
            stack.append(states[stack[-1]][origin])
            if stack[-1] == end_state:
                return values[-1]

    def _unexpected(self, token: Any, stack: list[int]) -> UnexpectedToken:
        expected = {
            kind
            for kind in self._states[stack[-1]]
            if kind in self._terminals and self._would_shift(list(stack), kind)
        }
        return UnexpectedToken(token, expected)

    def _would_shift(self, stack: list[int], kind: str) -> bool:
        """Whether the terminal `kind` is shifted after the reductions it triggers (LALR tables
        may reduce on a terminal that is then rejected)."""
        states, rules = self._states, self._rules
        while True:
            code = states[stack[-1]].get(kind)
            if code is None:
                return False
            if code >= 0:
                return True
            size, origin, _ = rules[~code]
            if size:
                del stack[-size:]
            stack.append(states[stack[-1]][origin])
