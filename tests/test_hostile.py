"""Hostile and broken scripts (`tests/hostile/*.ad`, an extension linters leave alone), run as a
user runs them: `autodiff run` in a
subprocess, in an empty temporary working directory.

Each script's first line names the error it must end with (`# expect: AttributeError`); an
optional `# args: ...` line adds command-line options (`--timeout 1`). Every script must exit
with status 1, print a located error (`file:line:col: error`, the source line and a caret) and
`Type: message` on stderr, show no Python traceback, and leave the working directory empty.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).resolve().parent / "hostile"
SCRIPTS = sorted(HOSTILE.glob("*.ad"))
LOCATED = re.compile(r"^(?P<file>\S.*):(?P<line>\d+):(?P<column>\d+): error$", re.M)


@dataclass(frozen=True)
class Outcome:
    returncode: int
    stdout: str
    stderr: str
    leftovers: list[str]


def _header(path: Path, key: str) -> str | None:
    for line in path.read_bytes().split(b"\n")[:3]:
        match = re.match(rb"# " + key.encode() + rb": (.*)", line)
        if match:
            return match.group(1).decode().strip()
    return None


def _run(path: Path) -> Outcome:
    environment = dict(os.environ, PYTHONPATH=str(REPO), NO_COLOR="1", COLUMNS="200")
    args = (_header(path, "args") or "").split()
    with tempfile.TemporaryDirectory() as workdir:
        completed = subprocess.run(
            [sys.executable, "-m", "autodiff_cli", "run", *args, str(path)],
            cwd=workdir,
            env=environment,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=60,
        )
        leftovers = sorted(os.listdir(workdir))
    return Outcome(completed.returncode, completed.stdout, completed.stderr, leftovers)


@pytest.fixture(scope="module")
def outcomes() -> dict[str, Outcome]:
    """All scripts run once, a few at a time."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip((path.name for path in SCRIPTS), pool.map(_run, SCRIPTS)))


def test_corpus_is_large_and_annotated() -> None:
    assert len(SCRIPTS) >= 40
    for path in SCRIPTS:
        assert _header(path, "expect"), f"{path.name} has no '# expect: Type' line"


@pytest.mark.parametrize("path", SCRIPTS, ids=[path.stem for path in SCRIPTS])
def test_hostile_script_fails_cleanly(path: Path, outcomes: dict[str, Outcome]) -> None:
    outcome = outcomes[path.name]
    expected = _header(path, "expect")
    assert outcome.returncode == 1, outcome.stderr
    assert "Traceback" not in outcome.stderr
    assert re.search(rf"^{expected}: \S", outcome.stderr, re.M), outcome.stderr
    assert outcome.leftovers == [], f"the script left files behind: {outcome.leftovers}"
    located = LOCATED.search(outcome.stderr)
    assert located, outcome.stderr
    assert Path(located["file"]).name == path.name
    line = int(located["line"])
    source_lines = path.read_bytes().split(b"\n")
    assert 1 <= line <= len(source_lines)
    after = outcome.stderr[located.end() :].lstrip("\n").split("\n")
    if after[0].startswith("    "):  # the source line is shown: a caret under the column
        assert after[1].strip() == "^"
        assert len(after[1]) - 4 == int(located["column"])
