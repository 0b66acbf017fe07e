"""The layers `BatchNorm1d`, `BatchNorm2d` and `BatchNorm3d` (ops/batch_norm.py computes)."""

from __future__ import annotations

from typing import Any

from ...core import dtypes
from ...core.grad_mode import no_grad
from ...core.tensor import Tensor
from ...ops.batch_norm import batch_norm
from ...pytorch_home import name_classes_after
from .. import init
from ..module import Module
from ..parameter import Parameter, parameter_storage

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d"]


class _BatchNorm(Module):
    """Per-channel normalisation of an (N, C, *) input; weight ones, bias zeros; running mean
    (zeros) and variance (ones) updated in training when `track_running_stats`, used in eval."""

    _dims: tuple[int, ...] = ()
    _expected = ""

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        shape = (num_features,)
        if affine:
            self.weight = Parameter(parameter_storage(shape, dtype))
        else:
            self.register_parameter("weight", None)
        if affine and bias:
            self.bias = Parameter(parameter_storage(shape, dtype))
        else:
            self.register_parameter("bias", None)
        if track_running_stats:
            self.register_buffer("running_mean", parameter_storage(shape, dtype))
            self.register_buffer("running_var", parameter_storage(shape, dtype))
            self.register_buffer("num_batches_tracked", parameter_storage((), dtypes.int64))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        """Running mean 0, running variance 1, no batch seen."""
        if self.track_running_stats:
            with no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        """The running statistics reset; weight ones, bias zeros."""
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() not in self._dims:
            raise ValueError(f"expected {self._expected} input (got {input.dim()}D input)")

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            with no_grad():
                self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a cumulative average
                factor = 1.0 / self.num_batches_tracked.item()
        batch_stats = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats
        return batch_norm(
            input,
            self.running_mean if keep else None,
            self.running_var if keep else None,
            self.weight,
            self.bias,
            batch_stats,
            factor,
            self.eps,
        )

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self.bias is not None}, "
            f"track_running_stats={self.track_running_stats}"
        )


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of an (N, C) or (N, C, L) input."""

    _dims = (2, 3)
    _expected = "2D or 3D"


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of an (N, C, H, W) input."""

    _dims = (4,)
    _expected = "4D"


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of an (N, C, D, H, W) input."""

    _dims = (5,)
    _expected = "5D"


name_classes_after(globals(), "torch.nn.modules.batchnorm")
