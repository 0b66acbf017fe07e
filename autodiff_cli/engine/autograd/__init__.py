"""`torch.autograd`: `grad`, `backward`, `Variable`, `Function`, `functional`, grad-mode managers."""

from __future__ import annotations

import importlib
from typing import Any

from ..core.backward_api import backward, grad
from ..core.grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from ..core.tensor import Tensor, require_grad_new
from . import functional  # (the `grad` command's jacobians and Hessians)

# Loaded on first use (PEP 562): the one-liner's start-up needs none of them. A locked-down child
# cannot import, so the CLI's warm-up loads them all (`load_all`) when a script may use them.
_LAZY_SUBMODULES = ("anomaly_mode", "forward_ad", "function", "graph", "profiler")
_LAZY_NAMES = {
    "Function": "function",
    "FunctionCtx": "function",
    "gradcheck": "gradient_checks",
    "gradgradcheck": "gradient_checks",
    "detect_anomaly": "anomaly_mode",
    "set_detect_anomaly": "anomaly_mode",
}


def __getattr__(name: str) -> Any:
    submodule = _LAZY_NAMES.get(name, name if name in _LAZY_SUBMODULES else None)
    if submodule is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(f"{__name__}.{submodule}")
    value = getattr(module, name) if name in _LAZY_NAMES else module
    globals()[name] = value
    return value


def load_all() -> None:
    """Import every lazily loaded part now (before a child is locked down)."""
    for name in (*_LAZY_SUBMODULES, *_LAZY_NAMES):
        __getattr__(name)
    functional.forward_mode()


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
