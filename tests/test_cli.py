"""`autodiff run`, --version and usage errors, run as a user runs them (a subprocess)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_runner import (
    ENTRY,
    MAIN,
    REPO,
    clean_start,
    cli_environment,
    cli_sys_path,
    fast_and_typer,
    takes_fast_path,
)
from cli_runner import autodiff as fresh_autodiff
from cli_runner import warm_autodiff as autodiff  # a fork of a warm CLI: see cli_runner

from autodiff_cli.cli.fast_path import parse_simple


def test_version():
    from autodiff_cli import __version__

    done = fresh_autodiff("--version")  # (its own start: no numpy, no clean start's exec)
    assert done.returncode == 0
    assert done.stdout.strip() == f"autodiff {__version__}"


def test_help_lists_the_commands():
    done = autodiff("--help")
    assert done.returncode == 0
    for command in ("run", "grad", "repl"):
        assert command in done.stdout


def test_unknown_command_and_option_are_usage_errors():
    assert autodiff("frobnicate").returncode == 2
    assert autodiff("run", "--no-such-option", "x.py").returncode == 2
    assert autodiff("run").returncode == 2  # FILE... is required


def test_run_prints_exactly_what_the_script_prints(script):
    path = script(
        "ok.py", "import torch\nx = torch.tensor([1.0, 2.0])\nprint(x * 2)\nprint('done')\n"
    )
    done = autodiff("run", path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "tensor([2., 4.])\ndone\n"


def test_run_reads_stdin_with_dash():
    done = autodiff("run", "-", stdin="print(1 + 2)\n")
    assert (done.returncode, done.stdout, done.stderr) == (0, "3\n", "")


def test_missing_file_is_a_usage_error_and_nothing_runs(script):
    good = script("good.py", "print('ran')\n")
    done = autodiff("run", good, "no_such_file.py")
    assert done.returncode == 2
    assert "no_such_file.py" in done.stderr and "not found" in done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr


def test_syntax_error_is_located_on_stderr(script):
    path = script("bad.py", "x = 1\ny = x +* 2\n")
    done = autodiff("run", path)
    assert done.returncode == 1
    assert done.stdout == ""
    first, source_line, caret, last = done.stderr.splitlines()[:4]
    assert first.startswith(f"{path}:2:")
    assert "y = x +* 2" in source_line
    assert caret.strip() == "^"
    assert last.startswith("SyntaxError: ")
    assert "Traceback" not in done.stderr


def test_runtime_error_keeps_earlier_output_and_goes_to_stderr(script):
    source = "import torch\nprint('before')\nz = torch.ones(2) / 0 + 1 / 0\nprint('after')\n"
    path = script("zero.py", source)
    done = autodiff("run", path)
    assert done.returncode == 1
    assert done.stdout == "before\n"
    assert done.stderr.startswith(f"{path}:3:")
    assert "z = torch.ones(2) / 0 + 1 / 0" in done.stderr
    assert done.stderr.rstrip("\n").endswith("ZeroDivisionError: division by zero")
    assert "Traceback" not in done.stderr


def test_every_file_runs_when_one_fails(script):
    first = script("first.py", "print('first')\n")
    broken = script("broken.py", "print(undefined_name)\n")
    last = script("last.py", "print('last')\n")
    done = autodiff("run", first, broken, last)
    assert done.returncode == 1
    assert done.stdout == "first\nlast\n"
    assert f"{broken}:1:" in done.stderr and "NameError" in done.stderr


def test_each_file_gets_a_fresh_namespace(script):
    define = script("define.py", "shared = 41\nprint(shared + 1)\n")
    use = script("use.py", "print(shared)\n")
    done = autodiff("run", define, use)
    assert done.returncode == 1
    assert done.stdout == "42\n"
    assert "NameError" in done.stderr


def test_debug_shows_the_python_traceback(script):
    path = script("zero.py", "import torch\nx = 1\nx / 0\n")
    plain = autodiff("run", path)
    debug = autodiff("run", "--debug", path)
    assert "Traceback" not in plain.stderr
    assert debug.returncode == 1
    assert debug.stderr.startswith(plain.stderr.rstrip("\n"))
    assert "Traceback (most recent call last)" in debug.stderr
    assert "ZeroDivisionError" in debug.stderr.split("Traceback", 1)[1]


def test_engine_warnings_go_to_stderr_located_once_per_line(script):
    # PyTorch warns (UserWarning) when the .grad of a non-leaf tensor is read, and returns None
    source = (
        "import torch\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "y = x * 2\n"
        "print(y.grad)\n"
        "for i in range(3):\n"
        "    print(y.grad)\n"
    )
    path = script("nonleaf.py", source)
    done = autodiff("run", path)
    assert done.returncode == 0
    assert done.stdout == "None\n" * 4
    warnings = done.stderr.splitlines()
    assert [line.split(" UserWarning: ")[0] for line in warnings] == [f"{path}:4:", f"{path}:6:"]
    assert all("non-leaf" in line for line in warnings)


def _ctrl_c_once_started(path: str, timeout: float = 120) -> tuple[int, str]:
    """`autodiff run PATH`, Ctrl-C once it printed `started`: (exit status, stderr)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "autodiff_cli", "run", path],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_environment(),
    )
    try:
        assert process.stdout.readline() == "started\n"
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=timeout)
    finally:
        process.kill()  # never leave a spinning worker behind a failed assertion
    return process.returncode, stderr


