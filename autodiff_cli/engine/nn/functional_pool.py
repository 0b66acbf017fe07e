"""`F.max_pool1d/2d`, `F.avg_pool1d/2d`, `F.adaptive_avg_pool1d/2d`, `F.adaptive_max_pool1d/2d`, `F.interpolate`, `F.unfold`
and `F.fold`: PyTorch's argument handling, output sizes and messages in front of the ops of
ops/pooling.py."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.apply import apply_op
from ..core.tensor import Tensor, _dims_text, _wrap
from ..ops import pooling
from .functional_conv import expand_param

__all__ = [
    "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d", "adaptive_max_pool2d",
    "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices", "avg_pool1d", "avg_pool2d", "fold",
    "interpolate", "max_pool1d", "max_pool2d", "unfold", "upsample",
]  # fmt: skip


def _pair(value: Any, name: str, what: str) -> tuple[int, int]:
    if isinstance(value, (list, tuple)):
        if len(value) == 1:
            return (int(value[0]),) * 2
        if len(value) != 2:
            raise RuntimeError(
                f"{what}: {name} must either be a single int, or a tuple of two ints"
            )
        return int(value[0]), int(value[1])
    return (int(value),) * 2


def _pool_outs(
    sizes: tuple, kernel: tuple, stride: tuple, pad: tuple, dilation: tuple, ceil_mode: bool
) -> tuple[int, ...]:
    """PyTorch's pooling_output_shape per dim."""
    outs = []
    for size, k, s, p, d in zip(sizes, kernel, stride, pad, dilation):
        top = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
        out = top // s + 1
        if ceil_mode and (out - 1) * s >= size + p:
            out -= 1
        outs.append(out)
    return tuple(outs)


def _pool_geometry(
    input: Tensor,
    what: str,
    kernel_size: Any,
    stride: Any,
    padding: Any,
    dilation: Any,
    ceil_mode: bool,
) -> dict:
    kernel = _pair(kernel_size, "kernel_size", what)
    stride = (
        kernel if stride is None or stride == [] or stride == () else _pair(stride, "stride", what)
    )
    pad = _pair(padding, "padding", what)
    dilation = _pair(dilation, "dilation", what)
    if any(s == 0 for s in stride):
        raise RuntimeError("stride should not be zero")
    if any(k <= 0 for k in kernel):
        raise RuntimeError(
            f"kernel size should be greater than zero, but got kH: {kernel[0]} kW: {kernel[1]}"
        )
    if any(s < 0 for s in stride):
        raise RuntimeError(
            f"stride should be greater than zero, but got dH: {stride[0]} dW: {stride[1]}"
        )
    if any(d <= 0 for d in dilation):
        raise RuntimeError(
            f"dilation should be greater than zero, but got dilationH: {dilation[0]} "
            f"dilationW: {dilation[1]}"
        )
    if input.ndim not in (3, 4) or input.numel() == 0:
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    for p, k, d in zip(pad, kernel, dilation):
        if p < 0 or p > ((k - 1) * d + 1) // 2:
            raise RuntimeError(
                "pad should be at most half of effective kernel size, but got "
                f"pad={p}, kernel_size={k} and dilation={d}"
            )
    sizes = tuple(input.shape[-2:])
    outs = _pool_outs(sizes, kernel, stride, pad, dilation, ceil_mode)
    if any(o < 1 for o in outs):
        c = input.shape[-3]
        raise RuntimeError(
            f"Given input size: ({c}x{sizes[0]}x{sizes[1]}). Calculated output size: "
            f"({c}x{outs[0]}x{outs[1]}). Output size is too small"
        )
    # the right padding that the last (ceil-mode) window reaches into
    padding = tuple(
        (p, max(p, (o - 1) * s + d * (k - 1) + 1 - size - p))
        for p, o, s, d, k, size in zip(pad, outs, stride, dilation, kernel, sizes)
    )
    return {"kernel": kernel, "stride": stride, "dilation": dilation, "padding": padding,
            "outs": outs}  # fmt: skip


