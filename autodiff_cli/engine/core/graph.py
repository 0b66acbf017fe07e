"""Graph nodes: the objects a tensor's `grad_fn` points to.

Every differentiable op has its own `Node` subclass named as PyTorch names it (`MulBackward0`), made
from its entry in the op table. A node keeps `next_functions` (one `(node, output_nr)` edge per input,
`(None, 0)` where the input needs no gradient), the values its backward formula needs (`saved`), and
the hooks registered on it. Leaves that require grad are reached through their `AccumulateGrad` node.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable
from functools import partial
from types import FunctionType
from typing import Any

from . import provided
from .dtypes import NAMES, legacy_type
from .formula_backends import NumpyBackend
from .grad_mode import AnomalyMode

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)

NO_EDGE = (None, 0)
_sequence = itertools.count()
_next_seq = _sequence.__next__
RELEASED = object()  # marks saved values freed after backward


class RemovableHandle:
    """Returned by `register_hook`; `remove()` takes the hook out again."""

    __slots__ = ("_hooks", "_key", "id")
    _ids = itertools.count()

    def __init__(self, hooks: dict) -> None:
        self._hooks = hooks
        self.id = self._key = next(RemovableHandle._ids)

    def remove(self) -> None:
        self._hooks.pop(self._key, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.remove()

    def __repr__(self) -> str:
        return f"<torch.utils.hooks.RemovableHandle object at {id(self):#x}>"


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
    (`node_call.py`, given through `provided`). The `__call__` of every node class but a custom
    Function's, which PyTorch's is not (`callable(grad_fn)` is False there)."""
    return provided.call_node(self, grads, kwargs)


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


def own_copy(fn: Callable) -> Callable:
    """`fn` with a code object of its own. CPython 3.11 caches one type per attribute access
    site: one function reading or storing attributes of nodes of many classes in turn (Mul,
    Add, Mul, ...) misses its cache each time, so each node class gets its own `apply` and
    each op makes its nodes through its own `new_node` (`OpDef.new_node`; 186 -> 129 ns a
    node on alternating classes)."""
    return FunctionType(
        fn.__code__.replace(), fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__
    )


def legacy_type_name(dtype: Any) -> str:
    """How PyTorch names a CPU tensor type in messages: `torch.FloatTensor`, and `CPUBoolType` for
    the types without a legacy class name."""
    name = str(dtype)
    if name == "bool":
        return "CPUBoolType"
    return f"torch.{legacy_type(name)}" if name in NAMES else f"CPU{name.capitalize()}Type"


def _forward_name(node: Node) -> str:
    """PyTorch names the op of a saved output without the Backward suffix: "output 0 of Exp"."""
    name = node.name()
    cut = name.rfind("Backward")
    return name[:cut] if cut > 0 else name


def _check_versions(versions: tuple, saved: tuple, node: Node) -> None:
    """Raises PyTorch's error when a saved tensor was modified in place since it was saved."""
    for index, box, expected, tensor in versions:
        if box[0] != expected:
            item = saved[index] if tensor is None else tensor
            raise RuntimeError(_modified_message(item, box[0], expected, node))


