"""Every differentiable op of the table against central finite differences, in float64.

For each row of `engine_cases.CASES`: the analytic gradient of `(op(inputs) * w).sum()` (random
`w`) with respect to each differentiable input must match central differences; the gradient of that
gradient (`create_graph=True`) must match finite differences of the gradient; a few third
derivatives are checked against their closed forms.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from engine_cases import CASES, Case, make_inputs, outputs_of, seeded, to_tensor

import autodiff_cli.engine as E
import autodiff_cli.engine.linalg  # noqa: F401  (lstsq's op)
import autodiff_cli.engine.nn.functional  # noqa: F401  (loads lazily elsewhere; registers its ops)
import autodiff_cli.engine.special  # noqa: F401  (zeta's ops)
from autodiff_cli.engine.core.optable import OPS

RTOL = 1e-6
ATOL = 1e-6


def _rng(case: Case, salt: str) -> np.random.RandomState:
    return seeded(f"{case.id}/{salt}")


def _weights(case: Case, outputs: tuple, salt: str = "w") -> list[np.ndarray]:
    rng = _rng(case, salt)
    return [rng.uniform(-1.0, 1.0, tuple(o.shape)).astype(o._data.dtype) for o in outputs]


def _weighted_sum(
    outputs: tuple, weights: list[np.ndarray], squares: list | None = None
) -> E.Tensor:
    """sum(w * out), plus sum(v * out²) / 2 when `squares` (v) are given: then the gradient
    reaching the op depends on its inputs, so a second derivative also checks that the op's
    backward is differentiable with respect to its incoming gradient."""
    total = None
    for k, (o, w) in enumerate(zip(outputs, weights)):
        term = (o * to_tensor(E, w)).sum()
        if squares is not None:
            term = term + (o * o * to_tensor(E, squares[k])).sum() * 0.5
        total = term if total is None else total + term
    return total


def _diff_positions(case: Case) -> list[int]:
    return [i for i, spec in enumerate(case.inputs) if spec.diff]


def _loss_value(case: Case, arrays: list[np.ndarray], weights: list[np.ndarray]) -> float:
    """The weighted sum at `arrays` (inputs tracked as in the case: some rows differentiate
    inside), summed by numpy: the same products and sums as `_weighted_sum`'s, in the outputs'
    dtype, without building the loss's own nodes."""
    inputs = [to_tensor(E, a, spec.diff) for a, spec in zip(arrays, case.inputs)]
    outputs = outputs_of(case.fn(E, *inputs))
    return float(sum(np.sum(o._data * w) for o, w in zip(outputs, weights)))


def _central_difference(f, arrays: list[np.ndarray], position: int, eps: float) -> np.ndarray:
    """d f / d arrays[position], elementwise, by central differences."""
    moved = [a.copy() for a in arrays]  # `f` reads them (copies them into tensors) per call
    x = moved[position]
    out = np.zeros(x.shape, dtype=np.float64)
    for k in np.ndindex(x.shape):
        value = x[k]
        x[k] = value + eps
        above = f(moved)
        x[k] = value - eps
        below = f(moved)
        x[k] = value
        out[k] = (above - below) / (2 * eps)
    return out


def _assert_close(actual: np.ndarray, expected: np.ndarray, what: str) -> None:
    np.testing.assert_allclose(actual, expected, rtol=RTOL, atol=ATOL, err_msg=what)


# --------------------------------------------------------------------------------------------
# The case list and the op table agree
# --------------------------------------------------------------------------------------------


