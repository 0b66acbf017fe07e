"""The OS jail on its own: raw Python (no language layer) run through `python -m autodiff_cli.jail`
as an administrator would, attacks with the same flags in one `--json` run (each in a jailed child
of its own, judged on its own record), three runs at once, with canary secrets in the
environment, listeners on 127.0.0.1 and UNIX sockets, and a sibling jailed worker
(`autodiff_cli/cli/jail/battery.py` sets these up and judges each attack from outside).

Every attack of the battery (`cli/jail/attacks.py`) must be contained, on this machine as the
user running the tests and as an unprivileged user (uid/gid 65534 through `setpriv`) where this
machine can drop to one. Then the entry point's own behaviour (messages, exit statuses, limits)
and `autodiff doctor --json` end to end.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest
from other_user import checkout_environment, drop_problem, nobody_prefix

from autodiff_cli.cli.jail import battery, battery_batch, process_tree, seccomp
from autodiff_cli.cli.jail.attacks import ATTACKS
from autodiff_cli.cli.jail.clean_start import clean_environment

REPO = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(battery.supported() is not None, reason=str(battery.supported()))


USERS = ("self", "nobody")
_VERDICTS: dict[str, dict[str, battery.Verdict]] = {}


def _verdicts(user: str) -> dict[str, battery.Verdict]:
    """The whole battery, run once per user (three runs at once), by attack name."""
    if user not in _VERDICTS:
        prefix = [] if user == "self" else nobody_prefix() or []
        verdicts = battery.run_battery(ATTACKS, jobs=3, prefix=prefix)
        _VERDICTS[user] = {verdict.attack.name: verdict for verdict in verdicts}
    return _VERDICTS[user]


def test_the_battery_covers_every_family():
    names = [attack.name for attack in ATTACKS]
    assert len(names) >= 40 and len(set(names)) == len(names)
    families = collections.Counter(attack.family for attack in ATTACKS)
    for family in ("files", "network", "processes", "spawn", "memory", "secrets", "kernel"):
        assert families[family] >= 2, family
    assert {"deadline", "output"} <= set(families)
    for attack in ATTACKS:  # each prints ESCAPED when it got through, or is judged outside
        says = any(word in attack.code for word in ("escaped(", "opened(", "ESCAPED: "))
        assert says or attack.effects or attack.family in ("deadline", "memory", "output"), (
            attack.name
        )


@pytest.mark.parametrize("user", USERS)
@pytest.mark.parametrize("name", [attack.name for attack in ATTACKS])
def test_attack_is_contained(user: str, name: str):
    if user == "nobody":
        problem = drop_problem()
        if problem is not None:
            pytest.skip(f"cannot run as an unprivileged user: {problem}")
    verdict = _verdicts(user)[name]
    assert verdict.contained, f"NOT CONTAINED: {verdict.why}"


# ---- the entry point itself -----------------------------------------------------------------


def jail(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "autodiff_cli.jail", *args],
        capture_output=True,
        text=True,
        env=checkout_environment(),
        cwd=cwd,
        timeout=120,
    )


def test_raw_python_runs_as_main_and_streams_its_output(script):
    path = script("main.py", "import sys\nprint(__name__, type(sys).__name__)\n")
    done = jail(path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "__main__ module\n", "")


ENDS = [
    ("raise ValueError('boom')\n", 1, "{path}: error: ValueError: boom\n"),
    ("import sys\nsys.exit(3)\n", 3, ""),
    ("import sys\nsys.exit()\n", 0, ""),
    ("import sys\nsys.exit('bye')\n", 1, "bye\n"),
    ("raise KeyboardInterrupt\n", 1, "{path}: error: KeyboardInterrupt: \n"),
    ("def f(:\n", 1, "{path}: error: SyntaxError: invalid syntax (end.py, line 1)\n"),
    (
        "import os\nos.setsid()\n",  # a system call off the allow-list
        1,
        "{path}: error: the script was killed: it made a system call the jail forbids (SIGSYS)\n",
    ),
    (
        "x = bytearray(8 << 30)\n",
        1,
        "{path}: error: the script was killed: out of memory (limit 2 GiB, --max-memory)\n",
    ),
]


@pytest.fixture(scope="module")
def ends(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Each of ENDS as `end.py` in a folder of its own, all in one `--json` run (each FILE in a
    process and a jailed child of its own, on its own record, as it would run alone): the
    records by source."""
    paths = []
    for source, _, _ in ENDS:
        path = tmp_path_factory.mktemp("end") / "end.py"
        path.write_text(source, encoding="utf-8")
        paths.append(str(path))
    done = jail("--json", *paths)
    assert done.stderr == "" and done.returncode == 1, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [record["path"] for record in records] == paths
    return {source: record for (source, _, _), record in zip(ENDS, records, strict=True)}


