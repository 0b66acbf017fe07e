"""Float sums are added in PyTorch's order (its CPU `cascade_sum`), so they round as PyTorch's do.

The engine's vectorised replay is checked against a literal, element-by-element transcription of
the kernel below (no torch needed), and against PyTorch itself where torch is importable:
    PYTHONPATH=. /work/torchenv/bin/python -m pytest tests/test_cascade_sum.py -q
"""

from __future__ import annotations

import numpy as np
import pytest

import autodiff_cli.engine as E
from autodiff_cli.engine import cascade_sum as C

F32 = np.float32


# -- a literal transcription of aten/src/ATen/native/cpu/SumKernel.cpp, one add at a time ----------
def _literal_multi_row_sum(rows: list[list]) -> list:
    """multi_row_sum over `rows` (each a list of lanes), with scalar adds."""
    size, nrows = len(rows), len(rows[0]) if rows else 0
    power = max(4, (1 if size <= 2 else (size - 1).bit_length()) // 4)
    step, mask = 1 << power, (1 << power) - 1
    dtype = type(rows[0][0]) if rows else F32
    acc = [[dtype(0)] * nrows for _ in range(4)]
    i = 0
    while i + step <= size:
        for _ in range(step):
            for k in range(nrows):
                acc[0][k] = acc[0][k] + rows[i][k]
            i += 1
        for j in range(1, 4):
            for k in range(nrows):
                acc[j][k] = acc[j][k] + acc[j - 1][k]
                acc[j - 1][k] = dtype(0)
            if i & (mask << (j * power)):
                break
    for r in range(i, size):
        for k in range(nrows):
            acc[0][k] = acc[0][k] + rows[r][k]
    for j in range(1, 4):
        for k in range(nrows):
            acc[0][k] = acc[0][k] + acc[j][k]
    return acc[0]


def _literal_row_sum(values: list, width: int) -> list:
    """row_sum: `values` is a list of vectors (lists of `width` lanes)."""
    k = len(values) // 4
    grouped = [[lane for v in values[4 * r : 4 * r + 4] for lane in v] for r in range(k)]
    if grouped:
        flat = _literal_multi_row_sum(grouped)
        partials = [flat[w * width : (w + 1) * width] for w in range(4)]
    else:
        zero = type(values[0][0])(0) if values else F32(0)
        partials = [[zero] * width for _ in range(4)]
    for v in values[4 * k :]:
        partials[0] = [a + b for a, b in zip(partials[0], v)]
    for p in partials[1:]:
        partials[0] = [a + b for a, b in zip(partials[0], p)]
    return partials[0]


def _literal_flat_sum(x: np.ndarray) -> np.floating:
    """The sum of a contiguous 1-D array: vectorized_inner_sum, or the scalar row_sum below a
    vector's width (8 float32 or 4 float64 lanes)."""
    width = 32 // x.itemsize
    values = list(x)
    if len(values) < width:
        return x.dtype.type(0) + _literal_row_sum([[v] for v in values], 1)[0]
    vectors = len(values) // width
    lanes = _literal_row_sum([values[v * width : (v + 1) * width] for v in range(vectors)], width)
    total = x.dtype.type(0)
    for v in values[vectors * width :]:
        total = total + v
    for lane in lanes:
        total = total + lane
    return x.dtype.type(0) + total


def _literal_column_sums(x: np.ndarray) -> np.ndarray:
    """Sums over axis 0 of a contiguous 2-D array: vectorized_outer_sum (at least 8 columns),
    else scalar_outer_sum; one column is a contiguous run (TensorIterator drops size-1 dims)."""
    rows, cols = x.shape
    if cols == 1:
        return np.array([_literal_flat_sum(x[:, 0].copy())], x.dtype)
    width = 32 // x.itemsize
    out = []
    block = (cols // (4 * width)) * 4 * width if cols >= width else (cols // 4) * 4
    if block:
        out += _literal_multi_row_sum([list(r[:block]) for r in x])
    for j in range(block, cols):
        out += _literal_row_sum([[v] for v in x[:, j]], 1)
    return np.array([x.dtype.type(0) + v for v in out], x.dtype)


def _bits(a: object) -> bytes:
    return np.ascontiguousarray(np.atleast_1d(a)).tobytes()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_full_sums_match_the_kernel_added_one_by_one(dtype: type) -> None:
    rng = np.random.default_rng(0)
    sizes = list(range(2, 140)) + [255, 256, 257, 511, 512, 513, 1000, 2047, 4100, 9000]
    for n in sizes:
        x = (rng.standard_normal(n) * rng.uniform(0.1, 1000)).astype(dtype)
        got = C.cascade_sum(x)
        assert _bits(got) == _bits(_literal_flat_sum(x)), n


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_column_sums_match_the_kernel_added_one_by_one(dtype: type) -> None:
    rng = np.random.default_rng(1)
    for rows, cols in [(100, 16), (100, 1), (7, 3), (40, 33), (300, 5), (17, 64), (3, 70)]:
        x = rng.standard_normal((rows, cols)).astype(dtype)
        assert _bits(C.cascade_sum(x, 0)) == _bits(_literal_column_sums(x)), (rows, cols)


def test_other_layouts_reduce_to_the_same_kernels() -> None:
    rng = np.random.default_rng(2)
    x = rng.standard_normal((30, 40)).astype(F32)
    # a transposed view sums in memory order: its column sums are the row sums of the original
    assert _bits(C.cascade_sum(x.T, 1)) == _bits(_literal_column_sums(x.T.copy().T))
    # the last axis of a contiguous array: each row as a flat sum
    rows = C.cascade_sum(x, 1)
    assert _bits(rows) == _bits(np.array([_literal_flat_sum(r) for r in x], F32))
    # all of a 3-D array is one flat run
    y = rng.standard_normal((4, 5, 6)).astype(F32)
    assert _bits(C.cascade_sum(y)) == _bits(_literal_flat_sum(y.reshape(-1)))
    kept = C.cascade_sum(y, (0, 2), keepdims=True)
    assert kept.shape == (1, 5, 1)
    assert np.allclose(kept.reshape(5), y.astype(np.float64).sum((0, 2)), rtol=1e-5)


def test_the_order_matters_and_numpy_s_differs() -> None:
    rng = np.random.default_rng(3)
    xs = [rng.standard_normal(100).astype(F32) for _ in range(200)]
    differs = sum(_bits(C.cascade_sum(x)) != _bits(np.add.reduce(x)) for x in xs)
    assert differs > 20  # about half: the reason this module exists
    # and every result is still the sum, to float32 accuracy
    for x in xs[:20]:
        assert abs(float(C.cascade_sum(x)) - x.astype(np.float64).sum()) < 1e-4


def test_ordered_sum_falls_back_to_numpy_beyond_its_reach() -> None:
    big = np.ones(C.EXACT_MAX_ELEMENTS + 1, F32)
    assert C.ordered_sum(big) == np.add.reduce(big)
    ints = np.arange(10)
    assert C.ordered_sum(ints) == 45
    half = np.ones(10, np.float16)
    assert C.ordered_sum(half).dtype == np.float16


def test_engine_sums_means_and_losses_use_it() -> None:
    x = np.random.default_rng(4).standard_normal((100, 16)).astype(F32)
    t = E.tensor(x, requires_grad=True)
    assert _bits(t.sum()._data) == _bits(_literal_flat_sum(x.reshape(-1)))
    assert _bits(t.sum(0)._data) == _bits(_literal_column_sums(x))
    mean = _literal_flat_sum(x.reshape(-1)) / F32(x.size)
    assert _bits(t.mean()._data) == _bits(mean)
    loss = E.nn.functional.mse_loss(t, E.zeros(100, 16))
    assert _bits(loss._data) == _bits(_literal_flat_sum((x * x).reshape(-1)) / F32(x.size))
    # a broadcast bias's gradient is the column sum of the incoming gradient
    bias = E.zeros(16, requires_grad=True)
    (E.tensor(x) * E.tensor(x) + bias).backward(E.tensor(x))
    assert _bits(bias.grad._data) == _bits(_literal_column_sums(x))


def test_linspace_and_arange_count_as_pytorch_s_kernels() -> None:
    x = E.linspace(-np.pi, np.pi, 2000)._data
    step = (F32(np.pi) - F32(-np.pi)) / F32(1999)
    # first half from the start, second half back from the end, one rounding each
    assert x[10] == F32(np.float64(F32(-np.pi)) + np.float64(step) * 10)
    assert x[1990] == F32(np.float64(F32(np.pi)) - np.float64(step) * 9)
    assert x[0] == F32(-np.pi) and x[-1] == F32(np.pi)
    r = E.arange(0.5, 3.0, 0.1, dtype=E.float64)._data
    assert r.shape == (25,) and r[0] == 0.5 and abs(r[-1] - 2.9) < 1e-12


@pytest.mark.parametrize("exponent", [2, 3, -1, -2, -0.5])
def test_small_integer_powers_are_products(exponent: float) -> None:
    x = np.random.default_rng(5).uniform(0.1, 3, 500).astype(F32)
    expected = {2: x * x, 3: x * x * x, -1: 1 / x, -2: 1 / (x * x), -0.5: 1 / np.sqrt(x)}
    assert _bits((E.tensor(x) ** exponent)._data) == _bits(expected[exponent])


# -- PyTorch itself ----------------------------------------------------------------------------------
def test_agreement_with_torch_over_shapes_and_axes() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(6)
    checked = 0
    for dtype in (np.float32, np.float64):
        for _ in range(150):
            shape = tuple(int(s) for s in rng.integers(1, 30, rng.integers(1, 4)))
            a = rng.standard_normal(shape).astype(dtype)
            t = torch.from_numpy(a)
            cases = [(None, False)] + [(d, bool(rng.integers(2))) for d in range(a.ndim)]
            if a.ndim == 3:
                cases += [((0, 2), False), ((1, 2), True)]
            for axis, keep in cases:
                ref = t.sum() if axis is None else t.sum(dim=axis, keepdim=keep)
                assert _bits(C.ordered_sum(a, axis, keep)) == _bits(ref.numpy()), (shape, axis)
                checked += 1
            if a.ndim >= 2:
                at, tt = a.swapaxes(0, 1), t.transpose(0, 1)
                assert _bits(C.ordered_sum(at, 0)) == _bits(tt.sum(0).numpy()), shape
    assert checked > 600


def test_ranges_agree_with_torch() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    for _ in range(100):
        a, b = sorted(rng.uniform(-50, 50, 2))
        steps = int(rng.integers(0, 3000))
        t = torch.linspace(a, b, steps).numpy()
        assert _bits(E.linspace(a, b, steps)._data) == _bits(t), (a, b, steps)
        st = float(rng.uniform(0.01, 1))
        for dt in ("float32", "float64"):
            t = torch.arange(a, b, st, dtype=getattr(torch, dt)).numpy()
            assert _bits(E.arange(a, b, st, dtype=getattr(E, dt))._data) == _bits(t)
