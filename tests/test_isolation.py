"""The OS layer (`autodiff_cli.cli.jail.isolation`): what a locked-down child can and cannot do, and
how the parent reports its end. Work functions here are plain Python, as if an escape from the
language had succeeded: the OS limits must hold on their own. Then the commands as a user runs
them (subprocess): batch isolation, --jobs, crashes, input validation, the in-process fallback.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import platform
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import cli_runner
import other_user
import pytest

from autodiff_cli.cli.jail import child_session, isolation
from autodiff_cli.cli.jail.isolation import Limits, format_size, parse_size, run_child, run_children

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the OS layer needs fork")
REPO = Path(__file__).resolve().parent.parent
CANARY = "canary-7f3a9c-secret"


def child(work, **limits) -> isolation.ChildResult:
    return run_child(work, Limits(**limits), stream=False)


def said(text: str):
    """A work that prints `text` and succeeds."""

    def work() -> int:
        print(text)
        return 0

    return work


# ---- the primitive --------------------------------------------------------------------------


def test_exit_status_and_output_come_back():
    result = child(said("hello"))
    assert (result.status, result.stdout, result.stderr, result.problem) == (
        0,
        b"hello\n",
        b"",
        None,
    )

    def fails() -> int:
        print("bad", file=sys.stderr)
        return 1

    result = child(fails)
    assert (result.status, result.stderr, result.problem) == (1, b"bad\n", None)


def test_no_file_can_be_created_or_written(tmp_path: Path):
    target = tmp_path / "pwned.txt"
    existing = tmp_path / "existing.txt"
    existing.write_text("")
    os.chmod(tmp_path, 0o777)  # even a folder anyone may write to

    def attack() -> int:
        refusals = []
        for attempt in (
            lambda: open(target, "w"),
            lambda: os.open(str(target), os.O_CREAT | os.O_WRONLY),
            lambda: open(existing, "a"),
            lambda: os.mkdir(str(tmp_path / "dir")),
            lambda: os.dup(1),
            lambda: os.pipe(),
        ):
            try:
                attempt()
            except OSError as error:
                refusals.append(error.errno)
        print(len(refusals))
        return 0

    result = child(attack)
    assert result.stdout == b"6\n", result.stderr
    assert sorted(os.listdir(tmp_path)) == ["existing.txt"]
    assert existing.read_text() == ""


def test_no_new_process_or_thread():
    def attack() -> int:
        import threading

        try:
            pid = os.fork()
        except OSError:
            print("no fork")
        else:
            if pid == 0:
                os._exit(0)
            print("forked")
        try:
            threading.Thread(target=lambda: None).start()
        except RuntimeError:
            print("no thread")
        return 0

    assert child(attack).stdout == b"no fork\nno thread\n"


@pytest.mark.skipif(
    platform.machine() not in ("x86_64", "aarch64"), reason="the system-call filter's machines"
)
def test_no_signal_to_another_process_and_no_other_program():
    def attack() -> int:
        refused = []
        for attempt in (
            lambda: os.execv("/bin/true", ["true"]),
            lambda: os.kill(os.getppid(), 0),
            lambda: os.kill(-1, 0),
            lambda: os.kill(0, 0),
        ):
            try:
                attempt()
            except PermissionError:
                refused.append(True)
        os.kill(os.getpid(), 0)  # itself: allowed
        print(len(refused))
        return 0

    assert child(attack).stdout == b"4\n"


def test_the_child_runs_unprivileged_in_the_root_folder():
    def where() -> int:
        print(os.getcwd(), os.geteuid() != 0 or os.getuid() != 0)
        return 0

    assert child(where).stdout == b"/ True\n"


def test_the_environment_is_scrubbed(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("AUTODIFF_CANARY", CANARY)
    monkeypatch.setenv("TERM", "xterm")

    def dump() -> int:
        import posix

        print(sorted(os.environ), os.environ.get("AUTODIFF_CANARY"))
        print(CANARY.encode() in b"".join(key + value for key, value in posix.environ.items()))
        return 0

    result = child(dump)
    assert CANARY.encode() not in result.stdout
    assert result.stdout.decode().splitlines()[1] == "False"
    assert "'TERM'" in result.stdout.decode() and "None" in result.stdout.decode()


def test_memory_is_limited():
    def hog() -> int:
        try:
            blocks = [bytearray(64 << 20) for _ in range(100)]  # 6.4 GB
        except MemoryError:
            print("MemoryError")
            return 1
        print(len(blocks))
        return 0

    # The limit counts what this process maps already (the whole suite's modules: over 512 MiB).
    result = child(hog, memory=(isolation._mapped_size() >> 20) + 512 << 20)
    assert (result.status, result.stdout) == (1, b"MemoryError\n")


def test_memory_error_past_the_work_is_reported_as_out_of_memory():
    def hog() -> int:
        return len(bytearray(8 << 30))

    # The limit counts what this process maps already (the test runner's modules too).
    limit = (isolation._mapped_size() >> 20) + 512 << 20
    result = child(hog, memory=limit)
    assert result.status == 1
    assert result.problem == (
        f"killed: out of memory (limit {isolation.format_size(limit)}, --max-memory)"
    )


def test_a_crash_is_one_clean_problem():
    def crash() -> int:
        import ctypes

        ctypes.string_at(0)  # a real fault: a jailed PID 1 ignores signals it sends itself
        return 0

    result = child(crash)
    assert (result.status, result.problem) == (1, "killed by signal SIGSEGV (a crash)")


def test_a_base_exception_out_of_the_work_is_one_line():
    def escape() -> int:
        raise KeyboardInterrupt

    result = child(escape)
    assert result.status == 1 and result.problem == "stopped: its process failed"
    assert (
        result.stderr
        == b"error: the child process failed: KeyboardInterrupt: KeyboardInterrupt()\n"
    )


def test_the_parent_kills_a_child_past_its_deadline():
    """A child that ignores its own timer (SIGALRM) is killed by the parent at the deadline. It
    sleeps rather than spins (1.5 s of CPU less): the parent's deadline is the same for both; a
    busy child killed by the parent is `test_grad_and_graph_report_a_killed_child` and the
    hostile corpus's os_matmul_deadline and os_sort_deadline (long engine calls)."""

    def stuck() -> int:
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            time.sleep(60)

    start = time.monotonic()
    result = child(stuck, timeout=0.5)
    assert time.monotonic() - start < 0.5 + isolation.KILL_GRACE + 1.5
    assert (result.status, result.problem) == (1, "stopped after 0.5 seconds (--timeout 0.5)")


