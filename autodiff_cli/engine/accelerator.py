"""`torch.accelerator`, `torch.set_default_device`, `torch.get_default_device`: autodiff
computes on the CPU only, as a CPU-only PyTorch build."""

from __future__ import annotations

from typing import Any

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
    """`torch.set_default_device`: `cpu` (or None) only; any other device fails as a CPU build."""
    if target is None:
        return
    chosen = device(target) if not isinstance(target, device) else target
    if chosen.type != "cpu":
        raise RuntimeError(_NO_CUDA if chosen.type == "cuda" else f"{chosen.type} is not available")


def get_default_device() -> device:
    return device("cpu")


__all__ = ["current_accelerator", "device_count", "is_available"]