NOT_IMPLEMENTED = {
    "floor_divide": lambda x: x // 0.75,
    # hardsigmoid's gradient under create_graph: PyTorch's hardsigmoid_backward has no derivative
    "hardsigmoid_backward": lambda x: E.autograd.grad(
        E.nn.functional.hardsigmoid(x), x, E.ones_like(x), create_graph=True
    )[0],
    # multi_margin_loss's gradient under create_graph: PyTorch has no derivative for its backward
    "multi_margin_loss_backward": lambda x: E.autograd.grad(
        E.nn.functional.multi_margin_loss(x, E.tensor([1])), x, create_graph=True
    )[0],
    # embedding_bag's per_sample_weights gradient under create_graph: no derivative in PyTorch
    "_embedding_bag_per_sample_weights_backward": lambda x: E.autograd.grad(
        E.nn.functional.embedding_bag(
            E.tensor([0, 1, 2]),
            x.reshape(3, 1),
            E.tensor([0, 2]),
            mode="sum",
            per_sample_weights=(psw := E.ones(3, dtype=x.dtype, requires_grad=True)),
        ),
        psw,
        E.ones(2, 1, dtype=x.dtype),
        create_graph=True,
    )[0],
}
# A gradient's node whose own backward raises (prod's double backward with two zeros reduced into
# one position): tested in tests/test_index_ops.py.
RAISES_ON_BACKWARD = {"double_backward_error"}
# zeta(x, number): only q is differentiable, and here q is a number, so its one formula raises
# PyTorch's NotImplementedError: tested in tests/test_engine_linalg_special.py.
RAISES_ON_BACKWARD |= {"special_zeta_other_scalar"}
# embedding_bag's weight gradient under create_graph (EmbeddingBagBackwardBackward0): PyTorch's
# "the derivative for '_embedding_bag_backward' is not implemented." (test_nn_spatial_bilinear_bags)
RAISES_ON_BACKWARD.add("_embedding_bag_backward")
# The fused float32 LSTM layer (MkldnnRnnLayerBackward0): PyTorch's kernel takes float32 only, so
# no float64 row compared with it here; tests/test_engine_recurrent.py checks its first and second
# derivatives (in float64) against finite differences.
TESTED_IN_OWN_FILE = {"mkldnn_rnn_layer"}


def test_every_differentiable_op_has_a_case():
    differentiable = {
        name
        for name, op in OPS.items()
        if op.grads is not None
        and name not in NOT_IMPLEMENTED
        and name not in RAISES_ON_BACKWARD
        and name not in TESTED_IN_OWN_FILE
    }
    covered = {c.op for c in CASES}
    assert sorted(differentiable - covered) == [], "ops without a gradient test row"
    assert sorted(covered - differentiable) == [], "rows naming no differentiable op"


NON_DIFFERENTIABLE = {
    "eq": lambda x: x == 0.5,
    "ne": lambda x: x != 0.5,
    "lt": lambda x: x < 0.5,
    "le": lambda x: x <= 0.5,
    "gt": lambda x: x > 0.5,
    "ge": lambda x: x >= 0.5,
    "logical_not": lambda x: ~(x > 0.5),
    "isnan": lambda x: E.isnan(x),
    "isclose": lambda x: E.isclose(x, x * 1.5),
    "bitwise_and": lambda x: (x > 0.5) & (x < 1.5),
    "bitwise_or": lambda x: (x > 0.5) | (x < 0.3),
    "bitwise_xor": lambda x: E.bitwise_xor(x > 0.5, x < 1.5),
    "bitwise_not": lambda x: E.bitwise_not((x * 4).long()),
    "logical_and": lambda x: E.logical_and(x, x - 0.5),
    "logical_or": lambda x: E.logical_or(x, x - 0.5),
    "logical_xor": lambda x: E.logical_xor(x, x - 0.5),
    "signbit": lambda x: E.signbit(x - 0.5),
}


def test_non_differentiable_ops_are_all_listed():
    assert sorted(name for name, op in OPS.items() if op.grads is None) == sorted(
        NON_DIFFERENTIABLE
    )


@pytest.mark.parametrize("name", sorted(NOT_IMPLEMENTED))
def test_op_without_derivative_fails_on_backward(name):
    """PyTorch records such ops with a NotImplemented node that raises when reached."""
    x = E.tensor([0.25, 0.5, 1.75], dtype=E.float64, requires_grad=True)
    y = NOT_IMPLEMENTED[name](x)
    assert type(y.grad_fn).__name__ == "NotImplemented"
    assert OPS[name].grad_fn == "NotImplemented"
    with pytest.raises(RuntimeError, match=f"^derivative for aten::{name} is not implemented$"):
        y.sum().backward()


