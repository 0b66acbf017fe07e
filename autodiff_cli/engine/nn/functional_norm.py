"""`F.group_norm`, `F.instance_norm` and the channel rearrangements `F.pixel_shuffle`,
`F.pixel_unshuffle`, `F.channel_shuffle`.

group_norm and the shuffles are ops of their own (ops/group_norm.py, ops/shuffles.py); instance
normalisation is, as PyTorch composes it, a batch normalisation of the input viewed as
(1, N·C, *) with the weight, bias and running statistics repeated N times (ViewBackward0 over
NativeBatchNormBackward0 over ViewBackward0 and RepeatBackward0), the running statistics then
set to the mean over the batch of their repeated copies.
"""

from __future__ import annotations

import numpy as np

from ..core.grad_mode import no_grad
from ..core.tensor import Tensor
from ..ops.batch_norm import batch_norm
from ..ops.group_norm import group_norm
from ..ops.shuffles import channel_shuffle, pixel_shuffle, pixel_unshuffle

__all__ = ["channel_shuffle", "group_norm", "instance_norm", "pixel_shuffle", "pixel_unshuffle"]


def _repeated(t: Tensor | None, times: int) -> Tensor | None:
    return None if t is None else t.repeat(times)


def instance_norm(
    input: Tensor,
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalises each (sample, channel) plane of an (N, C, *) input over its spatial dims."""
    shape = tuple(input.shape)
    if use_input_stats and int(np.prod(shape[2:], dtype=np.int64)) == 1:
        raise ValueError(
            "Expected more than 1 spatial element when training, got input size "
            f"torch.Size({list(shape)})"
        )
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither be None")
    if not use_input_stats and running_mean is None:
        raise RuntimeError(
            "Expected running_mean and running_var to be defined when use_input_stats is false"
        )
    if input.ndim < 2:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    n, c = shape[0], shape[1]
    mean, var = _repeated(running_mean, n), _repeated(running_var, n)
    viewed = input.contiguous().view((1, n * c) + shape[2:])
    out = batch_norm(
        viewed, mean, var, _repeated(weight, n), _repeated(bias, n), use_input_stats, momentum, eps
    )
    with no_grad():
        for stat, copies in ((running_mean, mean), (running_var, var)):
            if stat is not None:
                stat.copy_(copies.view(n, c).mean(0))
    return out.view(shape)
