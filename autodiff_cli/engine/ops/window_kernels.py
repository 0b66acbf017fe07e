"""numpy kernels for ops that slide a window over the spatial dims of an (N, C, *spatial) array:
convolution, pooling, unfold/fold.

No Python loop runs over pixels: `windows` views every window of a padded array at once
(stride tricks), `im2col` copies them into rows a matmul consumes, and `col2im` adds rows back
with one loop over the kernel's offsets (25 for a 5x5 kernel), each a strided slice of all
pixels. Spatial dims may be 1, 2 or 3; `padding` is one (before, after) pair per spatial dim.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ..core.limits import check_elements

_as_strided = np.lib.stride_tricks.as_strided


def out_size(size: int, pad: tuple, kernel: int, stride: int, dilation: int) -> int:
    """How many windows fit along one dim (floor mode)."""
    return (size + pad[0] + pad[1] - dilation * (kernel - 1) - 1) // stride + 1


def pad_array(x: np.ndarray, padding: tuple, value: float = 0.0) -> np.ndarray:
    """`x` with its spatial dims padded by `value` ((before, after) pairs, none negative)."""
    if not any(lo or hi for lo, hi in padding):
        return x
    lead = x.ndim - len(padding)
    shape = x.shape[:lead] + tuple(s + lo + hi for s, (lo, hi) in zip(x.shape[lead:], padding))
    check_elements(math.prod(shape), shape)
    out = np.full(shape, value, x.dtype)
    inner = tuple(slice(lo, lo + s) for s, (lo, _) in zip(x.shape[lead:], padding))
    out[(Ellipsis, *inner)] = x
    return out


def windows(
    xp: np.ndarray, outs: tuple, kernel: tuple, stride: tuple, dilation: tuple
) -> np.ndarray:
    """A read-only view (*lead, *outs, *kernel) of every window of the padded array `xp`."""
    nd = len(kernel)
    lead = xp.ndim - nd
    st = xp.strides
    shape = xp.shape[:lead] + tuple(outs) + tuple(kernel)
    strides = (
        st[:lead]
        + tuple(st[lead + i] * stride[i] for i in range(nd))
        + tuple(st[lead + i] * dilation[i] for i in range(nd))
    )
    return _as_strided(xp, shape, strides, writeable=False)


def col2im(
    cols: np.ndarray, padded: tuple, padding: tuple, stride: tuple, dilation: tuple
) -> np.ndarray:
    """The adjoint of `windows`: `cols` (*lead, *kernel, *outs) added into a zero array of the
    padded spatial shape `padded`, then cropped by `padding`."""
    nd = len(padded)
    lead = cols.shape[: cols.ndim - 2 * nd]
    kernel = cols.shape[len(lead) : len(lead) + nd]
    outs = cols.shape[len(lead) + nd :]
    shape = tuple(lead) + tuple(padded)
    check_elements(math.prod(shape), shape)
    acc = np.zeros(shape, cols.dtype)
    head = (slice(None),) * len(lead)
    for offset in itertools.product(*(range(k) for k in kernel)):
        target = tuple(
            slice(k * d, k * d + s * (o - 1) + 1, s)
            for k, d, s, o in zip(offset, dilation, stride, outs)
        )
        acc[head + target] += cols[head + offset]
    inner = tuple(slice(lo, p - hi) for p, (lo, hi) in zip(padded, padding))
    return acc[(Ellipsis, *inner)]


# ---- convolution: y = conv(x, w); its two adjoints ---------------------------------------------


def _group_rows(x: np.ndarray, geometry: dict, kernel: tuple) -> tuple[np.ndarray, tuple]:
    """x (N, C, *S) as im2col rows per group: (G, N·L, C/G·K) and the output sizes."""
    padding, stride, dilation = geometry["padding"], geometry["stride"], geometry["dilation"]
    groups = geometry["groups"]
    n, c = x.shape[:2]
    nd = len(kernel)
    outs = tuple(
        out_size(s, p, k, st, d)
        for s, p, k, st, d in zip(x.shape[2:], padding, kernel, stride, dilation)
    )
    length, kk = math.prod(outs), math.prod(kernel)
    check_elements(n * length * c * kk)
    view = windows(pad_array(x, padding), outs, kernel, stride, dilation)
    view = view.reshape((n, groups, c // groups) + outs + kernel)
    order = (1, 0, *range(3, 3 + nd), 2, *range(3 + nd, 3 + 2 * nd))
    rows = np.ascontiguousarray(view.transpose(order)).reshape(groups, n * length, -1)
    return rows, outs


def _group_grads(g: np.ndarray, groups: int) -> np.ndarray:
    """g (N, O, *outs) as (G, N·L, O/G)."""
    n, o = g.shape[:2]
    per = g.reshape(n, groups, o // groups, -1).transpose(1, 0, 3, 2)
    return np.ascontiguousarray(per).reshape(groups, -1, o // groups)


def conv_forward(x: np.ndarray, w: np.ndarray, b: Any, geometry: dict) -> np.ndarray:
    """Cross-correlation of x (N, C, *S) with w (O, C/G, *K), plus b (O,)."""
    groups = geometry["groups"]
    kernel = w.shape[2:]
    n, o = x.shape[0], w.shape[0]
    rows, outs = _group_rows(x, geometry, kernel)
    check_elements(n * o * math.prod(outs))
    mats = w.reshape(groups, o // groups, -1).transpose(0, 2, 1)
    y = np.matmul(rows, mats)  # (G, N·L, O/G)
    nd = len(outs)
    y = y.reshape((groups, n) + outs + (o // groups,))
    y = y.transpose((1, 0, 2 + nd, *range(2, 2 + nd))).reshape((n, o) + outs)
    y = np.ascontiguousarray(y)
    if b is not None:
        y += np.asarray(b, y.dtype).reshape((1, o) + (1,) * nd)
    return y


def conv_input_grad(g: np.ndarray, w: np.ndarray, geometry: dict) -> np.ndarray:
    """The adjoint of `conv_forward` in x: g (N, O, *outs) back to (N, C, *size)."""
    groups, size = geometry["groups"], geometry["size"]
    padding = geometry["padding"]
    n, o = g.shape[:2]
    kernel = w.shape[2:]
    outs = g.shape[2:]
    nd = len(kernel)
    c_per = w.shape[1]
    padded = tuple(s + lo + hi for s, (lo, hi) in zip(size, padding))
    check_elements(n * math.prod(outs) * c_per * groups * math.prod(kernel))
    cols = np.matmul(_group_grads(g, groups), w.reshape(groups, o // groups, -1))
    cols = cols.reshape((groups, n) + tuple(outs) + (c_per,) + tuple(kernel))
    order = (1, 0, 2 + nd, *range(3 + nd, 3 + 2 * nd), *range(2, 2 + nd))
    cols = cols.transpose(order)  # (N, G, C/G, *K, *outs)
    x = col2im(cols, padded, padding, geometry["stride"], geometry["dilation"])
    return np.ascontiguousarray(x.reshape((n, groups * c_per) + tuple(size)))


def conv_weight_grad(x: np.ndarray, g: np.ndarray, geometry: dict) -> np.ndarray:
    """The adjoint of `conv_forward` in w: (O, C/G, *K) from x (N, C, *S) and g (N, O, *outs)."""
    groups, kernel = geometry["groups"], geometry["kernel"]
    rows, _ = _group_rows(x, geometry, kernel)  # (G, N·L, C/G·K)
    grads = _group_grads(g, groups)  # (G, N·L, O/G)
    w = np.matmul(grads.transpose(0, 2, 1), rows)
    o = g.shape[1]
    return w.reshape((o, x.shape[1] // groups) + tuple(kernel))


# ---- unfold / fold ------------------------------------------------------------------------------


def unfold(x: np.ndarray, kernel: tuple, dilation: tuple, padding: tuple, stride: tuple) -> Any:
    """im2col of x (N, C, *S): (N, C·K, L), channel-major then kernel offsets, as F.unfold."""
    n, c = x.shape[:2]
    outs = tuple(
        out_size(s, p, k, st, d)
        for s, p, k, st, d in zip(x.shape[2:], padding, kernel, stride, dilation)
    )
    check_elements(n * c * math.prod(kernel) * math.prod(outs))
    view = windows(pad_array(x, padding), outs, kernel, stride, dilation)
    nd = len(kernel)
    order = (0, 1, *range(2 + nd, 2 + 2 * nd), *range(2, 2 + nd))
    return np.ascontiguousarray(view.transpose(order)).reshape(n, c * math.prod(kernel), -1)


def fold(
    cols: np.ndarray,
    size: tuple,
    kernel: tuple,
    dilation: tuple,
    padding: tuple,
    stride: tuple,
) -> np.ndarray:
    """col2im of cols (N, C·K, L) into (N, C, *size), overlapping entries summed (F.fold)."""
    n = cols.shape[0]
    outs = tuple(
        out_size(s, p, k, st, d) for s, p, k, st, d in zip(size, padding, kernel, stride, dilation)
    )
    kk = math.prod(kernel)
    c = cols.shape[1] // kk
    blocks = cols.reshape((n, c) + tuple(kernel) + outs)
    padded = tuple(s + lo + hi for s, (lo, hi) in zip(size, padding))
    return np.ascontiguousarray(col2im(blocks, padded, padding, stride, dilation))
