"""The parser: trees, positions and syntax errors as Lark's own parser and tree builder give them
for the classic grammar; the shipped tables in Lark's serialized form, run by our own LALR driver
(no Lark module at run time), which accepts exactly the terminals Lark's parser accepts."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import lark_reference
import pytest
from lark_reference import STARTS, WRONG_INPUTS, corpus, outcome, tokens, wrong_token

from autodiff_cli.lang.parse import (
    grammar,
    parse_tables,
    syntax_tree,
    table_builder,
    tree_builder,
)

ROOT = Path(__file__).resolve().parent.parent
RECORD_NAME = lark_reference.RECORD.relative_to(ROOT)


@pytest.fixture(scope="module")
def record() -> Iterator[lark_reference.Record]:
    """What Lark was recorded giving (tests/lark_reference.py); texts it lacks are parsed by
    Lark live. A warning says how many, and how to record them."""
    facts = lark_reference.Record()
    yield facts
    if facts.missed:
        warnings.warn(
            f"{facts.missed} corpus texts were parsed by Lark live: not in {RECORD_NAME} "
            "(`python tests/lark_reference.py` records them)",
            stacklevel=1,
        )


@pytest.fixture(scope="module")
def our_errors() -> dict[tuple[str, str], Exception | None]:
    """How our parser ended on each (text, start) the trees test parsed (None: with a tree,
    not kept), for the wrong-token test to take instead of parsing the same text again."""
    return {}


def keeping_errors(kept: dict[tuple[str, str], Exception | None]) -> tuple[Callable, Callable]:
    """Our parser's `parse`, keeping how it ends in `kept`; and `release`, which drops the
    tracebacks and contexts of the errors kept since its last call (their frames hold the
    texts' lines and partial trees)."""
    ours = grammar.get_parser()
    fresh: list[Exception] = []

    def parse(text: str, start: str) -> object:
        try:
            tree = ours.parse(text, start)
        except Exception as error:
            kept[text, start] = error
            fresh.append(error)
            raise
        kept[text, start] = None
        return tree

    def release() -> None:
        for error in fresh:
            error.__traceback__ = error.__context__ = None
        fresh.clear()

    return parse, release


def replaying_errors(kept: dict[tuple[str, str], Exception | None]) -> Callable:
    ours = grammar.get_parser()

    def parse(text: str, start: str) -> object:
        if (text, start) not in kept:
            return ours.parse(text, start)
        error = kept[text, start]
        if error is not None:
            raise error
        return None  # parsed: `wrong_token` reads no tree

    return parse


def test_trees_positions_and_errors_are_those_of_lark_propagate_positions(
    record: lark_reference.Record, our_errors: dict
):
    parse, release = keeping_errors(our_errors)
    compared = errors = 0
    for text in corpus():
        found = [outcome(parse, text, start) for start in STARTS]
        release()
        if not record.holds("trees", text, found):  # then compared with what Lark gives now
            for start, mine in zip(STARTS, found):
                expected = lark_reference.larks_outcome(text, start)
                assert mine == expected, (start, text)
        compared += len(STARTS)
        errors += sum(mine[0] == "error" for mine in found)
    assert compared > 2000 and 0 < errors < compared  # both trees and errors were compared


@pytest.mark.parametrize(
    ("source", "tree"),
    [
        ("a | b & c << d + e * f ** g", "or_expr(a | and_expr(b & shift_expr(c << arith_expr("
         "d + term(e * power(f ** g))))))"),
        ("a * b + c - d // e", "arith_expr(term(a * b) + c - term(d // e))"),
        ("a or b and c or not d", "or_test(a and_test(b c) not_op(d))"),
        ("-a ** -b", "unary(- power(a ** unary(- b)))"),
        ("a < b + 1 <= c", "comparison(a comp_op(<) arith_expr(b + 1) comp_op(<=) c)"),
    ],
)  # fmt: skip
def test_operators_group_by_precedence(source: str, tree: str):
    def text(node: object) -> str:
        if isinstance(node, syntax_tree.Tree):
            if node.data in ("var", "number"):
                return str(node.children[0])
            return f"{node.data}({' '.join(text(child) for child in node.children)})"
        return str(node)

    parsed = grammar.get_parser().parse(source + "\n", "eval_input")
    assert text(parsed.children[0]) == tree


def parses(parser_object: object) -> bool:
    tree = parser_object.parse("def f(x):\n    return (x + 1) * 2\n", "file_input")
    return tree.children[0].data == "funcdef"


@pytest.fixture
def fresh_parser():
    """get_parser() builds anew; the shared parser is restored afterwards."""
    grammar.get_parser.cache_clear()
    yield
    grammar.get_parser.cache_clear()


def test_the_shipped_tables_are_those_the_grammar_gives():
    """`python -m autodiff_cli.lang.parse.table_builder` regenerates the file; it must be up to date."""
    assert table_builder.generate() == Path(parse_tables.TABLES_FILE).read_text(encoding="utf-8")


def test_the_lexer_loads_the_program_re_compile_makes():
    """The shipped program of the lexer's pattern (`lexer_program`) is what `re.compile` makes
    on the Python it was recorded for (patterns compare by text, flags and program); on any
    other Python none is used and the pattern is compiled."""
    from autodiff_cli.lang.parse import lexer_program, lexer_programs_data

    (pattern,) = parse_tables.parse_tables_data.TABLES["lexer"]["patterns"]
    loaded = lexer_program.compiled(pattern)
    if lexer_programs_data.ENGINE == lexer_program.engine_version():
        assert table_builder.generate_programs() == Path(lexer_program.DATA_FILE).read_text(
            encoding="utf-8"
        )
        assert loaded is not None and loaded == re.compile(pattern)
        assert loaded.groupindex == re.compile(pattern).groupindex
    else:
        assert loaded is None
    assert lexer_program.compiled("not a shipped pattern") is None


def test_the_tables_do_not_depend_on_the_hash_seed(tmp_path: Path):
    code = "from autodiff_cli.lang.parse.table_builder import generate; print(generate(), end='')"
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1


def test_the_parser_runs_from_the_shipped_tables(fresh_parser, monkeypatch: pytest.MonkeyPatch):
    def no_build(*args: object) -> None:
        raise AssertionError("the tables were built instead of loaded")

    monkeypatch.setattr(table_builder, "build_table_data", no_build)
    assert parses(grammar.get_parser())


def test_an_edited_grammar_is_built_in_memory(fresh_parser, monkeypatch: pytest.MonkeyPatch):
    text = grammar.grammar_text()
    edited = text.replace('pass_stmt: "pass"', 'pass_stmt: "pass" "!"?')
    assert edited != text
    monkeypatch.setattr(grammar, "grammar_text", lambda: edited)
    built = grammar.get_parser()
    assert built.parse("pass !\n", "file_input").children[0].data == "pass_stmt"
    monkeypatch.setattr(grammar, "grammar_text", lambda: None)  # installed without the grammar
    grammar.get_parser.cache_clear()
    with pytest.raises(parse_tables.UnexpectedCharacters):
        grammar.get_parser().parse("pass !\n", "file_input")


def test_tables_of_another_format_are_refused():
    with pytest.raises(ValueError, match="not a parse table file"):
        parse_tables.load_tables({"format": 0})


def test_running_a_script_writes_no_cache(tmp_path: Path):
    """Nothing is written under XDG_CACHE_HOME or HOME (no table cache to poison)."""
    cache, home, work = tmp_path / "cache", tmp_path / "home", tmp_path / "work"
    for folder in (cache, home, work):
        folder.mkdir()
    (work / "s.py").write_text("x = [i * 2 for i in range(3)]\nprint(x)\n", encoding="utf-8")
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "HOME": str(home),
           "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", "s.py"],
        cwd=work,
        capture_output=True,
        text=True,
        env=env,
    )
    assert (result.returncode, result.stdout) == (0, "[0, 2, 4]\n"), result.stderr
    written = [str(p) for folder in (cache, home, work) for p in folder.rglob("*")]
    assert written == [str(work / "s.py")]