def test_ctrl_c_stops_a_running_script_without_a_traceback(script):
    path = script("forever.py", "print('started', flush=True)\nwhile True:\n    pass\n")
    status, stderr = _ctrl_c_once_started(path)
    assert status == 130
    assert stderr.strip() == "KeyboardInterrupt"


# The CLI's clean process (cli_runner.clean_start) with one more thread, which sends SIGINT to
# itself when a byte arrives on the descriptor argv[3]: the main thread's wait is not interrupted
# (a signal sent to one thread interrupts only that thread's system call).
_CTRL_C_OFF_THE_MAIN_THREAD = """\
import os, signal, sys, threading
sys.path[:] = sys.argv[1].split("\\n")
def deliver():
    os.read(int(sys.argv[3]), 1)
    signal.pthread_kill(threading.get_ident(), signal.SIGINT)
threading.Thread(target=deliver, daemon=True).start()
from autodiff_cli.cli.jail.clean_start import resume
resume(sys.argv[4], sys.argv[2], sys.argv[5:])
"""
_EPOLL_WAITS = {"x86_64": {232, 281, 441}, "aarch64": {22, 441}}  # epoll_wait, _pwait, _pwait2


def _waiting_in_epoll(pid: int) -> bool:
    """Whether the main thread of `pid` sleeps in an epoll wait (`/proc/PID/syscall`)."""
    try:
        number = Path(f"/proc/{pid}/syscall").read_text().split()[0]
    except (OSError, IndexError):
        return False
    return number.isdigit() and int(number) in _EPOLL_WAITS.get(os.uname().machine, ())


def test_ctrl_c_right_after_output_is_never_lost(script):
    """A Ctrl-C landing between the parent's relaying of output and its next wait used to be
    held until the next event: never, for a silent loop (2 runs in 60 hung). Python runs a
    handler between bytecodes; a signal that came just before the wait's system call leaves its
    handler pending while the wait sleeps on. Here that state is made every time: the script's
    output relayed, the parent asleep in its wait, SIGINT goes to another thread of the parent,
    which takes it while the main thread's wait is not interrupted. The parent's wait must wake
    on any signal (`child_guard.signal_wakeup`): without it this run never ends."""
    path = script("quiet.py", "print('started', flush=True)\nwhile True:\n    pass\n")
    start = clean_start()
    trigger_read, trigger_write = os.pipe()
    process = subprocess.Popen(
        start.interpreter("-c", _CTRL_C_OFF_THE_MAIN_THREAD, "\n".join([str(REPO), *cli_sys_path()]),
                          start.settings, str(trigger_read), ENTRY, MAIN, "run", path),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(start.environment),
        pass_fds=[trigger_read],
    )  # fmt: skip
    os.close(trigger_read)
    try:
        assert process.stdout.readline() == "started\n"
        deadline = time.monotonic() + 60
        while not _waiting_in_epoll(process.pid):
            assert time.monotonic() < deadline, "the parent never waited after relaying"
            time.sleep(0.001)
        os.write(trigger_write, b"!")
        _, stderr = process.communicate(timeout=60)
    finally:
        os.close(trigger_write)
        process.kill()  # never leave a spinning worker behind a failed assertion
    assert (process.returncode, stderr.strip()) == (130, "KeyboardInterrupt")


