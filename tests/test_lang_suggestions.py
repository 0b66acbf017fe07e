"""A NameError suggests a close name ("Did you mean: 'sin'?") as Python does."""

from __future__ import annotations

import contextlib
import io
import keyword
import random
import sys
from pathlib import Path

import pytest
from cli_runner import autodiff

from autodiff_cli.lang import ScriptError, run_source
from autodiff_cli.lang.runtime.suggestions import closest_name, hint

REPO = Path(__file__).resolve().parent.parent
WORDS = ["sin", "cos", "total", "value", "values", "Value", "grad", "x", "y", "xs", "alpha",
         "learning_rate", "optimizer", "loss", "tensor", "Tensor", "weights", "bias", "a" * 41,
         "model", "mode", "epoch", "epochs", "step", "steps", "relu", "softmax",
         "the_learning_rate_of_the_adam_optimizer_in_the_second_stage"]  # fmt: skip


def python_hint(name: str, names: list[str]) -> str:
    """What Python's own error display appends to the NameError, with exactly `names` visible
    (Python 3.10-3.11 look at locals, globals, builtins in turn; at module level with no
    builtins that is the one list Python 3.12 searches)."""
    namespace: dict = {"__builtins__": {}, **dict.fromkeys(names, 0)}
    try:
        exec(name, namespace)  # noqa: S102 - Python is the reference
    except NameError as error:
        shown = io.StringIO()
        with contextlib.redirect_stderr(shown):
            sys.__excepthook__(type(error), error, error.__traceback__)
    text = shown.getvalue().strip().splitlines()[-1]
    prefix = f"NameError: name '{name}' is not defined"
    assert text.startswith(prefix)
    return text[len(prefix) :]


def typo(rng: random.Random, word: str) -> str:
    chars = list(word)
    for _ in range(rng.randint(1, 3)):
        edit = rng.choice(["drop", "add", "swap", "case"])
        at = rng.randrange(len(chars))
        if edit == "drop" and len(chars) > 1:
            del chars[at]
        elif edit == "add":
            chars.insert(at, rng.choice("abcxyz_"))
        elif edit == "swap":
            chars[at] = rng.choice("abcxyz")
        else:
            chars[at] = chars[at].swapcase()
    return "".join(chars)


def test_the_suggestion_is_pythons():
    rng = random.Random(6)
    compared = suggested = 0
    for _ in range(400):
        names = rng.sample(WORDS, rng.randint(1, 12))
        wrong = typo(rng, rng.choice(WORDS))
        if wrong in names or wrong in sys.stdlib_module_names or not wrong.isidentifier():
            continue
        if keyword.iskeyword(wrong) or keyword.issoftkeyword(wrong):
            continue
        expected = python_hint(wrong, names)
        assert hint(wrong, ["__builtins__", *names]) == expected, (wrong, names)
        compared += 1
        suggested += bool(expected)
    assert compared > 300 and 50 < suggested < compared


def test_closest_name_prefers_the_first_of_equally_close_names():
    assert closest_name("vale", ["value", "vole"]) == "value"
    assert closest_name("vale", ["vole", "value"]) == "vole"
    assert closest_name("X", ["y", "x"]) == "x"  # a change of case is cheaper
    assert closest_name("zzzz", ["sin", "cos"]) is None


def run_script(source: str) -> ScriptError:
    with pytest.raises(ScriptError) as caught:
        run_source(source, "t.py", stdout=io.StringIO())
    return caught.value


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("sine = 1\nprint(sinus)", "name 'sinus' is not defined. Did you mean: 'sine'?"),
        ("def f(total):\n    return totl\nf(1)", "name 'totl' is not defined. Did you mean: 'total'?"),
        ("def f():\n    later = 1\n    return latter\nf()", "name 'latter' is not defined. Did you mean: 'later'?"),
        ("def f():\n    print(latter)\n    later = 1\nf()", "name 'latter' is not defined"),
        ("prnt(1)", "name 'prnt' is not defined. Did you mean: 'print'?"),
        ("math.pi", "name 'math' is not defined. Did you forget to import 'math'?"),
        ("def f():\n    return [valeu for value in range(2)]\nf()",
         "name 'valeu' is not defined. Did you mean: 'value'?"),
    ],
    ids=["global", "parameter", "local", "unbound-local", "builtin", "module", "comprehension"],
)  # fmt: skip
def test_a_script_names_the_close_name(source: str, message: str):
    error = run_script(source)
    assert (error.type_name, error.message) == ("NameError", message)


def test_inside_the_script_the_error_is_pythons_plain_one():
    out = io.StringIO()
    source = "value = 1\ntry:\n    valeu\nexcept NameError as error:\n    print(error, error.name)"
    run_source(source, "t.py", stdout=out)
    assert out.getvalue() == "name 'valeu' is not defined valeu\n"


def test_grad_suggests_the_function_meant():
    done = autodiff("grad", "sine(x)", "--at", "x=1")
    assert done.returncode == 1
    assert done.stderr.rstrip().endswith(
        "NameError: name 'sine' is not defined. Did you mean: 'sin'?"
    )
    assert "Traceback" not in done.stderr
