"""core/modes.py: the one way a mode watches every op call (forward AD, profilers, inference
mode, anomaly traces, saved-tensor hooks build on it)."""

import numpy as np

import autodiff_cli.engine as torch
from autodiff_cli.engine.core import apply, modes


def _step(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    h = torch.tanh(x @ w + 1.0) * 2.0
    y = h.sum() - (h**2).mean()
    h2 = h.detach().clone()
    h2.add_(1.0).zero_()
    return y


def _inputs():
    x = torch.tensor(np.linspace(-1, 1, 6).reshape(2, 3))
    w = torch.tensor(np.linspace(0.5, -0.5, 12).reshape(3, 4), requires_grad=True)
    return x, w


def test_an_observer_sees_every_call_and_changes_nothing():
    x, w = _inputs()
    plain = _step(x, w)
    plain.backward()
    plain_grad = w.grad.numpy().copy()

    seen = []

    def watch(call, proceed):
        result = proceed()
        seen.append((call.name, call.depth, call.target is not None))
        return result

    x, w = _inputs()
    modes.push(watch)
    try:
        assert apply._OBSERVED is True
        watched = _step(x, w)
        watched.backward()
    finally:
        modes.pop(watch)
    assert apply._OBSERVED is False
    assert watched.item() == plain.item()
    assert watched.grad_fn.name() == plain.grad_fn.name() == "SubBackward0"
    assert np.array_equal(w.grad.numpy(), plain_grad)
    names = [name for name, depth, _ in seen if depth == 0]
    # the forward's calls by the script, in order (backward formulas run on numpy: no calls)
    for expected in (
        "mm",
        "add",
        "tanh",
        "mul",
        "sum",
        "pow_scalar",
        "mean",
        "sub",
        "add_",
        "zero_",
    ):
        assert expected in names, (expected, names)
    assert names.index("mm") < names.index("tanh") < names.index("sum") < names.index("sub")
    assert ("add_", 0, True) in seen and ("zero_", 0, True) in seen


def test_observers_nest_outermost_first_and_calls_inside_are_deeper():
    order = []

    def outer(call, proceed):
        order.append(("outer", call.name, call.depth))
        return proceed()

    def inner(call, proceed):
        order.append(("inner", call.name, call.depth))
        return proceed()

    t = torch.ones(3, requires_grad=True)
    modes.push(outer)
    modes.push(inner)
    try:
        t.exp()
        t.detach().mul_(2.0)
    finally:
        modes.pop(inner)
        modes.pop(outer)
    assert order[:2] == [("outer", "exp", 0), ("inner", "exp", 0)]
    assert ("outer", "mul_", 0) in order
    assert not modes.active() and apply._OBSERVED is False
