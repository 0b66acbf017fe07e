"""The parser: trees, positions and syntax errors as Lark's own parser and tree builder give them
for the classic grammar; the shipped tables in Lark's serialized form, run by our own LALR driver
(no Lark module at run time), which accepts exactly the terminals Lark's parser accepts."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import lark.exceptions
import pytest
from lark import Lark, Token, Tree

from autodiff_cli.lang.errors import Source
from autodiff_cli.lang.parse import (
    grammar,
    parse_tables,
    parser,
    syntax_tree,
    table_builder,
    tree_builder,
)

ROOT = Path(__file__).resolve().parent.parent

# The expression rules as Python's grammar writes them, one rule per precedence level: the
# reference the flat operator rules of grammar/autodiff.lark must build the same trees as.
CLASSIC_EXPRESSIONS = """
?or_test: and_test ("or" and_test)*
?and_test: not_test ("and" not_test)*
?not_test: "not" not_test -> not_op
         | comparison
?comparison: expr (comp_op expr)*
!comp_op: "<" | ">" | "==" | ">=" | "<=" | "!=" | "in" | "not" "in" | "is" | "is" "not"
star_expr: "*" expr
?expr: or_expr
?or_expr: and_expr (_or_op and_expr)*
?and_expr: shift_expr (_and_op shift_expr)*
?shift_expr: arith_expr (_shift_op arith_expr)*
?arith_expr: term (_add_op term)*
?term: factor (_mul_op factor)*
?factor: _unary_op factor -> unary
       | power
?power: atom_expr (_pow_op factor)?
!_or_op: "|"
!_and_op: "&"
!_shift_op: "<<" | ">>"
!_add_op: "+" | "-"
!_mul_op: "*" | "@" | "/" | "%" | "//"
!_unary_op: "+" | "-" | "~"
!_pow_op: "**" | "^"
?atom_expr: atom_expr "(" [arguments] ")" -> call
          | atom_expr "[" subscriptlist "]" -> getitem
          | atom_expr "." NAME -> getattr
          | atom
?atom: "(" _tuple_inner? ")" -> tuple
     | "(" comprehension{named_or_star_expr} ")" -> genexpr
     | "[" _exprlist? "]" -> list
     | "[" comprehension{named_or_star_expr} "]" -> listcomp
     | "{" _dict_exprlist? "}" -> dict
     | "{" comprehension{key_value} "}" -> dictcomp
     | "{" _exprlist "}" -> set
     | "{" comprehension{namedexpr_test} "}" -> setcomp
     | NAME -> var
     | number
     | strings
     | "(" namedexpr_test ")"
     | "(" yield_expr ")"
     | "..." -> ellipsis
     | "None" -> const_none
     | "True" -> const_true
     | "False" -> const_false

"""

PIECES = ["(", ")", "[", ":", ",", "=", "+", "*", "**", "not", "in", "is", "if", "else", "and",
          "or", "lambda", "for", "return", "\n", "    ", ".", "x", "1", "-", "@", "{", "|", "~",
          "<<", "not in", "is not", "f'{x}'"]  # fmt: skip


@pytest.fixture(scope="module")
def reference() -> Lark:
    """Lark's own tree builder, with `propagate_positions`, over the classic grammar."""
    text = grammar.grammar_text()
    start, end = text.index("?or_test:"), text.index("strings:")
    return Lark(
        text[:start] + CLASSIC_EXPRESSIONS + text[end:],
        parser="lalr",
        lexer="basic",
        postlex=grammar.ScriptIndenter(),
        start=grammar.START_SYMBOLS,
        propagate_positions=True,
        maybe_placeholders=True,
    )


def shape(node: object) -> object:
    """A tree (ours or Lark's) as comparable data: names, positions of nodes and tokens,
    children."""
    if isinstance(node, (Tree, syntax_tree.Tree)):
        meta = node.meta
        where = None if meta.empty else (meta.line, meta.column)
        return (str(node.data), where, [shape(child) for child in node.children])
    if isinstance(node, (Token, syntax_tree.Token)):
        return (node.type, str(node), node.line, node.column)
    return node


def as_ours(error: Exception, text: str) -> Exception:
    """Lark's syntax error in `text` as ours (`accepts` from Lark's interactive parser)."""
    if isinstance(error, lark.exceptions.UnexpectedCharacters):
        return parse_tables.UnexpectedCharacters(
            text, error.pos_in_stream, error.line, error.column
        )
    if isinstance(error, lark.exceptions.UnexpectedToken):
        accepts = error.interactive_parser.accepts()
        return parse_tables.UnexpectedToken(error.token, error.expected, accepts)
    return error


def outcome(parse: object, text: str, start: str) -> tuple:
    """("tree", shape) or ("error", the user-facing message, whether more input could fix it)."""
    source = Source("s.py", tuple(text.split("\n")))
    try:
        parser._check_first_indent(text, source)
        prepared = text.rstrip(" \t\f") + "\n"
        try:
            tree = parse(prepared, start)
        except Exception as error:  # noqa: BLE001 - the errors, described as parse() does
            raise parser._failure(as_ours(error, prepared), source, prepared) from None
        try:
            return ("tree", shape(tree))
        except RecursionError:  # nested too deep for `shape` (the hostile corpus)
            return ("tree too deep to compare",)
    except parser.ParseFailure as failure:
        return ("error", str(failure.error), failure.at_end)


