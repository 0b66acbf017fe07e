"""Numeric choices of the engine's kernels, checked against plain numpy and values recorded from
PyTorch 2.13: a broadcast bias's gradient is the product of a vector of ones with the gradient
(`formula_backends._sum_rows`, BLAS), and binary_cross_entropy_with_logits is PyTorch's
`(1 - t)·x - log_sigmoid(x)`, so its infinities come out as PyTorch's."""

from __future__ import annotations

import math

import numpy as np
import pytest

import autodiff_cli.engine as E
from autodiff_cli.engine.core import formula_backends
from autodiff_cli.engine.core.formula_backends import NumpyBackend


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("rows,cols", [(100, 16), (1, 5), (0, 3), (4096, 3), (7, 1)])
def test_bias_gradient_sums_the_rows(dtype: type, rows: int, cols: int) -> None:
    g = np.random.default_rng(rows + cols).standard_normal((rows, cols)).astype(dtype)
    out = NumpyBackend.conform(g, (cols,), np.dtype(dtype))
    assert out.shape == (cols,) and out.dtype == dtype
    exact = g.astype(np.float64).sum(0)
    tol = 1e-5 if dtype is np.float32 else 1e-12
    np.testing.assert_allclose(out, exact, rtol=tol, atol=tol * max(rows, 1))


def test_bias_gradient_propagates_nan_and_infinities() -> None:
    g = np.ones((4, 4), np.float32)
    g[1, 0] = np.nan
    g[2, 1] = np.inf
    g[0, 2], g[3, 2] = np.inf, -np.inf
    out = NumpyBackend.conform(g, (4,), np.dtype(np.float32))
    assert math.isnan(out[0]) and out[1] == np.inf and math.isnan(out[2]) and out[3] == 4.0


@pytest.mark.parametrize(
    "g,shape",
    [
        (np.arange(12, dtype=np.float16).reshape(4, 3), (3,)),  # no BLAS for float16
        (np.arange(24, dtype=np.float32).reshape(2, 3, 4), (3, 4)),  # not a matrix
        (np.arange(12, dtype=np.float64).reshape(4, 3)[:, ::2], (2,)),  # strided
    ],
)
def test_other_bias_gradients_sum_as_numpy_does(g: np.ndarray, shape: tuple) -> None:
    out = NumpyBackend.conform(g, shape, g.dtype)
    np.testing.assert_array_equal(out, g.sum(0))
    assert out.dtype == g.dtype


def test_the_vectors_of_ones_are_kept_read_only_and_few() -> None:
    for rows in range(1, 200):
        NumpyBackend.conform(np.ones((rows, 2)), (2,), np.dtype(np.float64))
    assert 0 < len(formula_backends._ones) <= 64
    ones = next(iter(formula_backends._ones.values()))
    assert not ones.flags.writeable


def test_bias_gradient_through_a_layer() -> None:
    rng = np.random.default_rng(3)
    x = E.tensor(rng.standard_normal((50, 3)).astype(np.float32))
    w = E.tensor(rng.standard_normal((3, 4)).astype(np.float32), requires_grad=True)
    b = E.tensor(np.zeros(4, np.float32), requires_grad=True)
    weights = rng.standard_normal((50, 4)).astype(np.float32)
    ((x @ w + b) * E.tensor(weights)).sum().backward()
    np.testing.assert_allclose(b.grad.numpy(), weights.sum(0), rtol=1e-5, atol=1e-5)
    assert b.grad.dtype == E.float32


# recorded from PyTorch 2.13 (F.binary_cross_entropy_with_logits(x, t, reduction="none"))
_LOGITS = [-100.0, -3.0, -0.5, 0.0, 0.5, 3.0, 100.0, math.inf, -math.inf]
_TARGETS = [0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0]
_TORCH_LOSS = [0.0, 3.0486, 0.47408, 0.69315, 0.47408, 3.0486, 3.9236e-44, math.inf, math.nan]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bce_with_logits_at_the_extremes_is_pytorchs(dtype: str) -> None:
    x = E.tensor(_LOGITS, dtype=getattr(E, dtype))
    t = E.tensor(_TARGETS, dtype=getattr(E, dtype))
    loss = E.nn.functional.binary_cross_entropy_with_logits(x, t, reduction="none").numpy()
    np.testing.assert_allclose(loss, _TORCH_LOSS, rtol=1e-4, atol=1e-40)  # nan == nan here
    assert loss[0] == 0.0  # PyTorch: -100 + log(1 + e^100) is exactly 0 in floating point


# the same with pos_weight=2 (recorded from PyTorch 2.13), and the gradient of the sum
_TORCH_LOSS_POS = [0.0, 6.0972, 0.47408, 1.3863, 0.94815, 3.0486, 7.8473e-44, math.inf, math.nan]
_TORCH_GRAD_POS = [0.0, -1.9051, 0.3775, -1.0, -0.7551, 0.9526, 0.0, 1.0, -2.0]


def test_bce_with_logits_and_pos_weight_at_the_extremes_is_pytorchs() -> None:
    x = E.tensor(_LOGITS, requires_grad=True)
    t = E.tensor(_TARGETS)
    F = E.nn.functional
    loss = F.binary_cross_entropy_with_logits(x, t, reduction="none", pos_weight=E.full((9,), 2.0))
    np.testing.assert_allclose(loss.detach().numpy(), _TORCH_LOSS_POS, rtol=1e-4, atol=1e-40)
    loss.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), _TORCH_GRAD_POS, rtol=0, atol=1e-4)  # (as printed)
