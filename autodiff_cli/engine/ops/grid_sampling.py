"""`affine_grid_generator` and `grid_sampler_2d`: the kernels of `F.affine_grid` and
`F.grid_sample` (the spatial-transformer layers), each one op-table entry.

`affine_grid_generator` (AffineGridGeneratorBackward0, an edge to theta) maps a base grid of
normalised pixel centres through theta; its gradient is a matrix product with that grid, written
with backend ops so it has a graph of its own under create_graph. `grid_sampler_2d`
(GridSampler2DBackward0, edges to input and grid) samples an NCHW input at the grid's (x, y)
points, bilinearly or at the nearest pixel, with zeros/border/reflection padding (and
`grid_sampler_3d` a volume); its backward is the op `grid_sampler_2d_backward`
(GridSampler2DBackwardBackward0 under create_graph), with second derivatives of its own.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ..core.optable import defop
from .formula_ops import run

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
    """(points, k + 1) rows [x, y, (z,) 1] of the output grid of a `size` (N, C, *spatial),
    x along the last dimension."""
    spatial = size[2:]
    lines = [_line(n, align_corners, dtype) for n in spatial]
    axes = np.meshgrid(*lines, indexing="ij")  # one per spatial dim, outermost first
    columns = [a.reshape(-1) for a in reversed(axes)]  # x (last dim) first
    columns.append(np.ones(columns[0].shape, dtype))
    return np.stack(columns, axis=-1)


def _affine_grid(theta: np.ndarray, size: tuple, align_corners: bool) -> np.ndarray:
    base = base_grid(size, align_corners, theta.dtype)
    grid = base @ theta.swapaxes(1, 2)  # (N, points, k)
    return np.asarray(grid.reshape(size[0], *size[2:], len(size) - 2), theta.dtype)


def _affine_grid_grad(B: Any, g: Any, size: tuple, align_corners: bool) -> Any:
    """grad_theta[n] = grad[n]ᵀ · base grid: (k, points) @ (points, k + 1)."""
    dtype = g.dtype if isinstance(g, np.ndarray) else g._data.dtype
    base = B.const(base_grid(size, align_corners, dtype))
    flat = B.reshape(g, (size[0], base.shape[0], len(size) - 2))
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


def _points(input: np.ndarray, grid: np.ndarray, padding: int, align_corners: bool) -> list:
    """Per spatial dimension, outermost first: (pixel coordinate read, d it / d grid value)."""
    spatial = input.shape[2:]
    k = len(spatial)
    return [_source(grid[..., k - 1 - d], spatial[d], padding, align_corners) for d in range(k)]


def _corners(points: list, spatial: tuple, mode: int) -> list:
    """[(index per dimension, weight, in bounds, per dimension: +1/-1 side or None)] of the
    pixels a sample point reads: the nearest one, or the 2^k around it (weights products of
    1 - distance per dimension)."""
    if mode == MODES["nearest"]:
        index = [np.rint(c).astype(np.int64) for c, _ in points]
        one = np.ones_like(points[0][0])
        return [(index, one, _in_bounds(index, spatial), None)]
    lows = [np.floor(c) for c, _ in points]
    found = []
    for sides in itertools.product((0, 1), repeat=len(points)):
        index, weight = [], 1.0
        for (coord, _), low, side in zip(points, lows, sides):
            index.append((low + side).astype(np.int64))
            weight = weight * (coord - low if side else low + 1 - coord)
        found.append((index, weight, _in_bounds(index, spatial), sides))
    return found


def _in_bounds(index: list, spatial: tuple) -> np.ndarray:
    inside = np.ones(index[0].shape, bool)
    for i, n in zip(index, spatial):
        inside &= (i >= 0) & (i < n)
    return inside


def _gather(input: np.ndarray, index: list, valid: np.ndarray) -> np.ndarray:
    """input[n, :, *index] as (N, C, *out), 0 where out of bounds."""
    batch = np.arange(input.shape[0]).reshape((-1,) + (1,) * (valid.ndim - 1))
    safe = tuple(np.where(valid, i, 0) for i in index)
    values = np.moveaxis(input, 1, -1)[(batch, *safe)]  # (N, *out, C)
    return np.moveaxis(values * valid[..., None], -1, 1)


def _grid_sample(
    input: np.ndarray,
    grid: np.ndarray,
    interpolation_mode: int,
    padding_mode: int,
    align_corners: bool,
) -> np.ndarray:
    points = _points(input, grid, padding_mode, align_corners)
    out = np.zeros(input.shape[:2] + grid.shape[1:-1], input.dtype)
    for index, weight, valid, _ in _corners(points, input.shape[2:], interpolation_mode):
        out += _gather(input, index, valid) * weight[:, None]
    return out


def _grid_sample_backward(
    g: np.ndarray,
    input: np.ndarray,
    grid: np.ndarray,
    interpolation_mode: int,
    padding_mode: int,
    align_corners: bool,
    wanted: int,
) -> np.ndarray:
    """The gradient of input (`wanted` 0) or of grid (1) for the output gradient `g`."""
    points = _points(input, grid, padding_mode, align_corners)
    corners = _corners(points, input.shape[2:], interpolation_mode)
    if wanted == 0:
        grad = np.zeros(input.shape, input.dtype)
        rows = np.moveaxis(grad, 1, -1)  # (N, *spatial, C), a view written through
        batch = np.broadcast_to(
            np.arange(input.shape[0]).reshape((-1,) + (1,) * (grid.ndim - 2)), grid.shape[:-1]
        )
        for index, weight, valid, _ in corners:
            share = np.moveaxis(g * weight[:, None], 1, -1)[valid]  # (points, C)
            np.add.at(rows, (batch[valid], *(i[valid] for i in index)), share)
        return grad
    grad = np.zeros(grid.shape, grid.dtype)
    if interpolation_mode == MODES["nearest"]:
        return grad
    k = len(points)
    lows = [np.floor(c) for c, _ in points]
    for index, _, valid, sides in corners:
        value = (_gather(input, index, valid) * g).sum(1)  # (N, *out)
        for d in range(k):  # d weight / d coordinate d: ± the other dimensions' factors
            slope = 1.0 if sides[d] else -1.0
            for e, ((coord, _), low, side) in enumerate(zip(points, lows, sides)):
                if e != d:
                    slope = slope * (coord - low if side else low + 1 - coord)
            grad[..., k - 1 - d] += value * slope * points[d][1]
    return grad


def _factors(points: list, lows: list, sides: tuple) -> list:
    """Per dimension, a corner's weight factor: 1 - distance from the sample point."""
    return [
        coord - low if side else low + 1 - coord
        for (coord, _), low, side in zip(points, lows, sides)
    ]