def test_output_is_limited_and_the_flood_stopped():
    def flood() -> int:
        while True:
            sys.stdout.write("x" * 100_000)

    result = child(flood, output=1 << 20)
    assert result.problem == "stopped: its output passed 1 MiB (--max-output)"
    assert len(result.stdout) <= 1 << 20


def test_a_lone_surrogate_is_replaced_not_fatal():
    result = child(said("a" + chr(0xD800) + "b"))
    assert (result.status, result.stdout) == (0, b"a?b\n")


def test_finalizers_do_not_run_after_the_work():
    def leave_garbage() -> int:
        class Loop:
            def __del__(self) -> None:
                while True:
                    pass

        node = Loop()
        node.cycle = node
        print("done")
        return 0

    start = time.monotonic()
    assert child(leave_garbage).stdout == b"done\n"
    assert time.monotonic() - start < 5


def test_jobs_run_at_once_and_results_keep_their_order():
    def sleeper(text: str):
        def work() -> int:
            time.sleep(0.5)
            print(text)
            return 0

        return work

    start = time.monotonic()
    results = run_children([sleeper(str(i)) for i in range(4)], Limits(), jobs=4)
    assert time.monotonic() - start < 1.6
    assert [result.stdout for result in results] == [b"0\n", b"1\n", b"2\n", b"3\n"]


