"""Grammar-based fuzzing: generated and mutated programs end in a result or a ScriptError.

Never an internal exception (a bug in the language or a missing check) and never a hang: each
program runs under `request_interrupt` from a timer, so a generated infinite loop is stopped.
"""

from __future__ import annotations

import io
import threading

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from autodiff_cli.lang import ScriptError, ScriptTimeout, request_interrupt, run_source

NAMES = ["x", "y", "f", "t", "i", "torch", "math", "print", "len", "range", "A"]
ATOMS = ["0", "1", "2.5", "-3", "'s'", "None", "True", "[]", "{}", "()", "x", "y", "t",
         "torch.ones(2)", "torch.tensor([1.0, 2.0], requires_grad=True)", "math.pi"]  # fmt: skip
BINARY = ["+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "==", "<", "in",
          "is not", "and", "or"]  # fmt: skip
STATEMENT_KEYWORDS = ["if", "while", "for", "def", "class", "try", "return", "with", "lambda",
                      "import", "from", "del", "global", "raise", "assert", ":", "(", ")", "[",
                      "]", "{", "}", ",", ".", "=", "\n", "    ", "\t", "'", '"', "#", "\\"]  # fmt: skip
PRELUDE = "import torch\nimport math\nx = 1\ny = 2.0\nt = torch.ones(3, requires_grad=True)\n"


def expressions(depth: int = 3) -> st.SearchStrategy[str]:
    atom = st.sampled_from(ATOMS)
    if depth == 0:
        return atom
    inner = expressions(depth - 1)
    return st.one_of(
        atom,
        st.builds(lambda a, op, b: f"({a} {op} {b})", inner, st.sampled_from(BINARY), inner),
        st.builds(lambda a: f"-{a}", inner),
        st.builds(lambda a: f"not {a}", inner),
        st.builds(lambda f, a: f"{f}({a})", st.sampled_from(["len", "abs", "print", "str",
                                                             "torch.exp", "math.sqrt"]), inner),
        st.builds(lambda a, name: f"{a}.{name}", inner,
                  st.sampled_from(["sum()", "grad", "shape", "upper()", "real", "__class__"])),
        st.builds(lambda a, b: f"{a}[{b}]", inner, inner),
        st.builds(lambda a, b: f"[{a} for i in range(3) if {b}]", inner, inner),
        st.builds(lambda a, b: f"{{{a}: {b}}}", inner, inner),
        st.builds(lambda a: f"(lambda i: {a})(1)", inner),
        st.builds(lambda a: f"f'{{{a}}}'", inner),
    )  # fmt: skip


def statements(depth: int = 2) -> st.SearchStrategy[str]:
    expression = expressions()
    simple = st.one_of(
        st.builds(lambda n, e: f"{n} = {e}", st.sampled_from(NAMES), expression),
        st.builds(lambda e: f"print({e})", expression),
        st.builds(lambda n, e: f"{n} += {e}", st.sampled_from(NAMES), expression),
        st.builds(lambda e: f"y = ({e}).backward()", expression),
        st.builds(lambda e: f"assert {e}", expression),
        st.builds(lambda e: f"raise {e}", expression),
        st.just("del x"),
    )
    if depth == 0:
        return simple.map(lambda line: [line])
    body = st.lists(statements(depth - 1), min_size=1, max_size=3).map(
        lambda blocks: [line for block in blocks for line in block]
    )

    def indent(lines: list[str]) -> list[str]:
        return ["    " + line for line in lines]

    return st.one_of(
        simple.map(lambda line: [line]),
        st.builds(lambda e, b: [f"if {e}:", *indent(b)], expression, body),
        st.builds(lambda e, b: [f"while {e}:", *indent(b)], expression, body),
        st.builds(lambda e, b: [f"for i in {e}:", *indent(b)], expression, body),
        st.builds(lambda b: ["def f(a, *args, k=1, **kw):", *indent(b), "    return a"], body),
        st.builds(lambda b: ["class A:", "    def m(self):", *indent(indent(b))], body),
        st.builds(
            lambda b, h: ["try:", *indent(b), "except Exception as e:", *indent(h)], body, body
        ),
    )


programs = st.lists(statements(), min_size=1, max_size=5).map(
    lambda blocks: PRELUDE + "\n".join(line for block in blocks for line in block) + "\n"
)


@st.composite
def mutated_programs(draw: st.DrawFn) -> str:
    """A generated program with a few characters or tokens inserted, deleted or replaced."""
    text = draw(programs)
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        token = draw(st.one_of(st.sampled_from(STATEMENT_KEYWORDS), st.characters()))
        if action == "insert":
            text = text[:position] + token + text[position:]
        elif action == "delete":
            text = text[:position] + text[position + draw(st.integers(1, 5)) :]
        else:
            text = text[:position] + token + text[position + 1 :]
    return text


def run_bounded(source: str | bytes) -> None:
    """Run `source`; only a ScriptError may escape, and the run is stopped after 2 seconds."""
    timer = threading.Timer(2.0, lambda: request_interrupt(ScriptTimeout("fuzz time limit")))
    timer.start()
    try:
        run_source(source, "fuzz.py", stdout=io.StringIO())
    except ScriptError as error:
        assert error.type_name and error.filename == "fuzz.py"
        assert error.line >= 0 and error.column >= 0
        str(error)  # renders
    finally:
        timer.cancel()


FUZZ_SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    database=None,
)


@FUZZ_SETTINGS
@given(programs)
def test_generated_programs(source: str) -> None:
    run_bounded(source)


@FUZZ_SETTINGS
@given(mutated_programs())
def test_mutated_programs(source: str) -> None:
    run_bounded(source)


@settings(max_examples=100, deadline=None, database=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes(source: bytes) -> None:
    run_bounded(source)