# ---- run: directories, jobs, fail-fast, timeout, json, max-elements -------------------------


@pytest.fixture
def scripts_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "suite"
    (folder / "nested").mkdir(parents=True)
    (folder / "b.py").write_text("print('b')\n", encoding="utf-8")
    (folder / "a.ad").write_text("print('a')\n", encoding="utf-8")
    (folder / "nested" / "c.py").write_text("print('c')\n", encoding="utf-8")
    (folder / "notes.txt").write_text("not a script\n", encoding="utf-8")
    return folder


def test_run_a_directory_runs_its_scripts_sorted(scripts_dir: Path):
    done = autodiff("run", str(scripts_dir))
    assert (done.returncode, done.stderr) == (0, "3 scripts: 3 passed, 0 failed\n")
    assert done.stdout == "a\nb\nc\n"


def test_jobs_run_in_parallel_and_print_in_file_order(scripts_dir: Path):
    slow = scripts_dir / "0slow.py"  # sorts first, finishes last
    slow.write_text("total = 0\nfor i in range(200000):\n    total += i\nprint(total)\n")
    done = autodiff("run", "--jobs", "3", str(scripts_dir))
    assert (done.returncode, done.stderr) == (0, "4 scripts: 4 passed, 0 failed\n")
    assert done.stdout == f"{sum(range(200000))}\na\nb\nc\n"


def test_json_lines_report_every_file(script):
    good = script("good.py", "print('hi')\n")
    bad = script("bad.py", "print(1)\nundefined\n")
    done = autodiff("run", "--json", good, bad)
    assert done.returncode == 1
    import json

    *records, summary = [json.loads(line) for line in done.stdout.splitlines()]
    assert [set(record) for record in records] == [{"path", "ok", "stdout", "error", "seconds"}] * 2
    assert summary == {
        "summary": {"scripts": 2, "passed": 1, "failed": 1, "skipped": 0, "failed_paths": [bad]}
    }
    assert done.stderr == ""
    assert records[0]["path"] == good and records[0]["ok"] is True
    assert records[0]["stdout"] == "hi\n" and records[0]["error"] is None
    assert records[1]["ok"] is False and records[1]["stdout"] == "1\n"
    assert "NameError" in records[1]["error"] and f"{bad}:2:" in records[1]["error"]
    assert all(record["seconds"] >= 0 for record in records)


def test_fail_fast_stops_at_the_first_failure_and_reports_the_rest(script):
    first = script("first.py", "print(nope)\n")
    second = script("second.py", "print('never')\n")
    for extra in ([], ["--jobs", "2"]):
        done = autodiff("run", "--fail-fast", *extra, first, second)
        assert done.returncode == 1
        assert "never" not in done.stdout
        assert f"{second}: skipped" in done.stderr
        last = done.stderr.splitlines()[-1]
        assert last == f"2 scripts: 0 passed, 1 failed ({first}), 1 skipped"


