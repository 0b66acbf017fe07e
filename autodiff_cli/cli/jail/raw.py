"""`python -m autodiff_cli.jail FILE`: FILE as raw Python (no language layer) in a jailed child.

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
"""

from __future__ import annotations

import argparse
import builtins
import importlib
import os
import stat
import sys
from collections.abc import Sequence
from typing import Any

from autodiff_cli.cli.jail.clean_start import ensure_clean_start
from autodiff_cli.cli.jail.isolation import (
    LimitError,
    Limits,
    isolation_available,
    limit_blas_threads,
    parse_size,
    run_child,
)
from autodiff_cli.cli.jail.limits import MAX_TIMEOUT, ScriptTimeout, time_limit, timeout_accepted
from autodiff_cli.cli.jail.probe import JailUnavailable, require_full_jail
from autodiff_cli.cli.jail.warm_up import warm_up
from autodiff_cli.cli.output.diagnostics import exit_on_interrupt
from autodiff_cli.cli.output.terminal import print_error
from autodiff_cli.lang.errors import safe_str

PROG = "python -m autodiff_cli.jail"
MAX_FILE_SIZE = 1 << 20
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
    """Parse, read FILE, run it jailed; the exit status."""
    options = _parser().parse_args(arguments)  # exits with status 2 on a usage error
    try:
        limits = _limits(options)
        source = read_file(options.file)
        if options.isolation == "strict":
            require_full_jail()
        return run_jailed(options.file, source, limits)
    except (UsageError, JailUnavailable) as error:
        print_error(f"{PROG}: error: {error}")
        return 2
    except KeyboardInterrupt:
        return exit_on_interrupt()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Run FILE as raw Python (no language layer) inside the jail every "
        "untrusted script gets, with the limits of `autodiff run`: a way to check this host.",
    )
    parser.add_argument("file", metavar="FILE", help="the Python file to run")
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


def read_file(path: str) -> bytes:
    """FILE's bytes: a regular file of at most 1 MiB (a FIFO or a device is refused, no hang)."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"not a regular file: {path}")
        if info.st_size > MAX_FILE_SIZE:
            raise UsageError(f"{path} is larger than {MAX_FILE_SIZE} bytes")
        with open(path, "rb") as handle:
            return handle.read(MAX_FILE_SIZE + 1)[: MAX_FILE_SIZE + 1]
    except FileNotFoundError:
        raise UsageError(f"file not found: {path}") from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None


def run_jailed(name: str, source: bytes, limits: Any) -> int:
    """FILE in one jailed child, its output streaming to ours: the child's exit status, or 1
    with `FILE: error: the script was PROBLEM` when it was killed or crashed."""
    limit_blas_threads()  # before numpy loads: a child cannot start BLAS threads
    warm_up()
    _import_probe_modules()
    try:
        result = run_child(lambda: run_raw(name, source, limits.timeout), limits)
    except LimitError as error:
        raise UsageError(str(error)) from None
    if result.problem is not None:
        print_error(f"{name}: error: the script was {result.problem}")
    return result.status


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
