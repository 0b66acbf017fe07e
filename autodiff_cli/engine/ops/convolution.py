"""Convolution (`F.conv1d/2d/3d`, `F.conv_transpose1d/2d`): PyTorch's one op `convolution`
(ConvolutionBackward0, edges to input, weight and bias) and its backward ops.

A convolution relates an "x side" (N, C, *size) and a "y side" (N, O, *outs) through a weight
(O, C/G, *K): the plain op maps x to y (`conv_forward`), the transposed op maps y-shaped inputs
to x (`conv_input_grad`). Every gradient is one of three bilinear maps on the same geometry, so
each is an op whose own formulas are again those maps: under create_graph the gradients of the
input and weight are ConvolutionBackwardBackward0 nodes (PyTorch's `convolution_backward`) and
can be differentiated again, to any order.

The params every op of a family shares: stride, padding ((before, after) per dim), dilation,
groups, kernel, size (the x side's spatial size) and transposed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.optable import defop
from .formula_ops import run
from .window_kernels import conv_forward, conv_input_grad, conv_weight_grad


def _convolution(x: Any, w: Any, b: Any, **geometry: Any) -> np.ndarray:
    if geometry["transposed"]:
        y = conv_input_grad(x, w, geometry)
        if b is not None:
            y += np.asarray(b, y.dtype).reshape((1, -1) + (1,) * (y.ndim - 2))
        return y
    return conv_forward(x, w, b, geometry)


def _input_backward(g: Any, w: Any, **geometry: Any) -> np.ndarray:
    """d loss / d input of a convolution from its output gradient g."""
    if geometry["transposed"]:
        return conv_forward(g, w, None, geometry)
    return conv_input_grad(g, w, geometry)


def _weight_backward(x: Any, g: Any, **geometry: Any) -> np.ndarray:
    """d loss / d weight of a convolution from its input x and output gradient g."""
    if geometry["transposed"]:
        return conv_weight_grad(g, x, geometry)
    return conv_weight_grad(x, g, geometry)


def conv(B: Any, x: Any, w: Any, params: dict) -> Any:
    return run(B, CONVOLUTION, x, w, None, **params)


def input_grad(B: Any, g: Any, w: Any, params: dict) -> Any:
    return run(B, CONV_INPUT_BACKWARD, g, w, **params)


def weight_grad(B: Any, x: Any, g: Any, params: dict) -> Any:
    return run(B, CONV_WEIGHT_BACKWARD, x, g, **params)


def _bias_grad(B: Any, g: Any, input: Any, weight: Any, **params: Any) -> Any:
    return B.sum_dims(g, (0, *range(2, 2 + len(params["kernel"]))), False)


CONVOLUTION = defop(
    "convolution",
    "ConvolutionBackward0",
    _convolution,
    lambda B, g, input, weight, **params: input_grad(B, g, weight, params),
    lambda B, g, input, weight, **params: weight_grad(B, input, g, params),
    _bias_grad,
    promotes=False,
    arg_names=("input", "weight", "bias"),
    rules=(
        "the transposed convolution of grad with weight",
        "the correlation of input with grad",
        "grad summed over batch and space",
    ),
)
# <conv_input_grad(g, w), u> = <g, conv(u, w)> = <w, weight_grad(u, g)>
CONV_INPUT_BACKWARD = defop(
    "convolution_backward_input",
    "ConvolutionBackwardBackward0",
    _input_backward,
    lambda B, u, grad_output, weight, **params: conv(B, u, weight, params),
    lambda B, u, grad_output, weight, **params: weight_grad(B, u, grad_output, params),
    promotes=False,
    arg_names=("grad_output", "weight"),
    rules=("the convolution of grad with weight", "the correlation of grad with grad_output"),
)
# <weight_grad(x, g), v> = <x, input_grad(g, v)> = <g, conv(x, v)>
CONV_WEIGHT_BACKWARD = defop(
    "convolution_backward_weight",
    "ConvolutionBackwardBackward0",
    _weight_backward,
    lambda B, v, input, grad_output, **params: input_grad(B, grad_output, v, params),
    lambda B, v, input, grad_output, **params: conv(B, input, v, params),
    promotes=False,
    arg_names=("input", "grad_output"),
    rules=(
        "the transposed convolution of grad_output with grad",
        "the convolution of input with grad",
    ),
)
