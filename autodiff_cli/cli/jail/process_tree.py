"""The processes below a run, read from /proc: a process is named by its pid and its start time
(so a pid reused later names another), alive until it exits (a zombie counts as gone).

`Tracker` samples the tree below a batch run often, so it reads only the processes it has not
seen before; `descendants` reads the whole table once.
"""

from __future__ import annotations

import os
import signal
from contextlib import suppress
from dataclasses import dataclass


@dataclass
class Process:
    pid: int
    started: str  # /proc/PID/stat's start time: the pid still names this process


def stat_fields(pid: int) -> list[str] | None:
    """/proc/PID/stat's fields after the command name (which may hold spaces): [0] the state,
    [1] the parent's pid, [11] and [12] the CPU ticks, [19] the start time; None once gone.
    (Read with os.read: the battery's sampling reads it often.)"""
    try:
        fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
        try:
            data = os.read(fd, 4096)
        finally:
            os.close(fd)
    except OSError:
        return None
    return data[data.rfind(b")") + 2 :].decode("ascii", "replace").split()


def start_time(pid: int) -> str | None:
    fields = stat_fields(pid)
    return fields[19] if fields else None


def alive(process: Process) -> bool:
    fields = stat_fields(process.pid)
    return bool(fields) and fields[19] == process.started and fields[0] not in ("Z", "X")


def children_of(pid: int) -> list[int]:
    return [child for child, parent in parent_table().items() if parent == pid]


def parent_table() -> dict[int, int]:
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = stat_fields(int(name))
            if fields:
                parents[int(name)] = int(fields[1])
    return parents


def descendants(pid: int) -> list[Process]:
    """Every process below `pid`, parents before children."""
    parents = parent_table()
    found, todo = [], [pid]
    while todo:
        current = todo.pop(0)
        for child, parent in parents.items():
            if parent == current:
                started = start_time(child)
                if started is not None:
                    found.append(Process(child, started))
                    todo.append(child)
    return found


def kill(process: Process) -> None:
    """SIGKILL this process, if its pid still names it."""
    if alive(process):
        with suppress(OSError):
            os.kill(process.pid, signal.SIGKILL)


class Tracker:
    """The processes below a run, each with the run's child it descends from (a FILE's own
    process: its record names its pid), sampled from /proc. Only processes not seen before are
    read: one outside the run's tree stays outside (a process is only ever moved up the tree,
    to init), one inside keeps the place where it was first seen."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.seen: dict[tuple[int, str], tuple[Process, int]] = {}
        self.tops: dict[int, int] = {}  # live pid below the run -> its top
        self.outside: set[int] = set()  # live pids not below the run

    def sample(self) -> None:
        live = {int(name) for name in os.listdir("/proc") if name.isdigit()}
        self.outside &= live
        self.tops = {pid: top for pid, top in self.tops.items() if pid in live}
        new = {}
        for pid in live - self.outside - self.tops.keys():
            entry = stat_entry(pid)
            if entry is not None:
                new[pid] = entry
        for pid in sorted(new):
            self._place(pid, new)

    def _place(self, pid: int, new: dict[int, tuple[int, str]]) -> None:
        """Place `pid` and the new processes above it, up to one already placed."""
        chain = []
        while pid in new and pid not in self.tops and pid not in self.outside:
            chain.append(pid)
            parent = new[pid][0]
            if parent == self.root:
                break
            pid = parent
        if not chain:
            return
        last = chain[-1]
        if new[last][0] == self.root:
            top: int | None = last
        else:
            top = self.tops.get(new[last][0])  # None: below a process outside, or gone
        for pid in reversed(chain):
            if top is None:
                self.outside.add(pid)
                continue
            self.tops[pid] = top
            process = Process(pid, new[pid][1])
            self.seen.setdefault((pid, process.started), (process, top))

    def below(self, top: int) -> list[Process]:
        return [process for process, under in self.seen.values() if under == top]

    def others(self, tops: set[int]) -> list[Process]:
        return [process for process, under in self.seen.values() if under not in tops]


def stat_entry(pid: int) -> tuple[int, str] | None:
    """(parent pid, start time) of a process."""
    fields = stat_fields(pid)
    return (int(fields[1]), fields[19]) if fields and len(fields) > 19 else None
