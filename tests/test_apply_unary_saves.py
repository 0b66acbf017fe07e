"""apply_unary and _save on their short paths: a one-input op that saves its input (sin, log,
abs...) keeps the input itself and its version, and 0-d data (numpy scalars) keep their dtypes
and give the same gradients as arrays."""

from __future__ import annotations

import numpy as np
import pytest

import autodiff_cli.engine as E

SAVES_INPUT = ["sin", "cos", "log", "abs", "log1p", "erf"]  # their formulas read `self`


@pytest.mark.parametrize("name", SAVES_INPUT)
def test_the_input_is_saved_with_its_version(name: str) -> None:
    x = E.tensor([0.5, 0.25], requires_grad=True) * 1.0
    y = getattr(x, name)()
    node = y.grad_fn
    assert node.op.saves == (0,)
    assert node._saved_self is x
    assert node._versions[0][1] is x._vbox
    x.mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


@pytest.mark.parametrize("dtype", [E.float16, E.float32, E.float64])
@pytest.mark.parametrize("name", ["sin", "log", "exp", "tanh", "abs"])
def test_zero_dim_data_gives_what_arrays_give(dtype: object, name: str) -> None:
    scalar = E.tensor(0.75, dtype=dtype, requires_grad=True)
    vector = E.tensor([0.75], dtype=dtype, requires_grad=True)
    ys = getattr(scalar * 1.0, name)(), getattr(vector * 1.0, name)()
    assert ys[0].dtype == ys[1].dtype == dtype
    assert ys[0].grad_fn._x is None  # nothing to conform: same dtype, same shape
    ys[0].backward()
    ys[1].sum().backward()
    assert scalar.grad.dtype == vector.grad.dtype == dtype
    np.testing.assert_array_equal(scalar.grad.numpy().reshape(1), vector.grad.numpy())


def test_integer_zero_dim_input_computes_in_the_default_dtype() -> None:
    assert E.tensor(2).sin().dtype == E.float32
    assert E.tensor(True).exp().dtype == E.float32
    assert (E.tensor(2) * 1.5).dtype == E.float32