def test_the_runtime_imports_no_lark_module():
    """Running the shipped tables (lexer, indenter, LALR driver, trees, errors) is our own code:
    a clean process parses, compiles and reports syntax errors with no `lark` module loaded."""
    code = (
        "import sys\n"
        "from autodiff_cli.lang import compile_source, ScriptError\n"
        "compile_source('def f(x):\\n    return [x ** 2 for x in range(3)]\\n')\n"
        "for bad in ('x = 1 +* 2', 'if x:\\npass', 'a = $'):\n"
        "    try:\n"
        "        compile_source(bad)\n"
        "    except ScriptError as error:\n"
        "        print(error.message)\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] == 'lark'))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "unexpected '*'; expected an expression",
        "expected an indented block",
        "invalid character '$' (U+0024)",
        "[]",
    ]


def test_the_tree_and_tokens_are_ours():
    tree = grammar.get_parser().parse("x = f(1)\n", "file_input")
    assert type(tree) is syntax_tree.Tree and type(tree.children[0].children[0]) is syntax_tree.Tree
    names = list(tree.scan_values(lambda value: isinstance(value, syntax_tree.Token)))
    assert all(type(token) is syntax_tree.Token for token in names)
    assert [(t.type, str(t), t.line, t.column) for t in names] == [
        ("NAME", "x", 1, 1), ("NAME", "f", 1, 5), ("DEC_NUMBER", "1", 1, 7)
    ]  # fmt: skip
    assert tree == grammar.get_parser().parse("x = f(1)\n", "file_input")  # as Lark's: by value
    assert names[0] == "x" and not names[0] == syntax_tree.Token("STRING", "x")  # noqa: SIM201
    assert tree.meta.line == 1 and not tree.meta.empty


