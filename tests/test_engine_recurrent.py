"""Recurrent layers and cells (`nn.RNN`, `LSTM`, `GRU` and their cells): gradients of every
input and parameter against central finite differences in float64, the fused float32 LSTM
layer's backward (its op run in float64 here), shapes, grad_fn names and checks."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import autodiff_cli.engine as E
from autodiff_cli.engine.nn.modules.rnn import _run_direction
from autodiff_cli.engine.ops import recurrent

nn = E.nn
EPS = 1e-6
TOL = 1e-6


def _weighted_sum(outputs: object, weights: list[np.ndarray]) -> E.Tensor:
    """A scalar mixing every output with fixed random weights (so each element's gradient
    differs)."""
    flat = outputs if isinstance(outputs, tuple) else (outputs,)
    total = None
    for out, w in zip(flat, weights):
        term = (out * E.tensor(w)).sum()
        total = term if total is None else total + term
    return total


def _check(fn: Callable[[], object], tensors: list[E.Tensor]) -> None:
    """The gradients backward gives every tensor in `tensors` against finite differences."""
    rng = np.random.RandomState(0)
    first = fn()
    flat = first if isinstance(first, tuple) else (first,)
    weights = [rng.uniform(-1, 1, tuple(t.shape)) for t in flat]
    loss = _weighted_sum(first, weights)
    grads = E.autograd.grad(loss, tensors, allow_unused=False)
    for t, g in zip(tensors, grads):
        data = t._array()
        numeric = np.zeros(data.shape)
        for idx in np.ndindex(*data.shape):
            old = data[idx]
            values = []
            for step in (EPS, -EPS):
                data[idx] = old + step
                with E.no_grad():
                    values.append(_weighted_sum(fn(), weights).item())
            data[idx] = old
            numeric[idx] = (values[0] - values[1]) / (2 * EPS)
        np.testing.assert_allclose(g._data, numeric, rtol=TOL, atol=TOL)


def _double(module: nn.Module) -> nn.Module:
    return module.double()


def _randn(*shape: int, grad: bool = True) -> E.Tensor:
    return E.randn(*shape, dtype=E.float64, requires_grad=grad)


@pytest.mark.parametrize("kind", ["tanh", "relu", "lstm", "gru"])
def test_cells_gradients_against_finite_differences(kind: str) -> None:
    E.manual_seed(0)
    if kind in ("tanh", "relu"):
        cell = _double(nn.RNNCell(3, 4, nonlinearity=kind))
    else:
        cell = _double(nn.LSTMCell(3, 4) if kind == "lstm" else nn.GRUCell(3, 4))
    x = _randn(2, 3)
    h = _randn(2, 4)
    c = _randn(2, 4)
    state = (h, c) if kind == "lstm" else h
    tensors = [x, h, *([c] if kind == "lstm" else []), *cell.parameters()]
    _check(lambda: cell(x, state), tensors)


@pytest.mark.parametrize("cls", [nn.RNN, nn.GRU, nn.LSTM])
@pytest.mark.parametrize("options", [{}, {"num_layers": 2, "bidirectional": True}])
def test_layers_gradients_against_finite_differences(cls: type, options: dict) -> None:
    """float64 layers: PyTorch's composite graph (every step an ordinary op)."""
    E.manual_seed(1)
    layer = _double(cls(2, 3, **options))
    x = _randn(3, 2, 2)
    states = 2 * options.get("num_layers", 1)
    states //= 1 if options.get("bidirectional") else 2
    h0 = _randn(states, 2, 3)
    hx = (h0, _randn(states, 2, 3)) if cls is nn.LSTM else h0
    extra = list(hx) if cls is nn.LSTM else [h0]

    def run() -> object:
        out, hidden = layer(x, hx)
        return (out, *hidden) if cls is nn.LSTM else (out, hidden)

    _check(run, [x, *extra, *layer.parameters()])


@pytest.mark.parametrize("reverse", [False, True])
def test_fused_lstm_layer_backward_against_finite_differences(reverse: bool) -> None:
    """The op float32 LSTMs run as (MkldnnRnnLayerBackward0), checked in float64."""
    E.manual_seed(2)
    x, hx, cx = _randn(4, 2, 3), _randn(2, 5), _randn(2, 5)
    weights = [_randn(20, 3), _randn(20, 5), _randn(20), _randn(20)]

    def run() -> tuple:
        return recurrent.mkldnn_lstm_layer(x, tuple(weights), hx, cx, reverse)

    out, h, c = run()
    assert type(out.grad_fn).__name__ == "MkldnnRnnLayerBackward0"
    assert h.grad_fn is out.grad_fn and c.grad_fn is out.grad_fn
    _check(run, [x, *weights, hx, cx])


def test_fused_layer_matches_composite_lstm() -> None:
    """A float32 LSTM (fused) gives the float64 one's values, rounded."""
    E.manual_seed(3)
    lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    x = E.randn(5, 2, 3)
    out32, (h32, c32) = lstm(x)
    assert type(out32.grad_fn).__name__ == "CatBackward0"
    lstm64 = lstm.double()
    out64, (h64, c64) = lstm64(x.double())
    assert type(out64.grad_fn).__name__ == "CatBackward0"
    np.testing.assert_allclose(out32._data, out64._data, atol=1e-6)
    np.testing.assert_allclose(c32._data, c64._data, atol=1e-6)


