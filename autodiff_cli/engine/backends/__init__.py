"""`torch.backends` of a CPU-only build: the flags scripts set for reproducibility
(`torch.backends.cudnn.deterministic = True`) and the availability checks."""

from __future__ import annotations

from . import cudnn, mps  # noqa: F401

# What a script sees of this module (the language exports only these names).
__all__ = ["cudnn", "mps"]
