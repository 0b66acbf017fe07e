"""Pooling, resampling and unfold/fold ops (`F.max_pool2d`, `F.avg_pool2d`,
`F.adaptive_avg_pool2d`, `F.interpolate`, `F.unfold`, `F.fold`), each with its backward op.

Every backward here is linear in the incoming gradient, so it is an op of its own (PyTorch's
`*_backward` ops: MaxPool2DWithIndicesBackwardBackward0, AvgPool2DBackwardBackward0...) whose
formula is the forward again (or its adjoint): gradients of gradients work to any order.
Resampling (adaptive average, nearest, linear) is separable: one (out, in) matrix per spatial
dim; the forward gathers (exact and NaN-local), the backward multiplies by the transposes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.optable import defop
from .formula_ops import run
from .window_kernels import col2im, fold, pad_array, unfold, windows

# ---- max pooling -------------------------------------------------------------------------------


def max_pool_indices(x: np.ndarray, geometry: dict) -> np.ndarray:
    """The flat (h·W + w) index of each window's first maximum (NaN wins), as PyTorch returns."""
    kernel, stride, dilation = geometry["kernel"], geometry["stride"], geometry["dilation"]
    padding, outs = geometry["padding"], geometry["outs"]
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    view = windows(pad_array(x, padding, fill), outs, kernel, stride, dilation)
    nd = len(kernel)
    flat = view.reshape(view.shape[: view.ndim - nd] + (-1,))
    best = np.argmax(flat, axis=-1)  # (first maximum; numpy's argmax also stops at a NaN)
    index = np.zeros(best.shape, np.int64)
    rest = best
    sizes = x.shape[x.ndim - nd :]
    for i in reversed(range(nd)):  # kernel offsets back to input coordinates, last dim first
        k, rest = rest % kernel[i], rest // kernel[i]
        start = np.arange(outs[i]) * stride[i] - padding[i][0]
        shape = [1] * best.ndim
        shape[best.ndim - nd + i] = outs[i]
        coord = start.reshape(shape) + k * dilation[i]
        index += coord * int(np.prod(sizes[i + 1 :], dtype=np.int64))
    return index


def _gather(x: np.ndarray, indices: np.ndarray, nd: int) -> np.ndarray:
    lead = x.shape[: x.ndim - nd]
    flat = x.reshape(lead + (-1,))
    picked = np.take_along_axis(flat, indices.reshape(lead + (-1,)), axis=-1)
    return picked.reshape(indices.shape)


def _scatter(g: np.ndarray, indices: np.ndarray, size: tuple) -> np.ndarray:
    """g added at `indices` into zeros of the input's spatial `size` (one bincount)."""
    nd = len(size)
    lead = g.shape[: g.ndim - nd]
    per = int(np.prod(size, dtype=np.int64))
    rows = int(np.prod(lead, dtype=np.int64))
    offsets = (np.arange(rows, dtype=np.int64) * per).reshape(lead + (1,) * nd)
    flat = (indices + offsets).reshape(-1)
    summed = np.bincount(flat, weights=g.reshape(-1), minlength=rows * per)
    return summed.astype(g.dtype, copy=False).reshape(lead + tuple(size))


def _max_pool(x: Any, indices: Any, size: tuple) -> np.ndarray:
    return _gather(x, indices, len(size))


def _linear_pair(name: str, grad_fn: str, forward: Any, backward: Any, rules: tuple) -> tuple:
    """An op linear in its input and its backward op (`name`_backward, grad_fn
    ...BackwardBackward0), each the other's gradient formula; `rules` describes each one's."""
    op = defop(
        name, grad_fn, forward,
        lambda B, g, **params: run(B, back, g, **params),
        promotes=False, rules=(rules[0],),
    )  # fmt: skip
    back = defop(
        name + "_backward", grad_fn.replace("Backward0", "BackwardBackward0"), backward,
        lambda B, gg, **params: run(B, op, gg, **params),
        promotes=False, arg_names=("grad_output",), rules=(rules[1],),
    )  # fmt: skip
    return op, back


