"""Running the CLI as a user runs it: `python -m autodiff_cli ARGS` in a subprocess, on this
checkout, stdin a pipe (never a terminal). One place for the tests' `autodiff(...)` helper, and
for reading `autodiff run --json`'s per-script lines: suites of many scripts (conformance, the
hostile corpus) run them in batches, each script still in its own fresh locked-down child
exactly as `autodiff run one.py` runs it, one `autodiff` process per batch instead of per
script (its start-up, ~0.5 s, was most of each case's time).
"""

from __future__ import annotations

import atexit
import errno
import functools
import json
import locale
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
COLOUR_SWITCHES = ("NO_COLOR", "FORCE_COLOR")
LOCALE_VARIABLES = ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES")


def cli_environment(lang: str | None = None, **env: str) -> dict[str, str]:
    """Our environment without the colour switches, the checkout importable, `env` on top;
    with `lang`, that locale alone (`LANG=lang`, no LANGUAGE/LC_ALL/LC_MESSAGES of ours)."""
    drop = COLOUR_SWITCHES + (LOCALE_VARIABLES if lang is not None else ())
    environment = {k: v for k, v in os.environ.items() if k not in drop}
    environment["PYTHONPATH"] = str(REPO)
    if lang is not None:
        environment["LANG"] = lang
    environment.update(env)
    return environment


