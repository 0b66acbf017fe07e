"""arange, linspace and logspace give PyTorch's values bit for bit (recorded from PyTorch 2.13 on
AVX2 and AVX-512 CPUs, which agree), and the fused multiply-add they are built on is exact."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

import autodiff_cli.engine as E
from autodiff_cli.engine.ops.range_values import fused_multiply_add


def _exactly_rounded(a: float, b: float, c: float) -> float:
    return float(Fraction(a) * Fraction(b) + Fraction(c))  # (Fraction -> float rounds once)


def test_fused_multiply_add_rounds_once() -> None:
    rng = random.Random(7)
    a, b, c = [], [], []
    for _ in range(4000):
        scale = 10.0 ** rng.randint(-6, 6)
        a.append(rng.uniform(-1, 1) * scale)
        b.append(float(rng.randint(0, 5000)) if rng.random() < 0.5 else rng.uniform(-9, 9))
        c.append(
            -a[-1] * b[-1] * (1 + rng.uniform(-1e-9, 1e-9))
            if rng.random() < 0.3
            else rng.uniform(-50, 50)
        )
    got = fused_multiply_add(np.array(a), np.array(b), np.array(c))
    expected = [_exactly_rounded(x, y, z) for x, y, z in zip(a, b, c)]
    assert got.tolist() == expected


def test_fused_multiply_add_to_odd_then_float32_is_a_float32_fma() -> None:
    rng = random.Random(11)
    for _ in range(2000):
        a = float(np.float32(rng.uniform(-3, 3)))
        b = float(rng.randint(0, 3000))
        c = float(np.float32(rng.uniform(-3, 3)))
        got = fused_multiply_add(a, b, c, to_odd=True).astype(np.float32)
        exact = Fraction(a) * Fraction(b) + Fraction(c)
        near = np.float32(float(exact))  # it and its float32 neighbours: the candidates
        candidates = {near, np.nextafter(near, np.float32(np.inf)), np.nextafter(near, -np.inf)}
        best = min(
            candidates,
            key=lambda v: (abs(Fraction(float(v)) - exact), int(np.float32(v).view(np.int32)) & 1),
        )
        assert got == best


def _hex(t: E.Tensor) -> list[str]:
    return [float(v).hex() for v in t.double().tolist()]


PYTORCH_VALUES = [  # (expression, slice, PyTorch 2.13's values)
    (lambda: E.arange(-8.0, 8.0, 0.1), slice(76, 84), [
        "-0x1.99999a0000000p-2", "-0x1.3333340000000p-2", "-0x1.99999c0000000p-3",
        "-0x1.99999c0000000p-4", "0x1.0000000000000p-51", "0x1.99999a0000000p-4",
        "0x1.99999a0000000p-3", "0x1.3333340000000p-2"]),
    (lambda: E.arange(-1, 1, 0.1), slice(8, 13), [
        "-0x1.99999a0000000p-3", "-0x1.99999a0000000p-4", "-0x1.99999a0000000p-29",
        "0x1.9999980000000p-4", "0x1.99999a0000000p-3"]),
    (lambda: E.arange(-8.0, 8.0, 0.1, dtype=E.float64), slice(4, 10), [
        "-0x1.e666666666666p+2", "-0x1.e000000000000p+2", "-0x1.d999999999999p+2",
        "-0x1.d333333333333p+2", "-0x1.ccccccccccccdp+2", "-0x1.c666666666667p+2"]),
    (lambda: E.arange(-8.0, 8.0, 0.1, dtype=E.float16), slice(16, 24), [
        "-0x1.9980000000000p+2", "-0x1.9300000000000p+2", "-0x1.8cc0000000000p+2",
        "-0x1.8640000000000p+2", "-0x1.8000000000000p+2", "-0x1.7980000000000p+2",
        "-0x1.7300000000000p+2", "-0x1.6cc0000000000p+2"]),
    (lambda: E.linspace(-1, 1, 21), slice(8, 13), [
        "-0x1.9999980000000p-3", "-0x1.9999960000000p-4", "-0x1.0000000000000p-26",
        "0x1.9999960000000p-4", "0x1.9999980000000p-3"]),
    (lambda: E.linspace(0.3, 100.7, 77, dtype=E.float64), slice(5, 9), [
        "0x1.b9efd4e25b9f0p+2", "0x1.073dfa9c4b73ep+3", "0x1.31840ac769184p+3",
        "0x1.5bca1af286bcbp+3"]),
    (lambda: E.linspace(-5, 5, 1000, dtype=E.float16), slice(60, 66), [
        "-0x1.1980000000000p+2", "-0x1.1900000000000p+2", "-0x1.1840000000000p+2",
        "-0x1.1780000000000p+2", "-0x1.1700000000000p+2", "-0x1.1680000000000p+2"]),
    (lambda: E.logspace(0.075, 25.175, 77), slice(1, 5), [
        "0x1.45710e0000000p+1", "0x1.5c1a0e0000000p+2", "0x1.7456fa0000000p+3",
        "0x1.8e43ee0000000p+4"]),
    (lambda: E.logspace(-1.25, 1.25, 1000, dtype=E.float64), slice(0, 4), [
        "0x1.ccab8602d2697p-5", "0x1.cf5508772d987p-5", "0x1.d2027b2313283p-5",
        "0x1.d4b3e3da0e520p-5"]),
]  # fmt: skip


@pytest.mark.parametrize("index", range(len(PYTORCH_VALUES)))
def test_values_are_pytorchs_bit_for_bit(index: int) -> None:
    make, where, expected = PYTORCH_VALUES[index]
    assert _hex(make()[where]) == expected


def test_d2l_relu_gradient_at_arange_element_80() -> None:
    x = E.arange(-8.0, 8.0, 0.1, requires_grad=True)
    E.relu(x).backward(E.ones_like(x))
    assert x[80].item() == 2.0**-51
    assert x.grad[78:83].tolist() == [0.0, 0.0, 1.0, 1.0, 1.0]


def test_integer_linspace_and_arange_are_pytorchs() -> None:
    assert E.linspace(10, -3, 40, dtype=E.int64).tolist() == [
        10, 9, 9, 9, 8, 8, 8, 7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 2, 2, 2, 1, 1, 1,
        0, 0, 0, 0, 0, 0, -1, -1, -1, -2, -2, -2, -3,
    ]  # fmt: skip
    assert E.arange(0, 5, 0.5, dtype=E.int32).tolist() == [0] * 10
    with pytest.raises(ValueError, match="step must be nonzero"):
        E.arange(0, 5, 0.5, dtype=E.int64)


def test_the_ends_of_linspace_are_exact() -> None:
    for dtype in (E.float16, E.float32, E.float64):
        values = E.linspace(-3.7, 11.2, 333, dtype=dtype)
        assert values[0].item() == E.tensor(-3.7, dtype=dtype).item()
        assert values[-1].item() == E.tensor(11.2, dtype=dtype).item()
