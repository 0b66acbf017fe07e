"""`F.conv1d/conv2d/conv3d` and `F.conv_transpose1d/2d/3d`: PyTorch's argument handling and
messages in front of the one op `convolution` (ops/convolution.py)."""

from __future__ import annotations

import warnings
from typing import Any

from ..core import dtypes
from ..core.apply import apply_op
from ..core.tensor import Tensor, _dims_text
from ..ops.convolution import CONVOLUTION

__all__ = [
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
]  # fmt: skip


def expand_param(value: Any, nd: int, name: str) -> tuple[int, ...]:
    """An int or a sequence of `nd` ints, as the convolution's `stride`, `dilation`..."""
    if isinstance(value, Tensor):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        items = tuple(int(v) for v in value)
        if len(items) == 1:
            return items * nd
        if len(items) != nd:
            shown = "[" + ", ".join(str(v) for v in items) + "]"
            raise RuntimeError(
                f"expected {name} to be a single integer value or a list of {nd} values to "
                f"match the convolution dimensions, but got {name}={shown}"
            )
        return items
    return (int(value),) * nd


def _type_name(t: Tensor) -> str:
    return f"torch.{dtypes.scalar_name(t._data.dtype)}Tensor"


def _check_dtypes(input: Tensor, weight: Tensor, bias: Tensor | None) -> None:
    """PyTorch's messages for operands of different dtypes (the CPU kernel's wording)."""
    x, w = input._data.dtype, weight._data.dtype
    if x != w:
        if x.itemsize > w.itemsize:
            raise RuntimeError(
                f"expected scalar type {dtypes.scalar_name(x)} but found {dtypes.scalar_name(w)}"
            )
        raise RuntimeError(
            f"Input type ({_type_name(input)}) and weight type ({_type_name(weight)}) should be "
            "the same or input should be a MKLDNN tensor and weight is a dense tensor"
        )
    if bias is not None and bias._data.dtype != x:
        b = bias._data.dtype
        raise RuntimeError(
            f"Input type ({dtypes.cpp_name(x)}) and bias type ({dtypes.cpp_name(b)}) should be "
            "the same"
        )


def _padding_pairs(
    padding: Any, nd: int, kernel: tuple, stride: tuple, dilation: tuple
) -> tuple[tuple[int, int], ...]:
    """(before, after) per spatial dim from an int, a sequence or 'same'/'valid'."""
    if isinstance(padding, str):
        if padding == "valid":
            return ((0, 0),) * nd
        if padding != "same":
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        pairs = []
        for k, d in zip(kernel, dilation):
            total = d * (k - 1)
            pairs.append((total // 2, total - total // 2))
        if any(lo != hi for lo, hi in pairs):
            warnings.warn(
                "Using padding='same' with even kernel lengths and odd dilation may require a "
                "zero-padded copy of the input be created",
                UserWarning,
                stacklevel=4,
            )
        return tuple(pairs)
    pads = expand_param(padding, nd, "padding")
    if any(p < 0 for p in pads):
        raise RuntimeError("negative padding is not supported")
    return tuple((p, p) for p in pads)


def _check_geometry(stride: tuple, dilation: tuple, groups: int) -> None:
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError("non-positive dilation is not supported")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")


def _convolution(
    name: str,
    nd: int,
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: int,
    transposed: bool = False,
    output_padding: Any = 0,
) -> Tensor:
    if not isinstance(input, Tensor) or not isinstance(weight, Tensor):
        raise TypeError(f"{name}(): argument 'input' and 'weight' must be Tensors")
    if input.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(
            f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {name}, but got "
            f"input of size: {_dims_text(tuple(input.shape))}"
        )
    if input.ndim == nd + 1:  # unbatched: a batch of one, squeezed after (SqueezeBackward1)
        out = _convolution(
            name, nd, input.unsqueeze(0), weight, bias, stride, padding, dilation, groups,
            transposed, output_padding,
        )  # fmt: skip
        return out.squeeze(0)
    stride = expand_param(stride, nd, "stride")
    dilation = expand_param(dilation, nd, "dilation")
    groups = int(groups)
    _check_geometry(stride, dilation, groups)
    w_shape = tuple(weight.shape)
    x_shape = tuple(input.shape)
    if weight.ndim != nd + 2:
        raise RuntimeError(
            f"Expected {weight.ndim}-dimensional input for {weight.ndim}-dimensional weight "
            f"{_dims_text(w_shape)}, but got {input.ndim}-dimensional input of size "
            f"{_dims_text(x_shape)} instead"
        )
    kernel = w_shape[2:]
    pairs = _padding_pairs(padding, nd, kernel, stride, dilation)
    if not transposed and w_shape[0] % groups:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
            f"but got weight of size [{_dims_text(w_shape)}] instead"
        )
    channels = w_shape[0] if transposed else w_shape[1] * groups
    if x_shape[1] != channels:
        which = f"transposed={int(transposed)}" if transposed else f"groups={groups}"
        raise RuntimeError(
            f"Given {which}, weight of size {_dims_text(w_shape)}, expected input"
            f"{_dims_text(x_shape)} to have {channels} channels, but got {x_shape[1]} channels "
            "instead"
        )
    out_channels = w_shape[1] * groups if transposed else w_shape[0]
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != out_channels):
        raise RuntimeError(
            f"Given weight of size {_dims_text(w_shape)}, expected bias to be 1-dimensional "
            f"with {out_channels} elements, but got bias of size {_dims_text(tuple(bias.shape))} "
            "instead"
        )
    _check_dtypes(input, weight, bias)
    if transposed:
        size = _transposed_size(x_shape[2:], kernel, stride, pairs, dilation, output_padding, nd)
    else:
        size = x_shape[2:]
        padded = [s + lo + hi for s, (lo, hi) in zip(size, pairs)]
        reach = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
        if any(p < r for p, r in zip(padded, reach)):
            raise RuntimeError(
                f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). "
                f"Kernel size: ({' x '.join(map(str, reach))}). Kernel size can't be greater "
                "than actual input size"
            )
    params = {
        "stride": stride, "padding": pairs, "dilation": dilation, "groups": groups,
        "kernel": kernel, "size": tuple(size), "transposed": bool(transposed),
    }  # fmt: skip
    return apply_op(CONVOLUTION, (input, weight, bias), params)


