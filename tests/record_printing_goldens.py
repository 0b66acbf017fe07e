"""Record PyTorch's tensor reprs into ``tests/printing_goldens.json`` (needs torch).

Usage: ``/work/torchenv/bin/python tests/record_printing_goldens.py``

Each case is numpy data (flat list + dtype + shape), print options, the caller's suffixes and
whether it is an ``nn.Parameter``; torch prints the same data and the repr is stored as the
expected output that ``tests/test_printing.py`` checks ``engine.core.printing`` against.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

GOLDENS_PATH = Path(__file__).with_name("printing_goldens.json")
REQUIRES_GRAD = "requires_grad=True"
GRAD_FN = "grad_fn=<CloneBackward0>"


def encode_scalar(value: Any) -> Any:
    """JSON-safe scalar: non-finite floats as strings, complex as [real, imag]."""
    if isinstance(value, complex):
        return [encode_scalar(value.real), encode_scalar(value.imag)]
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)  # 'nan', 'inf', '-inf'
    return value


def decode_scalar(value: Any) -> Any:
    if isinstance(value, list):
        return complex(decode_scalar(value[0]), decode_scalar(value[1]))
    if isinstance(value, str):
        return float(value)
    return value


def decode_array(case: dict[str, Any]) -> np.ndarray:
    """The numpy array a golden case describes."""
    values = [decode_scalar(v) for v in case["data"]]
    return np.array(values, dtype=case["dtype"]).reshape(case["shape"])


def _case(
    name: str,
    array: Any,
    dtype: str = "float32",
    options: dict[str, Any] | None = None,
    suffixes: tuple[str, ...] = (),
    parameter: bool = False,
    default_dtype: str = "float32",
) -> dict[str, Any]:
    array = np.asarray(array, dtype=dtype)
    return {
        "name": name,
        "data": [encode_scalar(v) for v in array.ravel().tolist()],
        "dtype": array.dtype.name,
        "shape": list(array.shape),
        "options": options or {},
        "suffixes": list(suffixes),
        "parameter": parameter,
        "default_dtype": default_dtype,
    }


def generate_cases() -> list[dict[str, Any]]:
    """A deterministic spread of shapes, magnitudes, dtypes and print options."""
    rng = np.random.default_rng(2024)
    nan, inf = math.nan, math.inf
    cases: list[dict[str, Any]] = []
    add = cases.append

    # 0-d tensors
    for i, value in enumerate(
        [7.0, 3.14159, -0.0, 0.0, nan, inf, -inf, 1e-5, 1e9, 123456.789, -2.5, 1e8, 0.1]
    ):
        add(_case(f"scalar_f32_{i}", value))
    for i, value in enumerate([0.1, 1 / 3, 1e-300, 2.0**60]):
        add(_case(f"scalar_f64_{i}", value, "float64"))
    add(_case("scalar_int", 7, "int64"))
    add(_case("scalar_int_neg", -3, "int64"))
    add(_case("scalar_int32", 5, "int32"))
    add(_case("scalar_bool", True, "bool"))
    add(_case("scalar_f16", 1 / 3, "float16"))
    add(_case("scalar_grad_fn", 7.0, suffixes=(GRAD_FN,)))
    add(_case("scalar_requires_grad", 2.0, suffixes=(REQUIRES_GRAD,)))
    add(_case("scalar_f64_grad_fn", 2.5, "float64", suffixes=(GRAD_FN,)))

    # 1-D, scientific switching and special values
    vectors: dict[str, list[float]] = {
        "ints_as_float": [1, 2, 3],
        "halves": [1.5, -2.25, 0.125],
        "ratio_1000": [1, 1000],
        "ratio_1001": [1, 1001],
        "ratio_small": [0.001, 1.0],
        "ratio_small_over": [0.0009, 1.0],
        "max_1e8": [1e8, 1.0],
        "max_2e8": [2e8, 1.0],
        "min_1e-4": [1e-4, 0.05],
        "min_2e-4": [2e-4, 0.1],
        "tiny": [1e-5, 2e-5, -3e-5],
        "huge": [1e10, -2.5e12],
        "huge_ints": [1e10, 2e10],
        "nan_mix": [nan, 1.0, 2.5],
        "inf_mix": [inf, -inf, 1.0],
        "nan_int": [nan, 1.0, 2.0],
        "all_nan": [nan, nan],
        "all_inf": [inf, -inf],
        "zeros": [0.0, 0.0, 0.0],
        "neg_zero": [-0.0, 0.0, 1.0],
        "neg_zero_frac": [-0.0, 0.5],
        "neg_zero_only": [-0.0, 0.0],
        "nan_sci": [nan, 1e-6, 1.0],
        "inf_sci": [inf, 1e9, 0.5],
        "round_up": [0.99999, 9.99995, 0.00005],
        "negative": [-1.0, -0.5, -100.25],
        "big_ints": [123456789.0, 1.0],
        "mixed_magnitude": [1e-3, 1.0, 10.0, 100.0],
        "pi_multiples": [math.pi * k for k in range(1, 6)],
    }
    for name, values in vectors.items():
        add(_case(f"vec_{name}", values))
    for name in ["halves", "tiny", "huge", "nan_mix", "pi_multiples", "ratio_1001", "min_1e-4"]:
        add(_case(f"vec_f64_{name}", vectors[name], "float64"))
    for name in ["halves", "tiny", "inf_mix", "pi_multiples"]:
        add(_case(f"vec_f16_{name}", vectors[name], "float16"))
    add(_case("vec_f16_max", [65504.0, -65504.0, 1.0], "float16"))
    add(_case("vec_f64_denormal", [5e-324, 1.0], "float64"))
    add(_case("vec_f64_extreme", [1e-300, 1e300], "float64"))
    add(_case("vec_f64_precise", [0.1 + 0.2, 1 / 7], "float64"))

    # integers and booleans
    add(_case("int_range", np.arange(-2, 4), "int64"))
    add(_case("int_big", [1, -1234567890123, 42], "int64"))
    for dtype in ["int8", "int16", "int32", "uint8", "uint16", "uint32", "uint64"]:
        add(_case(f"int_{dtype}", [1, 2, 100], dtype))
    add(_case("int_matrix", np.arange(-6, 6).reshape(3, 4) * 7, "int64"))
    add(_case("int_long_line", np.arange(100) * 13, "int64"))
    add(_case("bool_vec", [True, False, True], "bool"))
    add(_case("bool_matrix", rng.random((3, 4)) > 0.5, "bool"))
    add(_case("bool_long", rng.random(40) > 0.5, "bool"))

    # line wrapping
    add(_case("wrap_arange30", np.arange(30)))
    add(_case("wrap_random50", rng.normal(size=50)))
    add(_case("wrap_random50_f64", rng.normal(size=50), "float64"))
    add(_case("wrap_sci", rng.normal(size=40) * 1e-6))
    add(_case("wrap_matrix", rng.normal(size=(3, 25))))
    add(_case("wrap_3d", rng.normal(size=(2, 2, 20)) * 100))
    add(_case("wrap_suffix", np.arange(16) + 0.5, suffixes=(GRAD_FN,)))
    add(_case("wrap_suffix_rg", np.arange(17) + 0.5, suffixes=(REQUIRES_GRAD,)))
    add(_case("wrap_suffix_f64", np.arange(15) + 0.5, "float64", suffixes=(GRAD_FN,)))
    add(_case("wrap_suffix_f64_rg", np.arange(13) + 0.5, "float64", suffixes=(REQUIRES_GRAD,)))
    for n in range(9, 14):
        add(_case(f"suffix_edge_{n}", np.arange(n) + 0.25, suffixes=(GRAD_FN,)))
    add(_case("wrap_zeros", np.zeros(60)))  # width never measured: stays at its initial 1
    add(_case("wrap_nan_zero", np.tile([np.nan, 0.0, -0.0], 12)))
    # exact boundaries of suffix wrapping and of elements per line
    for linewidth in (42, 43):
        add(
            _case(
                f"suffix_lw_{linewidth}",
                [1.0, 2.0],
                "float32",
                {"linewidth": linewidth},
                (GRAD_FN,),
            )
        )
    for linewidth in (39, 40, 59, 60):
        add(
            _case(
                f"two_suffixes_lw_{linewidth}",
                [[1.0, 2.0], [3.0, 4.0]],
                "float64",
                {"linewidth": linewidth},
                (REQUIRES_GRAD,),
            )
        )
    for linewidth in (22, 23, 30, 31):
        add(_case(f"per_line_lw_{linewidth}", np.arange(8) + 0.5, options={"linewidth": linewidth}))

    # n-d tensors of assorted magnitudes
    shapes = [(2, 3), (3, 1), (1, 4), (2, 3, 4), (2, 1, 3), (2, 2, 2, 2), (1, 1, 1), (3, 2, 1, 2)]
    scales = [1.0, 1e-3, 1e5, 1e-7, 1e9]
    for i, shape in enumerate(shapes):
        for j, scale in enumerate(scales):
            if (i + j) % 2 == 0:
                add(_case(f"nd_{i}_{j}", rng.normal(size=shape) * scale))
    for i, shape in enumerate(shapes[:5]):
        add(_case(f"nd_ints_as_float_{i}", rng.integers(-50, 50, size=shape)))
        add(_case(f"nd_int64_{i}", rng.integers(-500, 500, size=shape), "int64"))
        add(_case(f"nd_f64_{i}", rng.normal(size=shape), "float64"))
    add(_case("nd_nan_inf", [[nan, 1.5], [inf, -2.0]]))
    add(_case("nd_grad_fn", rng.normal(size=(2, 3)), suffixes=(GRAD_FN,)))
    add(_case("nd_f64_requires_grad", np.ones((2, 3)), "float64", suffixes=(REQUIRES_GRAD,)))
    add(_case("nd_4d_grad", rng.normal(size=(2, 2, 2, 3)), suffixes=(GRAD_FN,)))

    # summarisation
    add(_case("sum_arange2000", np.arange(2000)))
    add(_case("sum_int_arange2000", np.arange(2000), "int64"))
    add(_case("sum_1001", np.arange(1001) * 0.5))
    add(_case("sum_1000_not", np.arange(1000) * 0.25))
    add(_case("sum_matrix", np.arange(40 * 50).reshape(40, 50) * 0.125))
    add(_case("sum_wide", np.arange(3 * 400).reshape(3, 400)))
    add(_case("sum_tall", np.arange(400 * 3).reshape(400, 3) - 600.0))
    add(_case("sum_3d", np.arange(10 * 10 * 11).reshape(10, 10, 11) * 0.5))
    add(_case("sum_4d", np.arange(8 * 2 * 8 * 9).reshape(8, 2, 8, 9) % 7 - 3.5))
    add(_case("sum_sci_middle_hidden", np.r_[np.ones(3), np.full(1000, 1e9), np.ones(3) * 2]))
    add(_case("sum_bool", np.arange(1500) % 3 == 0, "bool"))
    add(_case("sum_grad_fn", np.arange(1200) * 0.5, suffixes=(GRAD_FN,)))
    add(_case("sum_f64", np.arange(1100) / 8 - 20, "float64"))
    small = np.arange(24).reshape(2, 3, 4) * 1.5
    add(_case("thr_5_1d", np.arange(10), "int64", {"threshold": 5}))
    add(_case("thr_5_3d", small, options={"threshold": 5}))
    add(_case("thr_5_edge_1", small, options={"threshold": 5, "edgeitems": 1}))
    add(_case("thr_5_edge_2_1d", np.arange(10.0), options={"threshold": 5, "edgeitems": 2}))
    add(_case("thr_0_scalar", 3.5, options={"threshold": 0}))
    add(_case("edge_0_small", small, options={"edgeitems": 0}))
    add(_case("edge_0_1d_small", [1.0, 2.0], options={"edgeitems": 0}))
    add(_case("edge_0_sum_1d", np.arange(20.0), options={"threshold": 5, "edgeitems": 0}))
    add(_case("edge_0_sum_3d", small, options={"threshold": 5, "edgeitems": 0}))
    add(
        _case(
            "edge_0_sum_grad",
            small,
            options={"threshold": 5, "edgeitems": 0},
            suffixes=(GRAD_FN,),
        )
    )
    add(_case("edge_0_scalar", 2.0, options={"edgeitems": 0}))
    add(_case("edge_5", np.arange(40.0), options={"threshold": 10, "edgeitems": 5}))
    add(_case("edge_big", np.arange(30.0), options={"threshold": 10, "edgeitems": 20}))

    # print options
    values = rng.normal(size=(2, 4)) * 10
    for precision in [0, 1, 2, 6, 8, 10]:
        add(_case(f"precision_{precision}", values, options={"precision": precision}))
    add(_case("precision_2_f64", values, "float64", {"precision": 2}))
    add(_case("precision_0_sci", [1e-5, 1.0], options={"precision": 0}))
    add(_case("precision_10_f64", [1 / 3, 2 / 3], "float64", {"precision": 10}))
    add(_case("sci_true", values, options={"sci_mode": True}))
    add(_case("sci_true_ints", [1.0, 2.0, 300.0], options={"sci_mode": True}))
    add(_case("sci_true_zero_nan", [0.0, nan, -0.0], options={"sci_mode": True}))
    add(_case("sci_true_scalar", 5.0, options={"sci_mode": True}))
    add(_case("sci_false_tiny", [1e-5, 2.0], options={"sci_mode": False}))
    add(_case("sci_false_huge", [1e10, 2.5], options={"sci_mode": False}))
    add(_case("sci_false_huge_ints", [1e10, 2.0], options={"sci_mode": False}))
    add(_case("sci_false_ints", [1.0, 2.0], "int64", {"sci_mode": False}))
    add(_case("sci_true_int64", [1, 2], "int64", {"sci_mode": True}))
    add(_case("linewidth_40", np.arange(30.0) / 7, options={"linewidth": 40}))
    add(_case("linewidth_120", np.arange(60.0) / 7, options={"linewidth": 120}))
    add(_case("linewidth_10", np.arange(6.0) / 7, options={"linewidth": 10}))
    add(_case("linewidth_5_matrix", np.arange(6.0).reshape(2, 3), options={"linewidth": 5}))
    add(
        _case(
            "linewidth_30_suffix",
            np.arange(5.0),
            "float64",
            {"linewidth": 30},
            suffixes=(GRAD_FN,),
        )
    )
    add(_case("profile_short", values, options={"profile": "short"}))
    add(_case("profile_short_sum", np.arange(2000.0), options={"profile": "short"}))
    add(_case("profile_full", np.arange(1001) % 10, "int64", {"profile": "full"}))
    add(_case("profile_default", values, options={"profile": "default"}))
    add(_case("profile_short_precision", values, options={"profile": "short", "precision": 5}))
    add(_case("precision_sci_mix", [1e-7, 3.0], options={"precision": 2, "sci_mode": None}))

    # empty tensors
    add(_case("empty_1d", np.zeros(0)))
    add(_case("empty_2d", np.zeros((0, 3))))
    add(_case("empty_3d", np.zeros((2, 0, 4))))
    add(_case("empty_int64", np.zeros(0), "int64"))
    add(_case("empty_bool", np.zeros((0, 2)), "bool"))
    add(_case("empty_f64", np.zeros(0), "float64"))
    add(_case("empty_int32_2d", np.zeros((0, 2)), "int32"))
    add(_case("empty_requires_grad", np.zeros((0, 3)), suffixes=(REQUIRES_GRAD,)))
    add(_case("empty_f64_grad_fn", np.zeros(0), "float64", suffixes=(GRAD_FN,)))
    add(_case("empty_edge_0", np.zeros(0), options={"edgeitems": 0}))

    # complex
    add(_case("complex_vec", [1 + 2j, -3.5 - 0.5j, 0j], "complex64"))
    add(_case("complex_int_mode", [1 + 2j, 3 - 4j], "complex64"))
    add(_case("complex_neg_zero_imag", [complex(1.0, -0.0)], "complex64"))
    add(_case("complex_sci", [1e-6 + 1j, 2 + 3e5j], "complex64"))
    add(_case("complex_f64_matrix", (rng.normal(size=(2, 2)) + 1j).tolist(), "complex128"))
    add(_case("complex_scalar", 1.5 - 2j, "complex64"))
    add(_case("complex_nan", [complex(nan, 1.0), complex(1.0, inf)], "complex128"))
    add(_case("complex_wrap", (np.arange(20) * (1 + 0.5j)).tolist(), "complex64"))

    # nn.Parameter
    add(_case("param_matrix", np.ones((2, 3)), suffixes=(REQUIRES_GRAD,), parameter=True))
    add(_case("param_f64", np.ones(3), "float64", suffixes=(REQUIRES_GRAD,), parameter=True))
    add(_case("param_frozen", rng.normal(size=(2, 2)), parameter=True))

    # default dtype float64
    for name, array, dtype in [
        ("f32", [1.5, 2.0], "float32"),
        ("f64", [1.5, 2.0], "float64"),
        ("empty_f32", np.zeros(0), "float32"),
        ("empty_f64", np.zeros(0), "float64"),
        ("c64", [1 + 1j], "complex64"),
        ("c128", [1 + 1j], "complex128"),
    ]:
        add(_case(f"default_f64_{name}", array, dtype, default_dtype="float64"))
    return cases


def torch_repr(case: dict[str, Any]) -> str:
    """PyTorch's repr of one case."""
    import torch

    array = decode_array(case)
    torch.set_default_dtype(getattr(torch, case["default_dtype"]))
    torch.set_printoptions(profile="default")
    if case["options"]:
        torch.set_printoptions(**case["options"])
    try:
        tensor = torch.from_numpy(array.copy())
        if case["parameter"]:
            requires_grad = "requires_grad=True" in case["suffixes"]
            tensor = torch.nn.Parameter(tensor, requires_grad=requires_grad)
        elif GRAD_FN in case["suffixes"]:
            tensor = tensor.requires_grad_().clone()
        elif REQUIRES_GRAD in case["suffixes"]:
            tensor = tensor.requires_grad_()
        return repr(tensor)
    finally:
        torch.set_printoptions(profile="default")
        torch.set_default_dtype(torch.float32)


def main() -> None:
    cases = generate_cases()
    for case in cases:
        case["expected"] = torch_repr(case)
    lines = ",\n".join(json.dumps(case) for case in cases)  # one case per line
    GOLDENS_PATH.write_text("[\n" + lines + "\n]\n")
    print(f"recorded {len(cases)} cases to {GOLDENS_PATH}")


if __name__ == "__main__":
    main()
