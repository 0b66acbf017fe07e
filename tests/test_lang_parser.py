"""The parser: trees, positions and syntax errors as Lark's own tree builder gives them for the
classic grammar; the table cache; the start-up import of Lark."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Lark, Token, Tree

from autodiff_cli.lang import grammar, parse_tables, parser
from autodiff_cli.lang.errors import Source

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
     | "(" comprehension{test_or_star_expr} ")" -> genexpr
     | "[" _exprlist? "]" -> list
     | "[" comprehension{test_or_star_expr} "]" -> listcomp
     | "{" _dict_exprlist? "}" -> dict
     | "{" comprehension{key_value} "}" -> dictcomp
     | "{" _exprlist "}" -> set
     | "{" comprehension{test} "}" -> setcomp
     | NAME -> var
     | number
     | strings
     | "(" test ")"
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
    text = grammar.grammar_path().read_text(encoding="utf-8")
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
    """A tree as comparable data: names, positions of nodes and tokens, children."""
    if isinstance(node, Tree):
        meta = node.meta
        where = None if meta.empty else (meta.line, meta.column)
        return (str(node.data), where, [shape(child) for child in node.children])
    if isinstance(node, Token):
        return (node.type, str(node), node.line, node.column)
    return node


def outcome(parse: object, text: str, start: str) -> tuple:
    """("tree", shape) or ("error", the user-facing message, whether more input could fix it)."""
    source = Source("s.py", tuple(text.split("\n")))
    try:
        parser._check_first_indent(text, source)
        prepared = text.rstrip(" \t\f") + "\n"
        try:
            return ("tree", shape(parse(prepared, start)))
        except Exception as error:  # noqa: BLE001 - Lark's errors, described as parse() does
            raise parser._failure(error, source, prepared) from None
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
    return texts + mutated + expressions


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
        if isinstance(node, Tree):
            if node.data in ("var", "number"):
                return str(node.children[0])
            return f"{node.data}({' '.join(text(child) for child in node.children)})"
        return str(node)

    parsed = grammar.get_parser().parse(source + "\n", "eval_input")
    assert text(parsed.children[0]) == tree


@pytest.fixture
def fresh_parser(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """get_parser() with the cache under tmp_path; the shared parser is restored afterwards."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    grammar.get_parser.cache_clear()
    yield tmp_path / "autodiff"
    grammar.get_parser.cache_clear()


def parses(parser_object: object) -> bool:
    tree = parser_object.parse("def f(x):\n    return (x + 1) * 2\n", "file_input")
    return tree.children[0].data == "funcdef"


def test_tables_are_cached_and_reused(fresh_parser: Path, monkeypatch: pytest.MonkeyPatch):
    assert parses(grammar.get_parser())
    assert [path.suffix for path in fresh_parser.iterdir()] == [".tables"]  # no temp file left

    def no_build(*args: object) -> None:
        raise AssertionError("the tables were rebuilt instead of loaded")

    grammar.get_parser.cache_clear()
    monkeypatch.setattr(parse_tables, "build_tables", no_build)
    assert parses(grammar.get_parser())


@pytest.mark.parametrize("damage", [b"", b"not a pickle", b"\x80\x05garbage"])
def test_a_corrupt_cache_is_rebuilt(fresh_parser: Path, damage: bytes):
    grammar.get_parser()
    (cache,) = fresh_parser.iterdir()
    cache.write_bytes(damage)
    grammar.get_parser.cache_clear()
    assert parses(grammar.get_parser())
    path, key = grammar._cache_file(grammar.grammar_path().read_text(encoding="utf-8"))
    assert path == str(cache) and parse_tables.load_tables(path, key) is not None  # rewritten


def test_tables_of_another_grammar_or_lark_are_not_used(fresh_parser: Path):
    grammar.get_parser()
    (cache,) = fresh_parser.iterdir()
    text = grammar.grammar_path().read_text(encoding="utf-8")
    _, key = grammar._cache_file(text)
    assert parse_tables.load_tables(str(cache), key) is not None
    assert parse_tables.load_tables(str(cache), key.replace("?stmt", "?statement")) is None
    assert grammar._cache_file(text + "\n")[1] != key


def test_an_unusable_cache_directory_still_parses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(not_a_directory))
    grammar.get_parser.cache_clear()
    try:
        assert grammar._cache_file("x")[0] is None
        assert parses(grammar.get_parser())
    finally:
        grammar.get_parser.cache_clear()


def test_parsing_loads_only_larks_runtime_and_lark_stays_whole(tmp_path: Path):
    """With the tables cached, a script runs without Lark's grammar compiler (start-up time);
    `from lark import Lark` still gives the whole package afterwards."""
    code = (
        "import sys\n"
        "from autodiff_cli.lang import compile_source\n"
        "compile_source('x = (1 + 2) * 3\\n')\n"
        "print('lark.load_grammar' in sys.modules)\n"
        "from lark import Lark\n"
        "print(Lark('start: \"a\"', parser='lalr').parse('a').data)\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        for _ in range(2)
    ]
    assert [run.returncode for run in runs] == [0, 0], runs[-1].stderr
    assert runs[0].stdout.split() == ["True", "start"]  # no cache yet: Lark builds the tables
    assert runs[1].stdout.split() == ["False", "start"]


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


def _tokens(lexer: object, text: str) -> list:
    from lark.lexer import LexerThread

    out = []
    try:
        for token in LexerThread.from_text(lexer, text).lex(None):
            out.append((token.type, str(token), token.start_pos, token.line, token.column,
                        token.end_line, token.end_column, token.end_pos))  # fmt: skip
    except Exception as error:  # noqa: BLE001 - Lark's lexing errors, compared as data
        out.append((type(error).__name__, getattr(error, "line", None),
                    getattr(error, "column", None), getattr(error, "pos_in_stream", None)))  # fmt: skip
    return out


def test_the_inlined_lexer_gives_larks_tokens_and_errors():
    from lark.common import LexerConf
    from lark.lexer import BasicLexer

    from autodiff_cli.lang.lexer import ScriptLexer

    ours = grammar.get_parser()._lexer.lexer
    assert isinstance(ours, ScriptLexer)
    conf = LexerConf(list(ours.terminals), ours.re, list(ours.ignore_types), skip_validation=True)
    lark_lexer = BasicLexer(conf)
    texts = LEXER_EDGE_CASES + corpus()[:400]
    for text in texts:
        assert _tokens(ours, text) == _tokens(lark_lexer, text), text
    assert any(_tokens(ours, text)[-1][0] == "UnexpectedCharacters" for text in texts)