def corpus() -> list[str]:
    paths = sorted((ROOT / "examples").glob("*.py")) + sorted((ROOT / "tests/hostile").glob("*"))
    paths += sorted((ROOT / "tests/conformance").glob("*.py"))[::8]
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in paths]
    rng = random.Random(5)
    mutated = []
    for text in texts:
        for _ in range(4):
            cut = rng.randrange(len(text) + 1)
            mutated.append(text[:cut])
            mutated.append(text[:cut] + rng.choice(PIECES) + text[cut:])
    expressions = [" ".join(rng.choice(PIECES[:-1]) for _ in range(rng.randrange(1, 7)))
                   for _ in range(1500)]  # fmt: skip
    return list(dict.fromkeys(texts + mutated + expressions))  # each text once


def test_trees_positions_and_errors_are_those_of_lark_propagate_positions(reference: Lark):
    ours = grammar.get_parser()
    compared = errors = 0
    for text in corpus():
        for start in ("file_input", "eval_input"):
            expected = outcome(lambda t, s: reference.parse(t, start=s), text, start)
            assert outcome(ours.parse, text, start) == expected, (start, text)
            compared += 1
            errors += expected[0] == "error"
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


WRONG_INPUTS = [
    "x = 1 +* 2\n", "f(a,, b)\n", "def f(x)\n    return x\n", "if x:\npass\n", "x = [1, 2\n]]\n",
    "return\n", "for in x: pass\n", "x = (yield)\nclass A(:\n    pass\n", "a[1:2:3:4]\n",
    "lambda x: = 1\n", "x.1\n", "import .a\n", "from a import\n", "x = 1 if y\n",
    "try:\n    pass\nx = 1\n", "while x\n", "a = b = \n", "@\ndef f(): pass\n",
    "x: int = \n", "del\n", "assert\n", "print(*)\n", "f(**)\n", "{1: 2, 3}\n",
    "with open(f) as: pass\n", "x = not\n", "x ==\n", "x = 1 2\n", "class:\n", "1 +\n",
]  # fmt: skip


def test_errors_accept_what_larks_interactive_parser_accepts():
    """On a wrong token, the terminals our parser says it accepts (what error messages are made
    of) are exactly those Lark's interactive parser `accepts()` gives for the same grammar, at
    the same token; so are the row's `expected` terminals."""
    reference = Lark(grammar.grammar_text(), parser="lalr", lexer="basic",
                     postlex=grammar.ScriptIndenter(), start=grammar.START_SYMBOLS,
                     maybe_placeholders=True)  # fmt: skip
    ours = grammar.get_parser()
    rng = random.Random(11)
    texts = WRONG_INPUTS + [text for text in corpus() if rng.random() < 0.5]
    compared = 0
    listed = set()
    for text in texts:
        prepared = text.rstrip(" \t\f") + "\n"
        for start in ("file_input", "eval_input"):
            try:
                reference.parse(prepared, start=start)
            except lark.exceptions.UnexpectedToken as error:
                expected = (error.token.type, error.token.line, error.token.column,
                            error.expected, error.interactive_parser.accepts())  # fmt: skip
            except Exception:  # noqa: BLE001 - other outcomes are compared elsewhere
                continue
            else:
                continue
            with pytest.raises(parse_tables.UnexpectedToken) as caught:
                ours.parse(prepared, start)
            found = caught.value
            assert (found.token.type, found.token.line, found.token.column, found.expected,
                    found.accepts) == expected, (start, text)  # fmt: skip
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


LEXER_EDGE_CASES = [
    'x = """a\nb\n"""  # doc\ny = 1\n',
    "iffy = notin + isnot + in_ + orange\n",
    "a = 1.5e-3j + 0x1F + 0b101 + 0o17 + 1_000\n",
    "s = 'it''s' \"q\" f'{x!r:>4}'\n",
    "x = (1,\n     2)  # comment\n\n\n# trailing\n",
    "a = 1 $ 2\n",
    "b = `x`\n",
    "c = 'unterminated\n",
    "\tif x:\n\t\tpass\n",
]


def _tokens(tokens: object) -> list:
    out = []
    try:
        for token in tokens:
            out.append((token.type, str(token), token.start_pos, token.line, token.column,
                        token.end_line, token.end_column, token.end_pos))  # fmt: skip
    except Exception as error:  # noqa: BLE001 - lexing errors, compared as data
        out.append(("error", error.line, error.column, error.pos_in_stream))
    return out


def test_the_lexer_gives_larks_tokens_and_errors():
    text = grammar.grammar_text()
    lark_parser = Lark(text, parser="lalr", lexer="basic", start=grammar.START_SYMBOLS)
    ours = grammar.get_parser()._lexer
    texts = LEXER_EDGE_CASES + corpus()[:400]
    for text in texts:
        assert _tokens(ours.lex(text)) == _tokens(lark_parser.lex(text)), text
    assert any(_tokens(ours.lex(text))[-1][0] == "error" for text in texts)
