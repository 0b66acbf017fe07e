"""The OS layer of the sandbox: untrusted code runs in a child process forked from this one.

The parent imports what the child needs (`warm_up`), then forks; the child locks itself down
(`_lock_down`: memory, file size, open files, processes, CPU, a scrubbed environment, an
unprivileged user when started as root) and runs its work with stdout and stderr as pipes to the
parent. The parent streams or collects that output under a size limit, kills the child at its
deadline, and turns a crash, a signal or a memory kill into one clean message. `run_children`
is the one primitive: `run`, `grad`, `graph` and the REPL all go through it (or through
`ChildSession`, built on the same lock-down).

Where `os.fork` is missing, or `AUTODIFF_ISOLATION=0` asks for it, `isolation_available()` is
False and the commands run their work in this process (the language layer alone).
"""

from __future__ import annotations

import codecs
import io
import os
import re
import selectors
import signal
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

GIB = 1 << 30
MIB = 1 << 20
DEFAULT_MAX_MEMORY = 2 * GIB
DEFAULT_MAX_OUTPUT = 64 * MIB
KILL_GRACE = 1.0  # seconds past --timeout for the child to stop itself with a located error
OUT_OF_MEMORY = 86  # exit status of a child that ran out of memory outside the script's reach
INTERNAL_ERROR = 87  # exit status of a child whose work raised past its own error reporting
NOBODY = 65534
KEPT_ENVIRONMENT = ("NO_COLOR", "FORCE_COLOR", "TERM", "COLUMNS", "LINES")
ISOLATION_VARIABLE = "AUTODIFF_ISOLATION"
_CHUNK = 1 << 16
_SIZE = re.compile(r"(?P<number>\d+(?:\.\d+)?)\s*(?P<unit>[kmgt]?)(?:i?b)?", re.I)
_UNITS = {"": 1, "k": 1 << 10, "m": MIB, "g": GIB, "t": 1 << 40}


@dataclass(frozen=True)
class Limits:
    """What one child may use: bytes of memory and of output, and seconds (None: no deadline)."""

    memory: int = DEFAULT_MAX_MEMORY
    output: int = DEFAULT_MAX_OUTPUT
    timeout: float | None = None

    @classmethod
    def of(cls, memory: int | None, output: int | None, timeout: float | None) -> Limits:
        """Limits from command-line values, None meaning the default."""
        return cls(memory or DEFAULT_MAX_MEMORY, output or DEFAULT_MAX_OUTPUT, timeout)


@dataclass
class ChildResult:
    """How a child ended. `status` is its exit status (1 when it was killed); `problem` says
    why it was killed or crashed (`killed: out of memory ...`, to follow "the script was"),
    None when it exited by itself."""

    status: int
    stdout: bytes
    stderr: bytes
    problem: str | None
    seconds: float


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


def isolation_available() -> bool:
    """Whether untrusted code runs in a forked child (else in this process)."""
    return hasattr(os, "fork") and os.environ.get(ISOLATION_VARIABLE, "1") != "0"


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


def limit_blas_threads() -> None:
    """One BLAS thread: children cannot start threads, and forking a thread pool is unsafe.
    Call before numpy is imported."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = "1"


# ---- in the child ---------------------------------------------------------------------------


class _PipeWriter(io.TextIOWrapper):
    """stdout/stderr of the child: a pipe that answers `isatty()` as the parent's stream did,
    so styling decisions stay the parent's. Unencodable text (a lone surrogate) is replaced."""

    def __init__(self, fd: int, encoding: str, tty: bool) -> None:
        super().__init__(io.FileIO(fd, "wb", closefd=False), encoding=encoding, errors="replace")
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


def _libc() -> Any:
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    except (ImportError, OSError):  # not glibc-like: the other limits still hold
        return None


PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS = 1, 38