def max_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """The maximum of each window (MaxPool2DWithIndicesBackward0); with `return_indices`, also
    each maximum's flat index in its (H, W) plane."""
    geometry = _pool_geometry(input, "max_pool2d", kernel_size, stride, padding, dilation,
                              ceil_mode)  # fmt: skip
    indices = pooling.max_pool_indices(input._data, geometry)
    out = apply_op(
        pooling.MAX_POOL2D, (input,), {"indices": indices, "size": tuple(input.shape[-2:])}
    )
    return (out, _wrap(indices)) if return_indices else out


def max_pool2d_with_indices(*args: Any, **kwargs: Any) -> tuple:
    kwargs["return_indices"] = True
    return max_pool2d(*args, **kwargs)


def _one_d(input: Tensor, what: str) -> None:
    if not isinstance(input, Tensor) or input.ndim not in (2, 3):
        shape = _dims_text(tuple(input.shape)) if isinstance(input, Tensor) else "?"
        raise RuntimeError(f"{what}() Expected 2D or 3D input tensor, but got {shape}")


def _single(value: Any) -> int:
    return int(value[0]) if isinstance(value, (list, tuple)) else int(value)


def _as_2d(kernel_size: Any, stride: Any, padding: Any) -> tuple:
    """A 1-d pooling's kernel, stride and padding as (1, L) windows of the 2-d pooling."""
    stride = _single(kernel_size) if stride is None or stride == [] else _single(stride)
    return (1, _single(kernel_size)), (1, stride), (0, _single(padding))


def max_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """max_pool2d over (1, L) windows of the input with a unit dim inserted at -2 (removed
    after: SqueezeBackward1), as PyTorch computes it."""
    _one_d(input, "max_pool1d")
    windows = _as_2d(kernel_size, stride, padding)
    out = max_pool2d(
        input.unsqueeze(-2), *windows, (1, _single(dilation)), ceil_mode, return_indices
    )
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


def avg_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """The mean of each window (AvgPool2DBackward0), divided as PyTorch's kernel divides."""
    if isinstance(input, Tensor) and input.ndim < 3:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-max(input.ndim, 1)}, "
            f"{max(input.ndim, 1) - 1}], but got -3)"
        )
    if divisor_override is not None and int(divisor_override) == 0:
        raise RuntimeError("divisor must be not zero")
    geometry = _pool_geometry(input, "avg_pool2d", kernel_size, stride, padding, 1, ceil_mode)
    del geometry["dilation"]
    geometry["count_include_pad"] = bool(count_include_pad)
    geometry["divisor_override"] = None if divisor_override is None else int(divisor_override)
    sizes = tuple(input.shape[-2:])
    divisor = pooling.avg_divisors(geometry, sizes)
    params = {"divisor": divisor, "size": sizes, **geometry}
    return apply_op(pooling.AVG_POOL2D, (input,), params)


def avg_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    """avg_pool2d over (1, L) windows, the unit dim squeezed after (SqueezeBackward1)."""
    _one_d(input, "avg_pool1d")
    windows = _as_2d(kernel_size, stride, padding)
    return avg_pool2d(input.unsqueeze(-2), *windows, ceil_mode, count_include_pad).squeeze(-2)


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """Windows [floor(i·H/h), ceil((i+1)·H/h)) averaged (AdaptiveAvgPool2DBackward0); a 1x1
    output is `input.mean((-1, -2), keepdim=True)` (MeanBackward1), as PyTorch computes it."""
    if not isinstance(input, Tensor) or input.ndim not in (3, 4):
        shape = _dims_text(tuple(input.shape)) if isinstance(input, Tensor) else "?"
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {shape}")
    sizes = tuple(input.shape[-2:])
    wanted = output_size if isinstance(output_size, (list, tuple)) else (output_size,) * 2
    if len(wanted) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    outs = tuple(s if o is None else int(o) for o, s in zip(wanted, sizes))
    if any(o < 0 for o in outs):
        raise RuntimeError(
            f"adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 "
            f"but received {{{outs[0]}, {outs[1]}}}"
        )
    if outs == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    return _adaptive(input, outs, 2)


