"""torch.__version__ (compares as a version), set/get_default_device, torch.accelerator, and
alpha=/value= on add/sub/addcmul/addcdiv, in place too (values checked against the formulas)."""

from __future__ import annotations

import pytest
from script_runner import error_of, run

from autodiff_cli.engine.version import TorchVersion


@pytest.mark.parametrize(
    ("left", "right", "less"),
    [("2.13.0", "2.9", False), ("2.13.0", "2.13.1", True), ("2.13.0", (2, 14), True),
     ("2.13.0", "2.13.0a0", False), ("1.13.1", "2.0", True)],
)  # fmt: skip
def test_version_order(left: str, right: object, less: bool) -> None:
    assert (TorchVersion(left) < right) is less
    assert (TorchVersion(left) >= right) is not less


def test_version_in_scripts() -> None:
    out = run("import torch\nv = torch.__version__\nprint(v, v >= '2.0', v.split('.')[:2])\n")
    assert out == "2.13.0+cpu True ['2', '13']\n"  # as the CPU build of PyTorch prints
    assert error_of("import torch\ntorch.__version__.center(10**9)").type_name == "ValueError"


def test_default_device_and_accelerator() -> None:
    out = run(
        "import torch\ntorch.set_default_device('cpu')\nprint(torch.get_default_device(), "
        "torch.accelerator.is_available(), torch.accelerator.current_accelerator())\n"
    )
    assert out == "cpu False None\n"
    error = error_of("import torch\ntorch.set_default_device('cuda')")
    assert (error.type_name, error.message) == (
        "RuntimeError",
        "Torch not compiled with CUDA enabled",
    )


def test_alpha_and_value_in_place_and_out_of_place() -> None:
    out = run(
        "import torch\na = torch.tensor([1.0, 2.0], dtype=torch.float64)\n"
        "b = torch.tensor([3.0, 4.0], dtype=torch.float64)\n"
        "c = a.clone()\nc.add_(b, alpha=2)\nd = a.clone()\nd.sub_(b, alpha=0.5)\n"
        "e = a.clone()\ne.addcmul_(a, b, value=3)\nf = a.clone()\nf.addcdiv_(a, b, value=2)\n"
        "print(c.tolist(), d.tolist(), e.tolist(), f.tolist(), torch.add(a, 3, alpha=2).tolist())\n"
    )
    a, b = [1.0, 2.0], [3.0, 4.0]
    expected = [
        [x + 2 * y for x, y in zip(a, b)],
        [x - 0.5 * y for x, y in zip(a, b)],
        [x + 3 * x * y for x, y in zip(a, b)],
        [x + 2 * x / y for x, y in zip(a, b)],
        [x + 6 for x in a],
    ]
    assert out == " ".join(map(str, expected)) + "\n"
