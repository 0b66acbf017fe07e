"""`python -m autodiff_cli.jail FILE...`: each FILE as raw Python (no language layer) in a jailed
child of its own.

The child is the one every script gets: this process warms up as `autodiff run` does, then
`isolation.run_child` forks it and it locks itself down before FILE runs. FILE runs with
`compile` + `exec` in a fresh globals dict whose `__name__` is `"__main__"`, so it may do anything
Python can: that is the point, the jail alone must hold. It gives nothing a user could not do by
running `python` themselves. Besides what `warm_up` imports, the modules a probe needs to reach
the kernel (`PROBE_MODULES`: ctypes, socket, mmap, threading...) are imported before the fork,
since a locked-down child cannot import: a probe then tests the jail, not a failed import.

Limits, flags and messages are those of `autodiff run`: `FILE: error: the script was stopped
after 3 seconds (--timeout 3)`, `FILE: error: the script was killed: it made a system call the jail forbids (SIGSYS)`;
an uncaught exception is one line `FILE: error: Type: message` and exit status 1; `SystemExit`
is honoured; a usage error exits with status 2.

One FILE without `--json` runs in a child of this process, its output streaming. Several FILEs
(or `--json`) run one after another, each from a fresh copy of the warm process (`_run_apart`):
a fork that reads only its own FILE, runs it in its jailed child exactly as one FILE is run, and
exits; so no child holds another FILE's source or output, not even as freed memory (the warm
process itself only ever holds the paths). With `--json`, that copy prints one line for its FILE
(`_write_record`: path, status, stdout, stderr, seconds, peak memory, pid), else the output
streams. The exit status is the first FILE's that was not 0 (0 when all were).
"""

from __future__ import annotations

import argparse
import builtins
import ctypes
import importlib
import json
import os
import resource
import select
import signal
import stat
import sys
import time
from collections.abc import Sequence
from typing import Any

from autodiff_cli.cli.jail.child_guard import kill_children
from autodiff_cli.cli.jail.clean_start import ensure_clean_start
from autodiff_cli.cli.jail.isolation import (
    INTERNAL_ERROR,
    KILL_GRACE,
    LimitError,
    Limits,
    check_limits,
    isolation_available,
    limit_blas_threads,
    parse_size,
    run_child,
)
from autodiff_cli.cli.jail.limits import MAX_TIMEOUT, ScriptTimeout, time_limit, timeout_accepted
from autodiff_cli.cli.jail.probe import JailUnavailable, require_full_jail
from autodiff_cli.cli.jail.warm_up import warm_up
from autodiff_cli.cli.output.diagnostics import exit_on_interrupt
from autodiff_cli.cli.output.output_text import encoding_of, write_json_string
from autodiff_cli.cli.output.terminal import print_error
from autodiff_cli.lang.errors import safe_str

PROG = "python -m autodiff_cli.jail"
MAX_FILE_SIZE = 1 << 20
# seconds a FILE's own process gets past --timeout + KILL_GRACE to reap its child and report
# (child_guard waits 2 s for a killed child) before the warm process kills it
REPORT_GRACE = 10.0
PR_SET_PDEATHSIG = 1
# (encodings.idna: socket's host names, so a probe connecting by name reaches the kernel)
PROBE_MODULES = (
    "ctypes", "encodings.idna", "errno", "mmap", "resource", "select", "signal", "socket",
    "subprocess", "threading", "_thread", "time",
)  # fmt: skip


class UsageError(Exception):
    """A flag or file that cannot be used: one line on stderr, exit status 2."""


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of `python -m autodiff_cli.jail`; exits with the child's status."""
    ensure_clean_start("autodiff_cli.cli.jail.raw:main")  # the environment never reaches FILE
    arguments = list(sys.argv[1:] if argv is None else argv)
    _exit(run(arguments))


