"""The backward pass: iterative, with dependency counts, never recursive.

1. Walk the graph from the roots once (an explicit stack) and count, for every node, how many edges
   point at it.
2. Run nodes from a ready queue ordered like PyTorch's (the most recently created node first); a node
   is ready when every edge into it has delivered its gradient, so a shared subexpression sums all
   its gradient before it propagates.
3. Leaves accumulate into `.grad` (or, for `autograd.grad`, the gradients of the requested inputs are
   captured instead). Saved values are freed as each node finishes unless `retain_graph`.
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from .formula_backends import NumpyBackend, TensorBackend
from .grad_mode import GradMode
from .graph import AccumulateGrad, Node, OpNode, legacy_type_name
from .tensor import OVERLAP_MESSAGE, Tensor, _wrap, overlaps

_refcount = sys.getrefcount

REPLACE_NONE_MESSAGE = "can't replace a None gradient with a non-None value"
UNUSED_MESSAGE = (
    "The differentiated Tensor at index {} appears to not have been used in the graph. Set "
    "allow_unused=True if this is the desired behavior."
)


def _num_outputs(node: Node) -> int:
    meta = node._meta
    if meta is not None and meta[1] is not None:
        return len(meta[1])
    return 1


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
            data = out._data
            g = _wrap(
                np.array(1, data.dtype) if data.ndim == 0 else np.ones(data.shape, data.dtype)
            )
        elif not isinstance(g, Tensor):
            from ..ops.creation import tensor

            g = tensor(g, dtype=out.dtype)
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
        inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for t in inputs:
            if not isinstance(t, Tensor):
                raise RuntimeError(
                    f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}"
                )
            if t._grad_fn is not None or not t._requires_grad:
                t.retain_grad()  # as PyTorch: a non-leaf input gets (and keeps) a retained .grad
    root_grads = make_root_grads(tensors, grads, create_graph)
    run_backward(tensors, root_grads, retain_graph, create_graph, inputs=inputs, accumulate=True)


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
    ins = [inputs] if isinstance(inputs, Tensor) else list(inputs)
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
        if not isinstance(t, Tensor):
            raise TypeError(f"inputs must be Tensors, not {type(t).__name__}")
    if allow_unused is None:
        allow_unused = materialize_grads
    root_grads = make_root_grads(outs, gouts, create_graph)
    for i, t in enumerate(outs):
        if not t._requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
    for t in ins:
        if not t._requires_grad:
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
            result.append(g if backend.creates_graph else _wrap(g))
    return tuple(result)


def _edge_of(t: Tensor) -> tuple[Node, int]:
    if t._grad_fn is not None:
        return t._grad_fn, t._output_nr
    return t._accumulator(), 0


def run_backward(
    roots: Sequence[Tensor],
    root_grads: list,
    retain_graph: bool | None,
    create_graph: bool,
    inputs: Sequence[Tensor] | None = None,
    accumulate: bool = True,
) -> list | None:
    """Runs the backward pass; returns the captured gradients of `inputs` when given."""
    if retain_graph is None:
        retain_graph = create_graph
    backend = TensorBackend if create_graph else NumpyBackend
    starts = []
    for i, t in enumerate(roots):
        if not t._requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
        starts.append(_edge_of(t))

    # 1. dependency counts: counts[node] = edges still to deliver (the roots start at 0; the
    #    reverse edges too when autograd.grad prunes the walk). Gradients wait in buffers[node].
    roots_set = {node for node, _ in starts}
    counts: dict[Node, int] = dict.fromkeys(roots_set, 0)
    stack = list(roots_set)
    parents: dict[Node, list] | None = None if inputs is None else {}
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is not None:
                if parents is not None:
                    parents.setdefault(nxt, []).append(node)
                if nxt in counts:
                    counts[nxt] += 1
                else:
                    counts[nxt] = 1
                    stack.append(nxt)

    captures: dict[tuple[Node, int], int] | None = None
    needed: set | None = None
    captured: list | None = None
    if inputs is not None:
        seen = counts.keys()
        captures = {}
        captured = [None] * len(inputs)
        for k, t in enumerate(inputs):
            captures[_edge_of(t)] = k
        # only nodes from which a captured input can be reached need to run
        needed = set()
        frontier = [node for node, _ in captures if node in seen]
        while frontier:
            node = frontier.pop()
            if node in needed:
                continue
            needed.add(node)
            frontier.extend(parents.get(node, ()))

    buffers: dict[Node, list] = {}
    for (node, nr), g in zip(starts, root_grads):
        buf = buffers.get(node)
        if buf is None:
            buf = buffers[node] = [None] * _num_outputs(node)
        buf[nr] = g if buf[nr] is None else buf[nr] + g
    ready = [(-node._seq, node) for node in roots_set if counts[node] == 0]
    heapq.heapify(ready)

    # 2. execution
    prev_mode = GradMode.enabled
    GradMode.enabled = create_graph
    heappop, heappush = heapq.heappop, heapq.heappush
    simple = backend is NumpyBackend
    opnode_apply = OpNode.apply
    ndarray = np.ndarray if simple else None  # numpy gradients only (create_graph: Tensors)
    follow = None  # a node made ready by the last one while nothing else waits: skip the heap
    try:
        while True:
            if follow is not None:
                node = follow
                follow = None
            elif ready:
                node = heappop(ready)[1]
            else:
                break
            grads = buffers.pop(node)  # the buffer is not needed past this node
            if node.__class__ is AccumulateGrad:
                g0 = grads[0]
                var = node.variable
                if (  # the common first gradient of a leaf: `_store_grad`'s copy, inlined
                    g0.__class__ is ndarray
                    and captures is None
                    and var._grad is None
                    and node._hooks is None
                    and not var._leaf_hooks
                    and var._post_accumulate_hooks is None
                    and g0.dtype == var._data.dtype
                    and g0.shape == var._data.shape
                ):
                    # As PyTorch's AccumulateGrad does, a gradient nothing else refers to (only
                    # `grads` and `g0` here) is taken as it is instead of copied.
                    if _refcount(g0) <= 3 and g0.base is None and g0.flags.c_contiguous:
                        var._grad = _wrap(g0)
                    else:
                        var._grad = _wrap(g0.copy())
                else:
                    _accumulate(node, g0, backend, accumulate, captures, captured)
                continue
            hooks = node._hooks
            if captures is not None:
                if node not in needed:
                    continue
                if hooks is not None:
                    grads = _run_pre_hooks(hooks, grads, backend)
                if _capture(node, grads, captures, captured, needed):
                    if not retain_graph:
                        node.release()
                    continue
            elif hooks is not None:
                grads = _run_pre_hooks(hooks, grads, backend)
            g0 = grads[0]
            if node.__class__.apply is opnode_apply and g0 is not None and simple:
                if node._meta is None and node._params is None:
                    outs = node._apply_simple(node.op, g0)  # `apply`'s own fast path, inlined
                else:
                    outs = opnode_apply(node, grads, backend)
            elif g0 is not None or any(g is not None for g in grads):
                outs = node.apply(grads, backend)
            else:
                outs = [None] * len(node.next_functions)
            if hooks is not None and hooks.post:
                outs = _run_post_hooks(hooks.post, outs, grads, backend)
            if not retain_graph and node._saved:
                node.release()
            for (nxt, nr), g in zip(node.next_functions, outs):
                if nxt is not None:
                    buf = buffers.get(nxt)
                    if buf is None:
                        meta = nxt._meta
                        if meta is None or meta[1] is None:
                            buffers[nxt] = [g]
                        else:
                            buf = buffers[nxt] = [None] * len(meta[1])
                            buf[nr] = g
                    elif g is not None:
                        old = buf[nr]
                        buf[nr] = g if old is None else old + g
                    left = counts[nxt] - 1
                    counts[nxt] = left
                    if not left:
                        if follow is None and not ready:
                            follow = nxt
                        else:
                            if follow is not None:
                                heappush(ready, (-follow._seq, follow))
                                follow = None
                            heappush(ready, (-nxt._seq, nxt))
            outs = g = None  # drop this node's references to the gradients it passed on
    finally:
        GradMode.enabled = prev_mode
    return captured


def _capture(node: Node, grads: list, captures: dict, captured: list, needed: set) -> bool:
    """Records the gradients of requested inputs; True when nothing past this node is needed."""
    for nr, g in enumerate(grads):
        k = captures.get((node, nr))
        if k is not None:
            captured[k] = g
    return not any(nxt in needed for nxt, _ in node.next_functions if nxt is not None)


def _run_pre_hooks(node_hooks: Any, grads: list, backend: Any) -> list:
    """Tensor hooks (may replace the gradient), then retain_grad (always last), then node
    pre-hooks."""
    if node_hooks.tensor:
        for nr, hooks in node_hooks.tensor.items():
            for fn in list(hooks.values()):
                grads[nr] = _run_tensor_hook(fn, grads[nr], backend)
    if node_hooks.retained:
        for nr, ref in node_hooks.retained.items():
            t = ref()
            if t is not None and grads[nr] is not None:
                _store_retained(t, grads[nr], backend)
    if node_hooks.pre:
        for fn in list(node_hooks.pre.values()):
            grads = _run_tuple_hook(fn, (grads,), grads, backend)
    return grads


# -- what hooks may return, checked as PyTorch checks it ----------------------------------------


def _hook_name(fn: Any) -> str:
    return getattr(fn, "__name__", "<unknown>")


def _check_hook_value(fn: Any, new: Any, old: Any, backend: Any) -> Any:
    """A hook's replacement `new` for the gradient `old` (never None): a Tensor of the same dtype
    and shape, returned unwrapped for `backend`."""
    if not isinstance(new, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
    old_data = old._data if isinstance(old, Tensor) else np.asarray(old)
    if new._data.dtype != old_data.dtype:
        raise RuntimeError(
            f"hook '{_hook_name(fn)}' has changed the type of value (was "
            f"{legacy_type_name(old_data.dtype)} got {legacy_type_name(new._data.dtype)})"
        )
    if new._data.shape != old_data.shape:
        raise RuntimeError(f"hook '{_hook_name(fn)}' has changed the size of value")
    return backend.unwrap(new)


def _run_tensor_hook(fn: Any, g: Any, backend: Any) -> Any:
    """`tensor.register_hook(fn)`: `fn(grad)` may return a replacement. As in PyTorch, the hook
    also runs (with None) for an output of its node that received no gradient."""
    new = fn(None if g is None else backend.wrap(g))
    if new is None:
        return g
    if g is None:
        raise RuntimeError(REPLACE_NONE_MESSAGE)
    return _check_hook_value(fn, new, g, backend)


def _run_tuple_hook(fn: Any, args: tuple, grads: list, backend: Any) -> list:
    """A node pre-hook `fn(grad_outputs)` or post-hook `fn(grad_inputs, grad_outputs)`: `args`
    are the gradient lists it receives, the first of which (`grads`) it may replace by
    returning a tuple of the same length."""
    wrap = backend.wrap
    new = fn(*(tuple(None if g is None else wrap(g) for g in gs) for gs in args))
    if new is None:
        return grads
    if not isinstance(new, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(new).__name__}'")
    if len(new) != len(grads):
        raise RuntimeError(
            f"hook '{_hook_name(fn)}' has returned an incorrect number of values (got {len(new)}, "
            f"but expected {len(grads)})"
        )
    out = []
    for value, old in zip(new, grads):
        if value is None:
            out.append(None)
        elif old is None:
            raise RuntimeError(REPLACE_NONE_MESSAGE)
        else:
            out.append(_check_hook_value(fn, value, old, backend))
    return out


def _run_post_hooks(post: dict, outs: list, grads: list, backend: Any) -> list:
    for fn in list(post.values()):
        outs = _run_tuple_hook(fn, (outs, grads), outs, backend)
    return outs


def _run_post_accumulate_hooks(var: Tensor) -> None:
    """`fn(tensor)` after `.grad` was updated: PyTorch wants None back (or the tensor itself),
    and checks anything else like a replacement gradient before refusing it."""
    for fn in list(var._post_accumulate_hooks.values()):
        result = fn(var)
        if result is None or result is var:
            continue
        _check_hook_value(fn, result, var, NumpyBackend)
        raise RuntimeError("Tensor post accumulate grad hooks should return None.")


def _accumulate(
    node: AccumulateGrad,
    g: Any,
    backend: Any,
    accumulate: bool,
    captures: dict | None,
    captured: list | None,
) -> None:
    if g is None:
        return
    var = node.variable
    if var._leaf_hooks:
        for fn in list(var._leaf_hooks.values()):
            g = _run_tensor_hook(fn, g, backend)
    if captures is not None:
        k = captures.get((node, 0))
        if k is not None:
            captured[k] = g
        if not accumulate:
            return
        if k is None:
            return
    hooks = node._hooks
    if hooks is not None and hooks.pre:
        for fn in list(hooks.pre.values()):
            (g,) = _run_tuple_hook(fn, ([g],), [g], backend)
        if g is None:
            return
    _store_grad(var, g, backend)
    if var._post_accumulate_hooks:
        _run_post_accumulate_hooks(var)
    if hooks is not None and hooks.post:
        _run_post_hooks(hooks.post, [], [g], backend)


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
            from ..ops.fills import copy_of_gradient

            var._grad = copy_of_gradient(var, g)
        else:
            var._grad = current + g
        return
    if (g.shape if g.__class__ is np.ndarray else np.shape(g)) != var._data.shape:
        g = NumpyBackend.conform(g, var._data.shape, var._data.dtype)
    if current is None:
        var._grad = _wrap(np.array(g, dtype=var._data.dtype, copy=True))
        return
    arr = current._array()
    if not arr.flags.writeable:
        if overlaps(arr):
            raise RuntimeError(OVERLAP_MESSAGE)  # an expanded `.grad` set by the user
        arr = current._data = arr.copy()
    np.add(arr, g, out=arr, casting="unsafe")
    current._bump_version()


def _store_retained(t: Tensor, g: Any, backend: Any) -> None:
    """A non-leaf's retained gradient: unlike a leaf's, a copy the first time (CloneBackward0
    under create_graph) and then a new sum each time, never added in place."""
    current = t._grad
    if backend.creates_graph:
        t._grad = g.clone() if current is None else current + g
    elif current is None:
        t._grad = _wrap(np.array(g, copy=True))
    else:
        t._grad = _wrap(current._data + g)
