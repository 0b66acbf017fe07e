"""numpy formulas that more than one op or backend needs, computed in the input's dtype.

Python numbers in them keep the array's dtype (numpy's promotion rules), so float32 stays float32.
"""

from __future__ import annotations

from typing import Any

import numpy as np


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
