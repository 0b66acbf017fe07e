"""PyTorch's CPU arithmetic for the optimizer updates, on numpy arrays of the parameter's dtype.

Scalars are rounded to the tensor's dtype first (PyTorch's `opmath` for float32 is float32), and
the kernels PyTorch vectorises with a fused multiply-add (`add` with `alpha`, `lerp`, `addcmul`)
round once: the product is formed exactly in float64 before the single rounding to float32.
"""

from __future__ import annotations

import numpy as np

_FLOAT64 = np.dtype(np.float64)


def scalar(value: float, like: np.ndarray) -> np.generic:
    return like.dtype.type(value)


def fma(a: np.ndarray, b: np.ndarray | np.generic, c: np.ndarray) -> np.ndarray:
    """`a * b + c` with one rounding (exact for float32 operands: the product fits a float64)."""
    dtype = c.dtype
    if dtype == _FLOAT64:
        return a * b + c
    return (a.astype(_FLOAT64) * np.float64(b) + c.astype(_FLOAT64)).astype(dtype)


def add(a: np.ndarray, b: np.ndarray, alpha: float = 1.0) -> np.ndarray:
    """`a.add(b, alpha=alpha)`."""
    if alpha == 1:
        return a + b
    return fma(b, scalar(alpha, a), a)


def mul(a: np.ndarray, value: float) -> np.ndarray:
    return a * scalar(value, a)


def lerp(start: np.ndarray, end: np.ndarray, weight: float) -> np.ndarray:
    """`start.lerp(end, weight)`: PyTorch's two-sided formula, fused."""
    w = scalar(weight, start)
    diff = end - start
    if abs(w) < 0.5:
        return fma(diff, w, start)
    return fma(diff, w - start.dtype.type(1), end)


def addcmul(a: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: float = 1.0) -> np.ndarray:
    """`a + value * t1 * t2`."""
    return fma(scalar(value, a) * t1, t2, a)


def addcdiv(a: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: float = 1.0) -> np.ndarray:
    """`a + value * t1 / t2`."""
    return a + scalar(value, a) * t1 / t2


def div(a: np.ndarray, value: float) -> np.ndarray:
    return a / scalar(value, a)
