"""A long-lived locked-down child that keeps its state across requests: the REPL's session.

Built on `isolation`'s lock-down; requests and replies are JSON lines on a pipe each way.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

from autodiff_cli.cli.jail.child_guard import (
    WAKEUP,
    drain_wakeup,
    fork_child,
    kill_child,
    reap_child,
    signal_wakeup,
    signals_held,
)
from autodiff_cli.cli.jail.isolation import (
    CHUNK,
    Limits,
    Sink,
    check_limits,
    child_main,
    ended_problem,
    output_problem,
    read_pipe,
)
from autodiff_cli.cli.jail.process_tree import stat_fields

# A child gets 1 second of its own CPU time to stop after Ctrl-C before it is killed: a Python
# loop stops at once, a long numpy call does not. CPU time, not wall time: on a loaded machine a
# child may wait longer than a second for a core and still stop, and losing the session's
# variables then would be wrong. A child that uses no CPU and does not stop (stopped, blocked
# in the kernel) is killed after `INTERRUPT_WALL_LIMIT` seconds.
INTERRUPT_WAIT = 1.0
INTERRUPT_WALL_LIMIT = 10.0
INTERRUPT_POLL = 0.1  # seconds between looks at the child's CPU time
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


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
    `INTERRUPT_WAIT` seconds of CPU time to stop before it is killed (SessionLost). `outputs`:
    where the child's stdout and stderr go instead (a notebook kernel's stream messages).
    """

    def __init__(
        self, serve: Callable[[dict], dict], limits: Limits, outputs: tuple[Any, Any] | None = None
    ) -> None:
        check_limits(limits)
        self.limits = limits
        request_read, self._requests = os.pipe()
        self._replies, reply_write = os.pipe()
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        with signals_held():  # registered before a signal can end this process
            self.pid, _ = fork_child()
            if self.pid == 0:  # the child
                for fd in (self._requests, self._replies, out_read, err_read):
                    os.close(fd)
                loop = lambda: _serve_forever(serve, request_read, reply_write)  # noqa: E731
                child_main(loop, limits, out_write, err_write, (request_read, reply_write))
            self.alive = True
        for fd in (request_read, reply_write, out_write, err_write):
            os.close(fd)
        out, err = outputs or (sys.stdout, sys.stderr)
        self._outputs = {out_read: Sink(out), err_read: Sink(err)}
        for fd in (*self._outputs, self._replies):
            os.set_blocking(fd, False)
        self._pending = bytearray()
        self._written = 0

    def request(self, message: dict) -> dict:
        """Send one request and wait for its reply, streaming the child's output meanwhile."""
        if not self.alive:
            raise SessionLost("ended")
        try:
            os.write(self._requests, json.dumps(message).encode() + b"\n")
        except OSError:
            raise self._lost(None) from None
        self._written = 0  # the request's output so far (bounded by `limits.output`)
        interrupted: tuple[float, float | None] | None = None  # (when, child's CPU time then)
        while True:
            wait = None if interrupted is None else time.monotonic() + INTERRUPT_POLL
            try:
                reply = self._wait_reply(wait)
            except KeyboardInterrupt:
                if interrupted is None:
                    interrupted = (time.monotonic(), cpu_seconds(self.pid))
                    os.kill(self.pid, signal.SIGINT)
                continue
            if reply is _TIMED_OUT:
                if not _past_interrupt_wait(self.pid, interrupted):
                    continue
                raise self._lost("stopped: it could not be interrupted within 1 second")
            if reply is _OVERFLOW:
                raise self._lost(output_problem(self.limits.output))
            if reply is None:
                raise self._lost(None)
            try:
                message = json.loads(reply)
            except ValueError:  # invalid JSON, or text that is not UTF-8
                message = None
            if type(message) is not dict:
                raise self._lost("ended: its process sent a reply that is not a JSON object")
            return message

    def _wait_reply(self, until: float | None) -> Any:
        """The reply line; None if the child died, _TIMED_OUT past `until`, _OVERFLOW when the
        output passed the limit."""
        with selectors.DefaultSelector() as selector, signal_wakeup(selector):
            for fd in (*self._outputs, self._replies):
                selector.register(fd, selectors.EVENT_READ)
            while True:
                timeout = None if until is None else until - time.monotonic()
                if timeout is not None and timeout <= 0:  # (even while output flows)
                    return _TIMED_OUT
                events = selector.select(timeout)
                for key, _ in sorted(events, key=lambda event: event[0].fd == self._replies):
                    if key.data is WAKEUP:
                        drain_wakeup(key)  # a signal (Ctrl-C): its handler runs next
                        continue
                    data = read_pipe(key.fd)
                    if key.fd == self._replies:
                        if not data:
                            return None
                        self._pending += data
                        if len(self._pending) > self.limits.output + 1:  # a reply is bounded
                            return _OVERFLOW  # as the output (no endless line held here)
                        if b"\n" in data:
                            if not self._drain_outputs(self.limits.output - self._written):
                                return _OVERFLOW
                            line, _, rest = bytes(self._pending).partition(b"\n")
                            self._pending = bytearray(rest)
                            return line
                    elif data:
                        self._written += len(data)
                        if self._written > self.limits.output:
                            return _OVERFLOW
                        self._outputs[key.fd].write(data)
                    elif data is not None:
                        selector.unregister(key.fd)

    def _drain_outputs(self, room: int) -> bool:
        """What the child wrote before its reply (it flushes first), read without waiting, at
        most `room` bytes; False when there was more."""
        for fd, sink in self._outputs.items():
            while data := read_pipe(fd):
                room -= len(data)
                if room < 0:
                    return False
                sink.write(data)
        return True

    def _lost(self, problem: str | None) -> SessionLost:
        self.close()
        if problem is None:
            _, wait_status = self._status
            problem = ended_problem(wait_status, self.limits) or "stopped: its process ended"
        return SessionLost(problem)

    def close(self) -> None:
        """End the child (at once: its state is of no further use)."""
        if not self.alive:
            return
        self.alive = False
        kill_child(self.pid)
        self._status = (self.pid, reap_child(self.pid, block=True) or 0)
        self._drain_outputs(self.limits.output)
        for fd in (*self._outputs, self._replies, self._requests):
            os.close(fd)


