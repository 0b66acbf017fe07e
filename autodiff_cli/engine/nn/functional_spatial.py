"""`F.affine_grid` and `F.grid_sample`: the spatial-transformer layers, over the op-table entries
`affine_grid_generator` and `grid_sampler_2d` (ops/grid_sampling.py), with PyTorch's checks,
messages and align_corners warning."""

from __future__ import annotations

import warnings
from typing import Any

from ..core import dtypes
from ..core.apply import apply_op
from ..core.tensor import Tensor
from ..ops.grid_sampling import (
    AFFINE_GRID_GENERATOR,
    GRID_SAMPLER_2D,
    GRID_SAMPLER_3D,
    MODES,
    PADDINGS,
)

__all__ = ["affine_grid", "grid_sample"]

_ALIGN_CORNERS_WARNING = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since "
    "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
    "documentation of grid_sample for details."
)


def _default_align_corners(align_corners: bool | None) -> bool:
    if align_corners is None:
        warnings.warn(_ALIGN_CORNERS_WARNING, UserWarning, stacklevel=3)
        return False
    return bool(align_corners)


def _sizes(t: Tensor) -> str:
    return "[" + ", ".join(str(n) for n in t.shape) + "]"


def _dtype_name(t: Tensor) -> str:
    return str(t.dtype)


def affine_grid(theta: Tensor, size: Any, align_corners: bool | None = None) -> Tensor:
    """The (N, H, W, 2) sampling grid of the affine maps `theta` (N, 2, 3) for an output of
    `size` (N, C, H, W); AffineGridGeneratorBackward0."""
    align_corners = _default_align_corners(align_corners)
    size = tuple(int(n) for n in size)
    if not theta.is_floating_point():
        raise ValueError(
            f"Expected theta to have floating point type, but got {_dtype_name(theta)}"
        )
    if len(size) not in (4, 5):
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {size}."
        )
    k = len(size) - 2
    if theta.ndim != 3 or tuple(theta.shape[1:]) != (k, k + 1):
        raise ValueError(
            f"Expected a batch of {k}D affine matrices of shape Nx{k}x{k + 1} for size "
            f"{size}. Got torch.Size({list(theta.shape)})."
        )
    if min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    if theta.shape[0] != size[0]:
        raise RuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{size[0]}, {k + 1}] but got: [{theta.shape[0]}, {k + 1}]."
        )
    params = {"size": size, "align_corners": align_corners}
    return apply_op(AFFINE_GRID_GENERATOR, (theta,), params)


def grid_sample(
    input: Tensor,
    grid: Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool | None = None,
) -> Tensor:
    """`input` (N, C, H, W) read at the (x, y) points of `grid` (N, Ho, Wo, 2), in [-1, 1];
    GridSampler2DBackward0 with edges to input and grid."""
    if mode not in MODES:
        raise ValueError(
            "nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or "
            f"'bicubic', but got: '{mode}'"
        )
    if padding_mode not in PADDINGS:
        raise ValueError(
            "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
            f"'reflection', but got: '{padding_mode}'"
        )
    align_corners = _default_align_corners(align_corners)
    sizes = f"input with sizes {_sizes(input)} and grid with sizes {_sizes(grid)}"
    if input.ndim < 1 or grid.ndim < 1 or input.shape[0] != grid.shape[0]:
        raise RuntimeError(
            f"grid_sampler(): expected grid and input to have same batch size, but got {sizes}"
        )
    if grid.shape[-1] != input.ndim - 2:
        raise RuntimeError(
            f"grid_sampler(): expected grid to have size {input.ndim - 2} in last dimension, "
            f"but got grid with sizes {_sizes(grid)}"
        )
    dims = 4 if input.ndim == 4 else 5  # (PyTorch's 3-D sampler takes any other rank)
    if input.ndim != dims or grid.ndim != dims:
        raise RuntimeError(
            f"grid_sampler(): expected {dims}D input and grid with same number of dimensions, "
            f"but got {sizes}"
        )
    if mode == "bicubic":
        raise NotImplementedError("grid_sample: bicubic mode is not supported yet")
    if not input.is_floating_point():
        word = dtypes.scalar_name(input._data.dtype)
        raise NotImplementedError(
            f'"{"grid_sampler_2d_cpu_kernel_impl" if dims == 4 else "grid_sampler3d_cpu"}" '
            f"not implemented for '{word}'"
        )
    if input.dtype != grid.dtype:
        want = dtypes.scalar_name(input._data.dtype)
        found = dtypes.scalar_name(grid._data.dtype)
        raise RuntimeError(f"expected scalar type {want} but found {found}")
    params = {
        "interpolation_mode": MODES[mode],
        "padding_mode": PADDINGS[padding_mode],
        "align_corners": align_corners,
    }
    return apply_op(GRID_SAMPLER_2D if input.ndim == 4 else GRID_SAMPLER_3D, (input, grid), params)
