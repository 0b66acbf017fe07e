"""The fast layer (`engine/core/fast_paths.py`) changes no result: every op of the op table, run
with the layer on and off, gives the same forward values and dtypes, grad_fn names and edges,
saved tensors, gradients (first order, and second order through create_graph), versions and
views; in-place writes and their refusals agree too. One harness over `tests/engine_cases.py`
(a row per differentiable op) and the non-differentiable ops, instead of a test per short way."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from engine_cases import CASES, Case, make_inputs, outputs_of
from test_engine_gradients import NOT_IMPLEMENTED, RAISES_ON_BACKWARD, TESTED_IN_OWN_FILE

import autodiff_cli.engine as E
from autodiff_cli.engine.core import fast_paths
from autodiff_cli.engine.core.graph import AccumulateGrad, Node, OpNode
from autodiff_cli.engine.core.optable import OPS


def _both(run: Callable[[], Any]) -> tuple[Any, Any]:
    """`run()` with the fast layer on, then off (restored after)."""
    assert fast_paths.fast_paths_enabled()
    fast = run()
    fast_paths.use_fast_paths(False)
    try:
        reference = run()
    finally:
        fast_paths.use_fast_paths(True)
    return fast, reference


def _value(x: Any) -> Any:
    """A comparable description of a value: arrays by dtype, shape and bytes (NaNs compare)."""
    if isinstance(x, E.Tensor):
        return ("tensor", _value(x._data), x.requires_grad, _node_name(x.grad_fn), x._output_nr)
    if isinstance(x, (np.ndarray, np.generic)):
        a = np.asarray(x)
        return (str(a.dtype), a.shape, np.ascontiguousarray(a).tobytes())
    if isinstance(x, (tuple, list)):
        return tuple(_value(v) for v in x)
    return x


def _node_name(node: Any) -> str | None:
    return None if node is None else node.name()


def _saved(node: Any) -> dict:
    """`grad_fn._saved_<name>` of every saved value and parameter the node's class shows."""
    names = [n for n in dir(type(node)) if n.startswith("_saved_")]
    shown = {}
    for name in names:
        try:
            shown[name] = _value(getattr(node, name))
        except (AttributeError, RuntimeError) as e:
            shown[name] = (type(e).__name__, str(e))
    return shown


def _graph(t: Any) -> list:
    """The graph behind `t`: names, edges (by position in the walk) and saved values."""
    order, seen, rows = [t.grad_fn], {}, []
    while order:
        node = order.pop(0)
        if node is None or id(node) in seen:
            continue
        seen[id(node)] = len(seen)
        edges = [(_node_name(n), nr) for n, nr in node.next_functions]
        rows.append((node.name(), edges, _saved(node) if isinstance(node, OpNode) else None))
        order.extend(n for n, _ in node.next_functions)
    return rows


def _describe(case: Case) -> tuple:
    inputs = make_inputs(E, case)
    outputs = outputs_of(case.fn(E, *inputs))
    forward = [(_value(o), _graph(o)) for o in outputs if isinstance(o, E.Tensor)]
    rng = np.random.RandomState(7)
    loss = None
    for o in outputs:
        w = E.tensor(rng.uniform(-1.0, 1.0, tuple(o.shape)).astype(o._data.dtype))
        term = (o * w).sum()
        loss = term if loss is None else loss + term
    diff = [x for x, spec in zip(inputs, case.inputs) if spec.diff]
    first = E.autograd.grad(loss, diff, create_graph=case.second_order, allow_unused=True)
    second = None
    if case.second_order:
        used = [g for g in first if g is not None and g.requires_grad]
        if used:
            total = sum((g * g).sum() for g in used)
            second = E.autograd.grad(total, diff, allow_unused=True)
    versions = [x._version for x in inputs]
    return forward, _value(first), _value(second), versions


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_every_op_row_is_the_same_with_the_fast_layer_off(case: Case) -> None:
    fast, reference = _both(lambda: _describe(case))
    assert fast == reference


