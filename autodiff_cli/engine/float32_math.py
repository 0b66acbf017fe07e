"""Float32 transcendental functions that round as PyTorch's do.

numpy's float32 `exp`, `tanh`, `log10`, ... are SIMD approximations a few ulp off: against
PyTorch 2.13 (CPU) about 40% of float32 `exp` results and 30% of `tanh` results differ in the last
bit, which `.item()` and gradients further down show. PyTorch's own float32 kernels are nearly
correctly rounded, so evaluating in float64 and rounding once to float32 agrees with it on
99-100% of inputs for exp, expm1, exp2, log2, log10, log1p, tanh, sinh and cosh, and on
93-97% for sin, cos, log, asin, acos, atan (measured over 7,000 inputs; numpy alone: 60-90%).

The float64 route costs about 1 µs per call and several times numpy's time per element, so it is
taken for float32 tensors of up to `EXACT_MAX_ELEMENTS` elements (PyTorch's own grain size, the
limit `cascade_sum` keeps too): the scalars, vectors and small batches this tool lives on, such
as the tutorials' 2,000-point curves. Larger tensors keep numpy's speed (and its last-bit
differences). sqrt gains nothing from it (PyTorch's float32 sqrt is MKL's, not correctly
rounded) and is left as numpy computes it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

EXACT_MAX_ELEMENTS = 32768
_F32 = np.dtype(np.float32)
_F64 = np.float64
# 0, 1 and -1 as read-only 0-d arrays of float32 and float64, by dtype. With an array of the
# same dtype they give the operation a Python number gives, which numpy takes longer to resolve
# (0.5-1 µs a call here). ops' binary_cross_entropy_with_logits uses them too.
CONSTANTS: dict[np.dtype, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
for _dt in (_F32, np.dtype(_F64)):
    CONSTANTS[_dt] = tuple(np.full((), v, _dt) for v in (0.0, 1.0, -1.0))
    for _c in CONSTANTS[_dt]:
        _c.flags.writeable = False
_ONES = {dt: c[1] for dt, c in CONSTANTS.items()}
_ONE64 = _ONES[np.dtype(_F64)]


def rounded_from_float64(ufunc: np.ufunc) -> Any:
    """`ufunc`, evaluated in float64 and rounded once for small float32 inputs."""

    def fn(a: Any) -> Any:
        if a.dtype != _F32 or a.size > EXACT_MAX_ELEMENTS:
            return ufunc(a)
        if a.ndim == 0:
            return _F32.type(ufunc(_F64(a)))
        # Cast, evaluate and round as three plain calls: the same float64 loop and the same
        # rounding as `ufunc(a, dtype=float64, out=<float32>, casting="unsafe")`, without its
        # dtype/casting resolution (about 2 µs a call). order="C": a C-contiguous result as before.
        return ufunc(a.astype(_F64, order="C")).astype(_F32)

    fn.__name__ = ufunc.__name__
    fn.__doc__ = f"numpy.{ufunc.__name__}, rounded from float64 for small float32 inputs."
    return fn


exp = rounded_from_float64(np.exp)
expm1 = rounded_from_float64(np.expm1)
exp2 = rounded_from_float64(np.exp2)
log = rounded_from_float64(np.log)
log2 = rounded_from_float64(np.log2)
log10 = rounded_from_float64(np.log10)
log1p = rounded_from_float64(np.log1p)
sin = rounded_from_float64(np.sin)
cos = rounded_from_float64(np.cos)
tan = rounded_from_float64(np.tan)
arcsin = rounded_from_float64(np.arcsin)
arccos = rounded_from_float64(np.arccos)
arctan = rounded_from_float64(np.arctan)
sinh = rounded_from_float64(np.sinh)
cosh = rounded_from_float64(np.cosh)
tanh = rounded_from_float64(np.tanh)


def power(a: Any, exponent: float) -> Any:
    """`a ** exponent` for a Python number, rounded from float64 for small float32 inputs."""
    if a.dtype != _F32 or a.size > EXACT_MAX_ELEMENTS:
        return np.power(a, exponent)
    if a.ndim == 0:
        return _F32.type(np.power(_F64(a), exponent))
    return np.power(a.astype(_F64, order="C"), exponent, dtype=_F64).astype(_F32)


def sigmoid(x: Any) -> Any:
    """PyTorch's float32 sigmoid: `1 / (1 + exp(-x))` in float32 around a rounded exp.
    Overflow to inf gives 0, silently (the engine's np.seterr)."""
    e = exp(-x)
    one = _ONES.get(e.dtype) if e.__class__ is np.ndarray else None
    if one is None:  # numpy scalars (from 0-d inputs), float16
        return 1.0 / (1.0 + e)
    e += one  # a new array: `1 +` in place
    return one / e


def softplus_neg(x: Any) -> Any:
    """log(1 + exp(-x)), computed without overflow (binary_cross_entropy_with_logits). For
    float32/float64, `-|x|` is copysign(x, -1) and the numbers are `CONSTANTS`: the same bits
    (NaNs too) with cheaper numpy calls."""
    constants = CONSTANTS.get(x.dtype)
    if constants is None:
        return np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0)
    zero, _, minus_one = constants
    return np.log1p(np.exp(np.copysign(x, minus_one))) + np.maximum(-x, zero)


def tanh_backward(g: Any, r: Any) -> Any:
    """PyTorch's `g · (1 - r²)`: its kernel fuses `1 - r·r` into one multiply-add (a single
    rounding), which float64 reproduces exactly for float32 `r` (r·r is exact in float64).
    Without it 69% of float32 tanh gradients differ from PyTorch's in the last bit."""
    if r.dtype != _F32 or r.size > EXACT_MAX_ELEMENTS:
        return g * (_ONES.get(r.dtype, 1) - r * r)
    r64 = r.astype(_F64)
    r64 *= r64  # r·r, in place on the new array
    return g * (_ONE64 - r64).astype(_F32)


def sigmoid_backward(g: Any, r: Any) -> Any:
    """PyTorch's `g · (1 - r) · r`, multiplied in that order."""
    one = _ONES.get(r.dtype, 1) if r.__class__ is np.ndarray else 1
    return g * (one - r) * r
