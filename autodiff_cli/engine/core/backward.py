"""The backward pass, in three steps (iterative, never recursive):

1. walk: every node reachable from the roots, once, in decreasing sequence number, which is the
   order of PyTorch's ready queue (a node's consumers are all newer than it, so the newest node
   not yet run is always ready). Only AccumulateGrad nodes count their incoming edges.
2. prune (`inputs=`, `autograd.grad`): only nodes from which a requested input is reached run.
3. execute: PyTorch's ready queue (`execute_ready_queue`, a heap on the sequence number with
   leaves on top): each node runs once on the sum of the gradients delivered to it (`run_node`,
   the one node-execution path); a leaf accumulates into `.grad` as soon as its last edge
   delivered. Saved values are freed as each node finishes unless `retain_graph`. The fast
   layer (`fast_paths.run_backward`) runs the same nodes in the same order without the heap.

The arguments of `Tensor.backward` / `autograd.grad` are checked in `core/backward_api.py`;
hooks are run by `core/gradient_hooks.py`.
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Callable, Sequence
from functools import partial
from operator import attrgetter
from typing import Any

import numpy as np

from .apply import overlaps
from .devices import MetaArray, as_meta
from .edges import GradientEdge
from .formula_backends import NumpyBackend, TensorBackend
from .grad_mode import GradMode
from .gradient_hooks import (
    run_post_accumulate_hooks,
    run_post_hooks,
    run_pre_hooks,
    run_tensor_hook,
    run_tuple_hook,
)
from .graph import AccumulateGrad, Node, accumulator
from .tensor import OVERLAP_MESSAGE, Tensor, _wrap

_refcount = sys.getrefcount
_ndarray = np.ndarray
_add = np.add


def _edge_of(t: Tensor) -> tuple[Node, int]:
    if t.__class__ is GradientEdge:
        return t.node, t.output_nr
    if t._grad_fn is not None:
        return t._grad_fn, t._output_nr
    return accumulator(t), 0


class _Slots(list):
    """The gradient buffer of a multi-output node: one slot per output."""

    __slots__ = ()


_EMPTY = _Slots()  # the buffer of a single-output node reached only by None gradients


class _Pass:
    """One backward pass: its backend and options, the leaves' pending edge counts (`accs`),
    and for `inputs=` the gradients to capture and the nodes that lead to them."""

    __slots__ = (
        "backend",
        "retain",
        "accumulate",
        "accs",
        "captures",
        "captured",
        "needed",
        "order",
    )

    def __init__(self, backend: Any, retain: bool, accumulate: bool, accs: dict) -> None:
        self.backend = backend
        self.retain = retain
        self.accumulate = accumulate
        self.accs = accs
        self.captures: dict | None = None
        self.captured: list | None = None
        self.needed: set | None = None
        self.order: list = []


def run_backward(
    roots: Sequence[Tensor],
    root_grads: list,
    retain_graph: bool | None,
    create_graph: bool,
    inputs: Sequence[Tensor] | None = None,
    accumulate: bool = True,
    execute: Callable | None = None,
) -> list | None:
    """Runs the backward pass (walk, prune, execute); returns the captured gradients of
    `inputs` when given. `execute(p, order, roots, nrs, root_grads)` runs the reached nodes:
    PyTorch's ready queue (`execute_ready_queue`) unless another schedule is given (the fast
    layer's, `fast_paths.run_backward`)."""
    if retain_graph is None:
        retain_graph = create_graph
    nodes, nrs = [], []  # the roots' edges
    for i, t in enumerate(roots):
        if not t._requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
        node, nr = _edge_of(t)
        nodes.append(node)
        nrs.append(nr)
    order, accs = _walk(nodes)
    p = _Pass(TensorBackend if create_graph else NumpyBackend, retain_graph, accumulate, accs)
    if inputs is not None:
        _prune(p, order, inputs)
    p.order = order
    prev_mode = GradMode.enabled
    GradMode.enabled = create_graph
    _running.append(p)
    try:
        (execute or execute_ready_queue)(p, order, nodes, nrs, root_grads)
    except BaseException:
        for node in (*order, *accs):
            node._buf = None
        raise
    finally:
        GradMode.enabled = prev_mode
        _running.pop()
    if p.needed is not None:
        # A pruned pass skips the nodes that lead to no requested input, so a leaf they feed
        # never receives all its edges: its partial sum must not reach the next pass.
        for acc in accs:
            acc._buf = None
    return p.captured


_running: list = []  # the passes under way (a hook may start another)


def current_pass() -> _Pass | None:
    """The backward pass under way (torch.autograd.graph's multi-grad hooks ask)."""
    return _running[-1] if _running else None


def will_run(p: _Pass | None, t: Tensor) -> bool:
    """Whether pass `p` reaches the node `t`'s gradient flows to."""
    if p is None:
        return False
    node = t._grad_fn if t._grad_fn is not None else t._acc
    if node is None:
        return False
    if node.__class__ is AccumulateGrad:
        return node in p.accs and (p.captures is None or (node, 0) in p.captures)
    return node in p.order and (p.needed is None or node in p.needed)


