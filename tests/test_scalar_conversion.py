"""`float()` of a tensor that requires grad warns as PyTorch 2.13 does (once per process, only
with grad mode on), and `Tensor.apply_`/`map_`/`data_ptr` (their printed behaviour is checked
against PyTorch by tests/conformance/940_apply_map_data_ptr.py)."""

from __future__ import annotations

import warnings

import pytest
from cli_runner import autodiff

import autodiff_cli.engine as torch
from autodiff_cli.engine.core import tensor_values as tensor_module

MESSAGE = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first."
)


@pytest.fixture
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if nothing had warned yet in this process."""
    monkeypatch.setattr(tensor_module, "_warned_scalar_with_grad", False)


def _warnings_of(fn) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [str(w.message) for w in caught]


def test_float_of_a_tensor_requiring_grad_warns_once(fresh_process: None) -> None:
    x = torch.tensor([1.5], requires_grad=True)
    assert _warnings_of(lambda: float(x)) == [MESSAGE]
    assert _warnings_of(lambda: float(x * 2)) == []  # once per process, as PyTorch's warning


def test_no_warning_without_grad_mode_or_for_int_bool_item(fresh_process: None) -> None:
    x = torch.tensor([1.5], requires_grad=True)
    with torch.no_grad():
        assert _warnings_of(lambda: float(x)) == []
    assert _warnings_of(lambda: (int(x), bool(x), x.item(), x.tolist())) == []
    assert _warnings_of(lambda: float(torch.tensor([2.0]))) == []
    assert _warnings_of(lambda: float(x)) == [MESSAGE]  # not spent by the cases above


def test_the_warning_comes_before_the_size_error(fresh_process: None) -> None:
    x = torch.ones(2, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="only one element tensors"):
            float(x)
    assert [str(w.message) for w in caught] == [MESSAGE]


def test_a_script_shows_the_warning_once_at_its_line(tmp_path) -> None:
    script = tmp_path / "conv.py"
    script.write_text(
        "import torch\n"
        "x = torch.ones(1, requires_grad=True)\n"
        "def f(t):\n"
        "    return float(t)\n"
        "print(f(x))\n"
        "print(float(x))\n"
    )
    result = autodiff("run", str(script))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "1.0\n1.0\n"
    assert result.stderr.count("UserWarning") == 1
    assert f"conv.py:4: UserWarning: {MESSAGE}" in result.stderr


def test_apply_leaves_the_version_and_writes_through_views() -> None:
    base = torch.zeros(2, 3)
    column = base.t()[1]
    column.apply_(lambda v: v + 4)
    assert base.tolist() == [[0.0, 4.0, 0.0], [0.0, 4.0, 0.0]]
    assert base._version == 0 and column._version == 0
    assert column.data_ptr() - base.data_ptr() == 4  # one float32 further


def test_apply_hands_python_numbers_of_the_tensors_kind() -> None:
    seen: list[str] = []
    for t in (torch.tensor([1.0]), torch.tensor([1]), torch.tensor([True])):
        t.apply_(lambda v: seen.append(type(v).__name__) or v)
    assert seen == ["float", "int", "bool"]


def test_data_ptr_of_a_zero_dim_result_is_stable() -> None:
    s = (torch.tensor([1.0, 2.0], requires_grad=True) * 2).sum()
    assert s.data_ptr() == s.data_ptr() == s.detach().data_ptr() != 0
    assert torch.tensor([]).data_ptr() == 0
