"""`--formula`: derivatives read from the grad_fn graph as SymPy formulas.

Each row of TABLE gives an expression, a point, and its derivative written here by hand (a SymPy
expression built from symbols, never parsed from text). A row passes when the tool's formula is
SymPy-equivalent to the hand-written one, its value at the point agrees with the engine's
gradient (the tool's own check), the hand-written derivative's value agrees with the engine too,
and the plain text of the formula, run back through `autodiff grad`'s expression evaluator, gives
the formula's value (it is pasteable). The table runs in-process through `grad_cmd.compute`
(the function the command runs in its child); the CLI itself is tested with a few subprocesses.
"""

from __future__ import annotations

import functools
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import autodiff as run_cli

from autodiff_cli.cli.grad.command import GradOptions, compute

REPO = Path(__file__).resolve().parents[1]


def _bind_sympy() -> None:
    """SymPy and the names the rows' derivatives are written with (`x`, `sin`...), bound as
    this module's globals by the first test of the file (`_sympy_names`): importing SymPy costs
    0.3 CPU-s, which every pytest worker paid to collect this file at module level."""
    global sympy, Piecewise, Rational, cos, cosh, exp, log, sin, sinh, sqrt, tan, tanh
    global x, y, z, w, _NAMES
    import sympy
    from sympy import Piecewise, Rational, cos, cosh, exp, log, sin, sinh, sqrt, tan, tanh

    x, y, z, w = sympy.symbols("x y z w", real=True)
    _NAMES = {"x": x, "y": y, "z": z, "w": w}


@pytest.fixture(autouse=True, scope="module")
def _sympy_names() -> None:
    _bind_sympy()


class Hand:
    """A row's derivatives written by hand: `build()` makes them (SymPy expressions of the
    symbols above), once SymPy is imported."""

    def __init__(self, build) -> None:
        self.build = build


def sig(u):
    return 1 / (1 + exp(-u))