def _lock_down(limits: Limits, libc: Any) -> None:
    """Limits the child sets on itself before it runs untrusted code; each is a second fence
    behind the language's own checks."""
    import resource

    if libc is not None:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # dies with the parent
        libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    _scrub_environment()
    os.chdir("/")
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past RLIMIT_FSIZE fails, no kill
    settings = [
        (resource.RLIMIT_CORE, 0),  # a crash leaves no core file
        (resource.RLIMIT_FSIZE, 0),  # no byte written to any file
        # The whole address space (libraries included), so the child's resident memory stays
        # under the limit; it holds with numpy since BLAS runs one thread (no per-thread pools).
        (resource.RLIMIT_AS, limits.memory),
        (resource.RLIMIT_DATA, limits.memory),
        (resource.RLIMIT_NOFILE, 3),  # stdin (/dev/null), stdout and stderr pipes: no new fd
    ]
    if limits.timeout is not None:
        settings.append((resource.RLIMIT_CPU, int(limits.timeout) + 2 + int(KILL_GRACE)))
    for which, value in settings:
        _set_limit(resource, which, value)
    if os.geteuid() == 0:  # root ignores RLIMIT_NPROC: become nobody first
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    _set_limit(resource, resource.RLIMIT_NPROC, 0)  # no new process, no thread


def _set_limit(resource: Any, which: int, value: int) -> None:
    _, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value))


def _child_main(
    work: Callable[[], int], limits: Limits, out_fd: int, err_fd: int, keep: Sequence[int]
) -> None:
    """In the forked child: wire the pipes, lock down, run `work`, exit with its status. Never
    returns, never runs the parent's exit handlers or pending finalizers."""
    status = INTERNAL_ERROR
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
        os.closerange(start, 1 << 16)
        sys.stdin = None  # type: ignore[assignment]
        sys.stdout = sys.__stdout__ = _PipeWriter(1, *looks[0])
        sys.stderr = sys.__stderr__ = _PipeWriter(2, *looks[1])
        libc = _libc()
        _lock_down(limits, libc)
        status = work()
    except MemoryError:
        status = OUT_OF_MEMORY
    except BaseException as error:  # noqa: BLE001 - the last fence: one clean line, no traceback
        status = _report_internal(error)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001,S110 - a full or closed pipe: nothing more to say
        pass
    os._exit(status if isinstance(status, int) and 0 <= status < 256 else INTERNAL_ERROR)


