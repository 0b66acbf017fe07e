"""One run of the battery with several attacks (`python -m autodiff_cli.jail --json FILE...`),
watched from outside: each record taken as it arrives (when, and what changed in the run's own
folders by then), the process tree below the run sampled, and DEATH_GRACE after each record what
is left alive below its FILE's own process (killed, and counted against its attack). A run that
hangs on one FILE is killed past that FILE's deadline plus HARD_STOP. `battery.judge` then
judges each attack on its `Run`.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from autodiff_cli.cli.jail.process_tree import Process, Tracker, alive, kill

START_ALLOWANCE = 6.0  # seconds for start-up (warm-up, fork) on a busy machine, past the deadline
KILL_GRACE = 1.0  # isolation.KILL_GRACE: the parent kills the child this long past --timeout
HARD_STOP = 20.0  # seconds past the deadline when the harness itself ends a run
DEATH_GRACE = 3.0  # seconds the workers of a run that ended get to be gone
SAMPLE = 0.1  # seconds between looks at a batch's process tree


@dataclass
class Run:
    """How one attack's run went, from outside: a run of its own, or its record in a batch."""

    status: int | None  # os.waitstatus_to_exitcode, None when the harness had to kill it
    seconds: float
    peak_kb: int
    stdout: bytes
    stderr: bytes
    leftovers: list[Process]
    survivors: list[Process]  # for `orphan`: workers alive after their parent was killed
    sibling_checked: bool = False  # a batch looked at the sibling as the record arrived


@dataclass
class Room:
    """A batch's own working folder and HOME (anyone may write to them) and what they held when
    the last record arrived: a change seen when a record arrives is its attack's."""

    base: Path
    work: Path
    home: Path
    listing: dict[str, list[str]] = field(default_factory=dict)

    def look(self) -> dict[str, list[str]]:
        return {"work": sorted(os.listdir(self.work)), "home": sorted(os.listdir(self.home))}

    def changes(self) -> list[str]:
        """What changed since the last look (which this one becomes)."""
        now, before = self.look(), self.listing
        self.listing = now
        return [
            f"changed the run's {key} folder: {sorted(set(now[key]) ^ set(before[key]))}"
            for key in ("work", "home")
            if now[key] != before[key]
        ]


def make_room(cleanup: ExitStack) -> Room:
    base = Path(tempfile.mkdtemp(prefix="autodiff-jail-batch-"))
    cleanup.callback(shutil.rmtree, base, True)
    base.chmod(0o755)
    room = Room(base, base / "work", base / "home")
    for folder in (room.work, room.home):
        folder.mkdir()
        folder.chmod(0o777)  # so that only the jail stops a write, whoever runs it
    room.listing = room.look()
    return room


@dataclass
class Batch:
    """What a batch run gave: its end, and each attack's record (by its FILE's path), when the
    record arrived after the one before (`seconds`), what changed in the run's folders as it
    arrived, and the processes below its FILE's own process left alive DEATH_GRACE after."""

    status: int | None = None
    peak_kb: int = 0
    stderr: bytes = b""
    ended_after: float = 0.0  # seconds from the last record (or the start) to the run's end
    records: dict[str, dict] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    changes: dict[str | None, list[str]] = field(default_factory=dict)
    leftovers: dict[str | None, list[Process]] = field(default_factory=dict)
    junk: list[str] = field(default_factory=list)
    sibling: Process | None = None  # the batch's sibling worker
    sibling_killed_at: str | None = None  # the record at which it was first found dead
    sibling_killed_late: bool = False  # found dead only after the last record

    def run_of(self, path: str) -> Run:
        record = self.records[path]
        return Run(
            record["status"], self.seconds[path], record["peak_kb"], encoded(record["stdout"]),
            encoded(record["stderr"]), self.leftovers.get(path, []), [], sibling_checked=True,
        )  # fmt: skip

    def end_run(self) -> Run:
        """For the first attack without a record: the run's own end."""
        return Run(
            self.status, self.ended_after, self.peak_kb, b"", b"", self.leftovers.get(None, []), [],
            sibling_checked=True,
        )  # fmt: skip

    def reasons_of(self, path: str, values: dict[str, str]) -> list[str]:
        """What the run as a whole says of this attack: the changes seen with its record (or,
        for the attack the run ended on, after the last), and for every attack what cannot be
        attributed (a message of the run itself, a line that is no record, a wrong status)."""
        mine = path in self.records
        reasons = list(self.changes.get(path if mine else None, []))
        if not mine:
            reasons.append("the run ended without its record (--json)")
        text = self.stderr.decode("utf-8", "replace")
        if text.strip():
            first = text.strip().splitlines()[0][:120]
            reasons.append(f"the run printed on its own stderr: {first}")
        unread = [self.stderr, *(line.encode() for line in self.junk)]
        if any(value.encode() in text for value in values.values() for text in unread):
            reasons.append("a secret of the environment was printed")
        else:
            reasons += [f"a line of the run's output is not a record: {line}" for line in self.junk]
        statuses = [record["status"] for record in self.records.values()]
        expected = next((status for status in statuses if status), 0)
        if self.status is not None and self.status >= 0 and self.status != expected:
            reasons.append(f"the run's exit status {self.status} is not its files' ({expected})")
        if mine and self.leftovers.get(None):
            reasons.append(f"{len(self.leftovers[None])} process(es) of the run outlived it")
        if self.sibling is not None and (
            self.sibling_killed_at == path or self.sibling_killed_late
        ):
            late = " after the last record" if self.sibling_killed_late else ""
            reasons.append(f"the sibling worker {self.sibling.pid} was killed{late}")
        if mine and self.changes.get(None):
            reasons += [f"{change} (after the last record)" for change in self.changes[None]]
        return reasons