def test_on_done_false_starts_no_more_children():
    seen = []

    def done(index: int, result: isolation.ChildResult) -> bool:
        seen.append(index)
        return False

    results = run_children([said("a"), said("b")], Limits(), on_done=done)
    assert seen == [0] and len(results) == 1


@pytest.mark.parametrize(
    ("text", "size"),
    [("512M", 512 << 20), ("2G", 2 << 30), ("64MB", 64 << 20), ("1.5GiB", 3 << 29), ("100", 100)],
)
def test_sizes(text: str, size: int):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "12Q", "-1G", "0", "G"])
def test_bad_sizes(text: str):
    with pytest.raises(ValueError):
        parse_size(text)


def test_format_size():
    assert (format_size(2 << 30), format_size(64 << 20), format_size(1500)) == (
        "2 GiB",
        "64 MiB",
        "1.465 KiB",
    )


# ---- the commands, as a user runs them --------------------------------------------------------


autodiff = functools.partial(cli_runner.autodiff, AUTODIFF_CANARY=CANARY)


def test_engine_state_of_one_script_does_not_reach_the_next(script):
    first = script(
        "a.py",
        "import torch\nclass C:\n    def __del__(self):\n        torch.set_grad_enabled(False)\n"
        "c = C()\nc.me = c\ntorch.set_default_dtype(torch.float64)\n",
    )
    second = script("b.py", "import torch\nprint(torch.is_grad_enabled(), torch.ones(1).dtype)\n")
    for jobs in ("1", "2"):
        done = autodiff("run", "--jobs", jobs, first, second)
        assert (done.returncode, done.stdout) == (0, "True torch.float32\n"), done.stderr


def test_a_killed_script_is_reported_and_the_batch_goes_on(script):
    hog = script("hog.py", "x = ['x' * 10**6 for i in range(1000)]\nprint('no')\n")
    after = script("after.py", "print('after')\n")
    for jobs in ("1", "2"):
        done = autodiff("run", "--jobs", jobs, "--max-memory", "300M", hog, after)
        assert done.returncode == 1
        assert done.stdout == "after\n"
        assert "MemoryError" in done.stderr or "out of memory (limit 300 MiB" in done.stderr
        assert "Traceback" not in done.stderr


def test_a_timeout_stops_a_long_engine_call(script):
    slow = script(
        "slow.py", "import torch\na = torch.ones(3000, 3000)\nwhile True:\n    b = a @ a\n"
    )
    start = time.monotonic()
    done = autodiff("run", "--timeout", "1", slow)
    assert time.monotonic() - start < 20  # the script never ends by itself
    assert done.returncode == 1
    assert "stopped after 1 second (--timeout 1)" in done.stderr


def test_output_flood_under_json_is_limited(script):
    flood = script("flood.py", "s = 'x' * 100000\nwhile True:\n    print(s)\n")
    done = autodiff("run", "--json", "--max-output", "1M", flood)
    assert done.returncode == 1
    record = json.loads(done.stdout)
    assert record["ok"] is False and len(record["stdout"]) <= 1 << 20
    assert record["error"].endswith(
        f"{flood}: error: the script was stopped: its output passed 1 MiB (--max-output)\n"
    )


def test_a_lone_surrogate_does_not_crash_the_parent(script):
    first = script("s.py", "print('a' + chr(0xd800))\n")
    second = script("t.py", "print('next')\n")
    for extra in ([], ["--json"], ["--jobs", "2"]):
        done = autodiff("run", *extra, first, second)
        assert done.returncode == 0, done.stderr
        assert "a?" in done.stdout and "next" in done.stdout


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "1e300", "-inf"])
def test_timeout_must_be_finite_and_positive(value: str, script):
    path = script("ok.py", "print(1)\n")
    for command in (["run", path], ["grad", "x*x", "--at", "x=1"], ["graph", "x*x", "--at", "x=1"]):
        done = autodiff(*command, f"--timeout={value}")
        assert done.returncode == 2, (command, done.stderr)
        assert "--timeout" in done.stderr and "Traceback" not in done.stderr


