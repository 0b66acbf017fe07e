"""Tensor printing against PyTorch 2.13 reprs recorded in ``printing_goldens.json``.

The goldens are produced by ``record_printing_goldens.py`` (the only part that needs torch);
these tests run on numpy alone. They compare exactly, not within float rounding as the
conformance goldens do (``golden_compare.py``): PyTorch printed the very array each case
decodes, no arithmetic comes between, so every printed digit must be the same.
"""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autodiff_cli.engine.core.printing import (
    format_parameter,
    format_size,
    format_tensor,
    format_tensor_data,
    get_printoptions,
    printoptions,
    set_printoptions,
)


def _load_recorder():
    """The sibling recording script, loaded by path so it works whatever the test layout."""
    path = Path(__file__).with_name("record_printing_goldens.py")
    spec = importlib.util.spec_from_file_location("record_printing_goldens", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


recorder = _load_recorder()
decode_array = recorder.decode_array
GOLDENS: list[dict[str, Any]] = json.loads(recorder.GOLDENS_PATH.read_text())
DEFAULT_OPTIONS = {
    "precision": 4,
    "threshold": 1000,
    "edgeitems": 3,
    "linewidth": 80,
    "sci_mode": None,
}


@pytest.fixture(autouse=True)
def default_printoptions():
    set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")


def render(case: dict[str, Any]) -> str:
    array = decode_array(case)
    if case["options"]:
        set_printoptions(**case["options"])
    if case["parameter"]:
        return format_parameter(array, case["suffixes"], default_dtype=case["default_dtype"])
    return format_tensor(array, suffixes=case["suffixes"], default_dtype=case["default_dtype"])


@pytest.mark.parametrize("case", GOLDENS, ids=[case["name"] for case in GOLDENS])
def test_matches_pytorch_repr(case: dict[str, Any]) -> None:
    assert render(case) == case["expected"]


def test_goldens_cover_every_generated_case() -> None:
    """The committed goldens were recorded from the current case generator."""
    recorded = [{k: v for k, v in case.items() if k != "expected"} for case in GOLDENS]
    assert recorded == json.loads(json.dumps(recorder.generate_cases()))
    assert len(GOLDENS) >= 150


def test_default_printoptions() -> None:
    assert get_printoptions() == DEFAULT_OPTIONS


def test_set_printoptions_resets_sci_mode_like_pytorch() -> None:
    set_printoptions(sci_mode=True)
    assert get_printoptions()["sci_mode"] is True
    set_printoptions(precision=2)
    assert get_printoptions() == {**DEFAULT_OPTIONS, "precision": 2}


def test_profiles() -> None:
    set_printoptions(profile="full")
    assert get_printoptions()["threshold"] == math.inf
    set_printoptions(profile="short", linewidth=100)
    assert get_printoptions() == {
        **DEFAULT_OPTIONS,
        "precision": 2,
        "edgeitems": 2,
        "linewidth": 100,
    }


def test_printoptions_context_restores() -> None:
    set_printoptions(precision=6)
    with printoptions(precision=1, sci_mode=True):
        assert format_tensor(np.array([1.25], dtype=np.float32)) == "tensor([1.2e+00])"
    assert get_printoptions() == {**DEFAULT_OPTIONS, "precision": 6}


def test_numpy_scalar_prints_like_zero_dim_array() -> None:
    scalar = np.float64(2.5) * 3
    assert (
        format_tensor(scalar)
        == format_tensor(np.array(7.5))
        == "tensor(7.5000, dtype=torch.float64)"
    )


def test_custom_prefix_sets_indent() -> None:
    data = np.arange(4, dtype=np.float32).reshape(2, 2)
    assert format_tensor(data, prefix="Tensor(") == "Tensor([[0., 1.],\n        [2., 3.]])"
    assert format_tensor(data, prefix="t(", indent=0) == "t([[0., 1.],\n [2., 3.]])"


def test_format_tensor_data_is_the_bracketed_body() -> None:
    data = np.array([[1, 22], [-3, 4]])
    assert format_tensor_data(data, 0) == "[[ 1, 22],\n [-3,  4]]"
    assert format_tensor_data(np.zeros((0, 2)), 0) == "[]"


@pytest.mark.parametrize(
    ("shape", "expected"),
    [((2, 3), "torch.Size([2, 3])"), ((), "torch.Size([])"), ((0,), "torch.Size([0])")],
)
def test_format_size(shape: tuple[int, ...], expected: str) -> None:
    assert format_size(shape) == expected