G, O2, H = "gradient", "order", "hessian"
# (expression, --at, mode, Hand of {leaf or (row, column): derivative written by hand})
TABLE = [
    ("x**2*sin(x)", "x=3", G, Hand(lambda: {"x": 2 * x * sin(x) + x**2 * cos(x)})),
    ("x**3", "x=1.5", G, Hand(lambda: {"x": 3 * x**2})),
    ("x**0.5", "x=2", G, Hand(lambda: {"x": 1 / (2 * sqrt(x))})),
    ("x**-2", "x=1.5", G, Hand(lambda: {"x": -2 / x**3})),
    ("sqrt(x)", "x=4", G, Hand(lambda: {"x": 1 / (2 * sqrt(x))})),
    ("rsqrt(x)", "x=4", G, Hand(lambda: {"x": -1 / (2 * x ** Rational(3, 2))})),
    ("exp(x)", "x=0.7", G, Hand(lambda: {"x": exp(x)})),
    ("log(x)", "x=2.5", G, Hand(lambda: {"x": 1 / x})),
    ("log2(x)", "x=3", G, Hand(lambda: {"x": 1 / (x * log(2))})),
    ("log10(x)", "x=3", G, Hand(lambda: {"x": 1 / (x * log(10))})),
    ("log1p(x)", "x=0.3", G, Hand(lambda: {"x": 1 / (1 + x)})),
    ("expm1(x)", "x=0.3", G, Hand(lambda: {"x": exp(x)})),
    ("sin(x)", "x=1", G, Hand(lambda: {"x": cos(x)})),
    ("cos(x)", "x=1", G, Hand(lambda: {"x": -sin(x)})),
    ("tan(x)", "x=0.4", G, Hand(lambda: {"x": 1 + tan(x) ** 2})),
    ("asin(x)", "x=0.3", G, Hand(lambda: {"x": 1 / sqrt(1 - x**2)})),
    ("acos(x)", "x=0.3", G, Hand(lambda: {"x": -1 / sqrt(1 - x**2)})),
    ("atan(x)", "x=2", G, Hand(lambda: {"x": 1 / (1 + x**2)})),
    ("sinh(x)", "x=0.5", G, Hand(lambda: {"x": cosh(x)})),
    ("cosh(x)", "x=0.5", G, Hand(lambda: {"x": sinh(x)})),
    ("tanh(x)", "x=0.5", G, Hand(lambda: {"x": 1 - tanh(x) ** 2})),
    ("asinh(x)", "x=0.5", G, Hand(lambda: {"x": 1 / sqrt(x**2 + 1)})),
    ("acosh(x)", "x=2", G, Hand(lambda: {"x": 1 / sqrt(x**2 - 1)})),
    ("atanh(x)", "x=0.5", G, Hand(lambda: {"x": 1 / (1 - x**2)})),
    ("sigmoid(x)", "x=0.3", G, Hand(lambda: {"x": sig(x) * (1 - sig(x))})),
    ("relu(x)", "x=2", G, Hand(lambda: {"x": Piecewise((1, x > 0), (0, True))})),
    ("relu(x)", "x=-2", G, Hand(lambda: {"x": Piecewise((0, x <= 0), (1, True))})),
    ("abs(x)", "x=-3", G, Hand(lambda: {"x": sympy.sign(x)})),
    ("erf(x)", "x=0.5", G, Hand(lambda: {"x": 2 / sqrt(sympy.pi) * exp(-(x**2))})),
    ("1 / x", "x=4", G, Hand(lambda: {"x": -1 / x**2})),
    ("2 / x + x / 4", "x=2", G, Hand(lambda: {"x": -2 / x**2 + Rational(1, 4)})),
    ("(x + 1) / (x - 1)", "x=3", G, Hand(lambda: {"x": -2 / (x - 1) ** 2})),
    ("x / (1 + x**2)", "x=0.5", G, Hand(lambda: {"x": (1 - x**2) / (1 + x**2) ** 2})),
    ("2 - x", "x=5", G, Hand(lambda: {"x": -1})),
    ("-x * 3 + 0.1", "x=5", G, Hand(lambda: {"x": -3})),
    ("2**x", "x=1.5", G, Hand(lambda: {"x": 2**x * log(2)})),
    ("x**x", "x=1.5", G, Hand(lambda: {"x": x**x * (log(x) + 1)})),
    ("sin(x**2)", "x=1.2", G, Hand(lambda: {"x": 2 * x * cos(x**2)})),
    ("exp(sin(x))", "x=0.8", G, Hand(lambda: {"x": cos(x) * exp(sin(x))})),
    ("log(cosh(x))", "x=0.8", G, Hand(lambda: {"x": tanh(x)})),
    ("sqrt(1 + x**2)", "x=2", G, Hand(lambda: {"x": x / sqrt(1 + x**2)})),
    ("tanh(sigmoid(x))", "x=0.2", G, Hand(lambda: {"x": (1 - tanh(sig(x)) ** 2) * sig(x) * (1 - sig(x))})),
    ("softplus(x)", "x=0.5", G, Hand(lambda: {"x": sig(x)})),
    ("x * y", "x=2,y=3", G, Hand(lambda: {"x": y, "y": x})),
    ("x**2 * y + y**3", "x=2,y=3", G, Hand(lambda: {"x": 2 * x * y, "y": x**2 + 3 * y**2})),
    ("sin(x * y) + z", "x=0.5,y=2,z=1", G, Hand(lambda: {"x": y * cos(x * y), "y": x * cos(x * y), "z": 1})),
    ("x / y", "x=1,y=2", G, Hand(lambda: {"x": 1 / y, "y": -x / y**2})),
    ("x**y", "x=2,y=3", G, Hand(lambda: {"x": y * x ** (y - 1), "y": x**y * log(x)})),
    ("atan2(y, x)", "x=1,y=2", G, Hand(lambda: {"x": -y / (x**2 + y**2), "y": x / (x**2 + y**2)})),
    ("hypot(x, y)", "x=3,y=4", G, Hand(lambda: {"x": x / sqrt(x**2 + y**2), "y": y / sqrt(x**2 + y**2)})),
    ("logaddexp(x, y)", "x=1,y=2", G, Hand(lambda: {"x": exp(x) / (exp(x) + exp(y)), "y": exp(y) / (exp(x) + exp(y))})),
    ("sigmoid(w*x + y)", "w=0.5,x=2,y=0.1", G,
     Hand(lambda: {"w": x * sig(w * x + y) * (1 - sig(w * x + y)),
                   "x": w * sig(w * x + y) * (1 - sig(w * x + y)),
                   "y": sig(w * x + y) * (1 - sig(w * x + y))})),
    ("(sigmoid(w*x) - 1.0)**2", "w=0.5,x=2", G,
     Hand(lambda: {"w": 2 * (sig(w * x) - 1) * x * sig(w * x) * (1 - sig(w * x)),
                   "x": 2 * (sig(w * x) - 1) * w * sig(w * x) * (1 - sig(w * x))})),
    ("y = x; y = y * x + 1; y = y * x + 1; y", "x=2", G, Hand(lambda: {"x": 3 * x**2 + 1})),
    ("(x*x).sum()", "x=3", G, Hand(lambda: {"x": 2 * x})),
    ("(x + 1).mean() * 2", "x=3", G, Hand(lambda: {"x": 2})),
    ("x.exp().sin()", "x=0.3", G, Hand(lambda: {"x": exp(x) * cos(exp(x))})),
    # second derivatives
    ("x**2*sin(x)", "x=3", O2, Hand(lambda: {"x": 2 * sin(x) + 4 * x * cos(x) - x**2 * sin(x)})),
    ("exp(2*x)", "x=0.5", O2, Hand(lambda: {"x": 4 * exp(2 * x)})),
    ("log(x)", "x=2", O2, Hand(lambda: {"x": -1 / x**2})),
    ("tanh(x)", "x=0.5", O2, Hand(lambda: {"x": -2 * tanh(x) * (1 - tanh(x) ** 2)})),
    ("x**4 + y**3", "x=1.5,y=2", O2, Hand(lambda: {"x": 12 * x**2, "y": 6 * y})),
    ("sigmoid(x)", "x=0.3", O2, Hand(lambda: {"x": sig(x) * (1 - sig(x)) * (1 - 2 * sig(x))})),
    # Hessians
    ("x**2*y + y**3", "x=2,y=3", H,
     Hand(lambda: {("x", "x"): 2 * y, ("x", "y"): 2 * x, ("y", "x"): 2 * x, ("y", "y"): 6 * y})),
    ("sin(x*y)", "x=0.5,y=2", H,
     Hand(lambda: {("x", "x"): -(y**2) * sin(x * y), ("x", "y"): cos(x * y) - x * y * sin(x * y),
                   ("y", "x"): cos(x * y) - x * y * sin(x * y), ("y", "y"): -(x**2) * sin(x * y)})),
    ("exp(x) * y", "x=0.1,y=2", H,
     Hand(lambda: {("x", "x"): exp(x) * y, ("x", "y"): exp(x), ("y", "x"): exp(x), ("y", "y"): 0})),
]  # fmt: skip


