"""The fast layer: short ways through the op machinery for its most frequent calls.

The reference path (`apply.apply_op`, `apply.apply_inplace`, `graph.OpNode.apply`) handles
every call; each function here takes one common case of it directly and hands anything else to
it, with the same results: values, dtypes, grad_fn names, edges, saved values and their
versions, views, version counters, errors (tests/test_engine_fast_layer.py runs the op table
with this layer on and off and compares everything). The ops call the entry points below;
`use_fast_paths(False)` (or `AUTODIFF_REFERENCE_CORE=1` in the environment) makes every one of
them take the reference path, and deleting this module means importing those entry points
from `apply` / `graph` instead.

Each function says what it pays: micro-timings with the layer on and off, on this (loaded)
machine. All together: the scalar chain (50 steps of `(v * 1.01).tanh()`, forward and backward)
1,500 -> 485 µs, 3.1x; bench/run.py's goals (scalar chain <= 0.2x PyTorch, small MLP <= 0.5x)
are met only with the layer on. While a mode watches
op calls (`core/modes.py`) every call takes the reference path, which runs the observers.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from types import FunctionType
from typing import Any

import numpy as np

from . import backward, limits, modes, script_data
from .apply import _forward, _save, apply_op, mark_view
from .apply import apply_inplace as reference_inplace
from .backward import _EMPTY, _accumulate, _add_to, _Pass, _Slots, _store_grad, run_node
from .devices import USED as _META_USED
from .devices import MetaArray, as_meta
from .dtypes import FLOAT_DTYPES as _FLOAT_DTYPES
from .dtypes import FLOAT_SCALAR_TYPES as _FLOAT_SCALARS
from .grad_mode import NO_VERSION, SAVE_INFERENCE_MESSAGE, GradMode
from .graph import AccumulateGrad, NodeExtra, OpNode, _check_versions, accumulator
from .graph import make_node_class as reference_node_class
from .kernels import number_operand
from .limits import SIZE_PARAMS, _Cap
from .saved_values import FREED_MESSAGE, RELEASED
from .tensor import Tensor, _ndarray, _wrap

_refcount = sys.getrefcount
_add = np.add
_enabled = os.environ.get("AUTODIFF_REFERENCE_CORE", "") in ("", "0")
_observed = False  # a mode watches every op call
_general = not _enabled  # every call takes the reference path (this layer off, or observed)


def use_fast_paths(on: bool) -> None:
    """Turns this layer on or off (off: every entry point runs the reference path)."""
    global _enabled
    _enabled = on
    _update()


def fast_paths_enabled() -> bool:
    return _enabled


def _set_observed(on: bool) -> None:
    global _observed
    _observed = on
    _update()


def _update() -> None:
    global _general
    _general = _observed or not _enabled


modes.on_change(_set_observed)


def own_copy(fn: Callable) -> Callable:
    """`fn` with a code object of its own. CPython 3.11 caches one type per attribute access
    site: one function reading or storing attributes of nodes of many classes in turn (Mul,
    Add, Mul, ...) misses its cache each time, so each node class gets its own `apply` and each
    op makes its nodes through its own `new_node` (`OpDef.new_node`). Measured at 186 -> 129 ns
    a node on alternating classes when it was added; on 2026-12-06, with the machine loaded, its
    effect on the small MLP step (183-205 µs either way) was below the noise: kept on the earlier
    measurement, the first to drop if a quiet run shows it pays nothing."""
    return FunctionType(
        fn.__code__.replace(), fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__
    )


# -- forward: element-wise binary ops, a tensor and a float, unary ops, views -----------------


def _acc_of(x: Tensor) -> Any:
    """The node a Tensor that requires grad sends its gradient to (`apply.grad_node`)."""
    fn = x._grad_fn
    if fn is not None:
        return fn
    acc = x._acc
    return acc if acc is not None and acc._x is None else accumulator(x)


def apply_binary(op: Any, a: Tensor, b: Any) -> Tensor:
    """`apply_op(op, (a, b))` for a Tensor with a Tensor of the same dtype (element-wise ops,
    and `mm`, an `exact_grads` op whose caller checked its shapes, dtypes and output size) or a
    Python float (`apply_number`): no promotion, no generic loops over inputs. Pays 6.9 -> 3.8
    µs a `x * y` of 4x4 float32 tensors with a graph (1.8x)."""
    if _general:
        return apply_op(op, (a, b))
    ad, cls = a._data, b.__class__
    if cls is Tensor:
        bd = b._data
        b_grad = b._requires_grad
        dtype = None  # the inputs' dtype, read for element-wise ops on arrays only
        if op.exact_grads:
            pass  # mm: everything is checked; its result has its inputs' dtype and no broadcast
        elif (
            ad.__class__ is not _ndarray
            and ad.__class__ is bd.__class__
            and ad.__class__ in _FLOAT_SCALARS
        ):
            pass  # two numpy float scalars of one class (0-d tensors): one dtype, no shapes
        else:
            dtype = ad.dtype
            if (dtype is not bd.dtype and dtype != bd.dtype) or _META_USED[0]:
                return apply_op(op, (a, b))  # promotion; devices (meta) checked there
            shape_a, shape_b = ad.shape, bd.shape  # (read once: a new tuple each time)
            if shape_a != shape_b:  # the product of the sizes bounds the output's
                n, m = ad.size, bd.size
                if not (n and m and n * m <= _Cap.max_elements):
                    limits.check_broadcast_arrays(ad, bd)
    elif cls is float:
        return apply_number(op, a, b)
    else:
        return apply_op(op, (a, b))
    binary = op.binary  # (a callable in a slot: read, then called, is faster than a method call)
    try:
        out = binary(ad, bd)
    except ValueError:
        out = _forward(op, [ad, bd], None)
    if not ((a._requires_grad or b_grad) and GradMode.enabled):
        return _wrap(out)
    # only a floating result is recorded (an input requiring grad is floating: so is its dtype)
    if dtype is not None:
        out_dtype = out.dtype
        if out_dtype is not dtype and out_dtype not in _FLOAT_DTYPES:
            return _wrap(out)
    elif out.__class__ is not ad.__class__ and not op.exact_grads and out.dtype.kind != "f":
        return _wrap(out)
    new_node = op.new_node
    na = a._grad_fn  # `_acc_of` inlined: the node each input's gradient flows to
    if na is None and a._requires_grad:
        na = a._acc
        if na is None or na._x is not None:
            na = accumulator(a)
    nb = None
    if b_grad:
        nb = b._grad_fn
        if nb is None:
            nb = b._acc
            if nb is None or nb._x is not None:
                nb = accumulator(b)
    node = new_node(
        op.node_cls or op.node_class(),
        (na, nb),
        None if not (a._output_nr or (b_grad and b._output_nr)) else _binary_nrs(a, b),
    )
    result = _wrap(out, True, node)
    if dtype is not None:  # broadcast inputs keep their shapes for the backward
        shape = out.shape
        if shape_a != shape or shape_b != shape:
            meta = (((shape_a, dtype), (shape_b, bd.dtype)), None)
            if node._x is None:  # (else it holds the edges' output numbers, which must stay:
                node._x = NodeExtra(meta)  # an edge to a multi-output node, as `w, b = p` makes)
            else:
                node._x.meta = meta
    if op.cross_saves:  # mul, mm: each input is saved only for the other's gradient
        _save_crossed(node, a, b, b_grad)
    elif op.saves:
        _save(node, op, (a, b), result)
    return result


def _version_entry(x: Tensor, i: int) -> tuple:
    box = x._vbox
    if box is None:
        box = x._vbox = [0]
    elif box is NO_VERSION:
        raise RuntimeError(SAVE_INFERENCE_MESSAGE)
    return (i, box, box[0], x)


def _save_crossed(node: Any, a: Tensor, b: Tensor, b_grad: bool) -> None:
    """mul, mm of two Tensors: each is saved, with its version, only for the other's gradient
    (what `apply._save` finds from the formulas' reads, spelled out)."""
    if not b_grad:
        node._saved = (None, b._data)
        node._versions = (_version_entry(b, 1),)
    elif a._requires_grad:
        node._saved = (a._data, b._data)
        node._versions = (_version_entry(a, 0), _version_entry(b, 1))
    else:
        node._saved = (a._data, None)
        node._versions = (_version_entry(a, 0),)


def _binary_nrs(a: Tensor, b: Any) -> tuple:
    """The output numbers of a binary op's edges, when one leads to a multi-output node."""
    nr_b = b._output_nr if b.__class__ is Tensor and b._grad_fn is not None else 0
    return (a._output_nr if a._grad_fn is not None else 0, nr_b)


# the last `(None, number)` a product by a number saved: a loop's constant keeps one tuple
_last_scalar_saves: list = [None, (None, None)]


def apply_number(op: Any, a: Tensor, b: float) -> Tensor:
    """`apply_op(op, (a, b))` of a Tensor and a Python float: the op's `on_number`."""
    return (op.on_number or op.number_call())(a, b)


def number_applier(op: Any) -> Callable[[Tensor, float], Tensor]:
    """The op's `apply_number` (`OpDef.on_number`, which its operators call directly):
    `apply_op(op, (a, b))` of a floating Tensor and a Python float (`y * 1.0001`, `p.grad *
    0.1`): only `a` can need a gradient, nothing broadcasts or promotes, and the float goes to
    numpy as a 0-d array of `a`'s dtype (`kernels.number_operand`). Pays 12.7 -> 1.3 µs a `x *
    1.5` with a graph (the reference promotes and checks sizes: 9.8x); the op's fields bound
    here rather than read on each call: the scalar chain (a product by a float and a sum with
    one per step) 1.51 -> 1.39 µs an op."""
    binary = op.binary
    new_node = op.new_node
    cross_saves = op.cross_saves
    saves = op.saves
    node_cls = None  # (made on the first call that records: `OpDef.node_class`)

    def on_number(a: Tensor, b: float) -> Tensor:
        nonlocal node_cls
        if _general:
            return apply_op(op, (a, b))
        ad = a._data
        cls = ad.__class__
        if cls in _FLOAT_SCALARS:
            out = binary(ad, b)
        elif cls is _ndarray:
            dtype = ad.dtype
            if dtype not in _FLOAT_DTYPES:
                return apply_op(op, (a, b))
            out = binary(ad, number_operand(b, dtype))  # (the float as a 0-d array: kernels)
        else:
            return apply_op(op, (a, b))
        if not (a._requires_grad and GradMode.enabled):
            return _wrap(out)
        fn = a._grad_fn
        if node_cls is None:
            node_cls = op.node_class()
        node = new_node(
            node_cls,
            (fn if fn is not None else _acc_of(a), None),
            (a._output_nr, 0) if fn is not None and a._output_nr else None,
        )
        result = _wrap(out, True, node)
        if cross_saves:  # mul: `b` is saved for `a`'s gradient, as `(None, b)`
            last = _last_scalar_saves  # the same tuple while `b` is the same object (a loop's
            if last[0] is not b:  # constant)
                last[0] = b
                last[1] = (None, b)
            node._saved = last[1]
        elif saves:
            _save(node, op, (a, b), result)
        return result

    return own_copy(on_number)


_RESULT_ONLY = ("result",)


def apply_unary(op: Any, x: Tensor) -> Tensor:
    """`apply_op(op, (x,))` of a one-input, one-output op without parameters (tanh, exp,
    relu...): no loops over inputs, the result saved directly. Pays 2.8 -> 1.5 µs a `x.tanh()`
    with a graph (1.8x; the scalar chain's tanh, the small MLP's activation)."""
    if _general:
        return apply_op(op, (x,))
    data = x._data
    forward = op.forward
    out = forward(data)
    if data.__class__ is MetaArray:
        out = as_meta(out)
    if not (x._requires_grad and GradMode.enabled) or op.view:
        return apply_op(op, (x,)) if op.view else _wrap(out)
    out_dtype = None  # (read once, for an array)
    if out.__class__ not in _FLOAT_SCALARS:
        out_dtype = out.dtype
        if out_dtype not in _FLOAT_DTYPES:
            return _wrap(out)
    fn = x._grad_fn
    new_node = op.new_node
    node = new_node(
        op.node_cls or op.node_class(),
        (fn if fn is not None else _acc_of(x),),
        (x._output_nr,) if fn is not None and x._output_nr else None,
    )
    result = _wrap(out, True, node)
    # (numpy scalars of one class have one dtype and no shape: nothing to compare)
    if data.__class__ is not out.__class__ or data.__class__ is _ndarray:
        if out_dtype is None:
            out_dtype = out.dtype
        dtype = data.dtype
        if data.shape != out.shape or (dtype is not out_dtype and dtype != out_dtype):
            node.extra().meta = (((data.shape, dtype),), None)
    saves = op.saves
    if saves == _RESULT_ONLY:  # tanh, sigmoid, exp, ...: the output and its version
        box = result._vbox = [0]
        node._saved = (out,)
        node._versions = ((0, box, 0, None),)
    elif saves:
        _save(node, op, (x,), result)
    return result


def apply_view(op: Any, x: Tensor, params: dict | None = None) -> Any:
    """`apply_op(op, (x,), params)` of a view op with one output, nothing saved and params that
    cannot enlarge it (t, transpose, view, unsqueeze, select...): no size check, no
    promotion. Pays 4.0 -> 1.6 µs a `w.t()` with a graph (2.5x; an MLP layer's transpose)."""
    if _general or op.n_outputs != 1 or op.saves:
        return apply_op(op, (x,), params)
    if params:
        params = script_data.params(params, op.name)
        if not SIZE_PARAMS.isdisjoint(params):
            return apply_op(op, (x,), params)
    data = x._array()  # (materialised first, so that the view aliases it)
    out = op.forward(data, **params) if params else op.forward(data)
    if data.__class__ is MetaArray:
        out = as_meta(out)
    if x._requires_grad and GradMode.enabled and out.dtype.kind == "f":
        fn = x._grad_fn
        node = op.new_node(
            op.node_cls or op.node_class(),
            (fn if fn is not None else _acc_of(x),),
            (x._output_nr,) if fn is not None and x._output_nr else None,
        )
        extra = node._x
        if extra is None:
            extra = node._x = NodeExtra()
        if params and op.keeps_params:
            extra.params = params
        if data.shape != out.shape:
            extra.meta = (((data.shape, data.dtype),), None)
        result = _wrap(out, True, node)
    else:
        result = _wrap(out)
    mark_view(result, x)
    return result


# -- in-place writes that record nothing ------------------------------------------------------


def apply_inplace(op: Any, target: Tensor, inputs: tuple, params: dict | None = None) -> Tensor:
    """`apply.apply_inplace` of `+=`, `-=`, `*=` (and add_, sub_, mul_) that records nothing
    (no_grad, or nothing requires grad) and needs no promotion: one ufunc with `out=` writes
    straight into the target's array. Pays 8.2 -> 1.1 µs a `p.sub_(g)` under no_grad (7.7x;
    every SGD update of a parameter)."""
    ufunc = op.inplace_ufunc
    if ufunc is None or params or len(inputs) != 1 or _general:
        return reference_inplace(op, target, inputs, params)
    other = inputs[0]
    array = target._data
    if GradMode.enabled and (
        target._requires_grad
        or target._base is not None
        or (other.__class__ is Tensor and other._requires_grad)
    ):
        return reference_inplace(op, target, inputs, params)
    if array.__class__ is not _ndarray:
        return reference_inplace(op, target, inputs, params)
    if other.__class__ is Tensor:
        other = other._data
        if other.dtype is not array.dtype:  # (else the reference path compares them)
            return reference_inplace(op, target, inputs, params)
    elif other.__class__ is float and array.dtype in _FLOAT_DTYPES:
        other = number_operand(other, array.dtype)
    else:
        return reference_inplace(op, target, inputs, params)
    try:
        ufunc(array, other, array)  # (`out` by position: 50 ns less)
    except (ValueError, TypeError):  # read-only, or a shape that does not fit: it reports
        return reference_inplace(op, target, inputs, params)
    box = target._vbox
    if box is None:
        target._vbox = [1]
    else:
        box[0] += 1
    return target


def fill_without_graph(target: Tensor, value: Any) -> bool:
    """`zero_`/`fill_` when nothing can be recorded or refused (no grad mode, or a tensor that
    neither requires grad nor is a view): the value written straight into the array. False
    when the reference path must run (it records the write, or reports why it is refused).
    Pays 4.9 -> 0.3 µs a `p.zero_()` (`optimizer.zero_grad(set_to_none=False)` per parameter)."""
    data = target._data
    if (
        _general
        or data.__class__ is not _ndarray
        or (GradMode.enabled and (target._requires_grad or target._base is not None))
    ):
        return False
    try:
        data.fill(value)
    except (ValueError, TypeError, OverflowError):
        return False
    box = target._vbox
    if box is None:
        target._vbox = [1]
    else:
        box[0] += 1
    return True


# -- backward: a node's apply bound to its formulas --------------------------------------------


def make_node_class(grad_fn_name: str, op: Any, raw_saved: Callable[[Any, str], Any]) -> type:
    """`graph.make_node_class` with `apply` bound to the op's formulas (`_bound_apply`) for a
    one-output, non-variadic op of one or two inputs."""
    plain = op.grads and not op.variadic and op.n_outputs == 1 and len(op.grads) <= 2
    apply = _bound_apply(tuple(op.grads) if plain else (), not op.saves)
    return reference_node_class(grad_fn_name, op, raw_saved, apply)


_reference_apply = OpNode.apply


def _bound_apply(formulas: tuple, saves_nothing: bool) -> Callable:
    """The `apply` of a node class with `formulas` bound once per class: a node without extras
    (`_x`: no parameters, nothing to conform, no hooks) calls them directly, or hands the
    gradient on where a formula passes it (`pass0`, `pass1`); a node with only input shapes to
    conform to (a broadcast bias) conforms them here. Anything else runs `OpNode.apply`. Pays
    6.7 -> 5.9 µs a step of the scalar chain's backward (two nodes: 13%)."""
    one = len(formulas) == 1
    two = len(formulas) == 2
    f0 = formulas[0] if one or two else None
    f1 = formulas[1] if two else None
    pass0 = saves_nothing and _passes_gradient(f0)
    pass1 = saves_nothing and _passes_gradient(f1)
    general = _reference_apply

    def apply(self: OpNode, grads: list, backend: Any) -> list:
        if _general or not (one or two) or backend.creates_graph:
            return general(self, grads, backend)
        args = self._saved
        if args:
            if args is RELEASED:
                raise RuntimeError(FREED_MESSAGE)
            versions = self._versions
            if versions is not None:  # saved Tensors and results: unchanged since saved?
                for _, box, expected, _ in versions:
                    if box[0] != expected:
                        _check_versions(versions, args, self)
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
            (a,) = self._next
            if len(args) == 1:  # tanh, sin, exp, ...
                return [None if a is None else f0(backend, grads[0], args[0])]
            return [None if a is None else (grads[0] if pass0 else f0(backend, grads[0], *args))]
        if two and x.params is None and x.meta is not None and x.meta[1] is None:
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
        return general(self, grads, backend)

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


# -- backward: the plain schedule -------------------------------------------------------------


def run_backward(
    roots: Any,
    root_grads: list,
    retain_graph: bool | None,
    create_graph: bool,
    inputs: Any = None,
    accumulate: bool = True,
) -> list | None:
    """`backward.run_backward` with the plain schedule (`_schedule`)."""
    return backward.run_backward(
        roots, root_grads, retain_graph, create_graph, inputs, accumulate, _schedule
    )


def _schedule(p: Any, order: list, roots: list, nrs: list, root_grads: list) -> None:
    """Runs the reached nodes newest first (`order`), which is the order of PyTorch's ready
    queue whenever the order of leaves made ready together does not show (no reached leaf has
    hooks, no profiler watches nodes): no heap, no edge counts but the leaves', the common
    node's gradients handed on inline (tests/test_engine_backward_order.py compares the two
    orders). Pays 5.9 -> 2.9 µs a step of the scalar chain's backward (2x)."""
    if _general or backward.NODE_WATCH or _leaf_order_observable(p.accs):
        backward.execute_ready_queue(p, order, roots, nrs, root_grads)
        return
    _deliver(roots, nrs, root_grads, p)
    _execute(p, order)


def _leaf_order_observable(accs: dict) -> bool:
    """True when a reached leaf has hooks (a leaf with hooks gives its AccumulateGrad extras):
    then the order of leaves made ready together shows, and the pass follows PyTorch's ready
    queue exactly (`_execute_ready_queue`)."""
    for acc in accs:
        if acc._x is not None:
            return True
    return False


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
                    _accumulate_fast(
                        nxt, total, p, 3 if total is g else 1
                    )  # (`outs`, `g`, `total`)
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
        _accumulate_fast(acc, total, p, 4 if total is g else 1)


def _accumulate_fast(node: AccumulateGrad, g: Any, p: Any, held: int) -> None:
    """`backward._accumulate` of a leaf without hooks, outside `inputs=`: a first gradient
    nothing else refers to becomes `.grad` as it is (PyTorch's AccumulateGrad steals it), a
    later one is added in place. `held`: how many references to `g` the caller holds."""
    if node._x is not None or p.captures is not None:
        return _accumulate(node, g, p, held)
    var = node._variable()
    if var is None:
        return None  # the leaf is gone: nobody can read its gradient
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
                    return None
        else:
            data = current._data
            if data.__class__ is _ndarray:
                try:
                    _add(data, g, out=data, casting="unsafe")
                except ValueError:  # a read-only `.grad`: `_store_grad` says why or copies
                    _store_grad(var, g, p.backend)
                    return None
                box = current._vbox
                if box is None:
                    current._vbox = [1]
                else:
                    box[0] += 1
                return None
    _store_grad(var, g, p.backend)
    return