MAX_POOL2D, MAX_POOL2D_BACKWARD = _linear_pair(
    "max_pool2d_with_indices",
    "MaxPool2DWithIndicesBackward0",
    _max_pool,
    lambda g, indices, size: _scatter(g, indices, size),
    ("1 at each window's maximum", "grad at each window's maximum"),
)


def adaptive_max_indices(x: np.ndarray, outs: tuple) -> np.ndarray:
    """The flat (h·W + w) index of each adaptive window's maximum over the last two dims: the
    first maximum, or the last NaN (PyTorch's loop: `val > max || isnan(val)`)."""
    lead, sizes = x.shape[:-2], x.shape[-2:]
    index = np.zeros(lead + tuple(outs), np.int64)
    (rows_start, rows_end), _, _ = adaptive_plan(sizes[0], outs[0])
    (cols_start, cols_end), _, _ = adaptive_plan(sizes[1], outs[1])
    for i, (h0, h1) in enumerate(zip(rows_start, rows_end)):
        for j, (w0, w1) in enumerate(zip(cols_start, cols_end)):
            window = x[..., h0:h1, w0:w1].reshape(lead + (-1,))
            best = np.argmax(window, axis=-1)
            if x.dtype.kind in "fc":
                nan = np.isnan(window)
                last_nan = window.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
                best = np.where(nan.any(axis=-1), last_nan, best)
            width = w1 - w0
            index[..., i, j] = (h0 + best // width) * sizes[1] + w0 + best % width
    return index


ADAPTIVE_MAX_POOL2D, ADAPTIVE_MAX_POOL2D_BACKWARD = _linear_pair(
    "adaptive_max_pool2d",
    "AdaptiveMaxPool2DBackward0",
    _max_pool,
    lambda g, indices, size: _scatter(g, indices, size),
    ("1 at each adaptive window's maximum", "grad at each adaptive window's maximum"),
)

# ---- average pooling -----------------------------------------------------------------------------


def avg_divisors(geometry: dict, sizes: tuple) -> np.ndarray:
    """Each window's divisor, as PyTorch's kernel counts it (per output position)."""
    kernel, stride, padding, outs = (
        geometry["kernel"], geometry["stride"], geometry["padding"], geometry["outs"],
    )  # fmt: skip
    if geometry["divisor_override"]:
        return np.full(outs, float(geometry["divisor_override"]))
    counts = []
    for k, s, (pad, _), o, size in zip(kernel, stride, padding, outs, sizes):
        start = np.arange(o) * s - pad
        end = np.minimum(start + k, size + pad)
        whole = end - start
        clipped = np.minimum(end, size) - np.maximum(start, 0)
        counts.append(whole if geometry["count_include_pad"] else clipped)
    divisor = counts[0]
    for c in counts[1:]:
        divisor = np.multiply.outer(divisor, c)
    return divisor.astype(np.float64)


def _avg_pool(x: Any, divisor: Any, **geometry: Any) -> np.ndarray:
    kernel = geometry["kernel"]
    nd = len(kernel)
    view = windows(pad_array(x, geometry["padding"]), geometry["outs"], kernel,
                   geometry["stride"], (1,) * nd)  # fmt: skip
    total = view.sum(axis=tuple(range(view.ndim - nd, view.ndim)))
    if x.dtype.kind != "f":
        return (total // divisor.astype(np.int64)).astype(x.dtype)
    return (total / divisor.astype(x.dtype)).astype(x.dtype, copy=False)


def _avg_pool_backward(g: Any, divisor: Any, **geometry: Any) -> np.ndarray:
    kernel, size, padding = geometry["kernel"], geometry["size"], geometry["padding"]
    nd = len(kernel)
    share = g / divisor.astype(g.dtype)
    lead, outs = share.shape[:-nd], share.shape[-nd:]
    cols = np.broadcast_to(share.reshape(lead + (1,) * nd + outs), lead + tuple(kernel) + outs)
    padded = tuple(s + lo + hi for s, (lo, hi) in zip(size, padding))
    return np.ascontiguousarray(col2im(cols, padded, padding, geometry["stride"], (1,) * nd))


AVG_POOL2D, AVG_POOL2D_BACKWARD = _linear_pair(
    "avg_pool2d",
    "AvgPool2DBackward0",
    _avg_pool,
    _avg_pool_backward,
    ("1 / divisor over each window", "the average pool of grad"),
)

# ---- separable resampling: adaptive average pooling, nearest and linear interpolation ------------


def _along(x: np.ndarray, axis: int, plan: tuple) -> np.ndarray:
    """One dim resampled by `plan`: ("take", index) or ("blend", i0, i1, l0, l1)."""
    if plan[0] == "take":
        return np.take(x, plan[1], axis=axis)
    _, i0, i1, l0, l1 = plan
    shape = [1] * x.ndim
    shape[axis] = len(i0)
    l0 = l0.astype(x.dtype).reshape(shape)
    l1 = l1.astype(x.dtype).reshape(shape)
    return l0 * np.take(x, i0, axis=axis) + l1 * np.take(x, i1, axis=axis)


def _resample(x: Any, plans: tuple, matrices: tuple) -> np.ndarray:
    """Nearest/linear interpolation: the last dim first, as PyTorch's kernels weigh."""
    nd = len(plans)
    out = x
    for i in reversed(range(nd)):
        out = _along(out, x.ndim - nd + i, plans[i])
    return np.ascontiguousarray(out)


def _apply_matrices(x: np.ndarray, matrices: tuple, transpose: bool) -> np.ndarray:
    """x with each of its last len(matrices) dims multiplied by its (out, in) matrix (or, with
    `transpose`, by its transpose)."""
    nd = len(matrices)
    out = x
    for i, m in enumerate(matrices):
        m = (m.T if transpose else m).astype(x.dtype)
        axis = x.ndim - nd + i
        out = np.moveaxis(np.tensordot(m, np.moveaxis(out, axis, 0), axes=(1, 0)), 0, axis)
    return np.ascontiguousarray(out)


def _adaptive_avg(x: Any, plans: tuple, matrices: tuple, areas: Any) -> np.ndarray:
    """Each window's sum / its size; a window holding inf or NaN stays local (gather path)."""
    if x.dtype.kind == "f" and not np.isfinite(x).all():
        return _adaptive_slow(x, plans, areas)
    return (_apply_matrices(x, matrices, False) / areas.astype(x.dtype)).astype(x.dtype)


def _adaptive_slow(x: np.ndarray, plans: tuple, areas: Any) -> np.ndarray:
    """The windowed sums by cumulative sums along each dim (inf and NaN stay in their windows)."""
    out = x
    nd = len(plans)
    for i, (start, end) in enumerate(plans):
        axis = x.ndim - nd + i
        cells = [np.take(out, range(s, e), axis=axis).sum(axis=axis, keepdims=True)
                 for s, e in zip(start, end)]  # fmt: skip
        out = np.concatenate(cells, axis=axis)
    return (out / areas.astype(x.dtype)).astype(x.dtype)


def _adaptive_backward(g: Any, plans: tuple, matrices: tuple, areas: Any) -> np.ndarray:
    return _apply_matrices(g / areas.astype(g.dtype), matrices, True)


def _resample_backward(g: Any, plans: tuple, matrices: tuple) -> np.ndarray:
    return _apply_matrices(g, matrices, True)


_RESAMPLING_RULES = ("the adjoint resampling of grad", "the resampling of grad")
ADAPTIVE_AVG_POOL = {
    nd: _linear_pair(
        f"adaptive_avg_pool{nd}d",
        f"AdaptiveAvgPool{nd}DBackward0",
        _adaptive_avg,
        _adaptive_backward,
        _RESAMPLING_RULES,
    )  # fmt: skip
    for nd in (2,)  # (F.adaptive_avg_pool1d is the 2-d op over (1, L); no 3-d form yet)
}
UPSAMPLE = {
    (mode, nd): _linear_pair(
        f"upsample_{mode}{nd}d",
        f"Upsample{label}{nd}DBackward0",
        _resample,
        _resample_backward,
        _RESAMPLING_RULES,
    )
    for mode, label, dims in (
        ("nearest", "Nearest", (1, 2, 3)),
        ("nearest_exact", "NearestExact", (1, 2, 3)),
        ("linear", "Linear", (1,)),
        ("bilinear", "Bilinear", (2,)),
        ("trilinear", "Trilinear", (3,)),
    )
    for nd in dims
}


def adaptive_plan(size: int, out: int) -> tuple[tuple, np.ndarray, np.ndarray]:
    """PyTorch's adaptive windows [floor(i·in/out), ceil((i+1)·in/out)): (starts, ends), the
    (out, in) 0/1 matrix and the window lengths."""
    i = np.arange(out)
    start = (i * size) // out
    end = -((-(i + 1) * size) // out)
    cols = np.arange(size)
    matrix = ((cols >= start[:, None]) & (cols < end[:, None])).astype(np.float64)
    return (tuple(start.tolist()), tuple(end.tolist())), matrix, (end - start).astype(np.float64)


def nearest_plan(size: int, out: int, scale: float, exact: bool) -> tuple[tuple, np.ndarray]:
    """Source index of each output position (`floor(i·scale)`, or `floor((i+0.5)·scale)` for
    nearest-exact, in float32 as PyTorch's kernel), clipped to the input; and the (out, in)
    matrix."""
    i = np.arange(out, dtype=np.float32)
    scale32 = np.float32(scale)
    src = np.floor((i + np.float32(0.5)) * scale32) if exact else np.floor(i * scale32)
    index = np.minimum(src.astype(np.int64), size - 1)
    matrix = np.zeros((out, size))
    matrix[np.arange(out), index] = 1.0
    return ("take", index), matrix


def linear_plan(
    size: int, out: int, scale: float, align_corners: bool, dtype: np.dtype
) -> tuple[tuple, Any]:
    """The two source indices and weights of each output position, computed in the input's
    float dtype as PyTorch's area_pixel_compute_source_index; and the (out, in) matrix."""
    i = np.arange(out).astype(dtype)
    scale = dtype.type(scale)
    if align_corners:
        src = i * scale
    else:
        src = np.maximum((i + dtype.type(0.5)) * scale - dtype.type(0.5), dtype.type(0))
    i0 = np.minimum(np.floor(src).astype(np.int64), size - 1)
    i1 = np.minimum(i0 + 1, size - 1)
    l1 = (src - i0.astype(dtype)).astype(dtype)
    l0 = (dtype.type(1) - l1).astype(dtype)
    matrix = np.zeros((out, size))
    np.add.at(matrix, (np.arange(out), i0), l0.astype(np.float64))
    np.add.at(matrix, (np.arange(out), i1), l1.astype(np.float64))
    return ("blend", i0, i1, l0, l1), matrix


# ---- unfold / fold ---------------------------------------------------------------------------------

UNFOLD = defop(
    "im2col",
    "Im2ColBackward0",
    lambda x, size, **p: unfold(x, p["kernel"], p["dilation"], p["padding"], p["stride"]),
    lambda B, g, **params: run(B, FOLD_OP, g, **params),
    promotes=False,
    rules=("the sum of grad over the blocks each element is in",),
)
FOLD_OP = defop(
    "col2im",
    "Col2ImBackward0",
    lambda c, size, **p: fold(c, size, p["kernel"], p["dilation"], p["padding"], p["stride"]),
    lambda B, g, **params: run(B, UNFOLD, g, **params),
    promotes=False,
    rules=("the blocks of grad",),
)