def _adaptive(input: Tensor, outs: tuple, nd: int) -> Tensor:
    sizes = tuple(input.shape[-nd:])
    plans, matrices, lengths = [], [], []
    for size, out in zip(sizes, outs):
        plan, matrix, length = pooling.adaptive_plan(size, out)
        plans.append(plan)
        matrices.append(matrix)
        lengths.append(length)
    areas = lengths[0]
    for length in lengths[1:]:
        areas = np.multiply.outer(areas, length)
    op = pooling.ADAPTIVE_AVG_POOL[nd][0]
    params = {"plans": tuple(plans), "matrices": tuple(matrices), "areas": areas}
    return apply_op(op, (input,), params)


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:
    """adaptive_avg_pool2d over (1, L), the unit dim squeezed after (SqueezeBackward1)."""
    _one_d(input, "adaptive_avg_pool1d")
    out = _single(output_size)
    return _adaptive(input.unsqueeze(-2), (1, out), 2).squeeze(-2)


def adaptive_max_pool2d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """The maximum of each adaptive window [floor(i·H/h), ceil((i+1)·H/h))
    (AdaptiveMaxPool2DBackward0); with `return_indices`, also each maximum's flat index in its
    (H, W) plane."""
    if not isinstance(input, Tensor) or input.ndim not in (3, 4):
        shape = list(input.shape) if isinstance(input, Tensor) else "?"
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {shape}")
    shape = tuple(input.shape)
    for d in range(input.ndim - 3, input.ndim):
        if shape[d] == 0:
            raise RuntimeError(
                "adaptive_max_pool2d(): Expected input to have non-zero size for non-batch "
                f"dimensions, but input has sizes {list(shape)} with dimension {d} being empty"
            )
    wanted = output_size if isinstance(output_size, (list, tuple)) else (output_size,) * 2
    if len(wanted) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    outs = tuple(s if o is None else int(o) for o, s in zip(wanted, shape[-2:]))
    if any(o < 0 for o in outs):
        negative = next(o for o in outs if o < 0)
        raise RuntimeError(
            f"Trying to create tensor with negative dimension {negative}: {list(shape[:-2] + outs)}"
        )
    indices = pooling.adaptive_max_indices(input._data, outs)
    out = apply_op(pooling.ADAPTIVE_MAX_POOL2D, (input,), {"indices": indices, "size": shape[-2:]})
    return (out, _wrap(indices)) if return_indices else out


def adaptive_max_pool2d_with_indices(
    input: Tensor, output_size: Any, return_indices: bool = False
) -> tuple:
    return adaptive_max_pool2d(input, output_size, True)


