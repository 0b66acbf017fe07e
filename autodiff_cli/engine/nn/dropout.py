"""Channel-wise and alpha dropout: `dropout1d/2d/3d`, `alpha_dropout`, `feature_alpha_dropout`.

As PyTorch: the noise is `bernoulli_(1 - p)` from the default generator (one draw per element, or
per channel for the feature variants, the other dims of the noise 1), and the output is `input *
noise` (MulBackward0), so `torch.manual_seed` gives PyTorch's masks.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..core.tensor import Tensor, _wrap
from ..ops import random as _random

__all__ = ["dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"]

_SELU_ALPHA = -1.7580993408473766  # -scale * alpha of SELU: where a dropped unit goes


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _keep(shape: tuple, p: float) -> np.ndarray:
    """0/1 (bool) draws: kept with probability 1 - p (float64 uniforms, PyTorch's bernoulli_)."""
    n = int(np.prod(shape, dtype=np.int64))
    return _random.stream.bernoulli(_random.default_generator, 1.0 - p, n).reshape(shape)


def _feature_shape(shape: tuple) -> tuple:
    """One draw per (batch, channel): the noise is 1 along the other dims."""
    return tuple(shape[:2]) + (1,) * (len(shape) - 2)


def _scaled_mask(input: Tensor, noise_shape: tuple, p: float) -> Tensor:
    dtype = input._data.dtype
    if p == 1.0:
        return _wrap(np.zeros(noise_shape, dtype))
    scale = np.asarray(1.0, dtype) / np.asarray(1.0 - p, dtype)
    return _wrap(_keep(noise_shape, p).astype(dtype) * scale)


def _feature_dropout(input: Tensor, p: float, training: bool, batched: bool) -> Tensor:
    _check_p(p)
    if not training or p == 0.0:
        return input
    shape = input._data.shape
    if batched:
        noise_shape = _feature_shape(shape)
    else:  # a missing batch dim: one draw per channel (dim 0)
        noise_shape = shape[:1] + (1,) * (len(shape) - 1)
    return input * _scaled_mask(input, noise_shape, p)


def dropout1d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Zeroes whole channels of (N, C, L) or (C, L) inputs, scaling the rest by 1 / (1 - p)."""
    ndim = input.ndim
    if ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {ndim}D input. Note that "
            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, "
            "a channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs)."
        )
    return _feature_dropout(input, p, training, ndim == 3)


def _deprecated_dims(name: str, ndim: int, wanted: str, spatial: int) -> None:
    warnings.warn(
        f"{name}: Received a {ndim}-D input to {name}, which is deprecated and will result in an "
        "error in a future release. To retain the behavior and silence this warning, please use "
        f"dropout instead. Note that {name} exists to provide channel-wise dropout on inputs with "
        f"{spatial} spatial dimensions, a channel dimension, and an optional batch dimension "
        f"(i.e. {wanted} inputs).",
        stacklevel=3,
    )


def dropout2d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Zeroes whole channels of (N, C, H, W) or (C, H, W) inputs (a 3-D input is taken as
    (N, C, L), with PyTorch's warning)."""
    ndim = input.ndim
    if ndim not in (3, 4):
        _deprecated_dims("dropout2d", ndim, "3D or 4D", 2)
    if ndim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=2,
        )
    return _feature_dropout(input, p, training, True)


def dropout3d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Zeroes whole channels of (N, C, D, H, W) or (C, D, H, W) inputs."""
    ndim = input.ndim
    if ndim not in (4, 5):
        _deprecated_dims("dropout3d", ndim, "4D or 5D", 3)
    return _feature_dropout(input, p, training, ndim != 4)


def _alpha(input: Tensor, p: float, training: bool, noise_shape: tuple) -> Tensor:
    """SELU's dropout: a dropped unit becomes alpha' = -scale * alpha, then `a x + b` keeps the
    mean and variance (a = ((1 - p)(1 + p alpha'^2))^-1/2, b = -a alpha' p)."""
    _check_p(p)
    if not training or p == 0.0:
        return input
    dtype = input._data.dtype
    if p == 1.0:
        return input * _wrap(np.zeros((), dtype))
    keep = _keep(noise_shape, p).astype(dtype)
    a = 1.0 / math.sqrt((1.0 - p) * (1.0 + p * _SELU_ALPHA**2))
    shift = ((1.0 - keep) * dtype.type(_SELU_ALPHA * a) - dtype.type(_SELU_ALPHA * a * p)).astype(
        dtype
    )
    return input * _wrap(keep * dtype.type(a)) + _wrap(shift)


def alpha_dropout(
    input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False
) -> Tensor:
    return _alpha(input, p, training, input._data.shape)


def feature_alpha_dropout(
    input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False
) -> Tensor:
    return _alpha(input, p, training, _feature_shape(input._data.shape))