@functools.cache
def _run(expression: str, at: str, mode: str, dtype: str | None = None):
    """The command's outcome for a row (computed once: two tests read the first 45 rows')."""
    options = GradOptions(
        at=[at],
        order=2 if mode == O2 else 1,
        hessian=mode == H,
        formula=True,
        dtype=dtype,
    )
    return compute(expression, options)


def _equivalent(formula, hand) -> bool:
    """SymPy-equal for all real values, else on the domain of a function of x > 0 or x > 1
    (acosh's derivative is 1/(sqrt(x-1)·sqrt(x+1)), equal to 1/sqrt(x²-1) for x > 1 only).
    The cheap proofs first: `equals` takes seconds where it cannot decide (sigmoid's), and
    `simplify` a third of a second where only the exponential form shows it (sigmoid's too)."""
    difference = formula - hand
    if difference == 0:
        return True
    if sympy.simplify(difference.rewrite(sympy.exp)) == 0:  # tanh, cosh, sigmoid as exponentials
        return True
    if sympy.simplify(difference) == 0:
        return True
    if formula.equals(hand):
        return True
    for shift in (0, 1):
        on_domain = {s: shift + sympy.Symbol(s.name, positive=True) for s in _NAMES.values()}
        if sympy.simplify(sympy.powsimp((formula - hand).subs(on_domain), force=True)) == 0:
            return True
    return False


def _value(expr, point: dict) -> float:
    return float(sympy.N(sympy.sympify(expr).subs(point), 30))