def autodiff(
    *args: str,
    stdin: str = "",
    cwd: Path | str | None = None,
    timeout: float = 120,
    lang: str | None = None,
    **env: str,
) -> subprocess.CompletedProcess[str]:
    """`autodiff ARGS` with `stdin` piped in, in `cwd` (the checkout by default), in the locale
    `lang` if given; keyword arguments are environment variables (`AUTODIFF_ISOLATION="0"`)."""
    return subprocess.run(
        [sys.executable, "-m", "autodiff_cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        errors="replace",
        cwd=cwd or REPO,
        env=cli_environment(lang, **env),
        timeout=timeout,
    )


MAIN = str(REPO / "autodiff_cli" / "__main__.py")  # `sys.argv[0]` of `python -m autodiff_cli`
ENTRY = "autodiff_cli.cli.app:main"  # what that process resumes after its clean start


@dataclass(frozen=True)
class CleanStart:
    """What `autodiff ARGS` becomes after its clean start (`cli/jail/clean_start.py`): an
    interpreter run as `python -I -S` with this environment (the locale, the look of the
    output, one BLAS thread...), resuming `ENTRY` with these `settings` (HOME, XDG_STATE_HOME)
    and `sys.path` (that of `python -m autodiff_cli`: its working directory first)."""

    environment: tuple[tuple[str, str], ...]
    settings: str

    def interpreter(self, *args: str) -> list[str]:
        """The command line of such an interpreter running `args` (`-c CODE ...`, a file)."""
        return [sys.executable, "-I", "-S", *args]


def clean_start(lang: str | None = None, **env: str) -> CleanStart | None:
    """The clean process `autodiff` started with `cli_environment(lang, **env)` becomes; None
    when it does not start again (`AUTODIFF_ISOLATION=0`: it runs on in its environment)."""
    from autodiff_cli.cli.jail import clean_start as start

    environment = cli_environment(lang, **env)
    if not start.needed(environment):
        return None
    settings = "\n".join(f"{name}={environment[name]}" for name in start.CARRIED
                         if name in environment)  # fmt: skip
    return CleanStart(tuple(sorted(start.clean_environment(environment).items())), settings)


@functools.cache
def cli_sys_path() -> tuple[str, ...]:
    """`sys.path` of `python -m autodiff_cli` but its first entry (the working directory)."""
    probe = [sys.executable, "-c", "import sys; print('\\n'.join(sys.path[1:]))"]
    done = subprocess.run(probe, capture_output=True, text=True, env=cli_environment(), check=True)
    return tuple(done.stdout.splitlines())


FORK_SERVER = Path(__file__).resolve().parent / "cli_fork_server.py"
FORK_CLIENT = FORK_SERVER.with_name("cli_fork_client.py")
_SERVERS: dict[tuple[tuple[str, str], ...], ForkServer] = {}
SERVERS_KEPT = 8  # at most this many environments' servers live at once (each holds numpy, ~35 MB)


def warm_autodiff(
    *args: str,
    stdin: str = "",
    cwd: Path | str | None = None,
    timeout: float = 120,
    lang: str | None = None,
    **env: str,
) -> subprocess.CompletedProcess[str]:
    """`autodiff(...)` for a test of what a command does, not of how a process starts: the
    command runs in a child forked from a process that made the CLI's clean start in the same
    environment and loaded numpy (`cli_fork_server.py`), with its own pipes as stdin, stdout and
    stderr, in `cwd`. Its exit status and output are those of `autodiff ARGS`; it costs a
    fork instead of two interpreters' start and numpy's import (~0.1 CPU-second). Without a
    clean start (`AUTODIFF_ISOLATION="0"`) it is `autodiff(...)`."""
    start = clean_start(lang, **env)
    if start is None:
        return autodiff(*args, stdin=stdin, cwd=cwd, timeout=timeout, lang=lang, **env)
    key = start.environment
    server = _SERVERS.pop(key, None) or ForkServer(start)
    _SERVERS[key] = server  # (the most recently used last)
    while len(_SERVERS) > SERVERS_KEPT:
        _SERVERS.pop(next(iter(_SERVERS))).close()
    try:
        return server.run(list(args), stdin, Path(cwd or REPO), timeout, start.settings)
    except BaseException as error:
        if not isinstance(error, subprocess.TimeoutExpired):  # its exchange was cut short
            _SERVERS.pop(key).kill()
        raise


@atexit.register
def _close_servers() -> None:
    """Each server ends, and is waited for: its CPU time then counts in ours (`time pytest`)."""
    while _SERVERS:
        _SERVERS.popitem()[1].close()


class ForkServer:
    """One `cli_fork_server.py` process, driven over a socket (its docstring: the protocol)."""

    def __init__(self, start: CleanStart, listener: socket.socket | None = None) -> None:
        """With `listener` (a bound SOCK_SEQPACKET socket), it serves `cli_fork_client.py`s."""
        self.control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        given = [theirs.fileno()] + ([listener.fileno()] if listener is not None else [])
        self.process = subprocess.Popen(
            start.interpreter(str(FORK_SERVER), "\n".join(cli_sys_path()), *map(str, given)),
            stdin=subprocess.PIPE,  # (its own streams are pipes, as a command's are)
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(start.environment),
            pass_fds=given,
        )
        theirs.close()
        self.running: int | None = None  # the pid of the command running

    def run(
        self, args: list[str], stdin: str, cwd: Path, timeout: float, settings: str
    ) -> subprocess.CompletedProcess[str]:
        """`autodiff ARGS` in a child of the server (`warm_autodiff`)."""
        if not cwd.is_dir():  # as `subprocess` says it
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(cwd))
        request = {"argv": [MAIN, *args], "cwd": str(cwd), "settings": settings,
                   "path": [str(cwd), *cli_sys_path()]}  # fmt: skip
        (stdin_read, stdin_write), (out_read, out_write), (err_read, err_write) = (
            os.pipe(), os.pipe(), os.pipe())  # fmt: skip
        ours, theirs = (stdin_write, out_read, err_read), (stdin_read, out_write, err_write)
        socket.send_fds(self.control, [json.dumps(request).encode()], list(theirs))
        for fd in theirs:
            os.close(fd)
        pid = self.running = self._reply("pid")
        encoding = locale.getpreferredencoding(False)
        output, timed_out = _exchange(ours, stdin.encode(encoding, "replace"), timeout, pid)
        status = self._reply("status")
        self.running = None
        text = [_text(data, encoding) for data in output]
        command = [sys.executable, "-m", "autodiff_cli", *args]
        if timed_out:
            raise subprocess.TimeoutExpired(command, timeout, text[0], text[1])
        return subprocess.CompletedProcess(command, status, text[0], text[1])

    def _reply(self, key: str) -> int:
        message = self.control.recv(1 << 16)
        if not message:
            self.process.kill()
            _, errors = self.process.communicate()
            raise RuntimeError(f"the fork server ended: {errors.decode(errors='replace')}")
        return json.loads(message)[key]

    def close(self) -> None:
        """End the server (it ends when its socket closes)."""
        self.control.close()
        self.process.communicate()

    def kill(self) -> None:
        """End the server now, with any command it runs (left in an unknown state)."""
        if self.running is not None:
            os.kill(self.running, signal.SIGKILL)
        self.control.close()
        self.process.kill()
        self.process.communicate()


