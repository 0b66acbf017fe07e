"""Runs the attack battery (`attacks.ATTACKS`) through `python -m autodiff_cli.jail` and judges
each attack from the outside: the command a user or `autodiff doctor` runs, a few runs at once.

Attacks that share their flags run together, `--json` with several FILEs (`run_batch`): each in a
fresh jailed child of its own, forked from its own copy of the warm process, so one start-up
serves many attacks while each keeps its own child, its own record (status, output, seconds,
peak memory: a kill is attributed) and its own stage. An attack judged on the whole run's process
tree (`orphan`: the harness kills the run) runs alone (`run_attack`), as every attack once did.

Each attack gets its own stage: a working folder and a HOME anyone may write to (holding a victim
file anyone may change), a TCP, UDP, UNIX and abstract UNIX listener, canary secrets in the
environment of the command, and for some attacks a sibling jailed worker; they reach the attack
as absolute paths in its preamble. A batch's own working folder and HOME are looked at as each
record arrives (a change is its attack's). `judge` then decides *contained*: the attack ended
cleanly (exit status 0: every door was shut; or 1: the jail stopped it, with one message `FILE:
error: ...`), printed no `ESCAPED:` line, no traceback and no secret, ended within its deadline
and memory limit, left no process behind, and changed nothing outside (no file, no connection,
the sibling alive, the worker dead with its parent, the memory scan really scanned, the output cut
at its limit).
"""

from __future__ import annotations

import json
import os
import platform
import secrets
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field
from pathlib import Path

from autodiff_cli.cli.jail.attacks import ATTACKS, DEFAULT_TIMEOUT, Attack
from autodiff_cli.cli.jail.isolation import parse_size
from autodiff_cli.cli.jail.syscalls import numbers_for

