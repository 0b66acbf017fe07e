"""Reductions and scans (engine/ops/reductions.py): gradients against finite differences in float64
(first order, and second order through `create_graph=True`), the zero-safe and tie-sharing paths,
dtypes, the (values, indices) named tuples, and PyTorch's errors."""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable

import numpy as np
import pytest

import autodiff_cli.engine as E

EPS = 1e-6


def _t(values: np.ndarray, requires_grad: bool = False) -> E.Tensor:
    return E.tensor(np.asarray(values).tolist(), dtype=E.float64, requires_grad=requires_grad)


def _rng(name: str) -> np.random.RandomState:
    return np.random.RandomState(zlib.crc32(name.encode()))


def _outputs(result: object) -> list:
    return list(result) if isinstance(result, tuple) else [result]


def _loss(fn: Callable, x: E.Tensor, w: list, v: list) -> E.Tensor:
    """sum(w · f(x)) + sum(v · f(x)²) / 2: the gradient reaching f depends on x, so a second
    derivative also checks that f's backward is differentiable in its incoming gradient."""
    total = None
    for out, wi, vi in zip(_outputs(fn(x)), w, v):
        term = (out * _t(wi)).sum() + (out * out * _t(vi)).sum() * 0.5
        total = term if total is None else total + term
    return total


def _weights(name: str, fn: Callable, x0: np.ndarray) -> tuple[list, list]:
    rng = _rng(name)
    shapes = [tuple(o.shape) for o in _outputs(fn(_t(x0)))]
    return [rng.uniform(-1, 1, s) for s in shapes], [rng.uniform(-1, 1, s) for s in shapes]


def _gradient(fn: Callable, x0: np.ndarray, w: list, v: list) -> np.ndarray:
    x = _t(x0, True)
    (g,) = E.autograd.grad(_loss(fn, x, w, v), x)
    return g._data


def _numeric(f: Callable[[np.ndarray], float], x0: np.ndarray) -> np.ndarray:
    out = np.zeros(x0.shape)
    for k in np.ndindex(x0.shape):
        plus, minus = x0.copy(), x0.copy()
        plus[k] += EPS
        minus[k] -= EPS
        out[k] = (f(plus) - f(minus)) / (2 * EPS)
    return out


