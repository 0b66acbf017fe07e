"""Calling a graph node as PyTorch allows: `y.grad_fn(grad)`.

PyTorch's `Node.__call__` runs the node's backward once, outside any backward pass: no hooks,
no anomaly trace, the current grad mode deciding whether the result has a graph (the saved
tensors take part as they are, so a formula of tensors that require grad gives a result with a
grad_fn). It takes one gradient (a Tensor or None) per output of the forward op and returns the
gradients for its inputs: a Tensor when the op had one input, else a tuple (None where no
gradient flows); an AccumulateGrad node accumulates into its leaf's `.grad` and returns `()`.
Saved values freed by an earlier backward raise PyTorch's "Trying to backward through the graph
a second time" error.

Only Tensors and None come in (anything else is PyTorch's TypeError) and the node runs on
Tensors (`TensorBackend`), so what comes out is Tensors and None: no raw array crosses.
"""

from __future__ import annotations

from typing import Any

from . import grad_mode
from .formula_backends import TensorBackend
from .tensor import Tensor


def call_node(node: Any, grads: tuple, kwargs: dict) -> Any:
    """`node(*grads)`: the gradients for the node's inputs (see the module docstring)."""
    accumulates = node.accumulates
    if kwargs:
        raise TypeError("keyword arguments are not supported")
    expected = 1 if accumulates else node.n_outputs()
    if len(grads) != expected:
        raise TypeError(f"expected {expected} arguments, got {len(grads)} instead")
    for index, grad in enumerate(grads):
        if grad is not None and not isinstance(grad, Tensor):
            raise TypeError(f"argument {index} is not a Variable")
    if accumulates:
        _accumulate(node, grads[0])
        return ()
    n_inputs = len(node._next)
    if all(grad is None for grad in grads):
        results: list = [None] * n_inputs  # no gradient in, none out (PyTorch's undefined grads)
    else:
        results = _apply_unreduced(node, list(grads))
    for result in results:
        if result is not None and not isinstance(result, Tensor):
            raise RuntimeError(f"{node.name()} gave a gradient of an unexpected type")
    return results[0] if n_inputs == 1 else tuple(results)


def _apply_unreduced(node: Any, grads: list) -> list:
    """The node's formulas as they are: PyTorch sums a broadcast input's gradient back to the
    input's shape (and casts it to its dtype) in the backward pass, not in the node, so the
    shapes the node keeps to conform to are set aside for the call."""
    extra = node._x
    meta = None if extra is None else extra.meta
    if meta is None or meta[0] is None:
        return list(node.apply(grads, TensorBackend))
    extra.meta = (None, meta[1])
    try:
        return list(node.apply(grads, TensorBackend))
    finally:
        extra.meta = meta


def _accumulate(node: Any, grad: Any) -> None:
    """`AccumulateGrad(g)`: `g` added into the leaf's `.grad` in place; a leaf without one gets
    a copy of `g` broadcast to its shape, in `g`'s dtype (PyTorch checks neither here: the
    backward pass does before it calls the node)."""
    variable = node.variable
    if grad is None or variable is None:
        return
    with grad_mode.no_grad():
        current = variable.grad
        if current is None:
            if tuple(grad.shape) == tuple(variable.shape):
                copy = grad.detach().clone()
            else:  # PyTorch's broadcast errors: "output with shape [1] doesn't match..."
                copy = grad.new_zeros(variable.shape).add_(grad)
            variable._grad = copy
        else:
            current.add_(grad)