@contextmanager
def warm_autodiff_on_path(folder: Path, **env: str) -> Iterator[dict[str, str]]:
    """An `autodiff` program in `folder` (`cli_fork_client.py`, ~0.02 CPU-s a start) that runs
    each command a shell gives it in a child of one warm server (`warm_autodiff`) made for the
    environment this yields: `cli_environment(**env)` with `folder` first on PATH."""
    environment = cli_environment(**env)
    environment["PATH"] = f"{folder}{os.pathsep}{environment.get('PATH', os.defpath)}"
    start = clean_start(**{**env, "PATH": environment["PATH"]})
    assert start is not None, "no clean start in this environment: nothing to keep warm"
    address = str(folder / "autodiff.socket")
    with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as listener:
        listener.bind(address)
        listener.listen()
        server = ForkServer(start, listener)
    program = folder / "autodiff"
    program.write_text(
        f'#!/bin/sh\nexec "{sys.executable}" -I -S "{FORK_CLIENT}" "{address}" "{REPO}" "$@"\n'
    )
    program.chmod(0o755)
    try:
        yield environment
    finally:
        server.close()


def _exchange(
    fds: tuple[int, int, int], data: bytes, timeout: float, pid: int
) -> tuple[list[bytes], bool]:
    """Write `data` to the child's stdin, read its stdout and stderr to their ends (as
    `subprocess`'s `communicate` does); past `timeout` seconds the child is killed.
    ([stdout, stderr], whether it was killed); the descriptors are closed."""
    stdin, *outputs = fds
    chunks: dict[int, list[bytes]] = {fd: [] for fd in outputs}
    deadline, timed_out = time.monotonic() + timeout, False
    with selectors.DefaultSelector() as selector:
        for fd in outputs:
            selector.register(fd, selectors.EVENT_READ)
        if data:
            os.set_blocking(stdin, False)
            selector.register(stdin, selectors.EVENT_WRITE)
        else:
            os.close(stdin)
        while selector.get_map():
            wait = None if timed_out else max(0.0, deadline - time.monotonic())
            events = selector.select(wait)
            if not events and not timed_out:
                os.kill(pid, signal.SIGKILL)  # as `subprocess.run` kills its child
                timed_out = True
            for key, _ in events:
                if key.fd == stdin:
                    try:
                        data = data[os.write(stdin, data[:65536]) :]
                    except BrokenPipeError:
                        data = b""
                    if not data:
                        selector.unregister(stdin)
                        os.close(stdin)
                    continue
                chunk = os.read(key.fd, 65536)
                if chunk:
                    chunks[key.fd].append(chunk)
                else:
                    selector.unregister(key.fd)
                    os.close(key.fd)
    return [b"".join(chunks[fd]) for fd in outputs], timed_out


def _text(data: bytes, encoding: str) -> str:
    """Bytes a child wrote, as `subprocess` gives them with `text=True, errors="replace"`."""
    return data.decode(encoding, "replace").replace("\r\n", "\n").replace("\r", "\n")


def typer_spelling(args: Sequence[str]) -> list[str]:
    """The same command line sent through Typer: a last `--` (the end of the options, nothing
    after it) changes nothing for Typer, and the fast path leaves any `--` to Typer."""
    return [*args, "--"]


def takes_fast_path(argv: Sequence[str]) -> bool:
    """Whether `autodiff ARGV` runs without Typer (`cli/fast_path.py`, `cli/simple_commands.py`)."""
    from autodiff_cli.cli.fast_path import parse_simple
    from autodiff_cli.cli.simple_commands import converted

    if list(argv) == ["--version"]:
        return True
    line = parse_simple(list(argv))
    return line is not None and converted(line.values) is not None


