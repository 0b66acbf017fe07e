"""The legacy typed-tensor API (`engine/ops/legacy_types.py`): torch.FloatTensor and friends,
torch.Tensor(...), x.new(...), x.type(...), set_default_tensor_type; messages as PyTorch 2.13's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from script_runner import error_of, run

import autodiff_cli.engine as torch

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _fresh_defaults():
    yield
    torch.reset_global_state()


def test_each_class_makes_tensors_of_its_dtype_and_answers_isinstance_by_dtype():
    table = {
        torch.FloatTensor: torch.float32, torch.DoubleTensor: torch.float64,
        torch.HalfTensor: torch.float16, torch.LongTensor: torch.int64,
        torch.IntTensor: torch.int32, torch.ShortTensor: torch.int16,
        torch.CharTensor: torch.int8, torch.ByteTensor: torch.uint8, torch.BoolTensor: torch.bool,
    }  # fmt: skip
    for cls, dtype in table.items():
        t = cls([1, 0])
        assert type(t) is torch.Tensor and t.dtype == dtype and cls.dtype == dtype
        assert isinstance(t, cls)
        assert [other for other in table if isinstance(t, other)] == [cls]
        assert t.type() == f"torch.{cls.__name__}"
    assert isinstance(torch.nn.Parameter(torch.ones(2)), torch.FloatTensor)
    assert not isinstance(3.0, torch.FloatTensor)
    assert not issubclass(torch.Tensor, torch.FloatTensor)
    assert not issubclass(torch.FloatTensor, torch.Tensor)
    assert repr(torch.FloatTensor) == "<class 'torch.FloatTensor'>"
    assert repr(type(torch.FloatTensor)) == "<class 'torch.tensortype'>"


def test_constructor_overloads():
    F = torch.FloatTensor
    assert F().shape == (0,) and F(device="cpu").shape == (0,)
    assert F(2, 3).shape == (2, 3) and F(2, 3).tolist() == [[0.0] * 3] * 2  # zeros here
    assert F(torch.Size([2, 3])).shape == (2, 3) and F(size=(1, 2)).shape == (1, 2)
    assert F((2, 3)).tolist() == [2.0, 3.0]  # a tuple is data, a torch.Size sizes
    assert F(range(3)).tolist() == [0.0, 1.0, 2.0] and F(data=[5]).tolist() == [5.0]
    assert torch.LongTensor([1.5, -2.7]).tolist() == [1, -2]
    assert torch.BoolTensor([0, 2]).tolist() == [False, True]
    assert torch.ByteTensor([-1]).tolist() == [255]  # PyTorch wraps negative ints
    assert torch.Tensor([1, 2]).dtype == torch.float32


def test_a_tensor_given_is_aliased_with_its_gradient():
    w = torch.tensor([3.0], requires_grad=True)
    a = torch.FloatTensor(w)
    assert a is not w and type(a.grad_fn).__name__ == "AliasBackward0"
    (a * 2).sum().backward()
    assert w.grad.tolist() == [2.0]
    assert torch.Tensor(torch.tensor([1, 2])).dtype == torch.int64  # torch.Tensor: any dtype
    with pytest.raises(TypeError, match=r"^expected TensorOptions\(dtype=float, .*dtype=long int"):
        torch.FloatTensor(torch.tensor([1, 2]))


def test_numpy_data_shares_memory_when_the_dtype_matches():
    a = np.zeros(2, dtype=np.float32)
    t = torch.FloatTensor(a)
    a[0] = 5
    assert t.tolist() == [5.0, 0.0]
    assert torch.LongTensor(np.array([1.7, 2.2])).tolist() == [1, 2]
    with pytest.raises(ValueError, match="At least one stride"):
        torch.FloatTensor(np.arange(3)[::-1])


@pytest.mark.parametrize(
    ("make", "kind", "message"),
    [
        (lambda: torch.FloatTensor("a"), TypeError, "new(): invalid data type 'str'"),
        (lambda: torch.FloatTensor(["a"]), ValueError, "too many dimensions 'str'"),
        (lambda: torch.FloatTensor(None), TypeError, "new(): data must be a sequence (got NoneType)"),
        (lambda: torch.FloatTensor(True), TypeError, "new(): data must be a sequence (got bool)"),
        (lambda: torch.FloatTensor(-1), RuntimeError, "Trying to create tensor with negative dimension -1: [-1]"),
        (
            lambda: torch.FloatTensor(2, 3.0),
            TypeError,
            "new(): argument 'size' failed to unpack the object at pos 2 with error \"type must "
            'be tuple of ints,but got float"',
        ),
        (lambda: torch.ByteTensor([300]), RuntimeError, "value cannot be converted to type uint8 without overflow"),
        (lambda: torch.LongTensor([float("nan")]), RuntimeError, "value cannot be converted to type int64 without overflow"),
        (lambda: torch.LongTensor([2**70]), ValueError, "Overflow when unpacking long long"),
        (
            lambda: torch.FloatTensor([torch.tensor([1.0, 2.0])]),
            ValueError,
            "only one element tensors can be converted to Python scalars",
        ),
        (
            lambda: torch.FloatTensor([1], device="cuda"),
            RuntimeError,
            "legacy constructor expects device type: cpu but device type: cuda was passed",
        ),
        (
            lambda: torch.FloatTensor(torch.ones(1), device="cpu"),
            RuntimeError,
            "Legacy tensor constructor of the form torch.Tensor(tensor, device=device) is not "
            "supported.  Use torch.tensor(...) or torch.as_tensor(...) instead.",
        ),
        (
            lambda: torch.cuda.FloatTensor([1]),
            TypeError,
            "type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled.",
        ),
        (
            lambda: torch.BFloat16Tensor([1]),
            TypeError,
            "type torch.BFloat16Tensor not available: autodiff has no bfloat16 dtype",
        ),
    ],
)  # fmt: skip
def test_refusals_as_pytorch_words_them(make, kind, message):
    with pytest.raises(kind) as info:
        make()
    assert str(info.value) == message


def test_invalid_combination_names_the_overloads():
    with pytest.raises(TypeError) as info:
        torch.FloatTensor([1, 2], requires_grad=True)
    assert str(info.value) == (
        "new() received an invalid combination of arguments - got (list, requires_grad=bool), "
        "but expected one of:\n * (*, torch.device device = None)\n      didn't match because "
        "some of the keywords were incorrect: requires_grad\n * (torch.Storage storage)\n"
        " * (Tensor other)\n * (tuple of ints size, *, torch.device device = None)\n"
        " * (object data, *, torch.device device = None)\n"
    )
    with pytest.raises(TypeError, match=r"invalid types: \(!list of \[int\]!, !list of \[int\]!\)"):
        torch.FloatTensor([1], [2])


def test_type_method():
    x = torch.tensor([1.5, 2.5])
    assert x.type(torch.FloatTensor) is x and x.type("torch.FloatTensor") is x
    assert x.type(torch.DoubleTensor).dtype == torch.float64
    assert x.type("torch.LongTensor").tolist() == [1, 2]
    assert x.type(dtype=torch.int64).dtype == torch.int64
    assert torch.tensor([1]).type(torch.Tensor).dtype == torch.float32  # the default type
    for bad, message in ((int, "invalid type: 'int'"), ("float64", "invalid type: 'float64'")):
        with pytest.raises(ValueError) as info:
            x.type(bad)
        assert str(info.value) == message
    with pytest.raises(TypeError, match="^dtype must be a type, str, or dtype object$"):
        x.type(3)
    with pytest.raises(TypeError, match="'non_blocking' \\(position 2\\) must be bool, not int"):
        x.type(torch.float64, 3)
    with pytest.raises(RuntimeError, match="^Cannot initialize CUDA without ATen_cuda library"):
        x.type("torch.cuda.FloatTensor")


def test_new_follows_the_tensor_dtype():
    idx = torch.LongTensor([0, 2])
    assert idx.new([1.7, 2.2]).tolist() == [1, 2] and idx.new(2, 3).dtype == torch.int64
    assert idx.new().shape == (0,)
    with pytest.raises(RuntimeError, match="^Legacy tensor new of the form tensor.new"):
        idx.new(idx, device="cpu")


def test_set_default_tensor_type(recwarn):
    torch.set_default_tensor_type(torch.DoubleTensor)
    assert torch.get_default_dtype() == torch.float64
    assert torch.Tensor([1]).dtype == torch.float64 and torch.tensor([1.0]).dtype == torch.float64
    assert torch.FloatTensor([1]).dtype == torch.float32
    torch.set_default_tensor_type("torch.FloatTensor")
    assert torch.get_default_dtype() == torch.float32
    warned = [w for w in recwarn if "set_default_tensor_type() is deprecated" in str(w.message)]
    assert len(warned) == 1  # once (per script: reset_global_state)
    for bad, kind, message in (
        (torch.LongTensor, TypeError, "only floating-point types are supported as the default type"),
        (torch.Tensor, TypeError, "invalid type object: only floating-point types are supported as the default type"),
        (torch.float64, TypeError, "invalid type object: only floating-point types are supported as the default type"),
        ("FloatTensor", ModuleNotFoundError, "No module named 'FloatTensor'"),
    ):  # fmt: skip
        with pytest.raises(kind) as info:
            torch.set_default_tensor_type(bad)
        assert str(info.value) == message
    assert torch.get_default_dtype() == torch.float32


def test_scripts_hold_the_classes_but_nothing_behind_them():
    assert run("import torch\nprint(torch.FloatTensor, type(torch.FloatTensor))\n") == (
        "<class 'torch.FloatTensor'> <class 'torch.tensortype'>\n"
    )
    assert run("import torch\nprint(sorted(dir(torch.FloatTensor)))\n") == (
        "['dtype', 'is_cuda', 'is_sparse']\n"
    )
    for source in (
        "torch.FloatTensor.__mro__",
        "torch.FloatTensor._np_dtype",
        "torch.FloatTensor.mro()",
        "type(torch.FloatTensor).__instancecheck__",
    ):
        assert error_of(f"import torch\n{source}\n").type_name == "AttributeError", source
    for source in ("type(torch.FloatTensor)('E', (), {})", "class E(torch.FloatTensor): pass"):
        assert error_of(f"import torch\n{source}\n").type_name == "TypeError", source


def _run_cli(tmp_path: Path, *names: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", *names],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_default_type_and_its_warning_do_not_outlive_a_script(tmp_path):
    first = "import torch\ntorch.set_default_tensor_type(torch.DoubleTensor)\nprint(torch.Tensor(1).dtype)\n"
    (tmp_path / "a.py").write_text(first)
    (tmp_path / "b.py").write_text(first.replace("Double", "Half"))
    (tmp_path / "c.py").write_text("import torch\nprint(torch.get_default_dtype())\n")
    result = _run_cli(tmp_path, "a.py", "b.py", "c.py")
    assert result.returncode == 0, result.stderr
    assert "torch.float64" in result.stdout and "torch.float16" in result.stdout
    assert result.stdout.rstrip().endswith("torch.float32")
    assert result.stderr.count("set_default_tensor_type() is deprecated") == 2  # once each
    assert "a.py:2: UserWarning" in result.stderr and "Traceback" not in result.stderr


def test_a_bad_legacy_call_is_one_located_error(tmp_path):
    (tmp_path / "bad.py").write_text(
        "import torch\nx = torch.LongTensor([1.5])\ny = torch.ByteTensor([300])\n"
    )
    result = _run_cli(tmp_path, "bad.py")
    assert result.returncode == 1
    assert "bad.py:3:" in result.stderr
    assert "RuntimeError: value cannot be converted to type uint8 without overflow" in result.stderr
    assert "Traceback" not in result.stderr