@pytest.mark.parametrize(("source", "status", "stderr"), ENDS)
def test_an_ending_is_one_line_and_a_status(ends, source, status, stderr):
    record = ends[source]
    assert (record["status"], record["stderr"]) == (status, stderr.format(path=record["path"]))


def test_timeout_stops_a_loop_at_its_deadline(script):
    path = script("loop.py", "while True:\n    pass\n")
    start = time.monotonic()
    done = jail(path, "--timeout", "1")
    assert time.monotonic() - start < 8
    assert done.returncode == 1
    assert done.stderr == f"{path}: error: the script was stopped after 1 second (--timeout 1)\n"


@pytest.mark.parametrize("limit", ["400M", "550M", "1G"])
def test_running_out_of_memory_is_reported_at_any_limit(script, limit):
    """Whatever is left when the last block is refused (CPython 3.11 loses the MemoryError when
    the memory limit refuses an allocation while the exception unwinds, at some limits)."""
    path = script("grow.py", "blocks = []\nwhile True:\n    blocks.append(b'x' * (32 << 20))\n")
    done = jail(path, "--max-memory", limit)
    assert done.returncode == 1
    assert "killed: out of memory (limit " in done.stderr, done.stderr


def test_max_memory_and_max_output_are_the_run_limits(script):
    path = script("grow.py", "blocks = []\nwhile True:\n    blocks.append(b'x' * (32 << 20))\n")
    done = jail(path, "--max-memory", "512M")
    assert done.returncode == 1
    assert "killed: out of memory (limit 512 MiB, --max-memory)" in done.stderr
    path = script("talk.py", "while True:\n    print('x' * 1000)\n")
    done = jail(path, "--max-output", "100K")
    assert done.returncode == 1 and len(done.stdout) <= 100 * 1024 + 65536
    assert (
        done.stderr
        == f"{path}: error: the script was stopped: its output passed 100 KiB (--max-output)\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.py"], "error: file not found: missing.py"),
        (["/dev/null"], "error: not a regular file: /dev/null"),
        (["{ok}", "--timeout", "0"], "argument --timeout: must be more than 0"),
        (["{ok}", "--timeout", "nan"], "argument --timeout: must be more than 0"),
        (["{ok}", "--max-memory", "12Q"], "argument --max-memory: not a size"),
        (["{ok}", "--max-memory", "1M"], "is less than the engine itself needs"),
        (["{ok}", "--isolation", "loose"], "argument --isolation: invalid choice"),
        ([], "the following arguments are required: FILE"),
        (["--json"], "the following arguments are required: FILE"),
        (["{ok}", "missing.py", "--json"], "error: file not found: missing.py"),
        (["{ok}", "/dev/null"], "error: not a regular file: /dev/null"),
        (["--json", "{ok}", "--max-memory", "1M", "{ok}"], "is less than the engine itself"),
    ],
)
def test_usage_errors_exit_2_with_one_message(script, args, message):
    ok = script("ok.py", "print('ran')\n")
    done = jail(*(arg.format(ok=ok) for arg in args))
    assert done.returncode == 2 and done.stdout == ""
    assert message in done.stderr and "Traceback" not in done.stderr


# ---- several FILEs ------------------------------------------------------------------------------

ENDINGS = {
    "prints.py": ("print('hello')\n", 0, "hello\n", ""),
    "forbidden.py": (
        "import os\nprint('before')\nos.setsid()\n",
        1,
        "before\n",
        "{path}: error: the script was killed: it made a system call the jail forbids (SIGSYS)\n",
    ),
    "raises.py": ("raise ValueError('boom')\n", 1, "", "{path}: error: ValueError: boom\n"),
    "exits.py": ("import sys\nprint('bye')\nsys.exit(3)\n", 3, "bye\n", ""),
}


def test_json_prints_one_record_per_file_and_a_crash_stops_none(script):
    paths = {name: script(name, source) for name, (source, *_) in ENDINGS.items()}
    done = jail("--json", *paths.values(), "--timeout", "20")
    assert done.stderr == ""
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [record["path"] for record in records] == list(paths.values())
    for record, (name, (_, status, stdout, stderr)) in zip(records, ENDINGS.items(), strict=True):
        expected = {"status": status, "stdout": stdout, "stderr": stderr.format(path=paths[name])}
        assert {key: record[key] for key in expected} == expected, name
        assert 0 <= record["seconds"] < 20 and record["peak_kb"] > 1000
    assert len({record["pid"] for record in records}) == len(records)  # a process each
    assert done.returncode == 1  # the first status that is not 0


