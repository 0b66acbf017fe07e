"""Lark's LALR parser, run from the tables shipped in `parse_tables_data.py`.

The tables are data, built from the grammar by `table_builder` and committed with the package:
nothing is cached or loaded from a writable place at run time. They are a module holding one
literal (`TABLES`), so that loading them is unmarshalling its compiled form (0.3 ms; decoding
the same data as JSON took 2 ms). Each state's row and each rule is a `marshal` string of its
own (format 4, which every Python 3 reads), decoded when the parser first needs it (`Encoded`):
decoding them all took ~7 ms of every start-up, a one-liner visits a few dozen of the ~550
states, and `marshal` decodes them 3x faster than the JSON texts they were. The parse table and its
rules are in Lark's own serialized form (`IntParseTable.serialize` with the rules memoized, as
Lark's standalone parsers carry them), so loading them is `IntParseTable.deserialize`, and
Lark's `_Parser` state machine runs them over the tokens of our lexer and Lark's indenter
(`grammar.ScriptIndenter`). Reductions build the tree with `tree_builder` callbacks. Syntax
errors are Lark's `UnexpectedCharacters` / `UnexpectedToken`, which `parser` turns into located
messages.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from lark.exceptions import UnexpectedCharacters, UnexpectedToken
from lark.grammar import Rule
from lark.parsers.lalr_analysis import IntParseTable, Reduce, Shift
from lark.parsers.lalr_parser import _Parser

from autodiff_cli.lang import parse_tables_data
from autodiff_cli.lang.lexer import ScriptLexer
from autodiff_cli.lang.syntax_tree import Token
from autodiff_cli.lang.tree_builder import make_callback, plan_of

TABLES_FILE = os.path.join(os.path.dirname(os.path.realpath(__file__)), "parse_tables_data.py")
TABLE_FORMAT = 4  # the layout `table_builder` writes: bump it when that changes

__all__ = [
    "Encoded",
    "ScriptParser",
    "UnexpectedCharacters",
    "UnexpectedToken",
    "deserialize_table",
    "load_tables",
]


def load_tables(tables: dict[str, Any] | None = None) -> dict[str, Any]:
    """The shipped tables (or `tables`, of the same layout), the rules and rows decoded on
    first read; a ValueError if they are not of the format `table_builder` writes."""
    data = parse_tables_data.TABLES if tables is None else tables
    if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
        raise ValueError(f"not a parse table file of format {TABLE_FORMAT}")
    return {
        **data,
        "rules": Encoded(data["rules"]),
        "parse_table": {**data["parse_table"], "states": Encoded(data["parse_table"]["states"])},
    }


class Encoded(Mapping):
    """A mapping whose values are `marshal` strings, each decoded on its first read."""

    def __init__(self, encoded: dict[str, bytes]) -> None:
        self._encoded = encoded
        self._decoded: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        found = self._decoded.get(key)
        if found is None:
            found = self._decoded[key] = marshal.loads(self._encoded[key])
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._encoded)

    def __len__(self) -> int:
        return len(self._encoded)


class _Rows(dict):
    """Lark's `states` mapping, each state's row of actions made on first use from its serialized
    form: a one-liner visits a few dozen of the ~550 states (loading is part of every start)."""

    def __init__(self, serialized: dict[str, dict], make_row: Callable[[dict], dict]) -> None:
        super().__init__()
        self._serialized = serialized
        self._make_row = make_row

    def __missing__(self, state: int) -> dict:
        row = self[state] = self._make_row(self._serialized[str(state)])
        return row


def deserialize_table(tables: dict[str, Any]) -> tuple[IntParseTable, dict[Rule, Callable]]:
    """Lark's parse table from its serialized form (`parse_table`: `IntParseTable.serialize`'s
    data; `rules`: the memo of the `Rule.serialize`s it refers to), and the tree-building
    callback of each of its rules (`tree_builder`), for Lark's parser.

    The result is what `IntParseTable.deserialize` gives, made lazily: a state's row when the
    parser first reaches the state, a rule (`Rule.deserialize`) and its callback when a row
    first reduces by it, one action tuple per distinct action."""
    table = tables["parse_table"]
    names: dict[str, str] = table["tokens"]
    serialized_rules: dict[str, dict] = tables["rules"]
    shifts = [(Shift, state) for state in range(len(table["states"]))]
    reduces: dict[int, tuple] = {}
    callbacks: dict[Rule, Callable] = {}
    shared: dict[tuple, Callable] = {}  # one callback per distinct plan

    def reduce(index: int) -> tuple:
        action = reduces.get(index)
        if action is None:
            rule = Rule.deserialize(serialized_rules[str(index)], {})
            plan = plan_of(rule)
            key = plan.key()
            if key not in shared:
                shared[key] = make_callback(plan)
            callbacks[rule] = shared[key]
            action = reduces[index] = (Reduce, rule)
        return action

    def make_row(row: dict) -> dict:
        return {
            names[name]: reduce(arg["@"]) if kind else shifts[arg]
            for name, (kind, arg) in row.items()
        }

    states = _Rows(table["states"], make_row)
    return IntParseTable(states, table["start_states"], table["end_states"]), callbacks


class _TokenStream:
    """What Lark's parser reads tokens from (its `LexerThread` role): the lexer's tokens after
    the indenter. `_Token` is the class Lark's interactive parser makes probe tokens with."""

    _Token = Token

    def __init__(self, tokens: Iterator[Token]) -> None:
        self._tokens = tokens

    def lex(self, parser_state: Any) -> Iterator[Token]:
        return self._tokens


class ScriptParser:
    """Our lexer, Lark's indenter (`postlex`) and Lark's LALR parser over the shipped tables."""

    def __init__(self, tables: dict[str, Any], postlex: Any) -> None:
        table, callbacks = deserialize_table(tables)
        self._parser = _Parser(table, callbacks)
        self._literals: dict[str, str] = tables["literals"]
        self._lexer = ScriptLexer(tables["lexer"])
        self._postlex = postlex

    def literal(self, terminal: str) -> str | None:
        """The fixed text of a keyword or operator terminal; None for a pattern terminal."""
        return self._literals.get(terminal)

    def parse(self, text: str, start: str) -> Any:
        """The tree of `text` from the rule `start`; Lark's exceptions or `LayoutError`."""
        tokens = self._postlex.process(self._lexer.lex(text))
        return self._parser.parse(_TokenStream(tokens), start)