_TIMED_OUT, _OVERFLOW = object(), object()


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system) process `pid` and its live descendants have used, from
    /proc; None where unreadable. (Without root, a jailed child forks once more to be alone in
    its PID namespace: the script runs in its child.)"""
    total = _own_cpu_seconds(pid)
    if total is None:
        return None
    todo = live_children(pid)
    for _ in range(16):  # (a jail's tree is two processes deep; threads and forks are refused)
        if not todo:
            break
        current = todo.pop()
        total += _own_cpu_seconds(current) or 0.0
        todo.extend(live_children(current))
    return total


def _own_cpu_seconds(pid: int) -> float | None:
    fields = stat_fields(pid)
    try:
        return (int(fields[11]) + int(fields[12])) / _TICKS  # utime, stime
    except (TypeError, IndexError, ValueError):  # (None: the process is gone)
        return None


def live_children(pid: int) -> list[int]:
    """The live children of `pid`'s main thread (/proc's `children` list)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as handle:
            return [int(child) for child in handle.read().split()]
    except (OSError, ValueError):
        return []


def _past_interrupt_wait(pid: int, interrupted: tuple[float, float | None]) -> bool:
    """Whether a child interrupted at `interrupted` (when, CPU time then) has had its chance:
    `INTERRUPT_WAIT` seconds of its own CPU time, or `INTERRUPT_WALL_LIMIT` seconds in all
    (where /proc cannot tell, `INTERRUPT_WAIT` seconds)."""
    since, cpu_then = interrupted
    waited = time.monotonic() - since
    cpu_now = cpu_seconds(pid)
    if cpu_then is None or cpu_now is None:
        return waited >= INTERRUPT_WAIT
    return cpu_now - cpu_then >= INTERRUPT_WAIT or waited >= INTERRUPT_WALL_LIMIT


def _serve_forever(serve: Callable[[dict], dict], requests: int, replies: int) -> int:
    """The child's loop: one JSON request per line in, one JSON reply per line out. Ctrl-C
    (SIGINT from the parent) stops the request running, not the loop."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    pending = b""
    while True:
        try:
            while b"\n" not in pending:
                data = os.read(requests, CHUNK)
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