def test_scripts_must_be_small_regular_files(tmp_path: Path, script):
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    done = autodiff("run", str(fifo))
    assert (done.returncode, done.stderr) == (
        2,
        f"autodiff run: error: not a regular file: {fifo}\n",
    )
    assert autodiff("run", "/dev/zero").returncode == 2
    big = script("big.py", "x = 1\n" * 100)
    done = autodiff("run", "--max-script-size", "100", big)
    assert done.returncode == 2
    assert "is larger than 100 bytes (--max-script-size)" in done.stderr
    assert autodiff("run", "--max-script-size", "1K", big).returncode == 0
    done = autodiff("run", "--max-script-size", "100", "-", stdin="x = 1\n" * 100)
    assert done.returncode == 2


def test_a_tiny_element_cap_holds_in_a_batch_and_spares_the_warm_up(script):
    """The parent warms up (imports, and a sample script before many children) with its own
    samples, above `--max-elements`; each script is still held to it."""
    small = [script(f"s{i}.py", f"print({i})\n") for i in range(5)]
    big = script("big.py", "import torch\nprint(torch.ones(3))\n")
    done = autodiff("run", "--max-elements", "2", *small, big)
    assert done.returncode == 1, done.stderr
    assert done.stdout.split() == ["0", "1", "2", "3", "4"]
    assert "with 3 elements: more than the limit of 2 elements" in done.stderr
    assert "Traceback" not in done.stderr


def test_symlinks_out_of_a_batch_folder_are_skipped(tmp_path: Path):
    folder = tmp_path / "batch"
    folder.mkdir()
    (folder / "a.py").write_text("print('a')\n")
    (folder / "b.py").symlink_to("/proc/self/environ")
    (folder / "c.py").symlink_to(folder / "a.py")  # inside: runs
    done = autodiff("run", str(folder))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "a\na\n"
    assert (
        done.stderr
        == f"autodiff run: skipped {folder / 'b.py'}: a symbolic link to outside {folder}\n"
        "2 scripts: 2 passed, 0 failed\n"
    )
    named = autodiff("run", str(folder / "b.py"))  # named directly: the user's own choice
    assert named.returncode == 1 and "SyntaxError" in named.stderr


