"""Building the shipped parse tables (`parse_tables.json`) from the grammar, with Lark.

Run `python -m autodiff_cli.lang.table_builder` after editing `grammar/autodiff.lark`; a test
checks that the committed file is what this produces. Only this module uses Lark's grammar
compiler and LALR analysis (and their internal attributes); the runtime reads the JSON file.

The file holds plain data: the lexer's regular expression(s), keyword table, ignored and
newline-carrying terminals, the literal text of string terminals (for error messages), each
rule's tree-building plan (`tree_builder.RulePlan`) and the LALR action table, where an action
is an int: `n >= 0` shifts (or, for a rule's left-hand side, goes) to state n, `n < 0` reduces
by rule `~n`.
"""

from __future__ import annotations

import json
import sys
import zlib
from typing import Any

from autodiff_cli.lang.parse_tables import TABLE_FORMAT, TABLES_FILE


def grammar_checksum(grammar_text: str) -> int:
    """The checksum of the grammar text the tables are built from (stored in the file, so that
    a checkout whose grammar was edited since is noticed; zlib is loaded by numpy anyway)."""
    return zlib.crc32(grammar_text.encode("utf-8"))


def _plan(rule: Any) -> list:
    """How Lark's tree builder (maybe_placeholders, LALR) makes a node of `rule`, as
    `RulePlan` fields: [name, expand1, include, nones_after, filtered, size]."""
    options = rule.options
    expansion = rule.expansion
    empty = options.empty_indices
    if empty:
        flags = "".join(str(int(flag)) for flag in empty)
        nones_at = [len(ones) for ones in flags.split("0")]
    else:
        nones_at = [0] * (len(expansion) + 1)
    include = []
    nones = 0
    for index, symbol in enumerate(expansion):
        nones += nones_at[index]
        if options.keep_all_tokens or not (symbol.is_term and symbol.filter_out):
            splice = not symbol.is_term and symbol.name.startswith("_")
            include.append([index, splice, nones])
            nones = 0
    nones += nones_at[len(expansion)]
    filtered = bool(empty) or len(include) < len(expansion) or any(s for _, s, _ in include)
    name = str(rule.alias or options.template_source or rule.origin.name)
    expand1 = bool(options.expand1) and not rule.alias
    return [name, expand1, include, nones, filtered, len(expansion)]


def _lexer_data(lark: Any) -> dict[str, Any]:
    from lark.lexer import PatternStr, UnlessCallback

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
    from lark.parsers.lalr_analysis import Shift

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


def build_table_data(grammar_text: str, start: list[str]) -> dict[str, Any]:
    """Compile the grammar with Lark and return the tables as JSON-ready data."""
    from lark import Lark
    from lark.lexer import PatternStr
    from lark.parsers.lalr_analysis import Reduce

    lark = Lark(grammar_text, parser="lalr", lexer="basic", start=start, maybe_placeholders=True)
    table = lark.parser.parser._parse_table
    rules: list = []
    rule_index: dict[Any, int] = {}

    def action(kind: Any, arg: Any, number: dict[Any, int]) -> int:
        if kind is Reduce:
            if arg not in rule_index:
                rule_index[arg] = len(rules)
                rules.append([str(arg.origin.name), *_plan(arg)])
            return ~rule_index[arg]
        return number[arg]

    order = _canonical_order(table)
    number = {state: index for index, state in enumerate(order)}
    symbols = sorted({str(name) for actions in table.states.values() for name in actions})
    symbol_index = {name: index for index, name in enumerate(symbols)}
    states = []
    for state in order:
        row: list[int] = []
        for name, (kind, arg) in sorted(table.states[state].items(), key=lambda i: str(i[0])):
            row += [symbol_index[str(name)], action(kind, arg, number)]
        states.append(row)
    literals = {
        terminal.name: terminal.pattern.value
        for terminal in lark.lexer_conf.terminals
        if type(terminal.pattern) is PatternStr
    }
    return {
        "format": TABLE_FORMAT,
        "grammar_crc32": grammar_checksum(grammar_text),
        "lexer": _lexer_data(lark),
        "literals": literals,
        "rules": rules,
        "symbols": symbols,
        "states": states,
        "start_states": {name: number[state] for name, state in table.start_states.items()},
        "end_states": {name: number[state] for name, state in table.end_states.items()},
    }


def render(data: dict[str, Any]) -> str:
    """The file's text: compact, one state per line (readable diffs), stable key order."""
    head = {key: value for key, value in data.items() if key not in ("rules", "states")}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"{json.dumps(key)}: {json.dumps(value, sort_keys=True)},")
    lines.append('"rules": [')
    lines.append(",\n".join(json.dumps(rule, separators=(",", ":")) for rule in data["rules"]))
    lines.append("],")
    lines.append('"states": [')
    lines.append(",\n".join(json.dumps(row, separators=(",", ":")) for row in data["states"]))
    lines.append("]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def generate() -> str:
    """The text of `parse_tables.json` for the grammar file as it is now."""
    from autodiff_cli.lang.grammar import START_SYMBOLS, grammar_path

    text = grammar_path().read_text(encoding="utf-8")
    return render(build_table_data(text, START_SYMBOLS))


def main() -> int:
    TABLES_FILE.write_text(generate(), encoding="utf-8")
    print(f"wrote {TABLES_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
