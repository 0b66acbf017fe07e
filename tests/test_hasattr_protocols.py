"""`hasattr(x, "__len__")` and the other protocol names answer as Python does, from the exact
type's own dictionaries (never from what the object says); reading them stays refused, so no
builtin method reaches a script. `set_grad_enabled` prints as PyTorch's."""

from __future__ import annotations

import pytest
from script_runner import error_of, run

import autodiff_cli.engine as E


@pytest.mark.parametrize(
    "expression, expected",
    [
        ("hasattr([1], '__len__')", True),
        ("hasattr(3, '__len__')", False),
        ("hasattr(torch.ones(2), '__len__')", True),
        ("hasattr(torch.ones(2), '__call__')", False),
        ("hasattr(np.arange(3), '__getitem__')", True),
        ("hasattr(iter([1]), '__next__')", True),
        ("hasattr([], '__next__')", False),
        ("hasattr(len, '__call__')", True),
        ("hasattr(torch.no_grad(), '__enter__')", True),
        ("hasattr(torch, '__call__')", False),
        ("hasattr(Sized(), '__len__')", True),
        ("hasattr(Child(), '__len__')", True),
        ("hasattr(Plain(), '__len__')", False),
        ("hasattr(Plain, '__call__')", True),
    ],
)
def test_hasattr_of_protocol_names_answers_as_python(expression: str, expected: bool) -> None:
    source = (
        "import torch\nimport numpy as np\n"
        "class Sized:\n    def __len__(self):\n        return 1\n"
        "class Child(Sized):\n    pass\n"
        "class Plain:\n    pass\n"
        f"print({expression})\n"
    )
    assert run(source) == f"{expected}\n"


def test_the_answer_comes_from_the_type_not_from_the_object() -> None:
    """(Python would ask the script's `__getattr__`, which answers for any name; the sandbox
    answers protocol names from the class dictionaries only.)"""
    source = (
        "class Liar:\n    def __getattr__(self, name):\n        return 1\n"
        "print(hasattr(Liar(), '__len__'), hasattr(Liar(), 'anything'))\n"
    )
    assert run(source) == "False True\n"


@pytest.mark.parametrize(
    "source", ["print([1].__len__)", "import torch\nprint(torch.ones(2).__len__())"]
)
def test_reading_a_protocol_method_stays_refused(source: str) -> None:
    error = error_of(source)
    assert "attribute '__len__' of" in str(error) and "is not available in scripts" in str(error)
    assert "private" in str(error)


def test_set_grad_enabled_prints_as_pytorchs() -> None:
    mode = E.set_grad_enabled(False)
    try:
        assert repr(mode) == "torch.autograd.grad_mode.set_grad_enabled(mode=False)"
        assert (mode.mode, mode.prev) == (False, True)
        assert (
            str(E.set_grad_enabled(True)) == "torch.autograd.grad_mode.set_grad_enabled(mode=True)"
        )
    finally:
        E.set_grad_enabled(True)
    with pytest.raises(TypeError, match=r"argument 'enabled' \(position 1\) must be bool, not int"):
        E.set_grad_enabled(1)
    assert E.is_grad_enabled()


def test_the_other_grad_modes_print_as_objects() -> None:
    for mode, name in ((E.no_grad(), "no_grad"), (E.enable_grad(), "enable_grad")):
        assert repr(mode).startswith(f"<torch.autograd.grad_mode.{name} object at 0x")
    assert repr(E.inference_mode()).startswith("<torch.autograd.grad_mode.inference_mode object")
