"""The LALR tables of the grammar as ready-made Python objects, and the parser that runs them.

Lark builds the tables (`build_tables`, slow: only when the cache is missing or stale). They are
cached with pickle, which loads at C speed, rather than with Lark's own cache, which stores them
as nested dicts that Lark then rebuilds object by object in Python on every start-up.
The tables are run by Lark's LALR parser and basic lexer (its token loop inlined: `lexer.py`);
reductions build the tree with `tree_builder` callbacks.
"""

from __future__ import annotations

import os
import pickle
import re
import tempfile
from typing import Any

from autodiff_cli.lang.tree_builder import RulePlan, make_callback, plan_for

TABLE_FORMAT = 4  # bump when the cached objects change shape


class Symbol:
    """A rule's left-hand side: Lark's parser only reads its `name`."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


class Reduction:
    """A rule, as the parse table refers to it. Hashed by identity, which keeps the parser's
    per-reduction callback look-up in C (Lark's `Rule` hashes and compares in Python)."""

    __slots__ = ("origin", "expansion", "plan")

    def __init__(self, origin: str, expansion: tuple[str, ...], plan: RulePlan) -> None:
        self.origin = Symbol(origin)
        self.expansion = expansion
        self.plan = plan


def build_tables(grammar_text: str, start: list[str], key: str) -> dict[str, Any]:
    """Compile the grammar with Lark and keep what parsing needs, as picklable objects.

    Names become plain `str` (Lark's are `Token`s, whose Python `__eq__` would run on every
    goto look-up)."""
    from lark import Lark
    from lark.parsers.lalr_analysis import Reduce

    import autodiff_cli.lang.lark_loader  # noqa: F401

    lark = Lark(grammar_text, parser="lalr", lexer="basic", start=start, maybe_placeholders=True)
    table = lark.parser.parser._parse_table
    reductions: dict[Any, Reduction] = {}

    def reduction(rule: Any) -> Reduction:
        if rule not in reductions:
            expansion = tuple(str(symbol.name) for symbol in rule.expansion)
            reductions[rule] = Reduction(str(rule.origin.name), expansion, plan_for(rule))
        return reductions[rule]

    shared: dict[tuple, tuple] = {}  # one object per distinct action: a smaller, faster pickle

    def entry(action: Any, arg: Any) -> tuple:
        if action is Reduce:
            rule = reduction(arg)
            return shared.setdefault((True, id(rule)), (action, rule))
        return shared.setdefault((False, arg), (action, arg))

    states = {
        state: {str(symbol): entry(action, arg) for symbol, (action, arg) in actions.items()}
        for state, actions in table.states.items()
    }
    return {
        "key": key,
        "reductions": list(reductions.values()),
        "terminals": list(lark.lexer_conf.terminals),
        "ignore": list(lark.lexer_conf.ignore),
        "states": states,
        "start_states": dict(table.start_states),
        "end_states": dict(table.end_states),
    }


class _TablePickler(pickle.Pickler):
    """Pickles Lark's `Shift`/`Reduce` markers by reference: the parser compares them by identity."""

    def reducer_override(self, obj: Any) -> Any:
        from lark.parsers.lalr_analysis import Reduce, Shift

        if obj is Shift:
            return "Shift"
        if obj is Reduce:
            return "Reduce"
        return NotImplemented


def save_tables(tables: dict[str, Any], path: str) -> None:
    """Write the tables atomically (a reader never sees half a file); errors are the caller's."""
    directory = os.path.dirname(path)
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".tables-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            _TablePickler(file, protocol=pickle.HIGHEST_PROTOCOL).dump(tables)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def load_tables(path: str, key: str) -> dict[str, Any] | None:
    """The cached tables, or None when the file is missing, unreadable, corrupt or stale."""
    try:
        with open(path, "rb") as file:
            tables = pickle.load(file)
    except Exception:  # noqa: BLE001 - any damage means: rebuild
        return None
    if not isinstance(tables, dict) or tables.get("key") != key:
        return None
    return tables


class _PostLexConnector:
    """Feeds the lexer's tokens through the indenter (as Lark's own connector)."""

    def __init__(self, lexer: Any, postlex: Any) -> None:
        self.lexer = lexer
        self.postlex = postlex

    def lex(self, lexer_state: Any, parser_state: Any) -> Any:
        return self.postlex.process(self.lexer.lex(lexer_state, parser_state))


class ScriptParser:
    """Lark's LALR parser and basic lexer over the cached tables."""

    def __init__(self, tables: dict[str, Any], postlex: Any) -> None:
        from lark.common import LexerConf
        from lark.parsers.lalr_analysis import IntParseTable
        from lark.parsers.lalr_parser import _Parser

        from autodiff_cli.lang.lexer import ScriptLexer

        terminals = tables["terminals"]
        conf = LexerConf(terminals, re, tables["ignore"], postlex, skip_validation=True)
        self._lexer = _PostLexConnector(ScriptLexer(conf), postlex)
        self._terminals = {terminal.name: terminal for terminal in terminals}
        callbacks = {rule: make_callback(rule.plan) for rule in tables["reductions"]}
        table = IntParseTable(tables["states"], tables["start_states"], tables["end_states"])
        self._parser = _Parser(table, callbacks)

    def parse(self, text: str, start: str) -> Any:
        from lark.lexer import LexerThread

        return self._parser.parse(LexerThread.from_text(self._lexer, text), start)

    def get_terminal(self, name: str) -> Any:
        return self._terminals[name]