def adaptive_max_pool1d(input: Tensor, output_size: Any, return_indices: bool = False) -> Any:
    """adaptive_max_pool2d over (1, L), the unit dim squeezed after (SqueezeBackward1)."""
    if not isinstance(input, Tensor) or input.ndim not in (2, 3):
        ndim = input.ndim if isinstance(input, Tensor) else 0
        raise RuntimeError(
            f"Expected 2 to 3 dimensions, but got {ndim}-dimensional tensor for argument #1 "
            "'self' (while checking arguments for adaptive_max_pool1d)"
        )
    if isinstance(output_size, (list, tuple)) and len(output_size) != 1:
        raise RuntimeError(
            "adaptive_max_pool1d() argument 'output_size' should contain one int (got "
            f"{len(output_size)})"
        )
    out = adaptive_max_pool2d(input.unsqueeze(-2), (1, _single(output_size)), return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


def adaptive_max_pool1d_with_indices(
    input: Tensor, output_size: Any, return_indices: bool = False
) -> tuple:
    return adaptive_max_pool1d(input, output_size, True)


# ---- interpolate ----------------------------------------------------------------------------------

_MODES = ("nearest", "linear", "bilinear", "bicubic", "trilinear", "area", "nearest-exact")
_LINEAR = {"linear": 1, "bilinear": 2, "trilinear": 3}


def _sizes_and_scales(input: Tensor, nd: int, size: Any, scale_factor: Any, recompute: Any):
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    sizes = tuple(input.shape[2:])
    if size is not None:
        wanted = tuple(size) if isinstance(size, (list, tuple)) else (size,) * nd
        if len(wanted) != nd:
            raise ValueError(
                f"Input and output must have the same number of spatial dimensions, but got "
                f"input with spatial dimensions of {list(sizes)} and output size of "
                f"{list(wanted)}. Please provide input tensor in (N, C, d1, d2, ...,dK) format "
                "and output size in (o1, o2, ...,oK) format."
            )
        return tuple(int(s) for s in wanted), None
    factors = (
        tuple(float(f) for f in scale_factor)
        if isinstance(scale_factor, (list, tuple))
        else (float(scale_factor),) * nd
    )
    if len(factors) != nd:
        raise ValueError(
            f"Input and scale_factor must have the same number of spatial dimensions, but got "
            f"input with spatial dimensions of {list(sizes)} and scale_factor of shape "
            f"{list(factors)}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
            "scale_factor in (s1, s2, ...,sK) format."
        )
    outs = tuple(math.floor(s * f) for s, f in zip(sizes, factors))
    return outs, None if recompute else factors


def interpolate(
    input: Tensor,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Resizes the spatial dims: nearest, nearest-exact, (bi/tri)linear and area."""
    if mode in ("nearest", "area", "nearest-exact") and align_corners is not None:
        raise ValueError(
            "align_corners option can only be set with the interpolating modes: "
            "linear | bilinear | bicubic | trilinear"
        )
    nd = input.ndim - 2
    if mode not in _MODES or nd not in (1, 2, 3):
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for "
            "the modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
            f"nearest-exact (got {mode})"
        )
    if mode in _LINEAR and _LINEAR[mode] != nd:
        raise NotImplementedError(f"Got {input.ndim}D input, but {mode} mode needs "
                                  f"{_LINEAR[mode] + 2}D input")  # fmt: skip
    if mode == "bicubic" or antialias:
        raise NotImplementedError("interpolate: bicubic mode and antialias are not supported")
    outs, scales = _sizes_and_scales(input, nd, size, scale_factor, recompute_scale_factor)
    if mode == "area":
        if nd == 1:
            return adaptive_avg_pool1d(input, outs)
        return adaptive_avg_pool2d(input, outs) if nd == 2 else _adaptive(input, outs, 3)
    sizes = tuple(input.shape[2:])
    if any(o <= 0 for o in outs):
        raise RuntimeError(
            f"Input and output sizes should be greater than 0, but got input ({_dims_text(sizes)[1:-1]}) "
            f"and output ({_dims_text(outs)[1:-1]})".replace(", ", ", ")
        )
    plans, matrices = [], []
    dtype = input._data.dtype if input._data.dtype.kind == "f" else np.dtype(np.float32)
    for i, (s, o) in enumerate(zip(sizes, outs)):
        given = scales[i] if scales is not None and scales[i] > 0 else None
        if mode in _LINEAR:
            if align_corners:
                scale = (s - 1) / (o - 1) if o > 1 else 0.0
            else:
                scale = 1.0 / given if given else s / o
            plan, matrix = pooling.linear_plan(s, o, scale, bool(align_corners), dtype)
        else:
            scale = 1.0 / given if given else s / o
            plan, matrix = pooling.nearest_plan(s, o, scale, mode == "nearest-exact")
        plans.append(plan)
        matrices.append(matrix)
    key = ("nearest_exact" if mode == "nearest-exact" else mode, nd)
    op = pooling.UPSAMPLE[key][0]
    return apply_op(op, (input,), {"plans": tuple(plans), "matrices": tuple(matrices)})


def upsample(
    input: Tensor,
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
) -> Tensor:
    return interpolate(input, size, scale_factor, mode, align_corners)


# ---- unfold / fold ---------------------------------------------------------------------------------


def _block_params(kernel_size: Any, dilation: Any, padding: Any, stride: Any) -> dict:
    kernel = expand_param(kernel_size, 2, "kernel_size")
    dilation = expand_param(dilation, 2, "dilation")
    pad = expand_param(padding, 2, "padding")
    stride = expand_param(stride, 2, "stride")
    for name, values in (("kernel", kernel), ("dilation", dilation), ("stride", stride)):
        if any(v <= 0 for v in values):
            raise RuntimeError(
                f"{name} should be greater than zero, but got {name}_height: {values[0]} "
                f"{name}_width: {values[1]}"
            )
    if any(p < 0 for p in pad):
        raise RuntimeError(
            f"padding should be non-negative, but got pad_height: {pad[0]} pad_width: {pad[1]}"
        )
    return {"kernel": kernel, "dilation": dilation, "padding": tuple((p, p) for p in pad),
            "stride": stride}  # fmt: skip


def _block_counts(sizes: tuple, params: dict) -> list[int]:
    """How many sliding blocks fit along each spatial dim."""
    return [
        (s + 2 * p[0] - d * (k - 1) - 1) // st + 1
        for s, p, d, k, st in zip(
            sizes, params["padding"], params["dilation"], params["kernel"], params["stride"]
        )  # fmt: skip
    ]


def unfold(
    input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1
) -> Tensor:
    """The sliding blocks of a (N, C, H, W) input as columns: (N, C·kh·kw, L) (Im2ColBackward0)."""
    if input.ndim not in (3, 4):
        raise NotImplementedError(
            f"Input Error: Only 3D or 4D input Tensors are supported (got {input.ndim}D)"
        )
    params = _block_params(kernel_size, dilation, padding, stride)
    sizes = tuple(input.shape[-2:])
    outs = _block_counts(sizes, params)
    if any(o < 1 for o in outs):
        raise RuntimeError(
            f"Given input with spatial size ({sizes[0]}, {sizes[1]}), kernel_size=("
            f"{params['kernel'][0]}, {params['kernel'][1]}), dilation=({params['dilation'][0]}, "
            f"{params['dilation'][1]}), padding=({params['padding'][0][0]}, "
            f"{params['padding'][1][0]}), calculated shape of the array of sliding blocks as "
            f"({outs[0]}, {outs[1]}), but its components must be at least one."
        )
    if input.ndim == 3:
        return unfold(input.unsqueeze(0), kernel_size, dilation, padding, stride).squeeze(0)
    return apply_op(pooling.UNFOLD, (input,), {"size": sizes, **params})


def fold(
    input: Tensor,
    output_size: Any,
    kernel_size: Any,
    dilation: Any = 1,
    padding: Any = 0,
    stride: Any = 1,
) -> Tensor:
    """Columns (N, C·kh·kw, L) summed back into (N, C, *output_size) (Col2ImBackward0)."""
    if input.ndim not in (2, 3):
        raise NotImplementedError(
            f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported "
            f"(got {input.ndim}D)"
        )
    params = _block_params(kernel_size, dilation, padding, stride)
    size = expand_param(output_size, 2, "output_size")
    if input.ndim == 2:
        return fold(input.unsqueeze(0), size, kernel_size, dilation, padding, stride).squeeze(0)
    kk = params["kernel"][0] * params["kernel"][1]
    if input.shape[1] % kk:
        raise RuntimeError(
            f"Expected size of input's dimension 1 to be divisible by the product of "
            f"kernel_size, but got input.size(1)={input.shape[1]} and kernel_size=("
            f"{params['kernel'][0]}, {params['kernel'][1]})"
        )
    blocks = _block_counts(size, params)
    if blocks[0] * blocks[1] != input.shape[2]:
        p = params
        raise RuntimeError(
            f"Given output_size=({size[0]}, {size[1]}), kernel_size=({p['kernel'][0]}, "
            f"{p['kernel'][1]}), dilation=({p['dilation'][0]}, {p['dilation'][1]}), padding=("
            f"{p['padding'][0][0]}, {p['padding'][1][0]}), stride=({p['stride'][0]}, "
            f"{p['stride'][1]}), expected size of input's dimension 2 to match the calculated "
            f"number of sliding blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, "
            f"but got input.size(2)={input.shape[2]}."
        )
    return apply_op(pooling.FOLD_OP, (input,), {"size": size, **params})
