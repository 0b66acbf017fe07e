"""In-place writes through views, as PyTorch records them.

An in-place op on a view (`x[0].mul_(2)`, `y.t().add_(1)`, `x[1:] = v`) changes its base too, so the
base's history is rewritten: its new `grad_fn` is a `CopySlices` node that passes the gradient
outside the written region to the base's old history and runs the in-place op's own node (`fn`)
on the region. Every live view of that base then gets a regenerated `grad_fn`, an
`AsStridedBackward0` reading its region of the base's new history.

A view's region is found from numpy's memory layout (views alias their base's array): `positions`
holds, for each element of the view, its flat (C-order) index in the base.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from ..core.apply import _new_node, apply_inplace, overlaps
from ..core.grad_mode import GradMode
from ..core.graph import NO_EDGE, Node, accumulator, node_call_method
from ..core.optable import defop, tensor_methods
from ..core.saved_values import RELEASED
from ..core.tensor import OVERLAP_MESSAGE, VIEW_OF_LEAF_MESSAGE, Tensor, _wrap
from .formula_ops import run
from .views import INDEX, index_backward, index_backward_any, index_plain

NO_GRAD_VIEW_MESSAGE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
    "code by moving both the view and the inplace either both inside the no_grad block (if you "
    "don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked)."
)

# id(view) -> weakref, for views of a tensor requiring grad made under no_grad
_NO_GRAD_VIEWS: dict[int, weakref.ref] = {}


# --------------------------------------------------------------------------------------------
# The view registry (each base keeps weak references to its views: `core/apply.mark_view`)
# --------------------------------------------------------------------------------------------


def note_no_grad_view(result: Any) -> None:
    """Remembers views of a tensor requiring grad made under no_grad: an in-place write to
    them with grad mode on is refused, and a write to their base leaves their history alone."""
    for view in result if isinstance(result, tuple) else (result,):
        key = id(view)
        _NO_GRAD_VIEWS[key] = weakref.ref(view, lambda _, k=key: _NO_GRAD_VIEWS.pop(k, None))


def _live_views(base: Tensor) -> list[Tensor]:
    refs = base._views
    if not refs:
        return []
    views = [ref() for ref in refs]
    return [v for v in views if v is not None and v._base is base]


def _made_under_no_grad(view: Tensor) -> bool:
    ref = _NO_GRAD_VIEWS.get(id(view))
    return ref is not None and ref() is view


# --------------------------------------------------------------------------------------------
# Where a view lies in its base
# --------------------------------------------------------------------------------------------


def _byte_offsets(shape: tuple, strides: tuple) -> np.ndarray:
    out = np.zeros(shape, dtype=np.int64)
    for d, (n, s) in enumerate(zip(shape, strides)):
        axis = [1] * len(shape)
        axis[d] = n
        out = out + (np.arange(n, dtype=np.int64) * s).reshape(axis)
    return out


def view_positions(view: Tensor, base: Tensor) -> np.ndarray:
    """For each element of `view`, its flat C-order index in `base` (same shape as the view)."""
    b, v = base._array(), view._array()
    start = v.__array_interface__["data"][0] - b.__array_interface__["data"][0]
    wanted = start + _byte_offsets(v.shape, v.strides)
    offsets = _byte_offsets(b.shape, b.strides).reshape(-1)
    order = np.argsort(offsets, kind="stable")
    found = np.searchsorted(offsets[order], wanted).clip(0, max(offsets.size - 1, 0))
    positions = order[found]
    if offsets.size == 0 or not np.array_equal(offsets[positions], wanted):
        if v.size == 0:
            return np.zeros(v.shape, dtype=np.int64)
        raise RuntimeError("internal error: a view does not alias its base's data")
    return positions


# --------------------------------------------------------------------------------------------
# Nodes
# --------------------------------------------------------------------------------------------


def _scatter_flat(B: Any, g: Any, positions: np.ndarray, base_shape: tuple) -> Any:
    size = int(np.prod(base_shape, dtype=np.int64))
    return B.reshape(index_backward_any(B, g, (size,), (positions,)), base_shape)


AS_STRIDED = defop(
    "as_strided",
    "AsStridedBackward0",
    lambda a, positions, base_shape: np.reshape(a, -1)[positions],
    lambda B, g, positions, base_shape: _scatter_flat(B, g, positions, base_shape),
    rules=("1 at the view's positions in its base",),
)


class CopySlices(Node):
    """The base's history after an in-place op on one of its views: the gradient flows to the
    base's old history outside the view's region, and through `fn` (the op's node) inside it."""

    __slots__ = ("fn", "positions", "base_shape")

    __call__ = node_call_method

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    def release(self) -> None:
        self.fn.release()
        self._saved = RELEASED

    def apply(self, grads: list, backend: Any) -> list:
        g = grads[0]
        positions = self.positions
        if backend.creates_graph:  # the node's own bookkeeping: numpy writes into a copy in place
            flat = g.reshape(-1)
            region = index_plain(flat, (positions,))
            inner = self.fn.apply([region], backend)
            keep = np.ones(flat.shape, dtype=flat._data.dtype)
            keep[positions] = 0
            base_grad = flat * _wrap(keep)
            if inner[0] is not None:
                base_grad = base_grad + index_backward(inner[0], tuple(flat.shape), (positions,))
            base_grad = base_grad.reshape(self.base_shape)
        else:
            base_grad = np.array(g, order="C", copy=True)
            flat = base_grad.reshape(-1)
            inner = self.fn.apply([flat[positions]], backend)
            flat[positions] = 0 if inner[0] is None else inner[0]
        return [base_grad, *inner[1:]]


def _edge(t: Tensor) -> tuple:
    if t._grad_fn is not None:
        return (t._grad_fn, t._output_nr)
    if t._requires_grad:
        return (accumulator(t), 0)
    return NO_EDGE


def refresh_views(base: Tensor, skip: Any = None) -> None:
    """Gives every live view of `base` a regenerated history (AsStridedBackward0) reading its
    region of the base's current history, as PyTorch does after an in-place write."""
    if not base._requires_grad:
        return
    edge = _edge(base)
    base_shape = base._data.shape
    for view in _live_views(base):
        if view is skip or _made_under_no_grad(view):
            continue
        node = _new_node(AS_STRIDED, (edge,))
        node._params = {"positions": view_positions(view, base), "base_shape": base_shape}
        view._set_history(node)


def after_inplace(target: Tensor) -> None:
    """To be called after an in-place op on a tensor that is not a view (the base of others)."""
    if target._base is None and target._requires_grad and GradMode.enabled:
        refresh_views(target)


# --------------------------------------------------------------------------------------------
# In-place on a view
# --------------------------------------------------------------------------------------------


def inplace_on_view(op: Any, target: Tensor, inputs: tuple, params: dict | None) -> Tensor:
    """`apply_inplace` for a view (with grad mode on): writes through the view and rewrites the
    base's history as CopySlices."""
    base = target._base
    if overlaps(target._array()):
        raise RuntimeError(OVERLAP_MESSAGE)
    if _made_under_no_grad(target):
        raise RuntimeError(NO_GRAD_VIEW_MESSAGE)
    involved = (
        target._requires_grad
        or base._requires_grad
        or any(isinstance(x, Tensor) and x._requires_grad for x in inputs)
    )
    if involved and target._requires_grad and base._grad_fn is None:
        # PyTorch: a view that requires grad, of a leaf (one that requires grad or not)
        raise RuntimeError(VIEW_OF_LEAF_MESSAGE)
    base_edge = _edge(base)
    target._base = None
    try:
        apply_inplace(op, target, inputs, params)
    finally:
        target._base = base
    fn = target._grad_fn
    if not involved or fn is None:
        return target
    node = CopySlices((base_edge, *fn.next_functions[1:]))
    node.fn = fn
    node.positions = view_positions(target, base)
    node.base_shape = base._data.shape
    node._saved = (fn,)  # so that the backward pass releases `fn`'s saved values with this node
    base._set_history(node)
    refresh_views(base)
    return target


# --------------------------------------------------------------------------------------------
# The in-place ops of index assignment (`x[i] = v`)
# --------------------------------------------------------------------------------------------


def _fill_forward(a: Any, value: Any) -> np.ndarray:
    return np.broadcast_to(np.asarray(value).astype(a.dtype), a.shape)


def _copy_forward(a: Any, src: Any) -> np.ndarray:
    return np.broadcast_to(np.asarray(src).astype(a.dtype), a.shape)


def _index_put_forward(a: Any, values: Any, index: tuple, accumulate: bool = False) -> np.ndarray:
    """`a` with `values` written at `index` (added, repeated positions included, with
    `accumulate`: `index_put_(..., accumulate=True)`)."""
    out = np.array(a, copy=True)
    try:
        if accumulate:
            np.add.at(out, index, np.broadcast_to(np.asarray(values, a.dtype), out[index].shape))
        else:
            out[index] = np.asarray(values).astype(a.dtype)
    except ValueError:
        result_shape = a[index].shape
        raise RuntimeError(
            f"shape mismatch: value tensor of shape [{', '.join(map(str, np.shape(values)))}] "
            f"cannot be broadcast to indexing result of shape "
            f"[{', '.join(map(str, result_shape))}]"
        ) from None
    return out


def _zero_at(B: Any, g: Any, index: tuple) -> Any:
    mask = np.ones(g.shape, dtype=bool)
    mask[index] = False
    return B.where(B.const(mask), g, 0.0)


def _gather_at(B: Any, g: Any, index: tuple) -> Any:
    return run(B, INDEX, g, index=index, shape=tuple(g.shape))


FILL = defop(
    "fill",
    "FillBackward3",
    _fill_forward,
    lambda B, g: B.zeros_like(g),
    lambda B, g: B.sum_dims(g, tuple(range(len(g.shape))), False),
    promotes=False,
    arg_names=("self", "value"),
    rules=("0", "sum of the gradient"),
)
COPY = defop(
    "copy",
    "CopyBackwards",
    _copy_forward,
    lambda B, g: B.zeros_like(g),
    lambda B, g: g,
    promotes=False,
    arg_names=("self", "src"),
    rules=("0", "1"),
    aten="copy_",
)
COPY.node_class().name = lambda self: "torch::autograd::CopyBackwards"
INDEX_PUT = defop(
    "index_put",
    "IndexPutBackward0",
    _index_put_forward,
    lambda B, g, index, accumulate=False: g if accumulate else _zero_at(B, g, index),
    lambda B, g, index, accumulate=False: _gather_at(B, g, index),
    promotes=False,
    arg_names=("self", "values"),
    rules=("1 outside the written positions", "1 at the written positions"),
)


def _inplace_on_view(target: Tensor, op: Any, inputs: tuple, params: dict | None) -> Tensor:
    return inplace_on_view(op, target, inputs, params)


def _note_no_grad_views(base: Tensor, result: Any) -> None:
    note_no_grad_view(result)


# what `core/apply.py` calls on a tensor (attached as every op's methods are)
tensor_methods(
    "ops.inplace (core/apply.py)",
    {
        "_note_no_grad_views": _note_no_grad_views,
        "_inplace_on_view": _inplace_on_view,
        "_refresh_views": after_inplace,
    },
)
