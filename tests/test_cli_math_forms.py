"""`grad` reads math as people type it (issue 32): the rewrite to the Python spelling, run as a
user runs it, carets in the text typed, ambiguous forms refused with the Python spelling; and
the outputs that fit the task: --elementwise, the labelled Hessian, run's headers, --json text,
one usage-error style, examples in --help. Both languages where the tool adds words."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from cli_runner import REPO
from cli_runner import warm_autodiff as autodiff  # a fork of a warm CLI: see cli_runner
from hypothesis import given, settings
from hypothesis import strategies as st

from autodiff_cli.cli.grad.math_input import rewrite
from autodiff_cli.lang import ScriptError

AT = {"x", "y", "θ", "权重"}
NAMESPACE = {"sin": len, "exp": len, "log": len, "sqrt": len, "abs": len, "pi": 3.14, "e": 2.7}


@pytest.mark.parametrize(
    ("typed", "python"),
    [
        ("2x", "2*x"),
        ("3(x+1)", "3*(x+1)"),
        ("(x+1)(x-1)", "(x+1)*(x-1)"),
        ("3x²+2x", "3*x**2+2*x"),
        ("x⁻¹+y³", "x**-1+y**3"),
        ("√x", "sqrt(x)"),
        ("√(x+1)", "sqrt(x+1)"),
        ("√x²", "sqrt(x**2)"),
        ("2·x", "2*x"),
        ("2×x", "2*x"),
        ("x÷2", "x/2"),
        ("−x", "-x"),
        ("π*x", "pi*x"),
        ("ln(x)", "log(x)"),
        ("|x-1|*|y|", "abs(x-1)*abs(y)"),
        ("||x|-1|", "abs(abs(x)-1)"),
        ("2|x|", "2*abs(x)"),
        ("e^x", "exp(x)"),
        ("e^(x+1)", "exp(x+1)"),
        ("2e^-x²", "2*exp(-x**2)"),
        ("x^2 + 3x + 1", "x**2 + 3*x + 1"),
        ("θ²+权重²", "θ**2+权重**2"),
        ("1e-3x", "1e-3*x"),
        ('"2x"+x', '"2x"+x'),
        ("y = 2x; y^2", "y = 2*x; y**2"),
        ("x if x else 2x", "x if x else 2*x"),
        ("x # 2x\n", "x # 2x\n"),
    ],
)
def test_math_forms_are_spelled_in_python(typed: str, python: str):
    assert rewrite(typed, AT, NAMESPACE).python == python


def test_e_given_with_at_is_a_variable():
    assert rewrite("e^x", {"e", "x"}, NAMESPACE).python == "e**x"


def _grad(*args: str, **env: str):
    return autodiff("grad", *args, **env)


def test_grad_of_typed_math_and_explain_shows_the_python_spelling():
    done = _grad("3x² + 2x", "--at", "x=2", "--explain")
    assert done.returncode == 0, done.stderr
    assert "x.grad: tensor(14.)" in done.stdout
    assert "the expression as parsed (Python spelling): 3*x**2 + 2*x" in done.stdout
    done = _grad("√(x+1) + |y| + ln(x) + e^x", "--at", "x=3,y=-2", "-q")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["x.grad: tensor(20.6689)", "y.grad: tensor(-1.)"]


def test_an_error_in_typed_math_points_into_what_was_typed():
    done = _grad("2x² + foo", "--at", "x=1")
    assert done.returncode == 1
    assert done.stderr.startswith("<expr>:1:7: error\n    2x² + foo\n          ^\nNameError")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ambiguous_forms_are_refused_with_the_python_spelling(lang: str):
    done = _grad("sin x", "--at", "x=1", "--lang", lang)
    assert done.returncode == 1 and "^" in done.stderr and "sin(x)" in done.stderr
    words = {"en": "is ambiguous here; in Python spelling", "zh": "在这里有歧义;Python 写法是"}
    assert words[lang] in done.stderr
    done = _grad("xy", "--at", "x=1,y=2", "--lang", lang)
    assert done.returncode == 1 and "x*y" in done.stderr
    assert "le" not in _grad("ln(x)", "--at", "x=2", "-q").stderr


def test_at_names_values_and_matlab_rows():
    done = _grad("x*θ + 权重", "--at", "x=2,θ=3,权重=4", "-q")
    assert done.stdout.split("\n")[:3] == [
        "x.grad: tensor(3.)",
        "θ.grad: tensor(2.)",
        "权重.grad: tensor(1.)",
    ]
    done = _grad("(w*x).sum()", "--at", "x=[1,2;3,4],w=2", "-q")
    assert done.returncode == 0 and "x.grad: tensor([[2., 2.],\n" in done.stdout
    assert "w.grad: tensor(10.)" in done.stdout
    done = _grad("x", "--at", "x=3,")
    assert done.returncode == 2 and "trailing comma" in done.stderr


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_elementwise_table_and_the_note_that_offers_it(lang: str):
    done = _grad("sin(x)", "--at", "x=[0,1,2]", "--elementwise", "--lang", lang)
    assert done.returncode == 0, done.stderr
    rows = done.stdout.split("\n")[-4:-1]
    assert [row.split() for row in rows] == [
        ["0.0000", "0.0000", "1.0000"],
        ["1.0000", "0.8415", "0.5403"],
        ["2.0000", "0.9093", "-0.4161"],
    ]
    done = _grad("sin(x)", "--at", "x=[0,1,2]", "--lang", lang)
    note = {"en": "add --elementwise for a table", "zh": "加上 --elementwise"}[lang]
    assert note in done.stdout
    done = _grad("x.sum()*x", "--at", "x=[1,2]", "--elementwise", "--lang", lang)
    assert done.returncode == 1 and "--elementwise" in done.stderr


def test_elementwise_json_and_check():
    done = _grad("x*y", "--at", "x=[1,2],y=[3,4]", "--elementwise", "--check", "--json")
    data = json.loads(done.stdout)
    assert data["mode"] == "elementwise" and data["gradients"] == {"x": [3.0, 4.0], "y": [1.0, 2.0]}
    assert data["check"]["ok"] is True


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hessian_and_the_parsed_expression_in_both_languages(lang: str):
    done = _grad("x*y + y²", "--at", "x=1,y=2", "--hessian", "--lang", lang)
    heading = {"en": "hessian (one matrix", "zh": "海森矩阵(整体一个矩阵"}[lang]
    assert done.returncode == 0 and heading in done.stdout
    assert [line.split() for line in done.stdout.splitlines()[-3:]] == [
        ["x", "y"],
        ["x", "0.0000", "1.0000"],
        ["y", "1.0000", "2.0000"],
    ]
    done = _grad("2x", "--at", "x=1", "--explain", "--lang", lang)
    parsed = {"en": "(Python spelling): 2*x", "zh": "(Python 写法):2*x"}[lang]
    assert parsed in done.stdout


def test_hessian_is_one_labelled_matrix():
    done = _grad("(x*x).sum()*y", "--at", "x=[1,2],y=2", "--hessian", "-q")
    assert done.returncode == 0, done.stderr
    assert [line.split() for line in done.stdout.splitlines()] == [
        ["x[0]", "x[1]", "y"],
        ["x[0]", "4.0000", "0.0000", "2.0000"],
        ["x[1]", "0.0000", "4.0000", "4.0000"],
        ["y", "2.0000", "4.0000", "0.0000"],
    ]


def test_json_keeps_non_ascii_and_drops_bom_and_cr_from_stdin(tmp_path: Path):
    done = _grad("-", "--at", "权重=2", "--json", stdin="\ufeff权重**2\r\n")
    assert '"expression": "权重**2"' in done.stdout and '"权重": 4.0' in done.stdout
    (tmp_path / "a.py").write_text('print("梯度")\n', encoding="utf-8")
    done = autodiff("run", "--json", "a.py", cwd=tmp_path)
    assert '"stdout": "梯度\\n"' in done.stdout


def test_one_usage_error_style_for_every_command():
    for args in (["grad", "--bogus"], ["graph", "--nope"], ["run"], ["grad", "x", "--order", "q"]):
        done = autodiff(*args)
        command = " ".join(args[:1])
        assert done.returncode == 2
        assert done.stderr.startswith(f"autodiff {command}: error: "), done.stderr
        assert f"Try 'autodiff {command} -h' for help." in done.stderr and "╭" not in done.stderr


@pytest.mark.parametrize(("lang", "word"), [("C.UTF-8", "Examples:"), ("zh_CN.UTF-8", "示例:")])
def test_examples_in_each_commands_help(lang: str, word: str):
    for command in ("grad", "graph", "run"):
        done = autodiff(command, "--help", LANG=lang, LANGUAGE="", LC_ALL="")
        assert (
            done.returncode == 0 and word in done.stdout and f"autodiff {command} " in done.stdout
        )


def test_run_prints_a_header_per_script_on_a_terminal(tmp_path: Path):
    pexpect = pytest.importorskip("pexpect")
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(f'print("{name}")\n', encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1")
    child = pexpect.spawn(
        sys.executable, ["-m", "autodiff_cli", "run", "."], cwd=str(tmp_path), env=env,
        encoding="utf-8", timeout=60,
    )  # fmt: skip
    child.expect(pexpect.EOF)
    assert "==> a.py <==\r\na.py\r\n\r\n==> b.py <==\r\nb.py\r\n" in child.before
    piped = autodiff("run", ".", cwd=tmp_path)
    assert piped.stdout == "a.py\nb.py\n"


def test_lines_and_comments_are_kept_and_never_joined():
    typed = "def f(x):\n    return 2x  # twice\nf(x)\nx"
    assert rewrite(typed, AT, NAMESPACE).python == "def f(x):\n    return 2*x  # twice\nf(x)\nx"


def test_names_the_expression_binds_stay_variables():
    assert rewrite("sum([e^2 for e in [1, 2]]) + 2x", AT, NAMESPACE).python == (
        "sum([e**2 for e in [1, 2]]) + 2*x"
    )
    assert rewrite("e = x; e^2", AT, NAMESPACE).python == "e = x; e**2"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="xye2.()|√²⁻^·−π ln\n#\"'[],=;:+-*/", max_size=30))
def test_the_rewrite_never_fails_but_with_a_located_syntax_error(typed: str):
    try:
        rewritten = rewrite(typed, AT, NAMESPACE)
    except ScriptError as error:
        assert error.type_name == "SyntaxError" and error.line >= 1
        return
    assert len(rewritten.origins) == len(rewritten.python) + 1
    assert all(0 <= origin <= len(typed) for origin in rewritten.origins)
