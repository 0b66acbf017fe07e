"""Forward-mode AD's machinery: the tangent of each tensor while a dual level is active, and the
observer (`core/modes.py`) that gives every op's outputs their tangents.

No op has a forward rule of its own: each comes from the op table. An op's backward formulas
compute `v_i = J_i^T g`, linear in the output gradient `g`; run on Tensors (as under
`create_graph`) with a `g` that requires grad, `J t = d<v, t>/dg` for the inputs' tangents `t`
(the double-vjp trick). The op's node is recorded again, with the outputs already computed
(`_Precomputed`: the forward is not run twice, so a random op does not draw again), on fresh
leaves holding the inputs' values, or on the inputs themselves when they require grad (then the
tangent keeps a graph to them: reverse-over-forward; not inside a backward pass, whose nodes a
nested pass must not touch). View ops apply themselves to the tangent (a view of it: in-place
writes through a view reach its base's tangent), as PyTorch's tangents of views are views.
A result a backward pass unpacks under create_graph (same node, same array) has its output's
tangent (`_BY_NODE`), so forward-over-reverse sees the tangents of saved results.

Tangents live in a map from a tensor's id to (a weak reference to it, its tangent), emptied
when the level exits. The observer handles only calls made by the script (`call.depth == 0`):
an op built from other ops gets its tangent from its own formulas once.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..core import backward as backward_pass
from ..core import modes
from ..core.apply import apply_op
from ..core.backward_api import grad
from ..core.grad_mode import GradMode, InferenceMode
from ..core.tensor import Tensor, _wrap
from ..ops.formula_ops import ForwardJacobian
from ..ops.inplace import view_positions

SIZE_MESSAGE = (
    "Trying to set a forward gradient that has a different size than that of the original "
    "Tensor, this is not supported. Tensor is of size {} while the given forward gradient is of "
    "size {}."
)


class Level:
    """The dual level: `current` is 0 while one is active (PyTorch allows one at a time);
    `suspended` counts the regions whose ops get no tangent (a custom Function's forward)."""

    current: int | None = None
    suspended = 0


_TANGENTS: dict[int, tuple[weakref.ref, Tensor]] = {}


# (id(grad_fn), output_nr) -> (weakref to the node, the output's data, its tangent): a saved
# result that a backward under create_graph unpacks as a new Tensor (same node, same array)
# is the same value, so it has the same tangent (forward-over-reverse through saved results)
_BY_NODE: dict[tuple[int, int], tuple[weakref.ref, Any, Tensor]] = {}


def tangent_of(t: Any) -> Tensor | None:
    """The tangent of `t` at the active level, or None."""
    entry = _TANGENTS.get(id(t))
    if entry is not None and entry[0]() is t:
        return entry[1]
    node = getattr(t, "_grad_fn", None)
    if node is not None and _BY_NODE:
        found = _BY_NODE.get((id(node), t._output_nr))
        if found is not None and found[0]() is node and found[1] is t._data:
            return found[2]
    return None


def set_tangent(t: Tensor, tangent: Tensor) -> None:
    key = id(t)
    _TANGENTS[key] = (weakref.ref(t, lambda _, k=key: _forget(k)), tangent)
    _remember_node(t, tangent)


def _remember_node(t: Tensor, tangent: Tensor) -> None:
    node = t._grad_fn
    if node is not None:
        key = (id(node), t._output_nr)
        ref = weakref.ref(node, lambda _, k=key: _BY_NODE.pop(k, None))
        _BY_NODE[key] = (ref, t._data, tangent)


def _forget(key: int) -> None:
    entry = _TANGENTS.get(key)
    if entry is not None and entry[0]() is None:
        del _TANGENTS[key]


def size_error(primal: Tensor, tangent: Tensor) -> RuntimeError:
    return RuntimeError(
        SIZE_MESSAGE.format(list(primal._data.shape), list(np.shape(tangent._data)))
    )


def start() -> None:
    """Enters the level: every op call is watched."""
    Level.current = 0
    modes.push(observe)


def stop() -> None:
    """Exits the level: every tangent is dropped."""
    Level.current = None
    _TANGENTS.clear()
    _BY_NODE.clear()
    modes.pop(observe)


@contextlib.contextmanager
def suspended() -> Iterator[None]:
    """Ops run here get no tangents (a custom Function's forward and jvp)."""
    Level.suspended += 1
    try:
        yield
    finally:
        Level.suspended -= 1


def _repr_items(t: Any) -> list[str]:
    """`tangent=...` in a dual tensor's repr, formatted as PyTorch does (`f"{tangent}"`: a 0-d
    tangent shows as its number)."""
    if Level.current is None or Level.suspended:  # (none shown inside a Function's jvp)
        return []
    tangent = tangent_of(t)
    return [] if tangent is None else [f"tangent={format(tangent, '')}"]


modes.add_repr_suffixes(_repr_items)


# --------------------------------------------------------------------------------------------
# The observer
# --------------------------------------------------------------------------------------------


def observe(call: modes.OpCall, proceed: Callable[[], Any]) -> Any:
    """Runs the op, then gives its floating outputs the tangents its inputs' tangents imply."""
    if call.depth or Level.suspended or not _TANGENTS or InferenceMode.enabled:
        return proceed()  # (inference mode computes no tangent, as PyTorch)
    tangents = [tangent_of(x) if isinstance(x, Tensor) else None for x in call.inputs]
    if all(t is None for t in tangents):
        return proceed()
    for x, t in zip(call.inputs, tangents):  # a tangent resized since (out=, resize_)
        if t is not None and np.shape(t._data) != np.shape(x._data):
            raise size_error(x, t)
    if call.target is not None:
        return _inplace(call, proceed, tangents)
    result = proceed()
    op = call.op
    if op.grads is None:
        return result
    _refuse_without_derivative(call)
    outputs = result if isinstance(result, tuple) else (result,)
    if op.view and _view_tangents(op, call.inputs, call.params, outputs, tangents[0]):
        return result
    found = jvp(op, call.inputs, call.params, outputs, tangents)
    for out, tangent in zip(outputs, found):
        if tangent is not None:
            set_tangent(out, tangent)
    return result


def _refuse_without_derivative(call: modes.OpCall) -> None:
    """PyTorch's error for an op with no derivative at all (a NotImplemented node: floor_divide),
    or with no forward-mode formula (`defop(..., forward_ad=False)`: pdist)."""
    if call.op.grad_fn == "NotImplemented":
        raise NotImplementedError(
            f"Trying to use forward AD with aten::{call.name} that does not support it."
        )
    if not call.op.forward_ad:
        raise NotImplementedError(
            f"Trying to use forward AD with {call.op.aten} that does not support it because it "
            "has not been implemented yet.\nPlease file an issue to PyTorch at "
            "https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so "
            "that we can prioritize its implementation or submit a PR adding the "
            "implementation to derivatives.yaml"
        )


def _view_tangents(op: Any, inputs: tuple, params: Any, outputs: tuple, tangent: Any) -> bool:
    """A view op's tangents: the same view of the input's tangent. False when it does not
    apply (other tensor inputs, no tangent, a layout the view cannot take)."""
    if tangent is None or any(isinstance(x, Tensor) for x in inputs[1:]):
        return False
    try:
        data = op.forward(tangent._data, *inputs[1:], **(params or {}))
    except (ValueError, TypeError, RuntimeError, IndexError):
        return False
    views = data if isinstance(data, tuple) else (data,)
    if len(views) != len(outputs) or any(
        np.shape(v) != o._data.shape for v, o in zip(views, outputs)
    ):
        return False
    for out, view in zip(outputs, views):
        if out._data.dtype.kind == "f":
            set_tangent(out, _wrap(view))
    return True


def _inplace(call: modes.OpCall, proceed: Callable[[], Any], tangents: list) -> Any:
    """An in-place op: the target's new tangent, from its value before and the other inputs,
    written into its tangent (so views sharing it see the change)."""
    target = call.target
    before = _wrap(np.array(target._data, copy=True))
    result = proceed()
    if call.op.grads is None or target._data.dtype.kind != "f":
        return result
    _refuse_without_derivative(call)
    inputs = (before, *call.inputs[1:])
    new = jvp(call.op, inputs, call.params, (target,), tangents)[0]
    if new is not None:
        write_tangent(target, new)
    return result


def write_tangent(target: Tensor, new: Tensor) -> None:
    """Sets `target`'s tangent to `new`'s values: in place when it has one; through its base
    (given a zero tangent first if it has none) when `target` is a view."""
    current = tangent_of(target)
    if current is not None:
        array = current._data
        if (
            isinstance(array, np.ndarray)
            and array.flags.writeable
            and array.shape == np.shape(new._data)
        ):
            np.copyto(array, new._data, casting="unsafe")
            _remember_node(target, current)
            return
    base = target._base
    if current is None and base is not None and base._data.dtype.kind == "f":
        _write_region(base, target, new)
    set_tangent(target, new if current is None else _wrap(np.asarray(new._data, current.dtype.np)))


def _write_region(base: Tensor, view: Tensor, new: Tensor) -> None:
    tangent = tangent_of(base)
    array = None if tangent is None else tangent._data
    if not (isinstance(array, np.ndarray) and array.flags.writeable):
        array = np.zeros(base._data.shape, base._data.dtype) if array is None else np.array(array)
        set_tangent(base, _wrap(array))
    positions = view_positions(view, base)
    array.flat[positions.reshape(-1)] = np.asarray(new._data).reshape(-1)


# --------------------------------------------------------------------------------------------
# J t from the op's backward formulas
# --------------------------------------------------------------------------------------------


class _Precomputed:
    """An op-table entry whose forward gives outputs already computed: `apply_op` records the
    op's node (saved values, parameters, shapes to conform to) without running the op again."""

    __slots__ = ("_op", "_out")

    def __init__(self, op: Any, out: Any) -> None:
        self._op = op
        self._out = out

    def __getattr__(self, name: str) -> Any:
        return getattr(self._op, name)

    def forward(self, /, *args: Any, **kwargs: Any) -> Any:  # (an op's parameter may be `self`)
        return self._out


def jvp(op: Any, inputs: tuple, params: Any, outputs: tuple, tangents: list) -> list:
    """The tangent of each output of `op(*inputs)` (None for those that are not floating)."""
    floating = [o._data.dtype.kind == "f" for o in outputs]
    if not any(floating):
        return [None] * len(outputs)
    rules = op.rules
    if "0" in rules:  # inputs the table says have a zero derivative (floor, round, sign...)
        tangents = [
            None if i < len(rules) and rules[i] == "0" else t for i, t in enumerate(tangents)
        ]
        if all(t is None for t in tangents):
            return [_wrap(np.zeros_like(o._data)) if f else None for o, f in zip(outputs, floating)]
    # the tangent keeps a graph to tangents that require grad, and to primals that do (as
    # PyTorch's tangents: reverse-over-forward) except inside a backward pass (forward-over-
    # reverse), whose nodes a nested pass over the primals' graph must not touch
    differentiable = GradMode.enabled and any(
        (t is not None and t._requires_grad)
        or (isinstance(x, Tensor) and x._requires_grad and not backward_pass._running)
        for x, t in zip(inputs, tangents)
    )
    saved = GradMode.enabled
    GradMode.enabled = True
    ForwardJacobian.depth += 1
    try:
        return _double_vjp(op, inputs, params, outputs, tangents, floating, differentiable)
    finally:
        ForwardJacobian.depth -= 1
        GradMode.enabled = saved


def _leaf(x: Any, tangent: Any, differentiable: bool) -> Any:
    """What the recorded node takes for input `x`: a tensor requiring grad when `x` has a
    tangent (the first vjp differentiates with respect to it), joined to `x`'s own graph when
    the tangent is to keep one."""
    if not isinstance(x, Tensor):
        return x
    if differentiable and x._requires_grad and not backward_pass._running:
        return x if tangent is None else x.view_as(x)
    return _wrap(x._data, tangent is not None and x._data.dtype.kind == "f")


def _double_vjp(
    op: Any,
    inputs: tuple,
    params: Any,
    outputs: tuple,
    tangents: list,
    floating: list,
    differentiable: bool,
) -> list:
    leaves = tuple(_leaf(x, t, differentiable) for x, t in zip(inputs, tangents))
    datas = tuple(o._data for o in outputs)
    recorded = apply_op(_Precomputed(op, datas if op.n_outputs != 1 else datas[0]), leaves, params)
    recorded = recorded if isinstance(recorded, tuple) else (recorded,)
    zeros = [np.zeros(np.shape(o._data), o._data.dtype) for o in outputs]
    gs = [_wrap(z, True) if f else None for z, f in zip(zeros, floating)]
    pairs = [
        (x, t)
        for x, t in zip(leaves, tangents)
        if t is not None and isinstance(x, Tensor) and x._requires_grad
    ]
    vs, ts = _vector_jacobian(recorded, gs, pairs)
    wanted = [g for g in gs if g is not None]
    found: tuple = (None,) * len(wanted)
    if vs:  # J t = d<J^T g, t>/dg: the vjp of the vjps, with the tangents as their gradients
        found = grad(vs, wanted, ts, allow_unused=True, create_graph=differentiable)
    it = iter(found)
    # a wider tangent stays wide through an op (float64 on float32), as PyTorch's formulas
    # compute on it; a conversion (`to`) converts the tangent too
    wider = np.result_type(*(t._data.dtype for t in tangents if t is not None))
    if op.name == "to":
        wider = np.dtype(np.float16)
    result = []
    for g, z in zip(gs, zeros):
        if g is None:
            result.append(None)
            continue
        value = next(it)
        value = _wrap(z) if value is None else value
        if np.result_type(wider, z.dtype) != z.dtype:
            value = _wrap(np.asarray(value._data, np.result_type(wider, z.dtype)))
        result.append(value)
    return result


def _vector_jacobian(recorded: tuple, gs: list, pairs: list) -> tuple[list, list]:
    """`J_i^T g` for each input with a tangent (those that depend on `g`, recorded with their
    graph), and the tangents, in the dtype of the `J_i^T g` they pair with."""
    outs = [o for o, g in zip(recorded, gs) if g is not None and o._requires_grad]
    if not outs or not pairs:
        return [], []
    grads_out = [g for o, g in zip(recorded, gs) if g is not None and o._requires_grad]
    found = grad(outs, [x for x, _ in pairs], grads_out, create_graph=True, allow_unused=True)
    vs, ts = [], []
    for v, (_, t) in zip(found, pairs):
        if v is not None and v._requires_grad:
            vs.append(v)
            ts.append(t if t._data.dtype == v._data.dtype else t.to(v.dtype))
    return vs, ts


# --------------------------------------------------------------------------------------------
# Custom autograd.Function: its own `jvp`
# --------------------------------------------------------------------------------------------


def custom_jvp(cls: Any, ctx: Any, args: tuple, out: Any, result: Any) -> None:
    """The tangents of a custom Function's outputs (`result`, what `apply` returns for the
    forward's `out`): `cls.jvp(ctx, *tangents)` (zeros for a tensor input without one, None for
    other inputs), run with `ctx.saved_tensors` reading what `save_for_forward` kept."""
    tangents = [tangent_of(a) if isinstance(a, Tensor) else None for a in args]
    if all(t is None for t in tangents):
        return
    given = [
        _wrap(np.zeros_like(a._data)) if t is None and isinstance(a, Tensor) else t
        for a, t in zip(args, tangents)
    ]
    ctx._in_jvp = True
    try:
        with suspended():
            found = cls.jvp(ctx, *given)
    finally:
        ctx._in_jvp = False
    outputs = out if isinstance(out, tuple) else (out,)
    finals = result if isinstance(result, tuple) else (result,)
    found = found if isinstance(found, tuple) else (found,)
    if len(found) != len(outputs):
        raise RuntimeError(
            "Function's jvp returned an invalid number of forward gradients (expected "
            f"{len(outputs)} but got {len(found)})"
        )
    for i, (output, final, tangent) in enumerate(zip(outputs, finals, found)):
        if tangent is not None and not isinstance(tangent, Tensor):
            raise RuntimeError(
                f"expected Variable or None (got {type(tangent).__name__}) for grad output {i}."
            )
        if tangent is None or not isinstance(output, Tensor) or output._data.dtype.kind != "f":
            continue
        if np.shape(tangent._data) != output._data.shape:
            raise size_error(output, tangent)
        if tangent._base is None and _is_input_view(output, args):
            raise RuntimeError(
                "A custom Function's forward is returning a view (or an input as-is) but the jvp "
                "is not returning a view."
            )
        set_tangent(final, tangent)


def _is_input_view(output: Tensor, args: tuple) -> bool:
    """Whether `output` is one of the tensor `args` or a view of one."""
    base = output._base
    for a in args:
        if isinstance(a, Tensor) and (
            output is a or (base is not None and (base is a or base is a._base))
        ):
            return True
    return False