def test_the_table_is_larks_serialized_table():
    """The shipped table deserializes with Lark's own `IntParseTable.deserialize` to the table
    our driver decodes lazily (rows and rules on first use): the same actions in every state,
    the same rules (each with its callback), start and end states."""
    from lark.grammar import Rule
    from lark.parsers.lalr_analysis import IntParseTable, Shift

    data = parse_tables.load_tables()
    memo = {int(key): Rule.deserialize(rule, {}) for key, rule in data["rules"].items()}
    serialized = data["parse_table"]
    states = {int(state): row for state, row in serialized["states"].items()}
    larks = IntParseTable.deserialize({**serialized, "states": states}, memo)
    ours = parse_tables.deserialize_table(data)
    assert len(ours.rows) == len(ours.rules) == 0  # nothing is decoded before it is used
    index = {id(rule): key for key, rule in memo.items()}

    def as_ours(action: tuple) -> int:
        kind, arg = action
        return arg if kind is Shift else ~index[id(arg)]

    rows = {state: ours.rows[state] for state in larks.states}
    assert len(rows) > 500
    assert rows == {state: {str(name): as_ours(action) for name, action in row.items()}
                    for state, row in larks.states.items()}  # fmt: skip
    assert (ours.start_states, ours.end_states) == (larks.start_states, larks.end_states)
    for key, rule in memo.items():
        size, origin, build = ours.reductions[~key]
        assert (size, origin, str(ours.rules[key])) == (len(rule.expansion), rule.origin.name,
                                                         str(rule))  # fmt: skip
        assert callable(build)
        plan, larks_plan = tree_builder.plan_of(ours.rules[key]), tree_builder.plan_of(rule)
        assert plan.key() == larks_plan.key()
    with pytest.raises(KeyError):
        ours.rows[len(rows)]


def test_errors_accept_what_larks_interactive_parser_accepts(
    record: lark_reference.Record, our_errors: dict
):
    """On a wrong token, the terminals our parser says it accepts (what error messages are made
    of) are exactly those Lark's interactive parser `accepts()` gives for the same grammar, at
    the same token; so are the row's `expected` terminals."""
    parse = replaying_errors(our_errors)  # the trees test's parses, if it ran
    compared = 0
    listed = set()
    for text in lark_reference.wrong_inputs_corpus():
        found = [wrong_token(parse, text, start) for start in STARTS]
        if not record.holds("wrong tokens", text, found):  # then compared with Lark's now
            expected = [lark_reference.larks_wrong_token(text, start) for start in STARTS]
            for start, mine, theirs in zip(STARTS, found, expected):
                if theirs is not None:  # Lark stopped at a wrong token: so must we
                    assert mine == theirs, (start, text)
            found = expected
        for mine in found:
            if mine is not None:  # Lark stopped at a wrong token, and we at the same
                compared += 1
                listed.add(text)
    assert compared > 1000 and listed.issuperset(WRONG_INPUTS)


INDENTER_CASES = [
    "if x:\n    y\n\tz\n", "if a:\n  if b:\n      c\n  d\ne\n", "f(a,\n      b)\n  c\n",
    "if a:\n    b\n  c\n", "x = [\n1,\n]\nif y:\n\tpass\n", "", "\n\n", "if x:\n    y",
]  # fmt: skip


def test_the_indenter_gives_the_tokens_of_larks_indenter():
    """Our `Indenter` base class injects the _INDENT/_DEDENT tokens Lark's `Indenter` injects
    (same types, texts and positions), and fails where it fails (a dedent to no outer level)."""
    from lark.indenter import DedentError
    from lark.indenter import Indenter as LarksIndenter

    from autodiff_cli.lang.parse.indenter import IndentationMismatch, Indenter

    settings = {name: getattr(grammar.ScriptIndenter, name) for name in (
        "NL_type", "OPEN_PAREN_types", "CLOSE_PAREN_types", "INDENT_type", "DEDENT_type",
        "tab_len")}  # fmt: skip
    ours = type("Ours", (Indenter,), settings)()
    larks = type("Larks", (LarksIndenter,), settings)()
    lexer = grammar.get_parser()._lexer

    def rows(stream: object) -> list:
        return [(t.type, str(t), t.start_pos, t.line, t.column, t.end_line, t.end_column,
                 t.end_pos) for t in stream]  # fmt: skip

    compared = mismatches = 0
    for text in INDENTER_CASES + corpus()[:600]:
        try:
            tokens = list(lexer.lex(text))
            expected = rows(larks.process(iter(tokens)))
        except (parse_tables.UnexpectedCharacters, AssertionError):
            continue  # no tokens, or unbalanced brackets (Lark's indenter asserts)
        except DedentError:
            with pytest.raises(IndentationMismatch):
                list(ours.process(iter(tokens)))
            mismatches += 1
            continue
        assert rows(ours.process(iter(tokens))) == expected, text
        compared += 1
    assert compared > 500 and mismatches > 0


def test_the_lexer_gives_larks_tokens_and_errors(record: lark_reference.Record):
    ours = grammar.get_parser()._lexer
    texts = lark_reference.lexer_corpus()
    for text in texts:
        found = tokens(ours.lex(text))
        if not record.holds("tokens", text, [found]):  # then compared with Lark's now
            assert found == lark_reference.larks_tokens(text), text
    assert any(tokens(ours.lex(text))[-1][0] == "error" for text in texts)