def _keep_terminal_size(stream: Any) -> None:
    """Rich sizes its output by the terminal; the child's stdout is a pipe, so it is told."""
    if "COLUMNS" in os.environ or not _isatty(stream):
        return
    try:
        size = os.get_terminal_size(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return
    os.environ["COLUMNS"], os.environ["LINES"] = str(size.columns), str(size.lines)


def _report_internal(error: BaseException) -> int:
    if isinstance(error, SystemExit) and isinstance(error.code, int):
        return error.code
    try:
        sys.stderr.write(f"error: the child process failed: {type(error).__name__}: {error!r}\n")
    except BaseException:  # noqa: BLE001,S110
        pass
    return INTERNAL_ERROR


# ---- in the parent --------------------------------------------------------------------------


class _Sink:
    """Where a child's output stream goes: straight to one of our streams (decoded as it comes,
    so a character split across reads stays whole), or into one buffer."""

    def __init__(self, target: Any | None) -> None:
        self.target = target
        self.buffer = bytearray()
        self._decoder = None
        if target is not None:
            encoding = getattr(target, "encoding", None) or "utf-8"
            self._decoder = codecs.getincrementaldecoder(encoding)(errors="replace")

    def write(self, data: bytes, final: bool = False) -> None:
        if self.target is None:
            self.buffer += data
            return
        text = self._decoder.decode(data, final)
        if text:
            write_text(self.target, text)


def write_text(stream: Any, text: str) -> None:
    """Write text that may not fit the stream's encoding (replaced), then flush."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write(text.encode(encoding, "replace").decode(encoding))
    stream.flush()


@dataclass
class _Running:
    index: int
    pid: int
    fds: dict[int, _Sink]
    limits: Limits
    started: float
    written: int = 0
    problem: str | None = None
    killed: bool = False
    sinks: list[_Sink] = field(default_factory=list)


def _start(index: int, work: Callable[[], int], limits: Limits, stream: bool) -> _Running:
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    for stream_ in (sys.stdout, sys.stderr):
        stream_.flush()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(out_read)
        os.close(err_read)
        _child_main(work, limits, out_write, err_write, ())
    os.close(out_write)
    os.close(err_write)
    sinks = [_Sink(sys.stdout if stream else None), _Sink(sys.stderr if stream else None)]
    for fd in (out_read, err_read):
        os.set_blocking(fd, False)
    return _Running(
        index,
        pid,
        {out_read: sinks[0], err_read: sinks[1]},
        limits,
        time.monotonic(),
        sinks=sinks,
    )


def _kill(child: _Running, problem: str) -> None:
    if not child.killed:
        child.killed = True
        child.problem = problem
        try:
            os.kill(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _finish(child: _Running) -> ChildResult:
    _, wait_status = os.waitpid(child.pid, 0)
    for sink in child.sinks:
        sink.write(b"", final=True)
    seconds = time.monotonic() - child.started
    out, err = (bytes(sink.buffer) for sink in child.sinks)
    if child.problem is not None:
        return ChildResult(1, out, err, child.problem, seconds)
    if os.WIFSIGNALED(wait_status):
        return ChildResult(1, out, err, _signal_problem(os.WTERMSIG(wait_status), child), seconds)
    status = os.WEXITSTATUS(wait_status)
    if status == OUT_OF_MEMORY:
        return ChildResult(1, out, err, memory_problem(child.limits.memory), seconds)
    if status == INTERNAL_ERROR:
        return ChildResult(1, out, err, "stopped: its process failed", seconds)
    return ChildResult(status, out, err, None, seconds)


def memory_problem(limit: int) -> str:
    return f"killed: out of memory (limit {format_size(limit)}, --max-memory)"


def _signal_problem(number: int, child: _Running) -> str:
    if number == signal.SIGXCPU:
        return f"killed: out of CPU time ({child.limits.timeout:g} s)"
    if number == signal.SIGKILL:  # not ours: the kernel's out-of-memory killer
        return memory_problem(child.limits.memory)
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    return f"killed by signal {name} (a crash)"


def timeout_problem(seconds: float) -> str:
    return f"stopped after {seconds:g} seconds (--timeout {seconds:g})"


def output_problem(limit: int) -> str:
    return f"stopped: its output passed {format_size(limit)} (--max-output)"


def run_children(
    works: Iterable[Callable[[], int]],
    limits: Limits,
    *,
    jobs: int = 1,
    stream: bool = False,
    on_done: Callable[[int, ChildResult], bool] | None = None,
) -> list[ChildResult]:
    """Run each work in its own locked-down child, up to `jobs` at once, and return how each
    ended, in order. With `stream`, output goes straight to our stdout/stderr as it comes
    (for `jobs=1`); else it is collected. `on_done(index, result)` is called as each ends; when
    it returns False no further child is started (the rest get no result). LimitError, before
    any child starts, when the limits are too tight to run anything."""
    check_limits(limits)
    pending = list(enumerate(works))
    pending.reverse()
    results: dict[int, ChildResult] = {}
    running: dict[int, _Running] = {}  # pid -> child
    selector = selectors.DefaultSelector()
    go_on = True
    try:
        while running or (pending and go_on):
            while pending and go_on and len(running) < jobs:
                index, work = pending.pop()
                child = _start(index, work, limits, stream)
                running[child.pid] = child
                for fd in child.fds:
                    selector.register(fd, selectors.EVENT_READ, child)
            for key, _ in selector.select(_next_deadline(running.values())):
                child = key.data
                try:
                    data = os.read(key.fd, _CHUNK)
                except BlockingIOError:
                    continue
                if not data:
                    selector.unregister(key.fd)
                    os.close(key.fd)
                    del child.fds[key.fd]
                    continue
                child.written += len(data)
                if child.written > child.limits.output:
                    _kill(child, output_problem(child.limits.output))
                    continue
                child.fds[key.fd].write(data)
            now = time.monotonic()
            for child in list(running.values()):
                timeout = child.limits.timeout
                if timeout is not None and now - child.started > timeout + KILL_GRACE:
                    _kill(child, timeout_problem(timeout))
                if child.killed:
                    for fd in list(child.fds):
                        selector.unregister(fd)
                        os.close(fd)
                    child.fds.clear()
                if not child.fds:
                    del running[child.pid]
                    result = results[child.index] = _finish(child)
                    if on_done is not None and not on_done(child.index, result):
                        go_on = False
    finally:
        for child in running.values():
            _kill(child, "interrupted")
            for fd in child.fds:
                os.close(fd)
            os.waitpid(child.pid, 0)
        selector.close()
    return [results[index] for index in sorted(results)]


def _next_deadline(running: Iterable[_Running]) -> float | None:
    now = time.monotonic()
    waits = [
        child.started + child.limits.timeout + KILL_GRACE - now
        for child in running
        if child.limits.timeout is not None
    ]
    return max(0.0, min(waits)) + 0.01 if waits else None


def run_child(work: Callable[[], int], limits: Limits, *, stream: bool = True) -> ChildResult:
    """One child (`grad`, `graph`, one script): its output streams to ours unless `stream` is
    False."""
    return run_children([work], limits, stream=stream)[0]


def run_isolated_command(
    command: str, subject: str, work: Callable[[], int], limits: Limits
) -> int:
    """One command's work (`grad`, `graph`) in a child, its output streaming: the child's exit
    status, or 1 with `autodiff COMMAND: error: the SUBJECT was PROBLEM` on stderr when it was
    killed or crashed (2 when the limits leave it no room)."""
    from autodiff_cli.cli.terminal import print_error

    try:
        result = run_child(work, limits)
    except LimitError as error:
        print_error(f"autodiff {command}: error: {error}")
        return 2
    except KeyboardInterrupt:
        from autodiff_cli.cli.diagnostics import exit_on_interrupt

        return exit_on_interrupt()
    if result.problem is not None:
        print_error(f"autodiff {command}: error: the {subject} was {result.problem}")
    return result.status


# ---- a long-lived child: the REPL's session --------------------------------------------------

INTERRUPT_WAIT = 1.0  # seconds a child gets to stop after Ctrl-C before it is killed


class SessionLost(Exception):
    """The session's child ended (killed, crashed, not interruptible in time); `problem` says
    why. A new `ChildSession` must be started: the variables are gone."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


class ChildSession:
    """A locked-down child that keeps its state across requests (the REPL's namespace).

    `serve(message) -> reply` runs in the child for each request; messages and replies are
    JSON objects on a pipe each way (never pickle: the parent trusts nothing the child sends).
    While a request runs, the child's output streams to our stdout/stderr (at most
    `limits.output` bytes per request); Ctrl-C is passed on to the child, which gets
    `INTERRUPT_WAIT` seconds to stop before it is killed (SessionLost).
    """

    def __init__(self, serve: Callable[[dict], dict], limits: Limits) -> None:
        check_limits(limits)
        self.limits = limits
        request_read, self._requests = os.pipe()
        self._replies, reply_write = os.pipe()
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        self.pid = os.fork()
        if self.pid == 0:  # the child
            for fd in (self._requests, self._replies, out_read, err_read):
                os.close(fd)
            loop = lambda: _serve_forever(serve, request_read, reply_write)  # noqa: E731
            _child_main(loop, limits, out_write, err_write, (request_read, reply_write))
        for fd in (request_read, reply_write, out_write, err_write):
            os.close(fd)
        self._outputs = {out_read: _Sink(sys.stdout), err_read: _Sink(sys.stderr)}
        for fd in (*self._outputs, self._replies):
            os.set_blocking(fd, False)
        self._pending = bytearray()
        self.alive = True

    def request(self, message: dict) -> dict:
        """Send one request and wait for its reply, streaming the child's output meanwhile."""
        import json

        if not self.alive:
            raise SessionLost("ended")
        try:
            os.write(self._requests, json.dumps(message).encode() + b"\n")
        except OSError:
            raise self._lost(None) from None
        interrupted_at = None
        while True:
            wait = None if interrupted_at is None else interrupted_at + INTERRUPT_WAIT
            try:
                reply = self._wait_reply(wait)
            except KeyboardInterrupt:
                if interrupted_at is None:
                    interrupted_at = time.monotonic()
                    os.kill(self.pid, signal.SIGINT)
                continue
            if reply is _TIMED_OUT:
                raise self._lost("stopped: it could not be interrupted within 1 second")
            if reply is _OVERFLOW:
                raise self._lost(output_problem(self.limits.output))
            if reply is None:
                raise self._lost(None)
            return json.loads(reply)

    def _wait_reply(self, until: float | None) -> Any:
        """The reply line; None if the child died, _TIMED_OUT past `until`, _OVERFLOW when the
        output passed the limit."""
        written = 0
        with selectors.DefaultSelector() as selector:
            for fd in (*self._outputs, self._replies):
                selector.register(fd, selectors.EVENT_READ)
            while True:
                timeout = None if until is None else max(0.0, until - time.monotonic())
                events = selector.select(timeout)
                if not events and until is not None:
                    return _TIMED_OUT
                for key, _ in sorted(events, key=lambda event: event[0].fd == self._replies):
                    data = _read(key.fd)
                    if key.fd == self._replies:
                        if not data:
                            return None
                        self._pending += data
                        if b"\n" in self._pending:
                            self._drain_outputs()
                            line, _, rest = bytes(self._pending).partition(b"\n")
                            self._pending = bytearray(rest)
                            return line
                    elif data:
                        written += len(data)
                        if written > self.limits.output:
                            return _OVERFLOW
                        self._outputs[key.fd].write(data)
                    elif data is not None:
                        selector.unregister(key.fd)

    def _drain_outputs(self) -> None:
        """Everything the child wrote before its reply (it flushes first)."""
        for fd, sink in self._outputs.items():
            while data := _read(fd):
                sink.write(data)

    def _lost(self, problem: str | None) -> SessionLost:
        self.close()
        if problem is None:
            _, wait_status = self._status
            if os.WIFSIGNALED(wait_status):
                number = os.WTERMSIG(wait_status)
                problem = (
                    memory_problem(self.limits.memory)
                    if number == signal.SIGKILL
                    else f"killed by signal {signal.Signals(number).name} (a crash)"
                )
            elif os.WEXITSTATUS(wait_status) == OUT_OF_MEMORY:
                problem = memory_problem(self.limits.memory)
            else:
                problem = "stopped: its process ended"
        return SessionLost(problem)

    def close(self) -> None:
        """End the child (at once: its state is of no further use)."""
        if not self.alive:
            return
        self.alive = False
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self._status = os.waitpid(self.pid, 0)
        self._drain_outputs()
        for fd in (*self._outputs, self._replies, self._requests):
            os.close(fd)


_TIMED_OUT, _OVERFLOW = object(), object()


def _read(fd: int) -> bytes | None:
    """What a non-blocking pipe has now: b"" at its end, None when it has nothing yet."""
    try:
        return os.read(fd, _CHUNK)
    except BlockingIOError:
        return None
    except OSError:
        return b""


def _serve_forever(serve: Callable[[dict], dict], requests: int, replies: int) -> int:
    """The child's loop: one JSON request per line in, one JSON reply per line out. Ctrl-C
    (SIGINT from the parent) stops the request running, not the loop."""
    import json

    signal.signal(signal.SIGINT, signal.default_int_handler)
    pending = b""
    while True:
        try:
            while b"\n" not in pending:
                data = os.read(requests, _CHUNK)
                if not data:
                    return 0
                pending += data
        except KeyboardInterrupt:  # a late Ctrl-C between requests: nothing to stop
            continue
        line, _, pending = pending.partition(b"\n")
        try:
            reply = serve(json.loads(line))
        except KeyboardInterrupt:
            sys.stdout.flush()
            sys.stderr.write("KeyboardInterrupt\n")
            reply = {"ok": False}
        sys.stdout.flush()
        sys.stderr.flush()
        os.write(replies, json.dumps(reply).encode() + b"\n")


# ---- what the parent imports before forking -----------------------------------------------

LAZY_SUBMODULES = ("autograd", "backends", "cuda", "linalg", "nn", "optim", "utils")
# words of a source that may reach numpy.random, which the engine imports on first use
_NN_WORDS = ("nn", "softmax")  # torch.softmax and Tensor.softmax live in nn.functional
_RANDOM_WORDS = (
    "rand",
    "seed",
    "normal",
    "uniform",
    "bernoulli",
    "multinomial",
    "drop",
    "shuffle",
    "init",
    "Generator",
    "gradcheck",
    "nn",
    "utils",
    "sample",
)
_CODECS = (
    "ascii",
    "latin-1",
    "utf-8",
    "utf-8-sig",
    "utf-16",
    "utf-32",
    "unicode_escape",
    "raw_unicode_escape",
    "cp1252",
    "cp437",
)
_WARM_SOURCE = 'x = [i for i in range(2)]\ny = f"{x!r:>4}"\n'


def warm_up(sources: Iterable[str | bytes] | None = None, *, rendering: bool = False) -> None:
    """Import, in the parent, everything a child needs: it cannot open a file once locked down.

    The engine, the language with its parse tables, this package's command modules; the
    engine's lazy submodules (`nn`, `optim`, ...) all, or with `sources` only those whose name
    the sources mention (the one-liner's start-up stays short), and numpy's random module when
    the sources may use it; with `rendering`, Rich, warmed by drawing once (it imports parts of
    itself while drawing).
    """
    import difflib  # noqa: F401 - suggestions in error messages
    import json  # noqa: F401 - --json output
    import traceback  # noqa: F401 - --debug

    import autodiff_cli.engine as engine
    from autodiff_cli.lang import compile_source

    compile_source(_WARM_SOURCE, "<warm-up>")
    _import_command_modules()
    for encoding in _CODECS:  # str.encode/bytes.decode load codecs on first use
        codecs.lookup(encoding)
    if sources is None:
        wanted, random = LAZY_SUBMODULES, True
    else:
        text = b"\n".join(s.encode(errors="replace") if isinstance(s, str) else s for s in sources)
        words = {name: (name,) for name in LAZY_SUBMODULES} | {"nn": _NN_WORDS}
        wanted = tuple(  # the commands themselves use autograd (jacobians, gradient probes)
            name
            for name in LAZY_SUBMODULES
            if name == "autograd" or any(word.encode() in text for word in words[name])
        )
        random = any(word.encode() in text for word in _RANDOM_WORDS)
    for name in wanted:
        getattr(engine, name)
    if random:
        import numpy.random  # noqa: F401
    if rendering:
        _warm_rich()


# the entry points (Typer, prompt_toolkit): never imported by a child
_NOT_IN_CHILDREN = {"__init__", "__main__", "app", "commands", "fast_path", "repl_terminal"}


def _import_command_modules() -> None:
    """Every module of this package the children may import on the way (reports, graphs)."""
    import importlib

    folder = os.path.dirname(__file__)
    for name in sorted(os.listdir(folder)):
        stem, dot, suffix = name.partition(".")
        if suffix == "py" and stem not in _NOT_IN_CHILDREN:
            importlib.import_module(f"{__package__}.{stem}")


def _warm_rich() -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text
    from rich.tree import Tree

    console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=80)
    tree = Tree(Text("a", style="bold"))
    tree.add("b ─ é").add(Text("c", style="red"))
    table = Table("x", "y")
    table.add_row("1", Text("2", style="cyan"))
    console.print(tree, table)
