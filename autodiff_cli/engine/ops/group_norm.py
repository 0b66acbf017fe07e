"""`group_norm`: its op-table entry `native_group_norm` (NativeGroupNormBackward0).

Group normalisation splits the C channels of an (N, C, *) input into `groups` groups and
normalises each sample's group over its channels and spatial positions (biased variance), then
applies the per-channel weight and bias. The node has edges to input, weight and bias, as
PyTorch's. Its formulas are written once for both backends: on arrays in float64 (as the
forward), under create_graph with Tensor operations that keep the statistics' dependence on the
input, so that second derivatives are exact (the graph of a gradient is made of those
operations, not of PyTorch's single NativeGroupNormBackwardBackward0 node).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_op
from ..core.optable import defop
from ..core.tensor import Tensor

__all__ = ["group_norm"]


def _mean_last(v: Any) -> Any:
    """The mean over the last dim, kept (an array or a Tensor)."""
    if isinstance(v, Tensor):
        return v.mean(-1, keepdim=True)
    return v.mean(axis=-1, keepdims=True)


def _sum_but_channels(v: Any) -> Any:
    """The sum over every dim but the channel dim 1 (an array or a Tensor)."""
    dims = (0,) + tuple(range(2, v.ndim))
    if isinstance(v, Tensor):
        return v.sum(dims)
    return v.sum(axis=dims)


def _channel(v: Any, ndim: int) -> Any:
    """A (C,) vector shaped to broadcast against an (N, C, *) input."""
    return v.reshape((1, -1) + (1,) * (ndim - 2))


def _normalised(x: Any, groups: int, eps: float) -> tuple:
    """(x̂ as (N, groups, M) rows, rstd per row) of an array or a Tensor."""
    rows = x.reshape((x.shape[0], groups, -1))
    centred = rows - _mean_last(rows)
    rstd = (_mean_last(centred * centred) + eps) ** -0.5
    return centred * rstd, rstd


def _float64(v: Any) -> Any:
    return None if v is None else np.asarray(v, np.float64)


def _group_norm(x: Any, w: Any, b: Any, groups: int, eps: float) -> np.ndarray:
    xhat, _ = _normalised(np.asarray(x, np.float64), groups, eps)
    y = xhat.reshape(x.shape)
    if w is not None:
        y = y * _channel(_float64(w), x.ndim)
    if b is not None:
        y = y + _channel(_float64(b), x.ndim)
    return np.asarray(y, x.dtype)


def _on_backend(B: Any, formula: Any, g: Any, *values: Any) -> Any:
    """`formula` on the backend's values: float64 arrays cast back to g's dtype, or Tensors."""
    if B.creates_graph:
        return formula(g, *values)
    dtype = np.asarray(g).dtype
    return np.asarray(formula(_float64(g), *(_float64(v) for v in values)), dtype)


def _grad_input(B: Any, g: Any, input: Any, weight: Any, bias: Any, groups: int, eps: float):
    """rstd · (gy - mean(gy) - x̂ · mean(gy · x̂)) per (sample, group) row, gy = g · weight."""
    if not B.creates_graph:
        return _kernel_grad_input(np.asarray(g), np.asarray(input), weight, groups, eps)

    def formula(g: Any, x: Any, w: Any) -> Any:
        xhat, rstd = _normalised(x, groups, eps)
        gy = g if w is None else g * _channel(w, x.ndim)
        gy = gy.reshape(xhat.shape)
        out = rstd * (gy - _mean_last(gy) - xhat * _mean_last(gy * xhat))
        return out.reshape(x.shape)

    return formula(g, input, weight)


def _kernel_grad_input(g: np.ndarray, x: np.ndarray, w: Any, groups: int, eps: float):
    """The same gradient as PyTorch's CPU kernel combines it, in the input's dtype (sums in
    float64): per (sample, group), with ds = Σ grad · x · w and db = Σ grad · w,
    grad_input = rstd · w · grad + c2 · x + c3, c2 = (db · mean - ds) · rstd³ / M and
    c3 = -c2 · mean - db · rstd / M (so a constant grad gives exact zeros, as PyTorch's)."""
    dtype = g.dtype
    n, c = x.shape[0], x.shape[1]
    rows64 = np.asarray(x, np.float64).reshape(n, groups, -1)
    count = rows64.shape[-1]
    mean64 = rows64.mean(axis=-1)
    rstd = ((((rows64 - mean64[..., None]) ** 2).mean(axis=-1) + eps) ** -0.5).astype(dtype)
    mean = mean64.astype(dtype)
    gamma = np.ones(c) if w is None else np.asarray(w, np.float64)
    g64 = np.asarray(g, np.float64).reshape(n, c, -1)
    x64 = np.asarray(x, np.float64).reshape(n, c, -1)
    ds_c = (g64 * x64).sum(axis=-1).astype(dtype).astype(np.float64)
    db_c = g64.sum(axis=-1).astype(dtype).astype(np.float64)
    ds = (ds_c * gamma).reshape(n, groups, -1).sum(axis=-1).astype(dtype)
    db = (db_c * gamma).reshape(n, groups, -1).sum(axis=-1).astype(dtype)
    scale = dtype.type(1.0 / count)
    c2 = (db * mean - ds) * rstd * rstd * rstd * scale
    c3 = -c2 * mean - db * rstd * scale
    c1 = rstd[:, :, None] * gamma.astype(dtype).reshape(groups, -1)[None]  # (n, groups, C/G)
    gx = g.reshape(n, groups, c // groups, -1) * c1[..., None]
    rows = x.reshape(n, groups, -1)
    out = gx.reshape(n, groups, -1) + c2[..., None] * rows + c3[..., None]
    return np.asarray(out, dtype).reshape(x.shape)


def _grad_weight(B: Any, g: Any, input: Any, weight: Any, bias: Any, groups: int, eps: float):
    def formula(g: Any, x: Any) -> Any:
        xhat, _ = _normalised(x, groups, eps)
        return _sum_but_channels(g * xhat.reshape(x.shape))

    return _on_backend(B, formula, g, input)


def _grad_bias(B: Any, g: Any, input: Any, weight: Any, bias: Any, groups: int, eps: float):
    return _on_backend(B, _sum_but_channels, g)


GROUP_NORM = defop(
    "native_group_norm",
    "NativeGroupNormBackward0",
    _group_norm,
    _grad_input,
    _grad_weight,
    _grad_bias,
    saves=(0, 1, 2),
    promotes=False,
    arg_names=("input", "weight", "bias"),
    rules=(
        "w · rstd · (grad - mean(grad) - x̂ · mean(grad · x̂)) per (sample, group)",
        "Σ grad · x̂ per channel",
        "Σ grad per channel",
    ),
)


def _shape_text(t: Tensor) -> str:
    return str(list(t.shape))


def group_norm(
    input: Tensor,
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """`torch.nn.functional.group_norm`: PyTorch's checks, in its order, then the node."""
    if input.ndim < 2:
        raise RuntimeError(
            f"Expected at least 2 dimensions for input tensor but received {input.ndim}"
        )
    shape = tuple(input.shape)
    channels = shape[1]
    # PyTorch's _verify_batch_size on the (N·C/G, G, *) view (0 groups: ZeroDivisionError too)
    size = [shape[0] * channels // num_groups, num_groups, *shape[2:]]
    if size[0] * int(np.prod(size[2:], dtype=np.int64)) == 1:
        raise ValueError(
            f"Expected more than 1 value per channel when training, got input size {size}"
        )
    if num_groups <= 0 or channels % num_groups:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input "
            f"of shape {_shape_text(input)} and num_groups={num_groups}"
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.ndim != 1 or t.numel() != channels):
            raise RuntimeError(
                f"Expected {name} to be a vector of size equal to the number of channels in "
                f"input, but got {name} of shape {_shape_text(t)} and input of shape "
                f"{_shape_text(input)}"
            )
    dtypes.require_floating(input._data.dtype, "GroupNormKernelImpl")
    return apply_op(GROUP_NORM, (input, weight, bias), {"groups": int(num_groups), "eps": eps})
