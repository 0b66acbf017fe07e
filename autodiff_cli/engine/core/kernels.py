"""numpy formulas that more than one op or backend needs, computed in the input's dtype.

Python numbers in them keep the array's dtype (numpy's promotion rules), so float32 stays float32.
A number given to a ufunc with a floating array is passed as a 0-d array of that array's dtype
(`number_operand`, `one`, `zero`): numpy 2 converts a Python number operand on every call, 0.3 µs
of a small array's 0.5 µs product, and the result is the same (NEP 50 casts the number to the
array's dtype first; tests/test_numeric_kernels.py compares them).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .dtypes import FLOAT_DTYPES

_ndarray = np.ndarray


def _constants(value: int) -> dict:
    """`value` as a read-only 0-d array of each floating dtype."""
    arrays = {}
    for dtype in FLOAT_DTYPES:
        array = arrays[dtype] = np.array(value, dtype)
        array.flags.writeable = False
    return arrays


_ONES = _constants(1)
_ZEROS = _constants(0)


def one(x: Any) -> Any:
    """The number 1 as an operand beside `x`: a 0-d array of a floating array's dtype, else 1
    (a numpy scalar computes with a Python number faster than with an array)."""
    return _ONES.get(x.dtype, 1) if x.__class__ is _ndarray else 1


def zero(x: Any) -> Any:
    """The number 0 as an operand beside `x` (see `one`)."""
    return _ZEROS.get(x.dtype, 0) if x.__class__ is _ndarray else 0


def operand(number: float, like: Any) -> Any:
    """`number` as an operand beside `like`: `number_operand` of a floating array's dtype, else
    the number itself."""
    if like.__class__ is _ndarray:
        dtype = like.dtype
        if dtype in FLOAT_DTYPES:
            return number_operand(number, dtype)
    return number


# the last number, dtype and 0-d array `number_operand` made
_last_number: list = [None, None, None]


def number_operand(value: float, dtype: Any) -> np.ndarray:
    """A Python number as a read-only 0-d array of a floating array's `dtype`, kept while the
    same number object comes with the same dtype (a loop's constant: `p.grad * 0.1`). Making a
    new one costs less than numpy's own conversion of the number: a changing one is not slower."""
    last = _last_number
    if last[0] is value and last[1] is dtype:
        return last[2]
    array = np.array(value, dtype)
    array.flags.writeable = False
    last[0] = value
    last[1] = dtype
    last[2] = array
    return array


# numpy's dot itself, without the `__array_function__` dispatch that `np.dot` runs first (a Python
# call, 0.15 µs a product): the engine gives it numpy arrays only. On 2-D arrays it reaches
# BLAS with less overhead than matmul (0.3-1.7 µs less on an MLP's small matrices), its results
# differing from matmul's at most in rounding.
dot = getattr(np.dot, "_implementation", np.dot)


def sigmoid(x: Any) -> Any:
    """`1 / (1 + exp(-x))`; an overflowing exp gives 0, silently (the engine's np.seterr)."""
    one_ = one(x)
    return one_ / (one_ + np.exp(-x))


def softplus_neg(x: Any) -> Any:
    """`log(1 + exp(-x))` without overflow (binary_cross_entropy_with_logits): one ufunc."""
    return np.logaddexp(zero(x), -x)


def sign(x: Any) -> Any:
    """PyTorch's sign (and sgn of a real tensor): -1, 0 or 1, and 0 at NaN, where np.sign gives
    NaN (PyTorch's kernel is `(0 < x) - (x < 0)`: both comparisons are false for NaN)."""
    s = np.sign(x)
    if s.__class__ is _ndarray:
        if s.dtype.kind == "f":
            np.copyto(s, zero(s), where=np.isnan(s))
    elif s != s:  # a NaN numpy scalar
        s = s.dtype.type(0)
    return s


def tanh_backward(g: Any, r: Any) -> Any:
    """The gradient of tanh from its result `r`: `g · (1 - r²)`, with `1 - r²` rounded once as
    PyTorch's vectorised kernels compute it (a fused multiply-add), so it differs from the
    textbook `(1 - r**2) * g` in the last bit as PyTorch's does."""
    return g * one_minus_square(r)


_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's split of a float64 into two 26-bit halves


def one_minus_square(r: Any) -> Any:
    """`1 - r·r` rounded once, as `fma(-r, r, 1)`. For float32, in float64 and cast back: `r·r` is
    exact there, `1 - r·r` too for |r| >= 1/8, and for every smaller float32 it never lands on a
    float32 halfway point, so the cast rounds as the fma does (checked over all float32 values,
    tests/test_numeric_kernels.py). For float64, by an error-free product and sum."""
    if r.__class__ is np.float32:  # one number (a 0-d tensor's saved result): no arrays
        return np.float32(1.0 - float(r) * float(r))
    r = np.asarray(r)
    if r.dtype == np.float32:
        r64 = r.astype(np.float64)
        return (1.0 - r64 * r64).astype(np.float32)
    if r.dtype != np.float64:
        return one(r) - r * r
    split = _SPLIT * r
    high = split - (split - r)
    low = r - high
    square = r * r
    square_error = ((high * high - square) + 2.0 * high * low) + low * low  # r² = square + it
    rest = 1.0 - square
    back = rest - 1.0
    rest_error = (1.0 - (rest - back)) + (-square - back)  # 1 - square = rest + it
    return rest + (rest_error - square_error)


def sigmoid_backward(g: Any, r: Any) -> Any:
    """The gradient of sigmoid from its result `r`: `g · (1 - r) · r`, in that order."""
    return g * (one(r) - r) * r
