"""`Tensor.backward`, `torch.autograd.backward` and `torch.autograd.grad`: their arguments
checked as PyTorch checks them and turned into one backward pass (`core/backward.py`, through
the fast layer's entry point `fast_paths.run_backward`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .devices import MetaArray, as_meta
from .edges import GradientEdge
from .fast_paths import run_backward
from .formula_backends import NumpyBackend, TensorBackend
from .optable import tensor_methods
from .tensor import Tensor, _wrap

UNUSED_MESSAGE = (
    "The differentiated Tensor at index {} appears to not have been used in the graph. Set "
    "allow_unused=True if this is the desired behavior."
)


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
            data = out._data  # ones of the output's shape and dtype: nothing to check
            ones = np.array(1, data.dtype) if data.ndim == 0 else np.ones(data.shape, data.dtype)
            if type(data) is MetaArray:  # a meta output's gradient is meta too
                ones = as_meta(ones)
            grads.append(_wrap(ones) if create_graph else ones)
            continue
        if not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
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
        inputs = [inputs] if isinstance(inputs, (Tensor, GradientEdge)) else list(inputs)
        if not inputs:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
        for t in inputs:
            if isinstance(t, GradientEdge):
                continue
            if not isinstance(t, Tensor):
                raise RuntimeError(
                    f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}"
                )
            if t._grad_fn is not None or not t._requires_grad:
                t.retain_grad()  # as PyTorch: a non-leaf input gets (and keeps) a retained .grad
    root_grads = make_root_grads(tensors, grads, create_graph)
    run_backward(tensors, root_grads, retain_graph, create_graph, inputs)  # (by position: faster)


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
    ins = [inputs] if isinstance(inputs, (Tensor, GradientEdge)) else list(inputs)
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
        if not isinstance(t, (Tensor, GradientEdge)):
            raise RuntimeError(
                f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}"
            )
    if allow_unused is None:
        allow_unused = materialize_grads
    root_grads = make_root_grads(outs, gouts, create_graph)
    for i, t in enumerate(outs):
        if not t._requires_grad:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn"
            )
    for t in ins:
        if isinstance(t, Tensor) and not t._requires_grad:
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
            result.append(backend.wrap(g))
    return tuple(result)


def _tensor_backward(
    self: Tensor,
    gradient: Tensor | None = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """`Tensor.backward`: the gradient of this tensor with respect to the graph's leaves."""
    backward(self, gradient, retain_graph, create_graph, None, inputs)  # (by position)


_tensor_backward.__name__ = "backward"
_tensor_backward.__qualname__ = "Tensor.backward"
tensor_methods("core.backward_api", {"backward": _tensor_backward})
