"""Lark as the parser's reference, for tests/test_lang_parser.py: the corpus, Lark's parsers over
the grammar, outcomes as comparable data, and a record of what Lark gave.

Lark parses the corpus in ~15 CPU-s, our parser in ~4. So Lark's outcomes are recorded
(`python tests/lark_reference.py` rewrites `lark_outcomes.txt`) as facts: one 48-bit digest
per corpus text of (which test, Lark's version, the grammar Lark was given, the code that turns
Lark's result into an outcome, the text, the outcome for each start symbol). A test computes
our parser's outcomes for a text and looks up the fact they would make. A fact missing from the
record (a new text, another grammar, Lark version or outcome code, or our parser giving
something else) makes the test parse that text with Lark live and compare, as it did before
the record: the comparison is always with what Lark gives, and fails when our parser drifts.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from pathlib import Path

import lark
import lark.exceptions
from lark import Lark, Token, Tree

from autodiff_cli.lang.errors import Source
from autodiff_cli.lang.parse import grammar, parse_tables, parser, syntax_tree

ROOT = Path(__file__).resolve().parent.parent
RECORD = Path(__file__).resolve().parent / "lark_outcomes.txt"
STARTS = ("file_input", "eval_input")

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

WRONG_INPUTS = [
    "x = 1 +* 2\n", "f(a,, b)\n", "def f(x)\n    return x\n", "if x:\npass\n", "x = [1, 2\n]]\n",
    "return\n", "for in x: pass\n", "x = (yield)\nclass A(:\n    pass\n", "a[1:2:3:4]\n",
    "lambda x: = 1\n", "x.1\n", "import .a\n", "from a import\n", "x = 1 if y\n",
    "try:\n    pass\nx = 1\n", "while x\n", "a = b = \n", "@\ndef f(): pass\n",
    "x: int = \n", "del\n", "assert\n", "print(*)\n", "f(**)\n", "{1: 2, 3}\n",
    "with open(f) as: pass\n", "x = not\n", "x ==\n", "x = 1 2\n", "class:\n", "1 +\n",
]  # fmt: skip


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


def classic_grammar_text() -> str:
    text = grammar.grammar_text()
    start, end = text.index("?or_test:"), text.index("strings:")
    return text[:start] + CLASSIC_EXPRESSIONS + text[end:]


@cache
def classic_lark() -> Lark:
    """Lark's own tree builder, with `propagate_positions`, over the classic grammar."""
    return Lark(
        classic_grammar_text(),
        parser="lalr",
        lexer="basic",
        postlex=grammar.ScriptIndenter(),
        start=grammar.START_SYMBOLS,
        propagate_positions=True,
        maybe_placeholders=True,
    )


@cache
def grammar_lark() -> Lark:
    """Lark's parser over our grammar as shipped (the one our tables are made from)."""
    return Lark(grammar.grammar_text(), parser="lalr", lexer="basic",
                postlex=grammar.ScriptIndenter(), start=grammar.START_SYMBOLS,
                maybe_placeholders=True)  # fmt: skip


@cache
def lark_lexer() -> Lark:
    """Lark's basic lexer over our grammar (no post-lexer: the tokens as lexed)."""
    return Lark(grammar.grammar_text(), parser="lalr", lexer="basic", start=grammar.START_SYMBOLS)


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


def wrong_inputs_corpus() -> list[str]:
    """The texts whose wrong tokens are compared: WRONG_INPUTS and half the corpus."""
    rng = random.Random(11)
    return WRONG_INPUTS + [text for text in corpus() if rng.random() < 0.5]


def lexer_corpus() -> list[str]:
    """The texts whose tokens are compared: LEXER_EDGE_CASES and the corpus's first 400."""
    return LEXER_EDGE_CASES + corpus()[:400]


# ---- outcomes as comparable data ----------------------------------------------------------


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


def outcome(parse: Callable, text: str, start: str) -> tuple:
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


def larks_outcome(text: str, start: str) -> tuple:
    return outcome(lambda t, s: classic_lark().parse(t, start=s), text, start)


