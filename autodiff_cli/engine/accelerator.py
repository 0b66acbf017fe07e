"""`torch.accelerator`, `torch.set_default_device`, `torch.get_default_device`: autodiff
computes on the CPU (and knows the meta device), as a CPU-only PyTorch build."""

from __future__ import annotations

from typing import Any

from .core import devices
from .core.devices import device

_NO_CUDA = "Torch not compiled with CUDA enabled"


def is_available() -> bool:
    """No accelerator (CUDA, MPS...) is available."""
    return False


def current_accelerator(check_available: bool = False) -> None:
    return None


def device_count() -> int:
    return 0


def set_default_device(target: Any) -> None:
    """`torch.set_default_device`: `cpu` (or None) and `meta`; any other device fails as in a
    CPU build."""
    chosen = (
        None if target is None else device(target) if not isinstance(target, device) else target
    )
    if chosen is not None and chosen.type not in ("cpu", "meta"):
        raise RuntimeError(_NO_CUDA if chosen.type == "cuda" else f"{chosen.type} is not available")
    devices.set_default_device(chosen)


def get_default_device() -> device:
    return device(devices.get_default_device().type)


__all__ = ["current_accelerator", "device_count", "is_available"]
