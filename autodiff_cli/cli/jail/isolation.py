"""The OS layer of the sandbox: untrusted code runs in a child process forked from this one.

The parent imports what the child needs (`warm_up`), then forks; the child locks itself down
(`_lock_down`: memory, file size, open files, processes, CPU, a scrubbed environment, an
unprivileged user when started as root) and runs its work with stdout and stderr as pipes to the
parent. The parent streams or collects that output under a size limit, kills the child at its
deadline, and turns a crash, a signal or a memory kill into one clean message. `run_children`
is the one primitive `run`, `grad` and `graph` go through; the REPL's `child_session` is built
on the same `child_main` lock-down. What the parent imports first is `warm_up`'s job.

Where `os.fork` is missing, or `AUTODIFF_ISOLATION=0` asks for it, `isolation_available()` is
False and the commands run their work in this process (the language layer alone).
"""

from __future__ import annotations

import codecs
import io
import mmap
import os
import re
import selectors
import signal
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from autodiff_cli.cli.jail import lockdown
from autodiff_cli.cli.jail.child_guard import (
    WAKEUP,
    drain_wakeup,
    fork_child,
    kill_child,
    live_children,
    reap_child,
    signal_wakeup,
    signals_held,
)
from autodiff_cli.cli.jail.clean_start import (  # noqa: F401 - also this module's API
    ISOLATION_VARIABLE,
    isolation_available,
    limit_blas_threads,
)
from autodiff_cli.cli.jail.frame_reserve import run_on_reserve
from autodiff_cli.cli.jail.limits import timeout_message
from autodiff_cli.cli.output.diagnostics import exit_on_interrupt
from autodiff_cli.cli.output.terminal import UNDECODABLE, print_error, write_text
from autodiff_cli.lang.compile.compiler import set_statement_probe

GIB = 1 << 30
MIB = 1 << 20
DEFAULT_MAX_MEMORY = 2 * GIB
DEFAULT_MAX_OUTPUT = 64 * MIB
KILL_GRACE = 1.0  # seconds past --timeout for the child to stop itself with a located error
OUT_OF_MEMORY = 86  # exit status of a child that ran out of memory outside the script's reach
INTERNAL_ERROR = 87  # exit status of a child whose work raised past its own error reporting
KEPT_ENVIRONMENT = ("NO_COLOR", "FORCE_COLOR", "TERM", "COLUMNS", "LINES")
CHUNK = 1 << 16
_SIZE = re.compile(r"(?P<number>\d+(?:\.\d+)?)\s*(?P<unit>[kmgt]?)(?:i?b)?", re.I)
_UNITS = {"": 1, "k": 1 << 10, "m": MIB, "g": GIB, "t": 1 << 40}


class Limits:
    """What one child may use: bytes of memory and of output, and seconds (None: no deadline).
    (Plain classes here and below, not dataclasses: importing `dataclasses` and generating
    their methods costs every start-up ~3 ms.)"""

    __slots__ = ("memory", "output", "timeout")

    def __init__(
        self,
        memory: int = DEFAULT_MAX_MEMORY,
        output: int = DEFAULT_MAX_OUTPUT,
        timeout: float | None = None,
    ) -> None:
        self.memory = memory
        self.output = output
        self.timeout = timeout

    def __repr__(self) -> str:
        return f"Limits(memory={self.memory}, output={self.output}, timeout={self.timeout})"

    @classmethod
    def of(cls, memory: int | None, output: int | None, timeout: float | None) -> Limits:
        """Limits from command-line values, None meaning the default."""
        return cls(memory or DEFAULT_MAX_MEMORY, output or DEFAULT_MAX_OUTPUT, timeout)


class ChildResult:
    """How a child ended. `status` is its exit status (1 when it was killed); `problem` says
    why it was killed or crashed (`killed: out of memory ...`, to follow "the script was"),
    None when it exited by itself; `statement`, the (line, column) of the statement running at
    a kill."""

    __slots__ = ("status", "stdout", "stderr", "problem", "seconds", "statement")

    def __init__(
        self,
        status: int,
        stdout: bytes,
        stderr: bytes,
        problem: str | None,
        seconds: float,
        statement: tuple[int, int] | None = None,
    ) -> None:
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.problem = problem
        self.seconds = seconds
        self.statement = statement

    def __repr__(self) -> str:
        return f"ChildResult(status={self.status}, problem={self.problem!r})"