HINT = (
    "enable anomaly detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
ANOMALY_HINT = (  # with anomaly mode on, a warning above shows the forward trace
    "the backtrace further above shows the operation that failed to compute its gradient. The "
    "variable in question was changed in there or anywhere later. Good luck!"
)


def _modified_message(item: Any, version: int, expected: int, node: Node) -> str:
    """PyTorch's message for a saved tensor changed in place; `item` is a Tensor or the saved
    result array of `node` itself."""
    if hasattr(item, "grad_fn"):
        dtype_name, shape, fn, nr = item.dtype.name, item.shape, item.grad_fn, item._output_nr
    else:
        dtype_name, shape, fn, nr = str(item.dtype), item.shape, node, 0
    dims = ", ".join(str(s) for s in shape)
    origin = f", which is output {nr} of {_forward_name(fn)}," if fn is not None else ""
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [torch.{legacy_type(dtype_name)} [{dims}]]{origin} is at "
        f"version {version}; expected version {expected} instead. Hint: "
        + (ANOMALY_HINT if AnomalyMode.enabled else HINT)
    )


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: gradients arriving here accumulate into `.grad`.

    One per leaf for the leaf's lifetime (`Tensor._accumulator`); it refers to its leaf weakly, so
    the two make no reference cycle (a leaf that nothing else holds is gone, and so is its
    gradient: nothing could read it). As in PyTorch, its sequence number is the largest there
    is (UINT64_MAX): a leaf accumulates as soon as it is ready, before any other ready node. Two
    ready leaves tie, and the ready queue (a binary heap, as std::priority_queue is) orders ties
    by its structure alone: hence `__lt__` is always False."""

    __slots__ = ("_variable",)

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


_SAVED_ALIASES = {"self_sym_sizes": "shape", "self_sizes": "shape"}


def _as_saved_tensor(value: Any, node: Node | None) -> Any:
    """Saved values as PyTorch shows them: Python numbers as wrapped 0-d tensors."""
    if value is None or isinstance(value, _Tensor):
        return value
    import numpy as np

    if isinstance(value, (bool, int, float)):
        return _wrap(
            np.asarray(
                value,
                dtype=np.bool_
                if isinstance(value, bool)
                else np.int64
                if isinstance(value, int)
                else np.float64,
            )
        )
    return _wrap(value, node is not None, node, 0)


def make_node_class(grad_fn_name: str, op: Any) -> type:
    """One Node subclass per op, so `type(y.grad_fn).__name__` is PyTorch's name, with its
    `apply` bound to the op's formulas (`_make_apply`) and its `_saved_<name>` properties."""
    plain = op.grads and not op.variadic and op.n_outputs == 1 and len(op.grads) <= 2
    ns = {"__slots__": (), "op": op, "__module__": __name__}
    ns["apply"] = _make_apply(tuple(op.grads) if plain else (), not op.saves)
    saved = ["result" if what == "result" else op.arg_names[what] for what in op.saves]
    for key in {*saved, *_parameter_names(op.forward), *_SAVED_ALIASES}:
        ns["_saved_" + key] = _property("_saved_", key)
    for key in saved:
        ns["_raw_saved_" + key] = _property("_raw_saved_", key)
    return type(grad_fn_name, (OpNode,), ns)


_properties: dict = {}  # one per name, shared by the node classes


def _property(prefix: str, key: str) -> property:
    """The property `grad_fn.<prefix><key>`."""
    found = _properties.get(prefix + key)
    if found is None:
        read = _saved_value if prefix == "_saved_" else _raw_saved_value
        found = _properties[prefix + key] = property(partial(read, key=key))
    return found


def _parameter_names(forward: Callable) -> tuple:
    """The names `forward` takes (an op's parameters are passed to it by name); a ufunc or
    builtin (`np.tanh`, `operator.mul`) takes none (read from the code: `inspect.signature`
    would cost start-up time)."""
    code = getattr(forward, "__code__", None) or getattr(
        getattr(forward, "__wrapped__", None), "__code__", None
    )
    if code is None:
        return ()
    return code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]


def _forward_defaults(forward: Callable) -> dict:
    """The default values of an op's parameters, as its forward declares them."""
    code = getattr(forward, "__code__", None)
    if code is None:
        return {}
    found = dict(forward.__kwdefaults__ or {})
    defaults = forward.__defaults__ or ()
    if defaults:
        names = code.co_varnames[: code.co_argcount]
        found.update(zip(names[len(names) - len(defaults) :], defaults))
    return found


def _saved_value(node: OpNode, key: str) -> Any:
    return node.saved_attribute(key)


def _raw_saved_value(node: OpNode, key: str) -> Any:
    if raw_saved is None:
        raise AttributeError(f"'{type(node).__name__}' object has no attribute '_raw_saved_{key}'")
    return raw_saved(node, key)


