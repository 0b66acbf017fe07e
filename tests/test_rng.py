"""The engine's random stream against PyTorch's: the cases of rng_cases.py, recorded with PyTorch
in rng_goldens.json (tests/record_rng_goldens.py), and live against PyTorch for fresh seeds when
a Python with torch is at hand (AUTODIFF_TORCH_PYTHON)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import rng_cases

import autodiff_cli.engine as torch

GOLDENS = json.loads(Path(__file__).with_name("rng_goldens.json").read_text())
CASES = {name: (case, exact) for name, case, exact in rng_cases.all_cases()}
TORCH_PYTHON = os.environ.get("AUTODIFF_TORCH_PYTHON")
RECORDER = Path(__file__).with_name("record_rng_goldens.py")


# inexact cases hold float32 normals (PyTorch's vectorised float32 log/sin differ in the last
# bits), also where they reach float64 values (x.double())
TOLERANCE = 2e-6


def check_against(expected: dict, got: dict, exact: bool) -> None:
    assert got["dtypes"] == expected["dtypes"]
    assert got["shapes"] == expected["shapes"]
    if exact:
        assert got["digest"] == expected["digest"], (got["arrays"], expected["arrays"])
        return
    identical = total = 0
    for want, have in zip(expected["arrays"], got["arrays"]):
        w, h = np.array(want["values"], np.float64), np.array(have["values"], np.float64)
        np.testing.assert_allclose(h, w, rtol=TOLERANCE, atol=TOLERANCE)
        if "sum" in want:
            assert abs(have["sum"] - want["sum"]) <= TOLERANCE * (abs(want["sum"]) + w.size)
        identical += int((w == h).sum())
        total += w.size
    # a few ulps apart at most, and most of the values bit for bit
    assert identical >= 0.5 * total, f"only {identical} of {total} values identical"


def test_goldens_cover_every_case() -> None:
    assert set(GOLDENS) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_pytorch(name: str) -> None:
    case, exact = CASES[name]
    expected = GOLDENS[name]
    assert expected["exact"] == exact
    got = rng_cases.summary(rng_cases.to_arrays(case(torch)), exact)
    check_against(expected, got, exact)


@pytest.mark.skipif(not TORCH_PYTHON, reason="AUTODIFF_TORCH_PYTHON (a Python with torch) not set")
def test_live_fresh_seeds() -> None:
    """Seeds and sizes no golden holds: PyTorch and the engine must still agree."""
    seeds = [random.randrange(-(2**63), 2**64) for _ in range(3)]
    sizes = sorted(random.sample(range(1, 5000), 6) + [16, 17])
    args = [json.dumps(seeds), json.dumps(sizes)]
    done = subprocess.run(
        [TORCH_PYTHON, str(RECORDER), "--live", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    expected = json.loads(done.stdout)
    cases = list(rng_cases.live_cases(seeds, sizes))
    assert len(cases) == len(expected)
    for name, case, exact in cases:
        got = rng_cases.summary(rng_cases.to_arrays(case(torch)), exact)
        check_against(expected[name], got, exact)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))


@pytest.mark.parametrize("seed", [0, 5, 2**32 + 3, 123456789, 2**64 - 1])
def test_twister_is_mt19937(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's own MT19937 (seeding, twist, tempering) against numpy's, over runs that
    cross the 624-word state in every way; then the numpy-backed path for long runs."""
    import numpy.random

    from autodiff_cli.engine.core import generator

    legacy_key = numpy.random.RandomState(seed & 0xFFFFFFFF).get_state()[1]
    assert np.array_equal(generator.seed_key(seed), legacy_key)
    reference = numpy.random.MT19937(0)
    reference.state = {"bit_generator": "MT19937", "state": {"key": legacy_key, "pos": 624}}
    runs = [1, 3, 620, 1, 1, 624, 1248, 5000, 0, 7, 20000, 2]
    monkeypatch.setattr(generator, "_NUMPY_FROM", 10**12)
    own = generator.Generator().manual_seed(seed)
    for n in runs:
        assert np.array_equal(own.words(n), reference.random_raw(n)), n
    monkeypatch.setattr(generator, "_NUMPY_FROM", 100)
    for n in runs:
        assert np.array_equal(own.words(n), reference.random_raw(n)), n


def test_state_bytes_round_trip() -> None:
    g = torch.Generator().manual_seed(99)
    fresh = g.get_state()
    assert fresh.shape == (5056,) and fresh.dtype == torch.uint8
    assert g.get_state()[8:24].tolist() == [1, 0, 0, 0, 1, 0, 0, 0] + [0] * 8  # left 1, seeded
    torch.randn(1, generator=g)  # leaves a pending normal in the state
    state = g.get_state()
    expected = [torch.randn(1, generator=g), torch.rand(700, generator=g)]
    other = torch.Generator()
    other.set_state(state)
    assert other.initial_seed() == 99
    again = [torch.randn(1, generator=other), torch.rand(700, generator=other)]
    assert all(torch.equal(a, b) for a, b in zip(expected, again))
    assert torch.equal(g.get_state(), other.get_state())
    with pytest.raises(RuntimeError, match="of size 5056 but found the input RNG state size"):
        g.set_state(torch.zeros(10, dtype=torch.uint8))
    with pytest.raises(TypeError, match="RNG state must be a torch.ByteTensor"):
        g.set_state(torch.zeros(5056))


def test_seed_is_fresh_and_kept() -> None:
    first = torch.seed()
    assert torch.initial_seed() == first and 0 <= first < 2**64
    one, two = torch.Generator(), torch.Generator()
    assert one.seed() != two.seed()
    with pytest.raises(ValueError, match="Overflow when unpacking long long"):
        torch.manual_seed(2**64)
    assert torch.manual_seed(-1).initial_seed() == 2**64 - 1
