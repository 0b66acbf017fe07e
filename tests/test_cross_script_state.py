"""Scripts of one `autodiff run` that share a process (`AUTODIFF_ISOLATION=0`, or no fork):
modes a script leaves on (plain calls, or a `with` inside a generator it abandons, whose
`__exit__` never runs) must not reach the next script (engine.reset_global_state)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

LEAVES_MODES_ON = """
import torch
from torch.autograd.graph import saved_tensors_hooks

torch.autograd.set_detect_anomaly(True)
torch.autograd.forward_ad.enter_dual_level()


def pack(t):
    print("an earlier pack hook saw", t)
    return t


def hold():
    with torch.inference_mode():
        with saved_tensors_hooks(pack, lambda t: t * 0 + 42):
            yield 1


held = hold()
next(held)
"""

LEAVES_MORE_ON = """
from torch.autograd.graph import allow_mutation_on_saved_tensors, disable_saved_tensors_hooks


def hold():
    with allow_mutation_on_saved_tensors():
        with disable_saved_tensors_hooks("an earlier script says no"):
            yield 1


held = hold()
next(held)
"""

USES_THEM = """
import torch
from torch.autograd.graph import allow_mutation_on_saved_tensors, saved_tensors_hooks

print(torch.is_anomaly_enabled(), torch.is_inference_mode_enabled())
x = torch.tensor([3.0, 4.0], requires_grad=True)
(x * x).sum().backward()
print(x.grad.tolist())
with torch.autograd.forward_ad.dual_level():
    pass
with saved_tensors_hooks(lambda t: t, lambda t: t):
    y = x.exp()
with allow_mutation_on_saved_tensors():
    z = x.sin()
print("second script done")
"""


def _run(scripts: list[str], isolation: str, folder: Path) -> subprocess.CompletedProcess:
    """`autodiff run SCRIPTS` with AUTODIFF_ISOLATION=`isolation` ("0": in one process)."""
    env = dict(os.environ, PYTHONPATH=str(REPO), AUTODIFF_ISOLATION=isolation, NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", *scripts],
        capture_output=True,
        text=True,
        env=env,
        cwd=folder,
        timeout=120,
    )


def test_one_script_leaves_no_mode_to_the_next(tmp_path: Path) -> None:
    scripts = []
    for name, source in (("a.py", LEAVES_MODES_ON), ("b.py", LEAVES_MORE_ON), ("c.py", USES_THEM)):
        (tmp_path / name).write_text(source)
        scripts.append(str(tmp_path / name))
    done = _run(scripts, "0", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "pack hook saw" not in done.stdout, done.stdout
    assert "False False\n[6.0, 8.0]\nsecond script done\n" in done.stdout, done.stdout


UNSEEDED = """
import torch
print(torch.initial_seed(), torch.rand(3).tolist(), torch.Generator().initial_seed())
torch.manual_seed(0)
"""


def _seeds_and_draws(done: subprocess.CompletedProcess) -> list[tuple[str, str]]:
    assert done.returncode == 0, done.stderr
    rows = [line.split(" ", 1) for line in done.stdout.splitlines()]
    for _, rest in rows:  # a new torch.Generator keeps PyTorch's fixed default seed
        assert rest.endswith("] 67280421310721"), rest
    return [(seed, rest) for seed, rest in rows]


def test_each_script_draws_from_a_fresh_seed(tmp_path: Path) -> None:
    """As under PyTorch, whose default generator takes a new seed in each process: unseeded
    scripts never repeat another's numbers, whether they share a process, are forked from one
    warm parent (7 scripts) or start fresh, and a seed one script sets never reaches the next."""
    scripts = []
    for index in range(7):
        (tmp_path / f"s{index}.py").write_text(UNSEEDED)
        scripts.append(str(tmp_path / f"s{index}.py"))
    rows = []
    for isolation, names in (
        ("0", scripts),
        ("1", scripts),
        ("1", scripts[:1]),
        ("1", scripts[:1]),
    ):
        rows += _seeds_and_draws(_run(names, isolation, tmp_path))
    assert len(rows) == 16
    assert len({seed for seed, _ in rows}) == 16, rows
    assert len({draws for _, draws in rows}) == 16, rows
    assert "0" not in {seed for seed, _ in rows}
