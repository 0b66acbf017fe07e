"""Children this process forked, so that none outlives it.

Every child is forked through `fork_child` while the signals that end this process are held:
once they are let through, the child is on the list `kill_children` works from. While any
child lives, SIGTERM, SIGHUP and SIGQUIT (a `kill`, `timeout`, a closed terminal, Ctrl-\\)
are caught: every child, and its process group, gets SIGKILL, and this process exits with
status 128 + the signal. SIGINT stays Python's KeyboardInterrupt (the loops that wait for
children kill them on their way out). A SIGKILL of this process cannot be caught: the child's
own `PR_SET_PDEATHSIG` covers it.
"""

from __future__ import annotations

import os
import select
import selectors
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from autodiff_cli.cli.jail import lockdown, namespaces

ENDING_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGQUIT") if hasattr(signal, name)
)
HELD_SIGNALS = (signal.SIGINT, *ENDING_SIGNALS)
REAP_WAIT = 2.0  # seconds to wait for killed children before this process exits anyway

_live: dict[int, int | None] = {}  # pid -> its pidfd (None where the kernel has none)
_saved_handlers: dict[int, Any] = {}
_mask_before_fork: set[int] | None = None


def on_main_thread() -> bool:
    """Whether this is the main thread. `threading` is asked only when something loaded it:
    without it no thread was started from Python (and the one-liner's start-up is spared it)."""
    threading = sys.modules.get("threading")
    return threading is None or threading.current_thread() is threading.main_thread()


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT and the ending signals (they wait, pending) until the block ends: a child
    forked inside is registered before any handler can run. Nests; a no-op off the main
    thread or where signal masks do not exist."""
    global _mask_before_fork
    if not hasattr(signal, "pthread_sigmask") or _mask_before_fork is not None:
        yield
        return
    if not on_main_thread():
        yield
        return
    _mask_before_fork = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    try:
        yield
    finally:
        before, _mask_before_fork = _mask_before_fork, None
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


WAKEUP = object()  # the selector key data of `signal_wakeup`'s pipe


@contextmanager
def signal_wakeup(selector: selectors.BaseSelector) -> Iterator[None]:
    """Wake `selector` on any caught signal (its key data is `WAKEUP`: `drain_wakeup` it).
    Python runs a handler between bytecodes: a Ctrl-C that lands after the loop's last check
    and before its wait (output just relayed, the user's key right after it) would otherwise
    wait for the next event, forever for a silent child. The handler's C half writes to this
    pipe instead, so the wait ends at once and KeyboardInterrupt is raised. Main thread only."""
    if not on_main_thread():
        yield
        return
    read_fd, write_fd = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    previous = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    selector.register(read_fd, selectors.EVENT_READ, WAKEUP)
    try:
        yield
    finally:
        signal.set_wakeup_fd(previous)
        selector.unregister(read_fd)
        os.close(read_fd)
        os.close(write_fd)


def drain_wakeup(key: selectors.SelectorKey) -> None:
    """Empty the wake-up pipe (the signals' handlers run on their own)."""
    try:
        while os.read(key.fd, 512):
            pass
    except BlockingIOError:
        pass


def fork_child() -> tuple[int, int | None]:
    """`os.fork()` that registers the child: (pid, pidfd) in the parent, (0, None) in the
    child, whose signal mask is restored. Call inside `signals_held()`. The pidfd (Linux 5.3+)
    becomes readable when the child exits; None elsewhere (poll `os.waitpid` then)."""
    _catch_ending_signals()
    libc = lockdown.libc()
    alone = namespaces.pid_namespace_for_next_fork(libc)  # one fork, not two, for the jail
    try:
        pid = os.fork()
    finally:
        if alone and os.getpid() != 1:  # (the child, PID 1 there, stays where it was born)
            namespaces.own_pid_namespace_again(libc)
    if pid == 0:
        try:
            signal.set_wakeup_fd(-1)  # the parent's wake-up pipe (`signal_wakeup`) is not ours
        except ValueError:  # (forked off the main thread: none was set there)
            pass
        if _mask_before_fork is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, _mask_before_fork)
        _live.clear()
        return 0, None
    exit_fd = _open_pidfd(pid)
    _live[pid] = exit_fd
    return pid, exit_fd


def _open_pidfd(pid: int) -> int | None:
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return None
    try:
        return opener(pid)
    except OSError:  # a kernel before 5.3, or a filter that refuses it
        return None


def kill_child(pid: int) -> None:
    """SIGKILL the child (not yet reaped) and the process group it leads, if any."""
    if pid not in _live:  # reaped: the number may belong to someone else now
        return
    _kill_group(pid)
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def reap_child(pid: int, block: bool = False) -> int | None:
    """The child's wait status once it has exited (None while it runs, unless `block`). The
    process group it led is killed first, while its number is still taken by the exited
    child: nothing it left behind keeps its pipes open."""
    if pid not in _live:
        return None
    flags = 0 if block else os.WNOHANG
    try:
        if hasattr(os, "waitid"):
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT | flags) is None:
                return None
            _kill_group(pid)
            flags = 0
        done, status = os.waitpid(pid, flags)
    except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored): its status is lost
        done, status = pid, 255 << 8
    if done == 0:
        return None
    forget_child(pid)
    return status


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def forget_child(pid: int) -> None:
    """Drop a reaped child from the list (closing its pidfd); the ending signals go back to
    their former handlers when no child is left."""
    exit_fd = _live.pop(pid, None)
    if exit_fd is not None:
        os.close(exit_fd)
    if not _live:
        _restore_handlers()


def kill_children() -> None:
    """SIGKILL every live child and reap them (waiting at most `REAP_WAIT` seconds)."""
    pids = list(_live)
    for pid in pids:
        kill_child(pid)
    deadline = time.monotonic() + REAP_WAIT
    for pid in pids:
        while reap_child(pid) is None and time.monotonic() < deadline:
            exit_fd = _live.get(pid)
            if exit_fd is not None:
                select.select([exit_fd], [], [], max(0.0, deadline - time.monotonic()))
            else:
                time.sleep(0.01)


def live_children() -> list[int]:
    """The pids of the children not yet reaped."""
    return list(_live)


def _on_ending_signal(number: int, frame: Any) -> None:
    """Kill every child, then end with the conventional status; nothing else is flushed or
    cleaned (a full pipe or a hung-up terminal must not keep this process alive)."""
    try:
        kill_children()
    finally:
        os._exit(128 + number)


def _catch_ending_signals() -> None:
    if _saved_handlers or not on_main_thread():
        return
    for number in ENDING_SIGNALS:
        if signal.getsignal(number) == signal.SIG_IGN:  # `nohup`: the user's choice stands
            continue
        try:
            _saved_handlers[number] = signal.signal(number, _on_ending_signal)
        except (OSError, ValueError):
            pass


def _restore_handlers() -> None:
    if not on_main_thread():
        return
    for number, handler in _saved_handlers.items():
        try:
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
        except (OSError, ValueError, TypeError):
            pass
    _saved_handlers.clear()