class OpNode(Node):
    """A node whose backward is an op-table formula.

    `grad_fn._saved_<name>` are properties (each node class has those of its op's saved values
    and parameters, this class those that ops show besides: `SHOWN_NAMES`), not a `__getattr__`:
    CPython 3.11 specializes no attribute access on instances of a class that has one, and the
    backward pass reads node attributes all the time (~6x slower each)."""

    __slots__ = ()

    def saved_attribute(self, key: str) -> Any:
        shown = SHOWN_SAVED.get(self) if SHOWN_SAVED else None
        if shown is not None and key in shown:
            return shown[key]
        op = self.op
        names = ["result" if what == "result" else op.arg_names[what] for what in op.saves]
        if key in names:
            if self._saved is RELEASED:
                raise RuntimeError(FREED_MESSAGE)
            i = names.index(key)
            value = self._saved[i]
            for index, _, _, tensor in self._versions or ():
                if index == i and tensor is not None:
                    return tensor
            return _as_saved_tensor(value, self if key == "result" else None)
        params = self._params or {}
        key = _SAVED_ALIASES.get(key, key)
        if key not in params:  # a parameter left at its default (`x + y`: `_saved_alpha` is 1)
            params = _forward_defaults(op.forward)
        if key in params:
            value = params[key]
            return tuple(value) if isinstance(value, (list, tuple)) else value
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '_saved_{key}'")

    def _apply_general(self, grads: list, backend: Any, args: Any) -> list:
        """`apply` with parameters, several outputs, a variadic op, or input shapes to conform
        to (`args`: the saved values, checked and unpacked)."""
        op = self.op
        x = self._x
        params = meta = in_meta = None
        if x is not None:
            params, meta = x.params, x.meta
            if meta is not None:
                in_meta = meta[0]
        g = grads[0] if meta is None or meta[1] is None else _fill_outputs(grads, meta, backend)
        formulas = op.grads
        variadic = op.variadic
        results = []
        i = 0
        for nxt in self._next:
            if nxt is None:
                gi = None
            elif variadic:
                gi = (
                    formulas[0](backend, g, i, *args, **params)
                    if params
                    else formulas[0](backend, g, i, *args)
                )
            elif params:
                gi = formulas[i](backend, g, *args, **params)
            else:
                gi = formulas[i](backend, g, *args)
            if in_meta is not None and gi is not None:
                shape, dtype = in_meta[i]
                if shape is not None and (gi.shape != shape or gi.dtype != dtype):
                    gi = backend.conform(gi, shape, dtype)
            results.append(gi)
            i += 1
        return results


