"""The benchmark's PyTorch-rounding floor (`bench/cases.py` `_exact_numpy_step`) is the engine's
small MLP step replayed on bare numpy arrays with the engine's own kernels. Its parameters must
stay bit-identical to the engine's, step after step: otherwise the floor would time a different
computation, and the graph (forward, backward order, broadcast reduction, SGD) would have added
or lost a rounding somewhere."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import autodiff_cli.engine as torch

BENCH_CASES = Path(__file__).resolve().parent.parent / "bench" / "cases.py"


def _load_cases():
    spec = importlib.util.spec_from_file_location("bench_cases", BENCH_CASES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("batch", "hidden"), [(100, 16), (7, 5), (33, 40)])
def test_exact_floor_matches_the_engine_bit_for_bit(batch: int, hidden: int) -> None:
    cases = _load_cases()
    engine_step, params = cases._engine_step(torch, batch, hidden)
    floor_step, floor_params = cases._exact_numpy_step(batch, hidden)
    for step in range(25):
        engine_step()
        floor_step()
        for ours, floor in zip(params, floor_params):
            assert ours._data.dtype == floor.dtype == np.float32
            assert np.array_equal(ours._data.view(np.uint32), floor.view(np.uint32)), step
    # the step trained: the parameters moved away from their start
    start = cases._mlp_data(np, batch, hidden)[2]
    assert any(not np.array_equal(p, s) for p, s in zip(floor_params, start))
