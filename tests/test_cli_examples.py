"""Every script in examples/ runs under `autodiff run`, and prints what PyTorch prints (numbers
within float rounding: `golden_compare.py`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import REPO, cli_environment
from golden_compare import mismatch_report

EXAMPLES = sorted((REPO / "examples").glob("*.py"))
# a Python with torch installed, to compare the examples against (the comparison skips without)
TORCH_PYTHON = Path(os.environ.get("AUTODIFF_TORCH_PYTHON") or sys.executable)


def run(command: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        command,
        input="",
        capture_output=True,
        text=True,
        cwd=REPO,
        env=cli_environment(),
        timeout=120,
    )


def test_there_are_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_example_runs_under_autodiff(example: Path):
    done = run([sys.executable, "-m", "autodiff_cli", "run", str(example)])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


def _torch_available() -> bool:
    if not TORCH_PYTHON.exists():
        return False
    return run([str(TORCH_PYTHON), "-c", "import torch"]).returncode == 0


@pytest.mark.skipif(not _torch_available(), reason="PyTorch (the oracle) is not installed here")
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_example_prints_what_pytorch_prints(example: Path):
    expected = run([str(TORCH_PYTHON), str(example)])
    assert expected.returncode == 0, expected.stderr
    done = run([sys.executable, "-m", "autodiff_cli", "run", str(example)])
    report = mismatch_report(expected.stdout, done.stdout)
    assert report is None, report
