"""The clean start (`cli/jail/clean_start.py`): no process of autodiff that forks or runs a script holds
a byte of the user's environment. Checked from outside, as root reads any process: while a script
sleeps, every readable page of every process of the run (the clean parent, the process outside
the PID namespace, the jailed script) is searched for the values of canary variables.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autodiff_cli.cli.jail.clean_start import clean_environment, needed

REPO = Path(__file__).resolve().parent.parent
CANARIES = {"AUTODIFF_TEST_SECRET": "sekrit-4b1d9e-value", "API_KEY": "key-77c0e2a9-canary"}
linux_root = pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.geteuid() != 0,
    reason="reading other processes' memory needs root on Linux",
)


def test_the_clean_environment_keeps_only_what_the_engine_and_output_need():
    user = {"LANG": "zh_CN.UTF-8", "TERM": "xterm", "API_KEY": "x", "HOME": "/h", "PATH": "/b"}
    clean = clean_environment(user)
    assert clean == {
        "LANG": "zh_CN.UTF-8",
        "TERM": "xterm",
        "PATH": "/b",  # (the programs the CLI runs, `dot`, are found where the user has them)
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    assert needed(user) and not needed(clean)  # one re-exec, never a loop
    assert not needed({**user, "AUTODIFF_ISOLATION": "0"})  # no jail: nothing to protect
    assert not needed({**user, "_AUTODIFF_COMPLETE": "bash_source"})  # shell completion


def _descendants(pid: int) -> list[int]:
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            try:
                queue += [int(child) for child in task.read_text().split()]
            except OSError:
                pass
    return found


def _memory_holds(pid: int, needles: list[bytes]) -> tuple[int, list[bytes]]:
    """(bytes scanned, needles found) over every readable mapping of the process."""
    scanned, found = 0, set()
    maps = Path(f"/proc/{pid}/maps").read_text().splitlines()
    with open(f"/proc/{pid}/mem", "rb", buffering=0) as memory:
        for line in maps:
            match = re.match(r"([0-9a-f]+)-([0-9a-f]+) (r)", line)
            if not match or "[vvar" in line or "[vsyscall]" in line:
                continue
            start, end = int(match[1], 16), int(match[2], 16)
            try:
                memory.seek(start)
                data = memory.read(end - start)
            except (OSError, ValueError, OverflowError):
                continue
            scanned += len(data)
            found.update(needle for needle in needles if needle in data)
    return scanned, sorted(found)


@linux_root
def test_no_process_of_a_run_holds_the_users_environment(tmp_path: Path):
    marker = tmp_path / "started"
    script = tmp_path / "sleeper.py"
    script.write_text("print('started', flush=True)\nwhile True:\n    pass\n", encoding="utf-8")
    env = {**os.environ, **CANARIES, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "autodiff_cli", "run", "--timeout", "60", str(script)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert process.stdout.readline() == b"started\n"  # the jailed script runs
        marker.write_text("")
        pids = _descendants(process.pid)
        assert len(pids) >= 2  # the clean parent and the jailed script (and, unprivileged, the
        # process left outside its PID namespace)
        environ = Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
        names = {entry.split(b"=")[0].decode() for entry in environ if entry}
        assert not names & set(CANARIES) and "HOME" not in names  # (PATH is passed on: `dot`)
        needles = [value.encode() for value in CANARIES.values()]
        needles += [value.encode("utf-16-le") for value in CANARIES.values()]
        needles += [value.encode("utf-32-le") for value in CANARIES.values()]  # str internals
        for pid in pids:
            scanned, found = _memory_holds(pid, needles)
            assert scanned > 20_000_000, (pid, scanned)  # it really read the process
            assert found == [], (pid, found)
    finally:
        process.kill()
        process.wait(timeout=30)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in pids[1:]) and time.monotonic() < deadline:
        time.sleep(0.05)  # the workers die with the parent (PR_SET_PDEATHSIG)
    assert not [pid for pid in pids[1:] if Path(f"/proc/{pid}").exists()]