@pytest.mark.parametrize("name", sorted(NON_DIFFERENTIABLE))
def test_non_differentiable_op_returns_a_constant(name):
    x = E.tensor([0.25, 0.5, 1.75], dtype=E.float64, requires_grad=True)
    out = NON_DIFFERENTIABLE[name](x)
    assert out.grad_fn is None
    assert out.requires_grad is False
    assert out.is_leaf


# --------------------------------------------------------------------------------------------
# First order
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_gradient_matches_finite_differences(case: Case):
    inputs = make_inputs(E, case)
    outputs = outputs_of(case.fn(E, *inputs))
    expected_name = OPS[case.op].grad_fn
    for o in outputs:
        assert type(o.grad_fn).__name__ == expected_name  # name() is compared with PyTorch's
        assert o.requires_grad and not o.is_leaf
    weights = _weights(case, outputs)
    positions = _diff_positions(case)
    grads = E.autograd.grad(_weighted_sum(outputs, weights), [inputs[i] for i in positions])

    arrays = case.arrays()
    for i, g in zip(positions, grads):
        assert g is not None, f"no gradient for input {i}"
        assert tuple(g.shape) == tuple(inputs[i].shape)
        assert g.dtype == inputs[i].dtype
        numeric = _central_difference(lambda a: _loss_value(case, a, weights), arrays, i, case.eps)
        _assert_close(g._data, numeric, f"d/d input {i}")


# --------------------------------------------------------------------------------------------
# Second order: the gradient of the gradient
# --------------------------------------------------------------------------------------------


def _first_gradients(
    case: Case, arrays: list[np.ndarray], weights: list, squares: list | None = None
) -> list[np.ndarray]:
    inputs = [to_tensor(E, a, spec.diff) for a, spec in zip(arrays, case.inputs)]
    positions = _diff_positions(case)
    loss = _weighted_sum(outputs_of(case.fn(E, *inputs)), weights, squares)
    return [g._data for g in E.autograd.grad(loss, [inputs[i] for i in positions])]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_create_graph_gradient_equals_plain_gradient(case: Case):
    """The Tensor backend (create_graph=True) computes the same first derivative as numpy."""
    arrays = case.arrays()
    inputs = make_inputs(E, case)
    positions = _diff_positions(case)
    outputs = outputs_of(case.fn(E, *inputs))
    weights = _weights(case, outputs)
    tracked = E.autograd.grad(
        _weighted_sum(outputs, weights), [inputs[i] for i in positions], create_graph=True
    )
    plain = _first_gradients(case, arrays, weights)
    for i, t, p in zip(positions, tracked, plain):
        assert t.dtype == inputs[i].dtype
        np.testing.assert_allclose(t._data, p, rtol=1e-12, atol=1e-12, err_msg=f"input {i}")


SECOND_ORDER = [c for c in CASES if c.second_order]


@pytest.mark.parametrize("case", SECOND_ORDER, ids=lambda c: c.id)
def test_second_derivative_matches_finite_differences(case: Case):
    inputs = make_inputs(E, case)
    positions = _diff_positions(case)
    diff_inputs = [inputs[i] for i in positions]
    outputs = outputs_of(case.fn(E, *inputs))
    weights = _weights(case, outputs)
    squares = _weights(case, outputs, "v")
    firsts = E.autograd.grad(
        _weighted_sum(outputs, weights, squares), diff_inputs, create_graph=True
    )
    second_weights = [
        _rng(case, f"w2/{i}").uniform(-1.0, 1.0, tuple(inputs[i].shape)) for i in positions
    ]

    tracked = [(g, w) for g, w in zip(firsts, second_weights) if g.requires_grad]
    if tracked:
        s = None
        for g, w in tracked:
            term = (g * to_tensor(E, w.astype(g._data.dtype))).sum()
            s = term if s is None else s + term
        seconds = E.autograd.grad(s, diff_inputs, allow_unused=True)
    else:
        seconds = [None] * len(positions)

    arrays = case.arrays()
    numerics = _hessian_times(case, arrays, weights, squares, second_weights)
    for i, second, numeric in zip(positions, seconds, numerics):
        analytic = np.zeros(arrays[i].shape) if second is None else second._data
        np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-5, err_msg=f"input {i}")


