"""Every script in examples/ runs under `autodiff run`, and prints what PyTorch prints (numbers
within float rounding: `golden_compare.py`). The examples run in one batch, `autodiff run --json
EXAMPLES...` (`cli_runner`): each in its own fresh child, as `autodiff run EXAMPLE` runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import REPO, ScriptReport, cli_environment, run_scripts, selected_params
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


@pytest.fixture(scope="module")
def autodiff_runs(request: pytest.FixtureRequest) -> dict[str, ScriptReport | str]:
    """The selected examples in one `autodiff run --json` (each in its own fresh child, as
    `autodiff run EXAMPLE` runs it)."""
    examples = selected_params(request, "test_example_runs_under_autodiff", "example")
    examples += selected_params(request, "test_example_prints_what_pytorch_prints", "example")
    paths = sorted({str(example) for example in examples})
    return run_scripts(paths, cwd=REPO, env=cli_environment(), timeout=300)


def ran(example: Path, runs: dict[str, ScriptReport | str]) -> ScriptReport:
    report = runs[str(example)]
    if isinstance(report, str):
        pytest.fail(report, pytrace=False)
    return report


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_example_runs_under_autodiff(example: Path, autodiff_runs: dict):
    done = ran(example, autodiff_runs)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


def _torch_available() -> bool:
    if not TORCH_PYTHON.exists():
        return False
    return run([str(TORCH_PYTHON), "-c", "import torch"]).returncode == 0


@pytest.mark.skipif(not _torch_available(), reason="PyTorch (the oracle) is not installed here")
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_example_prints_what_pytorch_prints(example: Path, autodiff_runs: dict):
    expected = run([str(TORCH_PYTHON), str(example)])
    assert expected.returncode == 0, expected.stderr
    done = ran(example, autodiff_runs)
    report = mismatch_report(expected.stdout, done.stdout)
    assert report is None, report
