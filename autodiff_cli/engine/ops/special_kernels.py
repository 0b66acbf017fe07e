"""Numpy kernels of the special functions numpy lacks: lgamma, digamma, polygamma (Hurwitz
zeta), erfinv / erfcinv, ndtri, log_ndtr, and the modified Bessel functions i0 and i1.

Each takes a floating array and returns an array of the same dtype; the computation is done in
float64 (accurate to a few ulps of float64, so float32 results are correctly rounded). Poles and
edges are those PyTorch's kernels give (lgamma at 0 and the negative integers is inf, digamma
at ±0 is ∓inf and NaN at the negative integers, erfinv(±1) is ±inf).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

_SQRT_PI_2 = math.sqrt(math.pi) / 2
_SQRT2 = math.sqrt(2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
# B_2, B_4, ..., B_20: the Bernoulli numbers of the Euler-Maclaurin tails
_BERNOULLI = (
    1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510, 43867 / 798,
    -174611 / 330,
)  # fmt: skip
_MAX_TERMS = 10**7  # ζ(s, q) of a negative q sums |q| terms: beyond this many, NaN
_erf = np.frompyfunc(math.erf, 1, 1)
_erfc = np.frompyfunc(math.erfc, 1, 1)


def _f64(a: Any) -> np.ndarray:
    """`a` as a flat float64 array (masks assign into it, which a 0-d result would refuse)."""
    return np.array(a, dtype=np.float64).reshape(-1)


def _back(values: np.ndarray, like: Any) -> np.ndarray:
    """`values` in the shape and dtype of the kernel's input."""
    return np.asarray(values, dtype=np.asarray(like).dtype).reshape(np.shape(like))


def _erf64(x: np.ndarray) -> np.ndarray:
    return np.asarray(_erf(x), dtype=np.float64)


def _erfc64(x: np.ndarray) -> np.ndarray:
    return np.asarray(_erfc(x), dtype=np.float64)


def _lgamma1(v: float) -> float:
    if not math.isfinite(v):
        return abs(v)  # inf at ±inf, NaN at NaN
    if v <= 0 and v == math.floor(v):
        return math.inf  # the poles
    return math.lgamma(v)


_lgamma = np.frompyfunc(_lgamma1, 1, 1)


def lgamma(a: Any) -> np.ndarray:
    """log |Γ(a)|."""
    x = _f64(a)
    return _back(np.asarray(_lgamma(x), dtype=np.float64), a)


def _shifted(x: np.ndarray, low: float, term: Any) -> tuple[np.ndarray, np.ndarray]:
    """`x` moved up by whole steps until it is at least `low`, and the sum of `term(y)` over
    the values y it left behind (the recurrences ψ(y) = ψ(y + 1) - 1/y and alike)."""
    y = x.copy()
    acc = np.zeros_like(y)
    below = y < low
    while below.any():
        acc[below] += term(y[below])
        y[below] += 1.0
        below = y < low
    return y, acc


def _digamma_positive(x: np.ndarray) -> np.ndarray:
    """ψ(x) for x > 0 (or inf, NaN): recurrence to x ≥ 10, then the asymptotic series."""
    y, acc = _shifted(x, 10.0, lambda v: -1.0 / v)
    i = 1.0 / (y * y)
    tail = i * (1 / 12 - i * (1 / 120 - i * (1 / 252 - i * (1 / 240 - i * (1 / 132 - i * (
        691 / 32760 - i / 12))))))  # fmt: skip
    return acc + np.log(y) - 0.5 / y - tail


def digamma(a: Any) -> np.ndarray:
    """ψ(a) = Γ'(a)/Γ(a); below 0 by reflection, ψ(x) = ψ(1 - x) - π / tan(πx)."""
    x = _f64(a)
    neg = x < 0
    out = _digamma_positive(np.where(neg, 1.0 - x, x))
    out = np.where(neg, out - math.pi / np.tan(math.pi * x), out)
    out = np.where(neg & (x == np.floor(x)), np.nan, out)
    out = np.where(x == 0, -np.copysign(np.inf, x), out)  # +0 gives -inf, -0 gives +inf
    return _back(out, a)