def test_several_files_without_json_stream_in_turn(script):
    paths = {name: script(name, source) for name, (source, *_) in ENDINGS.items()}
    done = jail(*reversed(paths.values()))
    assert done.stdout == "bye\nbefore\nhello\n"
    expected = "".join(ENDINGS[name][3].format(path=paths[name]) for name in reversed(paths))
    assert done.stderr == expected
    assert done.returncode == 3


def _memory(pid: int) -> bytes | None:
    """Every page of process `pid` it can write (what it read or made is there; code and
    read-only data are not), or None when it cannot be read."""
    chunks = []
    try:
        with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", 0) as memory:
            for line in maps:
                span, perms = line.split()[:2]
                if not perms.startswith("rw") or line.rstrip().endswith("[vvar]"):
                    continue
                low, high = (int(part, 16) for part in span.split("-"))
                try:
                    memory.seek(low)
                    chunks.append(memory.read(high - low))
                except (OSError, OverflowError, ValueError):
                    continue
    except OSError:
        return None
    return b"".join(chunks)


@pytest.mark.skipif(os.geteuid() != 0, reason="reading another process's memory needs root")
def test_no_file_s_process_holds_another_file_s_source_or_output(script):
    """The warm process reads no FILE; each FILE's own process reads only its own: while the
    last FILE runs, no process of the run holds what the first one's source and output held."""
    other = "other-" + secrets.token_hex(12)
    own = "own-" + secrets.token_hex(12)
    first = script("first.py", f"print({other!r})\n")
    last = script("last.py", f"import time\nOWN = {own!r}\ntime.sleep(4)\n")
    command = [sys.executable, "-m", "autodiff_cli.jail", "--json", first, last]
    env = checkout_environment()
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env) as run:
        assert other in json.loads(run.stdout.readline())["stdout"]
        time.sleep(1.0)  # the last FILE's process has read it and forked its child
        processes = [run.pid, *process_tree.descendants(run.pid)]
        memories = [_memory(getattr(process, "pid", process)) for process in processes]
        rest, _ = run.communicate(timeout=60)
    readable = [memory for memory in memories if memory is not None]
    assert len(readable) >= 2, "the run and the last FILE's process can be read"
    assert any(own.encode() in memory for memory in readable), "the scan finds what is there"
    assert not any(other.encode() in memory for memory in readable)
    assert json.loads(rest)["status"] == 0 and run.returncode == 0


# A stand-in for the batch jail: each FILE in a process of its own that prints its record; b.py's
# leaves a process behind, c.py's process kills the run.
FAKE_BATCH = r"""
import json, os, signal, subprocess, sys, time
for path in sys.argv[1:]:
    pid = os.fork()
    if pid == 0:
        if path == "b.py":
            subprocess.Popen(["sleep", "30"])
        if path == "c.py":
            os.kill(os.getppid(), signal.SIGKILL)
            os._exit(0)
        time.sleep(0.3)
        record = {"path": path, "status": 0, "stdout": "", "stderr": "", "seconds": 0.3,
                  "peak_kb": 1, "pid": os.getpid()}
        print(json.dumps(record), flush=True)
        os._exit(0)
    os.waitpid(pid, 0)
"""


def test_the_harness_blames_a_process_left_behind_and_a_run_s_death_on_their_file(monkeypatch):
    monkeypatch.setattr(battery_batch, "DEATH_GRACE", 1.0)
    with contextlib.ExitStack() as cleanup:
        room = battery_batch.make_room(cleanup)
        command = [sys.executable, "-c", FAKE_BATCH, "a.py", "b.py", "c.py", "d.py"]
        batch = battery_batch.execute_batch(command, room, {}, 5.0, None)
    assert list(batch.records) == ["a.py", "b.py"] and batch.status == -9
    leftovers = {path: len(processes) for path, processes in batch.leftovers.items()}
    assert leftovers == {"a.py": 0, "b.py": 1, None: 0}
    left = batch.leftovers["b.py"][0]
    until = time.monotonic() + 10
    while process_tree.alive(left) and time.monotonic() < until:  # (SIGKILL takes a moment)
        time.sleep(0.02)
    assert not process_tree.alive(left)  # killed
    assert batch.reasons_of("a.py", {}) == []
    assert batch.reasons_of("c.py", {}) == ["the run ended without its record (--json)"]
    end = batch.end_run()  # what the attack the run died on is judged on
    assert (end.status, end.stdout, end.stderr, end.leftovers) == (-9, b"", b"", [])


