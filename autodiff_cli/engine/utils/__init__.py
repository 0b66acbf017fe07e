"""`torch.utils`: `data` (datasets, samplers, DataLoader)."""

from __future__ import annotations

from . import data  # noqa: F401
