"""The backward pass's fast schedule (nodes newest first, leaves accumulating as their last edge
delivers) runs nodes in the same order, with the same gradients, as the general one (PyTorch's
ready queue: a heap with a count per node), which the pass takes only when a leaf has hooks."""

from __future__ import annotations

import numpy as np
import pytest

import autodiff_cli.engine as E
from autodiff_cli.engine.core import fast_paths


def _diamond(log: list) -> list:
    a = E.tensor([1.0, 2.0], requires_grad=True)
    b = E.tensor([3.0, -1.0], requires_grad=True)
    u = a * b
    v = u.exp() + a
    w = u * 3.0
    for name, t in (("u", u), ("v", v), ("w", w)):
        t.register_hook(lambda g, name=name: log.append((name, g.tolist())))
    (v * w).sum().backward()
    return [a.grad.tolist(), b.grad.tolist()]


def _multi_output(log: list) -> list:
    x = E.tensor([[1.0, 5.0], [4.0, 2.0]], requires_grad=True)
    values, _ = x.max(1)
    p, q = x.unbind(0)
    p.register_hook(lambda g: log.append(("p", g.tolist())))
    values.register_hook(lambda g: log.append(("values", g.tolist())))
    (values * q + p.sin()).sum().backward()
    return [x.grad.tolist()]


def _shared_and_retained(log: list) -> list:
    x = E.tensor(0.5, requires_grad=True)
    y = x.tanh()
    y.retain_grad()
    z = y * y + y.sigmoid()
    z.grad_fn.register_prehook(lambda gs: log.append(("pre", [g.tolist() for g in gs])))
    y.grad_fn.register_hook(lambda gi, go: log.append(("post", [g.tolist() for g in gi])))
    z.backward(retain_graph=True)
    z.backward()
    return [x.grad.tolist(), y.grad.tolist()]


def _second_order(log: list) -> list:
    x = E.tensor([0.3, -0.7], requires_grad=True)
    y = (x.sin() * x).sum()
    (g,) = E.autograd.grad(y, x, create_graph=True)
    g.register_hook(lambda t: log.append(("g", t.tolist())))
    (g * g).sum().backward()
    return [x.grad.tolist()]


def _pruned(log: list) -> list:
    a = E.tensor([1.0, 2.0], requires_grad=True)
    b = E.tensor([0.5, 0.25], requires_grad=True)
    h = a * b
    h.register_hook(lambda g: log.append(("h", g.tolist())))
    out = (h.exp() + b).sum()
    (ga,) = E.autograd.grad(out, a, retain_graph=True)
    out.backward(inputs=[b])
    return [ga.tolist(), b.grad.tolist(), a.grad]


@pytest.mark.parametrize(
    "case", [_diamond, _multi_output, _shared_and_retained, _second_order, _pruned]
)
def test_fast_schedule_equals_the_ready_queue(case, monkeypatch) -> None:
    fast_log: list = []
    fast = case(fast_log)
    monkeypatch.setattr(fast_paths, "_leaf_order_observable", lambda accs: True)
    general_log: list = []
    general = case(general_log)
    assert fast_log == general_log
    assert fast == general
    assert fast_log  # the hooks ran


def test_leaves_made_ready_together_follow_the_heap() -> None:
    """Six leaves ready at once come out of PyTorch's binary heap as 0, 2, 5, 4, 1, 3."""
    leaves = [E.tensor([float(i)], requires_grad=True) for i in range(6)]
    order: list = []
    for i, t in enumerate(leaves):
        t.register_hook(lambda g, i=i: order.append(i))
    E.cat(leaves).sum().backward()
    assert order == [0, 2, 5, 4, 1, 3]


def test_a_gradient_given_to_two_leaves_is_not_shared() -> None:
    a = E.tensor([1.0, 2.0], requires_grad=True)
    b = E.tensor([3.0, 4.0], requires_grad=True)
    ((a + b) * E.tensor([2.0, 3.0])).sum().backward()  # AddBackward0 passes one array on
    assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())
    a.grad.add_(1.0)
    assert b.grad.tolist() == [2.0, 3.0]


def test_a_failed_pass_leaves_no_pending_gradient() -> None:
    x = E.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    z = (y * 2).sum()

    def boom(g):
        raise ValueError("boom")

    handle = y.register_hook(boom)
    with pytest.raises(ValueError):
        z.backward(retain_graph=True)
    handle.remove()
    z.backward()
    assert np.allclose(x.grad.numpy(), 2 * np.exp([1.0, 2.0]))