def _distinct(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    n = int(np.prod(shape))
    return ((rng.permutation(n) + 1) * 0.3 * rng.choice([-1.0, 1.0], n)).reshape(shape)


def _positive(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    return rng.uniform(0.5, 1.5, shape)


def _real(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    return rng.uniform(-2.0, 2.0, shape)


def _one_zero(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    out = _positive(rng, shape) * rng.choice([-1.0, 1.0], shape)
    out.reshape(-1)[rng.randint(out.size)] = 0.0
    return out


def _two_zeros(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    out = _positive(rng, shape)
    out.reshape(-1)[:2] = 0.0
    return out


S = (2, 3, 4)
CASES: dict[str, tuple[Callable, tuple, Callable]] = {
    "sum": (lambda x: x.sum(), S, _real),
    "sum-tuple-keepdim": (lambda x: x.sum((0, 2), keepdim=True), S, _real),
    "sum-neg-dim": (lambda x: E.sum(x, -1), S, _real),
    "mean": (lambda x: x.mean(), S, _real),
    "mean-tuple": (lambda x: x.mean((1, 2)), S, _real),
    "prod": (lambda x: x.prod(), (2, 3), _distinct),
    "prod-one-zero": (lambda x: x.prod(), (2, 3), _one_zero),
    "prod-two-zeros": (lambda x: x.prod(), (2, 3), _two_zeros),
    "prod-dim": (lambda x: x.prod(1), S, _distinct),
    "prod-dim-zero-keepdim": (lambda x: x.prod(2, keepdim=True), S, _one_zero),
    "max": (lambda x: x.max(), S, _distinct),
    "min-dim": (lambda x: x.min(1), S, _distinct),
    "max-dim-keepdim": (lambda x: E.max(x, 2, keepdim=True).values, S, _distinct),
    "amax-tuple": (lambda x: x.amax((0, 2)), S, _distinct),
    "amin-keepdim": (lambda x: E.amin(x, 1, keepdim=True), S, _distinct),
    "median": (lambda x: x.median(), (3, 3), _distinct),
    "median-dim": (lambda x: x.median(0).values, S, _distinct),
    "norm": (lambda x: x.norm(), S, _real),
    "norm-1-dim": (lambda x: x.norm(1, dim=1), S, _distinct),
    "norm-3-keepdim": (lambda x: x.norm(3, dim=(0, 2), keepdim=True), S, _distinct),
    "norm-1.5": (lambda x: E.norm(x, p=1.5), S, _distinct),
    "norm-0.5": (lambda x: E.norm(x, p=0.5, dim=0), S, _distinct),
    "norm-inf-dim": (lambda x: x.norm(float("inf"), dim=2), S, _distinct),
    "norm--inf": (lambda x: x.norm(float("-inf")), S, _distinct),
    "var": (lambda x: x.var(), S, _real),
    "var-dim-unbiased-false": (lambda x: x.var(1, unbiased=False), S, _real),
    "var-correction-2-keepdim": (lambda x: x.var((0, 2), correction=2, keepdim=True), S, _real),
    "std": (lambda x: x.std(), S, _real),
    "std-dim": (lambda x: E.std(x, 2, keepdim=True), S, _real),
    "logsumexp": (lambda x: x.logsumexp(1), S, _real),
    "logsumexp-tuple": (lambda x: E.logsumexp(x, (0, 2), keepdim=True), S, _real),
    "cumsum": (lambda x: x.cumsum(2), S, _real),
    "cumsum-dim0": (lambda x: E.cumsum(x, 0), S, _real),
    "cumprod": (lambda x: x.cumprod(1), S, _distinct),
    "cumprod-one-zero": (lambda x: x.cumprod(1), (2, 4), _one_zero),
    "cumprod-two-zeros": (lambda x: x.cumprod(0), (4, 2), _two_zeros),
    "nansum": (lambda x: x.nansum(0), S, _real),
    "var_mean": (lambda x: E.var_mean(x, 1), S, _real),
}


def _input(name: str) -> tuple[Callable, np.ndarray]:
    fn, shape, domain = CASES[name]
    return fn, domain(_rng(name + "/x"), shape)


@pytest.mark.parametrize("name", sorted(CASES))
def test_first_derivative_matches_finite_differences(name):
    fn, x0 = _input(name)
    w, v = _weights(name, fn, x0)
    analytic = _gradient(fn, x0, w, v)
    numeric = _numeric(lambda a: _loss(fn, _t(a), w, v).item(), x0)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_create_graph_gradient_equals_plain_gradient(name):
    fn, x0 = _input(name)
    w, v = _weights(name, fn, x0)
    x = _t(x0, True)
    (tracked,) = E.autograd.grad(_loss(fn, x, w, v), x, create_graph=True)
    np.testing.assert_allclose(tracked._data, _gradient(fn, x0, w, v), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", sorted(CASES))
def test_second_derivative_matches_finite_differences(name):
    fn, x0 = _input(name)
    w, v = _weights(name, fn, x0)
    u = _rng(name + "/u").uniform(-1, 1, x0.shape)
    x = _t(x0, True)
    (g,) = E.autograd.grad(_loss(fn, x, w, v), x, create_graph=True)
    (second,) = E.autograd.grad((g * _t(u)).sum(), x, allow_unused=True)
    analytic = np.zeros(x0.shape) if second is None else second._data
    numeric = _numeric(lambda a: float(np.sum(_gradient(fn, a, w, v) * u)), x0)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-5)


# --------------------------------------------------------------------------------------------
# Ties, zeros and the gradient's shape
# --------------------------------------------------------------------------------------------


def test_ties_share_the_gradient_of_max_and_amax_but_not_of_max_dim():
    x = E.tensor([[1.0, 5.0, 5.0], [4.0, 2.0, 6.0]], requires_grad=True)
    x.max().backward()
    assert x.grad.tolist() == [[0, 0, 0], [0, 0, 1]]
    x.grad = None
    x.amax(1).sum().backward()
    assert x.grad.tolist() == [[0, 0.5, 0.5], [0, 0, 1]]
    x.grad = None
    x.max(1).values.sum().backward()  # the first maximum gets it all
    assert x.grad.tolist() == [[0, 1, 0], [0, 0, 1]]


def test_prod_gradient_with_zeros():
    x = E.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, 6.0]], requires_grad=True)
    x.prod().backward()
    assert x.grad.tolist() == [[0, 0, 0], [0, 144, 0]]
    x.grad = None
    x.prod(1).sum().backward()
    assert x.grad.tolist() == [[6, 3, 2], [0, 24, 0]]


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dim", [0, 1, -1, (0, 2), (2, 0, 1)])
def test_gradient_has_the_input_shape(dim, keepdim):
    x = E.ones(2, 3, 4, dtype=E.float64, requires_grad=True)
    for fn in (E.sum, E.mean, E.amax, E.logsumexp, E.var, E.std, E.norm):
        out = fn(x, dim=dim, keepdim=keepdim) if fn is not E.norm else x.norm(2, dim, keepdim)
        dims = dim if isinstance(dim, tuple) else (dim,)
        expected = [1 if i in {d % 3 for d in dims} else s for i, s in enumerate((2, 3, 4))]
        if not keepdim:
            expected = [s for i, s in enumerate((2, 3, 4)) if i not in {d % 3 for d in dims}]
        assert list(out.shape) == expected, fn.__name__
        (g,) = E.autograd.grad(out.sum(), x)
        assert list(g.shape) == [2, 3, 4]


def test_mean_create_graph_gradient_is_divbackward1():
    x = E.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (g,) = E.autograd.grad(x.mean() ** 2, x, create_graph=True)
    assert g.grad_fn.name() == "DivBackward1"  # as in PyTorch: grad.expand(sizes) / N
    (h,) = E.autograd.grad(x.mean(), x, grad_outputs=x.sum(), create_graph=True)
    assert h.grad_fn.name() == "DivBackward1"
    assert h.tolist() == pytest.approx([2.0, 2.0, 2.0])


def test_norm_zero_gives_no_gradient():
    x = E.tensor([1.0, 0.0, 2.0], requires_grad=True)
    assert x.norm(0).item() == 2
    x.norm(0).backward()
    assert x.grad is None


# --------------------------------------------------------------------------------------------
# Values, dtypes, named tuples, errors
# --------------------------------------------------------------------------------------------


def test_values_and_indices_named_tuple():
    x = E.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], requires_grad=True)
    r = x.max(dim=1)
    assert type(r).__name__ == "max" and isinstance(r, tuple) and len(r) == 2
    assert r.values.tolist() == [5, 6] and r.indices.tolist() == [1, 2]
    values, indices = x.min(0)
    assert values.tolist() == [1, 2, 3] and indices.tolist() == [0, 1, 0]
    assert r[0] is r.values and r[-1] is r.indices
    assert repr(r) == (
        "torch.return_types.max(\nvalues=tensor([5., 6.], grad_fn=<MaxBackward0>),\n"
        "indices=tensor([1, 2]))"
    )
    assert r.indices.requires_grad is False and r.indices.dtype == E.int64
    assert repr(E.return_types.median) == "<class 'torch.return_types.median'>"


