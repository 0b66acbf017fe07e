"""`torch.autograd.graph.allow_mutation_on_saved_tensors`: inside it, a tensor saved for backward
may be modified in place; the node keeps a copy taken just before the first such write.

An observer of `core/modes.py`: after each op call it notes, by version counter, which values
the new nodes saved; before an in-place write to a tensor whose counter is noted, each node
still holding that tensor at its saved version gets a copy in its place."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core import modes, saved_hooks
from ..core.saved_values import RELEASED
from ..core.tensor import Tensor, _wrap

NESTED_MESSAGE = "allow_mutation_on_saved_tensors contexts cannot be nested"
OUTSIDE_MESSAGE = (  # (PyTorch's words, without the space)
    "Trying to backward outside of the 'allow_mutation_on_saved_tensors' contextin which the "
    "graph was originally recorded."
)


class _AllowMutationOnSavedContext:
    """The context `allow_mutation_on_saved_tensors()` gives (what it noted and copied)."""

    def __init__(self) -> None:
        # id(version box) -> (box, the nodes that saved a value under it)
        self._saved: dict[int, tuple[list, weakref.WeakSet]] = {}
        self._nodes: weakref.WeakSet = weakref.WeakSet()  # every node noted (closed at exit)

    def clear(self) -> None:
        self._saved.clear()
        self._nodes.clear()

    def __repr__(self) -> str:
        return f"<torch.autograd.graph._AllowMutationOnSavedContext object at {id(self):#x}>"


_AllowMutationOnSavedContext.__module__ = "torch.autograd.graph"
_active: list[_AllowMutationOnSavedContext] = []


class _AllowMutationOnSavedTensors:
    """What `allow_mutation_on_saved_tensors()` returns: a context manager (or decorator)."""

    def __init__(self) -> None:
        self._ctx: _AllowMutationOnSavedContext | None = None

    def __enter__(self) -> _AllowMutationOnSavedContext:
        if _active:
            raise RuntimeError(NESTED_MESSAGE)
        self._ctx = _AllowMutationOnSavedContext()
        _active.append(self._ctx)
        modes.push(_observer)
        return self._ctx

    def __exit__(self, *args: Any) -> None:
        modes.pop(_observer)
        _active.clear()
        if self._ctx is not None:
            _close(self._ctx)
            self._ctx.clear()

    def __call__(self, fn: Callable) -> Callable:
        def decorated(*args: Any, **kwargs: Any) -> Any:
            with _AllowMutationOnSavedTensors():
                return fn(*args, **kwargs)

        return decorated


def allow_mutation_on_saved_tensors() -> _AllowMutationOnSavedTensors:
    """`with allow_mutation_on_saved_tensors() as ctx:` saved tensors may be modified in place."""
    return _AllowMutationOnSavedTensors()


for _obj in (_AllowMutationOnSavedTensors, allow_mutation_on_saved_tensors):
    _obj.__module__ = "torch.autograd.graph"


def _observer(call: Any, proceed: Callable[[], Any]) -> Any:
    ctx = _active[-1] if _active else None
    target = call.target
    if ctx is not None and target is not None and target._vbox is not None:
        noted = ctx._saved.get(id(target._vbox))
        if noted is not None:
            for node in list(noted[1]):  # each keeps a copy, and no longer this counter
                _copy_saved(node, noted[0])
            noted[1].clear()
    result = proceed()
    if ctx is not None:
        for out in result if isinstance(result, tuple) else (result,):
            node = out._grad_fn if isinstance(out, Tensor) else None
            if node is not None and node._versions is not None:
                _note(ctx, node)
    return result


def _kept(t: Tensor) -> Tensor:
    return t


def _outside(t: Tensor) -> Tensor:
    raise AssertionError(OUTSIDE_MESSAGE)


def _close(ctx: _AllowMutationOnSavedContext) -> None:
    """As in PyTorch, a node recorded inside refuses to give its saved values once the block
    is left: each is packed with an unpack hook that raises."""
    for node in list(ctx._nodes):
        if node._saved and node._saved is not RELEASED:
            saved_hooks.pack_node(node, _kept, _outside)


def _note(ctx: _AllowMutationOnSavedContext, node: Any) -> None:
    """Notes `node` under the version counter of each value it saved."""
    ctx._nodes.add(node)
    for entry in node._versions:
        box = entry[1]
        noted = ctx._saved.get(id(box))
        if noted is None:
            noted = ctx._saved[id(box)] = (box, weakref.WeakSet())
        noted[1].add(node)


def _copy_saved(node: Any, box: list) -> None:
    """`node` keeps copies of the values it saved under version counter `box`, if unchanged."""
    saved = node._saved
    if saved is RELEASED or not saved or node._versions is None:
        return
    saved = list(saved)
    versions = []
    for entry in node._versions:
        i, old_box, expected = entry[0], entry[1], entry[2]
        if old_box is box and box[0] == expected:
            new_box = [expected]
            value = saved[i]
            original = entry[3] if len(entry) > 3 else None
            if isinstance(value, Tensor):
                original, value = value, value._data
            copy = np.array(value, copy=True)
            if original is not None:
                clone = _wrap(copy, original._requires_grad, original._grad_fn, original._output_nr)
                clone._vbox = new_box
                saved[i] = clone if isinstance(saved[i], Tensor) else copy
                entry = (i, new_box, expected, clone) if len(entry) > 3 else (i, new_box, expected)
            else:
                saved[i] = copy
                entry = (i, new_box, expected, *entry[3:])
        versions.append(entry)
    node._saved = tuple(saved)
    node._versions = tuple(versions)
