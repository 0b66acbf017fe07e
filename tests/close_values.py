"""`assert_close`: values (nested lists, or a tensor) against recorded ones, within tolerances."""

from __future__ import annotations

from typing import Any

import numpy as np


def assert_close(
    actual: Any, expected: Any, rtol: float = 1e-6, atol: float = 1e-7, dtype: Any = None
) -> None:
    """`np.testing.assert_allclose` of `actual` (a tensor is read with `.tolist()`) and
    `expected`, both made arrays of `dtype` (numpy's choice when None)."""
    if hasattr(actual, "tolist"):
        actual = actual.tolist()
    np.testing.assert_allclose(
        np.asarray(actual, dtype=dtype), np.asarray(expected, dtype=dtype), rtol=rtol, atol=atol
    )
