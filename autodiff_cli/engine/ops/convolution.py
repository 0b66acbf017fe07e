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


def _backward(a: Any, b: Any, which: str, **geometry: Any) -> np.ndarray:
    """One output of PyTorch's `convolution_backward`: with which="input", d loss / d input from
    (grad_output, weight); with which="weight", d loss / d weight from (input, grad_output)."""
    transposed = geometry["transposed"]
    if which == "input":
        if transposed:
            return conv_forward(a, b, None, geometry)
        return conv_input_grad(a, b, geometry)
    if transposed:
        return conv_weight_grad(b, a, geometry)
    return conv_weight_grad(a, b, geometry)


def conv(B: Any, x: Any, w: Any, params: dict) -> Any:
    return run(B, CONVOLUTION, x, w, None, **params)


def input_grad(B: Any, g: Any, w: Any, params: dict) -> Any:
    return run(B, CONV_BACKWARD, g, w, which="input", **params)


def weight_grad(B: Any, x: Any, g: Any, params: dict) -> Any:
    return run(B, CONV_BACKWARD, x, g, which="weight", **params)


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


def _first_grad(B: Any, u: Any, a: Any, b: Any, which: str, **params: Any) -> Any:
    """<input_grad(g, w), u> = <g, conv(u, w)>; <weight_grad(x, g), v> = <x, input_grad(g, v)>."""
    if which == "input":
        return conv(B, u, b, params)
    return input_grad(B, b, u, params)


def _second_grad(B: Any, u: Any, a: Any, b: Any, which: str, **params: Any) -> Any:
    """<input_grad(g, w), u> = <w, weight_grad(u, g)>; <weight_grad(x, g), v> = <g, conv(x, v)>."""
    if which == "input":
        return weight_grad(B, u, a, params)
    return conv(B, a, u, params)


CONV_BACKWARD = defop(
    "convolution_backward",
    "ConvolutionBackwardBackward0",
    _backward,
    _first_grad,
    _second_grad,
    promotes=False,
    arg_names=("a", "b"),
    rules=("a convolution of grad with the other operand",) * 2,
)