# -- 1. walk ----------------------------------------------------------------------------------


_by_seq = attrgetter("_seq")


def _walk(roots: list) -> tuple[list, dict]:
    """Every node reachable from `roots`, newest first (decreasing sequence number: PyTorch's
    ready order, as a node's consumers are all newer than it), and for each AccumulateGrad
    reached the number of edges into it (the root edges included)."""
    accs: dict = {}
    order = []
    seen = set()
    for node in roots:
        if type(node) is AccumulateGrad:
            accs[node] = accs.get(node, 0) + 1
        elif node not in seen:
            seen.add(node)
            order.append(node)
    for node in order:  # `order` is also the queue of nodes whose edges are still to read
        for nxt in node._next:
            if nxt is None:
                continue
            if type(nxt) is AccumulateGrad:  # (`type()`: `__class__` of nodes of many classes
                accs[nxt] = accs.get(nxt, 0) + 1  # misses CPython's attribute cache)
            elif nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
    if len(order) > 1:
        order.sort(key=_by_seq, reverse=True)
    return order, accs


# -- 2. prune (`inputs=`) -----------------------------------------------------------------------


def _prune(p: _Pass, order: list, inputs: Sequence[Tensor]) -> None:
    """Only nodes from which a requested input can be reached need to run."""
    parents: dict = {}
    for node in order:
        for nxt in node._next:
            if nxt is not None:
                parents.setdefault(nxt, []).append(node)
    p.captures = {}
    p.captured = [None] * len(inputs)
    for k, t in enumerate(inputs):
        p.captures[_edge_of(t)] = k
    needed = p.needed = set()
    frontier = [node for node, _ in p.captures if node in parents or node in order]
    while frontier:
        node = frontier.pop()
        if node not in needed:
            needed.add(node)
            frontier.extend(parents.get(node, ()))


# -- 3. execute -------------------------------------------------------------------------------


def run_node(node: Node, grads: list, p: _Pass) -> list | None:
    """Runs one node on its output gradients: hooks, the captures of `inputs=`, its backward,
    the release of its saved values; returns its input gradients (None: nothing to pass on)."""
    x = node._x
    hooks = None if x is None else x.hooks
    if grads is _EMPTY:
        grads = [None] * node.n_outputs()
    if hooks is not None and (p.captures is None or node in p.needed):
        grads = run_pre_hooks(hooks, grads, p.backend)
    if p.captures is not None and _capture(node, grads, p):
        if not p.retain:
            node.release()
        return None
    if grads[0] is not None or any(g is not None for g in grads):
        outs = node.apply(grads, p.backend)
    else:
        outs = [None] * len(node._next)
    if hooks is not None and hooks.post:
        outs = run_post_hooks(hooks.post, outs, grads, p.backend)
    if not p.retain and node._saved:
        node.release()
    return outs


def _add_to(node: Node, nr: int, g: Any) -> None:
    buf = node._buf
    if buf is None:
        meta = node._x.meta if node._x is not None else None
        n = 1 if meta is None or meta[1] is None else len(meta[1])
        if n == 1:
            node._buf = _EMPTY if g is None else g
        else:
            slots = node._buf = _Slots([None] * n)
            slots[nr] = g
    elif buf is _EMPTY:
        if g is not None:
            node._buf = g
    elif buf.__class__ is _Slots:
        if g is not None:
            old = buf[nr]
            buf[nr] = g if old is None else old + g
    elif g is not None:
        node._buf = buf + g


def execute_ready_queue(p: _Pass, order: list, roots: list, nrs: list, root_grads: list) -> None:
    """The general schedule, PyTorch's ready queue itself (a binary heap on the sequence
    number, leaves on top): every node counts the edges still to deliver, and leaves made ready
    together come out in the heap's order. Used when a reached leaf has hooks; otherwise it
    runs the nodes in the same order as `_execute` (tests/test_engine_backward_order.py)."""
    counts = dict(p.accs)
    for node in order:
        counts.setdefault(node, 0)
    for node in order:
        for nxt in node._next:
            if nxt is not None and nxt.__class__ is not AccumulateGrad:
                counts[nxt] += 1
    for node in roots:
        if node.__class__ is not AccumulateGrad:
            counts[node] += 1
    ready: list = []
    _deliver_counted(roots, nrs, root_grads, counts, ready)
    while ready:
        node = heapq.heappop(ready)[1]
        buf = node._buf
        node._buf = None
        if node.__class__ is AccumulateGrad:
            if buf is not None:
                if NODE_WATCH:
                    _watched(node, [buf], partial(_accumulate, node, buf, p, None))
                else:
                    _accumulate(node, buf, p, None)
            continue
        if p.needed is not None and node not in p.needed:
            continue
        grads = buf if buf.__class__ is _Slots else [buf]
        if NODE_WATCH:
            outs = _watched(node, grads, partial(run_node, node, grads, p))
        else:
            outs = run_node(node, grads, p)
        if outs is not None:
            x = node._x
            nrs = None if x is None or x.nrs is None else x.nrs
            _deliver_counted(node._next, nrs or [0] * len(outs), outs, counts, ready)