class LimitError(ValueError):
    """A limit the child cannot live with (less memory than the engine itself takes)."""


MEMORY_HEADROOM = 32 * MIB  # the least a child gets beyond what the warm parent maps


def check_limits(limits: Limits) -> None:
    """LimitError when `--max-memory` is below what the warm process already maps: the child
    would fail at its first allocation."""
    needed = _mapped_size() + MEMORY_HEADROOM
    if limits.memory < needed:
        raise LimitError(
            f"--max-memory {format_size(limits.memory)} is less than the engine itself needs "
            f"(about {format_size(needed)})"
        )


def _mapped_size() -> int:
    """This process's address space now (libraries, heap): what a child starts with."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def parse_size(text: str) -> int:
    """`512M`, `2G`, `64MB`, `1.5GiB` or a plain number of bytes; ValueError otherwise."""
    match = _SIZE.fullmatch(text.strip())
    if not match:
        raise ValueError(f"not a size: {text!r} (expected a number with K, M, G or T)")
    size = int(float(match["number"]) * _UNITS[match["unit"].lower()])
    if size <= 0:
        raise ValueError(f"the size must be more than 0, got {text!r}")
    return size


def format_size(size: int) -> str:
    """2147483648 -> `2 GiB`, 67108864 -> `64 MiB`."""
    for unit, scale in (("TiB", 1 << 40), ("GiB", GIB), ("MiB", MIB), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.4g} {unit}"
    return f"{size} bytes"


# ---- in the child ---------------------------------------------------------------------------


class _PipeWriter(io.TextIOWrapper):
    """stdout/stderr of the child: a pipe that answers `isatty()` as the parent's stream did,
    so styling decisions stay the parent's. Unencodable text (a lone surrogate) is replaced.
    Line-buffered: what a script printed before it was killed (timeout, memory) still shows."""

    def __init__(self, fd: int, encoding: str, tty: bool) -> None:
        super().__init__(
            io.FileIO(fd, "wb", closefd=False),
            encoding=encoding,
            errors="replace",
            line_buffering=True,
        )
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def _encoding(stream: Any) -> str:
    return getattr(stream, "encoding", None) or "utf-8"


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _scrub_environment() -> None:
    """Only the variables that decide the output's look survive; `posix.environ` (the start-up
    copy behind `os.environ`) is emptied too."""
    kept = {name: os.environ[name] for name in KEPT_ENVIRONMENT if name in os.environ}
    os.environ.clear()
    posix = sys.modules.get("posix")
    if posix is not None:
        posix.environ.clear()
    os.environ.update(kept)


def _lock_down(limits: Limits) -> None:
    """The jail (`cli/jail/lockdown.py`): namespaces and an empty root, Landlock, rlimits,
    no_new_privs, the seccomp allow-list; each a second fence behind the language's checks."""
    _scrub_environment()
    cpu = None if limits.timeout is None else int(limits.timeout) + 2 + int(KILL_GRACE)
    lockdown.enter(limits.memory, cpu)


def child_main(
    work: Callable[[], int],
    limits: Limits,
    out_fd: int,
    err_fd: int,
    keep: Sequence[int],
    done_fd: int | None = None,
) -> None:
    """In the forked child: wire the pipes, lock down, run `work`, exit with its status. Never
    returns, never runs the parent's exit handlers or pending finalizers. With `done_fd` (kept
    open), the status is also written there as one byte once the output is flushed: the parent
    then has all it needs without waiting for the kernel to tear this process down."""
    status = INTERNAL_ERROR
    unresident = 0
    try:
        like_out, like_err = sys.__stdout__, sys.__stderr__
        looks = [(_encoding(like), _isatty(like)) for like in (like_out, like_err)]  # pre-dup2
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
        os.setpgid(0, 0)  # out of the terminal's process group: the parent forwards Ctrl-C
        for name in ("SIGTERM", "SIGALRM", "SIGCHLD"):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
        _keep_terminal_size(like_out)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        kept = sorted(set(keep))
        start = 3
        for fd in kept:
            os.closerange(start, fd)
            start = fd + 1
        os.closerange(start, max(1 << 16, os.sysconf("SC_OPEN_MAX")))
        sys.stdin = None  # type: ignore[assignment]
        sys.stdout = sys.__stdout__ = _PipeWriter(1, *looks[0])
        sys.stderr = sys.__stderr__ = _PipeWriter(2, *looks[1])
        unresident = _unresident_size()  # (read before the jail closes /proc)
        _lock_down(limits)
        status = run_on_reserve(work)
    except MemoryError:
        status = OUT_OF_MEMORY
    except SystemError as error:  # CPython 3.11 loses the MemoryError of an allocation the
        # memory limit refused while an exception unwound (a frame object, a traceback entry)
        status = OUT_OF_MEMORY if _used_its_memory(limits, unresident) else _report_internal(error)
    except BaseException as error:  # noqa: BLE001 - the last fence: one clean line, no traceback
        status = _report_internal(error)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001,S110 - a full or closed pipe: nothing more to say
        pass
    status = status if isinstance(status, int) and 0 <= status < 256 else INTERNAL_ERROR
    if done_fd is not None:
        try:
            os.write(done_fd, bytes((status,)))
        except OSError:  # the parent is gone
            pass
    os._exit(status)