def _trigamma_positive(x: np.ndarray) -> np.ndarray:
    y, acc = _shifted(x, 10.0, lambda v: 1.0 / (v * v))
    i = 1.0 / (y * y)
    series = 1.0 + i * (1 / 6 - i * (1 / 30 - i * (1 / 42 - i * (1 / 30 - i * (5 / 66 - i * (
        691 / 2730 - i * 7 / 6))))))  # fmt: skip
    return acc + 0.5 * i + series / y


def trigamma(x: np.ndarray) -> np.ndarray:
    """ψ'(x) in float64; below 0 by reflection, ψ'(x) = π² / sin²(πx) - ψ'(1 - x)."""
    neg = x < 0
    out = _trigamma_positive(np.where(neg, 1.0 - x, x))
    sin = np.sin(math.pi * x)
    return np.where(neg, math.pi**2 / (sin * sin) - out, out)


def _terms_below(q: float, s: int, low: float) -> float:
    """Σ (q + k)^-s over the k with q + k < low, for one negative q (in chunks: |q| terms)."""
    count = math.ceil(low - q)
    if count > _MAX_TERMS:
        return math.nan  # (PyTorch's own values there are not reliable either)
    total = 0.0
    for start in range(0, count, 1 << 20):
        k = np.arange(start, min(count, start + (1 << 20)), dtype=np.float64)
        total += float(np.sum((q + k) ** (-s)))
    return total


def hurwitz_zeta(s: int, q: np.ndarray) -> np.ndarray:
    """ζ(s, q) = Σ_k (q + k)^-s for an integer s ≥ 2: the terms below q + k = 10 + s summed,
    then the Euler-Maclaurin tail; inf at the poles (q = 0, -1, ...), NaN at ±inf."""
    pole = (q <= 0) & (q == np.floor(q))
    finite = np.isfinite(q) & ~pole
    out = np.where(pole, np.inf, np.nan)
    low = 10.0 + s
    q = q[finite]
    y = np.where(q < 0, q + np.ceil(low - q), q)
    y, acc = _shifted(y, low, lambda v: v ** (-s))
    for i in np.flatnonzero(q < 0):
        acc[i] += _terms_below(float(q[i]), s, low)
    tail = y ** (1 - s) / (s - 1) + 0.5 * y ** (-s)
    rising = float(s)  # s (s + 1) ... (s + 2j - 2)
    power = y ** (-s - 1)
    factorial = 2.0
    for j, bernoulli in enumerate(_BERNOULLI, 1):
        tail = tail + bernoulli / factorial * rising * power
        rising *= (s + 2 * j - 1) * (s + 2 * j)
        power = power / (y * y)
        factorial *= (2 * j + 1) * (2 * j + 2)
    out[finite] = acc + tail
    return out


def polygamma(a: Any, n: int) -> np.ndarray:
    """ψ⁽ⁿ⁾(a): digamma for n = 0, trigamma for 1, else (-1)^(n+1) n! ζ(n + 1, a)."""
    if n == 0:
        return digamma(a)
    x = _f64(a)
    if n == 1:
        return _back(trigamma(x), a)
    scale = math.factorial(n) if n <= 170 else math.inf
    return _back((-1.0) ** (n + 1) * scale * hurwitz_zeta(n + 1, x), a)


def _erfcinv_guess(log_q2: np.ndarray) -> np.ndarray:
    """Winitzki's closed form for erfinv(x), |x| < 1, from ln(1 - x²) (about 2e-3 off)."""
    a = 0.147
    t = 2 / (math.pi * a) + log_q2 / 2
    return np.sqrt(np.maximum(np.sqrt(t * t - log_q2 / a) - t, 0.0))


def erfcinv(q: np.ndarray) -> np.ndarray:
    """y ≥ 0 with erfc(y) = q, for q in (0, 1] (float64): Newton's method on log erfc, whose
    slope does not vanish as q → 0."""
    y = _erfcinv_guess(np.log(q * (2.0 - q)))
    log_q = np.log(q)
    for _ in range(4):
        e = _erfc64(y)
        y = y + (np.log(e) - log_q) * np.exp(np.log(e) + y * y) * _SQRT_PI_2
    return y