START_ALLOWANCE = 6.0  # seconds for start-up (warm-up, fork) on a busy machine, past the deadline
KILL_GRACE = 1.0  # isolation.KILL_GRACE: the parent kills the child this long past --timeout
HARD_STOP = 20.0  # seconds past the deadline when the harness itself ends a run
DEATH_GRACE = 3.0  # seconds the workers of a run that ended get to be gone
SAMPLE = 0.1  # seconds between looks at a batch's process tree
MIN_BATCH, MAX_BATCH = 12, 24  # attacks in one run (each run's start-up costs ~0.25 CPU-s)
ALONE = ("orphan",)  # effects judged on the whole run (its process tree is killed): run alone
MIN_SCANNED = 50 << 20  # bytes the memory scan must cover to show no secret is in memory
OUTPUT_SLACK = 1 << 16
DEFAULT_MEMORY = 2 << 30
DEFAULT_OUTPUT = 64 << 20
CANARY_NAMES = ("AUTODIFF_JAIL_CANARY", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN")
KEY = 0x5A  # canaries are written into attack files XOR-ed, so the file holds no copy
PACKAGE_ROOT = str(Path(__file__).resolve().parents[3])

# system call numbers for the attacks' ctypes calls
SYSCALLS = {machine: numbers_for(machine) for machine in ("x86_64", "aarch64")}

PREAMBLE = '''\
# The harness's fixtures and helpers (autodiff_cli/cli/jail/battery.py); the attack follows.
import ctypes, errno, os, signal, socket, sys, time
NR = {nr!r}
PORT, UDP_PORT, UNIX_PATH, ABSTRACT = {port!r}, {udp_port!r}, {unix_path!r}, {abstract!r}
SIBLING = {sibling!r}
WORKDIR, VICTIM, HOME_TARGET = {workdir!r}, {victim!r}, {home_target!r}
TMP_TARGET, SHM_TARGET = {tmp_target!r}, {shm_target!r}
CANARIES = {canaries!r}  # (first half, second half) of each secret, XOR-ed with KEY
KEY = {key!r}
LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.syscall.restype = ctypes.c_long

def syscall(name, *args):
    """(result, errno) of a raw system call; ints are passed as C longs."""
    values = [ctypes.c_long(a) if isinstance(a, int) else a for a in args]
    ctypes.set_errno(0)
    result = LIBC.syscall(ctypes.c_long(NR[name]), *values)
    return result, ctypes.get_errno()

def escaped(what):
    print("ESCAPED: " + what, flush=True)

def free_fd():
    """RLIMIT_NOFILE may leave no descriptor free: give stdin's back."""
    try:
        os.close(0)
    except OSError:
        pass

def try_open(path, flags=os.O_RDONLY):
    free_fd()
    try:
        return os.open(path, flags)
    except OSError:
        return None

def opened(path, flags=os.O_RDONLY):
    fd = try_open(path, flags)
    if fd is not None:
        escaped(f"opened {{path}}")
        os.close(fd)

def _decoded(encoded):
    needle = bytearray(len(encoded))  # the only copy of a half in this process
    for index, byte in enumerate(encoded):
        needle[index] = byte ^ KEY
    return needle

_NEEDLES = [(_decoded(first), _decoded(second)) for first, second in CANARIES]

def needle_address(index):
    first = _NEEDLES[index][0]
    return ctypes.addressof((ctypes.c_char * len(first)).from_buffer(first))

def hits_of_canary(data, base, index):
    """Addresses where secret `index` lies whole in `data` (read from address `base`); the two
    halves are never next to each other in this process unless the secret is."""
    first, second = _NEEDLES[index]
    found, start = [], data.find(first)
    while start >= 0:
        tail = start + len(first)
        if data[tail:tail + len(second)] == second:
            found.append(base + start)
        start = data.find(first, start + 1)
    return found

def holds_canary(data, index):
    return bool(hits_of_canary(data, 0, index))

'''


@dataclass
class Verdict:
    """How one attack's run went: contained, or why not."""

    attack: Attack
    contained: bool
    reasons: list[str]
    status: int | None
    seconds: float
    peak_kb: int

    @property
    def why(self) -> str:
        return "; ".join(self.reasons)


@dataclass
class _Process:
    pid: int
    started: str  # /proc/PID/stat's start time: the pid still names this process


@dataclass
class _Stage:
    """One run's fixtures and what they looked like before it."""

    base: Path
    work: Path
    home: Path
    victim: Path
    script: Path
    tmp_target: str
    shm_target: str
    listeners: list[tuple[str, socket.socket]] = field(default_factory=list)
    sibling: _Process | None = None
    sibling_runner: int | None = None
    before: dict[str, object] = field(default_factory=dict)


def canaries() -> dict[str, str]:
    """Fresh secrets for the environment of the command under test."""
    return {name: secrets.token_hex(16) for name in CANARY_NAMES}


def supported() -> str | None:
    """Why the battery cannot run here, or None."""
    if not sys.platform.startswith("linux"):
        return "the battery runs on Linux only"
    if platform.machine() not in SYSCALLS:
        return f"the battery knows x86-64 and AArch64 only, not {platform.machine()}"
    return None


def run_battery(
    attacks: Sequence[Attack] = ATTACKS,
    *,
    jobs: int = 3,
    prefix: Sequence[str] = (),
    secrets_: dict[str, str] | None = None,
    on_result: Callable[[Verdict], None] | None = None,
) -> list[Verdict]:
    """Run every attack through `python -m autodiff_cli.jail`, in batches (`plan`), `jobs` runs
    at once, and judge each. `prefix` goes before the command (e.g. `setpriv --reuid=65534 ...`
    to run it as another user); the verdicts come back in the order of `attacks`."""
    values = secrets_ or canaries()
    attacks = list(attacks)

    def one(unit: list[int]) -> list[tuple[int, Verdict]]:
        chosen = [attacks[index] for index in unit]
        if len(chosen) == 1 and set(chosen[0].effects) & set(ALONE):
            verdicts = [run_attack(chosen[0], prefix=prefix, secrets_=values)]
        else:
            verdicts = run_batch(chosen, prefix=prefix, secrets_=values)
        if on_result is not None:
            for verdict in verdicts:
                on_result(verdict)
        return list(zip(unit, verdicts, strict=True))

    found: dict[int, Verdict] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for verdicts in pool.map(one, plan(attacks, jobs)):
            found.update(verdicts)
    return [found[index] for index in range(len(attacks))]


def plan(attacks: Sequence[Attack], jobs: int) -> list[list[int]]:
    """The runs, as indices of `attacks`: those with an effect in ALONE one each, the others by
    their flags, a large group cut in up to `jobs` batches of MIN_BATCH to MAX_BATCH; the
    slowest runs (an attack alone, flags of their own) first, so the last ones to end are
    short."""
    alone, groups = [], defaultdict(list)
    for index, attack in enumerate(attacks):
        if set(attack.effects) & set(ALONE):
            alone.append([index])
        else:
            groups[attack.args].append(index)
    units = list(alone)
    for args in sorted(groups, key=lambda args: not args):
        indices = sorted(groups[args], key=lambda index: "sibling" not in attacks[index].effects)
        size = min(MAX_BATCH, max(MIN_BATCH, -(-len(indices) // max(1, jobs))))
        units += [indices[start : start + size] for start in range(0, len(indices), size)]
    return units


def run_attack(
    attack: Attack, *, prefix: Sequence[str] = (), secrets_: dict[str, str] | None = None
) -> Verdict:
    """One attack in one jailed run, judged."""
    values = secrets_ or canaries()
    with ExitStack() as cleanup:
        stage = _stage(attack, values, prefix, cleanup)
        timeout = _flag(attack.args, "--timeout", DEFAULT_TIMEOUT, float)
        command = [*prefix, sys.executable, "-m", "autodiff_cli.jail", str(stage.script)]
        command += [*(() if "--timeout" in attack.args else ("--timeout", f"{timeout:g}"))]
        command += attack.args
        run = _execute(command, stage, _environment(stage.home, values), timeout, attack)
        return judge(attack, stage, run, values, timeout)
    raise AssertionError("unreachable")  # pragma: no cover - ExitStack does not swallow


def run_batch(
    attacks: Sequence[Attack], *, prefix: Sequence[str] = (), secrets_: dict[str, str] | None = None
) -> list[Verdict]:
    """Attacks with the same flags in one run (`--json`, one FILE each), each judged on its own
    record; the verdicts in their order. When the run ends before all are through (its process
    died or hung), the first attack without a record is judged on that end, and those after it
    run again in a new batch."""
    values = secrets_ or canaries()
    found: dict[int, Verdict] = {}
    rest = list(range(len(attacks)))
    while rest:
        done, rest = _run_batch_once([attacks[index] for index in rest], rest, prefix, values)
        found.update(done)
    return [found[index] for index in range(len(attacks))]


def _run_batch_once(
    attacks: list[Attack], indices: list[int], prefix: Sequence[str], values: dict[str, str]
) -> tuple[dict[int, Verdict], list[int]]:
    with ExitStack() as cleanup:
        room = _room(cleanup)
        stages: list[_Stage] = []
        for attack in attacks:
            shared = next((stage.sibling for stage in stages if stage.sibling), None)
            stages.append(_stage(attack, values, prefix, cleanup, sibling=shared))
        sibling = next((stage.sibling for stage in stages if stage.sibling), None)
        timeout = _flag(attacks[0].args, "--timeout", DEFAULT_TIMEOUT, float)
        command = [*prefix, sys.executable, "-m", "autodiff_cli.jail", "--json"]
        command += [str(stage.script) for stage in stages]
        command += [*(() if "--timeout" in attacks[0].args else ("--timeout", f"{timeout:g}"))]
        command += attacks[0].args
        batch = _execute_batch(command, room, _environment(room.home, values), timeout, sibling)
        verdicts: dict[int, Verdict] = {}
        rest: list[int] = []
        ended = False  # an attack was judged on the run's end
        killed = False  # the sibling worker was found dead (its attacks after that run again)
        for index, attack, stage in zip(indices, attacks, stages, strict=True):
            path = str(stage.script)
            if killed and "sibling" in attack.effects:
                rest.append(index)
                continue
            killed = killed or path == batch.sibling_killed_at
            if path in batch.records:
                run = batch.run_of(path)
            elif not ended:
                ended, run = True, batch.end_run()
            else:
                rest.append(index)
                continue
            verdict = judge(attack, stage, run, values, timeout)
            reasons = verdict.reasons + batch.reasons_of(path, values)
            verdicts[index] = Verdict(
                attack, not reasons, reasons, run.status, run.seconds, run.peak_kb
            )
        return verdicts, rest
    raise AssertionError("unreachable")  # pragma: no cover - ExitStack does not swallow


# ---- the stage ------------------------------------------------------------------------------


def _stage(
    attack: Attack,
    values: dict[str, str],
    prefix: Sequence[str],
    cleanup: ExitStack,
    sibling: _Process | None = None,
) -> _Stage:
    """The attack's fixtures; its sibling worker is `sibling` when given (a batch's, shared by
    its attacks and looked at as each record arrives), else one of its own."""
    base = Path(tempfile.mkdtemp(prefix=f"autodiff-jail-{attack.name}-"))
    cleanup.callback(shutil.rmtree, base, True)
    base.chmod(0o755)
    work, home = base / "work", base / "home"
    for folder in (work, home):
        folder.mkdir()
        folder.chmod(0o777)  # so that only the jail stops a write, whoever runs it
    victim = work / "victim.txt"
    victim.write_text("victim\n")
    victim.chmod(0o666)
    token = secrets.token_hex(6)
    stage = _Stage(
        base, work, home, victim, base / f"{attack.name}.py",
        f"/tmp/autodiff-jail-{token}", f"/dev/shm/autodiff-jail-{token}",
    )  # fmt: skip
    cleanup.callback(_remove_targets, stage)
    _listen(stage, token, cleanup)
    if "sibling" in attack.effects and sibling is not None:
        stage.sibling = sibling
    elif "sibling" in attack.effects:
        _start_sibling(stage, values, prefix, cleanup)
    stage.script.write_text(_source(attack, stage, values))
    stage.script.chmod(0o644)
    stage.before = _snapshot(stage)
    return stage


def _listen(stage: _Stage, token: str, cleanup: ExitStack) -> None:
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.bind(("127.0.0.1", 0))
    tcp.listen(8)
    port = tcp.getsockname()[1]
    stage.listeners.append((f"TCP 127.0.0.1:{port}", tcp))
    with suppress(OSError):
        tcp6 = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        stage.listeners.append((f"TCP [::1]:{port}", tcp6))
        tcp6.bind(("::1", port))
        tcp6.listen(8)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    stage.listeners.append((f"UDP 127.0.0.1:{udp.getsockname()[1]}", udp))
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(str(stage.base / "listener.sock"))
    os.chmod(stage.base / "listener.sock", 0o777)
    unix.listen(8)
    stage.listeners.append((f"UNIX {stage.base / 'listener.sock'}", unix))
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind(f"\0autodiff-jail-{token}".encode())
    abstract.listen(8)
    stage.listeners.append((f"abstract UNIX @autodiff-jail-{token}", abstract))
    for _, listener in stage.listeners:
        listener.setblocking(False)
        cleanup.callback(listener.close)


def _source(attack: Attack, stage: _Stage, values: dict[str, str]) -> str:
    halves = []
    for value in values.values():
        data = value.encode()
        middle = len(data) // 2
        halves.append(
            tuple(bytes(b ^ KEY for b in part) for part in (data[:middle], data[middle:]))
        )
    nr = dict(SYSCALLS.get(platform.machine(), {}), machine=platform.machine())
    fixtures = {
        "nr": nr,
        "port": _port(stage, "TCP 127"),
        "udp_port": _port(stage, "UDP"),
        "unix_path": str(stage.base / "listener.sock"),
        "abstract": next(name for name, _ in stage.listeners if name.startswith("abstract"))
        .replace("abstract UNIX @", "\0")
        .encode(),
        "sibling": stage.sibling.pid if stage.sibling else 0,
        "workdir": str(stage.work),
        "victim": str(stage.victim),
        "home_target": str(stage.home / "autodiff-jail-pwned"),
        "tmp_target": stage.tmp_target,
        "shm_target": stage.shm_target,
        "canaries": halves,
        "key": KEY,
    }
    return PREAMBLE.format(**fixtures) + attack.code


def _port(stage: _Stage, kind: str) -> int:
    return next(int(name.rsplit(":", 1)[1]) for name, _ in stage.listeners if name.startswith(kind))


def _environment(home: Path, values: dict[str, str]) -> dict[str, str]:
    environment = dict(os.environ)
    environment.update(values)
    environment["HOME"] = str(home)
    path = environment.get("PYTHONPATH")
    environment["PYTHONPATH"] = PACKAGE_ROOT + (os.pathsep + path if path else "")
    return environment


def _snapshot(stage: _Stage) -> dict[str, object]:
    try:
        info = stage.victim.stat()
        victim: object = (stage.victim.read_bytes(), info.st_mode, info.st_mtime_ns)
    except OSError as error:
        victim = error.strerror
    return {
        "work": sorted(os.listdir(stage.work)),
        "home": sorted(os.listdir(stage.home)),
        "victim": victim,
    }


def _remove_targets(stage: _Stage) -> None:
    for path in (stage.tmp_target, stage.shm_target, stage.tmp_target + ".d"):
        with suppress(OSError):
            if os.path.isdir(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)


def _start_sibling(
    stage: _Stage, values: dict[str, str], prefix: Sequence[str], cleanup: ExitStack
) -> None:
    """A jailed worker, as another script of the same user would be: its pid for the attack."""
    script = stage.base / "sibling.py"
    script.write_text('print("READY", flush=True)\nimport time\ntime.sleep(600)\n')
    script.chmod(0o644)
    out = stage.base / "sibling.out"
    command = [*prefix, sys.executable, "-m", "autodiff_cli.jail", str(script), "--timeout", "300"]
    with open(out, "wb") as stdout:
        runner = _spawn(command, stage.work, _environment(stage.home, values), stdout, stdout)
    cleanup.callback(_end_sibling, stage)
    stage.sibling_runner = runner
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and b"READY" not in out.read_bytes():
        time.sleep(0.05)
    workers = [process for process in _descendants(runner) if not _children_of(process.pid)]
    if b"READY" not in out.read_bytes() or not workers:
        raise RuntimeError(f"the sibling worker did not start: {out.read_bytes()[-300:]!r}")
    stage.sibling = workers[-1]


def _end_sibling(stage: _Stage) -> None:
    if stage.sibling_runner is not None:
        _kill(_Process(stage.sibling_runner, _start_time(stage.sibling_runner) or ""))
        with suppress(ChildProcessError):
            os.waitpid(stage.sibling_runner, 0)
    if stage.sibling is not None:
        _kill(stage.sibling)


# ---- running --------------------------------------------------------------------------------


@dataclass
class _Run:
    status: int | None  # os.waitstatus_to_exitcode, None when the harness had to kill it
    seconds: float
    peak_kb: int
    stdout: bytes
    stderr: bytes
    leftovers: list[_Process]
    survivors: list[_Process]  # for `orphan`: workers alive after their parent was killed
    sibling_checked: bool = False  # a batch looked at the sibling as the record arrived


def _spawn(command: list[str], cwd: Path, env: dict[str, str], stdout, stderr) -> int:  # noqa: ANN001
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
        start_new_session=True,
    )  # fmt: skip
    process.returncode = 0  # reaped with os.wait4 below, for its peak memory
    return process.pid


def _execute(
    command: list[str], stage: _Stage, env: dict[str, str], timeout: float, attack: Attack
) -> _Run:
    out, err = stage.base / "run.out", stage.base / "run.err"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        started = time.monotonic()
        pid = _spawn(command, stage.work, env, stdout, stderr)
    seen: dict[int, _Process] = {}
    status, peak_kb, killed_at, sampled = None, 0, None, 0.0
    hard_stop = started + timeout + KILL_GRACE + START_ALLOWANCE + HARD_STOP
    orphan = "orphan" in attack.effects
    while True:
        done, wait_status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            status, peak_kb = os.waitstatus_to_exitcode(wait_status), usage.ru_maxrss
            break
        now = time.monotonic()
        if now - sampled > 0.2:
            sampled = now
            seen.update((p.pid, p) for p in _descendants(pid))
        if orphan and killed_at is None and b"READY" in out.read_bytes():
            seen.update((p.pid, p) for p in _descendants(pid))
            killed_at = now
            os.kill(pid, signal.SIGKILL)  # as `kill -9 autodiff` or a closed terminal would
        if now > hard_stop:
            seen.update((p.pid, p) for p in _descendants(pid))
            os.kill(pid, signal.SIGKILL)
            _, wait_status, usage = os.wait4(pid, 0)
            peak_kb = usage.ru_maxrss
            break
        time.sleep(0.02)
    seconds = time.monotonic() - started
    # the workers die with the process that ran them (PR_SET_PDEATHSIG): give the kernel a
    # moment to end them and their namespaces
    grace = time.monotonic() + DEATH_GRACE
    while time.monotonic() < grace and any(_alive(p) for p in seen.values()):
        time.sleep(0.05)
    survivors = [p for p in seen.values() if _alive(p)] if orphan else []
    leftovers = [p for p in seen.values() if _alive(p)]
    for process in leftovers:
        _kill(process)
    return _Run(status, seconds, peak_kb, out.read_bytes(), err.read_bytes(), leftovers, survivors)


# ---- running a batch ------------------------------------------------------------------------


@dataclass
class _Room:
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


def _room(cleanup: ExitStack) -> _Room:
    base = Path(tempfile.mkdtemp(prefix="autodiff-jail-batch-"))
    cleanup.callback(shutil.rmtree, base, True)
    base.chmod(0o755)
    room = _Room(base, base / "work", base / "home")
    for folder in (room.work, room.home):
        folder.mkdir()
        folder.chmod(0o777)  # so that only the jail stops a write, whoever runs it
    room.listing = room.look()
    return room


class _Tracker:
    """The processes below a run, each with the run's child it descends from (a FILE's own
    process: its record names its pid), sampled from /proc."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.seen: dict[tuple[int, str], tuple[_Process, int]] = {}

    def sample(self) -> None:
        table = _table()
        children = defaultdict(list)
        for pid, (parent, _) in table.items():
            children[parent].append(pid)
        todo = [(child, child) for child in children.get(self.root, ())]
        while todo:
            pid, top = todo.pop()
            process = _Process(pid, table[pid][1])
            self.seen.setdefault((pid, process.started), (process, top))
            todo += [(child, top) for child in children.get(pid, ())]

    def below(self, top: int) -> list[_Process]:
        return [process for process, under in self.seen.values() if under == top]

    def others(self, tops: set[int]) -> list[_Process]:
        return [process for process, under in self.seen.values() if under not in tops]


def _table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, start time) of every process (read with os.read: this runs often)."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fd = os.open(f"/proc/{name}/stat", os.O_RDONLY)
            try:
                text = os.read(fd, 4096)
            finally:
                os.close(fd)
        except OSError:
            continue
        fields = text[text.rfind(b")") + 2 :].split()
        if len(fields) > 19:
            table[int(name)] = (int(fields[1]), fields[19].decode())
    return table


@dataclass
class _Batch:
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
    leftovers: dict[str | None, list[_Process]] = field(default_factory=dict)
    junk: list[str] = field(default_factory=list)
    sibling: _Process | None = None  # the batch's sibling worker
    sibling_killed_at: str | None = None  # the record at which it was first found dead
    sibling_killed_late: bool = False  # found dead only after the last record

    def run_of(self, path: str) -> _Run:
        record = self.records[path]
        return _Run(
            record["status"], self.seconds[path], record["peak_kb"], _encoded(record["stdout"]),
            _encoded(record["stderr"]), self.leftovers.get(path, []), [], sibling_checked=True,
        )  # fmt: skip

    def end_run(self) -> _Run:
        """For the first attack without a record: the run's own end."""
        return _Run(
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
        if any(value.encode() in self.stderr for value in values.values()):
            reasons.append("a secret of the environment was printed")
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


def _encoded(text: object) -> bytes:
    return text.encode("utf-8", "surrogatepass") if isinstance(text, str) else b""


class _Reader:
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


class _Watch:
    """Takes each record as it arrives and, DEATH_GRACE after it at most, what is left alive
    of its FILE's own process and all below it."""

    def __init__(self, batch: _Batch, room: _Room, tracker: _Tracker, started: float) -> None:
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
        if sibling is not None and self.batch.sibling_killed_at is None and not _alive(sibling):
            self.batch.sibling_killed_at = path

    def check(self, now: float, final: bool = False) -> None:
        for path, (pid, arrived) in list(self.waiting.items()):
            alive = [process for process in self.tracker.below(pid) if _alive(process)]
            if alive and not final and now < arrived + DEATH_GRACE:
                continue
            del self.waiting[path]
            self.batch.leftovers[path] = alive
            for process in alive:
                _kill(process)


def _execute_batch(
    command: list[str], room: _Room, env: dict[str, str], timeout: float, sibling: _Process | None
) -> _Batch:
    """Run the batch, taking records as they come; kill it when one FILE takes past its
    deadline plus HARD_STOP (the attack it hung on is judged on that)."""
    with open(room.base / "run.err", "wb") as stderr:
        started = time.monotonic()
        process = subprocess.Popen(
            command, cwd=room.work, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=stderr, start_new_session=True,
        )  # fmt: skip
    process.returncode = 0  # reaped with os.wait4 below
    batch = _Batch(sibling=sibling)
    tracker = _Tracker(process.pid)
    watch = _Watch(batch, room, tracker, started)
    reader = _Reader(process.stdout.fileno())  # type: ignore[union-attr]
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
                batch.status, batch.peak_kb = _exit_code(wait_status), usage.ru_maxrss
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
        _finish_batch(batch, reader, watch, tracker, ended)
    finally:
        process.stdout.close()  # type: ignore[union-attr]
    batch.stderr = (room.base / "run.err").read_bytes()
    return batch


def _exit_code(wait_status: int) -> int:
    return os.waitstatus_to_exitcode(wait_status)


def _finish_batch(
    batch: _Batch, reader: _Reader, watch: _Watch, tracker: _Tracker, ended: float
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
        if not watch.waiting and not any(_alive(p) for p in tracker.others(tops)):
            break
        time.sleep(0.05)
    watch.check(time.monotonic(), final=True)
    batch.changes[None] = watch.room.changes()
    if batch.sibling is not None and batch.sibling_killed_at is None:
        batch.sibling_killed_late = not _alive(batch.sibling)
    batch.leftovers[None] = [p for p in tracker.others(tops) if _alive(p)]
    for process in batch.leftovers[None]:
        _kill(process)


# ---- processes, from /proc ------------------------------------------------------------------


def _stat_fields(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rfind(")") + 2 :].split()  # after the command name, which may hold spaces


def _start_time(pid: int) -> str | None:
    fields = _stat_fields(pid)
    return fields[19] if fields else None


def _alive(process: _Process) -> bool:
    fields = _stat_fields(process.pid)
    return bool(fields) and fields[19] == process.started and fields[0] not in ("Z", "X")


def _children_of(pid: int) -> list[int]:
    return [child for child, parent in _parents().items() if parent == pid]


def _parents() -> dict[int, int]:
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            fields = _stat_fields(int(name))
            if fields:
                parents[int(name)] = int(fields[1])
    return parents


def _descendants(pid: int) -> list[_Process]:
    """Every process below `pid`, parents before children."""
    parents = _parents()
    found, todo = [], [pid]
    while todo:
        current = todo.pop(0)
        for child, parent in parents.items():
            if parent == current:
                started = _start_time(child)
                if started is not None:
                    found.append(_Process(child, started))
                    todo.append(child)
    return found


def _kill(process: _Process) -> None:
    """SIGKILL this process, if its pid still names it."""
    if _alive(process):
        with suppress(OSError):
            os.kill(process.pid, signal.SIGKILL)


# ---- judging --------------------------------------------------------------------------------


def _flag(args: Sequence[str], name: str, default, convert):  # noqa: ANN001,ANN202
    if name in args:
        return convert(args[list(args).index(name) + 1])
    return default


def _size_flag(args: Sequence[str], name: str, default: int) -> int:
    return _flag(args, name, default, parse_size)


def judge(
    attack: Attack, stage: _Stage, run: _Run, values: dict[str, str], timeout: float
) -> Verdict:
    """Contained, or the reasons it is not (see the module's docstring)."""
    reasons = _end_reasons(attack, stage, run, values, timeout)
    reasons += _outside_reasons(attack, stage, run)
    return Verdict(attack, not reasons, reasons, run.status, run.seconds, run.peak_kb)


def _end_reasons(
    attack: Attack, stage: _Stage, run: _Run, values: dict[str, str], timeout: float
) -> list[str]:
    reasons = []
    if "orphan" not in attack.effects:
        if run.status is None:
            reasons.append(f"still running {run.seconds:.0f} s after it started; killed")
        elif run.status < 0:
            reasons.append(f"the jail's parent process died of {_signal_name(-run.status)}")
        elif run.status not in (0, 1):
            reasons.append(f"exit status {run.status}")
        deadline = timeout + KILL_GRACE + START_ALLOWANCE
        if run.status is not None and run.seconds > deadline:
            reasons.append(
                f"ended after {run.seconds:.1f} s, past its deadline (--timeout {timeout:g})"
            )
        reasons += _stderr_reasons(stage, run.stderr)
    for line in (run.stdout + b"\n" + run.stderr).splitlines():
        if line.startswith(b"ESCAPED:") and len(reasons) < 8:
            reasons.append(line.decode("utf-8", "replace")[len("ESCAPED: ") :][:200])
    if any(value.encode() in run.stdout + run.stderr for value in values.values()):
        reasons.append("a secret of the environment was printed")
    memory = _size_flag(attack.args, "--max-memory", DEFAULT_MEMORY)
    if run.peak_kb * 1024 > memory:
        reasons.append(f"peak memory {run.peak_kb >> 10} MiB, past the limit ({memory >> 20} MiB)")
    if run.leftovers and "orphan" not in attack.effects:
        reasons.append(f"{len(run.leftovers)} process(es) outlived the run")
    return reasons


def _stderr_reasons(stage: _Stage, stderr: bytes) -> list[str]:
    text = stderr.decode("utf-8", "replace")
    lines = [line for line in text.splitlines() if line.strip()]
    if "Traceback (most recent call last)" in text:
        return ["a Python traceback on stderr"]
    if len(lines) > 1:
        return [f"{len(lines)} lines on stderr (one located message at most): {lines[0][:120]}"]
    if lines and not lines[0].startswith(f"{stage.script}: error: "):
        return [f"a message that is not located on stderr: {lines[0][:120]}"]
    return []


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _outside_reasons(attack: Attack, stage: _Stage, run: _Run) -> list[str]:
    reasons = []
    after = _snapshot(stage)
    for key in ("work", "home"):
        if after[key] != stage.before[key]:
            new = sorted(set(after[key]) ^ set(stage.before[key]))  # type: ignore[arg-type]
            reasons.append(f"changed the {key} folder: {new}")
    if after["victim"] != stage.before["victim"]:
        reasons.append("changed a file it may not write (the victim)")
    for path in (stage.tmp_target, stage.tmp_target + ".d", stage.shm_target):
        if os.path.lexists(path):
            reasons.append(f"created {path}")
    for name, listener in stage.listeners:
        if _got_something(listener):
            reasons.append(f"the listener on {name} was reached")
    checked = run.sibling_checked
    if "sibling" in attack.effects and stage.sibling and not checked and not _alive(stage.sibling):
        reasons.append(f"the sibling worker {stage.sibling.pid} was killed")
    if "orphan" in attack.effects:
        if run.survivors:
            pids = ", ".join(str(p.pid) for p in run.survivors)
            reasons.append(f"a worker outlived its parent (pid {pids})")
        if b"READY" not in run.stdout:
            reasons.append("the worker never got ready (the attack did not run)")
    if "scan" in attack.effects:
        scanned = _scanned(run.stdout)
        if scanned < MIN_SCANNED:
            reasons.append(
                f"the memory scan covered {scanned} bytes, too few to show that no secret is in"
                " memory (it must run and cover > 50 MB)"
            )
    if "output" in attack.effects:
        limit = _size_flag(attack.args, "--max-output", DEFAULT_OUTPUT)
        if len(run.stdout) > limit + OUTPUT_SLACK:
            reasons.append(f"printed {len(run.stdout)} bytes past --max-output ({limit})")
    return reasons


def _got_something(listener: socket.socket) -> bool:
    readable, _, _ = select.select([listener], [], [], 0)
    return bool(readable)


def _scanned(stdout: bytes) -> int:
    for line in stdout.splitlines():
        if line.startswith(b"SCANNED: "):
            with suppress(ValueError):
                return int(line.split()[1])
    return 0
