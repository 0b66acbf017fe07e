"""Long operator chains (`x + x + ...` with 100,000 terms) parse, compile and run without deep
recursion; genuinely deep nesting is a clean, located syntax error. Run as a user runs them."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import cli_runner
import pytest

from autodiff_cli.lang import ScriptError, Session, compile_source

REPO = Path(__file__).resolve().parent.parent


autodiff = functools.partial(cli_runner.autodiff, timeout=300)


@pytest.mark.parametrize("terms", [20_000, 100_000])
def test_run_a_script_with_a_long_sum(terms: int, tmp_path: Path):
    chain = " + ".join(["x"] * terms)
    script = tmp_path / "chain.py"
    script.write_text(
        "import torch\n"
        "x = torch.tensor(1.0, requires_grad=True)\n"
        f"y = {chain}\n"
        "y.backward()\n"
        "print(y, x.grad)\n",
        encoding="utf-8",
    )
    done = autodiff("run", str(script))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f"tensor({terms}., grad_fn=<AddBackward0>) tensor({terms}.)\n"


@pytest.mark.parametrize("terms", [20_000, 100_000])
def test_grad_of_a_long_sum(terms: int):
    chain = " + ".join(["x"] * terms)
    if terms <= 20_000:  # an argument (a single one is limited to 128 KiB on Linux)
        done = autodiff("grad", chain, "--at", "x=2", "--json")
    else:
        done = autodiff("grad", "-", "--at", "x=2", "--json", stdin=chain)
    assert (done.returncode, done.stderr) == (0, "")
    data = json.loads(done.stdout)
    assert (data["value"], data["gradients"]["x"]) == (2.0 * terms, float(terms))


def test_long_mixed_chains_evaluate_as_python_does():
    rng = random.Random(17)
    for length in (70, 300, 2_000):
        operands = [str(rng.randint(1, 9)) for _ in range(length)]
        text = operands[0]
        for operand in operands[1:]:
            text += f" {rng.choice(['+', '-', '*', '/', '//', '%', '&', '|', '<<', '>>'])} "
            text += operand
        try:
            expected = eval(text)  # noqa: S307 - Python is the reference
        except (ArithmeticError, ValueError, TypeError) as error:
            with pytest.raises(ScriptError) as caught:
                Session().execute(text)
            assert caught.value.type_name == type(error).__name__
            continue
        assert Session().execute(text) == expected


def test_an_error_in_a_long_chain_is_located_as_in_a_short_one():
    for terms in (3, 1_000):
        source = "y = 0\nz = " + " + ".join(["1"] * terms) + " + 'a'\n"
        with pytest.raises(ScriptError) as caught:
            compile_source(source, "t.py").run({"__builtins__": {}})
        error = caught.value
        assert (error.type_name, error.line, error.column) == ("TypeError", 2, 5)
        assert error.message == "unsupported operand type(s) for +: 'int' and 'str'"


SMALL_CAP = 1_000  # the engine's element limit under the `small_cap` fixture (conftest)


@pytest.mark.parametrize("terms", [3, 200])
def test_long_sequence_concatenation_keeps_its_size_check(terms: int, small_cap: int):
    source = "s = 'x' * 600\nt = " + " + ".join(["s"] * terms) + "\n"
    with pytest.raises(ScriptError) as caught:
        compile_source(source, "t.py").run({"__builtins__": {}})
    error = caught.value
    assert (error.type_name, error.line, error.column) == ("MemoryError", 2, 5)
    assert error.message == "'str' of 1200 items is larger than the limit of 1000 items"


@pytest.mark.parametrize(
    "expression",
    [
        "- " * 20_000 + "1",
        "not " * 20_000 + "1",
        " ** ".join(["1"] * 20_000),
        " if 1 else ".join(["1"] * 20_000),
        "lambda: " * 20_000 + "1",
        "x" + "[0]" * 20_000,
        "x" + ".real" * 20_000,
    ],
    ids=["unary", "not", "power", "conditional", "lambda", "subscript", "attribute"],
)
def test_deep_nesting_is_a_located_syntax_error(expression: str, tmp_path: Path):
    script = tmp_path / "deep.py"
    script.write_text(f"x = [0]\ny = {expression}\n", encoding="utf-8")
    done = autodiff("run", str(script))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"{script}:2:")
    assert done.stderr.rstrip().endswith("SyntaxError: expression too deeply nested")