def test_the_rows_cover_the_op_table() -> None:
    """Every differentiable op has rows here, but those test_engine_gradients.py excludes with
    its reasons (whatever op modules this worker has loaded: all of them are, first)."""
    E._load_extra_ops()
    covered = {case.op for case in CASES}
    differentiable = {name for name, op in OPS.items() if op.grads is not None}
    excluded = set(NOT_IMPLEMENTED) | RAISES_ON_BACKWARD | TESTED_IN_OWN_FILE
    assert len(covered) > 200 and sorted(differentiable - covered - excluded) == []


def _non_differentiable() -> list:
    x = E.tensor([0.25, 0.5, 1.75], dtype=E.float64, requires_grad=True)
    outs = [x == 0.5, x < 0.5, x >= 0.5, E.isnan(x), ~(x > 0.5), (x > 0.5) & (x < 1.5)]
    return [(_value(o), o.is_leaf) for o in outs]


def test_non_differentiable_ops_are_the_same() -> None:
    fast, reference = _both(_non_differentiable)
    assert fast == reference


def _attempt(fn: Callable[[], Any]) -> Any:
    try:
        return _value(fn())
    except Exception as e:  # noqa: BLE001 - the error is what is compared
        return (type(e).__name__, str(e))


def _writes() -> list:
    """In-place writes with and without a graph: values, dtypes, versions, views, errors."""
    out = []
    a = E.tensor([1.5, -2.0, 3.25])
    b = E.tensor([1, 2, 3])
    c = E.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=E.float64)
    w = E.tensor([0.5, 0.25], requires_grad=True)
    a.zero_()
    b.fill_(2.7)
    c.fill_(E.tensor(-1.5))
    c[0].zero_()
    with E.no_grad():
        w -= 0.1 * E.tensor([1.0, 2.0])
        w += 1.0
        w *= E.tensor([2.0, 4.0])
        w.add_(E.tensor([1.0, 1.0]), alpha=2.0)
        w.mul_(3)  # an int: promoted by the reference path
    b += 1
    for t in (a, b, c, w):
        out.append((_value(t), t._version))
    # recorded writes: a view's base gets CopySlices, saved values are checked against versions
    x = E.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2.0
    v = y[1:]
    v.mul_(E.tensor([3.0, 4.0]))
    v += 1.0
    z = y.tanh()
    out.append((_value(y), _value(v), y._version, v._version, _graph(z)))
    z.sum().backward()
    out.append(_value(x.grad))
    u = x.exp()
    s = u * u
    u.add_(1.0)
    out.append(_attempt(lambda: s.sum().backward()))
    expanded = E.ones(3).expand(2, 3)
    leaf = E.ones(2, requires_grad=True)
    for attempt in (
        lambda: expanded.zero_(),
        lambda: leaf.zero_(),
        lambda: leaf.fill_(1.0),
        lambda: leaf.add_(1.0),
        lambda: E.tensor([1, 2]).fill_(2**70),
        lambda: E.tensor([1, 2]).add_(0.5),
        lambda: E.zeros(1).add_(E.ones(3)),
    ):
        out.append(_attempt(attempt))
    with E.no_grad():
        out.append(_attempt(lambda: expanded.add_(1.0)))
        out.append(_attempt(lambda: E.ones(2, 3).t().mul_(2.0)))
    return out


def test_in_place_writes_are_the_same() -> None:
    fast, reference = _both(_writes)
    assert fast == reference
    assert sum(1 for row in fast if isinstance(row, tuple) and row[:1] == ("RuntimeError",)) >= 5


