"""A node class's `apply` is bound to its op's formulas when the class is made (graph._make_apply):
nodes without extras call them directly. That path gives the same gradients as the general one
(`OpNode.apply`), on plain arrays and under create_graph, and keeps its checks (freed saved
values, saved tensors modified in place)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import autodiff_cli.engine as E
from autodiff_cli.engine.core.formula_backends import NumpyBackend, TensorBackend
from autodiff_cli.engine.core.graph import OpNode
from autodiff_cli.engine.core.optable import OPS


def _intermediates() -> list:
    """Results of one- and two-input ops, with and without extras (broadcast, params)."""
    rng = np.random.default_rng(0)
    a = E.tensor(rng.standard_normal((3, 4)), requires_grad=True)
    b = E.tensor(rng.standard_normal((3, 4)), requires_grad=True)
    w = E.tensor(rng.standard_normal((4, 2)), requires_grad=True)
    bias = E.tensor(rng.standard_normal(2), requires_grad=True)
    c = E.tensor(rng.standard_normal((3, 4)))
    ts = [a * b, a * 1.5, b + 0.25, a - b, a / (b * b + 1.0), a.tanh(), a.exp() * c]
    ts += [a.sigmoid(), a.sin(), a @ w, a @ w + bias, a.pow(3), a.sum(1, keepdim=True)]
    ts += [E.cat([a, b]), a.relu(), (a * 2.0).neg(), b.float() * a.float()]
    # formulas that hand the gradient on (add, sub's first input, clone): not called
    ts += [a + b, (a * 2.0).clone(), c - a]
    # formulas given 0, 1, 2 or 3 saved values (spelled out, or passed on as `*args`)
    ts += [(a * a + 1.0).pow(b), E.linalg.det(a[:, :3]), E.maximum(a, b), E.atan2(a, b)]
    # inputs to conform to (broadcast, promoted): the bound path sums and casts them
    ts += [bias - a @ w, (a @ w) * bias, a.float() + b, a[:, :1] / b, c.sum(0) * a]
    return ts


def _same(x: object, y: object) -> None:
    if x is None or y is None:
        assert x is None and y is None
        return
    x = x._data if isinstance(x, E.Tensor) else x
    y = y._data if isinstance(y, E.Tensor) else y
    assert np.asarray(x).dtype == np.asarray(y).dtype
    np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("backend", [NumpyBackend, TensorBackend])
def test_bound_apply_equals_the_general_one(backend: type) -> None:
    fast_nodes = conformed = 0
    rng = np.random.default_rng(1)
    for t in _intermediates():
        node = t.grad_fn
        g = rng.standard_normal(t.shape).astype(t._data.dtype)
        grads = [E.tensor(g) if backend is TensorBackend else g]
        with E.enable_grad() if backend is TensorBackend else E.no_grad():
            fast = type(node).apply(node, list(grads), backend)
            general = OpNode.apply(node, list(grads), backend)
        assert len(fast) == len(general) == len(node.next_functions)
        assert any(x is not None for x in fast)
        for x, y in zip(fast, general):
            _same(x, y)
        fast_nodes += node._x is None and _bound(type(node))
        x = node._x
        conformed += (
            x is not None and x.params is None and x.meta is not None and _bound(type(node))
        )
    assert fast_nodes >= 12
    assert conformed >= 5


def _bound(cls: type) -> bool:
    return inspect.getclosurevars(cls.apply).nonlocals["f0"] is not None


def test_classes_bind_formulas_of_plain_ops_only() -> None:
    bound = 0
    for op in OPS.values():
        cls = op.node_cls
        if cls is None:
            continue
        plain = bool(op.grads) and not op.variadic and op.n_outputs == 1 and len(op.grads) <= 2
        # one function, formulas bound or not (a copy of its code per class: its attribute
        # reads each see one class)
        assert cls.apply.__code__ == OpNode.apply.__code__
        assert cls.apply.__code__ is not OpNode.apply.__code__
        assert _bound(cls) is plain
        bound += plain
    assert bound > 100


def test_bound_apply_keeps_its_checks() -> None:
    a = E.tensor([1.0, 2.0], requires_grad=True)
    y = a.tanh()
    z = y * 2.0
    y.mul_(3.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
    b = E.tensor([1.0, 2.0], requires_grad=True)
    u = b * b
    u.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        u.sum().backward()


def _passing(op_name: str) -> tuple:
    nonlocals = inspect.getclosurevars(OPS[op_name].node_cls.apply).nonlocals
    return (nonlocals["pass0"], nonlocals["pass1"])


def test_formulas_that_hand_the_gradient_on_are_found() -> None:
    assert _passing("add") == (True, True)
    assert _passing("sub") == (True, False)
    assert _passing("clone")[0] and _passing("alias")[0]
    for name in ("mul", "div", "mm", "tanh", "neg", "pow", "maximum"):
        assert _passing(name) == (False, False), name
    # AddBackward0 gives the very gradient it receives to both inputs, as PyTorch's does
    a, b = E.ones(2, requires_grad=True), E.ones(2, requires_grad=True)
    node = (a + b).grad_fn
    g = np.ones(2)
    ga, gb = type(node).apply(node, [g], NumpyBackend)
    assert ga is g and gb is g