def _make_apply(formulas: tuple, saves_nothing: bool = False) -> Callable:
    """The `apply` of a node class: the gradients for the inputs, each input's formula (None
    where no gradient flows), summed back to the input's shape and dtype where the forward
    broadcast or promoted; saved values are checked against their versions first.

    `formulas` are those of a one-output, non-variadic op with one or two inputs, bound here
    once per class: a node without extras (`_x`: no parameters, nothing to conform, no hooks)
    calls them directly, or hands the gradient on where a formula passes it (`pass0`, `pass1`).
    Any other node, and every node when `formulas` is () (`OpNode.apply`, the general path),
    goes through `_apply_general`; tests/test_backward_fast_apply.py checks both paths agree."""
    one = len(formulas) == 1
    two = len(formulas) == 2
    f0 = formulas[0] if one or two else None
    f1 = formulas[1] if two else None
    pass0 = saves_nothing and _passes_gradient(f0)
    pass1 = saves_nothing and _passes_gradient(f1)

    def apply(self: OpNode, grads: list, backend: Any) -> list:
        args = self._saved
        if args:
            if args is RELEASED:
                raise RuntimeError(FREED_MESSAGE)
            versions = self._versions
            if versions is not None:  # saved Tensors and results: unchanged since saved?
                for _, box, expected, _ in versions:
                    if box[0] != expected:
                        _check_versions(versions, args, self)
            if backend is not NumpyBackend:  # create_graph: the saved Tensors themselves
                args = _unpacked(self, backend)
        x = self._x
        if x is None:
            # (the saved values spelled out for the common counts: a call with `*args` builds a
            # tuple and is not inlined by CPython 3.11, 40 ns more a formula)
            if two:
                a, b = self._next
                g = grads[0]
                if len(args) == 2:  # mul, mm, div, ...
                    s0, s1 = args
                    return [
                        None if a is None else f0(backend, g, s0, s1),
                        None if b is None else f1(backend, g, s0, s1),
                    ]
                if not args:  # add, sub
                    return [
                        None if a is None else (g if pass0 else f0(backend, g)),
                        None if b is None else (g if pass1 else f1(backend, g)),
                    ]
                return [
                    None if a is None else f0(backend, g, *args),
                    None if b is None else f1(backend, g, *args),
                ]
            if one:
                (a,) = self._next
                if len(args) == 1:  # tanh, sin, exp, ...
                    return [None if a is None else f0(backend, grads[0], args[0])]
                return [
                    None if a is None else (grads[0] if pass0 else f0(backend, grads[0], *args))
                ]
        elif two and x.params is None and x.meta is not None and x.meta[1] is None:
            # only the inputs' shapes and dtypes to conform to (a broadcast bias)
            (shape_a, dtype_a), (shape_b, dtype_b) = x.meta[0] or ((None, None), (None, None))
            a, b = self._next
            g = grads[0]
            ga = gb = None
            if a is not None:
                ga = g if pass0 else (f0(backend, g, *args) if args else f0(backend, g))
                if shape_a is not None and (ga.shape != shape_a or ga.dtype is not dtype_a):
                    ga = backend.conform(ga, shape_a, dtype_a)
            if b is not None:
                gb = g if pass1 else (f1(backend, g, *args) if args else f1(backend, g))
                if shape_b is not None and (gb.shape != shape_b or gb.dtype is not dtype_b):
                    gb = backend.conform(gb, shape_b, dtype_b)
            return [ga, gb]
        return self._apply_general(grads, backend, args)

    return own_copy(apply)  # a copy of the code per class


def _passes_gradient(formula: Callable | None) -> bool:
    """Whether `formula`, given no saved values or parameters, returns the gradient itself
    (add's, sub's first input's): found by calling it on a probe that supports no operation,
    so that any formula computing something fails."""
    if formula is None:
        return False
    probe = object()
    try:
        return formula(None, probe) is probe
    except Exception:  # noqa: BLE001 - it computes something, or needs more arguments
        return False


def _unpacked(node: OpNode, backend: Any) -> list:
    """The saved values as formulas take them on `backend` (apart from `apply`: a comprehension
    there would make `self` and `backend` cells on every call)."""
    return [backend.unpack(v, node) for v in node.saved_values()]


OpNode.apply = _make_apply(())  # type: ignore[method-assign]
OpNode.__call__ = AccumulateGrad.__call__ = node_call_method  # type: ignore[attr-defined]


# `_saved_<name>` of values ops show besides their formulas' (core/saved_hooks.shows_saved and
# also_shows: tests/test_backward_fast_nodes.py checks every name they are given is here)
SHOWN_NAMES = (
    "condition",
    "dim",
    "dims",
    "index",
    "indices",
    "mask",
    "self",
    "shifts",
    "source",
    "target",
    "total_weight",
    "weight",
)
for _key in SHOWN_NAMES:
    setattr(OpNode, "_saved_" + _key, _property("_saved_", _key))


def _fill_outputs(grads: list, meta: tuple, backend: Any) -> list:
    """A multi-output node's output gradients, zeros for those that received none."""
    return [
        gi if gi is not None else backend.zeros(shape, dt)
        for gi, (shape, dt) in zip(grads, meta[1])
    ]


# `grad_fn._raw_saved_<name>`: core/saved_hooks.py sets it (it imports this module)
raw_saved: Callable[[Any, str], Any] | None = None
# what a node shows as `grad_fn._saved_<name>` besides its formulas' values (an index op's index
# Tensor and dim, noted by `saved_hooks.shows_saved`)
SHOWN_SAVED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

# the Tensor class and its constructor: tensor.py sets them (it imports this module first)
_Tensor: type = object
_wrap: Callable[..., Any] | None = None