def _weight_slopes(points: list, lows: list, sides: tuple, skip: int = -1) -> list:
    """Per dimension d, d weight / d grid value d (times d²/d grid `skip` when given): the
    other dimensions' factors, signed by the corner's side, times the padding slopes."""
    factors = _factors(points, lows, sides)
    slopes = []
    for d in range(len(points)):
        if d == skip:
            slopes.append(0.0)
            continue
        slope = (1.0 if sides[d] else -1.0) * points[d][1]
        for e, factor in enumerate(factors):
            if e == skip:
                slope = slope * (1.0 if sides[e] else -1.0) * points[e][1]
            elif e != d:
                slope = slope * factor
        slopes.append(slope)
    return slopes


def _backward_derivative(
    gg: np.ndarray,
    g: np.ndarray,
    input: np.ndarray,
    grid: np.ndarray,
    interpolation_mode: int,
    padding_mode: int,
    align_corners: bool,
    which: int,
) -> np.ndarray:
    """The grid gradient's derivative, applied to `gg` (its incoming gradient, grid-shaped), in
    grad_output (`which` 0), input (1) or grid (2). Bilinear weights are linear along each axis,
    so only the mixed second derivatives of the grid are not zero."""
    shapes = (g.shape, input.shape, grid.shape)
    out = np.zeros(shapes[which], input.dtype)
    if interpolation_mode == MODES["nearest"]:
        return out
    points = _points(input, grid, padding_mode, align_corners)
    lows = [np.floor(c) for c, _ in points]
    k = len(points)
    along = [gg[..., k - 1 - d] for d in range(k)]  # gg per dimension, outermost first
    rows = np.moveaxis(out, 1, -1)
    batch = np.broadcast_to(
        np.arange(input.shape[0]).reshape((-1,) + (1,) * (grid.ndim - 2)), grid.shape[:-1]
    )
    for index, _, valid, sides in _corners(points, input.shape[2:], interpolation_mode):
        slopes = _weight_slopes(points, lows, sides)
        directional = sum(s * a for s, a in zip(slopes, along))  # (N, *out)
        if which == 0:
            out += _gather(input, index, valid) * directional[:, None]
        elif which == 1:
            share = np.moveaxis(g * directional[:, None], 1, -1)[valid]
            np.add.at(rows, (batch[valid], *(i[valid] for i in index)), share)
        else:
            value = (_gather(input, index, valid) * g).sum(1)
            for e in range(k):
                mixed = _weight_slopes(points, lows, sides, skip=e)
                out[..., k - 1 - e] += value * sum(m * a for m, a in zip(mixed, along))
    return out


