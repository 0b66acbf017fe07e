"""Graph nodes: the objects a tensor's `grad_fn` points to.

Every differentiable op has its own `Node` subclass named as PyTorch names it (`MulBackward0`), made
from its entry in the op table. A node keeps `next_functions` (one `(node, output_nr)` edge per input,
`(None, 0)` where the input needs no gradient), the values its backward formula needs (`saved`), and
the hooks registered on it. Leaves that require grad are reached through their `AccumulateGrad` node.
"""

from __future__ import annotations

import itertools
import sys
import weakref
from collections.abc import Callable
from typing import Any

from .handles import RemovableHandle
from .node_call import call_node
from .saved_values import (
    FREED_MESSAGE,
    RELEASED,
    SHOWN_NAMES,
    _modified_message,
    saved_attribute,
    saved_properties,
    saved_property,
)
from .tensor import Tensor

NO_EDGE = (None, 0)
_sequence = itertools.count()
_next_seq = _sequence.__next__


class NodeHooks:
    """The hooks of one node; most nodes have none, so they live apart from the node."""

    __slots__ = ("pre", "post", "tensor", "retained", "metadata")

    def __init__(self) -> None:
        self.pre: dict | None = None
        self.post: dict | None = None
        self.tensor: dict | None = None
        self.retained: dict | None = None
        self.metadata: dict = {}


class NodeExtra:
    """What few nodes need, kept apart so that a node stays small: output numbers of edges to
    multi-output nodes (`nrs`), an op's parameters, input/output shapes to conform gradients
    to (`meta`), and hooks."""

    __slots__ = ("nrs", "params", "meta", "hooks")

    def __init__(self, meta: tuple | None = None, params: dict | None = None) -> None:
        self.nrs: tuple | None = None
        self.params = params
        self.meta = meta
        self.hooks: NodeHooks | None = None


