"""The backward pass, in three steps (iterative, never recursive):

1. walk: every node reachable from the roots, once, in decreasing sequence number, which is the
   order of PyTorch's ready queue (a node's consumers are all newer than it, so the newest node
   not yet run is always ready). Only AccumulateGrad nodes count their incoming edges.
2. prune (`inputs=`, `autograd.grad`): only nodes from which a requested input is reached run.
3. execute: each node runs once on the sum of the gradients delivered to it (`run_node`, the one
   node-execution path); a leaf accumulates into `.grad` as soon as its last edge delivered,
   before any other node, as PyTorch gives AccumulateGrad the highest priority. When a reached
   leaf has hooks, the order of leaves made ready together shows: then the pass follows PyTorch's
   ready queue itself (`_execute_ready_queue`). Saved values are freed as each node finishes
   unless `retain_graph`. Hooks, captures and create_graph are seen while running a node, and
   cost nothing when absent.
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Sequence
from functools import partial
from operator import attrgetter
from typing import Any

import numpy as np

from . import provided
from .apply import overlaps
from .devices import USED as _META_USED
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
from .optable import tensor_methods
from .saved_values import RELEASED
from .tensor import OVERLAP_MESSAGE, Tensor, _wrap

_refcount = sys.getrefcount
_ndarray = np.ndarray
_add = np.add

UNUSED_MESSAGE = (
    "The differentiated Tensor at index {} appears to not have been used in the graph. Set "
    "allow_unused=True if this is the desired behavior."
)


def make_root_grads(
    outputs: Sequence[Tensor], grad_outputs: Sequence[Any], create_graph: bool
) -> list:
    grads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if not isinstance(out, Tensor):
            raise TypeError(f"outputs must be Tensors, not {type(out).__name__}")
        if g is None:
            if out._requires_grad:
                if out._data.size != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if out._data.dtype.kind != "f":
                    raise RuntimeError(
                        "grad can be implicitly created only for real scalar outputs but got "
                        f"{out.dtype}"
                    )
            data = out._data  # ones of the output's shape and dtype: nothing to check
            ones = np.array(1, data.dtype) if data.ndim == 0 else np.ones(data.shape, data.dtype)
            if type(data) is MetaArray:  # a meta output's gradient is meta too
                ones = as_meta(ones)
            grads.append(_wrap(ones) if create_graph else ones)
            continue
        if not isinstance(g, Tensor):
            g = provided.tensor(g, dtype=out.dtype)
        if g._data.shape != out._data.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] "
                f"has a shape of {out.shape}."
            )
        if g._data.dtype != out._data.dtype:
            g = _wrap(g._data.astype(out._data.dtype), g._requires_grad and create_graph)
        grads.append(g if create_graph else g._data)
    return grads


def backward(
    tensor: Tensor | Sequence[Tensor],
    gradient: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    grad_variables: Any = None,
    inputs: Any = None,
) -> None:
    """`tensor.backward()` and `torch.autograd.backward(tensors, grad_tensors)`."""
    tensors = [tensor] if isinstance(tensor, Tensor) else list(tensor)
    if gradient is None:
        gradient = grad_variables
    if gradient is None:
        grads = [None] * len(tensors)
    elif isinstance(gradient, Tensor):
        grads = [gradient]
    else:
        grads = list(gradient)
    if inputs is not None:
        inputs = [inputs] if isinstance(inputs, (Tensor, GradientEdge)) else list(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for t in inputs:
            if isinstance(t, GradientEdge):
                continue
            if not isinstance(t, Tensor):
                raise RuntimeError(
                    f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}"
                )
            if t._grad_fn is not None or not t._requires_grad:
                t.retain_grad()  # as PyTorch: a non-leaf input gets (and keeps) a retained .grad
    root_grads = make_root_grads(tensors, grads, create_graph)
    run_backward(tensors, root_grads, retain_graph, create_graph, inputs)  # (by position: faster)


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> tuple:
    """`torch.autograd.grad`: the gradients of `outputs` with respect to `inputs`, as a tuple."""
    outs = [outputs] if isinstance(outputs, Tensor) else list(outputs)
    ins = [inputs] if isinstance(inputs, (Tensor, GradientEdge)) else list(inputs)
    if grad_outputs is None:
        gouts = [None] * len(outs)
    elif isinstance(grad_outputs, Tensor):
        gouts = [grad_outputs]
    else:
        gouts = list(grad_outputs)
    if len(gouts) != len(outs):
        raise RuntimeError(
            f"grad requires one grad_output per output: got {len(gouts)} grad_outputs and "
            f"{len(outs)} outputs"
        )
    for t in ins:
        if not isinstance(t, (Tensor, GradientEdge)):
            raise RuntimeError(
                f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}"
            )
    if allow_unused is None:
        allow_unused = materialize_grads
    root_grads = make_root_grads(outs, gouts, create_graph)
    for i, t in enumerate(outs):
        if not t._requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
    for t in ins:
        if isinstance(t, Tensor) and not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    captured = run_backward(
        outs, root_grads, retain_graph, create_graph, inputs=ins, accumulate=False
    )
    backend = TensorBackend if create_graph else NumpyBackend
    result = []
    for i, (t, g) in enumerate(zip(ins, captured)):
        if g is None:
            if materialize_grads:
                result.append(_wrap(np.zeros(t._data.shape, t._data.dtype)))
                continue
            if not allow_unused:
                raise RuntimeError(UNUSED_MESSAGE.format(i))
            result.append(None)
        else:
            result.append(backend.wrap(g))
    return tuple(result)


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
) -> list | None:
    """Runs the backward pass (walk, prune, execute); returns the captured gradients of
    `inputs` when given."""
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
        if NODE_WATCH or _leaf_order_observable(accs):
            _execute_ready_queue(p, order, nodes, nrs, root_grads)
        else:
            _deliver(nodes, nrs, root_grads, p)
            _execute(p, order)
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


def _leaf_order_observable(accs: dict) -> bool:
    """True when a reached leaf has hooks (a leaf with hooks gives its AccumulateGrad extras):
    then the order of leaves made ready together shows, and the pass follows PyTorch's ready
    queue exactly (`_execute_ready_queue`)."""
    for acc in accs:
        if acc._x is not None:
            return True
    return False


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


def _execute(p: _Pass, order: list) -> None:
    """Runs the reached nodes newest first; leaves accumulate as their last gradient arrives,
    before any other node, as PyTorch runs them. A node is run by `node.apply`, through
    `run_node` when it has hooks or several outputs, captures are asked for, or it received no
    gradient; the gradients `apply` returns are handed on here (`_deliver`'s loop, inlined:
    this loop is the backward pass of every plain graph)."""
    needed = p.needed
    backend = p.backend
    retain = p.retain
    accs = p.accs
    for node in order:
        buf = node._buf
        if buf is None:
            continue
        node._buf = None
        x = node._x
        if (
            (x is None or (x.hooks is None and x.nrs is None))
            and needed is None
            and buf.__class__ is not _Slots
        ):
            outs = node.apply([buf], backend)
            if node._saved and not retain:
                if node._frees_saved:
                    node._saved = RELEASED
                else:
                    node.release()
        else:
            if needed is not None and node not in needed:
                continue
            outs = run_node(node, buf if buf.__class__ is _Slots else [buf], p)
            if outs is not None:
                _deliver(node._next, None if x is None else x.nrs, outs, p)
            continue
        i = -1  # (an index: cheaper than zip's pairs)
        for nxt in node._next:
            i += 1
            if nxt is None:
                continue
            g = outs[i]
            if type(nxt) is AccumulateGrad:
                total = nxt._buf
                if g is not None:
                    total = g if total is None else total + g
                left = accs[nxt] - 1
                if left:
                    accs[nxt] = left
                    nxt._buf = total
                elif total is not None:  # (its last edge: the count is not read again)
                    nxt._buf = None
                    _accumulate(nxt, total, p, 3 if total is g else 1)  # (`outs`, `g`, `total`)
            elif (
                nxt._buf is None
                and g is not None
                and (nxt._x is None or nxt._x.meta is None or nxt._x.meta[1] is None)
            ):
                nxt._buf = g  # the first gradient of a one-output node
            else:
                _add_to(nxt, 0, g)
        # (`outs`, `g` and `total` keep the last node's values until the next node's are set:
        # one more reference can only keep `_accumulate` from taking a gradient, never make it)


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


def _deliver(nexts: tuple, nrs: tuple | None, outs: list, p: _Pass) -> None:
    """Hands each input gradient to the node it flows to (summing what arrives at a node
    twice); a leaf accumulates as soon as its last edge delivered."""
    i = 0
    for nxt in nexts:
        if nxt is not None:
            g = outs[i]
            if nxt.__class__ is AccumulateGrad:
                _to_leaf(nxt, g, p)
            elif nxt._buf is None and nxt._x is None:
                nxt._buf = _EMPTY if g is None else g
            else:
                _add_to(nxt, 0 if nrs is None else nrs[i], g)
        i += 1


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


def _to_leaf(acc: AccumulateGrad, g: Any, p: _Pass) -> None:
    """A gradient for a leaf: summed in its buffer until its last edge delivered, then
    accumulated (as `_execute` does inline)."""
    total = acc._buf
    if g is not None:
        total = g if total is None else total + g
    left = p.accs[acc] - 1
    if left:
        p.accs[acc] = left
        acc._buf = total
    elif total is not None:
        acc._buf = None
        # (a delivered `g` is referred to by `_deliver`'s `outs` and `g`, `g` and `total` here)
        _accumulate(acc, total, p, 4 if total is g else 1)


def _execute_ready_queue(p: _Pass, order: list, roots: list, nrs: list, root_grads: list) -> None:
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
    if node._x is None and p.captures is None:  # no hooks (a leaf with hooks marks its node)
        current = var._grad
        if g.__class__ is _ndarray and g.shape == var._data.shape and not _META_USED[0]:
            if current is None:
                if (
                    held is not None
                    and _refcount(g) <= held + 2  # (and `g` here, and the call's argument)
                    and g.dtype == var._data.dtype
                    and g.base is None
                ):
                    if g.flags.c_contiguous:
                        var._grad = _wrap(g)
                        return
            else:
                data = current._data
                if data.__class__ is _ndarray:
                    try:
                        _add(data, g, out=data, casting="unsafe")
                    except ValueError:  # a read-only `.grad`: `_store_grad` says why or copies
                        _store_grad(var, g, p.backend)
                        return
                    box = current._vbox
                    if box is None:
                        current._vbox = [1]
                    else:
                        box[0] += 1
                    return
        _store_grad(var, g, p.backend)
        return
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
            var._grad = provided.copy_of_gradient(var, g)
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


def _tensor_backward(
    self: Tensor,
    gradient: Tensor | None = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """`Tensor.backward`: the gradient of this tensor with respect to the graph's leaves."""
    backward(self, gradient, retain_graph, create_graph, None, inputs)  # (by position)


_tensor_backward.__name__ = "backward"
_tensor_backward.__qualname__ = "Tensor.backward"
tensor_methods("core.backward", {"backward": _tensor_backward})