# Modes watching each node run (the profiler): `watch(node, grads, run)` must call `run()` and
# return its result. While one is set, the pass takes the ready queue (chosen once per pass),
# where every node runs through here; nothing is checked per node otherwise.
NODE_WATCH: list = []


def watch_nodes(watch: Callable[[Node, list, Any], Any]) -> None:
    """Run every node of later passes through `watch` (see `NODE_WATCH`)."""
    NODE_WATCH.append(watch)


def stop_watching_nodes(watch: Callable[[Node, list, Any], Any]) -> None:
    if watch in NODE_WATCH:
        NODE_WATCH.remove(watch)


def _watched(node: Node, grads: list, run: Any) -> Any:
    for watch in reversed(NODE_WATCH):
        run = partial(watch, node, grads, run)
    return run()


def _deliver_counted(nexts: Any, nrs: Any, outs: list, counts: dict, ready: list) -> None:
    for nxt, nr, g in zip(nexts, nrs, outs):
        if nxt is None:
            continue
        if nxt.__class__ is AccumulateGrad:
            if g is not None:
                old = nxt._buf
                nxt._buf = g if old is None else old + g
        else:
            _add_to(nxt, nr, g)
        left = counts[nxt] - 1
        counts[nxt] = left
        if not left:
            heapq.heappush(ready, (-nxt._seq, nxt))


def _capture(node: Node, grads: list, p: _Pass) -> bool:
    """Records the gradients of requested inputs; True when nothing past this node is needed."""
    for nr, g in enumerate(grads):
        k = p.captures.get((node, nr))
        if k is not None:
            p.captured[k] = g
    return not any(nxt in p.needed for nxt in node._next if nxt is not None)


def _accumulate(node: AccumulateGrad, g: Any, p: _Pass, held: int | None) -> None:
    """A leaf's gradient arrived: its hooks, the capture of `inputs=`, then `.grad`. `held`:
    how many references to `g` the caller holds (None: `g` may be shared). As PyTorch's
    AccumulateGrad, a first gradient nothing else refers to is taken as it is."""
    variable = node._variable  # (a weak reference in a slot: read, then called)
    var = variable()
    if var is None:
        return  # the leaf is gone: nobody can read its gradient
    backend = p.backend
    if p.captures is not None and (node, 0) not in p.captures:
        return  # a leaf not among `inputs=`: as in PyTorch, its node does not run (nor hooks)
    if var._leaf_hooks:
        for fn in list(var._leaf_hooks.values()):
            g = run_tensor_hook(fn, g, backend)
    if p.captures is not None:
        k = p.captures.get((node, 0))
        if k is not None:
            p.captured[k] = g
        if not p.accumulate or k is None:
            return
    hooks = node._hooks
    if hooks is not None and hooks.pre:
        for fn in list(hooks.pre.values()):
            (g,) = run_tuple_hook(fn, ([g],), [g], backend)
        if g is None:
            return
    _store_grad(var, g, backend)
    if var._post_accumulate_hooks:
        run_post_accumulate_hooks(var)
    if hooks is not None and hooks.post:
        run_post_hooks(hooks.post, [], [g], backend)


def _store_grad(var: Tensor, g: Any, backend: Any) -> None:
    """Accumulates `g` into a leaf's `.grad` as PyTorch's AccumulateGrad does: the first gradient
    is copied (it may be shared with other leaves); under create_graph a later one makes a new
    `.grad` (`old + g`, a graph); otherwise it is added in place, so the same tensor (and its
    grad_fn, if an earlier create_graph gave it one) keeps the sum."""
    current = var._grad
    if backend.creates_graph:
        if g._data.shape != var._data.shape:
            g = TensorBackend.conform(g, var._data.shape, var._data.dtype)
        if current is None:
            var._grad = g._copy_as_gradient_of(var)  # CopyBackwards (ops/fills.py attaches it)
        else:
            var._grad = current + g
        return
    if (g.shape if g.__class__ is np.ndarray else np.shape(g)) != var._data.shape:
        g = NumpyBackend.conform(g, var._data.shape, var._data.dtype)
    if type(var._data) is MetaArray:  # a meta leaf's gradient is meta, whatever the formula made
        g = as_meta(np.asarray(g))
    if current is None:
        var._grad = _wrap(np.array(g, dtype=var._data.dtype, copy=True, subok=True))  # (meta)
        return
    arr = current._data
    if arr.__class__ is not np.ndarray:
        arr = current._array()
    try:
        np.add(arr, g, out=arr, casting="unsafe")
    except ValueError:
        if arr.flags.writeable:
            raise
        if overlaps(arr):
            raise RuntimeError(OVERLAP_MESSAGE) from None  # an expanded `.grad` set by the user
        arr = current._data = arr.copy()  # a read-only `.grad` (a broadcast the user set)
        np.add(arr, g, out=arr, casting="unsafe")
    box = current._vbox
    if box is None:
        current._vbox = [1]
    else:
        box[0] += 1
