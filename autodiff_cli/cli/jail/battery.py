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
from autodiff_cli.cli.jail.battery_batch import (
    DEATH_GRACE,
    HARD_STOP,
    KILL_GRACE,
    START_ALLOWANCE,
    Run,
    execute_batch,
    make_room,
)
from autodiff_cli.cli.jail.isolation import parse_size
from autodiff_cli.cli.jail.process_tree import (
    Process,
    alive,
    children_of,
    descendants,
    kill,
    start_time,
)
from autodiff_cli.cli.jail.syscalls import numbers_for

MAX_BATCH = 120  # attacks in one run (each run's start-up costs ~0.25 CPU-s)
DEADLINE_BATCH = 3  # attacks in one run whose flags set a deadline
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
    sibling: Process | None = None
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
        verdicts = run_batch([attacks[index] for index in unit], prefix=prefix, secrets_=values)
        if on_result is not None:
            for verdict in verdicts:
                on_result(verdict)
        return list(zip(unit, verdicts, strict=True))

    found: dict[int, Verdict] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for verdicts in pool.map(one, plan(attacks)):
            found.update(verdicts)
    return [found[index] for index in range(len(attacks))]


def plan(attacks: Sequence[Attack]) -> list[list[int]]:
    """The runs, as indices of `attacks`: those with an effect in ALONE one each, the others by
    their flags, at most MAX_BATCH a run, and at most DEADLINE_BATCH where the flags set a
    deadline (such attacks tend to run until it); those first, so the last runs to end are
    short."""
    alone, groups = [], defaultdict(list)
    for index, attack in enumerate(attacks):
        if set(attack.effects) & set(ALONE):
            alone.append([index])
        else:
            groups[attack.args].append(index)
    units = list(alone)
    for args in sorted(groups, key=lambda args: ("--timeout" not in args, not args)):
        indices = sorted(groups[args], key=lambda index: "sibling" not in attacks[index].effects)
        size = DEADLINE_BATCH if "--timeout" in args else MAX_BATCH
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
    run again in a new batch. An attack with an effect in ALONE runs alone (`run_attack`)."""
    values = secrets_ or canaries()
    found: dict[int, Verdict] = {}
    rest = []
    for index, attack in enumerate(attacks):
        if set(attack.effects) & set(ALONE):
            found[index] = run_attack(attack, prefix=prefix, secrets_=values)
        else:
            rest.append(index)
    while rest:
        done, rest = _run_batch_once([attacks[index] for index in rest], rest, prefix, values)
        found.update(done)
    return [found[index] for index in range(len(attacks))]


def _run_batch_once(
    attacks: list[Attack], indices: list[int], prefix: Sequence[str], values: dict[str, str]
) -> tuple[dict[int, Verdict], list[int]]:
    with ExitStack() as cleanup:
        room = make_room(cleanup)
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
        batch = execute_batch(command, room, _environment(room.home, values), timeout, sibling)
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
    sibling: Process | None = None,
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
    workers = [process for process in descendants(runner) if not children_of(process.pid)]
    if b"READY" not in out.read_bytes() or not workers:
        raise RuntimeError(f"the sibling worker did not start: {out.read_bytes()[-300:]!r}")
    stage.sibling = workers[-1]


def _end_sibling(stage: _Stage) -> None:
    if stage.sibling_runner is not None:
        kill(Process(stage.sibling_runner, start_time(stage.sibling_runner) or ""))
        with suppress(ChildProcessError):
            os.waitpid(stage.sibling_runner, 0)
    if stage.sibling is not None:
        kill(stage.sibling)


# ---- running --------------------------------------------------------------------------------


def _spawn(command: list[str], cwd: Path, env: dict[str, str], stdout, stderr) -> int:  # noqa: ANN001
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
        start_new_session=True,
    )  # fmt: skip
    process.returncode = 0  # reaped with os.wait4 below, for its peak memory
    return process.pid


def _execute(
    command: list[str], stage: _Stage, env: dict[str, str], timeout: float, attack: Attack
) -> Run:
    out, err = stage.base / "run.out", stage.base / "run.err"
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        started = time.monotonic()
        pid = _spawn(command, stage.work, env, stdout, stderr)
    seen: dict[int, Process] = {}
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
            seen.update((p.pid, p) for p in descendants(pid))
        if orphan and killed_at is None and b"READY" in out.read_bytes():
            seen.update((p.pid, p) for p in descendants(pid))
            killed_at = now
            os.kill(pid, signal.SIGKILL)  # as `kill -9 autodiff` or a closed terminal would
        if now > hard_stop:
            seen.update((p.pid, p) for p in descendants(pid))
            os.kill(pid, signal.SIGKILL)
            _, wait_status, usage = os.wait4(pid, 0)
            peak_kb = usage.ru_maxrss
            break
        time.sleep(0.02)
    seconds = time.monotonic() - started
    # the workers die with the process that ran them (PR_SET_PDEATHSIG): give the kernel a
    # moment to end them and their namespaces
    grace = time.monotonic() + DEATH_GRACE
    while time.monotonic() < grace and any(alive(p) for p in seen.values()):
        time.sleep(0.05)
    survivors = [p for p in seen.values() if alive(p)] if orphan else []
    leftovers = [p for p in seen.values() if alive(p)]
    for process in leftovers:
        kill(process)
    return Run(status, seconds, peak_kb, out.read_bytes(), err.read_bytes(), leftovers, survivors)


# ---- judging --------------------------------------------------------------------------------


def _flag(args: Sequence[str], name: str, default, convert):  # noqa: ANN001,ANN202
    if name in args:
        return convert(args[list(args).index(name) + 1])
    return default


def _size_flag(args: Sequence[str], name: str, default: int) -> int:
    return _flag(args, name, default, parse_size)


def judge(
    attack: Attack, stage: _Stage, run: Run, values: dict[str, str], timeout: float
) -> Verdict:
    """Contained, or the reasons it is not (see the module's docstring)."""
    reasons = _end_reasons(attack, stage, run, values, timeout)
    reasons += _outside_reasons(attack, stage, run)
    return Verdict(attack, not reasons, reasons, run.status, run.seconds, run.peak_kb)


def _end_reasons(
    attack: Attack, stage: _Stage, run: Run, values: dict[str, str], timeout: float
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
    for stream in (run.stdout, run.stderr):  # (64 MiB of output: no copy, no split without need)
        for line in stream.splitlines() if b"ESCAPED:" in stream else ():
            if line.startswith(b"ESCAPED:") and len(reasons) < 8:
                reasons.append(line.decode("utf-8", "replace")[len("ESCAPED: ") :][:200])
    printed = (
        value.encode() in stream for value in values.values() for stream in (run.stdout, run.stderr)
    )
    if any(printed):
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


def _outside_reasons(attack: Attack, stage: _Stage, run: Run) -> list[str]:
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
    if "sibling" in attack.effects and stage.sibling and not checked and not alive(stage.sibling):
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
