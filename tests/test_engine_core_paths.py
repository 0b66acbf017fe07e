"""Writes that record nothing take a short way (`zero_`/`fill_` straight into the array, `+=`
and friends as one ufunc with `out=`): they still bump the version a saved tensor checks, and a
recorded write is still recorded (tests/test_engine_fast_layer.py compares them with the
reference path)."""

from __future__ import annotations

import numpy as np
import pytest

import autodiff_cli.engine as E


def test_zero_of_a_recorded_tensor_is_recorded() -> None:
    x = E.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.zero_()
    assert type(y.grad_fn).__name__ == "ZeroBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]


@pytest.mark.parametrize("write", ["zero_", "sub"])
def test_a_short_write_bumps_the_version_a_saved_tensor_checks(write: str) -> None:
    w = E.tensor([1.0, 2.0], requires_grad=True)
    h = E.tensor([3.0, 4.0])
    y = (w * h).sum()
    with E.no_grad():
        if write == "zero_":
            h.zero_()
        else:
            h -= 1.0
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()
    assert np.all(np.isfinite(h.numpy()))