def wrong_token(parse: Callable, text: str, start: str) -> tuple | None:
    """The wrong token's type and position, the row's `expected` terminals and those the
    parser `accepts` there; None if `parse` ends otherwise."""
    try:
        parse(text.rstrip(" \t\f") + "\n", start)
    except lark.exceptions.UnexpectedToken as error:
        return (error.token.type, error.token.line, error.token.column, error.expected,
                error.interactive_parser.accepts())  # fmt: skip
    except parse_tables.UnexpectedToken as error:
        return (error.token.type, error.token.line, error.token.column, error.expected,
                error.accepts)  # fmt: skip
    except Exception:  # noqa: BLE001 - other outcomes are compared elsewhere
        return None
    return None


def larks_wrong_token(text: str, start: str) -> tuple | None:
    return wrong_token(lambda t, s: grammar_lark().parse(t, start=s), text, start)


def tokens(stream: Iterable) -> list:
    """The tokens a lexer gives (type, text, positions), then its error if it stops at one."""
    out = []
    try:
        for token in stream:
            out.append((token.type, str(token), token.start_pos, token.line, token.column,
                        token.end_line, token.end_column, token.end_pos))  # fmt: skip
    except Exception as error:  # noqa: BLE001 - lexing errors, compared as data
        out.append(("error", error.line, error.column, error.pos_in_stream))
    return out


def larks_tokens(text: str) -> list:
    return tokens(lark_lexer().lex(text))


# ---- the record ---------------------------------------------------------------------------


def _canonical(value: object) -> object:
    """`value` with its sets as sorted tuples: a `repr` that does not depend on hash order."""
    if isinstance(value, (set, frozenset)):
        return ("<set>", *sorted(map(repr, value)))
    if isinstance(value, tuple):
        return tuple(_canonical(item) for item in value)
    return value


@cache
def _key(test: str) -> bytes:
    """What a fact of `test` depends on besides the text: Lark's version, the grammar given
    to Lark, and the code that makes outcomes (this module, the parser's messages)."""
    texts = {"trees": classic_grammar_text(), "wrong tokens": grammar.grammar_text(),
             "tokens": grammar.grammar_text()}  # fmt: skip
    code = [Path(__file__), ROOT / "autodiff_cli/lang/parse/parser.py",
            ROOT / "autodiff_cli/lang/errors.py"]  # fmt: skip
    parts = [test, lark.__version__, texts[test], *(path.read_text("utf-8") for path in code)]
    return hashlib.blake2b(repr(parts).encode()).digest()


def fact(test: str, text: str, outcomes: Sequence[object]) -> str:
    data = repr((text, [_canonical(item) for item in outcomes])).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(_key(test) + data, digest_size=6).hexdigest()


class Record:
    """The facts of `lark_outcomes.txt` (none if it is missing)."""

    def __init__(self, path: Path = RECORD) -> None:
        lines = path.read_text("utf-8").splitlines() if path.exists() else []
        self.facts = {line for line in lines if line and not line.startswith("#")}
        self.missed = 0

    def holds(self, test: str, text: str, outcomes: Sequence[object]) -> bool:
        """Whether Lark was recorded giving `outcomes` (one per start symbol) for `text`."""
        found = fact(test, text, outcomes) in self.facts
        self.missed += not found
        return found


def record_larks_outcomes() -> list[str]:
    """The facts of what Lark gives on the corpora (~20 CPU-s)."""
    trees = [fact("trees", text, [larks_outcome(text, start) for start in STARTS])
             for text in corpus()]  # fmt: skip
    wrong = [fact("wrong tokens", text, [larks_wrong_token(text, start) for start in STARTS])
             for text in wrong_inputs_corpus()]  # fmt: skip
    lexed = [fact("tokens", text, [larks_tokens(text)]) for text in lexer_corpus()]
    return sorted(set(trees + wrong + lexed))


if __name__ == "__main__":
    header = (
        "# What Lark gives on tests/test_lang_parser.py's corpus, one digest per text (see\n"
        "# tests/lark_reference.py). Rewritten by `python tests/lark_reference.py`.\n"
    )
    RECORD.write_text(header + "".join(f"{line}\n" for line in record_larks_outcomes()), "utf-8")
    print(f"wrote {RECORD}")
