"""`torch.backends.cudnn`: settable flags with PyTorch's defaults; cuDNN itself is absent."""

from __future__ import annotations

deterministic = False
benchmark = False
enabled = True
allow_tf32 = True


def is_available() -> bool:
    return False


def version() -> None:
    return None


# What a script sees of this module (the language exports only these names).
__all__ = ["deterministic", "benchmark", "enabled", "allow_tf32", "is_available", "version"]
