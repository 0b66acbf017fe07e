"""Errors raised while an object is finalized during a script (issue 29, hole 8): one located,
escaped line on stderr, never CPython's "Exception ignored" traceback with host paths and raw
control bytes. Run as a user runs scripts (subprocess), in the jail's child and without it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

GENERATOR_FINALLY = """\
def g():
    try:
        yield 1
    finally:
        raise ValueError("boom\\x1b[31m red\\r")

it = g()
next(it)
del it
print("after")
"""

EXIT_RAISES = """\
class Guard:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        raise LookupError("exit\\x07\\x9b")

def g():
    with Guard():
        yield 1

it = g()
next(it)
it = None
print("after")
"""

FAILING_STR = """\
class Loud(Exception):
    def __str__(self):
        raise RuntimeError("no")

def g():
    try:
        yield 1
    finally:
        raise Loud()

for x in g():
    break
print("after")
"""

IN_A_LOOP = """\
def g(i):
    try:
        yield i
    finally:
        raise KeyError(i)

total = 0
for i in range(3):
    total += next(g(i))
print("after", total)
"""

CASES = {
    "generator_finally": (GENERATOR_FINALLY, ["5:9: Exception ignored while closing a generator: "
                                              "ValueError: boom\\x1b[31m red\\r"]),
    "exit_raises": (EXIT_RAISES, [
        "6:9: Exception ignored while closing a generator: LookupError: exit\\x07\\x9b"]),
    "failing_str": (FAILING_STR, [
        "9:9: Exception ignored while closing a generator: Loud: <exception str() failed>"]),
    "in_a_loop": (IN_A_LOOP, [f"5:9: Exception ignored while closing a generator: KeyError: {i}"
                              for i in range(3)]),
}  # fmt: skip


def _run(tmp_path: Path, source: str, isolation: str) -> subprocess.CompletedProcess:
    script = tmp_path / "finalizer.py"
    script.write_text(source)
    return subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", str(script)],
        capture_output=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "AUTODIFF_ISOLATION": isolation},
        timeout=60,
    )


@pytest.mark.parametrize("isolation", ["1", "0"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_finalizer_error_is_one_located_line(tmp_path: Path, case: str, isolation: str) -> None:
    source, expected = CASES[case]
    done = _run(tmp_path, source, isolation)
    stderr = done.stderr.decode()
    assert done.returncode == 0, stderr
    assert done.stdout.decode().startswith("after")
    assert "Traceback" not in stderr and "Exception ignored in:" not in stderr
    assert str(REPO) not in stderr and "autodiff_cli" not in stderr
    assert not any((ord(c) < 32 or 0x7F <= ord(c) < 0xA0) and c != "\n" for c in stderr)
    lines = stderr.splitlines()
    assert len(lines) == len(expected), stderr
    for line, tail in zip(lines, expected):
        assert line.startswith(str(tmp_path / "finalizer.py") + ":")
        assert line.endswith(tail), line


def test_the_hook_is_restored_after_the_run() -> None:
    from autodiff_cli.lang import run_source

    before = sys.unraisablehook
    run_source("x = 1\n", "t.py")
    assert sys.unraisablehook is before
