"""`torch.cuda` of a CPU-only build: nothing is available, seeding is a no-op, and asking for a
device fails as PyTorch fails."""

from __future__ import annotations

from typing import Any

from .ops.legacy_types import CUDA_CLASSES

# `torch.cuda.FloatTensor`...: classes that exist (`dtype = torch.cuda.FloatTensor if
# use_cuda else torch.FloatTensor`) but make nothing and hold no tensor.
globals().update(CUDA_CLASSES)

_NO_CUDA = "Torch not compiled with CUDA enabled"


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def manual_seed(seed: int) -> None:
    """Seeds CUDA generators: there are none."""


def manual_seed_all(seed: int) -> None:
    """Seeds every CUDA generator: there are none."""


def empty_cache() -> None:
    """Frees cached CUDA memory: there is none."""


def current_device() -> int:
    raise AssertionError(_NO_CUDA)


def synchronize(device: Any = None) -> None:
    raise AssertionError(_NO_CUDA)


def get_device_name(device: Any = None) -> str:
    raise AssertionError(_NO_CUDA)


# What a script sees of this module (the language exports only these names).
__all__ = [
    *CUDA_CLASSES,
    "is_available", "device_count", "is_initialized", "manual_seed", "manual_seed_all",
    "empty_cache", "current_device", "synchronize", "get_device_name",
]  # fmt: skip