class Node:
    """Base of every grad_fn. Subclasses set `op` (an `OpDef`) or override `apply`.

    `_next` holds the node each input's gradient flows to (None where it needs none), `_x` the
    rare extras (`NodeExtra`), `_buf` the gradient waiting for this node during a backward pass.
    `next_functions` presents the edges as PyTorch does, `(node, output_nr)` pairs."""

    __slots__ = ("_next", "_seq", "_saved", "_versions", "_x", "_buf", "__weakref__")
    op: Any = None
    accumulates = False  # an AccumulateGrad (a leaf's node)
    _frees_saved = True  # `release` is Node's: the backward pass frees the saved values itself

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._frees_saved = cls.release is Node.release

    def __init__(self, next_functions: tuple = ()) -> None:
        self._seq = next(_sequence)
        self._saved = ()
        self._versions = None
        self._x = None
        self._buf = None
        self.next_functions = next_functions

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {id(self):#x}>"

    # -- edges and extras --------------------------------------------------------------------
    @property
    def next_functions(self) -> tuple:
        x = self._x
        nrs = None if x is None else x.nrs
        if nrs is None:
            return tuple([(n, 0) for n in self._next])
        return tuple(zip(self._next, nrs))

    @next_functions.setter
    def next_functions(self, edges: tuple) -> None:
        self._next = tuple([e[0] for e in edges])
        nrs = tuple([e[1] for e in edges])
        if any(nrs):
            self.extra().nrs = nrs
        elif self._x is not None:
            self._x.nrs = None

    def extra(self) -> NodeExtra:
        x = self._x
        if x is None:
            x = self._x = NodeExtra()
        return x

    @property
    def _params(self) -> dict | None:
        return None if self._x is None else self._x.params

    @_params.setter
    def _params(self, value: dict | None) -> None:
        if value is not None or self._x is not None:
            self.extra().params = value

    @property
    def _meta(self) -> tuple | None:
        return None if self._x is None else self._x.meta

    @_meta.setter
    def _meta(self, value: tuple | None) -> None:
        if value is not None or self._x is not None:
            self.extra().meta = value

    @property
    def _hooks(self) -> NodeHooks | None:
        return None if self._x is None else self._x.hooks

    def n_outputs(self) -> int:
        x = self._x
        if x is None or x.meta is None or x.meta[1] is None:
            return 1
        return len(x.meta[1])

    def hooks(self) -> NodeHooks:
        x = self.extra()
        h = x.hooks
        if h is None:
            h = x.hooks = NodeHooks()
        return h

    @property
    def metadata(self) -> dict:
        return self.hooks().metadata

    # -- hooks -------------------------------------------------------------------------------
    def register_hook(self, fn: Callable) -> RemovableHandle:
        """`fn(grad_inputs, grad_outputs)` runs after this node computed its input gradients."""
        h = self.hooks()
        if h.post is None:
            h.post = {}
        handle = RemovableHandle(h.post)
        h.post[handle._key] = fn
        return handle

    def register_prehook(self, fn: Callable) -> RemovableHandle:
        """`fn(grad_outputs)` runs before this node; it may return replacement gradients."""
        h = self.hooks()
        if h.pre is None:
            h.pre = {}
        handle = RemovableHandle(h.pre)
        h.pre[handle._key] = fn
        return handle

    def add_tensor_hook(self, output_nr: int, fn: Callable) -> RemovableHandle:
        """A hook registered on the tensor this node produced (`tensor.register_hook`)."""
        h = self.hooks()
        if h.tensor is None:
            h.tensor = {}
        hooks = h.tensor.setdefault(output_nr, {})
        handle = RemovableHandle(hooks)
        hooks[handle._key] = fn
        return handle

    def retain_output(self, output_nr: int, tensor: Any) -> None:
        h = self.hooks()
        if h.retained is None:
            h.retained = {}
        h.retained[output_nr] = weakref.ref(tensor)

    def forget_output(self, output_nr: int, tensor: Any) -> None:
        """Undoes `retain_output` (the tensor moved on to a new grad_fn)."""
        hooks = self._hooks
        retained = hooks.retained if hooks is not None else None
        if retained and output_nr in retained and retained[output_nr]() is tensor:
            del retained[output_nr]

    # -- saved tensors -----------------------------------------------------------------------
    def release(self) -> None:
        if self._saved:
            self._saved = RELEASED

    def saved_values(self) -> tuple:
        """The saved values, after checking nothing saved was modified in place since."""
        saved = self._saved
        if saved is RELEASED:
            raise RuntimeError(FREED_MESSAGE)
        versions = self._versions
        if versions is not None:
            _check_versions(versions, saved, self)
            saved = list(saved)
            for index, _, _, tensor in versions:
                if tensor is not None:
                    saved[index] = tensor
            saved = tuple(saved)
        return saved

    def apply(self, grads: list, backend: Any) -> tuple:  # pragma: no cover - overridden
        raise NotImplementedError


def node_call_method(self: Node, *grads: Any, **kwargs: Any) -> Any:
    """`grad_fn(*grads)`: the gradients for its inputs, as PyTorch computes them
    (`node_call.py`). The `__call__` of every node class but a custom Function's, which
    PyTorch's is not (`callable(grad_fn)` is False there)."""
    return call_node(self, grads, kwargs)


_new = object.__new__


def new_node(cls: type, next_nodes: tuple, nrs: tuple | None = None) -> Node:
    """The one way a node is made: `next_nodes` (a node or None per input), their output
    numbers when any is not 0 (edges to multi-output nodes)."""
    node = _new(cls)
    node._next = next_nodes
    node._seq = _next_seq()
    node._saved = ()
    node._versions = None
    node._buf = None
    if nrs is None:
        node._x = None
    else:
        x = node._x = NodeExtra()
        x.nrs = nrs
    return node


def _check_versions(versions: tuple, saved: tuple, node: Node) -> None:
    """Raises PyTorch's error when a saved tensor was modified in place since it was saved."""
    for index, box, expected, tensor in versions:
        if box[0] != expected:
            item = saved[index] if tensor is None else tensor
            raise RuntimeError(_modified_message(item, box[0], expected, node))


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: gradients arriving here accumulate into `.grad`.

    One per leaf for the leaf's lifetime (`Tensor._accumulator`); it refers to its leaf weakly, so
    the two make no reference cycle (a leaf that nothing else holds is gone, and so is its
    gradient: nothing could read it). As in PyTorch, its sequence number is the largest there
    is (UINT64_MAX): a leaf accumulates as soon as it is ready, before any other ready node. Two
    ready leaves tie, and the ready queue (a binary heap, as std::priority_queue is) orders ties
    by its structure alone: hence `__lt__` is always False."""

    __slots__ = ("_variable",)
    accumulates = True  # (`node_call.call_node` asks)
    __call__ = node_call_method

    def __init__(self, variable: Any) -> None:
        self._next = ()
        self._seq = ACCUMULATE_SEQUENCE_NR
        self._saved = ()
        self._versions = None
        self._x = None
        self._buf = None
        self._variable = weakref.ref(variable)

    @property
    def variable(self) -> Any:
        return self._variable()

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"

    def __lt__(self, other: Any) -> bool:
        return False


ACCUMULATE_SEQUENCE_NR = 2**64 - 1
_refcount = sys.getrefcount


def accumulator(t: Tensor) -> AccumulateGrad:
    """The leaf's AccumulateGrad node, made once. PyTorch makes a new one when no graph
    holds the old one any more, which only shows as the old one's hooks being gone: so a
    node with hooks that nothing else holds is replaced."""
    acc = t._acc
    if acc is None or (acc._x is not None and acc._x.hooks and _refcount(acc) <= 3):
        acc = t._acc = AccumulateGrad(t)
        if t._th is not None:
            acc.extra()  # marks the node: its leaf has hooks (or had them)
    return acc


def make_node_class(
    grad_fn_name: str, op: Any, raw_saved: Callable[[Any, str], Any], apply: Callable | None = None
) -> type:
    """One Node subclass per op, so `type(y.grad_fn).__name__` is PyTorch's name, with its
    `_saved_<name>` and `_raw_saved_<name>` properties (`raw_saved(node, name)` reads the
    latter: `saved_hooks.raw_saved`, given by the op table) and an `apply` of its own, if given
    (the fast layer's, bound to the op's formulas)."""
    ns = {"__slots__": (), "op": op, "__module__": __name__}
    if apply is not None:
        ns["apply"] = apply
    ns.update(saved_properties(op, raw_saved))
    return type(grad_fn_name, (OpNode,), ns)


class OpNode(Node):
    """A node whose backward is an op-table formula.

    `grad_fn._saved_<name>` are properties (each node class has those of its op's saved values
    and parameters, this class those that ops show besides: `SHOWN_NAMES`), not a `__getattr__`:
    CPython 3.11 specializes no attribute access on instances of a class that has one, and the
    backward pass reads node attributes all the time (~6x slower each)."""

    __slots__ = ()
    __call__ = node_call_method

    def saved_attribute(self, key: str) -> Any:
        """`grad_fn._saved_<key>` (`saved_values.saved_attribute`)."""
        return saved_attribute(self, key)

    def apply(self, grads: list, backend: Any) -> list:
        """The gradients for the inputs: each input's formula on the output gradient and the
        saved values (checked against their versions first), None where no gradient flows,
        summed back to the input's shape and cast to its dtype where the forward broadcast or
        promoted. A multi-output node gets zeros for the outputs that received no gradient."""
        args = self._saved
        if args:
            if backend.creates_graph:  # create_graph: the saved Tensors themselves
                args = [backend.unpack(v, self) for v in self.saved_values()]
            else:
                if args is RELEASED:
                    raise RuntimeError(FREED_MESSAGE)
                if self._versions is not None:
                    _check_versions(self._versions, args, self)
        op = self.op
        x = self._x
        params = meta = in_meta = None
        if x is not None:
            params, meta = x.params, x.meta
            if meta is not None:
                in_meta = meta[0]
        g = grads[0] if meta is None or meta[1] is None else _fill_outputs(grads, meta, backend)
        formulas = op.grads
        results = []
        for i, nxt in enumerate(self._next):
            if nxt is None:
                results.append(None)
                continue
            if op.variadic:
                gi = formulas[0](backend, g, i, *args, **(params or {}))
            else:
                gi = formulas[i](backend, g, *args, **(params or {}))
            if in_meta is not None and gi is not None:
                shape, dtype = in_meta[i]
                if shape is not None and (gi.shape != shape or gi.dtype != dtype):
                    gi = backend.conform(gi, shape, dtype)
            results.append(gi)
        return results


for _key in SHOWN_NAMES:
    setattr(OpNode, "_saved_" + _key, saved_property(_key))


def _fill_outputs(grads: list, meta: tuple, backend: Any) -> list:
    """A multi-output node's output gradients, zeros for those that received none."""
    return [
        gi if gi is not None else backend.zeros(shape, dt)
        for gi, (shape, dt) in zip(grads, meta[1])
    ]