def _keep_terminal_size(stream: Any) -> None:
    """Rich sizes its output by the terminal; the child's stdout is a pipe, so it is told."""
    if "COLUMNS" in os.environ or not _isatty(stream):
        return
    try:
        size = os.get_terminal_size(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return
    os.environ["COLUMNS"], os.environ["LINES"] = str(size.columns), str(size.lines)


def _unresident_size() -> int:
    """Bytes of this process's address space not in memory (libraries' unread pages...)."""
    try:
        with open("/proc/self/statm", "rb") as handle:
            size, resident = handle.read().split()[:2]
        return (int(size) - int(resident)) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def _used_its_memory(limits: Limits, unresident: int) -> bool:
    """Whether the child's memory reached its limit: its peak resident size, plus what it maps
    without holding, within 32 MiB of the address space `--max-memory` allows."""
    return lockdown.peak_memory() + unresident >= limits.memory - MEMORY_HEADROOM


def _report_internal(error: BaseException) -> int:
    if isinstance(error, SystemExit) and isinstance(error.code, int):
        return error.code
    try:
        sys.stderr.write(f"error: the child process failed: {type(error).__name__}: {error!r}\n")
    except BaseException:  # noqa: BLE001,S110
        pass
    return INTERNAL_ERROR


# ---- in the parent --------------------------------------------------------------------------


class Sink:
    """Where a child's output stream goes: straight to one of our streams (decoded as it comes,
    so a character split across reads stays whole), or into one buffer (a BytesIO: it grows in
    place and `collected()` hands its bytes over without a copy)."""

    def __init__(self, target: Any | None) -> None:
        self.target = target
        self.buffer = io.BytesIO()
        self._decoder = None
        if target is not None:
            encoding = getattr(target, "encoding", None) or "utf-8"
            self._decoder = codecs.getincrementaldecoder(encoding)(errors=UNDECODABLE)

    def write(self, data: bytes, final: bool = False) -> None:
        if self.target is None:
            self.buffer.write(data)
            return
        text = self._decoder.decode(data, final)
        if text:
            write_text(self.target, text)

    def collected(self) -> bytes:
        """What was written into the buffer."""
        return self.buffer.getvalue()


class _Running:
    """A running child: its pipes' sinks, limits, start time and pidfd (`exit_fd`: readable
    once it has exited; None: poll), what is known of its end, and `probe`, the page shared
    with it that holds its running statement."""

    def __init__(
        self,
        index: int,
        pid: int,
        fds: dict[int, Sink],
        limits: Limits,
        started: float,
        exit_fd: int | None,
        sinks: list[Sink],
        probe: mmap.mmap | None,
        done_fd: int | None = None,
    ) -> None:
        self.index = index
        self.pid = pid
        self.fds = fds
        self.limits = limits
        self.started = started
        self.exit_fd = exit_fd
        self.sinks = sinks
        self.probe = probe
        self.written = 0
        self.problem: str | None = None
        self.killed = False
        self.wait_status: int | None = None  # known once the child is reaped (or has reported)
        self.done_fd = done_fd  # where the child reports its status as it ends
        self.reported: int | None = None  # that status

    def deadline(self) -> float | None:
        """When the parent kills it (monotonic seconds); None without --timeout."""
        timeout = self.limits.timeout
        return None if timeout is None else self.started + timeout + KILL_GRACE


def _statement_at(probe: mmap.mmap | None) -> tuple[int, int] | None:
    """(line, column) of the statement the child was running, from the shared probe."""
    if probe is None:
        return None
    packed = int.from_bytes(probe[:8], sys.byteorder, signed=True)
    return (packed >> 24, packed & ((1 << 24) - 1)) if packed > 0 else None


def _start(index: int, work: Callable[[], int], limits: Limits, stream: bool) -> _Running:
    """Fork one child (inside `signals_held`, so it is registered before a signal can end us)."""
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    for stream_ in (sys.stdout, sys.stderr):
        stream_.flush()
    # With a deadline, the child writes where it is into shared memory (one store a statement),
    # so that a kill inside one long engine call can still name the statement.
    probe = mmap.mmap(-1, 8) if limits.timeout is not None else None
    done_read, done_write = os.pipe()
    pid, exit_fd = fork_child()
    if pid == 0:  # the child
        for fd in (out_read, err_read, done_read):
            os.close(fd)
        if probe is not None:
            set_statement_probe(memoryview(probe).cast("q"))
        child_main(work, limits, out_write, err_write, (done_write,), done_write)
    for fd in (out_write, err_write, done_write):
        os.close(fd)
    os.set_blocking(done_read, False)
    sinks = [Sink(sys.stdout if stream else None), Sink(sys.stderr if stream else None)]
    for fd in (out_read, err_read):
        os.set_blocking(fd, False)
    return _Running(
        index,
        pid,
        {out_read: sinks[0], err_read: sinks[1]},
        limits,
        time.monotonic(),
        exit_fd,
        sinks=sinks,
        probe=probe,
        done_fd=done_read,
    )


def _kill(child: _Running, problem: str) -> None:
    if not child.killed:
        child.killed = True
        child.problem = problem
        kill_child(child.pid)  # a no-op once reaped: its number may be someone else's


def _take(child: _Running, fd: int, data: bytes) -> None:
    """Count what the child wrote; past the output limit it is killed and the rest dropped."""
    child.written += len(data)
    if child.written > child.limits.output:
        _kill(child, output_problem(child.limits.output))
        return
    child.fds[fd].write(data)


def read_pipe(fd: int) -> bytes | None:
    """At most CHUNK bytes: b"" at the end of the pipe, None when it has nothing now."""
    try:
        return os.read(fd, CHUNK)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def _close_pipe(child: _Running, fd: int, selector: selectors.BaseSelector) -> None:
    selector.unregister(fd)
    os.close(fd)
    del child.fds[fd]


def _drain(child: _Running, selector: selectors.BaseSelector) -> None:
    """After the child exited: what is left in its pipes, read without waiting. A pipe still
    held open by someone else is closed once it is empty; one fed without end stops at the
    output limit."""
    if child.done_fd is not None:
        selector.unregister(child.done_fd)
        os.close(child.done_fd)
        child.done_fd = None
    for fd in list(child.fds):
        while not child.killed:
            data = read_pipe(fd)
            if not data:
                break
            _take(child, fd, data)
        _close_pipe(child, fd, selector)


def _take_report(child: _Running, selector: selectors.BaseSelector) -> None:
    """The status byte the child writes as it ends (nothing if it ended otherwise)."""
    fd = child.done_fd
    if fd is None:
        return
    data = read_pipe(fd)
    if data is None:  # (woken for nothing)
        return
    selector.unregister(fd)
    os.close(fd)
    child.done_fd = None
    if data:
        child.reported = data[0]


def _ended_by_report(child: _Running, lingering: list[_Running]) -> None:
    """A child that reported its status has flushed all its output into its pipes and is
    exiting: it is finished now, as if reaped with that status, and killed (nothing of it may
    run on). The kernel's teardown of its memory (~2 ms of a one-liner) is not waited for; it
    is reaped later (`_reap_lingering`)."""
    kill_child(child.pid)
    child.wait_status = (child.reported or 0) << 8  # what waitpid gives for that exit status
    lingering.append(child)


_LINGERING: list[int] = []  # pids of children finished by their report, not yet reaped


def _reap_lingering() -> None:
    live = set(live_children())
    _LINGERING[:] = [pid for pid in _LINGERING if pid in live and reap_child(pid) is None]


def _reap(child: _Running, selector: selectors.BaseSelector) -> None:
    """Record the child's wait status if it has exited."""
    if child.exit_fd is not None:  # its pidfd is readable: it has exited
        selector.unregister(child.exit_fd)
    child.wait_status = reap_child(child.pid, block=child.exit_fd is not None)


def _finish(child: _Running) -> ChildResult:
    wait_status = child.wait_status if child.wait_status is not None else 0
    for sink in child.sinks:
        sink.write(b"", final=True)
    seconds = time.monotonic() - child.started
    out, err = (sink.collected() for sink in child.sinks)
    child.sinks.clear()
    problem = child.problem or ended_problem(wait_status, child.limits)
    statement = _statement_at(child.probe)
    if child.probe is not None:
        child.probe.close()
    if problem is not None:
        return ChildResult(1, out, err, problem, seconds, statement)
    return ChildResult(os.WEXITSTATUS(wait_status), out, err, None, seconds)


def ended_problem(wait_status: int, limits: Limits) -> str | None:
    """Why a child ended, read from its wait status; None when it exited by itself."""
    if os.WIFSIGNALED(wait_status):
        return _signal_problem(os.WTERMSIG(wait_status), limits)
    status = os.WEXITSTATUS(wait_status)
    if status == OUT_OF_MEMORY:
        return memory_problem(limits.memory)
    if status == INTERNAL_ERROR:
        return "stopped: its process failed"
    return None


def memory_problem(limit: int) -> str:
    return f"killed: out of memory (limit {format_size(limit)}, --max-memory)"


def _signal_problem(number: int, limits: Limits) -> str:
    if number == signal.SIGXCPU:
        return "killed: out of CPU time (--timeout)"
    if number == signal.SIGKILL:  # not ours: the kernel's out-of-memory killer
        return memory_problem(limits.memory)
    if number == signal.SIGSYS:  # the jail's seccomp filter
        return "killed: it made a system call the jail forbids (SIGSYS)"
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    return f"killed by signal {name} (a crash)"


timeout_problem = timeout_message  # the child's own words and the parent's are the same


def output_problem(limit: int) -> str:
    return f"stopped: its output passed {format_size(limit)} (--max-output)"


POLL = 0.05  # seconds between looks at a child's state where the kernel has no pidfd


def run_children(
    works: Iterable[Callable[[], int]],
    limits: Limits,
    *,
    jobs: int = 1,
    stream: bool = False,
    on_done: Callable[[int, ChildResult], bool] | None = None,
    window: int | None = None,
) -> list[ChildResult]:
    """Run each work in its own locked-down child, up to `jobs` at once, and return how each
    ended, in order. With `stream`, output goes straight to our stdout/stderr as it comes
    (for `jobs=1`); else it is collected. `on_done(index, result)` is called as each ends and
    takes its output (the returned results then carry none, so memory stays bounded); when it
    returns False no further child is started (the rest get no result). With `window`, a child
    starts only within `window` places of the first one still running (an in-order printer
    then holds at most `window` outputs). LimitError, before any child starts, when the limits
    are too tight to run anything.

    The loop wakes on output, on a child's exit (its pidfd) and on the next deadline, so a
    child that closes its pipes, or leaves them open to something else, is still killed in
    time; once it has exited, its pipes are drained without waiting."""
    check_limits(limits)
    _reap_lingering()
    pending = list(enumerate(works))
    pending.reverse()
    results: dict[int, ChildResult] = {}
    running: dict[int, _Running] = {}  # pid -> child
    selector = selectors.DefaultSelector()
    lingering: list[_Running] = []  # finished by their report, exiting
    go_on = True
    try:
        with signal_wakeup(selector):
            while running or (pending and go_on):
                with signals_held():
                    while pending and go_on and _may_start(pending[-1][0], running, jobs, window):
                        index, work = pending.pop()
                        child = _start(index, work, limits, stream)
                        running[child.pid] = child
                        _register(child, selector)
                for key, _ in selector.select(_wait_time(running.values())):
                    if key.data is WAKEUP:
                        drain_wakeup(key)  # a signal: its handler runs next
                    else:
                        _on_event(key.data, key.fd, selector)
                now = time.monotonic()
                for child in list(running.values()):
                    if not _has_ended(child, now, selector, lingering):
                        continue
                    _drain(child, selector)
                    del running[child.pid]
                    results[child.index] = _finish(child)
                    if on_done is not None:
                        go_on = _hand_over(results, child.index, on_done) and go_on
    finally:
        for child in running.values():
            _abandon(child, selector)
        selector.close()
        _LINGERING.extend(child.pid for child in lingering)
        _reap_lingering()
    return [results[index] for index in sorted(results)]


def _register(child: _Running, selector: selectors.BaseSelector) -> None:
    """Wake the loop on the child's output, its report and its exit."""
    for fd in child.fds:
        selector.register(fd, selectors.EVENT_READ, child)
    for fd in (child.done_fd, child.exit_fd):
        if fd is not None:
            selector.register(fd, selectors.EVENT_READ, child)


def _on_event(child: _Running, fd: int, selector: selectors.BaseSelector) -> None:
    """One of the child's descriptors is readable: its exit, its report or its output."""
    if fd == child.exit_fd:
        _reap(child, selector)
    elif fd == child.done_fd:
        _take_report(child, selector)
    elif fd in child.fds:
        data = read_pipe(fd)
        if data == b"":
            _close_pipe(child, fd, selector)
        elif data is not None:
            _take(child, fd, data)


def _has_ended(
    child: _Running, now: float, selector: selectors.BaseSelector, lingering: list[_Running]
) -> bool:
    """Whether the child has ended (reported, or reaped); kills it past its deadline."""
    if child.wait_status is None and child.reported is not None and not child.killed:
        _ended_by_report(child, lingering)
    if child.wait_status is None and child.exit_fd is None:
        _reap(child, selector)
    deadline = child.deadline()
    if child.wait_status is None and deadline is not None and now > deadline:
        _kill(child, timeout_problem(child.limits.timeout or 0))
    if child.killed:
        for fd in list(child.fds):
            _close_pipe(child, fd, selector)
    return child.wait_status is not None


def _abandon(child: _Running, selector: selectors.BaseSelector) -> None:
    """A child still running when the loop ends (an exception, Ctrl-C): killed and reaped."""
    _kill(child, "interrupted")
    for fd in list(child.fds):
        _close_pipe(child, fd, selector)
    if child.done_fd is not None:
        selector.unregister(child.done_fd)
        os.close(child.done_fd)
    if child.exit_fd is not None and child.wait_status is None:
        selector.unregister(child.exit_fd)
    if child.wait_status is None:
        reap_child(child.pid, block=True)


def _hand_over(
    results: dict[int, ChildResult], index: int, on_done: Callable[[int, ChildResult], bool]
) -> bool:
    """Give `on_done` the result and its output; only the rest is kept (no name here holds
    the output past this call)."""
    result = results[index]
    results[index] = ChildResult(
        result.status, b"", b"", result.problem, result.seconds, result.statement
    )
    return on_done(index, result)


def _may_start(index: int, running: dict[int, _Running], jobs: int, window: int | None) -> bool:
    if len(running) >= jobs:
        return False
    if window is None or not running:
        return True
    return index < min(child.index for child in running.values()) + window


def _wait_time(running: Iterable[_Running]) -> float | None:
    """Seconds the loop may sleep: until the next deadline of a child still running, at most
    POLL while a child's exit can only be seen by polling."""
    now = time.monotonic()
    waits = []
    for child in running:
        if child.wait_status is not None:
            return 0.0
        deadline = child.deadline()
        if deadline is not None and not child.killed:
            waits.append(max(0.0, deadline - now) + 0.01)
        if child.exit_fd is None:
            waits.append(POLL)
    return min(waits) if waits else None


def run_child(work: Callable[[], int], limits: Limits, *, stream: bool = True) -> ChildResult:
    """One child (`grad`, `graph`, one script): its output streams to ours unless `stream` is
    False."""
    return run_children([work], limits, stream=stream)[0]


def run_isolated_command(
    command: str,
    subject: str,
    work: Callable[[], int],
    limits: Limits,
    on_problem: Callable[[str, int], None] | None = None,
) -> int:
    """One command's work (`grad`, `graph`) in a child, its output streaming: the child's exit
    status, or 1 with `autodiff COMMAND: error: the SUBJECT was PROBLEM` on stderr when it was
    killed or crashed (2 when the limits leave it no room). `on_problem(message, status)` reports
    these instead, when given (`--json`)."""

    def report(message: str, status: int) -> int:
        if on_problem is None:
            print_error(f"autodiff {command}: error: {message}")
        else:
            on_problem(message, status)
        return status

    try:
        result = run_child(work, limits)
    except LimitError as error:
        return report(str(error), 2)
    except KeyboardInterrupt:
        return exit_on_interrupt()
    if result.problem is not None:
        report(f"the {subject} was {result.problem}", 1)
    return result.status