@pytest.mark.parametrize(("expression", "at", "mode", "expected"), TABLE)
def test_formula_matches_hand_written_derivative_and_engine(expression, at, mode, expected):
    expected = expected.build()
    outcome = _run(expression, at, mode, dtype="float64")
    section = outcome.formula
    assert section.data["formula_check"]["error"] is None, section.lines
    assert section.ok, "\n".join(section.lines)
    got = {formula.key: formula.expr for formula in section.formulas}
    assert set(got) == set(expected)
    point = {_NAMES[name]: float(leaf.item()) for name, leaf in outcome.leaves.items()}
    for key, hand in expected.items():
        formula = got[key]
        assert _equivalent(formula, hand), (key, formula, hand)
        engine = next(f.engine for f in section.formulas if f.key == key)
        assert math.isclose(_value(hand, point), engine, rel_tol=1e-9, abs_tol=1e-12)


def test_table_has_fifty_expressions_of_every_kind():
    assert len(TABLE) >= 50
    assert {mode for *_, mode, _ in TABLE} == {G, O2, H}
    assert sum(len(hand.build()) > 1 for *_, hand in TABLE) >= 8  # several variables


@pytest.mark.parametrize(("expression", "at", "mode", "expected"), TABLE[:45])
def test_plain_formula_text_runs_back_through_grad(expression, at, mode, expected):
    """The plain text is Python the expression language reads: its value is the formula's."""
    section = _run(expression, at, mode, dtype="float64").formula
    for formula in section.formulas:
        text = section.data["formulas"][formula.key]
        again = compute(f"{text} + 0*x", GradOptions(at=[at], dtype="float64"))
        assert math.isclose(float(again.result.item()), formula.value, rel_tol=1e-9, abs_tol=1e-12)


def test_float32_values_agree_within_the_tolerance():
    section = _run("x**2*sin(x)", "x=3", G).formula
    assert section.ok
    (formula,) = section.formulas
    assert formula.engine != formula.value  # float32 rounding ...
    assert abs(formula.engine - formula.value) < 1e-5  # ... within the tolerance


def test_a_wrong_engine_value_is_a_mismatch():
    from autodiff_cli.cli.formulas.derivatives import agree

    eps = 2.0**-23
    assert agree(-8.0632124, -8.063212, 9.0, eps)
    assert not agree(-8.0632124, -8.06, 9.0, eps)
    assert agree(math.nan, math.nan, 0, eps) and not agree(1.0, math.nan, 0, eps)


@pytest.mark.parametrize(
    ("expression", "at", "message"),
    [
        ("(x @ x)", "x=[[1.,2.],[3.,4.]]", "no formula for MmBackward0"),
        ("(x * 2).sum()", "x=[1.,2.,3.]", "no formula for SumBackward0: it reduces 3 elements"),
        ("x * 2", "x=[1.,2.]", "no formula: the result has 2 elements"),
        ("x.floor() + x", "x=1.5", "no formula for FloorBackward0"),
        ("x * ones(3)", "x=2", "its input 'other' is a tensor of shape [3]"),
    ],
)
def test_non_elementwise_graphs_are_refused_honestly(expression, at, message):
    outcome = compute(expression, GradOptions(at=[at], formula=True))
    section = outcome.formula
    assert not section.ok
    assert message in section.data["formula_check"]["error"]
    assert section.data["formulas"] is None


def test_simplification_is_bounded_and_says_so():
    from autodiff_cli.cli.formulas.simplifying import MAX_OPERATIONS, bounded_simplify

    big = sum(sympy.sin(x * k) ** k for k in range(1, 120))
    kept, note = bounded_simplify(big)
    assert sympy.count_ops(big) > MAX_OPERATIONS and kept == big
    assert "too large" in note
    hard = sympy.diff(sympy.tanh(sympy.sin(x) ** 7 / (1 + sympy.exp(x**3)) ** 5), x, 3)
    result, note = bounded_simplify(hard, seconds=0.05)
    assert result == hard and "longer than 0.05 s" in note


