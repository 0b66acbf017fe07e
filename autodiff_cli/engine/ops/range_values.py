"""The values of `arange`, `linspace` and `logspace` in a float dtype, bit for bit as PyTorch's CPU
kernels compute them (checked against PyTorch 2.13 on AVX2 and AVX-512 CPUs: both run the same
256-bit kernels for these factories).

What shows in the last bits: the kernels' `start + step * i` is compiled to a fused multiply-add
(one rounding: `arange(-8, 8, 0.1)[80]` is 4.44e-16, not 0), arange fills whole 256-bit vectors
from each vector's first value rounded to the dtype, and float16 computes in float32 (arange) or in
float16 itself (linspace). numpy has no fused multiply-add, so `fused_multiply_add` builds one from
error-free transformations (Boldo and Melquiond's emulation with rounding to odd).
"""

from __future__ import annotations

import math

import numpy as np

_F64 = np.float64
_VECTOR_BYTES = 32  # one 256-bit vector; the kernels fill two per step


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`s + t == a + b` exactly, `s` the rounded sum."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = 134217729.0 * a  # 2**27 + 1: Veltkamp's split into two 26-bit halves
    hi = c - (c - a)
    return hi, a - hi


def _two_product(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`p + e == a * b` exactly (Dekker), `p` the rounded product."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _two_product_by_counts(step: float, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`_two_product(step, counts)` for integer counts below 2**26, which need no split."""
    p = counts * step
    c = 134217729.0 * step
    high = c - (c - step)
    return p, (counts * high - p) + counts * (step - high)


def _round_to_odd(s: np.ndarray, t: np.ndarray) -> np.ndarray:
    """`s + t` (`s` its rounding to nearest, `t` the rest) rounded to odd: an inexact result
    takes the neighbour whose last bit is 1."""
    fix = (t != 0) & ((s.view(np.int64) & 1) == 0)
    if not fix.any():
        return s
    return np.where(fix, np.nextafter(s, np.where(t > 0, np.inf, -np.inf)), s)


def _sum_of_three(high: np.ndarray, low: np.ndarray, c: object, to_odd: bool) -> np.ndarray:
    """`high + low + c` rounded once (to nearest, or to odd), `high + low` an exact product."""
    s, t = _two_sum(c, high)
    rest = _round_to_odd(*_two_sum(t, low))
    if not to_odd:
        return s + rest
    return _round_to_odd(*_two_sum(s, rest))


def fused_multiply_add(a: object, b: object, c: object, to_odd: bool = False) -> np.ndarray:
    """`a * b + c` in float64 with one rounding, element-wise; `to_odd` rounds the result to
    odd instead of to nearest, so that a later rounding to float32 or float16 is exact as a
    float32 or float16 fused multiply-add would give it."""
    a, b = np.asarray(a, _F64), np.asarray(b, _F64)
    high, low = _two_product(a, b)
    return np.asarray(_sum_of_three(high, low, np.asarray(c, _F64), to_odd))


def _fma_counts(step: float, counts: np.ndarray, c: object, dtype: np.dtype) -> np.ndarray:
    """`fma(step, counts, c)` computed in `dtype` (float64 or float32), as float64 values;
    `counts` are non-negative integers (indices)."""
    largest = int(counts.max()) if counts.size else 0
    numerator = float(step).as_integer_ratio()[0]  # (its denominator is a power of 2)
    if abs(numerator).bit_length() + largest.bit_length() <= 53:  # `arange(5.0)`, step 0.25
        products = counts * float(step)  # exact: the sum is the one rounding
        if dtype == np.float64:
            return products + c
        return _round_to_odd(*_two_sum(c, products)).astype(np.float32).astype(_F64)
    if largest >= 2**26:
        high, low = _two_product(np.asarray(step, _F64), counts)
    else:
        high, low = _two_product_by_counts(float(step), counts)
    if dtype == np.float64:
        return _sum_of_three(high, low, c, False)
    return _sum_of_three(high, low, c, True).astype(np.float32).astype(_F64)


def arange_values(start: float, step: float, n: int, dtype: np.dtype) -> np.ndarray:
    """`arange` in a float dtype: `fma(step, i, start)` in the accumulation type (float64; float32
    for float16), rounded to the dtype; in runs of two vectors, each vector's lanes count on from
    its first value after that rounding (`arange(-1, 1, 0.1)[10]` is -2.98e-09)."""
    acc = np.dtype(_F64) if dtype.itemsize > 2 else np.dtype(np.float32)
    start, step = _F64(acc.type(start)), acc.type(step)
    width = _VECTOR_BYTES // dtype.itemsize
    body = n // (2 * width) * (2 * width)
    out = np.empty(n, dtype)
    if body:
        firsts = _fma_counts(step, np.arange(0, body, width, dtype=_F64), start, acc)
        firsts = firsts.astype(dtype).astype(_F64)[:, None]
        lanes = np.arange(width, dtype=_F64)[None, :]
        out[:body] = _fma_counts(step, lanes, firsts, acc).reshape(-1)
    out[body:] = _fma_counts(step, np.arange(body, n, dtype=_F64), start, acc)
    return out


def linspace_values(start: float, end: float, steps: int, dtype: np.dtype) -> np.ndarray:
    """`linspace` in a float or integer dtype: the step computed in the dtype, then `start + step * i` for
    the first half and `end - step * (steps - 1 - i)` for the second (so both ends are exact),
    fused in float32 and float64; float16 rounds each operation to float16."""
    if dtype.kind in "iu":
        return _linspace_integers(int(start), int(end), steps, dtype)
    scalar = dtype.type
    first, last = scalar(start), scalar(end)
    if steps == 1:
        return np.array([first], dtype)
    step = (last - first) / scalar(steps - 1)
    index = np.arange(steps, dtype=_F64)
    half = steps // 2
    if dtype.itemsize > 2:
        head = _fma_counts(step, index[:half], _F64(first), dtype)
        tail = _fma_counts(-step, index[steps - half - 1 :: -1], _F64(last), dtype)
    else:  # float16 arithmetic: the count converted to float16, each product and sum rounded
        count = index.astype(dtype)
        head = first + step * count[:half]
        tail = last - step * count[steps - half - 1 :: -1]
    return np.concatenate((head, tail)).astype(dtype)


def _linspace_integers(first: int, last: int, steps: int, dtype: np.dtype) -> np.ndarray:
    """An integer `linspace`: ends truncated, a float64 step, each half fused in float64 and
    truncated toward zero."""
    if steps == 1:
        return np.array([first]).astype(dtype)
    step = (float(last) - float(first)) / (steps - 1)
    index = np.arange(steps, dtype=_F64)
    half = steps // 2
    head = _fma_counts(step, index[:half], _F64(first), np.dtype(_F64))
    tail = _fma_counts(-step, index[steps - half - 1 :: -1], _F64(last), np.dtype(_F64))
    return np.trunc(np.concatenate((head, tail))).astype(np.int64).astype(dtype)


def logspace_values(
    start: float, end: float, steps: int, base: float, dtype: np.dtype
) -> np.ndarray:
    """`logspace` in a float dtype: exponents from the ends rounded to the dtype and a float64
    step from their difference in the dtype (halves as linspace's, not fused), then the C library's `pow` in float64, rounded to the
    dtype. (`math.pow` is that `pow`; numpy's own power differs in the last bit on some CPUs.)"""
    scalar = dtype.type
    first, last = scalar(start), scalar(end)
    if steps == 1:
        exponents = np.array([first], _F64)
    else:
        step = _F64(last - first) / (steps - 1)  # (the difference rounded to the dtype)
        first, last = _F64(first), _F64(last)
        index = np.arange(steps, dtype=_F64)
        half = steps // 2
        exponents = np.concatenate(
            (first + step * index[:half], last - step * index[steps - half - 1 :: -1])
        )
    base = float(base)
    values = np.fromiter((_power(base, e) for e in exponents.tolist()), _F64, steps)
    return values.astype(dtype)


def _power(base: float, exponent: float) -> float:
    try:
        return math.pow(base, exponent)
    except OverflowError:
        return math.inf
    except ValueError:  # a negative base to a fractional power
        return math.nan
