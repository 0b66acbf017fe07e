"""The op machinery every op goes through (the Tensor class is `core/tensor.py`).

`apply_op` runs one op: unwrapping inputs, dtype promotion, the size limits, the forward, the
grad-mode check, building the graph node (edges, saved values and their versions, the
shapes/dtypes needed to reduce broadcast gradients) and wrapping outputs; `apply_inplace` runs
one with its first input as the target it writes into. This is the reference path: the short
ways the operators take for their most frequent calls are `core/fast_paths.py`, each handing
anything else to the functions here. The ops themselves are declared in `engine/ops/`. While a
mode watches op calls (`core/modes.py`), every call runs the mode's observers.
"""

from __future__ import annotations

from typing import Any
from weakref import ref as _weakref

import numpy as np

from . import dtypes, limits, modes, script_data
from .devices import USED as _META_USED
from .devices import MetaArray, as_meta
from .dtypes import NP_BOOL
from .grad_mode import NO_VERSION, SAVE_INFERENCE_MESSAGE, GradMode
from .graph import NO_EDGE, Node, accumulator
from .tensor import (
    LEAF_INPLACE_MESSAGE,
    OVERLAP_MESSAGE,
    VIEW_OF_LEAF_MESSAGE,
    Tensor,
    _generic,
    _ndarray,
    _type_word,
    _wrap,
    broadcast_error,
)


def _forward(op: Any, datas: list, params: dict | None) -> Any:
    """Runs a forward; numpy's broadcasting ValueError becomes PyTorch's RuntimeError. Once a
    script has made meta tensors, an op with a meta input gives meta outputs."""
    try:
        out = op.forward(*datas, **params) if params else op.forward(*datas)
    except ValueError as e:
        if "broadcast" in str(e):
            raise broadcast_error([getattr(d, "shape", ()) for d in datas]) from None
        raise
    if _META_USED[0]:
        return _meta_outputs(out, datas)
    return out


def _meta_outputs(out: Any, datas: list) -> Any:
    """`out` as meta data when an input is meta (PyTorch's refusal when another input is a CPU
    tensor of one or more dimensions: only 0-d CPU tensors mix with meta ones)."""
    metas = [type(d) is MetaArray for d in datas]
    if not any(metas):
        return out
    for d, meta in zip(datas, metas):
        if not meta and type(d) is _ndarray and d.ndim:
            here, expected = ("cpu", "meta") if metas[0] else ("meta", "cpu")
            raise RuntimeError(f"Tensor on device {here} is not on the expected device {expected}!")
    return as_meta(out)


def promote(datas: list, inputs: tuple) -> tuple[list, np.dtype]:
    """Casts the operands of an op to PyTorch's result type; returns them and that dtype."""
    first = None
    same = True
    for x in inputs:
        if isinstance(x, Tensor):
            dt = x._data.dtype
            if first is None:
                first = dt
            elif dt != first:
                same = False
                break
    if first is None:
        return datas, dtypes.get_default_dtype().np
    if same:
        # only Python numbers can still promote: a float number with an integer/bool tensor
        kind = first.kind
        for x in inputs:
            if not isinstance(x, Tensor) and x is not None:
                if kind == "f":
                    continue
                sdt = dtypes.scalar_np_dtype(x)
                if sdt.kind == "f" or (kind == "b" and sdt != NP_BOOL):
                    same = False
                    break
        if same:
            return (_wrapped_ints(datas, first) if kind in "iu" else datas), first
    dims, zeros, scalars = [], [], []
    for x in inputs:
        if isinstance(x, Tensor):
            (dims if x._data.ndim else zeros).append(x._data.dtype)
        elif x is not None:
            scalars.append(dtypes.scalar_np_dtype(x))
    target = dtypes.result_type(dims, zeros, scalars)
    out = []
    for d in datas:
        if isinstance(d, (_ndarray, _generic)) and d.dtype != target:
            d = d.astype(target)
        out.append(d)
    return (_wrapped_ints(out, target) if target.kind in "iu" else out), target


def as_default_float(t: Tensor) -> Tensor:
    """An integer or bool tensor as the default float dtype, where PyTorch's result type beside
    a float number is that dtype (it cannot require grad: no graph to keep); others as they are."""
    if t._data.dtype.kind in "biu":
        return _wrap(np.asarray(t._data, dtypes.get_default_dtype().np))
    return t