def test_graph_terms_refuse_a_tampered_payload():
    from autodiff_cli.cli.formulas.symbolic import check_terms
    from autodiff_cli.cli.formulas.terms import NoFormula

    good = {"nodes": [["leaf", "x"], ["op", "sin", "SinBackward0", [0], {}, None]], "root": 1}
    assert check_terms(good).root == 1
    for bad in (
        {"nodes": [["leaf", "__import__('os')"]], "root": 0},
        {"nodes": [["op", "sin", "SinBackward0", [0], {}, None]], "root": 0},  # forward reference
        {"nodes": [["leaf", "x"], ["op", "sin", "CosBackward0", [0], {}, None]], "root": 1},
        {"nodes": [["const", "1+1"]], "root": 0},
        {"nodes": [], "root": 0},
    ):
        with pytest.raises(NoFormula):
            terms = check_terms(bad)
            from autodiff_cli.cli.formulas.symbolic import expressions

            expressions(terms)


# -- the command line ------------------------------------------------------------------------


def autodiff(*args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess:
    """The CLI in locale `lang` (English by default, whatever the machine's)."""
    return run_cli(*args, lang=lang)


def test_cli_prints_the_formula_and_its_value_beside_the_gradient():
    done = autodiff("grad", "x**2*sin(x)", "--at", "x=3", "--formula")
    assert done.returncode == 0, done.stderr
    tail = done.stdout[done.stdout.index("gradients:") :]
    assert tail == (
        "gradients:\n"
        "  x.grad: tensor(-8.0632)\n"
        "formulas (from the grad_fn graph):\n"
        "  result = x**2*sin(x)\n"
        "  ∂result/∂x = x**2*cos(x) + 2*x*sin(x)\n"
        "             = x²·cos(x) + 2·x·sin(x)\n"
        "      value at the point x=3: -8.0632124 (autograd -8.0632124: agrees)\n"
    )


def test_cli_json_latex_hessian_and_order():
    done = autodiff("grad", "x**2*y", "--at", "x=2,y=3", "--formula", "--hessian", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["formulas"] == {"x": {"x": "2*y", "y": "2*x"}, "y": {"x": "2*x", "y": "0"}}
    assert data["formula_check"]["ok"] is True
    done = autodiff("grad", "sin(x)", "--at", "x=1", "--formula", "--order", "2", "--latex")
    assert done.returncode == 0, done.stderr
    assert "  ∂²result/∂x² = -sin(x)\n" in done.stdout
    assert "= - \\sin{\\left(x \\right)}\n" in done.stdout
    plain = autodiff("grad", "x**2*sin(x)", "--at", "x=3")
    assert "formulas" not in plain.stdout and plain.returncode == 0


def test_cli_refuses_matmul_with_exit_status_one():
    done = autodiff("grad", "(w @ w).sum()", "--at", "w=ones(2,2)", "--formula")
    assert done.returncode == 1
    assert "formulas (from the grad_fn graph):\n  no formula for MmBackward0\n" in done.stdout
    usage = autodiff("grad", "x*x", "--at", "x=1", "--latex")
    assert usage.returncode == 2 and "--latex needs --formula" in usage.stderr


def test_cli_speaks_chinese_when_asked():
    done = autodiff("grad", "x*x", "--at", "x=1", "--formula", lang="zh_CN.UTF-8")
    assert done.returncode == 0, done.stderr
    assert "公式(由 grad_fn 图得出):" in done.stdout and "一致" in done.stdout


def test_graph_file_formula_with_sources(tmp_path: Path):
    script = tmp_path / "lin.py"
    script.write_text(
        "import torch\n"
        "x = torch.tensor(2.0, requires_grad=True)\n"
        "w = torch.tensor(0.5, requires_grad=True)\n"
        "y = x\n"
        "for i in range(3):\n"
        "    y = y * w + 1\n"
        "loss = y ** 2\n"
    )
    done = autodiff("graph", "--file", str(script), "--var", "loss", "--formula")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("PowBackward0 ← y ** 2 (7:8)  shape=[]")
    assert lines[1].startswith("└── AddBackward0 ← y * w + 1 (6:9)")
    assert "  ∂loss/∂w = " in done.stdout and "agrees" in done.stdout
    assert "MISMATCH" not in done.stdout


def test_one_liner_without_formula_does_not_import_sympy():
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "autodiff_cli", "grad", "x**2", "--at", "x=3"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=environment,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "import time:" in done.stderr
    assert "sympy" not in done.stderr and "formulas" not in done.stderr