def test_grad_and_graph_run_in_the_child(tmp_path: Path):
    done = autodiff("grad", "x.sum()", "--at", "x=ones(10**8)", "--max-memory", "200M")
    assert done.returncode == 1
    assert "MemoryError" in done.stderr or "out of memory" in done.stderr
    script = tmp_path / "g.py"
    script.write_text("import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\n")
    done = autodiff(
        "graph", "--file", str(script), "--var", "y", "-f", "dot", "-o", "out.dot", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.dot").read_text().startswith("digraph")


def test_in_process_fallback_still_runs_scripts(script):
    path = script("p.py", "print('in process')\nx = 1 / 0\n")
    for extra in ([], ["--json"], ["--timeout", "5"]):
        done = autodiff("run", *extra, path, AUTODIFF_ISOLATION="0")
        assert done.returncode == 1
        assert "in process" in done.stdout and "ZeroDivisionError" in (done.stdout + done.stderr)
    done = autodiff("grad", "x*x", "--at", "x=3", AUTODIFF_ISOLATION="0")
    assert done.returncode == 0 and "x.grad: tensor(6.)" in done.stdout
    done = autodiff("repl", stdin="y = 21\ny * 2\n", AUTODIFF_ISOLATION="0")
    assert (done.returncode, done.stdout) == (0, "42\n")


def test_a_timeout_while_parsing_is_a_clean_error(tmp_path: Path):
    path = tmp_path / "long.py"
    path.write_text("x = [" + "(1 + 2) * 3, " * 60_000 + "]\n")  # ~800 KB to parse
    done = autodiff("run", "--timeout", "0.05", str(path))
    assert done.returncode == 1
    assert "stopped after 0.05 seconds (--timeout 0.05)" in done.stderr
    assert "Traceback" not in done.stderr


def test_grad_and_graph_report_a_killed_child(script):
    done = autodiff(
        "grad", "s = 'x' * 10**6\nwhile True:\n    print(s)\nx", "--at", "x=1", "--max-output", "1M"
    )
    assert done.returncode == 1
    assert done.stderr.endswith(
        "autodiff grad: error: the expression was stopped: its output passed 1 MiB (--max-output)\n"
    )
    slow = script("slow.py", "import torch\na = torch.ones(4000, 4000)\nb = a @ a @ a @ a\ny = b\n")
    done = autodiff("graph", "--file", slow, "--var", "y", "--timeout", "0.5")
    assert done.returncode == 1
    assert "stopped after 0.5 seconds (--timeout 0.5)" in done.stderr


# ---- the REPL: its namespace lives in a child -------------------------------------------------


def test_repl_session_runs_in_a_child_and_completes_from_it(capsys: pytest.CaptureFixture):
    from autodiff_cli.cli.repl.session import RemoteSession

    session = RemoteSession()
    try:
        assert session.execute("weights = torch.ones(2, requires_grad=True)\n")
        assert session.execute("import torch\nprint(torch.is_grad_enabled())\n")
        assert session.complete("wei") == ("wei", ["weights"])
        assert session.complete("weights.backw") == ("backw", ["backward"])
        assert session.execute("torch.set_grad_enabled(False)\n")
        assert not session.execute("print(undefined_name)\n")
    finally:
        session.close()
    import autodiff_cli.engine as torch

    assert torch.is_grad_enabled()  # the session's settings stayed in its process
    captured = capsys.readouterr()
    assert captured.out.startswith("True\n")
    assert "NameError" in captured.err


def _piped_repl(prefix: Sequence[str] = ()) -> subprocess.Popen:
    """`autodiff repl` with piped input; `prefix` runs it as another user (`other_user`)."""
    environment = cli_runner.cli_environment()
    return subprocess.Popen(
        [*prefix, sys.executable, "-m", "autodiff_cli", "repl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        cwd="/tmp" if prefix else None,  # (a folder any user may enter)
    )


def _interrupt_when_ready(process: subprocess.Popen, statements: str) -> None:
    """Send the statements, wait for the `ready` line that the long-running statement itself
    prints (so it is running, not waiting to be read), then Ctrl-C."""
    process.stdin.write(statements)
    process.stdin.flush()
    assert process.stdout.readline() == "ready\n"
    process.send_signal(signal.SIGINT)


def test_repl_ctrl_c_stops_a_loop_and_the_session_goes_on():
    process = _piped_repl()
    try:
        loop = (
            "kept = 42\nstarted = False\nwhile True:\n"
            "    if not started: print('ready', flush=True); started = True\n\n"
        )
        _interrupt_when_ready(process, loop)
        out, err = process.communicate("print(kept)\n", timeout=120)
    finally:
        process.kill()
    assert "KeyboardInterrupt" in err and "Traceback" not in err
    assert out == "42\n"


def test_repl_ctrl_c_keeps_the_session_when_the_child_waits_for_a_core():
    """On a loaded machine a child may get no CPU for a while after Ctrl-C: no reason to kill
    it and lose its variables. Its second of grace is its own CPU time: stopped (SIGSTOP) for
    2.5 s of wall time around the Ctrl-C, it then stops at once and the session goes on."""
    process = _piped_repl()
    stopped: list[int] = []
    try:
        loop = (  # `ready` from inside the loop: the child is in it, not between statements
            "kept = 42\nstarted = False\nwhile True:\n"
            "    if not started: print('ready', flush=True); started = True\n\n"
        )
        process.stdin.write(loop)
        process.stdin.flush()
        assert process.stdout.readline() == "ready\n"
        stopped = child_session.live_children(process.pid)
        assert stopped, "the session's child was not found"
        for pid in stopped:
            os.kill(pid, signal.SIGSTOP)
        process.send_signal(signal.SIGINT)
        time.sleep(2.5)  # a child starved of CPU (the point of the test, not a wait for an event)
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):  # (killed: the assertions say so)
                os.kill(pid, signal.SIGCONT)
        out, err = process.communicate("print(kept)\n", timeout=120)
    finally:
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
        process.kill()
    assert "could not be interrupted" not in err
    assert "KeyboardInterrupt" in err and "Traceback" not in err
    assert out == "42\n"


def test_an_unprivileged_users_session_gives_up_on_a_long_engine_call_in_about_a_second():
    """Without root the script runs in the jailed child's own child (the child forks once more
    into its PID namespace): the second of CPU time after Ctrl-C is counted there too, so a long
    engine call is given up in about a second, not at the 10-second wall-clock limit."""
    problem = other_user.drop_problem()
    if problem is not None:
        pytest.skip(problem)
    # (a product of ~15 s of CPU: longer than the wall-clock limit)
    seconds, out, err = _interrupt_a_long_product(_piped_repl(other_user.nobody_prefix()), 9000)
    assert "could not be interrupted within 1 second; its variables are lost" in err
    assert "alive\n" in out and "42" not in out
    assert seconds < 8  # (10 s and more when the grandchild's CPU is not seen)


def _interrupt_a_long_product(process: subprocess.Popen, size: int) -> tuple[float, str, str]:
    """In the session: `kept = 42`, then a size x size product, interrupted once it runs; then
    `print('alive')` and `print(kept)`. (Seconds from the Ctrl-C to the session's end, stdout,
    stderr.)"""
    statements = (
        f"kept = 42\nimport torch\na = torch.ones({size}, {size})\n"
        "print('ready', flush=True); b = a @ a\n"
    )
    try:
        process.stdin.write(statements)
        process.stdin.flush()
        assert process.stdout.readline() == "ready\n"
        _until_it_computes(process.pid)  # the product, not a preemption right after `ready`
        process.send_signal(signal.SIGINT)
        start = time.monotonic()
        process.stdin.write("print('alive')\n")
        process.stdin.flush()
        out, err = process.communicate("print(kept)\n", timeout=120)
    finally:
        process.kill()
    return time.monotonic() - start, out, err


def _until_it_computes(pid: int, seconds: float = 0.1) -> None:
    """Wait until the REPL `pid` and its session's processes have used `seconds` more CPU time:
    the statement after `ready` is running. (Where /proc cannot tell, 0.5 s of wall time.)"""
    before = child_session.cpu_seconds(pid)
    deadline = time.monotonic() + 60
    while before is not None and time.monotonic() < deadline:
        now = child_session.cpu_seconds(pid)
        if now is None or now - before >= seconds:
            return
        time.sleep(0.02)
    time.sleep(0.5)


def test_cpu_seconds_reads_a_process_cpu_time():
    before = child_session.cpu_seconds(os.getpid())
    end = time.process_time() + 0.3
    while time.process_time() < end:
        pass
    after = child_session.cpu_seconds(os.getpid())
    assert before is not None and after is not None and after - before >= 0.2
    assert child_session.cpu_seconds(2**22 + 12345) is None  # no such process


def test_repl_ctrl_c_in_a_long_engine_call_restarts_the_session_within_a_second():
    seconds, out, err = _interrupt_a_long_product(_piped_repl(), 7000)
    assert seconds < 30  # 1 s to give up, then a new session (slow under load)
    assert "could not be interrupted within 1 second; its variables are lost" in err
    assert "alive\n" in out and "42" not in out
    assert "NameError: name 'kept' is not defined" in err
    assert "Traceback" not in err


def test_output_printed_before_a_kill_still_shows(script):
    slow = script(
        "slow.py",
        "import torch\nprint('start')\na = torch.ones(3000, 3000)\n"
        "for i in range(1000):\n    b = a @ a\n",
    )
    result = autodiff("run", "--timeout", "0.5", slow)
    assert result.returncode == 1
    assert result.stdout == "start\n"
    assert "ScriptTimeout: stopped after 0.5 seconds" in result.stderr
