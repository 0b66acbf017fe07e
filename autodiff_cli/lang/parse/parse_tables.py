"""The parser of the language, run from the tables shipped in `parse_tables_data.py`.

The tables are data, built from the grammar with Lark by `table_builder` and committed with the
package: nothing is cached or loaded from a writable place at run time. They are a module
holding one literal (`TABLES`), so that loading them is unmarshalling its compiled form (0.3 ms;
decoding the same data as JSON took 2 ms). Each state's row and each rule is a `marshal` string
of its own (format 4, which every Python 3 reads), decoded when the parser first needs it
(`Encoded`): decoding them all took ~7 ms of every start-up, a one-liner visits a few dozen of
the ~550 states, and `marshal` decodes them 3x faster than the JSON texts they were. The parse
table and its rules are in Lark's serialized form (`IntParseTable.serialize` with the rules
memoized, as Lark's standalone parsers carry them). Running them needs no Lark module (importing
Lark's runtime cost ~6 ms of every one-liner): our LALR driver (`lalr_driver`) runs them over the
tokens of our lexer and indenter (`grammar.ScriptIndenter`); reductions build the tree with
`tree_builder` callbacks. Syntax errors are `syntax_errors.UnexpectedCharacters` /
`UnexpectedToken`, which `parser` turns into located messages.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from autodiff_cli.lang.parse import parse_tables_data
from autodiff_cli.lang.parse.lalr_driver import ParseTable
from autodiff_cli.lang.parse.lexer import ScriptLexer
from autodiff_cli.lang.parse.parse_rules import Rule
from autodiff_cli.lang.parse.syntax_errors import UnexpectedCharacters, UnexpectedToken
from autodiff_cli.lang.parse.tree_builder import make_callback, plan_of

TABLES_FILE = os.path.join(os.path.dirname(os.path.realpath(__file__)), "parse_tables_data.py")
TABLE_FORMAT = 4  # the layout `table_builder` writes: bump it when that changes

__all__ = [
    "Encoded",
    "ParseTable",
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


def callback_maker() -> Callable[[Rule], Callable[[list], Any]]:
    """The tree-building callback of each rule (`tree_builder`), one per distinct plan."""
    shared: dict[tuple, Callable[[list], Any]] = {}

    def callback(rule: Rule) -> Callable[[list], Any]:
        plan = plan_of(rule)
        key = plan.key()
        if key not in shared:
            shared[key] = make_callback(plan)
        return shared[key]

    return callback


def deserialize_table(tables: dict[str, Any]) -> ParseTable:
    """The parse table of `tables` (`parse_table`: `IntParseTable.serialize`'s data; `rules`:
    the memo of the `Rule.serialize`s it refers to), building trees with `tree_builder`; rows
    and rules are decoded on first use."""
    return ParseTable(tables["parse_table"], tables["rules"], callback_maker())


class ScriptParser:
    """Our lexer, the indenter (`postlex`) and our LALR driver over the shipped tables."""

    def __init__(self, tables: dict[str, Any], postlex: Any) -> None:
        self._table = deserialize_table(tables)
        self._literals: dict[str, str] = tables["literals"]
        self._lexer = ScriptLexer(tables["lexer"])
        self._postlex = postlex

    def literal(self, terminal: str) -> str | None:
        """The fixed text of a keyword or operator terminal; None for a pattern terminal."""
        return self._literals.get(terminal)

    def parse(self, text: str, start: str) -> Any:
        """The tree of `text` from the rule `start`; `UnexpectedCharacters`, `UnexpectedToken`
        or `LayoutError`."""
        tokens = self._postlex.process(self._lexer.lex(text))
        return self._table.parse(tokens, start)
