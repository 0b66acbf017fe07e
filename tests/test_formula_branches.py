"""Backward formulas are written once for both backends: no `creates_graph` branch in a formula
(issue 15). The few places left choose something that is not a formula's backend (listed below,
each with its reason at the line). Plus the behaviour the branchless formulas must keep: the same
values on numpy arrays and on Tensors (create_graph), PyTorch's grad_fn names on Tensors."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import autodiff_cli.engine as E
from autodiff_cli.engine.core.formula_backends import NumpyBackend, TensorBackend

ENGINE = Path(E.__file__).parent

# (module, enclosing function) -> uses of `creates_graph` allowed there
ALLOWED = {
    ("ops/formula_ops.py", "run"): 1,  # `run` itself: the one place a formula's op is recorded
    ("ops/inplace.py", "apply"): 1,  # CopySlices: the node's own bookkeeping, not a formula
    ("ops/nn_layers.py", "formula"): 1,  # layer/batch norm: one shared node only in a graph
    # the fused LSTM layer's BPTT: one function over a namespace of array or Tensor operations
    ("ops/recurrent.py", "formula"): 1,
    # prelu: both gradients one PreluKernelBackwardBackward0 node, only in a graph (as PyTorch)
    ("ops/activations.py", "formula"): 1,
    # group norm: on arrays PyTorch's CPU kernel's float64 sums, on Tensors the same formula as
    # graph ops (one helper choosing the form, one for the input's gradient)
    ("ops/group_norm.py", "_on_backend"): 1,
    ("ops/group_norm.py", "_grad_input"): 1,
}


def _uses(path: Path) -> list[tuple[str, int]]:
    """(enclosing function, line) of each `.creates_graph` read in a module."""
    tree = ast.parse(path.read_text())
    found = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = function
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = child.name
            if isinstance(child, ast.Attribute) and child.attr == "creates_graph":
                found.append((function, child.lineno))
            visit(child, name)

    visit(tree, "<module>")
    return found


def test_formulas_do_not_branch_on_creates_graph():
    counts: dict = {}
    lines: dict = {}
    for folder in ("ops", "nn"):
        for path in sorted((ENGINE / folder).rglob("*.py")):
            rel = path.relative_to(ENGINE).as_posix()
            for function, line in _uses(path):
                key = (rel, function)
                counts[key] = counts.get(key, 0) + 1
                lines.setdefault(key, []).append(line)
    extra = {
        f"{rel}:{lines[(rel, fn)]} in {fn}": n
        for (rel, fn), n in counts.items()
        if n > ALLOWED.get((rel, fn), 0)
    }
    assert extra == {}, "use run(B, OP, ...) or a backend method instead of a branch"
    assert sum(counts.values()) <= sum(ALLOWED.values())


def test_the_count_sees_a_branch(tmp_path):
    path = tmp_path / "probe.py"
    path.write_text(
        "def formula(B, g):\n    if B.creates_graph:\n        return g\n    return -g\n"
    )
    assert _uses(path) == [("formula", 2)]


@pytest.mark.parametrize("backend", [NumpyBackend, TensorBackend])
def test_backend_helpers_on_both_backends(backend):
    raw = np.array([[0.5, -1.0], [2.0, 1e-20]])
    x = raw.copy() if backend is NumpyBackend else E.tensor(raw.copy())
    assert backend.array_of(x).dtype == np.float64
    np.testing.assert_array_equal(backend.array_of(x), raw)
    low = backend.array_of(backend.at_least(x * 1.0, 1e-12))
    np.testing.assert_array_equal(low, np.maximum(raw, 1e-12))


def _names(fn, depth: int = 0) -> list:
    if fn is None:
        return []
    out = [("  " * depth) + fn.name()]
    for child, _ in fn.next_functions:
        out += _names(child, depth + 1)
    return out


def _grads(f, x: np.ndarray, create_graph: bool):
    t = E.tensor(x, requires_grad=True)
    (g,) = E.autograd.grad(f(t), t, create_graph=create_graph)
    return t, g


def _fd_second(f, x: np.ndarray, weights: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """d/dx of sum(weights * grad f(x)), by central differences of the plain gradient."""
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[i] += h
        minus[i] -= h
        gp = _grads(f, plus, False)[1].numpy()
        gm = _grads(f, minus, False)[1].numpy()
        out[i] = ((gp - gm) * weights).sum() / (2 * h)
    return out


PROD_CASES = [
    ("prod() with a zero", lambda t: t.prod(), np.array([0.0, 1.5, 2.0, -0.7])),
    ("prod(1) with zeros", lambda t: t.prod(1).sum(), np.array([[0.0, 1.2, 2.0], [1.1, 2.0, 3.0]])),
    ("prod(0) with zeros", lambda t: t.prod(0).sum(), np.array([[0.0, 1.2, 2.0], [1.1, 0.0, 3.0]])),
]


@pytest.mark.parametrize("name,f,x", PROD_CASES, ids=[c[0] for c in PROD_CASES])
def test_prod_with_zeros_same_on_both_backends_and_differentiable(name, f, x):
    plain = _grads(f, x, False)[1].numpy()
    t, g = _grads(f, x, True)
    np.testing.assert_allclose(g.detach().numpy(), plain, rtol=1e-14, atol=0)
    weights = np.arange(1.0, x.size + 1).reshape(x.shape)
    (gg,) = E.autograd.grad((g * E.tensor(weights)).sum(), t)
    np.testing.assert_allclose(gg.numpy(), _fd_second(f, x, weights), rtol=1e-6, atol=1e-6)


def test_prod_with_zeros_records_pytorchs_graph():
    # observed on PyTorch 2.13: grad * (exclusive cumprod · flipped exclusive cumprod)
    x = E.tensor([[0.0, 1.0, 2.0], [1.0, 2.0, 3.0]], dtype=E.float64, requires_grad=True)
    (g,) = E.autograd.grad(x.prod(1).sum(), x, create_graph=True)
    assert _names(g.grad_fn) == [
        "MulBackward0",
        "  MulBackward0",
        "    CumprodBackward0",
        "      CatBackward0",
        "        SliceBackward0",
        "          torch::autograd::AccumulateGrad",
        "    FlipBackward0",
        "      CumprodBackward0",
        "        CatBackward0",
        "          FlipBackward0",
        "            SliceBackward0",
        "              torch::autograd::AccumulateGrad",
    ]


def test_max_shares_its_gradient_by_masked_fill_on_both_backends():
    x = np.array([[3.0, 1.0], [3.0, 3.0]])
    plain = _grads(lambda t: t.max() * 6.0, x, False)[1].numpy()
    np.testing.assert_array_equal(plain, [[2.0, 0.0], [2.0, 2.0]])
    w = E.tensor(6.0, dtype=E.float64, requires_grad=True)
    t = E.tensor(x, requires_grad=True)
    (g,) = E.autograd.grad(t.max() * w, t, create_graph=True)
    np.testing.assert_array_equal(g.detach().numpy(), plain)
    assert g.grad_fn.name() == "MaskedFillBackward1"
    (gw,) = E.autograd.grad(g.sum(), w)
    assert float(gw) == pytest.approx(1.0)  # the three shares of 1/3 each


def test_bce_target_double_backward_clamps_on_both_backends():
    F = E.nn.functional
    x = E.tensor([0.3, 1.0, 0.0], dtype=E.float64, requires_grad=True)
    results = []
    for create_graph in (False, True):
        t = E.tensor([0.5, 0.2, 0.7], dtype=E.float64, requires_grad=True)
        (g,) = E.autograd.grad(F.binary_cross_entropy(x, t), x, create_graph=True)
        (gt,) = E.autograd.grad(g.sum(), t, create_graph=create_graph)
        results.append(gt.detach().numpy())
    # -1 / (3 · max((1 - x) · x, 1e-12)) per element (mean over 3)
    expected = -1 / (3 * np.maximum((1 - np.array([0.3, 1.0, 0.0])) * [0.3, 1.0, 0.0], 1e-12))
    for got in results:
        np.testing.assert_allclose(got, expected, rtol=1e-12)


NAN_ROWS = np.array([[0.0, 1.0, 2.0], [1.0, 2.0, np.nan]])


@pytest.mark.parametrize("create_graph", [False, True])
def test_amax_amin_scale_by_count_nan_where_the_result_is_nan(create_graph):
    # observed on PyTorch 2.13: no element equals a nan result, so its gradient is 0/0
    cases = [
        (lambda t: t.amax(1).sum(), [[0.0, 0.0, 1.0], [np.nan] * 3]),
        (lambda t: t.amax(), [[np.nan] * 3] * 2),
        (lambda t: t.amin(0).sum(), [[1.0, 1.0, np.nan], [0.0, 0.0, np.nan]]),
        (lambda t: t.max(), [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),  # max() shares among the nans
        (lambda t: t.median(), [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
    ]
    for f, expected in cases:
        g = _grads(f, NAN_ROWS, create_graph)[1]
        np.testing.assert_array_equal(g.detach().numpy(), expected)


def test_amax_restores_its_dims_by_a_view():
    x = E.tensor([[2.0, 1.0, 2.0], [1.0, 2.0, 0.0]], dtype=E.float64, requires_grad=True)
    w = E.tensor(3.0, dtype=E.float64, requires_grad=True)
    (g,) = E.autograd.grad((x.amax(1) * w).sum(), x, create_graph=True)
    np.testing.assert_array_equal(g.detach().numpy(), [[1.5, 0.0, 1.5], [0.0, 3.0, 0.0]])
    assert _names(g.grad_fn)[:3] == ["MulBackward0", "  DivBackward0", "    ViewBackward0"]
    (gw,) = E.autograd.grad(g.sum(), w)
    assert float(gw) == pytest.approx(2.0)


def test_bce_double_backward_records_pytorchs_graph():
    # observed on PyTorch 2.13: `1 - x` is SubBackward0, `+ 1e-12` AddBackward1 (a C++ number)
    F = E.nn.functional
    x = E.tensor([0.3, 0.6, 0.2], dtype=E.float64, requires_grad=True)
    t = E.tensor([0.5, 0.2, 0.7], dtype=E.float64, requires_grad=True)
    gy = E.tensor(1.5, dtype=E.float64, requires_grad=True)
    (g,) = E.autograd.grad(F.binary_cross_entropy(x, t), x, gy, create_graph=True)
    (r,) = E.autograd.grad(g.sum(), gy, create_graph=True)
    assert _names(r.grad_fn) == [
        "SumBackward0",
        "  DivBackward1",
        "    MulBackward0",
        "      DivBackward0",
        "        SubBackward0",
        "          torch::autograd::AccumulateGrad",
        "          torch::autograd::AccumulateGrad",
        "        MulBackward0",
        "          AddBackward1",
        "            torch::autograd::AccumulateGrad",
        "          AddBackward1",
        "            SubBackward0",
        "              torch::autograd::AccumulateGrad",
    ]
    xs, ts = np.array([0.3, 0.6, 0.2]), np.array([0.5, 0.2, 0.7])
    assert float(r) == pytest.approx(((xs - ts) / (xs * (1 - xs))).sum() / 3, rel=1e-9)


@pytest.mark.parametrize("create_graph", [False, True])
def test_det_gradient_of_singular_and_invertible_matrices(create_graph):
    cases = [
        ([[1.0, 2.0], [2.0, 4.0]], [[4.0, -2.0], [-2.0, 1.0]]),
        ([[1.0, 2.0], [3.0, 5.0]], [[5.0, -3.0], [-2.0, 1.0]]),
        ([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], None),  # rank 2
    ]
    for data, expected in cases:
        a = np.array(data)
        if expected is None:  # the adjugate: the transposed cofactors, from 2x2 minors
            expected = np.array(
                [
                    [
                        (-1) ** (i + j) * np.linalg.det(np.delete(np.delete(a, i, 0), j, 1))
                        for j in range(3)
                    ]
                    for i in range(3)
                ]
            )
        g = _grads(lambda t: E.linalg.det(t), a, create_graph)[1]
        np.testing.assert_allclose(g.detach().numpy(), expected, atol=1e-12)
        # a large batch takes the SVD's cofactors (a constant): the same values
        many = _grads(lambda t: E.linalg.det(t).sum(), np.tile(a, (3000, 1, 1)), create_graph)[1]
        np.testing.assert_allclose(many.detach().numpy()[-1], expected, atol=1e-12)


def test_det_second_derivative_at_a_singular_matrix():
    # observed on PyTorch 2.13: d/dA sum(grad²) at [[1, 2], [2, 4]] (it crashed here before)
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    t, g = _grads(lambda t: E.linalg.det(t), a, True)
    (gg,) = E.autograd.grad((g * g).sum(), t, retain_graph=True)
    np.testing.assert_allclose(gg.numpy(), [[2.0, 4.0], [4.0, 8.0]], atol=1e-12)
    weights = np.array([[1.0, 2.0], [3.0, 4.0]])
    (gw,) = E.autograd.grad((g * E.tensor(weights)).sum(), t)
    np.testing.assert_allclose(gw.numpy(), _fd_second(E.linalg.det, a, weights), atol=1e-6)
