"""The meta device, `typing` and `functorch` as a user runs them (`autodiff run`, subprocess):
what the PyTorch goldens (conformance 1870-1884) do not show. A default device a script leaves
set does not reach the next script; meta factories draw no random numbers; typing's forms stay
the language's own; a bad NamedTuple body is one located error."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _run(tmp_path: Path, *sources: str, shared: bool = False) -> subprocess.CompletedProcess:
    paths = []
    for index, source in enumerate(sources):
        path = tmp_path / f"s{index}.py"
        path.write_text(source)
        paths.append(str(path))
    env = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1")
    if shared:
        env["AUTODIFF_ISOLATION"] = "0"  # the scripts share one process
    return subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", *paths],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )


def test_a_default_device_left_on_meta_does_not_reach_the_next_script(tmp_path: Path) -> None:
    leaves = "import torch\ntorch.set_default_device('meta')\nprint(torch.ones(1).device)\n"
    opens = (  # a `with` in a generator the script abandons: its __exit__ never runs
        "import torch\ndef hold():\n    with torch.device('meta'):\n        yield 1\n"
        "held = hold()\nnext(held)\nprint(torch.zeros(1).device)\n"
    )
    uses = "import torch\nprint(torch.ones(2), torch.get_default_device())\n"
    done = _run(tmp_path, leaves, opens, uses, shared=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "meta\nmeta\ntensor([1., 1.]) cpu\n", done.stdout


def test_meta_factories_and_layers_leave_the_generator_alone(tmp_path: Path) -> None:
    with_meta = (
        "import torch\ntorch.manual_seed(5)\n"
        "torch.randn(1000, device='meta'); torch.rand(3, 3, device='meta')\n"
        "torch.randint(0, 9, (4,), device='meta'); torch.randperm(7, device='meta')\n"
        "g = torch.Generator().manual_seed(2)\ntorch.randn(5, generator=g, device='meta')\n"
        "torch.nn.Linear(50, 50, device='meta'); torch.empty(9, device='meta').uniform_()\n"
        "print(torch.rand(2).tolist(), torch.rand(1, generator=g).tolist())\n"
    )
    plain = (
        "import torch\ntorch.manual_seed(5)\ng = torch.Generator().manual_seed(2)\n"
        "print(torch.rand(2).tolist(), torch.rand(1, generator=g).tolist())\n"
    )
    first, second = _run(tmp_path, with_meta), _run(tmp_path, plain)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert first.stdout == second.stdout


def test_meta_tensors_refuse_their_values_with_one_located_error(tmp_path: Path) -> None:
    done = _run(tmp_path, "import torch\nx = torch.zeros((), device='meta')\nprint(x.item())\n")
    assert done.returncode == 1
    assert "s0.py:3:7: error" in done.stderr, done.stderr
    assert "RuntimeError: Tensor.item() cannot be called on meta tensors" in done.stderr
    assert "Traceback" not in done.stderr


def test_typing_forms_are_the_languages_own(tmp_path: Path) -> None:
    source = (
        "import typing\nfrom typing import List, Optional\n"
        "print(type(List).__name__, type(Optional[int]).__name__)\n"
        "print(typing.get_args(Optional[List[int]]))\n"
        "List.__origin__\n"
    )
    done = _run(tmp_path, source)
    assert done.returncode == 1
    assert done.stdout == "TypingForm TypingForm\n(typing.List[int], <class 'NoneType'>)\n"
    assert "AttributeError: 'TypingForm' object has no attribute '__origin__'" in done.stderr, (
        done.stderr
    )


def test_a_named_tuple_field_without_default_after_one_with_is_located(tmp_path: Path) -> None:
    source = "from typing import NamedTuple\nclass P(NamedTuple):\n    a: int = 0\n    b: int\n"
    done = _run(tmp_path, source)
    assert done.returncode == 1
    assert "s0.py:2:1: error" in done.stderr, done.stderr
    assert "TypeError: Non-default namedtuple field b cannot follow default field a" in done.stderr


def test_functorch_warns_once_per_line_at_the_callers_line(tmp_path: Path) -> None:
    source = (
        "import torch\nfrom functorch import grad\n"
        "for i in range(3):\n    g = grad(torch.sin)(torch.tensor(0.0))\nprint(g)\n"
    )
    done = _run(tmp_path, source)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "tensor(1.)\n"
    assert done.stderr.count("s0.py:4: FutureWarning: We've integrated functorch") == 1
    assert "Please use `torch.func.grad` instead" in done.stderr
