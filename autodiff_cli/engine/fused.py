"""Fused multiply-add (`a * b + c` rounded once), as the CPU kernels PyTorch calls compute it."""

from __future__ import annotations

import numpy as np

_VELTKAMP = 134217729.0  # 2**27 + 1: splits a float64 into two halves whose products are exact


def fma64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """`a * b + c` on float64 with one rounding, as a hardware fused multiply-add: the product's
    error term by Dekker's TwoProduct, the sum's by TwoSum (where the splitting overflows, the
    plain `a * b + c`)."""
    p = a * b
    ca, cb = a * _VELTKAMP, b * _VELTKAMP
    ah = ca - (ca - a)
    bh = cb - (cb - b)
    al, bl = a - ah, b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bb = s - p
    t = (p - (s - bb)) + (c - bb)
    fused = s + (t + e)
    return np.where(np.isfinite(fused), fused, p + c)


def fma(a: np.ndarray, b: np.ndarray, c: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """`a * b + c` rounded once to `dtype` (float32: the product is exact in float64)."""
    if dtype == np.float64:
        return fma64(a, b, c)
    wide = np.float64
    return (a.astype(wide) * b.astype(wide) + c.astype(wide)).astype(dtype)
