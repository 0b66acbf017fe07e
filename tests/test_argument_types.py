"""Wrong argument types end in PyTorch's TypeError (engine/core/arguments.py, explained by the
language when an engine call fails), and lazy modules initialise at their first call.

The messages in `CASES` were recorded from PyTorch 2.13."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import autodiff_cli.engine as torch
from autodiff_cli.engine.core.arguments import type_name, wrong_argument

ROOT = Path(__file__).resolve().parent.parent

CASES = [
    ("torch.sum([1.0, 2.0])", "sum(): argument 'input' (position 1) must be Tensor, not list"),
    ("torch.exp([1.0])", "exp(): argument 'input' (position 1) must be Tensor, not list"),
    ("torch.mean('ab')", "mean(): argument 'input' (position 1) must be Tensor, not str"),
    ("torch.max([1.0])", "max(): argument 'input' (position 1) must be Tensor, not list"),
    ("torch.sigmoid(None)", "sigmoid(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ("torch.tanh((1.0,))", "tanh(): argument 'input' (position 1) must be Tensor, not tuple"),
    ("torch.sqrt(4)", "sqrt(): argument 'input' (position 1) must be Tensor, not int"),
    ("x.add('a')", "add(): argument 'other' (position 1) must be Tensor, not str"),
    ("torch.add(x, 'a')", "add(): argument 'other' (position 2) must be Tensor, not str"),
    ("torch.add(x, other=[1.0])", "add(): argument 'other' must be Tensor, not list"),
    ("torch.add([1.0], x)", "add(): argument 'input' (position 1) must be Tensor, not list"),
    ("torch.matmul([1.0], x)", "matmul(): argument 'input' (position 1) must be Tensor, not list"),
    ("torch.mm(x, [1])", "mm(): argument 'mat2' (position 2) must be Tensor, not list"),
    ("x.mul((1, 2))", "mul(): argument 'other' (position 1) must be Tensor, not tuple"),
    ("x.dot([1.0])", "dot(): argument 'tensor' (position 1) must be Tensor, not list"),
    ("x.detach().copy_([1.0])", "copy_(): argument 'other' (position 1) must be Tensor, not list"),
    ("torch.exp(torch.float32)", "exp(): argument 'input' (position 1) must be Tensor, not torch.dtype"),
    ("torch.exp(np.array([1.0]))", "exp(): argument 'input' (position 1) must be Tensor, not numpy.ndarray"),
    ("torch.exp(Point())", "exp(): argument 'input' (position 1) must be Tensor, not Point"),
    ("torch.cat([x, [1.0]])", "expected Tensor as element 1 in argument 0, but got list"),
    ("torch.cat(x)", "cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    ("torch.eq(x, [1.0])", "eq() received an invalid combination of arguments - got (Tensor, list), but expected one of:"),
    ("x.pow('a')", "      didn't match because some of the arguments have invalid types: (!str!)"),
]  # fmt: skip


def run_script(source: str) -> subprocess.CompletedProcess:
    path = Path(source)
    return subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", str(path)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=False,
    )


def test_each_wrong_type_gives_pytorchs_message(tmp_path: Path) -> None:
    lines = ["import torch", "import numpy as np", "class Point:", "    pass",
             "x = torch.ones(2)"]  # fmt: skip
    for call, _ in CASES:
        lines += ["try:", f"    {call}", "except TypeError as e:", "    print(str(e))"]
    script = tmp_path / "types.py"
    script.write_text("\n".join(lines) + "\n")
    out = run_script(str(script))
    assert out.returncode == 0, out.stderr
    printed = out.stdout.splitlines()
    for call, message in CASES:
        assert message in printed, f"{call}: {message!r} not in\n{out.stdout}"


def test_uncaught_wrong_type_is_one_located_error(tmp_path: Path) -> None:
    script = tmp_path / "bad.py"
    script.write_text("import torch\ny = torch.sum([1.0, 2.0])\n")
    out = run_script(str(script))
    assert out.returncode == 1
    assert "Traceback" not in out.stderr
    assert "bad.py:2:" in out.stderr
    assert "TypeError: sum(): argument 'input' (position 1) must be Tensor, not list" in out.stderr


def test_numbers_where_pytorch_takes_them(tmp_path: Path) -> None:
    script = tmp_path / "ok.py"
    script.write_text(
        textwrap.dedent("""\
        import torch
        x = torch.arange(3.0)
        print(torch.pow(2, x), torch.add(x, 2), torch.where(x > 0, x, 0.0), torch.mul(3, x))
    """)
    )
    out = run_script(str(script))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("tensor([1., 2., 4.]) tensor([2., 3., 4.])")


def test_wrong_argument_reads_annotations() -> None:
    x = torch.ones(2)
    error = wrong_argument(torch.sum, ([1.0],), None)
    assert str(error) == "sum(): argument 'input' (position 1) must be Tensor, not list"
    assert wrong_argument(torch.sum, (x,), None) is None
    assert wrong_argument(torch.add, (x, 2), None) is None
    method = wrong_argument(x.add, ("a",), None)
    assert str(method) == "add(): argument 'other' (position 1) must be Tensor, not str"
    assert wrong_argument(len, ([1],), None) is None  # not an engine function
    assert type_name(torch.float32) == "torch.dtype"
    assert type_name(None) == "NoneType"


def test_lazy_linear_draws_as_linear_at_first_call() -> None:
    torch.manual_seed(0)
    lazy = torch.nn.LazyLinear(3)
    assert repr(lazy.weight) == "<UninitializedParameter>"
    assert lazy.in_features == 0
    with pytest.raises(RuntimeError, match="Can't access the shape"):
        lazy.weight.shape  # noqa: B018
    x = torch.ones(2, 4)
    weight = lazy.weight
    out = lazy(x)
    torch.manual_seed(0)
    plain = torch.nn.Linear(4, 3)
    assert type(lazy) is torch.nn.Linear and lazy.in_features == 4
    assert lazy.weight is weight and type(weight) is torch.nn.Parameter
    assert torch.equal(lazy.weight, plain.weight) and torch.equal(lazy.bias, plain.bias)
    assert torch.equal(out, plain(x))


def test_saved_alpha_of_a_default() -> None:
    a = torch.ones(2, requires_grad=True)
    assert (a + a).grad_fn._saved_alpha == 1
    assert torch.sub(a, a, alpha=3).grad_fn._saved_alpha == 3