def _wrapped_ints(datas: list, dtype: np.dtype) -> list:
    """Python ints beside integer tensors, cast to their dtype as PyTorch casts them."""
    return [dtypes.wrapped_int(d, dtype) if d.__class__ is int else d for d in datas]


def _edge(x: Tensor) -> tuple:
    """`x`'s edge as a `(node, output_nr)` pair (NO_EDGE when it needs no gradient)."""
    fn = x._grad_fn
    if fn is not None:
        return (fn, x._output_nr)
    if x._requires_grad:
        return (accumulator(x), 0)
    return NO_EDGE


def grad_node(x: Tensor) -> Node | None:
    """The node `x`'s gradient flows to: its grad_fn, its AccumulateGrad, or None."""
    fn = x._grad_fn
    if fn is not None:
        return fn
    if x._requires_grad:
        acc = x._acc
        return acc if acc is not None and acc._x is None else accumulator(x)
    return None


def _new_node(op: Any, edges: tuple) -> Node:
    """A node of `op` with `(node, output_nr)` edges."""
    node = op.new_node(op.node_cls or op.node_class(), ())
    node.next_functions = edges
    return node


def _node_for(op: Any, inputs: tuple) -> Node:
    """A node of `op` whose edges lead from each Tensor of `inputs` (None for the others)."""
    nodes = []
    nrs = None
    for i, x in enumerate(inputs):
        if isinstance(x, Tensor):
            nodes.append(grad_node(x))
            if x._output_nr and x._grad_fn is not None:
                nrs = nrs or [0] * len(inputs)
                nrs[i] = x._output_nr
        else:
            nodes.append(None)
    cls = op.node_cls or op.node_class()
    return op.new_node(cls, tuple(nodes), None if nrs is None else tuple(nrs))


# operands that reach a formula as they are (anything else goes through `script_data.operand`)
_PLAIN_OPERANDS = frozenset({float, int, bool, type(None)})


def apply_op(op: Any, inputs: tuple, params: dict | None = None, _watched: bool = False) -> Any:
    """Runs `op` forward on `inputs` (Tensors or Python numbers) and records it in the graph."""
    if params:
        params = script_data.params(params, op.name)
    if _OBSERVED and not _watched:
        return modes.observe(op, inputs, params, None, _proceed(apply_op, op, inputs, params))
    if op.view:
        inputs[0]._array()  # (materialised first, so that the view aliases it)
    datas = []
    needs_grad = False
    first_dtype = None
    uniform = True  # every input a Tensor of one dtype: nothing to promote
    for x in inputs:
        if isinstance(x, Tensor):
            d = x._data
            datas.append(d)
            if x._requires_grad:
                needs_grad = True
            if first_dtype is None:
                first_dtype = d.dtype
            elif uniform and d.dtype != first_dtype:
                uniform = False
        else:
            datas.append(x if type(x) in _PLAIN_OPERANDS else script_data.operand(x, op.name))
            uniform = False
    if op.promotes and not uniform and len(inputs) > 1:
        datas, _ = promote(datas, inputs)
    if params or len(datas) > 1:
        limits.check_op_output(op, datas, params)
    out = _forward(op, datas, params)
    if not (needs_grad and GradMode.enabled and op.grads is not None) or not _floating(out):
        result = _wrap(out) if op.n_outputs == 1 else tuple(_wrap(o) for o in out)
        if op.view:
            mark_view(result, inputs[0])
        return result
    node = _node_for(op, inputs)
    if params and op.keeps_params:
        node.extra().params = params
    if op.n_outputs == 1:
        result = _wrap(out, True, node, 0)
        out_shape, out_dtype = out.shape, out.dtype
        out_meta = None
    else:
        result = _wrap_outputs(out, node)
        out_shape = out_dtype = None
        out_meta = tuple((o.shape, o.dtype) for o in out)
    in_meta = None
    for x in () if op.exact_grads else inputs:
        if isinstance(x, Tensor) and (x._data.shape != out_shape or x._data.dtype != out_dtype):
            in_meta = tuple(
                (x._data.shape, x._data.dtype) if isinstance(x, Tensor) else (None, None)
                for x in inputs
            )
            break
    if in_meta is not None or out_meta is not None:
        node.extra().meta = (in_meta, out_meta)
    if op.saves:
        _save(node, op, inputs, result)
    if op.view:
        mark_view(result, inputs[0])
    return result