def run(arguments: list[str]) -> int:
    """Parse, check each FILE, run them jailed; the exit status."""
    options = _parser().parse_intermixed_args(arguments)  # exits with status 2 on a usage error
    try:
        limits = _limits(options)
        if len(options.files) == 1 and not options.json:
            source = read_file(options.files[0])
            if options.isolation == "strict":
                require_full_jail()
            return run_jailed(options.files[0], source, limits)
        for path in options.files:  # (checked, not read: this process holds no FILE's text)
            check_file(path)
        if options.isolation == "strict":
            require_full_jail()
        return run_apart(options.files, limits, as_json=options.json)
    except (UsageError, JailUnavailable) as error:
        print_error(f"{PROG}: error: {error}")
        return 2
    except KeyboardInterrupt:
        return exit_on_interrupt()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Run each FILE as raw Python (no language layer) inside the jail every "
        "untrusted script gets, in a child of its own, with the limits of `autodiff run`: a "
        "way to check this host.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="the Python files to run")
    parser.add_argument(
        "--timeout", metavar="SECONDS", type=_timeout, help="stop after SECONDS (exit status 1)"
    )
    parser.add_argument(
        "--max-memory", metavar="SIZE", type=_size, help="memory FILE may use (default 2G)"
    )
    parser.add_argument(
        "--max-output", metavar="SIZE", type=_size, help="output FILE may print (default 64M)"
    )
    parser.add_argument(
        "--isolation",
        choices=("strict", "best"),
        default="best",
        help="strict: refuse to run where the full jail is not available (default best)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON line per FILE (path, status, stdout, stderr, seconds, peak_kb, pid)",
    )
    return parser


def _timeout(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not timeout_accepted(value):
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most {MAX_TIMEOUT:g}")
    return value


def _size(text: str) -> int:
    try:
        return parse_size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _limits(options: argparse.Namespace) -> Any:
    if not isolation_available():
        raise UsageError("the jail needs os.fork and AUTODIFF_ISOLATION unset (or 1)")
    return Limits.of(options.max_memory, options.max_output, options.timeout)


def check_file(path: str) -> None:
    """UsageError unless FILE is a regular file of at most 1 MiB this process may read (a FIFO
    or a device is refused, no hang); nothing of it is read."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"not a regular file: {path}")
        if info.st_size > MAX_FILE_SIZE:
            raise UsageError(f"{path} is larger than {MAX_FILE_SIZE} bytes")
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
    except FileNotFoundError:
        raise UsageError(f"file not found: {path}") from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None


def read_file(path: str) -> bytes:
    """FILE's bytes, once `check_file` accepts it."""
    check_file(path)
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_FILE_SIZE + 1)[: MAX_FILE_SIZE + 1]
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None


def _warm() -> None:
    limit_blas_threads()  # before numpy loads: a child cannot start BLAS threads
    warm_up()
    _import_probe_modules()


def run_jailed(name: str, source: bytes, limits: Any) -> int:
    """FILE in one jailed child, its output streaming to ours: the child's exit status, or 1
    with `FILE: error: the script was PROBLEM` when it was killed or crashed."""
    _warm()
    try:
        result = run_child(lambda: run_raw(name, source, limits.timeout), limits)
    except LimitError as error:
        raise UsageError(str(error)) from None
    if result.problem is not None:
        print_error(f"{name}: error: the script was {result.problem}")
    return result.status


# ---- several FILEs: each from a fresh copy of the warm process --------------------------------


def run_apart(paths: Sequence[str], limits: Any, *, as_json: bool) -> int:
    """Each FILE in turn, in its own copy of the warm process (`_run_apart`); the first status
    that is not 0, or 0."""
    _warm()
    try:
        check_limits(limits)
    except LimitError as error:
        raise UsageError(str(error)) from None
    first = 0
    for path in paths:
        status = _run_apart(path, limits, as_json)
        first = first or status
    return first


def _run_apart(path: str, limits: Any, as_json: bool) -> int:
    """Fork a copy of this process for FILE and wait for it, at most its deadline plus
    REPORT_GRACE (then it is killed and FILE reported stopped): FILE's status."""
    _flush()
    started = time.monotonic()
    warm = os.getpid()
    pid = os.fork()
    if pid == 0:
        status = INTERNAL_ERROR
        try:
            _die_with(warm)
            status = _run_one(path, limits, as_json)
        except KeyboardInterrupt:
            status = 130
        except BaseException as error:  # noqa: BLE001 - one line, never a traceback
            print_error(f"{path}: error: its jail process failed: {_type_name(error)}")
        finally:
            _exit(status)
    deadline = None
    if limits.timeout is not None:
        deadline = started + limits.timeout + KILL_GRACE + REPORT_GRACE
    try:
        wait_status = _wait_until(pid, deadline)
    except BaseException:
        _end(pid)
        raise
    if wait_status is not None and os.WIFEXITED(wait_status):
        return os.WEXITSTATUS(wait_status)
    if wait_status is None:
        problem = f"stopped: its jail process did not end (--timeout {limits.timeout:g})"
    else:
        problem = f"killed: its jail process died of {_signal_name(os.WTERMSIG(wait_status))}"
    message = f"{path}: error: the script was {problem}"
    if as_json:
        _write_record(path, 1, b"", (message + "\n").encode(), time.monotonic() - started, 0, pid)
    else:
        print_error(message)
    return 1


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _die_with(parent: int) -> None:
    """In FILE's process: killed when the warm process dies (its jailed child dies with it)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # the warm process died before the line above
        os._exit(1)


def _wait_until(pid: int, deadline: float | None) -> int | None:
    """The wait status of FILE's process, or None when it was killed at `deadline`."""
    exit_fd = None
    try:
        exit_fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pass
    try:
        while True:
            done, wait_status = os.waitpid(pid, os.WNOHANG)
            if done:
                return wait_status
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                _end(pid)
                return None
            if exit_fd is not None:
                select.select([exit_fd], [], [], left)
            else:
                time.sleep(0.05 if left is None else min(0.05, left))
    finally:
        if exit_fd is not None:
            os.close(exit_fd)


