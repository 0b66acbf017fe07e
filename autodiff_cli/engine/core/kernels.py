"""numpy formulas that more than one op or backend needs, computed in the input's dtype.

Python numbers in them keep the array's dtype (numpy's promotion rules), so float32 stays float32.
"""

from __future__ import annotations

from typing import Any

import numpy as np

# numpy's dot itself, without the `__array_function__` dispatch that `np.dot` runs first (a Python
# call, 0.15 µs a product): the engine gives it numpy arrays only. On 2-D arrays it reaches
# BLAS with less overhead than matmul (0.3-1.7 µs less on an MLP's small matrices), its results
# differing from matmul's at most in rounding.
dot = getattr(np.dot, "_implementation", np.dot)


def sigmoid(x: Any) -> Any:
    """`1 / (1 + exp(-x))`; an overflowing exp gives 0, silently (the engine's np.seterr)."""
    return 1 / (1 + np.exp(-x))


def softplus_neg(x: Any) -> Any:
    """`log(1 + exp(-x))` without overflow (binary_cross_entropy_with_logits): one ufunc."""
    return np.logaddexp(0, -x)


def tanh_backward(g: Any, r: Any) -> Any:
    """The gradient of tanh from its result `r`: `g · (1 - r²)`."""
    return g * (1 - r * r)


def sigmoid_backward(g: Any, r: Any) -> Any:
    """The gradient of sigmoid from its result `r`: `g · (1 - r) · r`, in that order."""
    return g * (1 - r) * r
