"""`torch.utils`: `data` (datasets, samplers, DataLoader)."""

from __future__ import annotations

from . import data  # noqa: F401

# What a script sees of this module (the language exports only these names).
__all__ = ["data"]
