"""The op machinery's short paths for 0-d tensors (their data are numpy scalars, told apart by
class) and for one-input ops that save their input (sin, log, abs...: the input itself and its
version): same dtypes, promotions, graphs and gradients as 1-element arrays."""

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


BINARY = {
    "mul": lambda a, b: a * b,
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "div": lambda a, b: a / b,
    "pow": lambda a, b: a**b,
}


@pytest.mark.parametrize("dtypes", [(E.float32, E.float32), (E.float16, E.float16),
                                    (E.float64, E.float64), (E.float32, E.float64),
                                    (E.float16, E.float32)])  # fmt: skip
@pytest.mark.parametrize("name", sorted(BINARY))
def test_zero_dim_pairs_give_what_arrays_give(dtypes: tuple, name: str) -> None:
    f = BINARY[name]
    xs = [E.tensor(v, dtype=d, requires_grad=True) for v, d in zip((0.75, 1.5), dtypes)]
    vs = [E.tensor([v], dtype=d, requires_grad=True) for v, d in zip((0.75, 1.5), dtypes)]
    zs = f(xs[0] * 1.0, xs[1] * 1.0), f(vs[0] * 1.0, vs[1] * 1.0)
    assert zs[0].dtype == zs[1].dtype
    assert type(zs[0].grad_fn).__name__ == type(zs[1].grad_fn).__name__
    zs[0].backward()
    zs[1].sum().backward()
    for x, v in zip(xs, vs):
        assert x.grad.dtype == v.grad.dtype == x.dtype
        # equal to float rounding: numpy's scalar pow and its array loop may differ by an ulp
        eps = np.finfo(x.grad.numpy().dtype).eps
        np.testing.assert_allclose(x.grad.numpy().reshape(1), v.grad.numpy(), rtol=4 * eps)


def test_zero_dim_comparisons_and_integers_record_nothing() -> None:
    a = E.tensor(1.5, requires_grad=True) * 1.0
    b = E.tensor(2.0, requires_grad=True) * 1.0
    assert (a < b).item() is True and (a < b).grad_fn is None
    assert (a == b).dtype == E.bool
    i = E.tensor(3)
    assert (i * i).dtype == E.int64 and (i * i).grad_fn is None
    assert (i * a).dtype == E.float32 and (i * a).grad_fn is not None