def _erfinv_central(x: np.ndarray) -> np.ndarray:
    """erfinv(x) for |x| ≤ 0.5 (float64): Newton's method on erf."""
    y = np.copysign(_erfcinv_guess(np.log1p(-x * x)), x)
    for _ in range(4):
        y = y - (_erf64(y) - x) * np.exp(y * y) * _SQRT_PI_2
    return y


def erfinv(a: Any) -> np.ndarray:
    """The inverse of erf on [-1, 1] (±inf at ±1, NaN outside)."""
    x = _f64(a)
    ax = np.abs(x)
    out = np.where(ax == 1, np.copysign(np.inf, x), np.nan)
    central = ax <= 0.5
    out[central] = _erfinv_central(x[central])
    tail = (ax > 0.5) & (ax < 1)
    out[tail] = np.copysign(erfcinv(1.0 - ax[tail]), x[tail])
    return _back(out, a)


def ndtri(a: Any) -> np.ndarray:
    """The inverse of the standard normal CDF (-inf at 0, inf at 1, NaN outside [0, 1])."""
    p = _f64(a)
    out = np.where(p == 0, -np.inf, np.where(p == 1, np.inf, np.nan))
    central = (p >= 0.25) & (p <= 0.75)
    out[central] = _SQRT2 * _erfinv_central(2.0 * p[central] - 1.0)
    low = (p > 0) & (p < 0.25)
    out[low] = -_SQRT2 * erfcinv(2.0 * p[low])
    high = (p > 0.75) & (p < 1)
    out[high] = _SQRT2 * erfcinv(2.0 * (1.0 - p[high]))
    return _back(out, a)


def log_ndtr(a: Any) -> np.ndarray:
    """log Φ(a), accurate in both tails: log1p(-Q) above 0, log(erfc/2) down to -20, then the
    asymptotic series of Φ(x) · √(2π) · (-x) · exp(x²/2)."""
    x = _f64(a)
    out = np.log1p(-0.5 * _erfc64(x / _SQRT2))
    mid = (x < 0) & (x > -20)
    out[mid] = np.log(0.5 * _erfc64(-x[mid] / _SQRT2))
    far = x <= -20
    v = x[far]
    inv2 = 1.0 / (v * v)
    series = np.zeros_like(v)
    term = np.ones_like(v)
    for k in range(1, 13):
        term = term * -(2 * k - 1) * inv2
        series = series + term
    out[far] = -0.5 * v * v - np.log(-v) - _LOG_SQRT_2PI + np.log1p(series)
    return _back(out, a)


def _bessel_i(a: Any, order: int) -> np.ndarray:
    """I₀ or I₁: the power series up to |x| = 20, beyond it e^|x| / √(2π|x|) times the
    asymptotic series. e^|x| is taken in the input's dtype, so that it overflows where
    PyTorch's does (float32 beyond 88.7, float64 beyond 709.8)."""
    x = _f64(a)
    ax = np.abs(x)
    out = np.empty_like(ax)
    near = ax <= 20
    quarter = ax[near] ** 2 / 4
    term = np.ones_like(quarter) if order == 0 else ax[near] / 2
    total = term.copy()
    for k in range(1, 90):
        term = term * quarter / (k * (k + order))
        total = total + term
    out[near] = total
    far = ~near & ~np.isnan(ax)
    v = ax[far]
    term = np.ones_like(v)
    total = term.copy()
    mu = 4.0 * order * order
    for k in range(1, 40):
        term = term * -(mu - (2 * k - 1) ** 2) / (k * 8.0 * v)
        total = total + term
    with np.errstate(over="ignore"):
        grown = np.exp(v.astype(np.asarray(a).dtype)).astype(np.float64)
    out[far] = grown * (total / np.sqrt(2 * math.pi * v))
    out[np.isnan(ax)] = np.nan  # (and NaN at ±inf, inf · 0, as PyTorch's)
    if order == 1:
        out = np.copysign(out, x)
    return _back(out, a)


def i0(a: Any) -> np.ndarray:
    """The modified Bessel function of the first kind, order 0."""
    return _bessel_i(a, 0)


def i1(a: Any) -> np.ndarray:
    """The modified Bessel function of the first kind, order 1."""
    return _bessel_i(a, 1)