def fast_and_typer(
    *args: str, stdin: str = "", **env: str
) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    """`autodiff ARGS` through the fast path, then through Typer (`typer_spelling`), each path
    checked to be the one taken: the tests compare what the two print and their exit status."""
    assert takes_fast_path(args), args
    assert not takes_fast_path(typer_spelling(args)), args
    fast = warm_autodiff(*args, stdin=stdin, **env)
    return fast, warm_autodiff(*typer_spelling(args), stdin=stdin, **env)


def terminal(
    tmp_path: Path,
    *args: str,
    cwd: Path | None = None,
    dimensions: tuple[int, int] | None = None,
    **env: str,
) -> Any:
    """`autodiff ARGS` on a pseudo-terminal (a `pexpect.spawn`, as a person types at it), in
    `cwd` (`tmp_path` by default), its REPL history under `tmp_path/state`; keyword arguments
    are environment variables (`TERM="dumb"`, `NO_COLOR="1"`) over `cli_environment()`'s."""
    pexpect = pytest.importorskip("pexpect")
    environment = cli_environment(XDG_STATE_HOME=str(tmp_path / "state"), **env)
    size = {} if dimensions is None else {"dimensions": dimensions}
    return pexpect.spawn(
        sys.executable,
        ["-m", "autodiff_cli", *args],
        cwd=str(cwd or tmp_path),
        env=environment,
        encoding="utf-8",
        timeout=90,
        **size,
    )


@dataclass(frozen=True)
class ScriptReport:
    """One script's `--json` line: what `autodiff run` on that script alone would exit with
    (0 or 1), print on stdout, and print on stderr (its error report, or why it was stopped)."""

    path: str
    returncode: int
    stdout: str
    stderr: str
    seconds: float


def script_reports(paths: Sequence[str], json_stdout: str) -> list[ScriptReport]:
    """The reports of `autodiff run --json PATHS...`, in order: one per path that got its line
    (a batch cut short by a timeout, or by a line that is not JSON, gives fewer), each checked
    to name its path."""
    reports = []
    for line, path in zip(json_stdout.splitlines(), paths):
        try:
            record: dict[str, Any] = json.loads(line)
        except json.JSONDecodeError:
            break
        if "summary" in record:
            break
        assert record["path"] == path, (record["path"], path)
        reports.append(
            ScriptReport(
                path,
                0 if record["ok"] else 1,
                record["stdout"],
                record["error"] or "",
                record["seconds"],
            )
        )
    return reports


def run_scripts(
    paths: Sequence[str], *, cwd: Path | str, env: dict[str, str], timeout: float
) -> dict[str, ScriptReport | str]:
    """`autodiff run --json PATHS...`: each script's report, or why it has none (the batch was
    stopped at `timeout` seconds, or failed), with the batch's stderr."""
    command = [sys.executable, "-m", "autodiff_cli", "run", "--json", *paths]
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, timeout=timeout, env=env)
        stdout, stderr = done.stdout, done.stderr
        why = f"the batch ended with status {done.returncode}"
    except subprocess.TimeoutExpired as stopped:
        stdout, stderr = stopped.stdout or b"", stopped.stderr or b""
        why = f"the batch was stopped after {timeout} s (its first script unreported hung)"
    reports = script_reports(paths, stdout.decode("utf-8", "replace"))
    found: dict[str, ScriptReport | str] = {report.path: report for report in reports}
    tail = stderr.decode("utf-8", "replace")[-3000:]
    for path in paths[len(reports) :]:
        found[path] = f"{path}: no report: {why}\n--- the batch's stderr ---\n{tail}"
    return found


def batches(items: Sequence[Any], size: int) -> Iterator[list[Any]]:
    """`items` cut into lists of at most `size`, in order."""
    for start in range(0, len(items), size):
        yield list(items[start : start + size])


def selected_params(request: Any, test_name: str, name: str) -> list[Any]:
    """The values of parameter `name` in the items of `test_name` this session runs (after
    `-k` and the like): a shared fixture then runs only the scripts that are asked for."""
    values = []
    for item in request.session.items:
        if getattr(item, "originalname", None) == test_name and hasattr(item, "callspec"):
            values.append(item.callspec.params[name])
    return values