def _transposed_size(
    in_size: tuple,
    kernel: tuple,
    stride: tuple,
    pairs: tuple,
    dilation: tuple,
    output_padding: Any,
    nd: int,
) -> tuple[int, ...]:
    extra = expand_param(output_padding, nd, "output_padding")
    if any(o >= s and o >= d for o, s, d in zip(extra, stride, dilation)):
        dims = ("height", "width") if nd == 2 else ("depth", "height", "width")[3 - nd :]
        parts = [
            *(f"output_padding_{n}: {o}" for n, o in zip(dims, extra)),
            *(f"stride_{n}: {s}" for n, s in zip(dims, stride)),
            *(f"dilation_{n}: {d}" for n, d in zip(dims, dilation)),
        ]
        raise RuntimeError(
            "output padding must be smaller than either stride or dilation, but got "
            + " ".join(parts)
        )
    size = tuple(
        (i - 1) * s - lo - hi + d * (k - 1) + o + 1
        for i, s, (lo, hi), d, k, o in zip(in_size, stride, pairs, dilation, kernel, extra)
    )
    if any(s <= 0 for s in size):
        raise RuntimeError(
            f"Given input size per channel: ({' x '.join(map(str, in_size))}). Calculated output "
            f"size per channel: ({' x '.join(map(str, size))}). Output size is too small"
        )
    return size


def _conv_function(nd: int) -> Any:
    """`F.conv{nd}d` with PyTorch's signature (its name in argument errors)."""
    name = f"conv{nd}d"

    def conv(
        input: Tensor,
        weight: Tensor,
        bias: Tensor | None = None,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
    ) -> Tensor:
        return _convolution(name, nd, input, weight, bias, stride, padding, dilation, groups)

    conv.__name__ = conv.__qualname__ = name
    return conv


conv1d, conv2d, conv3d = (_conv_function(nd) for nd in (1, 2, 3))


def _conv_transpose_function(nd: int) -> Any:
    """`F.conv_transpose{nd}d` with PyTorch's signature (its name in argument errors)."""
    name = f"conv_transpose{nd}d"

    def conv_transpose(
        input: Tensor,
        weight: Tensor,
        bias: Tensor | None = None,
        stride: Any = 1,
        padding: Any = 0,
        output_padding: Any = 0,
        groups: int = 1,
        dilation: Any = 1,
    ) -> Tensor:
        if isinstance(padding, str):
            raise TypeError(f"{name}(): argument 'padding' must be tuple of ints, not str")
        return _convolution(
            name, nd, input, weight, bias, stride, padding, dilation, groups, True, output_padding
        )

    conv_transpose.__name__ = conv_transpose.__qualname__ = name
    return conv_transpose


conv_transpose1d, conv_transpose2d, conv_transpose3d = (
    _conv_transpose_function(nd) for nd in (1, 2, 3)
)