def _hessian_times(
    case: Case, arrays: list[np.ndarray], weights: list, squares: list, direction: list
) -> list[np.ndarray]:
    """H·d for the Hessian H of the loss with respect to the differentiable inputs, by finite
    differences: what the analytic second derivative, d/dx of (first gradient · d), must equal.

    H is symmetric (the loss is smooth where the rows take their inputs, and its first gradient is
    checked above), so d/dx_k (∇L(x) · d), the same number for each k, is also the derivative of
    ∇L along d: (∇L(x + eps d) - ∇L(x - eps d)) / 2 eps, two gradients instead of two per input
    element. A float32 input (its steps rounded, so the direction would not be d) has its own
    difference quotient per element of x."""
    positions = _diff_positions(case)
    if any(arrays[i].dtype != np.float64 for i in positions):

        def directional(moved: list[np.ndarray]) -> float:
            gs = _first_gradients(case, moved, weights, squares)
            return float(sum(np.sum(g * w) for g, w in zip(gs, direction)))

        return [_central_difference(directional, arrays, i, case.eps) for i in positions]
    steps = dict(zip(positions, direction))
    eps = case.eps
    above = [a + eps * steps[i] if i in steps else a for i, a in enumerate(arrays)]
    below = [a - eps * steps[i] if i in steps else a for i, a in enumerate(arrays)]
    return [
        (g_above - g_below) / (2 * eps)
        for g_above, g_below in zip(
            _first_gradients(case, above, weights, squares),
            _first_gradients(case, below, weights, squares),
        )
    ]


# --------------------------------------------------------------------------------------------
# Third order
# --------------------------------------------------------------------------------------------

THIRD = {
    "cube": (lambda x: x**3, lambda x: np.full_like(x, 6.0)),
    "sin": (lambda x: x.sin(), lambda x: -np.cos(x)),
    "exp": (lambda x: E.exp(x), np.exp),
}


@pytest.mark.parametrize("name", sorted(THIRD))
def test_third_derivative(name):
    f, third = THIRD[name]
    values = np.array([-1.3, 0.2, 0.7, 2.1])
    x = to_tensor(E, values, requires_grad=True)
    (g1,) = E.autograd.grad(f(x).sum(), x, create_graph=True)
    (g2,) = E.autograd.grad(g1.sum(), x, create_graph=True)
    (g3,) = E.autograd.grad(g2.sum(), x)
    np.testing.assert_allclose(g3._data, third(values), rtol=1e-12, atol=1e-12)


def test_third_derivative_through_backward_create_graph():
    """`backward(create_graph=True)` twice, then `autograd.grad`: d³/dx³ x⁴ = 24 x."""
    x = E.tensor(1.5, dtype=E.float64, requires_grad=True)
    (g1,) = E.autograd.grad(x**4, x, create_graph=True)
    (g2,) = E.autograd.grad(g1, x, create_graph=True)
    g2.backward()
    assert math.isclose(x.grad.item(), 24 * 1.5, rel_tol=1e-12)


# ops/statistics.py: cdist, whose backward PyTorch cannot differentiate (the op-table rows' second
# derivatives would raise under PyTorch): its values and gradients are checked against PyTorch's
# in tests/test_statistics.py (read when test_every_differentiable_op_has_a_case runs)
RAISES_ON_BACKWARD.update({"cdist", "cdist_backward"})
# ops/distances.py: pdist's backward, which PyTorch cannot differentiate either (first-order rows
# in engine_cases.py; the NotImplementedError is checked in tests/test_losses_distances.py)
RAISES_ON_BACKWARD.add("_pdist_backward")