def test_max_of_two_tensors_is_maximum():
    a, b = E.tensor([1.0, 5.0]), E.tensor([3.0, 2.0])
    assert E.max(a, b).tolist() == [3, 5]
    assert a.min(b).tolist() == [1, 2]


@pytest.mark.parametrize(
    ("expr", "dtype"),
    [
        (lambda: E.tensor([1, 2, 3]).sum(), E.int64),
        (lambda: E.tensor([True, True]).sum(), E.int64),
        (lambda: E.tensor([1, 2], dtype=E.int32).prod(), E.int64),
        (lambda: E.tensor([1, 2], dtype=E.int32).cumsum(0), E.int64),
        (lambda: E.tensor([1, 2]).sum(dtype=E.float32), E.float32),
        (lambda: E.ones(2, 3).sum(1, dtype=E.float64), E.float64),
        (lambda: E.ones(2).mean(dtype=E.float64), E.float64),
        (lambda: E.tensor([1, 2]).logsumexp(0), E.float32),
        (lambda: E.tensor([1, 2]).max(), E.int64),
        (lambda: E.tensor([1, 2]).argmax(), E.int64),
        (lambda: E.tensor([1.0, 0.0]).all(), E.bool),
    ],
)
def test_result_dtypes(expr, dtype):
    assert expr().dtype == dtype


