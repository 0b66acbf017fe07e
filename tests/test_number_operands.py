"""A Python number beside a floating array reaches numpy as a 0-d array of the array's dtype
(`kernels.number_operand`, `kernels.one`, `kernels.zero`): numpy 2 converts a number operand on
every call, and the 0-d array gives the same values (NEP 50 casts the number to the array's
dtype first). Checked bit for bit against numpy's own conversion, over the floating dtypes and
numbers that round, overflow, underflow or are not finite."""

from __future__ import annotations

import math
import operator

import numpy as np
import pytest

import autodiff_cli.engine as E
from autodiff_cli.engine.core import kernels
from autodiff_cli.engine.ops import formula_ops

DTYPES = [np.float16, np.float32, np.float64]
NUMBERS = [
    0.1,
    1.0001,
    -2.5,
    1 / 3,
    3.7e-5,
    1e-40,
    1e30,
    1e300,
    math.inf,
    -math.inf,
    math.nan,
    -0.0,
]
OPERATORS = [operator.add, operator.sub, operator.mul, operator.truediv]


def _values(dtype: type) -> np.ndarray:
    data = np.random.default_rng(0).standard_normal((3, 5)) * 100
    data[0, :3] = [0.0, -0.0, 65504.0]
    return data.astype(dtype)


def _same(got: np.ndarray, expected: np.ndarray) -> None:
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)  # (NaN where numpy has NaN)
    # -0.0 stays -0.0; a NaN's sign bit is not compared (numpy's SIMD paths differ in it, and
    # every NaN prints as `nan`)
    numbers = ~np.isnan(got)
    assert np.array_equal(np.signbit(got[numbers]), np.signbit(expected[numbers]))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", OPERATORS)
def test_tensor_with_a_number_equals_numpy(dtype: type, op) -> None:
    data = _values(dtype)
    for number in NUMBERS:
        with np.errstate(all="ignore"):
            expected = op(data, number)  # numpy's own conversion of the number
            # (`number / tensor` is PyTorch's `reciprocal(tensor) * number`)
            expected_reflected = (
                np.reciprocal(data) * number if op is operator.truediv else op(number, data)
            )
        _same(op(E.tensor(data), number)._data, expected)
        _same(op(number, E.tensor(data))._data, expected_reflected)
        leaf = E.tensor(data, requires_grad=True)  # the recording path computes alike
        _same(op(leaf, number)._data, expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_recorded_product_by_a_number_differentiates_as_before(dtype: type) -> None:
    x = E.tensor(_values(dtype), requires_grad=True)
    y = x * 0.1
    assert y.grad_fn.name() == "MulBackward0" and y.grad_fn._saved_other == 0.1
    y.backward(E.ones_like(y))
    _same(x.grad._data, np.ones((3, 5), dtype) * 0.1)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["__iadd__", "__isub__", "__imul__", "__itruediv__"])
def test_in_place_with_a_number_equals_numpy(dtype: type, name: str) -> None:
    data = _values(dtype)
    for number in NUMBERS:
        expected = data.copy()
        with np.errstate(all="ignore"):
            getattr(expected, name)(number)
        t = E.tensor(data)
        version = t._version
        with E.no_grad():
            out = getattr(t, name)(number)
        assert out is t and t._version == version + 1
        _same(t._data, expected)


@pytest.mark.parametrize("method", ["add_", "sub_", "mul_", "div_"])
def test_in_place_methods_take_tensors_numbers_and_refuse_others(method: str) -> None:
    data = np.array([1.0, -2.0, 4.0], np.float32)
    op = {"add_": np.add, "sub_": np.subtract, "mul_": np.multiply, "div_": np.divide}[method]
    t = E.tensor(data)
    getattr(t, method)(E.tensor([2.0, 2.0, 2.0]))
    _same(t._data, op(data, np.float32(2.0)))
    getattr(t, method)(np.float64(0.5))  # a numpy number is taken as a Python one
    _same(t._data, op(op(data, np.float32(2.0)), 0.5))
    with pytest.raises(TypeError, match="unsupported operand type\\(s\\): 'Tensor' and 'str'"):
        getattr(t, method)("2")


