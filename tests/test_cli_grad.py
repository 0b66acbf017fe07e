"""`autodiff grad`: values, gradients, the grad_fn tree, --json and its errors."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest
from cli_runner import REPO
from cli_runner import warm_autodiff as autodiff  # a fork of a warm CLI: see cli_runner


def grad_json(*args: str) -> dict:
    done = autodiff("grad", *args, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)


def test_done_when_check_x_squared_sin_x_at_3():
    data = grad_json("x**2*sin(x)", "--at", "x=3")
    assert data["value"] == pytest.approx(9 * math.sin(3), rel=1e-6)
    assert data["gradients"]["x"] == pytest.approx(6 * math.sin(3) + 9 * math.cos(3), rel=1e-6)
    assert round(data["value"], 4) == 1.2701
    assert round(data["gradients"]["x"], 4) == -8.0632
    assert data["dtype"] == "float32"
    assert data["shape"] == []
    assert data["grad_fn"] == "MulBackward0"
    assert data["seed"] is None
    assert data["mode"] == "gradient"
    for key in ("jacobian", "hessian", "derivatives", "check", "graph"):
        assert data[key] is None


def test_json_floats_are_the_shortest_float32_decimals():
    data = grad_json("x / 3", "--at", "x=1")
    # 1/3 in float32 is 0.3333333432674408...; its shortest round-tripping form is 0.33333334
    assert data["value"] == 0.33333334
    assert data["gradients"]["x"] == 0.33333334


def test_two_variables_and_statements_before_the_expression():
    data = grad_json("u = x * y; u + y**2", "--at", "x=2", "--at", "y=-1.5")
    assert data["value"] == pytest.approx(2 * -1.5 + 1.5**2)
    assert data["gradients"] == {"x": pytest.approx(-1.5), "y": pytest.approx(2 + 2 * -1.5)}
    assert data["grad_fn"] == "AddBackward0"


def test_list_and_expression_values_become_float_leaves():
    data = grad_json("(w * v).sum()", "--at", "w=[1, 2, 3]", "--at", "v=ones(3) * 2")
    assert data["value"] == pytest.approx(12.0)
    assert data["gradients"] == {"w": [2.0, 2.0, 2.0], "v": [1.0, 2.0, 3.0]}
    assert data["grad_fn"] == "SumBackward0"


def test_non_scalar_result_gives_the_jacobian_diag_2x():
    data = grad_json("x*x", "--at", "x=[1.0, 2.0, 3.0]")
    assert data["value"] == [1.0, 4.0, 9.0]
    assert data["shape"] == [3]
    assert data["mode"] == "jacobian"
    assert data["gradients"] is None
    assert data["jacobian"]["x"] == [[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 6.0]]
    text = autodiff("grad", "x*x", "--at", "x=[1.0, 2.0]")
    assert text.returncode == 0
    assert "jacobian" in text.stdout and "[[2., 0.]," in text.stdout


def test_jacobian_is_shaped_out_shape_plus_in_shape():
    data = grad_json("w @ v", "--at", "w=[[1, 2, 3], [4, 5, 6]]", "--at", "v=[1, 1, 1]")
    assert data["jacobian"]["v"] == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]  # (2,) + (3,)
    block = data["jacobian"]["w"]  # (2,) + (2, 3)
    assert [len(block), len(block[0]), len(block[0][0])] == [2, 2, 3]
    assert block[0] == [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]


def test_vjp_gives_v_times_the_jacobian():
    data = grad_json("x*x", "--at", "x=[1.0, 2.0, 3.0]", "--vjp", "[1.0, 0.0, 0.5]")
    assert data["mode"] == "vjp"
    assert data["seed"] == [1.0, 0.0, 0.5]
    assert data["gradients"]["x"] == [2.0, 0.0, 3.0]


def test_hessian_of_x_cubed_at_2_is_12():
    data = grad_json("x**3", "--at", "x=2", "--hessian")
    assert data["hessian"] == {"x": {"x": 12.0}}


def test_hessian_of_two_variables_has_mixed_blocks():
    data = grad_json("x**2 * y", "--at", "x=3,y=2", "--hessian")
    # d2/dx2 = 2y = 4, d2/dxdy = 2x = 6, d2/dy2 = 0
    assert data["hessian"] == {"x": {"x": 4.0, "y": 6.0}, "y": {"x": 6.0, "y": 0.0}}


@pytest.mark.parametrize("order, expected", [(2, 12.0), (3, 6.0), (4, 0.0)])
def test_order_n_derivatives_of_x_cubed(order, expected):
    data = grad_json("x**3", "--at", "x=2", "--order", str(order))
    assert data["derivatives"]["x"] == expected
    assert data["order"] == order


def test_second_derivative_of_sin_is_minus_sin():
    data = grad_json("sin(x)", "--at", "x=0.5", "--order", "2", "--dtype", "float64")
    assert data["derivatives"]["x"] == pytest.approx(-math.sin(0.5), rel=1e-12)
    assert data["dtype"] == "float64"


def test_wrt_makes_the_other_variables_constants():
    data = grad_json("x * w + b", "--at", "x=2,w=3", "--at", "b=[1,2]", "--wrt", "w")
    assert data["wrt"] == ["w"]
    assert data["jacobian"] == {"w": [2.0, 2.0]}


def test_at_comma_lists_keep_commas_inside_brackets():
    data = grad_json("(v * w).sum() + x", "--at", "v=[1,2],w=ones(2, dtype=float64),x=1")
    assert data["gradients"] == {"v": [1.0, 1.0], "w": [1.0, 2.0], "x": 1.0}


def test_check_compares_with_finite_differences():
    data = grad_json("x**2*sin(x)", "--at", "x=3", "--check")
    check = data["check"]
    assert check["ok"] is True
    assert 0 <= check["max_abs_error"] < 1e-3
    assert check["where"] == "x.grad"
    text = autodiff("grad", "exp(x) @ w", "--at", "x=[0.1, 0.2],w=[1, 2]", "--check")
    assert text.returncode == 0
    assert "largest error" in text.stdout and ": ok" in text.stdout


def test_check_catches_a_wrong_backward():
    # a custom Function whose backward is off by a factor of 2
    expression = (
        "class Bad(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        return x * 3\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g * 6\n"
        "Bad.apply(x)"
    )
    done = autodiff("grad", expression, "--at", "x=1.5", "--check", "--json")
    if done.returncode != 1 or not done.stdout:
        pytest.skip(f"custom Function in a one-liner not supported here: {done.stderr}")
    assert json.loads(done.stdout)["check"]["ok"] is False


def test_explain_walks_the_backward_pass():
    done = autodiff("grad", "w * x", "--at", "x=2,w=3", "--explain")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "[1] MulBackward0 ← w * x receives grad = 1." in out
    # dz/dw = dz/dy * dy/dw = 1 * x: the rule for `self` (w) is `other` (x = 2)
    assert "∂out/∂self = other = 2.;  1. · 2. = 2.  → [" in out
    assert "AccumulateGrad (w): w.grad += 2." in out
    assert "AccumulateGrad (x): x.grad += 3." in out


def test_explain_json_lists_steps_in_execution_order():
    data = grad_json("x**2*sin(x)", "--at", "x=3", "--explain")
    steps = data["graph"]
    assert [step["name"] for step in steps][0] == "MulBackward0"
    assert steps[-1]["name"] == "AccumulateGrad" and steps[-1]["variable"] == "x"
    assert steps[-1]["received"] == data["gradients"]["x"]
    assert steps[0]["sends"][0]["rule"] == "other"


def test_expression_from_stdin():
    done = autodiff("grad", "-", "--at", "x=2", "--json", stdin="x**3\n", timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["gradients"]["x"] == 12.0


def test_timeout_stops_a_runaway_expression():
    done = autodiff("grad", "y = x\nwhile True:\n    y = y + 0\ny", "--at", "x=1", "--timeout", "1")
    assert done.returncode == 1
    assert "stopped after 1 second" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["x", "--at", "x=1", "--hessian", "--order", "2"],
        ["x", "--at", "x=1", "--wrt", "y"],
        ["x", "--at", "x=1", "--dtype", "int8"],
        ["x", "--at", "x=1,x=2"],
    ],
)
def test_conflicting_or_unknown_options_are_usage_errors(args):
    done = autodiff("grad", *args)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr


def test_an_unused_variable_has_no_gradient():
    data = grad_json("x * 2", "--at", "x=1", "--at", "unused=5")
    assert data["gradients"] == {"x": 2.0, "unused": None}


def test_text_report_shows_value_tree_and_gradients():
    done = autodiff("grad", "x**2*sin(x)", "--at", "x=3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "value: tensor(1.2701)"
    tree = lines[lines.index("grad_fn graph:") + 1 : lines.index("gradients:")]
    assert tree == [
        "MulBackward0 ← x**2*sin(x)",
        "├── PowBackward0 ← x**2",
        "│   └── AccumulateGrad (x)",
        "└── SinBackward0 ← sin(x)",
        "    └── AccumulateGrad (x)",
    ]
    assert lines[-1].strip() == "x.grad: tensor(-8.0632)"
    assert "\x1b[" not in done.stdout  # not a terminal: no styling


def test_constants_are_shown_in_the_tree():
    done = autodiff("grad", "x * tensor(2.0)", "--at", "x=1")
    assert done.returncode == 0, done.stderr
    assert "├── AccumulateGrad (x)" in done.stdout
    assert "└── constant" in done.stdout


def test_force_color_styles_and_no_color_wins():
    styled = autodiff("grad", "x*x", "--at", "x=2", FORCE_COLOR="1")
    assert styled.returncode == 0
    assert "\x1b[" in styled.stdout and "MulBackward0" in styled.stdout
    plain = autodiff("grad", "x*x", "--at", "x=2", FORCE_COLOR="1", NO_COLOR="1")
    assert "\x1b[" not in plain.stdout


@pytest.mark.parametrize(
    "args, expected",
    [
        (["x +* 2", "--at", "x=1"], "SyntaxError"),
        (["y * 2", "--at", "x=1"], "NameError"),
        (["x * 2", "--at", "x=ones(2) +"], "SyntaxError"),
    ],
)
def test_errors_in_the_expression_are_located(args, expected):
    done = autodiff("grad", *args)
    assert done.returncode == 1
    assert done.stdout == ""
    assert expected in done.stderr
    assert "^" in done.stderr  # the caret under the offending column
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "args, expected",
    [
        (["2 + 3"], "not a tensor"),
        (["tensor(2.0) * 3", "--at", "x=1"], "does not depend"),
        (["x = 1", "--at", "y=2"], "no value"),
        (["len('abc')", "--at", "x=1"], "not a tensor"),
    ],
)
def test_results_that_cannot_be_differentiated(args, expected):
    done = autodiff("grad", *args)
    assert done.returncode == 1
    assert expected in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("option", ["x", "x=", "2x=1", "for=1"])
def test_malformed_at_is_a_usage_error(option):
    done = autodiff("grad", "x", "--at", option)
    assert done.returncode == 2
    assert "--at" in done.stderr


def test_unknown_option_is_a_usage_error():
    assert autodiff("grad", "x", "--at", "x=1", "--frobnicate").returncode == 2


# ---- the tree itself, on stand-in graph nodes -----------------------------------------------


class Node:
    def __init__(self, name: str, *inputs: object) -> None:
        self._name = name
        self.next_functions = tuple((node, 0) for node in inputs)

    def name(self) -> str:
        return self._name


class Accumulate(Node):
    def __init__(self, variable: object) -> None:
        super().__init__("torch::autograd::AccumulateGrad")
        self.variable = variable


def test_tree_marks_shared_nodes_and_unnamed_leaves():
    from autodiff_cli.cli.graph.tree import build_tree, render_plain

    x, hidden = object(), object()
    square = Node("MulBackward0", Accumulate(x), Accumulate(x))
    root = Node("AddBackward0", square, Node("MulBackward0", square, Accumulate(hidden)), None)
    tree = build_tree(root, {id(x): "x"})
    assert render_plain(tree).splitlines() == [
        "AddBackward0",
        "├── MulBackward0",
        "│   ├── AccumulateGrad (x)",
        "│   └── AccumulateGrad (x)",
        "├── MulBackward0",
        "│   ├── MulBackward0 (shared, shown above)",
        "│   └── AccumulateGrad (unnamed leaf)",
        "└── constant",
    ]
    assert render_plain(tree, unicode=False).splitlines()[1:3] == [
        "|-- MulBackward0",
        "|   |-- AccumulateGrad (x)",
    ]


def test_tree_of_a_long_chain_is_collapsed():
    from autodiff_cli.cli.graph.tree import build_tree, render_plain

    node = Accumulate(object())
    for _ in range(1000):
        node = Node("ExpBackward0", node)
    lines = render_plain(build_tree(node, {})).splitlines()
    assert len(lines) == 6
    assert lines[2].endswith("… 996 × ExpBackward0 …")
    assert lines[-1].endswith("AccumulateGrad (unnamed leaf)")


def test_tree_of_a_deep_graph_of_mixed_ops_is_cut_off():
    from autodiff_cli.cli.graph.tree import MAX_DEPTH, build_tree, render_plain

    node = Accumulate(object())
    for index in range(1000):
        node = Node("ExpBackward0" if index % 2 else "SinBackward0", node)
    lines = render_plain(build_tree(node, {})).splitlines()
    assert len(lines) == MAX_DEPTH + 2
    assert lines[-1].endswith("… deeper nodes not shown")


def test_check_names_what_is_not_finite_and_where():
    done = autodiff("grad", "log(x)", "--at", "x=-1", "--check")
    assert done.returncode == 1
    assert done.stdout.splitlines()[-2:] == [
        "  no element could be compared with finite differences: not checked",
        "  x.grad at x=-1: not finite: the expression is nan there, so finite differences "
        "cannot check it (the derivative is -1)",
    ]
    done = autodiff("grad", "sqrt(x)", "--at", "x=[0, 4]", "--check", "--json")
    assert done.returncode == 1
    check = json.loads(done.stdout)["check"]
    assert (check["ok"], check["verdict"], check["checked"]) == (False, "not checked", 2)
    first = check["problems"][0]
    assert (first["where"], first["element"], first["leaf_element"]) == ("jacobian[x]", [0, 0], [0])
    assert first["message"] == (
        "jacobian[x][0, 0] at x[0]=0: not finite: the expression is nan at x=-1e-06, "
        "so finite differences cannot check it (the derivative is inf)"
    )
    assert [p["kind"] for p in check["problems"]] == ["not finite", "not finite"]


def test_check_reports_kinks_with_their_one_sided_differences():
    done = autodiff("grad", "relu(x)", "--at", "x=0", "--check")
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines()[-1] == (
        "  x.grad at x=0: not differentiable (a kink: one-sided differences 0 from the left, "
        "1 from the right); the derivative is 0, which lies between them"
    )
    data = grad_json("abs(x).sum()", "--at", "x=[2, 0, -3]", "--check")
    check = data["check"]
    assert check["ok"] is True and check["checked"] == 2
    assert [(p["kind"], p["element"]) for p in check["problems"]] == [("not differentiable", [1])]
    assert "x.grad[1] at x[1]=0" in check["problems"][0]["message"]
    smooth = grad_json("x**2*sin(x)", "--at", "x=[3, 0]", "--check")["check"]
    assert smooth["problems"] == [] and smooth["verdict"] == "ok"


def test_check_flags_a_jump_in_the_differentiated_function():
    done = autodiff("grad", "abs(x)", "--at", "x=0", "--order", "2", "--check")
    assert done.returncode == 0
    assert (
        "order-2 derivative of x at x=0: not differentiable (the order-1 derivative is not "
        "continuous there" in done.stdout
    )


def test_saved_shows_the_values_captured_before_backward_freed_them():
    done = autodiff("grad", "sin(x)*x", "--at", "x=2", "--saved")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[2] == "MulBackward0 ← sin(x)*x  saved self=0.9093  saved other=2."
    assert lines[3] == "├── SinBackward0 ← sin(x)  saved self=2."
    assert "freed" not in done.stdout


def test_check_allows_for_the_rounding_of_large_values():
    # f(x +- 1e-6) rounds to about 1e-7 at 1e9: the differences cannot be closer than that
    check = grad_json("x + 1e9", "--at", "x=1", "--dtype", "float64", "--check")["check"]
    assert (check["ok"], check["problems"]) == (True, [])
    exact = autodiff("grad", "x * 1e9", "--at", "x=1", "--dtype", "float64", "--check")
    assert exact.returncode == 0  # no false kink from rounding either
    assert "not differentiable" not in exact.stdout


def test_a_name_without_a_value_says_how_to_give_it_one():
    done = autodiff("grad", "x*y", "--at", "x=1")
    assert done.returncode == 1
    assert done.stderr.splitlines()[-2:] == [
        "NameError: name 'y' is not defined",
        "hint: give it a value with --at y=...",
    ]
    typo = autodiff("grad", "x*yy", "--at", "x=1,y=2")  # a close name: the suggestion alone
    assert typo.returncode == 1
    assert typo.stderr.splitlines()[-1] == "NameError: name 'yy' is not defined. Did you mean: 'y'?"
    graph = autodiff("graph", "x*y", "--at", "x=1")
    assert graph.returncode == 1
    assert graph.stderr.splitlines()[-1] == "hint: give it a value with --at y=..."


def json_failure(*args: str, status: int) -> dict:
    done = autodiff(*args)
    assert done.returncode == status, done.stderr
    assert done.stderr == ""
    (line,) = done.stdout.splitlines()
    record = json.loads(line)
    assert list(record) == ["error"]
    assert list(record["error"]) == ["type", "message", "file", "line", "column"]
    return record["error"]


def test_errors_under_json_are_one_json_object_on_stdout():
    assert json_failure("grad", "x*y", "--at", "x=1", "--json", status=1) == {
        "type": "NameError",
        "message": "name 'y' is not defined\nhint: give it a value with --at y=...",
        "file": "<expr>",
        "line": 1,
        "column": 3,
    }
    syntax = json_failure("grad", "x +* 2", "--at", "x=1", "--json", status=1)
    assert (syntax["type"], syntax["line"], syntax["column"]) == ("SyntaxError", 1, 4)
    assert json_failure("grad", "2 + 3", "--json", status=1) == {
        "type": "GradError",
        "message": "the expression's value is not a tensor (it is int); use a --at variable in it",
        "file": "<expr>",
        "line": None,
        "column": None,
    }
    order = json_failure("grad", "x*x", "--at", "x=1", "--order", "0", "--json", status=2)
    assert order["type"] == "UsageError" and order["message"] == "--order must be at least 1, got 0"
    typer_usage = json_failure("grad", "x", "--at", "x=1", "--json", "--timeout", "0", status=2)
    assert typer_usage == {
        "type": "UsageError",
        "message": "Invalid value for '--timeout': must be more than 0 and at most 1e+06 seconds",
        "file": None,
        "line": None,
        "column": None,
    }


def test_a_process_killed_at_its_deadline_is_a_json_error_too():
    # each product takes seconds (6000^3 multiply-adds, one BLAS thread: ~4 s even on a fast
    # idle machine; 4000 took 1.3 s there, and the child's own deadline then stopped it between
    # two products), far past the kill at 1 s + 1 s; making the operands takes far less than 1 s
    big = "ones(6000, 6000)"
    args = ("grad", f"({big} @ {big} @ {big} @ {big}).sum() * x", "--at", "x=1")
    assert json_failure(*args, "--json", "--timeout", "1", status=1) == {
        "type": "ProcessError",
        "message": "the expression was stopped after 1 second (--timeout 1)",
        "file": "<expr>",
        "line": None,
        "column": None,
    }
    usage = json_failure(*args, "--json", "--max-memory", "1K", status=2)
    assert usage["type"] == "UsageError" and "--max-memory 1 KiB" in usage["message"]


def test_a_lean_engine_loads_the_extra_ops_an_expression_names() -> None:
    """`grad` imports the engine without its extra op families (start-up) unless the
    expression names something the lean engine lacks: then they are loaded before the child
    is locked down."""
    probe = (
        "from autodiff_cli import engine_options\n"
        "engine_options.request_lean_engine()\n"
        "import autodiff_cli.engine as e\n"
        "from autodiff_cli.cli.jail.warm_up import _names_other_ops as names\n"
        "print(e._extras_loaded, hasattr(e.Tensor, 'deg2rad'))\n"
        "print(names(['x**2*sin(x)', 'x=3', ''], e), names(['tanh(w) @ v', 'w=[1.0]', 'v=[2.0]'], e))\n"
        "print(names(['lgamma(x)', 'x=3'], e), names(['x.isinf()', 'x=3'], e))\n"
        "e.lgamma\n"
        "print(e._extras_loaded, hasattr(e.Tensor, 'deg2rad'))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    assert done.stdout.split() == "False False False False True True True True".split(), done.stderr
    result = autodiff("grad", "lgamma(x) * x.deg2rad() + torch.special.expit(x)", "--at", "x=3")
    assert result.returncode == 0, result.stderr
    assert "LgammaBackward0" in result.stdout and "Deg2RadBackward0" in result.stdout


def _explained(*args: str) -> str:
    done = autodiff("grad", *args, "--explain")
    assert done.returncode == 0, done.stderr
    return done.stdout[done.stdout.index("backward pass") :]


def test_explain_shows_each_rule_with_its_numbers_and_each_node_with_its_source():
    assert _explained("w*x + x**2", "--at", "x=3,w=2") == (
        "backward pass, step by step (seed: ∂out/∂out = 1.):\n"
        "  [1] AddBackward0 ← w*x + x**2 receives grad = 1.\n"
        "        ∂out/∂self = 1;  1. · 1 = 1.  → [3] MulBackward0\n"
        "        ∂out/∂other = 1;  1. · 1 = 1.  → [2] PowBackward0\n"
        "  [2] PowBackward0 ← x**2 receives grad = 1.\n"
        "        ∂out/∂self = exponent · self^(exponent-1) = 2 · 3.^(2-1);"
        "  1. · 2 · 3.^(2-1) = 6.  → [5] AccumulateGrad (x)\n"
        "  [3] MulBackward0 ← w*x receives grad = 1.\n"
        "        ∂out/∂self = other = 3.;  1. · 3. = 3.  → [4] AccumulateGrad (w)\n"
        "        ∂out/∂other = self = 2.;  1. · 2. = 2.  → [5] AccumulateGrad (x)\n"
        "  [4] AccumulateGrad (w): w.grad += 3.\n"
        "  [5] AccumulateGrad (x): x.grad += 6. from [2] + 2. from [3] = 8.\n"
        "  accumulated gradients:\n"
        "    x.grad = 8.\n"
        "    w.grad = 3.\n"
    )


def test_explain_shows_small_tensors_elementwise_and_large_ones_by_shape():
    small = _explained("(w*x).sum()", "--at", "x=[1.,2.]", "--at", "w=[3.,4.]")
    assert (
        "  [2] MulBackward0 ← w*x receives grad = [1., 1.]\n"
        "        ∂out/∂self = other = [1., 2.];  [1., 1.] · [1., 2.] = [1., 2.]"
        "  → [3] AccumulateGrad (w)\n"
    ) in small
    large = _explained("(x.exp()*2).sum()", "--at", "x=ones(10)")
    assert (
        "  [3] ExpBackward0 ← x.exp() receives grad = <tensor of shape [10]>\n"
        "        ∂out/∂self = exp(self) = exp(<shape [10]>);  <tensor of shape [10]> · "
        "exp(<shape [10]>) = <tensor of shape [10]>  → [4] AccumulateGrad (x)\n"
    ) in large


def test_explain_with_formula_assembles_the_chain_rule():
    text = _explained("x**2*sin(x)", "--at", "x=3", "--formula")
    assert text == (
        "backward pass, step by step (seed: ∂out/∂out = 1.):\n"
        "  [1] MulBackward0 ← x**2*sin(x) receives grad = 1.\n"
        "        ∂out/∂self = other = 0.1411;  1. · 0.1411 = 0.1411  → [3] PowBackward0\n"
        "          as a formula: sin(x)\n"
        "        ∂out/∂other = self = 9.;  1. · 9. = 9.  → [2] SinBackward0\n"
        "          as a formula: x**2\n"
        "  [2] SinBackward0 ← sin(x) receives grad = 9.\n"
        "        ∂out/∂self = cos(self) = cos(3.);  9. · cos(3.) = -8.9099"
        "  → [4] AccumulateGrad (x)\n"
        "          as a formula: cos(x)\n"
        "  [3] PowBackward0 ← x**2 receives grad = 0.1411\n"
        "        ∂out/∂self = exponent · self^(exponent-1) = 2 · 3.^(2-1);"
        "  0.1411 · 2 · 3.^(2-1) = 0.8467  → [4] AccumulateGrad (x)\n"
        "          as a formula: 2*x\n"
        "  [4] AccumulateGrad (x): x.grad += -8.9099 from [2] + 0.8467 from [3] = -8.0632\n"
        "  accumulated gradients:\n"
        "    x.grad = -8.0632\n"
        "  chain rule (sum over paths of products of local derivatives):\n"
        "    ∂result/∂x = [1]·[3] + [1]·[2]\n"
        "               = (sin(x))·(2*x) + (x**2)·(cos(x))\n"
        "               = x**2*cos(x) + 2*x*sin(x)\n"
    )


def test_explain_json_steps_carry_source_numbers_and_formulas():
    data = grad_json("x**2*sin(x)", "--at", "x=3", "--explain", "--formula")
    first = data["graph"][0]
    assert first["source"] == "x**2*sin(x)"
    assert first["sends"][1] == {
        "to": 2,
        "input": "other",
        "rule": "self",
        "with_numbers": "9.",
        "formula": "x**2",
        "gradient": 9.0,
    }
    assert data["formulas"] == {"x": "x**2*cos(x) + 2*x*sin(x)"}
