"""Rearrangements of channels: pixel_shuffle, pixel_unshuffle (sub-pixel convolution, ESPCN)
and channel_shuffle (ShuffleNet), each one `defop` whose gradient is the inverse rearrangement
(PixelShuffleBackward0's is pixel_unshuffle, ChannelShuffleBackward0's a channel_shuffle with
C / groups groups), as PyTorch's derivatives, so gradients of gradients work to any order."""

from __future__ import annotations

import numpy as np

from ..core.apply import apply_op
from ..core.optable import defop
from ..core.tensor import Tensor
from .formula_ops import run

__all__ = ["channel_shuffle", "pixel_shuffle", "pixel_unshuffle"]


def _pixel_shuffle(a: np.ndarray, upscale_factor: int) -> np.ndarray:
    """(*, C·r², H, W) -> (*, C, H·r, W·r)."""
    r = upscale_factor
    lead, (c, h, w) = a.shape[:-3], a.shape[-3:]
    k = len(lead)
    blocks = a.reshape(lead + (c // (r * r), r, r, h, w))
    order = tuple(range(k)) + tuple(k + i for i in (0, 3, 1, 4, 2))
    return np.ascontiguousarray(blocks.transpose(order)).reshape(
        lead + (c // (r * r), h * r, w * r)
    )


def _pixel_unshuffle(a: np.ndarray, downscale_factor: int) -> np.ndarray:
    """(*, C, H·r, W·r) -> (*, C·r², H, W)."""
    r = downscale_factor
    lead, (c, h, w) = a.shape[:-3], a.shape[-3:]
    k = len(lead)
    blocks = a.reshape(lead + (c, h // r, r, w // r, r))
    order = tuple(range(k)) + tuple(k + i for i in (0, 2, 4, 1, 3))
    return np.ascontiguousarray(blocks.transpose(order)).reshape(lead + (c * r * r, h // r, w // r))


def _channel_shuffle(a: np.ndarray, groups: int) -> np.ndarray:
    """(N, C, *) -> the channels read as a (groups, C / groups) grid, column by column."""
    n, c, rest = a.shape[0], a.shape[1], a.shape[2:]
    grid = a.reshape((n, groups, c // groups) + rest)
    return np.ascontiguousarray(grid.swapaxes(1, 2)).reshape(a.shape)


PIXEL_SHUFFLE = defop(
    "pixel_shuffle",
    "PixelShuffleBackward0",
    _pixel_shuffle,
    lambda B, g, upscale_factor: run(B, PIXEL_UNSHUFFLE, g, downscale_factor=upscale_factor),
    promotes=False,
    rules=("pixel_unshuffle(grad, upscale_factor)",),
)
PIXEL_UNSHUFFLE = defop(
    "pixel_unshuffle",
    "PixelUnshuffleBackward0",
    _pixel_unshuffle,
    lambda B, g, downscale_factor: run(B, PIXEL_SHUFFLE, g, upscale_factor=downscale_factor),
    promotes=False,
    rules=("pixel_shuffle(grad, downscale_factor)",),
)
CHANNEL_SHUFFLE = defop(
    "channel_shuffle",
    "ChannelShuffleBackward0",
    _channel_shuffle,
    lambda B, g, groups: run(B, CHANNEL_SHUFFLE, g, groups=g.shape[1] // groups),
    promotes=False,
    rules=("channel_shuffle(grad, C / groups)",),
)


def _int_argument(function: str, name: str, value: object) -> int:
    """PyTorch's argument parser: an int (not a float, not a Tensor) at position 2."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(
            f"{function}(): argument '{name}' (position 2) must be int, not {type(value).__name__}"
        )
    return int(value)


def _at_least_3d(input: Tensor, what: str) -> None:
    if input.ndim < 3:
        raise RuntimeError(
            f"{what} expects input to have at least 3 dimensions, but got input with "
            f"{input.ndim} dimension(s)"
        )


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """`torch.pixel_shuffle`: (*, C·r², H, W) -> (*, C, H·r, W·r)."""
    r = _int_argument("pixel_shuffle", "upscale_factor", upscale_factor)
    _at_least_3d(input, "pixel_shuffle")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    c = input.shape[-3]
    if c % (r * r):
        raise RuntimeError(
            "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
            f"of upscale_factor, but input.size(-3)={c} is not divisible by {r * r}"
        )
    return apply_op(PIXEL_SHUFFLE, (input,), {"upscale_factor": r})


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """`torch.pixel_unshuffle`: (*, C, H·r, W·r) -> (*, C·r², H, W)."""
    r = _int_argument("pixel_unshuffle", "downscale_factor", downscale_factor)
    _at_least_3d(input, "pixel_unshuffle")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    for name, dim in (("height", -2), ("width", -1)):
        if input.shape[dim] % r:
            raise RuntimeError(
                f"pixel_unshuffle expects {name} to be divisible by downscale_factor, but "
                f"input.size({dim})={input.shape[dim]} is not divisible by {r}"
            )
    return apply_op(PIXEL_UNSHUFFLE, (input,), {"downscale_factor": r})


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """`torch.channel_shuffle`: the channels of an (N, C, *) input interleaved across groups."""
    groups = _int_argument("channel_shuffle", "groups", groups)
    if groups <= 0:
        raise RuntimeError(
            f"Number of groups to divide channels in must be positive. Value of groups:{groups}"
        )
    if input.ndim <= 2:
        raise RuntimeError(
            f"channel_shuffle expects input with > 2 dims, but got input with sizes "
            f"{list(input.shape)}"
        )
    c = input.shape[1]
    if c % groups:
        raise RuntimeError(
            f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups."
        )
    return apply_op(CHANNEL_SHUFFLE, (input,), {"groups": groups})
