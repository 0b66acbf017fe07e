"""`torch.autograd`: `grad`, `backward`, `Variable`, `Function`, `functional`, grad-mode managers."""

from __future__ import annotations

from typing import Any

from ..core.backward import backward, grad
from ..core.grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from ..core.tensor import Tensor, require_grad_new
from . import (
    anomaly_mode,  # noqa: F401 - torch.autograd.anomaly_mode
    forward_ad,  # noqa: F401 - torch.autograd.forward_ad
    functional,  # noqa: F401
    graph,  # noqa: F401 - torch.autograd.graph
    profiler,  # noqa: F401 - torch.autograd.profiler
)
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .function import Function, FunctionCtx  # noqa: F401
from .gradcheck import gradcheck, gradgradcheck  # noqa: F401


def Variable(data: Any, requires_grad: bool = False, volatile: bool = False) -> Tensor:  # noqa: N802
    """The old `Variable` wrapper: a leaf sharing `data`'s storage."""
    if not isinstance(data, Tensor):
        raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
    out = data.detach()
    out._vbox = None
    return require_grad_new(out) if requires_grad else out


__all__ = [
    "backward",
    "grad",
    "Variable",
    "Function",
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "inference_mode",
    "detect_anomaly",
    "set_detect_anomaly",
    "gradcheck",
    "gradgradcheck",
]