def test_fused_layer_second_derivative_against_finite_differences() -> None:
    """Under create_graph the fused layer's gradient has a graph: d/dW of sum(v · dL/dW)."""
    E.manual_seed(4)
    x, hx, cx = _randn(3, 1, 2), _randn(1, 3), _randn(1, 3)
    weights = [_randn(12, 2), _randn(12, 3), _randn(12), _randn(12)]
    v = np.random.RandomState(1).uniform(-1, 1, (12, 3))

    def first(w_hh: E.Tensor) -> E.Tensor:
        out, h, c = recurrent.mkldnn_lstm_layer(x, (weights[0], w_hh, *weights[2:]), hx, cx, False)
        (g,) = E.autograd.grad((out * out).sum() + c.sum(), [w_hh], create_graph=True)
        return (g * E.tensor(v)).sum()

    w_hh = weights[1]
    (analytic,) = E.autograd.grad(first(w_hh), [w_hh])
    data = w_hh._array()
    numeric = np.zeros(data.shape)
    for idx in np.ndindex(*data.shape):
        old = data[idx]
        values = []
        for step in (EPS, -EPS):
            data[idx] = old + step
            values.append(first(w_hh).item())
        data[idx] = old
        numeric[idx] = (values[0] - values[1]) / (2 * EPS)
    np.testing.assert_allclose(analytic._data, numeric, rtol=1e-5, atol=1e-5)


def test_grad_fn_names_shapes_and_parameters() -> None:
    E.manual_seed(0)
    x = E.randn(5, 3, 4)
    cases = {
        nn.RNN: ("StackBackward0", "TransposeBackward1"),
        nn.GRU: ("StackBackward0", "TransposeBackward1"),
        nn.LSTM: ("MkldnnRnnLayerBackward0", "TransposeBackward0"),
    }
    for cls, (plain, batch_first) in cases.items():
        out, _ = cls(4, 6)(x)
        assert type(out.grad_fn).__name__ == plain
        out, _ = cls(4, 6, batch_first=True, num_layers=2)(x)
        assert type(out.grad_fn).__name__ == batch_first
        assert tuple(out.shape) == (5, 3, 6)
        out, hidden = cls(4, 6)(x[:, 0])  # unbatched
        assert type(out.grad_fn).__name__ == "SqueezeBackward1"
    lstm = nn.LSTM(4, 6, num_layers=2, bidirectional=True)
    names = [name for name, _ in lstm.named_parameters()]
    assert names[:5] == [
        "weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_ih_l0_reverse"
    ]  # fmt: skip
    assert tuple(lstm.weight_ih_l1.shape) == (24, 12)
    assert repr(lstm) == "LSTM(4, 6, num_layers=2, bidirectional=True)"
    assert repr(nn.RNNCell(2, 3, bias=False, nonlinearity="relu")) == (
        "RNNCell(2, 3, bias=False, nonlinearity=relu)"
    )
    gru = nn.GRUCell(4, 6)
    assert type(gru(x[0]).grad_fn).__name__ == "AddBackward0"
    h, c = nn.LSTMCell(4, 6)(x[0])
    assert (type(h.grad_fn).__name__, type(c.grad_fn).__name__) == ("MulBackward0", "AddBackward0")


def test_seeded_initialisation_is_uniform_in_parameter_order() -> None:
    E.manual_seed(5)
    rnn = nn.GRU(3, 4)
    E.manual_seed(5)
    bound = 1 / 2
    expected = [E.empty(*p.shape).uniform_(-bound, bound) for p in rnn.parameters()]
    for p, e in zip(rnn.parameters(), expected):
        assert E.equal(p.detach(), e)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: nn.RNN(3, 4)(E.randn(2, 2, 5)), r"input.size\(-1\) must be equal to input_size"),
        (lambda: nn.GRU(3, 4)(E.randn(2, 2, 3), E.zeros(1, 3, 4)), "Expected hidden size"),
        (lambda: nn.LSTM(3, 4)(E.randn(1, 2, 3, 1)), "Expected input to be 2D or 3D"),
        (lambda: nn.RNNCell(3, 4)(E.randn(2, 5)), "inconsistent input_size"),
        (lambda: nn.RNN(3, 4, nonlinearity="gelu"), "Unknown nonlinearity"),
        (lambda: nn.GRU(3, 4, proj_size=2), "proj_size argument is only supported for LSTM"),
        (lambda: nn.LSTM(3, 4, dropout=2), "dropout should be a number in range"),
    ],
)
def test_errors(make: Callable[[], object], message: str) -> None:
    with pytest.raises((RuntimeError, ValueError), match=message):
        make()


def test_pruned_pass_leaves_no_partial_sum_at_a_leaf() -> None:
    """`autograd.grad(y, [w_hh])` through a double-backward LSTM graph skips nodes that lead
    only to other leaves; a leaf they feed (hx) used to keep a partial sum that the next pass
    added to its gradient (`grad((hx * 1).sum(), [hx])` gave 1.13... instead of 1)."""
    E.manual_seed(4)
    x, hx, cx = _randn(3, 1, 2), _randn(1, 3), _randn(1, 3)
    w_ih, w_hh, b_ih, b_hh = _randn(12, 2), _randn(12, 3), _randn(12), _randn(12)
    out, (h, c) = _run_direction("LSTM", x, (hx, cx), (w_ih, w_hh, b_ih, b_hh), False)
    (g,) = E.autograd.grad((out * out).sum() + c.sum(), [w_hh], create_graph=True)
    E.autograd.grad(g.sum(), [w_hh])
    (again,) = E.autograd.grad((hx * 1).sum(), [hx])
    assert again.tolist() == [[1.0, 1.0, 1.0]]
    out, (h, c) = _run_direction("LSTM", x, (hx, cx), (w_ih, w_hh, b_ih, b_hh), False)
    (g,) = E.autograd.grad((out * out).sum() + c.sum(), [w_hh], create_graph=True)
    assert g.grad_fn is not None  # (a stale array used to meet a Tensor here: TypeError)
