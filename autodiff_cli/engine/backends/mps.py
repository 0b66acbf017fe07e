"""`torch.backends.mps`: Apple's Metal backend, absent here."""

from __future__ import annotations


def is_available() -> bool:
    return False


def is_built() -> bool:
    return False


# What a script sees of this module (the language exports only these names).
__all__ = ["is_available", "is_built"]