def encoded(text: object) -> bytes:
    return text.encode("utf-8", "surrogatepass") if isinstance(text, str) else b""


class Reader:
    """The run's stdout, cut into lines as they come (a record may be 100 MB long)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        self.scanned = 0
        self.open = True

    def lines(self) -> list[bytes]:
        """The complete lines read now, without waiting."""
        while self.open:
            try:
                data = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                break
            if not data:
                self.open = False
            self.buffer += data
        found = []
        while True:
            end = self.buffer.find(b"\n", self.scanned)
            if end < 0:
                self.scanned = len(self.buffer)
                if not self.open and self.buffer:
                    found.append(bytes(self.buffer))
                    self.buffer.clear()
                return found
            found.append(bytes(self.buffer[:end]))
            del self.buffer[: end + 1]
            self.scanned = 0


class Watch:
    """Takes each record as it arrives and, DEATH_GRACE after it at most, what is left alive
    of its FILE's own process and all below it."""

    def __init__(self, batch: Batch, room: Room, tracker: Tracker, started: float) -> None:
        self.batch = batch
        self.room = room
        self.tracker = tracker
        self.last = started
        self.waiting: dict[str, tuple[int, float]] = {}  # path -> (its pid, arrival)

    def take(self, line: bytes, now: float) -> None:
        if not line.strip():
            return
        try:
            record = json.loads(line)
            path = record["path"]
            known = isinstance(path, str) and path not in self.batch.records
            known = known and type(record["status"]) is int and type(record["pid"]) is int
            known = known and type(record["peak_kb"]) is int
        except (ValueError, KeyError, TypeError):
            known = False
        if not known:
            self.batch.junk.append(line[:120].decode("utf-8", "replace"))
            return
        self.batch.records[path] = record
        self.batch.seconds[path] = now - self.last
        self.batch.changes[path] = self.room.changes()
        self.waiting[path] = (record["pid"], now)
        self.last = now
        sibling = self.batch.sibling
        if sibling is not None and self.batch.sibling_killed_at is None and not alive(sibling):
            self.batch.sibling_killed_at = path

    def check(self, now: float, final: bool = False) -> None:
        for path, (pid, arrived) in list(self.waiting.items()):
            living = [process for process in self.tracker.below(pid) if alive(process)]
            if living and not final and now < arrived + DEATH_GRACE:
                continue
            del self.waiting[path]
            self.batch.leftovers[path] = living
            for process in living:
                kill(process)


def execute_batch(
    command: list[str], room: Room, env: dict[str, str], timeout: float, sibling: Process | None
) -> Batch:
    """Run the batch, taking records as they come; kill it when one FILE takes past its
    deadline plus HARD_STOP (the attack it hung on is judged on that)."""
    with open(room.base / "run.err", "wb") as stderr:
        started = time.monotonic()
        process = subprocess.Popen(
            command, cwd=room.work, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=stderr, start_new_session=True,
        )  # fmt: skip
    process.returncode = 0  # reaped with os.wait4 below
    batch = Batch(sibling=sibling)
    tracker = Tracker(process.pid)
    watch = Watch(batch, room, tracker, started)
    reader = Reader(process.stdout.fileno())  # type: ignore[union-attr]
    os.set_blocking(reader.fd, False)
    limit = timeout + KILL_GRACE + START_ALLOWANCE + HARD_STOP
    sampled = 0.0
    try:
        while True:
            if reader.open:
                select.select([reader.fd], [], [], 0.02)
            else:
                time.sleep(0.02)
            now = time.monotonic()
            for line in reader.lines():
                watch.take(line, now)
            done, wait_status, usage = os.wait4(process.pid, os.WNOHANG)
            if done:
                batch.status, batch.peak_kb = exit_code(wait_status), usage.ru_maxrss
                break
            if now - sampled > SAMPLE:
                sampled = now
                tracker.sample()
                watch.check(now)
            if now > watch.last + limit:
                tracker.sample()
                os.kill(process.pid, signal.SIGKILL)
                _, _, usage = os.wait4(process.pid, 0)
                batch.peak_kb = usage.ru_maxrss
                break
        ended = time.monotonic()
        finish_batch(batch, reader, watch, tracker, ended)
    finally:
        process.stdout.close()  # type: ignore[union-attr]
    batch.stderr = (room.base / "run.err").read_bytes()
    return batch


def exit_code(wait_status: int) -> int:
    return os.waitstatus_to_exitcode(wait_status)


def finish_batch(
    batch: Batch, reader: Reader, watch: Watch, tracker: Tracker, ended: float
) -> None:
    """After the run: the records still in the pipe, then DEATH_GRACE at most for every process
    seen below it to be gone (those left are killed)."""
    batch.ended_after = ended - watch.last
    grace = ended + DEATH_GRACE
    while reader.open and time.monotonic() < grace:
        select.select([reader.fd], [], [], 0.05)
        for line in reader.lines():
            watch.take(line, time.monotonic())
    tops = {record["pid"] for record in batch.records.values()}
    while time.monotonic() < grace:
        watch.check(time.monotonic())
        if not watch.waiting and not any(alive(p) for p in tracker.others(tops)):
            break
        time.sleep(0.05)
    watch.check(time.monotonic(), final=True)
    batch.changes[None] = watch.room.changes()
    if batch.sibling is not None and batch.sibling_killed_at is None:
        batch.sibling_killed_late = not alive(batch.sibling)
    batch.leftovers[None] = [p for p in tracker.others(tops) if alive(p)]
    for process in batch.leftovers[None]:
        kill(process)
