"""`torch.nn.functional`'s prelu, rrelu, hardshrink, softshrink, softsign and tanhshrink.

The kernels (PreluKernelBackward0, RreluWithNoiseBackward0/1, HardshrinkBackward0,
SoftshrinkBackward0) are op entries of ops/activations.py; softsign and tanhshrink are
compositions in PyTorch, so they compose the same ops here (`x / (x.abs() + 1)`: DivBackward0
over AddBackward0 over AbsBackward0; `x - x.tanh()`: SubBackward0 over TanhBackward0).
"""

from __future__ import annotations

from ..core.tensor import Tensor
from ..ops.activations import _rrelu_call, hardshrink, prelu, softshrink

__all__ = ["hardshrink", "prelu", "rrelu", "rrelu_", "softshrink", "softsign", "tanhshrink"]


def rrelu(
    input: Tensor,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """The randomized leaky ReLU: slopes drawn from U(lower, upper) in training (PyTorch's
    stream under `manual_seed`), the slope (lower + upper) / 2 otherwise."""
    return _rrelu_call(input, lower, upper, training, None, inplace)


def rrelu_(
    input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False
) -> Tensor:
    """`rrelu(input, lower, upper, training, inplace=True)`."""
    return _rrelu_call(input, lower, upper, training, None, True)


def softsign(input: Tensor) -> Tensor:
    """`input / (input.abs() + 1)`."""
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    """`input - input.tanh()`."""
    return input - input.tanh()
