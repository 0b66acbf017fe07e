"""Graph bookkeeping for in-place writes that are not an op of the table (`x[i] = v`, `fill_`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .graph import NO_EDGE, Node
from .tensor import Tensor


class CopySlices(Node):
    """`x[i] = v` on a tensor in a graph: the gradient flows to the old `x` outside the written
    region and to `v` inside it."""

    __slots__ = ("index", "value_shape")

    def name(self) -> str:
        return "torch::autograd::CopySlices"

    def apply(self, grads: list, backend: Any) -> list:
        g = grads[0]
        creates = backend.creates_graph
        if creates:
            g = g._data  # gradients of index writes are not themselves differentiated
        base_grad = np.array(g, copy=True)
        base_grad[self.index] = 0
        value_grad = None
        if self.next_functions[1][0] is not None:
            value_grad = backend.conform(
                np.asarray(g[self.index]), self.value_shape, np.asarray(g).dtype
            )
        out = [base_grad, value_grad]
        if creates:
            out = [backend.wrap(x) if x is None else _as_tensor(x) for x in out]
        return out


class FillBackward(Node):
    """`fill_` / `zero_` on a tensor in a graph: nothing flows back to the old value."""

    __slots__ = ()

    def apply(self, grads: list, backend: Any) -> list:
        return [None]


FillBackward.__name__ = FillBackward.__qualname__ = "FillBackward0"


def _as_tensor(x: Any) -> Any:
    from .tensor import _wrap

    return None if x is None else _wrap(x)


def _edge(t: Any) -> tuple:
    if isinstance(t, Tensor) and t._requires_grad:
        return (t._grad_fn or t._accumulator(), t._output_nr)
    return NO_EDGE


def record_index_put(target: Tensor, index: tuple, value: Any) -> None:
    node = CopySlices((_edge(target), _edge(value)))
    node.index = index
    node.value_shape = value._data.shape if isinstance(value, Tensor) else None
    target._grad_fn = node
    target._output_nr = 0
    target._requires_grad = True


def record_fill(target: Tensor) -> None:
    node = FillBackward((_edge(target),))
    target._grad_fn = node
    target._output_nr = 0


def inplace_on_view(op: Any, target: Tensor, inputs: tuple, params: dict | None) -> Tensor:
    """An in-place op on a view (`x[0].mul_(2)`, `y.t().add_(1)`): to be rewritten as PyTorch
    does, the base's history becoming CopySlices. For now: refused when a graph is involved."""
    from .tensor import apply_inplace

    base = target._base
    involved = (
        target._requires_grad
        or base._requires_grad
        or any(isinstance(x, Tensor) and x._requires_grad for x in inputs)
    )
    if involved:
        raise RuntimeError(
            "in-place operations on views of tensors in a graph are not supported yet"
        )
    target._base = None
    try:
        return apply_inplace(op, target, inputs, params)
    finally:
        target._base = base