def _views() -> list:
    """Views (the fast layer's `apply_view`): aliasing, shared versions, the base's list."""
    from autodiff_cli.engine.ops import views as V

    calls = [
        (V.SQUEEZE_DIM, (4, 1, 3), {"dim": 1, "source": (4, 1, 3)}),
        (V.SQUEEZE, (1, 4, 1), {"source": (1, 4, 1)}),
        (V.UNSQUEEZE, (4, 3), {"dim": 0}),
        (V.TRANSPOSE, (4, 3, 2), {"dim0": 0, "dim1": 2}),
        (V.PERMUTE, (4, 3, 2), {"dims": (2, 0, 1)}),
        (V.T, (4, 3), None),
        (V.ALIAS, (2, 3), None),
    ]
    rng = np.random.default_rng(5)
    out = []
    for op, shape, params in calls:
        for requires_grad in (True, False):
            base = E.tensor(rng.standard_normal(shape), requires_grad=requires_grad) * 1.0
            v = fast_paths.apply_view(op, base, params)
            row = [_value(v), v._base is base, any(ref() is v for ref in base._views)]
            if not requires_grad:
                base.mul_(2.0)
                row.append(v._version == base._version)
            else:
                base.retain_grad()
                row.append((v.grad_fn._params, v.grad_fn._meta))
                (v * v).sum().backward()
                row.append(_value(base.grad))
            out.append(row)
    return out


def test_views_are_the_same() -> None:
    fast, reference = _both(_views)
    assert fast == reference


def test_matmul_operator_errors_are_the_same() -> None:
    def run() -> list:
        calls = [
            lambda: E.ones(2, 3) @ E.ones(4, 2),
            lambda: E.ones(2, 3) @ E.ones(3, 2, dtype=E.float64),
            lambda: E.mm(E.ones(2, 3), E.ones(2, 3)),
        ]
        return [_attempt(call) for call in calls]

    fast, reference = _both(run)
    assert fast == reference
    assert "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)" in fast[0][1]


def test_node_classes_have_no_getattr() -> None:
    """CPython 3.11 specializes no attribute access on instances of a class with a
    `__getattr__`: the `_saved_*` names are properties."""
    classes = {op.node_class() for op in OPS.values() if op.grad_fn}
    assert len(classes) > 100
    for cls in classes | {Node, OpNode, AccumulateGrad}:
        assert not hasattr(cls, "__getattr__"), cls


def test_bound_applies_hand_the_gradient_on_where_the_formula_does() -> None:
    def passing(name: str) -> tuple:
        nonlocals = inspect.getclosurevars(OPS[name].node_class().apply).nonlocals
        return nonlocals["pass0"], nonlocals["pass1"]

    assert passing("add") == (True, True)
    assert passing("sub") == (True, False)
    for name in ("mul", "div", "mm", "tanh", "neg"):
        assert passing(name) == (False, False), name


def _training() -> list:
    """A few SGD steps of a small MLP: leaves accumulating over passes, zero_grad, in-place
    updates under no_grad, retain_graph, a tensor hook and a retained gradient."""
    rng = np.random.default_rng(11)
    x = E.tensor(rng.standard_normal((8, 4)).astype(np.float32))
    y = E.tensor(rng.standard_normal((8, 1)).astype(np.float32))
    w1 = E.tensor(rng.standard_normal((4, 6)).astype(np.float32), requires_grad=True)
    b1 = E.zeros(6, requires_grad=True)
    w2 = E.tensor(rng.standard_normal((6, 1)).astype(np.float32), requires_grad=True)
    params = [w1, b1, w2]
    out = []
    for step in range(3):
        h = (x @ w1 + b1).tanh()
        h.retain_grad()
        loss = ((h @ w2 - y) ** 2).mean()
        if step == 1:
            w2.register_hook(lambda g: g * 0.5)
        loss.backward(retain_graph=True)
        loss.backward()  # a second pass accumulates into .grad
        out.append((_value(loss), _value(h.grad), [_value(p.grad) for p in params]))
        with E.no_grad():
            for p in params:
                p -= 0.1 * p.grad
                p.grad.zero_()
    out.append([(_value(p), p._version) for p in params])
    return out


def test_training_steps_are_the_same() -> None:
    fast, reference = _both(_training)
    assert fast == reference