def _array(x: Any) -> np.ndarray:
    return x if isinstance(x, np.ndarray) else x._array()


def _double(which: int) -> Any:
    """The backward op's derivative in its input `which` (grad_output, input, grid): for the
    input's gradient (linear in grad_output, free of input) by the sampler itself; for the
    grid's by `_backward_derivative`, a constant under create_graph (PyTorch composes it of
    differentiable ops; a third derivative here is zero)."""

    def formula(B: Any, gg: Any, grad_output: Any, input: Any, grid: Any, **params: Any) -> Any:
        wanted = params.pop("wanted")
        if wanted == 0:
            if which == 0:
                return run(B, SAMPLERS[grid.ndim - 2], gg, grid, **params)
            if which == 1:
                return B.zeros_like(input)
            backward = SAMPLER_BACKWARDS[grid.ndim - 2]
            return run(B, backward, grad_output, gg, grid, wanted=1, **params)
        arrays = (_array(gg), _array(grad_output), _array(input), _array(grid))
        return B.const(_backward_derivative(*arrays, **params, which=which))

    return formula


def _sampler(dims: int) -> tuple:
    """The `grid_sampler_<dims>d` entry and its backward op (GridSampler<dims>DBackwardBackward0
    under create_graph)."""
    name = f"grid_sampler_{dims}d"
    backward = defop(
        name + "_backward",
        f"GridSampler{dims}DBackwardBackward0",
        _grid_sample_backward,
        _double(0),
        _double(1),
        _double(2),
        saves=(0, 1, 2),
        promotes=False,
        arg_names=("grad_output", "input", "grid"),
        rules=(
            "the sampler (input's gradient) or the grid slope of the sampled value (grid's)",
            "0 (input's gradient) or the grid slopes scattered to the pixels (grid's)",
            "the input's gradient's grid gradient, or the mixed grid slopes (grid's)",
        ),
        forward_ad=False,
    )
    forward = defop(
        name,
        f"GridSampler{dims}DBackward0",
        _grid_sample,
        lambda B, g, input, grid, **params: run(B, backward, g, input, grid, wanted=0, **params),
        lambda B, g, input, grid, **params: run(B, backward, g, input, grid, wanted=1, **params),
        promotes=False,
        arg_names=("input", "grid"),
        rules=(
            "the interpolation weight of each pixel a point reads",
            "the slope of the interpolated value along each axis (0 for nearest)",
        ),
        forward_ad=False,
    )
    return forward, backward


GRID_SAMPLER_2D, GRID_SAMPLER_2D_BACKWARD = _sampler(2)
GRID_SAMPLER_3D, GRID_SAMPLER_3D_BACKWARD = _sampler(3)
SAMPLERS = {2: GRID_SAMPLER_2D, 3: GRID_SAMPLER_3D}
SAMPLER_BACKWARDS = {2: GRID_SAMPLER_2D_BACKWARD, 3: GRID_SAMPLER_3D_BACKWARD}