def _wrap_outputs(outs: tuple, node: Node) -> tuple:
    """The outputs of a multi-output node (apart from `apply_op`, which keeps no cells); an
    integer output (lu_factor's pivots) is never differentiable, so has no grad_fn."""
    return tuple(
        [_wrap(o, True, node, i) if o.dtype.kind == "f" else _wrap(o) for i, o in enumerate(outs)]
    )


def _floating(out: Any) -> bool:
    if isinstance(out, tuple):
        return any(o.dtype.kind == "f" for o in out)
    return out.dtype.kind == "f"


def mark_view(result: Any, source: Tensor) -> None:
    """Outputs of a view op share their base's data and version counter, as in PyTorch, and
    the base keeps weak references to them: an in-place write to the base regenerates their
    histories (`ops/inplace.py`)."""
    base = source._base if source._base is not None else source
    box = source._version_box()
    views = base._views
    if views is None:
        views = base._views = []
    else:
        n = len(views)
        if n >= 64 and not n & (n - 1):  # at 64, 128, 256...: drop the dead (amortised O(1))
            views[:] = [ref for ref in views if ref() is not None]
    for out in result if isinstance(result, tuple) else (result,):
        out._base = base
        out._vbox = box
        views.append(_weakref(out))
    if not GradMode.enabled and base._requires_grad:
        base._note_no_grad_views(result)  # (ops/inplace.py attaches it)


def _version_entry(x: Tensor, i: int) -> tuple:
    """The entry of input `x`, saved as saved value number `i`, in a node's `_versions`: its
    version box, the version it has now, and `x` itself (for the version check,
    `_saved_self`, create_graph). Inference tensors cannot be saved."""
    box = x._vbox
    if box is None:
        box = x._vbox = [0]
    elif box is NO_VERSION:
        raise RuntimeError(SAVE_INFERENCE_MESSAGE)
    return (i, box, box[0], x)


def _save(node: Node, op: Any, inputs: tuple, result: Any) -> None:
    """Saves what the formulas of the inputs that require grad read, with the version each
    saved tensor had (the others' saved values are None, as PyTorch leaves them unsaved)."""
    # a recorded call of one input: it requires grad, nothing is skipped
    skip: Any = () if len(inputs) == 1 else _unneeded(op, inputs)
    versions: list = []
    saved = []
    for i, what in enumerate(op.saves):
        if i in skip:
            saved.append(None)
        elif what == "result":
            box = result._vbox = [0]
            saved.append(result._data)
            versions.append((i, box, 0, None))
        else:
            x = inputs[what]
            if isinstance(x, Tensor):
                versions.append(_version_entry(x, i))
                x = x._data
            saved.append(x)
    node._saved = tuple(saved)
    node._versions = tuple(versions) if versions else None


def _unneeded(op: Any, inputs: tuple) -> Any:
    """The saved values no gradient of this call reads (nothing when every input needs one)."""
    needs = op.needs if op.needs is not None else op.formula_reads()
    if not needs:
        return ()
    wanted: set = set()
    every = True
    for reads, x in zip(needs, inputs):
        if isinstance(x, Tensor) and x._requires_grad:
            wanted |= reads
        else:
            every = False
    if every or len(wanted) == len(op.saves):  # (e.g. a loss: its input's gradient reads all)
        return ()
    return set(range(len(op.saves))) - wanted


def leaf_inplace_error(target: Tensor) -> RuntimeError:
    """PyTorch's error for modifying a leaf that requires grad in place (worded for a view)."""
    return RuntimeError(VIEW_OF_LEAF_MESSAGE if target._base is not None else LEAF_INPLACE_MESSAGE)


def overlaps(data: np.ndarray) -> bool:
    """True when several elements of `data` share memory (an expanded tensor)."""
    return any(s == 0 and n > 1 for s, n in zip(data.strides, data.shape))


