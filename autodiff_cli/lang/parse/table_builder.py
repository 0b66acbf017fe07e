"""Building the shipped parse tables (`parse_tables_data.py`) from the grammar, with Lark.

Run `python -m autodiff_cli.lang.parse.table_builder` after editing `grammar/autodiff.lark`; a test
checks that the committed file is what this produces. Only this module uses Lark's grammar
compiler and LALR analysis; the runtime imports the module (one literal: plain data).

The file holds plain data: Lark's serialized LALR table (`IntParseTable.serialize`) and the
rules it reduces by (Lark's `Rule.serialize`, memoized), our lexer's regular expression(s),
keyword table, ignored and newline-carrying terminals, and the literal text of string
terminals (for error messages).
"""

from __future__ import annotations

import json
import marshal
import sys
from importlib import reload
from typing import Any

from lark import Lark
from lark.grammar import Rule
from lark.lexer import PatternStr, UnlessCallback
from lark.parsers.lalr_analysis import IntParseTable, Shift
from lark.utils import SerializeMemoizer

from autodiff_cli.lang.parse import lexer_program, parse_tables_data
from autodiff_cli.lang.parse.grammar_file import START_SYMBOLS, grammar_checksum, grammar_text
from autodiff_cli.lang.parse.parse_tables import TABLE_FORMAT, TABLES_FILE
from autodiff_cli.lang.parse.parse_tables_data import TABLES


def _lexer_data(lark: Any) -> dict[str, Any]:
    lexer = lark.parser.lexer
    for terminal in lexer.terminals:  # a frozenset's order follows the hash seed: fix it
        terminal.pattern.flags = tuple(sorted(terminal.pattern.flags))
    scanner = lexer.scanner  # built on first use, from the patterns with their flags in order
    keywords: dict[str, dict[str, str]] = {}
    for name, callback in lexer.callback.items():
        if type(callback) is not UnlessCallback:
            raise ValueError(f"terminal {name}: unsupported lexer callback {callback!r}")
        table = keywords[name] = {}
        for terminal in callback.scanner.terminals:
            pattern = terminal.pattern
            if type(pattern) is not PatternStr or pattern.flags:
                raise ValueError(f"keyword {terminal.name} is not a plain string")
            table[pattern.value] = terminal.name
    if lark.lexer_conf.g_regex_flags:
        raise ValueError("global regex flags are not supported")
    return {
        "patterns": [mre.pattern for mre in scanner._mres],
        "keywords": keywords,
        "ignore": sorted(lexer.ignore_types),
        "newline": sorted(lexer.newline_types),
    }


def _canonical_order(table: Any) -> list[Any]:
    """The states in breadth-first order from the start states, following actions in order of
    symbol name: Lark numbers them in an order that changes with the string hash seed, this
    order does not, so the file is the same on every build."""
    order: list[Any] = []
    seen: set[Any] = set()
    queue = [table.start_states[name] for name in sorted(table.start_states)]
    while queue:
        state = queue.pop(0)
        if state in seen:
            continue
        seen.add(state)
        order.append(state)
        for _, (kind, arg) in sorted(table.states[state].items(), key=lambda i: str(i[0])):
            if kind is Shift and arg not in seen:
                queue.append(arg)
    if len(order) != len(table.states):
        raise ValueError("some LALR states cannot be reached from a start state")
    return order


def _canonical_table(table: Any) -> Any:
    """The same table with states renumbered in `_canonical_order` and each state's actions in
    order of symbol name, so that its serialized form is the same on every build."""
    order = _canonical_order(table)
    number = {state: index for index, state in enumerate(order)}
    states = {
        number[state]: {
            name: (kind, number[arg] if kind is Shift else arg)
            for name, (kind, arg) in sorted(table.states[state].items(), key=lambda i: str(i[0]))
        }
        for state in order
    }
    return IntParseTable(
        states,
        {name: number[state] for name, state in sorted(table.start_states.items())},
        {name: number[state] for name, state in sorted(table.end_states.items())},
    )


def build_table_data(grammar_text: str, start: list[str]) -> dict[str, Any]:
    """Compile the grammar with Lark and return the tables as JSON-ready data: the parse table
    and its rules in Lark's serialized form, and what our lexer and error messages need."""
    lark = Lark(grammar_text, parser="lalr", lexer="basic", start=start, maybe_placeholders=True)
    memo = SerializeMemoizer([Rule])
    parse_table = _canonical_table(lark.parser.parser._parse_table).serialize(memo)
    literals = {
        terminal.name: terminal.pattern.value
        for terminal in lark.lexer_conf.terminals
        if type(terminal.pattern) is PatternStr
    }
    return json.loads(  # as read back: JSON's string keys
        json.dumps(
            {
                "format": TABLE_FORMAT,
                "grammar_crc32": grammar_checksum(grammar_text),
                "lexer": _lexer_data(lark),
                "literals": literals,
                "parse_table": parse_table,
                "rules": memo.serialize(),
            }
        )
    )


MARSHAL_VERSION = 4  # read by every Python 3 (3.4 on)
HEADER = (
    '"""The parse tables of grammar/autodiff.lark (plain data), written by\n'
    "`python -m autodiff_cli.lang.parse.table_builder`: do not edit. Each rule and each state's row is\n"
    "a `marshal` string, decoded on first use (`parse_tables.Encoded`).\n"
    "\n"
    'Long because: generated data, one line per rule and per parser state."""\n'
    "\n"
    "# fmt: off\n"
)


def render(data: dict[str, Any]) -> str:
    """The module's text: one literal, one state and one rule per line (readable diffs)."""
    table = data["parse_table"]
    lines = [HEADER + "TABLES = {"]
    for key, value in data.items():
        if key not in ("parse_table", "rules"):
            lines.append(f"{key!r}: {_literal(value)},")
    lines.append("'rules': {")
    lines.append(_lines(data["rules"]))
    lines.append("},")
    lines.append("'parse_table': {")
    for key in ("tokens", "start_states", "end_states"):
        lines.append(f"{key!r}: {_literal(table[key])},")
    lines.append("'states': {")
    lines.append(_lines(table["states"]))
    lines.append("}}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _literal(value: Any) -> str:
    """A Python literal of JSON-like data, dictionaries in key order (stable output)."""
    if isinstance(value, dict):
        items = ", ".join(f"{key!r}: {_literal(value[key])}" for key in sorted(value))
        return "{" + items + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_literal(item) for item in value) + "]"
    return repr(value)


def _lines(items: dict[str, Any]) -> str:
    return ",\n".join(
        f"{key!r}: {marshal.dumps(value, MARSHAL_VERSION)!r}" for key, value in items.items()
    )


def generate() -> str:
    """The text of `parse_tables_data.py` for the grammar file as it is now."""
    text = grammar_text()
    if text is None:
        raise FileNotFoundError("the grammar file (grammar/autodiff.lark) is not there")
    return render(build_table_data(text, START_SYMBOLS))


def generate_programs() -> str:
    """The text of `lexer_programs_data.py` for the shipped lexer patterns and this Python."""
    return lexer_program.render(TABLES["lexer"]["patterns"])


def main() -> int:
    with open(TABLES_FILE, "w", encoding="utf-8") as file:
        file.write(generate())
    print(f"wrote {TABLES_FILE}")
    reload(parse_tables_data)
    with open(lexer_program.DATA_FILE, "w", encoding="utf-8") as file:
        file.write(generate_programs())
    print(f"wrote {lexer_program.DATA_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
