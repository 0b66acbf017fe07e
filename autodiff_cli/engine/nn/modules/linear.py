"""`nn.Identity`, `nn.Linear`, `nn.Bilinear` and `nn.LazyLinear` (PyTorch's initialisation
order: weight, then bias)."""

from __future__ import annotations

import math
from typing import Any

from ...core.tensor import Tensor
from ...pytorch_home import name_classes_after
from .. import functional as F
from .. import init
from ..module import Module
from ..parameter import Parameter, UninitializedParameter, parameter_storage
from .lazy import LazyModuleMixin


class Identity(Module):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Any) -> Any:
        return input


class Linear(Module):
    """`y = x @ W.T + b`; W ~ kaiming_uniform(a=sqrt(5)), b ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(parameter_storage((out_features, in_features), dtype))
        if bias:
            self.bias = Parameter(parameter_storage((out_features,), dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class Bilinear(Module):
    """`y = x1ᵀ W x2 + b`; W (out, in1, in2) and b ~ U(-1/sqrt(in1), 1/sqrt(in1))."""

    def __init__(
        self,
        in1_features: int,
        in2_features: int,
        out_features: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        shape = (out_features, in1_features, in2_features)
        self.weight = Parameter(parameter_storage(shape, dtype))
        if bias:
            self.bias = Parameter(parameter_storage((out_features,), dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )


class LazyLinear(LazyModuleMixin, Linear):
    """`nn.LazyLinear(out_features, bias=True)`: `Linear` with `in_features` read from the last
    dimension of the first input."""

    cls_to_become = Linear

    def __init__(
        self, out_features: int, bias: bool = True, device: Any = None, dtype: Any = None
    ) -> None:
        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self.weight = UninitializedParameter(dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)
        else:
            self.register_parameter("bias", None)
        self._register_lazy_hook()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Any = None, *args: Any) -> None:
        if not self.has_uninitialized_params():
            return
        if not isinstance(input, Tensor):
            raise TypeError(
                "linear(): argument 'input' (position 1) must be Tensor, not "
                f"{type(input).__name__}"
            )
        if input.ndim == 0:
            raise IndexError("tuple index out of range")
        self.in_features = int(input.shape[-1])
        self.weight.materialize((self.out_features, self.in_features))
        if self.bias is not None:
            self.bias.materialize((self.out_features,))
        self.reset_parameters()


name_classes_after(globals(), "torch.nn.modules.linear")
