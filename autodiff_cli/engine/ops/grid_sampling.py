"""`affine_grid_generator` and `grid_sampler_2d`: the kernels of `F.affine_grid` and
`F.grid_sample` (the spatial-transformer layers), each one op-table entry.

`affine_grid_generator` (AffineGridGeneratorBackward0, an edge to theta) maps a base grid of
normalised pixel centres through theta; its gradient is a matrix product with that grid, written
with backend ops so it has a graph of its own under create_graph. `grid_sampler_2d`
(GridSampler2DBackward0, edges to input and grid) samples an NCHW input at the grid's (x, y)
points, bilinearly or at the nearest pixel, with zeros/border/reflection padding; its backward is
the op `grid_sampler_2d_backward`, which PyTorch gives no derivative (NotImplemented).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.optable import defop
from .formula_ops import not_implemented_formula, run

MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
PADDINGS = {"zeros": 0, "border": 1, "reflection": 2}

# --------------------------------------------------------------------------------------------
# affine_grid_generator
# --------------------------------------------------------------------------------------------


def _line(steps: int, align_corners: bool, dtype: np.dtype) -> np.ndarray:
    """Normalised pixel centres along one axis (PyTorch's linspace_from_neg_one)."""
    if steps <= 1:
        return np.zeros(max(steps, 0), dtype)
    line = np.linspace(-1.0, 1.0, steps)
    if not align_corners:
        line = line * (steps - 1) / steps
    return line.astype(dtype)


def base_grid(size: tuple, align_corners: bool, dtype: np.dtype) -> np.ndarray:
    """(H·W, 3) rows [x, y, 1] of the output grid of a 2-D `size` (N, C, H, W)."""
    height, width = size[2], size[3]
    xs = np.broadcast_to(_line(width, align_corners, dtype), (height, width))
    ys = np.broadcast_to(_line(height, align_corners, dtype)[:, None], (height, width))
    ones = np.ones((height, width), dtype)
    return np.stack([xs, ys, ones], axis=-1).reshape(height * width, 3)


def _affine_grid(theta: np.ndarray, size: tuple, align_corners: bool) -> np.ndarray:
    base = base_grid(size, align_corners, theta.dtype)
    grid = base @ theta.swapaxes(1, 2)  # (N, H·W, 2)
    return np.asarray(grid.reshape(size[0], size[2], size[3], 2), theta.dtype)


def _affine_grid_grad(B: Any, g: Any, size: tuple, align_corners: bool) -> Any:
    """grad_theta[n] = grad[n]ᵀ · base grid: (2, H·W) @ (H·W, 3)."""
    dtype = g.dtype if isinstance(g, np.ndarray) else g._data.dtype
    base = B.const(base_grid(size, align_corners, dtype))
    flat = B.reshape(g, (size[0], size[2] * size[3], 2))
    return B.transpose(flat, 1, 2) @ base


AFFINE_GRID_GENERATOR = defop(
    "affine_grid_generator",
    "AffineGridGeneratorBackward0",
    _affine_grid,
    _affine_grid_grad,
    promotes=False,
    arg_names=("theta",),
    rules=("the base grid of normalised pixel centres (grad_theta = gradᵀ · base)",),
)

# --------------------------------------------------------------------------------------------
# grid_sampler_2d
# --------------------------------------------------------------------------------------------


def _unnormalize(coord: np.ndarray, size: int, align_corners: bool) -> tuple[np.ndarray, float]:
    """Pixel coordinate of a normalised one in [-1, 1], and d pixel / d normalised."""
    if align_corners:
        return (coord + 1) / 2 * (size - 1), (size - 1) / 2
    return ((coord + 1) * size - 1) / 2, size / 2


def _clip(coord: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Clamped into [0, size - 1]; the slope is 0 where clamped (PyTorch's set_grad rule)."""
    inside = (coord > 0) & (coord < size - 1)
    return np.clip(coord, 0, size - 1), inside.astype(coord.dtype)


def _reflect(coord: np.ndarray, twice_low: int, twice_high: int) -> tuple[np.ndarray, np.ndarray]:
    """Reflected into [low, high] off both edges, with the slope's sign."""
    if twice_low == twice_high:
        return np.zeros_like(coord), np.zeros_like(coord)
    low = twice_low / 2
    span = (twice_high - twice_low) / 2
    shifted = coord - low
    sign = np.where(shifted < 0, -1.0, 1.0).astype(coord.dtype)
    shifted = np.abs(shifted)
    extra = np.fmod(shifted, span)
    flips = np.floor(shifted / span)
    even = flips % 2 == 0
    out = np.where(even, extra + low, span - extra + low)
    return out.astype(coord.dtype), np.where(even, sign, -sign).astype(coord.dtype)


def _source(coord: np.ndarray, size: int, padding: int, align_corners: bool) -> tuple:
    """The pixel coordinate a grid value reads (after padding), and its d / d grid value."""
    pixel, slope = _unnormalize(coord, size, align_corners)
    slope = np.full_like(coord, slope)
    if padding == PADDINGS["border"]:
        pixel, inside = _clip(pixel, size)
        slope = slope * inside
    elif padding == PADDINGS["reflection"]:
        twice = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        pixel, sign = _reflect(pixel, *twice)
        pixel, inside = _clip(pixel, size)
        slope = slope * sign * inside
    return pixel, slope


def _corners(ix: np.ndarray, iy: np.ndarray, height: int, width: int, mode: int) -> list:
    """[(x index, y index, weight, in bounds)] of the pixels a sample point reads."""
    if mode == MODES["nearest"]:
        x, y = np.rint(ix).astype(np.int64), np.rint(iy).astype(np.int64)
        one = np.ones_like(ix)
        return [(x, y, one, (x >= 0) & (x < width) & (y >= 0) & (y < height))]
    x0, y0 = np.floor(ix), np.floor(iy)
    x1, y1 = x0 + 1, y0 + 1
    found = []
    for x, y, w in (
        (x0, y0, (x1 - ix) * (y1 - iy)),
        (x1, y0, (ix - x0) * (y1 - iy)),
        (x0, y1, (x1 - ix) * (iy - y0)),
        (x1, y1, (ix - x0) * (iy - y0)),
    ):
        xi, yi = x.astype(np.int64), y.astype(np.int64)
        found.append((xi, yi, w, (xi >= 0) & (xi < width) & (yi >= 0) & (yi < height)))
    return found


def _points(input: np.ndarray, grid: np.ndarray, mode: int, padding: int, align_corners: bool):
    height, width = input.shape[2], input.shape[3]
    ix, slope_x = _source(grid[..., 0], width, padding, align_corners)
    iy, slope_y = _source(grid[..., 1], height, padding, align_corners)
    return ix, iy, slope_x, slope_y, _corners(ix, iy, height, width, mode)


def _gather(input: np.ndarray, x: np.ndarray, y: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """input[n, :, y, x] as (N, C, Ho, Wo), 0 where out of bounds."""
    batch = np.arange(input.shape[0]).reshape(-1, 1, 1)
    values = input[batch, :, np.where(valid, y, 0), np.where(valid, x, 0)]  # (N, Ho, Wo, C)
    return np.moveaxis(values * valid[..., None], -1, 1)


def _grid_sampler_2d(
    input: np.ndarray,
    grid: np.ndarray,
    interpolation_mode: int,
    padding_mode: int,
    align_corners: bool,
) -> np.ndarray:
    *_, corners = _points(input, grid, interpolation_mode, padding_mode, align_corners)
    out = np.zeros(input.shape[:2] + grid.shape[1:3], input.dtype)
    for x, y, weight, valid in corners:
        out += _gather(input, x, y, valid) * weight[:, None]
    return out


def _grid_sampler_2d_backward(
    g: np.ndarray,
    input: np.ndarray,
    grid: np.ndarray,
    interpolation_mode: int,
    padding_mode: int,
    align_corners: bool,
    wanted: int,
) -> np.ndarray:
    """The gradient of input (`wanted` 0) or of grid (1) for the output gradient `g`."""
    mode = interpolation_mode
    ix, iy, slope_x, slope_y, corners = _points(input, grid, mode, padding_mode, align_corners)
    if wanted == 0:
        grad = np.zeros(input.shape, input.dtype)
        rows = grad.transpose(0, 2, 3, 1)  # (N, H, W, C), a view written through
        batch = np.broadcast_to(np.arange(input.shape[0]).reshape(-1, 1, 1), ix.shape)
        for x, y, weight, valid in corners:
            share = np.moveaxis(g * weight[:, None], 1, -1)[valid]  # (points, C)
            np.add.at(rows, (batch[valid], y[valid], x[valid]), share)
        return grad
    grad = np.zeros(grid.shape, grid.dtype)
    if mode == MODES["nearest"]:
        return grad
    (x0, y0, _, v00), (x1, _, _, v10), (_, y1, _, v01), (_, _, _, v11) = corners
    nw, ne = _gather(input, x0, y0, v00), _gather(input, x1, y0, v10)
    sw, se = _gather(input, x0, y1, v01), _gather(input, x1, y1, v11)
    dx1, dy1 = (x1 - ix)[:, None], (y1 - iy)[:, None]
    dx0, dy0 = (ix - x0)[:, None], (iy - y0)[:, None]
    gx = ((ne - nw) * dy1 + (se - sw) * dy0) * g
    gy = ((sw - nw) * dx1 + (se - ne) * dx0) * g
    grad[..., 0] = gx.sum(1) * slope_x
    grad[..., 1] = gy.sum(1) * slope_y
    return grad


def _no_second_derivative(B: Any, gg: Any, *saved: Any, **params: Any) -> Any:
    raise RuntimeError("derivative for aten::grid_sampler_2d_backward is not implemented")


GRID_SAMPLER_2D_BACKWARD = defop(
    "grid_sampler_2d_backward",
    "NotImplemented",
    _grid_sampler_2d_backward,
    not_implemented_formula("grid_sampler_2d_backward", _no_second_derivative),
    not_implemented_formula("grid_sampler_2d_backward", _no_second_derivative),
    not_implemented_formula("grid_sampler_2d_backward", _no_second_derivative),
    saves=(0, 1, 2),
    promotes=False,
    arg_names=("grad_output", "input", "grid"),
    rules=("not differentiable", "not differentiable", "not differentiable"),
)
GRID_SAMPLER_2D_BACKWARD.node_cls.name = lambda self: "torch::autograd::NotImplemented"
GRID_SAMPLER_2D = defop(
    "grid_sampler_2d",
    "GridSampler2DBackward0",
    _grid_sampler_2d,
    lambda B, g, input, grid, **params: run(
        B, GRID_SAMPLER_2D_BACKWARD, g, input, grid, wanted=0, **params
    ),
    lambda B, g, input, grid, **params: run(
        B, GRID_SAMPLER_2D_BACKWARD, g, input, grid, wanted=1, **params
    ),
    promotes=False,
    arg_names=("input", "grid"),
    rules=(
        "the interpolation weight of each pixel a point reads",
        "the slope of the interpolated value along x and y (0 for nearest)",
    ),
)