def _end(pid: int) -> None:
    """SIGKILL FILE's process (its jailed child dies with it) and reap it."""
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def _run_one(path: str, limits: Any, as_json: bool) -> int:
    """In FILE's own process: read it, run it in its jailed child as one FILE is run, report."""
    try:
        source = read_file(path)
    except UsageError as error:
        message = f"{PROG}: error: {error}\n"
        if as_json:
            _write_record(path, 2, b"", message.encode(), 0.0, 0, os.getpid())
        else:
            print_error(message.rstrip("\n"))
        return 2
    result = run_child(lambda: run_raw(path, source, limits.timeout), limits, stream=not as_json)
    kill_children()  # reap a child finished by its report, so its peak memory is counted
    problem = None if result.problem is None else f"{path}: error: the script was {result.problem}"
    if not as_json:
        if problem is not None:
            print_error(problem)
        return result.status
    stderr = result.stderr + (b"" if problem is None else (problem + "\n").encode())
    peak_kb = max(
        resource.getrusage(who).ru_maxrss
        for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    _write_record(path, result.status, result.stdout, stderr, result.seconds, peak_kb, os.getpid())
    return result.status


def _write_record(
    path: str, status: int, stdout: bytes, stderr: bytes, seconds: float, peak_kb: int, pid: int
) -> None:
    """FILE's `--json` line: its output decoded as it is when streamed, piece by piece; its
    peak memory (KiB resident, of its jail process and its child, as wait4 counts it) and the
    pid of its jail process (for a harness that watches the process tree)."""
    out = sys.stdout
    out.write(f'{{"path": {json.dumps(path)}, "status": {status}, "stdout": ')
    write_json_string(out, stdout, encoding=encoding_of(out))
    out.write(', "stderr": ')
    write_json_string(out, stderr, encoding=encoding_of(sys.stderr))
    out.write(f', "seconds": {round(seconds, 6)}, "peak_kb": {peak_kb}, "pid": {pid}}}\n')
    out.flush()


def _import_probe_modules() -> None:
    for module in PROBE_MODULES:
        importlib.import_module(module)


def run_raw(name: str, source: bytes, timeout: float | None) -> int:
    """In the jailed child: compile and exec FILE; its exit status. An exception is one line on
    stderr; a MemoryError goes up to the child's own out-of-memory report."""
    namespace = {"__name__": "__main__", "__builtins__": builtins, "__file__": name}
    try:
        code = compile(source, name, "exec", dont_inherit=True)
        with time_limit(timeout):
            exec(code, namespace)  # noqa: S102 - raw code in the jail is this tool's purpose
    except SystemExit as exit_:
        return _exit_status(exit_)
    except MemoryError:
        raise
    except ScriptTimeout as error:
        print_error(f"{name}: error: the script was {safe_str(error)}")
        return 1
    except BaseException as error:  # noqa: BLE001 - one line, as an uncaught exception
        print_error(f"{name}: error: {_type_name(error)}: {safe_str(error)}")
        return 1
    finally:
        _flush()
    return 0


def _type_name(error: BaseException) -> str:
    """The class's own name (from the type's slot, never a metaclass property)."""
    return type.__dict__["__name__"].__get__(type(error))


def _exit_status(exit_: SystemExit) -> int:
    """As Python: None is 0, an int its low byte, anything else printed and 1."""
    code = exit_.code
    if code is None:
        return 0
    if type(code) is int:
        return code & 0xFF
    try:
        text = str(code)
    except BaseException:  # noqa: BLE001 - raw code's __str__
        text = "<exit code str() failed>"
    print_error(text)
    return 1


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001,S110 - a closed pipe: nothing more to say
            pass


def _exit(status: int) -> None:
    _flush()
    os._exit(status)
