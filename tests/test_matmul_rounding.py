"""Float32 matrix products round as PyTorch's CPU BLAS (MKL) rounds them.

Small products whose MKL kernel sums rounded terms in order are emulated; wide ones use numpy's
BLAS, which rounds as MKL does there. The torch comparisons run where torch is importable:
    PYTHONPATH=. /work/torchenv/bin/python -m pytest tests/test_matmul_rounding.py -q
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from torch_cpu import torch_runs_avx512

import autodiff_cli.engine as E

SIZES = (1, 2, 3, 4, 8, 16)
# The shapes (n, k, m) where MKL takes a gemv path that neither ordering reproduces.
UNMATCHED = {(n, k, 1) for n in SIZES for k in SIZES if n >= 2 and k >= 8 and n * k >= 32}
MLP_SHAPES = [(100, 2, 16), (100, 16, 16), (16, 100, 16), (2, 100, 16), (100, 1, 16)]


def _operands(rng: np.random.Generator, n: int, k: int, m: int) -> tuple:
    a = rng.standard_normal((n, k)).astype(np.float32)
    b = rng.standard_normal((k, m)).astype(np.float32)
    return a, b


def test_small_products_sum_rounded_terms_in_order() -> None:
    rng = np.random.default_rng(3)
    a, b = _operands(rng, 3, 5, 2)
    got = (E.tensor(a) @ E.tensor(b)).numpy()
    for i, j in itertools.product(range(3), range(2)):
        total = np.float32(a[i, 0] * b[0, j])
        for p in range(1, 5):
            total = np.float32(total + np.float32(a[i, p] * b[p, j]))
        assert got[i, j] == total


def test_wide_products_use_blas() -> None:
    rng = np.random.default_rng(4)
    a, b = _operands(rng, 100, 2, 16)
    assert np.array_equal((E.tensor(a) @ E.tensor(b)).numpy(), a @ b)


@pytest.mark.parametrize(
    "shape",
    [s for s in itertools.product(SIZES, repeat=3) if s not in UNMATCHED] + MLP_SHAPES,
    ids=str,
)
def test_bitwise_equal_to_torch(shape: tuple) -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    rng = np.random.default_rng(sum(shape))
    fused = torch_runs_avx512(torch)
    for _ in range(5):
        a, b = _operands(rng, *shape)
        expected = (torch.from_numpy(a) @ torch.from_numpy(b)).numpy()
        got = (E.tensor(a) @ E.tensor(b)).numpy()
        if fused:  # other kernels (tests/torch_cpu.py): both within float32 summation error
            bound = shape[1] * np.finfo(np.float32).eps * (np.abs(a) @ np.abs(b))
            assert np.all(np.abs(got - expected) <= bound), shape
        else:
            assert np.array_equal(got, expected), shape