# ---- autodiff doctor ------------------------------------------------------------------------

SOME = ["open_passwd", "kill_sibling", "tcp_connect"]


def doctor(*args: str, prelude: str = "") -> subprocess.CompletedProcess:
    """`autodiff doctor ARGS` after `prelude`, in an environment that is clean already (so the
    clean start does not exec away the prelude's stub)."""
    code = (
        f"import sys\nsys.path.insert(0, {str(REPO)!r})\n{prelude}\n"
        "from autodiff_cli.cli.app import main\nsys.argv = ['autodiff', *sys.argv[1:]]\nmain()\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, "doctor", *args],
        capture_output=True,
        text=True,
        env=clean_environment(checkout_environment()),
        timeout=300,
    )


def test_doctor_json_reports_protections_and_attacks_end_to_end():
    done = doctor("--json", *(f"--only={name}" for name in SOME))
    assert "Traceback" not in done.stderr, done.stderr
    report = json.loads(done.stdout)
    assert sorted(attack["name"] for attack in report["attacks"]) == sorted(SOME)
    assert report["protections"], "the machine's protections are listed"
    assert all(p["in_force"] for p in report["protections"]), report["protections"]
    assert all(a["contained"] for a in report["attacks"]), report["attacks"]
    assert report["summary"]["ok"] is True and done.returncode == 0


# The probe stubbed (one protection missing): what doctor makes of the battery, end to end.
STUB = """
from autodiff_cli.cli.jail import probe
probe.protections = lambda: [probe.Protection("seccomp", True, "allow-list"),
                             probe.Protection("landlock", False, "not in this kernel")]
"""


def test_doctor_judges_the_battery_and_says_what_is_missing():
    done = doctor("--json", "--jobs=2", *(f"--only={name}" for name in SOME), prelude=STUB)
    report = json.loads(done.stdout)
    assert report["protections"] == [
        {"name": "seccomp", "in_force": True, "detail": "allow-list"},
        {"name": "landlock", "in_force": False, "detail": "not in this kernel"},
    ]
    expected = {name: _verdicts("self")[name].contained for name in SOME}
    assert {a["name"]: a["contained"] for a in report["attacks"]} == expected
    for attack in report["attacks"]:
        assert (attack["why"] is None) == attack["contained"]
    assert report["summary"] == {
        "protections": 2,
        "in_force": 1,
        "attacks": 3,
        "contained": sum(expected.values()),
        "ok": False,
    }
    assert done.returncode == 1 and done.stderr == ""


def test_doctor_plain_text_and_unknown_attack(script):
    done = doctor("--plain", "--only=tcp_connect", prelude=STUB)
    lines = done.stdout.splitlines()
    assert lines[0] == "Protections on this machine:"
    assert lines[1].split() == ["in", "force", "seccomp", "allow-list"]
    assert lines[2].split()[:2] == ["MISSING", "landlock"]
    assert lines[3] == "Attacks inside the jail (1):"
    assert lines[4].split()[-1] == "network/tcp_connect" or "NOT CONTAINED" in lines[4]
    assert lines[-1].startswith("1 of 2 protections in force; ")
    assert done.returncode == 1
    done = doctor("--only=no_such_attack", prelude=STUB)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "autodiff doctor: error: no such attack: no_such_attack\n"


# ---- the filter where namespaces are refused --------------------------------------------------

FILTER_WITHOUT_EMPTY_ROOT = """
import ctypes, os, sys
from autodiff_cli.cli.jail import seccomp
libc = ctypes.CDLL(None, use_errno=True)
assert libc.prctl(38, 1, 0, 0, 0) == 0  # PR_SET_NO_NEW_PRIVS
assert seccomp.install(libc, os.getpid(), empty_root=False)
for path in ("/etc/passwd", "/", sys.executable):
    try:
        os.stat(path)
        print("RESOLVED", path)
    except PermissionError:
        print("refused", path)
"""


@pytest.mark.skipif(not seccomp.supported(), reason="no filter for this architecture")
def test_without_the_empty_root_stat_learns_nothing_of_host_paths():
    """Where namespaces are refused (containers), Landlock alone does not govern stat: the filter
    refuses `newfstatat`, so no host file's existence, size, owner or times is learned."""
    done = subprocess.run(
        [sys.executable, "-c", FILTER_WITHOUT_EMPTY_ROOT],
        capture_output=True,
        text=True,
        env=checkout_environment(),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == [
        "refused /etc/passwd",
        "refused /",
        f"refused {sys.executable}",
    ]