def apply_inplace(
    op: Any, target: Tensor, inputs: tuple, params: dict | None = None, _watched: bool = False
) -> Tensor:
    """Runs `op` with `target` as its first input and writes the result into `target`."""
    if params:
        params = script_data.params(params, op.name)
    if _OBSERVED and not _watched:
        proceed = _proceed(apply_inplace, op, target, inputs, params)
        return modes.observe(op, (target, *inputs), params, target, proceed)
    recording = GradMode.enabled
    if recording:
        if target._requires_grad and target._grad_fn is None:
            raise leaf_inplace_error(target)
        data = target._data
        if data.__class__ is _ndarray and not data.flags.writeable and overlaps(data):
            raise RuntimeError(OVERLAP_MESSAGE)  # e.g. the expanded gradient a hook receives
        if target._base is not None:
            return target._inplace_on_view(op, inputs, params)  # (ops/inplace.py attaches it)
        recording = target._requires_grad or _any_requires_grad(inputs)
    if not recording:
        return _inplace_without_graph(op, target, inputs, params)
    before = _wrap(target._data, target._requires_grad, target._grad_fn, target._output_nr)
    result = apply_op(op, (before, *inputs), params)
    data = result._data
    if data.dtype != target._data.dtype:
        if not np.can_cast(data.dtype, target._data.dtype, casting="same_kind"):
            raise RuntimeError(
                f"result type {_type_word(data.dtype)} can't be cast to the desired output type "
                f"{_type_word(target._data.dtype)}"
            )
        data = data.astype(target._data.dtype)
    array = target._array()
    # `before` keeps the old array if a backward formula saved it; copy it out first
    node = result._grad_fn
    if node is not None and node._versions is not None:
        _snapshot(node, before)
    _write(array, data, "same_kind")
    target._bump_version()
    if node is not None:
        target._set_history(node)
        if node._versions is not None and "result" in op.saves:
            _resave_result(node, op.saves.index("result"), target, array)
        if target._base is None:
            target._refresh_views()  # views of target now read a new history (ops/inplace.py)
    return target


def _proceed(apply: Any, *args: Any) -> Any:
    """The rest of an observed call (`apply(*args, _watched=True)`), for `modes.observe`; made
    here so that the apply functions themselves keep no closure cells."""
    return lambda: apply(*args, _watched=True)


def _any_requires_grad(inputs: tuple) -> bool:
    return any(isinstance(x, Tensor) and x._requires_grad for x in inputs)


def _resave_result(node: Node, i: int, target: Tensor, array: Any) -> None:
    """An in-place op's node saves its result: the target itself, at its new version."""
    node._saved = node._saved[:i] + (array,) + node._saved[i + 1 :]
    now = (i, target._version_box(), target._version, None)
    node._versions = tuple(now if e[0] == i else e for e in node._versions)


def _inplace_without_graph(op: Any, target: Tensor, inputs: tuple, params: dict | None) -> Tensor:
    """An in-place op that records nothing (no_grad, or no input requires grad): compute, check
    the dtype can be kept, write into the existing array, bump the version."""
    data = target._data
    if data.__class__ is _ndarray and not data.flags.writeable and overlaps(data):
        raise RuntimeError(OVERLAP_MESSAGE)  # e.g. the expanded gradient a hook receives
    datas = [target._data] + [
        x._data if isinstance(x, Tensor) else script_data.operand(x, op.name) for x in inputs
    ]
    if op.promotes and len(datas) > 1:
        datas, _ = promote(datas, (target, *inputs))
    if params or len(datas) > 1:
        limits.check_op_output(op, datas, params)
    data = _forward(op, datas, params)
    array = target._array()
    if data.dtype != array.dtype and not np.can_cast(data.dtype, array.dtype, casting="same_kind"):
        raise RuntimeError(
            f"result type {_type_word(data.dtype)} can't be cast to the desired output type "
            f"{_type_word(array.dtype)}"
        )
    _write(array, data, "unsafe")
    target._bump_version()
    return target


def _write(array: Any, data: Any, casting: str) -> None:
    """An in-place op's result written into its target's array; a result of a larger shape
    (the other operand broadcast the target: `zeros(1).add_(ones(3))`) is PyTorch's error."""
    try:
        np.copyto(array, data, casting=casting)
    except ValueError:
        if np.shape(data) != array.shape:
            raise RuntimeError(
                f"output with shape {list(array.shape)} doesn't match the broadcast shape "
                f"{list(np.shape(data))}"
            ) from None
        raise


def _snapshot(node: Node, before: Tensor) -> None:
    """Where `node` saved `before` (the tensor about to be overwritten), it keeps a copy."""
    saved = list(node._saved)
    versions = []
    for entry in node._versions:
        i, box, expected, tensor = entry
        if tensor is before:
            saved[i] = np.array(saved[i], copy=True)
            tensor = _wrap(saved[i], before._requires_grad, before._grad_fn, before._output_nr)
            entry = (i, box, expected, tensor)
        versions.append(entry)
    node._saved = tuple(saved)
    node._versions = tuple(versions)


_OBSERVED = False  # True while a mode watches every op call (core/modes.py)


def _set_observed(on: bool) -> None:
    global _OBSERVED
    _OBSERVED = on


modes.on_change(_set_observed)