def test_number_operand_is_kept_for_the_same_number_and_dtype() -> None:
    f32, f64 = np.dtype(np.float32), np.dtype(np.float64)
    number = 0.1
    first = kernels.number_operand(number, f32)
    assert first.shape == () and first.dtype == f32 and first == np.float32(0.1)
    assert not first.flags.writeable  # it is shared: nothing may write into it
    assert kernels.number_operand(number, f32) is first
    other_dtype = kernels.number_operand(number, f64)
    assert other_dtype.dtype == f64 and other_dtype == 0.1
    equal_but_new = float("0.1")
    assert kernels.number_operand(equal_but_new, f32) == first
    with pytest.raises(ValueError):
        first[()] = 2.0


def test_results_do_not_share_the_number_array() -> None:
    t = E.tensor([1.0, 2.0]) * 0.5
    number = kernels.number_operand(0.5, np.dtype(np.float32))
    assert t._data.flags.writeable and not np.shares_memory(t._data, number)
    t.add_(1.0)
    assert t.tolist() == [1.5, 2.0] and number == 0.5


def test_integer_and_bool_tensors_are_still_promoted() -> None:
    assert (E.tensor([1, 2]) * 0.5).dtype == E.float32
    assert (E.tensor([1, 2]) * 0.5).tolist() == [0.5, 1.0]
    assert (E.tensor([True, False]) + 0.25).tolist() == [1.25, 0.25]
    assert (E.tensor([1, 2], dtype=E.float64) * 0.1).dtype == E.float64


@pytest.mark.parametrize("dtype", DTYPES)
def test_one_and_zero_have_the_arrays_dtype(dtype: type) -> None:
    array = np.ones(3, dtype)
    for constant, value in ((kernels.one, 1), (kernels.zero, 0)):
        c = constant(array)
        assert c.dtype == dtype and c.shape == () and c == value and not c.flags.writeable
        scalar = constant(dtype(2.0))  # a numpy scalar computes faster with a Python number
        assert scalar == value and type(scalar) is int
        assert type(constant(np.ones(3, np.int64))) is int


def _one_minus_square_rounded_once(r: np.ndarray) -> np.ndarray:
    """`1 - r·r` computed exactly (fractions) and rounded once to r's dtype, as PyTorch's fused
    multiply-add gives it (the textbook `1 - r * r` rounds twice); float16 keeps the textbook
    formula (PyTorch computes it in float32)."""
    from fractions import Fraction

    if r.dtype not in (np.float32, np.float64):
        return 1 - r * r

    exact = np.array(
        [
            float(1 - Fraction(float(v)) ** 2) if np.isfinite(v) else 1 - float(v) * float(v)
            for v in r.ravel()
        ]
    )
    return exact.reshape(r.shape).astype(r.dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_kernels_equal_their_formulas_with_python_numbers(dtype: type) -> None:
    x = _values(dtype) / 10
    x[1, :3] = [np.inf, -np.inf, np.nan]
    g = np.full_like(x, 0.75)
    r = np.tanh(x)
    with np.errstate(all="ignore"):
        _same(kernels.sigmoid(x), 1 / (1 + np.exp(-x)))
        _same(kernels.softplus_neg(x), np.logaddexp(0, -x))
        _same(kernels.tanh_backward(g, r), g * _one_minus_square_rounded_once(r))
        _same(kernels.sigmoid_backward(g, r), g * (1 - r) * r)
        scalar = dtype(0.5)  # 0-d tensors hold numpy scalars: they stay scalars of their type
        assert type(kernels.sigmoid(scalar)) is dtype
        assert kernels.sigmoid(scalar) == 1 / (1 + np.exp(-scalar))


@pytest.mark.parametrize(
    "a",
    [
        np.linspace(-3, 3, 7, dtype=np.float32),
        np.linspace(-3, 3, 7, dtype=np.float16),
        np.arange(7, dtype=np.int64),
        np.float32(2.5),
    ],
)
@pytest.mark.parametrize("number", [3, 0.1, 1e300])
def test_scalar_formula_ops_keep_the_dtype(a, number) -> None:
    """`div.Scalar` and its kin in backward formulas: the result keeps `a`'s dtype."""
    for forward, op in (
        (formula_ops._plus, operator.add),
        (formula_ops._minus, operator.sub),
        (formula_ops._times, operator.mul),
        (formula_ops._over, operator.truediv),
    ):
        with np.errstate(all="ignore"):
            expected = np.asarray(op(a, number), dtype=np.asarray(a).dtype)
            got = forward(a, number)
        _same(np.asarray(got), expected)
