"""Runs the attack battery (`attacks.ATTACKS`) through `python -m autodiff_cli.jail` and judges
each run from the outside: the command a user or `autodiff doctor` runs, one attack per run (so
a kill is attributed), a few runs at once.

Each run gets its own stage: a working folder and a HOME anyone may write to (holding a victim
file anyone may change), a TCP, UDP, UNIX and abstract UNIX listener, canary secrets in the
environment of the command, and for some attacks a sibling jailed worker. `judge` then decides
*contained*: the run ended cleanly (exit status 0: every door was shut; or 1: the jail stopped
it, with one message `FILE: error: ...`), printed no `ESCAPED:` line, no traceback and no
secret, ended within its deadline and memory limit, left no process behind, and changed nothing
outside (no file, no connection, the sibling alive, the worker dead with its parent, the memory
scan really scanned, the output cut at its limit).
"""

from __future__ import annotations

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
    """Run each attack through `python -m autodiff_cli.jail`, `jobs` at once, and judge it.
    `prefix` goes before the command (e.g. `setpriv --reuid=65534 ...` to run it as another
    user); the verdicts come back in the order of `attacks`."""
    values = secrets_ or canaries()

    def one(attack: Attack) -> Verdict:
        verdict = run_attack(attack, prefix=prefix, secrets_=values)
        if on_result is not None:
            on_result(verdict)
        return verdict

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, attacks))


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
        run = _execute(command, stage, _environment(stage, values), timeout, attack)
        return judge(attack, stage, run, values, timeout)
    raise AssertionError("unreachable")  # pragma: no cover - ExitStack does not swallow


# ---- the stage ------------------------------------------------------------------------------


def _stage(
    attack: Attack, values: dict[str, str], prefix: Sequence[str], cleanup: ExitStack
) -> _Stage:
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
    if "sibling" in attack.effects:
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


def _environment(stage: _Stage, values: dict[str, str]) -> dict[str, str]:
    environment = dict(os.environ)
    environment.update(values)
    environment["HOME"] = str(stage.home)
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
        runner = _spawn(command, stage.work, _environment(stage, values), stdout, stdout)
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
    if "sibling" in attack.effects and stage.sibling and not _alive(stage.sibling):
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
