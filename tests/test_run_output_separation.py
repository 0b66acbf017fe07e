"""One script's output never runs into the next one's (issue 29, hole 9).

A script that ends with an unterminated line (`print("50%", end="\\r\\x1b[2K")`) once had the
next script's first line glued to it, serially and with `--jobs`. With several scripts, each
script's output now ends with a line break (and an escape sequence it left open is cancelled
with CAN) before the next script's output, its own error report and the summary; one script
alone, and `--json`, keep the exact output.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from autodiff_cli.cli.run.command import LineEnds, ends_in_open_escape

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = {
    "a.py": 'print("50%", end="\\r\\x1b[2K")\n',
    "b.py": 'print("second")\n',
    "c.py": 'print("open", end="\\x1b[2")\n',
    "d.py": 'print("partial", end="")\nraise ValueError("x")\n',
    "e.py": 'print("last", end="")\n',
}


def _run(tmp_path: Path, *args: str, isolation: str = "1") -> subprocess.CompletedProcess:
    for name, source in SCRIPTS.items():
        (tmp_path / name).write_text(source)
    return subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", *args],
        capture_output=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "AUTODIFF_ISOLATION": isolation},
        timeout=120,
    )


@pytest.mark.parametrize(("options", "isolation"), [((), "1"), (("--jobs", "2"), "1"), ((), "0")])
def test_each_script_ends_on_a_line_of_its_own(tmp_path: Path, options, isolation) -> None:
    done = _run(tmp_path, *options, "a.py", "b.py", "c.py", "b.py", "e.py", isolation=isolation)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b"50%\r\x1b[2K\nsecond\nopen\x1b[2\x18\nsecond\nlast\n"


@pytest.mark.parametrize(("options", "isolation"), [((), "1"), (("--jobs", "2"), "1")])
def test_an_error_report_starts_on_a_line_of_its_own(tmp_path: Path, options, isolation) -> None:
    done = _run(tmp_path, *options, "d.py", "b.py", isolation=isolation)
    assert done.returncode == 1
    assert done.stdout == b"partial\nsecond\n"
    assert done.stderr.startswith(b"d.py:2:1: error\n")


def test_one_script_alone_keeps_its_exact_output(tmp_path: Path) -> None:
    assert _run(tmp_path, "a.py").stdout == b"50%\r\x1b[2K"
    assert _run(tmp_path, "e.py").stdout == b"last"


def test_json_keeps_each_scripts_exact_output(tmp_path: Path) -> None:
    done = _run(tmp_path, "--json", "a.py", "e.py")
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [r["stdout"] for r in records[:2]] == ["50%\r\x1b[2K", "last"]


@pytest.mark.parametrize(
    ("text", "open_"),
    [
        ("abc", False), ("\r\x1b[2K", False), ("\x1b[31m", False), ("\x1b(B", False),
        ("\x1b]0;title\x07", False), ("\x1bP1\x1b\\", False), ("\x1b[1\x18", False),
        ("\x1b", True), ("\x1b[2", True), ("\x1b[2\n", True), ("\x1b(", True),
        ("\x1b]0;title", True), ("\x9b3", True), ("\x1bP1;2", True),
    ],
)  # fmt: skip
def test_open_escape_sequences(text: str, open_: bool) -> None:
    assert ends_in_open_escape(text) is open_


class _Stream:
    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


def test_line_ends_adds_only_what_is_missing() -> None:
    stream = _Stream()
    ends = LineEnds(stream)
    ends.end_line()  # nothing written: nothing added
    ends.write("a\n")
    ends.end_line()
    ends.write("b")
    ends.end_line()
    ends.write("\x1b]2;x\n")
    ends.end_line()
    assert stream.text == "a\nb\n\x1b]2;x\n\x18"
