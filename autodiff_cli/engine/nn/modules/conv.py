"""The convolution layers `nn.Conv1d/2d/3d` and `nn.ConvTranspose1d/2d`, with PyTorch's parameter
shapes, initialisation order (weight, then bias: the random stream matches) and reprs."""

from __future__ import annotations

import math
from typing import Any

from ...core.tensor import Tensor
from ...pytorch_home import name_classes_after
from .. import functional as F
from .. import init
from ..module import Module
from ..parameter import Parameter, parameter_storage

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _tuple(value: Any, nd: int) -> tuple:
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return (value,) * nd


class _ConvNd(Module):
    nd = 2
    transposed = False

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: str = "zeros",
        device: Any = None,
        dtype: Any = None,
        output_padding: Any = 0,
    ) -> None:
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        nd = self.nd
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(
                    f"Invalid padding string {padding!r}, should be one of {['valid', 'same']}"
                )
            if padding == "same" and any(s != 1 for s in _tuple(stride, nd)):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(
                f"padding_mode must be one of {list(_PADDING_MODES)}, but got "
                f"padding_mode='{padding_mode}'"
            )
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _tuple(kernel_size, nd)
        self.stride = _tuple(stride, nd)
        self.padding = padding if isinstance(padding, str) else _tuple(padding, nd)
        self.dilation = _tuple(dilation, nd)
        self.transposed = self.transposed
        self.output_padding = _tuple(output_padding, nd)
        self.groups = groups
        self.padding_mode = padding_mode
        if self.transposed:
            shape = (in_channels, out_channels // groups, *self.kernel_size)
        else:
            shape = (out_channels, in_channels // groups, *self.kernel_size)
        self.weight = Parameter(parameter_storage(shape, dtype))
        if bias:
            self.bias = Parameter(parameter_storage((out_channels,), dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        nd = self.nd
        text = (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}"
        )
        if self.padding != (0,) * nd:
            text += f", padding={self.padding}"
        if self.dilation != (1,) * nd:
            text += f", dilation={self.dilation}"
        if self.output_padding != (0,) * nd:
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        conv = (F.conv1d, F.conv2d, F.conv3d)[self.nd - 1]
        if self.padding_mode == "zeros":
            return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)
        if isinstance(self.padding, str):
            pads = []
            for k, d in zip(reversed(self.kernel_size), reversed(self.dilation)):
                total = d * (k - 1)
                pads += [total // 2, total - total // 2]
        else:
            pads = [p for p in reversed(self.padding) for _ in range(2)]
        padded = F.pad(input, pads, mode=self.padding_mode)
        return conv(padded, weight, bias, self.stride, 0, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_ConvNd):
    nd = 1


class Conv2d(_ConvNd):
    nd = 2


class Conv3d(_ConvNd):
    nd = 3


class _ConvTransposeNd(_ConvNd):
    transposed = True

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        output_padding: Any = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: Any = 1,
        padding_mode: str = "zeros",
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(
            in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
            padding_mode, device, dtype, output_padding,
        )  # fmt: skip

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:
        output_padding = self.output_padding
        if output_size is not None:
            output_padding = self._output_padding(input, list(output_size))
        conv = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[self.nd - 1]
        return conv(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                    self.groups, self.dilation)  # fmt: skip

    def _output_padding(self, input: Tensor, output_size: list) -> tuple:
        nd = self.nd
        output_size = output_size[-nd:]
        extra = []
        for i in range(nd):
            smallest = (
                (input.shape[input.ndim - nd + i] - 1) * self.stride[i]
                - 2 * self.padding[i]
                + self.dilation[i] * (self.kernel_size[i] - 1)
                + 1
            )
            largest = smallest + self.stride[i] - 1
            if not smallest <= output_size[i] <= largest:
                raise ValueError(
                    f"requested an output size of {output_size}, but valid sizes range from "
                    f"[{smallest}, ...] to [{largest}, ...] (for an input of "
                    f"{list(input.shape[2:])})"
                )
            extra.append(output_size[i] - smallest)
        return tuple(extra)


class ConvTranspose1d(_ConvTransposeNd):
    nd = 1


class ConvTranspose2d(_ConvTransposeNd):
    nd = 2


name_classes_after(globals(), "torch.nn.modules.conv")