def test_several_scripts_end_with_a_summary_naming_the_failures(script):
    good = script("good.py", "print('hi')\n")
    bad = script("bad.py", "undefined\n")
    worse = script("worse.py", "x = (\n")
    done = autodiff("run", good, bad, worse)
    assert done.returncode == 1
    assert done.stdout == "hi\n"
    last = done.stderr.splitlines()[-1]
    assert last == f"3 scripts: 1 passed, 2 failed ({bad}, {worse})"
    alone = autodiff("run", good)  # one script: no summary
    assert (alone.returncode, alone.stdout, alone.stderr) == (0, "hi\n", "")


def test_run_json_usage_errors_are_one_json_object_on_stdout(script):
    import json

    good = script("good.py", "print('hi')\n")
    missing = autodiff("run", "--json", good, "nothere.py")
    assert (missing.returncode, missing.stderr) == (2, "")
    assert json.loads(missing.stdout) == {
        "error": {
            "type": "UsageError",
            "message": "file not found: nothere.py",
            "file": None,
            "line": None,
            "column": None,
        }
    }
    jobs = autodiff("run", "--json", "--jobs", "0", good)
    assert (jobs.returncode, jobs.stderr) == (2, "")
    assert json.loads(jobs.stdout)["error"]["message"] == (
        "Invalid value for '--jobs' / '-j': 0 is not in the range x>=1."
    )
    plain = autodiff("run", good, "nothere.py")  # without --json: text on stderr
    assert (plain.returncode, plain.stdout) == (2, "")
    assert plain.stderr == "autodiff run: error: file not found: nothere.py\n"


def test_timeout_stops_a_runaway_script_and_the_others_still_run(script):
    forever = script("forever.py", "print('started')\nwhile True:\n    pass\n")
    after = script("after.py", "print('after')\n")
    done = autodiff("run", "--timeout", "1", forever, after)
    assert done.returncode == 1
    assert "after\n" in done.stdout
    assert f"{forever}:2:1: error" in done.stderr and "stopped after 1 second" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_script_killed_inside_one_long_engine_call_is_located(script):
    # three products of 4000x4000 outlast the timeout and its grace: the child is killed; what
    # comes before them takes far less than the 1 s timeout, even on a busy machine
    slow = script(
        "slow.py",
        "import torch\n"
        "def twice(t):\n"
        "    u = t + 0\n"
        "    return u\n"
        "a = torch.ones(4000, 4000)\n"
        "b = twice(a) @ a @ a @ a\n",
    )
    done = autodiff("run", "--timeout", "1", slow)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"{slow}:6:1: error",  # the statement running, not the last one of twice()
        "    b = twice(a) @ a @ a @ a",
        "    ^",
        "ScriptTimeout: stopped after 1 second (--timeout 1)",
    ]


def test_max_elements_refuses_big_tensors(script):
    path = script("big.py", "import torch\nx = torch.zeros(1000)\nprint('made')\n")
    assert autodiff("run", path).stdout == "made\n"
    done = autodiff("run", "--max-elements", "100", path)
    assert done.returncode == 1
    assert "made" not in done.stdout
    assert f"{path}:2:" in done.stderr


def test_empty_directory_is_a_usage_error(tmp_path: Path):
    done = autodiff("run", str(tmp_path))
    assert done.returncode == 2
    assert "no *.py or *.ad scripts" in done.stderr


def test_plain_and_shell_completion_options_exist():
    assert autodiff("--plain", "run", "-", stdin="print(1)\n").stdout == "1\n"
    assert "--install-completion" in autodiff("--help").stdout
    styled = autodiff("grad", "x*x", "--at", "x=2", "--plain", FORCE_COLOR="1")
    assert "\x1b[" not in styled.stdout


def test_settings_of_one_script_do_not_leak_into_the_next(script):
    first = script(
        "first.py",
        "import torch\ntorch.set_printoptions(precision=2)\ntorch.set_grad_enabled(False)\n"
        "torch.set_default_dtype(torch.float64)\nprint(torch.tensor(1/3))\n",
    )
    second = script(
        "second.py", "import torch\nprint(torch.tensor(1/3), torch.is_grad_enabled())\n"
    )
    done = autodiff("run", first, second)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "tensor(0.33)\ntensor(0.3333) True\n"  # float64 is the default there


