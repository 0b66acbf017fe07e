"""Build the wheel, install it in a fresh venv and run the one-liner from there (slow-ish)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def sh(*command: str | Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NO_COLOR", "FORCE_COLOR")
    }
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    sh(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", out, REPO, cwd=out)
    (built,) = out.glob("autodiff_cli-*.whl")
    return built


def test_wheel_ships_the_grammar_inside_the_package(wheel: Path):
    names = zipfile.ZipFile(wheel).namelist()
    assert "autodiff_cli/grammar/autodiff.lark" in names
    assert "autodiff_cli/lang/parse/parse_tables_data.py" in names  # the parser's tables, as data
    assert "autodiff_cli/cli/app.py" in names
    assert not any(name.startswith(("tests/", "grammar/")) for name in names)


def test_installed_wheel_runs_the_one_liner(wheel: Path, tmp_path: Path):
    # System site-packages spare re-downloading numpy & co.; pip still installs any missing
    # dependency, and the project itself can only come from the wheel. Our pip installs into
    # the venv (`--python`, pip >= 22.3): a pip of its own (ensurepip) cost 3 CPU-s.
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    sh(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", wheel, cwd=tmp_path)

    location = sh(python, "-c", "import autodiff_cli; print(autodiff_cli.__file__)", cwd=tmp_path)
    assert Path(location.stdout.strip()).is_relative_to(env_dir)

    done = sh(bin_dir / "autodiff", "grad", "x**2*sin(x)", "--at", "x=3", "--json", cwd=tmp_path)
    data = json.loads(done.stdout)
    assert data["value"] == pytest.approx(9 * math.sin(3), rel=1e-6)
    assert data["gradients"]["x"] == pytest.approx(6 * math.sin(3) + 9 * math.cos(3), rel=1e-6)