def test_sum_with_dtype_is_one_node():
    x = E.ones(2, 3, requires_grad=True)
    y = x.sum(dtype=E.float64)
    assert y.dtype == E.float64 and y.grad_fn.name() == "SumBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"
    y.backward()
    assert x.grad.dtype == E.float32 and x.grad.tolist() == [[1] * 3] * 2


def test_values_against_numpy():
    data = _rng("values").uniform(-2, 2, (3, 4))
    x = _t(data)
    np.testing.assert_allclose(x.var(1)._data, np.var(data, 1, ddof=1))
    np.testing.assert_allclose(x.std(0, correction=0)._data, np.std(data, 0))
    np.testing.assert_allclose(x.logsumexp(1)._data, np.log(np.exp(data).sum(1)))
    np.testing.assert_allclose(x.norm(3, 0)._data, (np.abs(data) ** 3).sum(0) ** (1 / 3))
    np.testing.assert_allclose(x.cumprod(1)._data, np.cumprod(data, 1))
    assert x.median().item() == np.sort(data.ravel())[(data.size - 1) // 2]
    assert x.argmin(1).tolist() == np.argmin(data, 1).tolist()


def test_logsumexp_is_stable_and_handles_infinities():
    x = E.tensor([[1000.0, 1000.0], [-math.inf, -math.inf], [math.inf, 1.0]])
    assert x.logsumexp(1).tolist() == [pytest.approx(1000 + math.log(2)), -math.inf, math.inf]


def test_nan_propagates():
    x = E.tensor([1.0, math.nan, 2.0])
    assert math.isnan(x.max().item()) and x.argmax().item() == 1
    assert x.max(0).indices.item() == 1 and math.isnan(x.median().item())


def test_degenerate_sizes():
    assert math.isnan(E.ones(0).mean().item()) and E.ones(0).prod().item() == 1
    with pytest.warns(UserWarning):
        assert math.isnan(E.tensor([1.0]).var().item())
    assert E.ones(0).logsumexp(0).item() == -math.inf
    assert E.tensor(5.0).max(0).values.item() == 5 and E.tensor(5.0).cumsum(0).item() == 5


@pytest.mark.parametrize(
    ("expr", "error", "message"),
    [
        (
            lambda: E.ones(2, 3).sum(2),
            IndexError,
            "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
        ),  # fmt: skip
        (lambda: E.ones(2, 3).amax(-3), IndexError, "but got -3)"),
        (lambda: E.ones(2, 3).sum((0, -2)), RuntimeError, "dim 0 appears multiple times"),
        (
            lambda: E.ones(0).max(),
            RuntimeError,
            "max(): Expected reduction dim to be specified "
            "for input.numel() == 0. Specify the reduction dim with the 'dim' argument.",
        ),  # fmt: skip
        (
            lambda: E.ones(0, 3).min(0),
            IndexError,
            "min(): Expected reduction dim 0 to have non-zero size.",
        ),  # fmt: skip
        (
            lambda: E.ones(0).argmax(),
            IndexError,
            "argmax(): Expected reduction dim to be specified for input.numel() == 0.",
        ),  # fmt: skip
        (lambda: E.tensor([1, 2]).mean(), RuntimeError, "Got: Long"),
        (lambda: E.tensor([1, 2]).var(), RuntimeError, "std and var only support floating"),
        (
            lambda: E.tensor([1, 2]).norm(),
            RuntimeError,
            "Expected a floating point or complex tensor as input. Got Long",
        ),  # fmt: skip
        (lambda: E.ones(3).prod((0,)), TypeError, "prod() received an invalid combination"),
        (lambda: E.ones(3).var(correction=1, unbiased=True), TypeError, "var() received an"),
    ],
)
def test_errors(expr, error, message):
    with pytest.raises(error) as info:
        expr()
    assert message in str(info.value)


def test_degrees_of_freedom_warning():
    with pytest.warns(UserWarning, match="degrees of freedom is <= 0"):
        E.ones(1).var()