def test_simple_command_lines_are_the_fast_paths():
    """Simple command lines skip Typer (`cli/fast_path.py`); anything else, or a value the
    command refuses, goes through Typer."""
    line = parse_simple(["run", "a.py", "--json", "-j", "2", "--timeout=3"])
    assert (line.command, line.positional, line.flags) == ("run", ["a.py"], {"--json"})
    assert (line.values["jobs"], line.values["timeout"]) == (["2"], ["3"])
    for fast in (["grad", "x*x", "--at", "x=2", "--json", "-q", "--order", "2"], ["graph", "x"],
                 ["graph", "--file", "a.py", "--var", "y", "-f", "dot"], ["repl", "--debug"], [],
                 ["--plain", "--lang", "zh"], ["--version"], ["run", "a.py", "--lang", "zh"]):  # fmt: skip
        assert takes_fast_path(fast), fast
    for typer_only in (["run"], ["run", "-"], ["run", "--help"], ["run", "a.py", "-j"],
                       ["run", "a.py", "-j", "1", "-j", "2"], ["run", "a.py", "-j", "0"],
                       ["grad", "-", "--at", "x=1"], ["grad", "x", "--help"], ["--help"],
                       ["--plain", "repl"], ["graph", "x", "-f", "gif"], ["repl", "x"],
                       ["repl", "--lang", "fr"], ["repl", "--max-memory", "lots"],
                       ["graph", "x", "--timeout", "nan"], ["kernel", "install"], ["doctor", "x"],
                       ["--version", "run"], ["grad", "x", "-qa", "x=1"]):  # fmt: skip
        assert not takes_fast_path(typer_only), typer_only


AGREEING = [  # (command line, stdin): each runs through the fast path and through Typer
    (["graph", "w*x+b", "--at", "x=2,w=3,b=1", "-f", "dot", "--saved", "--backward"], ""),
    (["graph", "x*2", "--no-hints", "--plain"], ""),  # NameError: status 1
    (["repl", "--max-memory", "1G", "--lang", "zh"], "x = 2\nx * 3\nundefined\n:vars\n"),
    (["--no-hints"], "print(1)\n1/0\nundefined\n"),  # `autodiff` alone: the REPL
    (["--version"], ""),
    (["grad", "x**3", "--at", "x=2", "-q", "--order", "2", "--timeout", "30", "--lang=zh"], ""),
    (["grad", "x*w", "--at", "x=2,w=3", "--wrt", "w", "--json", "--max-memory=1G"], ""),
]


@pytest.mark.parametrize("args, stdin", AGREEING)
def test_fast_path_and_typer_agree(args: list[str], stdin: str):
    fast, slow = fast_and_typer(*args, stdin=stdin)
    assert (fast.returncode, fast.stdout, fast.stderr) == (
        slow.returncode,
        slow.stdout,
        slow.stderr,
    )


def test_run_fast_path_and_typer_agree(script):
    """`run`'s reports, compared but for their times; refused values go through Typer."""
    good = script("good.py", "print(1 + 1)\n")
    bad = script("bad.py", "x = 1\nundefined\n")
    fast, slow = fast_and_typer("run", "--json", "--max-memory", "1G", good, bad)
    assert fast.returncode == slow.returncode == 1
    strip = [{k: v for k, v in json.loads(line).items() if k != "seconds"}
             for line in fast.stdout.splitlines()]  # fmt: skip
    assert strip == [{k: v for k, v in json.loads(line).items() if k != "seconds"}
                     for line in slow.stdout.splitlines()]  # fmt: skip
    for value in (["--jobs", "0"], ["--timeout", "nan"], ["--max-memory", "lots"]):
        refused = autodiff("run", *value, good)
        assert refused.returncode == 2 and "autodiff run: error:" in refused.stderr, value
        assert "Traceback" not in refused.stderr
