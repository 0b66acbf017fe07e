"""`torch.nn.init`: in-place initialisers (under no_grad, returning the tensor they fill).

The fan/gain formulas are PyTorch's; the random numbers are PyTorch's own stream (`uniform_`,
`normal_` of ops/random.py), so `torch.manual_seed(s)` gives PyTorch's initial weights.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ..core import script_data
from ..core.grad_mode import no_grad
from ..core.tensor import Tensor, _wrap
from ..ops.random import randperm

__all__ = [
    "calculate_gain",
    "uniform_",
    "normal_",
    "constant_",
    "ones_",
    "zeros_",
    "eye_",
    "xavier_uniform_",
    "xavier_normal_",
    "kaiming_uniform_",
    "kaiming_normal_",
    "trunc_normal_",
    "orthogonal_",
    "sparse_",
    "dirac_",
]

_LINEAR_FNS = {
    "linear",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "sigmoid",
}


def _write(tensor: Tensor, values: Any) -> Tensor:
    """Overwrites the tensor's data in place (as an in-place op under no_grad would)."""
    array = tensor._array()
    array[...] = np.asarray(values).astype(array.dtype, copy=False)
    tensor._bump_version()
    return tensor


def calculate_gain(nonlinearity: str, param: Any = None) -> float:
    if nonlinearity in _LINEAR_FNS:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    shape = tensor._data.shape
    if len(shape) < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive_field = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive_field, shape[0] * receptive_field


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of {['fan_in', 'fan_out']}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor: Tensor, val: float) -> Tensor:
    return _write(tensor, np.full(tensor._data.shape, script_data.number(val, "constant_(): val")))


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 0.0)


def eye_(tensor: Tensor) -> Tensor:
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _write(tensor, np.eye(*tensor._data.shape))


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float | None:
    if 0 in tensor._data.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return None
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Any = None,
) -> Tensor:
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: Any = None,
) -> Tensor:
    std = _kaiming_std(tensor, a, mode, nonlinearity)
    if std is None:
        return tensor
    return normal_(tensor, 0.0, std, generator)


_TRUNC_ROUNDS = 10_000  # redraws before trunc_normal_ gives up and clamps (a far-off [a, b])


def trunc_normal_(
    tensor: Tensor,
    mean: float = 0.0,
    std: float = 1.0,
    a: float = -2.0,
    b: float = 2.0,
    generator: Any = None,
) -> Tensor:
    """Normals N(mean, std**2) inside [a, b]: as PyTorch, while any value is outside, a whole new
    tensor of normals is drawn and the outside values are taken from it."""
    if a > b:
        raise RuntimeError(
            f"uniform_ expects to return a [from, to) range, but found from={a:g} > to={b:g}"
        )
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of "
            "values may be incorrect.",
            stacklevel=2,
        )
    normal_(tensor, mean, std, generator)
    data = tensor._array()
    for _ in range(_TRUNC_ROUNDS):
        outside = (data < a) | (data > b)
        if not outside.any():
            return tensor
        fresh = normal_(_wrap(np.empty(data.shape, data.dtype)), mean, std, generator)
        _write(tensor, np.where(outside, fresh._data, data))
    return _write(tensor, np.clip(data, a, b))


def orthogonal_(tensor: Tensor, gain: float = 1, generator: Any = None) -> Tensor:
    """A (semi-)orthogonal matrix from the QR decomposition of standard normals (rows x the rest,
    transposed when wider than tall), signs fixed by R's diagonal, times `gain`."""
    if tensor.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    shape = tensor._data.shape
    if 0 in shape:
        return tensor
    rows = shape[0]
    cols = int(np.prod(shape)) // rows
    flat = normal_(_wrap(np.empty((rows, cols), tensor._data.dtype)), 0.0, 1.0, generator)._data
    wide = rows < cols
    q, r = np.linalg.qr(flat.T if wide else flat)
    q = q * np.sign(np.diag(r))
    return _write(tensor, ((q.T if wide else q) * gain).reshape(shape))


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator: Any = None) -> Tensor:
    """Normals N(0, std**2), then in each column ceil(sparsity * rows) entries zeroed: the first
    ones of a `randperm(rows)` drawn per column."""
    if tensor.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor._data.shape
    num_zeros = int(math.ceil(sparsity * rows))
    normal_(tensor, 0.0, std, generator)
    values = np.array(tensor._data)
    for column in range(cols):
        values[randperm(rows, generator=generator)._data[:num_zeros], column] = 0
    return _write(tensor, values)


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """The identity of a convolution: 1 at the centre of kernel [d, d] (per group), else 0."""
    if tensor.ndim not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    shape = tensor._data.shape
    if shape[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = shape[0] // groups
    values = np.zeros(shape, tensor._data.dtype)
    centre = tuple(size // 2 for size in shape[2:])
    for group in range(groups):
        for d in range(min(per_group, shape[1])):
            values[(group * per_group + d, d, *centre)] = 1
    return _write(tensor, values)
