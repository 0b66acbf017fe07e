"""The red-team corpus (`tests/hostile/*.ad`, an extension linters leave alone), run as a user
runs it: `autodiff run` in a subprocess, in an empty temporary working directory, with HOME and
the cache and state folders pointing at empty temporary folders and canary secrets in the
environment.

Header lines (among the first three):
- `# expect: WHAT` (required): a bare name is an exception type that must end the run as
  `Type: message` on stderr with a located error (`file:line:col: error`, the source line and a
  caret); any other text must appear on stderr as is (a kill, a usage error). `A|B` accepts
  either (an attack the language may refuse, else the OS layer stops).
- `# args: ...`: command-line options before the script; `{fifo}` is a FIFO and `{linkdir}` a
  folder holding a symbolic link to `/proc/self/environ` (both outside the working directory).
- `# status: N`: the exit status (default 1; 2 for usage errors).
- `# stdout: TEXT`: the exact standard output, in Python's string escapes (`\\n`, `\\x1b`).
`{self}` in `# args:` is the attack's own path (a batch running it twice).

Every attack must exit with its status, print its message, show no Python traceback, create no
file in the working directory, HOME or the cache/state folders (beyond what a harmless script's
run leaves there, byte for byte), leak no environment value, stay under 2 GiB of memory (the
peak resident size of the largest of its processes) and end in under 30 s. A sample also runs through
`grad`, `graph --file`, the piped REPL and `run --jobs 2`.

Attacks that end with status 1 run in batches of attacks with the same `# args:`, `autodiff run
--json ARGS A B ...` (`cli_runner`): each still in its own fresh locked-down child, as `autodiff
run ARGS A` runs it, its exit status (`ok`), stdout, stderr and seconds read from its JSON line;
the batch's folders, peak memory and stderr are checked for each of its attacks. Usage errors
and attacks about `--json`, `--jobs` or a placeholder run alone. Only the attacks selected
(`-k`) run.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cli_runner import batches, script_reports, selected_params

REPO = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).resolve().parent / "hostile"
SCRIPTS = sorted(HOSTILE.glob("*.ad"))
LOCATED = re.compile(r"^(?P<file>\S.*):(?P<line>\d+):(?P<column>\d+): error$", re.M)
TYPE_NAME = re.compile(r"[A-Za-z_][\w.]*")
CANARIES = {"AUTODIFF_CANARY": "canary-5d1e2f-value", "API_TOKEN": "tok-93b7c1e0-secret"}
MAX_RSS_KB = 2 << 20  # 2 GiB
MAX_SECONDS = 30.0
WORKERS = 3  # attacks (or batches of attacks) at once (each may use up to 2 GiB)
BATCH_SIZE = 100  # attacks at least per `autodiff run --json` (each start-up costs ~0.3 CPU-s);
# a larger group is cut into WORKERS batches, one per worker (no start-up more than needed)
BATCH_TIMEOUT = 300.0  # seconds for a batch (a batch of ~180 takes ~25 s idle)


@dataclass(frozen=True)
class Outcome:
    returncode: int | None  # None: still running at its time limit (killed)
    stdout: str
    stderr: str
    seconds: float
    maxrss_kb: int
    leftovers: dict[str, str]  # relative path -> sha256 of what was left in the folders


def header(path: Path, key: str) -> str | None:
    for line in path.read_bytes().split(b"\n")[:3]:
        match = re.match(rb"# " + key.encode() + rb": (.*)", line)
        if match:
            return match.group(1).decode().strip()
    return None


def _snapshot(folders: dict[str, Path]) -> dict[str, str]:
    found = {}
    for label, folder in folders.items():
        for path in folder.rglob("*"):
            key = f"{label}/{path.relative_to(folder)}"
            found[key] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
    return found


def run_measured(command: list[str], *, stdin: str = "", timeout: float = 90) -> Outcome:
    """`autodiff COMMAND` in fresh temporary folders (cwd, HOME, caches), measured."""
    with tempfile.TemporaryDirectory() as base, tempfile.TemporaryDirectory() as outside:
        folders = {name: Path(base, name) for name in ("cwd", "home", "cache", "state")}
        for folder in folders.values():
            folder.mkdir()
        environment = dict(
            os.environ,
            PYTHONPATH=str(REPO),
            NO_COLOR="1",
            COLUMNS="200",
            HOME=str(folders["home"]),
            XDG_CACHE_HOME=str(folders["cache"]),
            XDG_STATE_HOME=str(folders["state"]),
            **CANARIES,
        )
        args = [_placeholder(arg, Path(outside)) for arg in command]
        argv = [sys.executable, "-m", "autodiff_cli", *args]
        measured = _run_reaped(argv, stdin.encode(), folders["cwd"], environment, timeout)
        return Outcome(*measured, leftovers=_snapshot(folders))


def _run_reaped(
    argv: list[str], stdin: bytes, cwd: Path, env: dict[str, str], timeout: float
) -> tuple[int | None, str, str, float, int]:
    """Run `argv` with `stdin` piped in: (returncode, stdout, stderr, seconds, peak kB), the peak
    resident size of the largest of its processes (wait4's ru_maxrss covers the process and the
    descendants it waited for); returncode None when it still ran at `timeout` seconds (killed).
    Its output goes to files, so that this thread reaps it with `wait4` itself (one Python
    process less per run than a measuring wrapper) while a timer stands ready to kill it."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=out, stderr=err, cwd=cwd, env=env
        )
        stopped = threading.Event()

        def stop() -> None:
            stopped.set()
            process.kill()

        timer = threading.Timer(timeout, stop)
        timer.start()
        feeder = threading.Thread(target=_feed, args=(process.stdin, stdin))
        feeder.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)  # (reaped: Popen is told)
        finally:
            timer.cancel()
            feeder.join()
        seconds = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        stdout, stderr = (stream.read().decode("utf-8", "replace") for stream in (out, err))
    returncode = None if stopped.is_set() else process.returncode
    return returncode, stdout, stderr, seconds, usage.ru_maxrss


def _feed(pipe: Any, data: bytes) -> None:
    """Write `data` into the process's stdin and close it (it may stop reading: that is fine)."""
    try:
        pipe.write(data)
    except BrokenPipeError:
        pass
    finally:
        try:
            pipe.close()
        except BrokenPipeError:
            pass


def _placeholder(arg: str, outside: Path) -> str:
    if arg == "{fifo}":
        fifo = outside / "script.py"
        os.mkfifo(fifo)
        return str(fifo)
    if arg == "{linkdir}":
        folder = outside / "batch"
        folder.mkdir()
        (folder / "environ.py").symlink_to("/proc/self/environ")
        return str(folder)
    return arg


def run_batch(paths: list[Path], options: tuple[str, ...] = ()) -> dict[str, Outcome]:
    """`autodiff run --json OPTIONS PATHS...` in fresh folders: each attack's outcome from its
    JSON line, with the batch's peak memory and leftovers; the batch's own stderr (nothing,
    normally) is added to each attack's. An attack the batch did not report fails with the
    batch's stderr."""
    command = ["run", "--json", *options, *map(str, paths)]
    whole = run_measured(command, timeout=BATCH_TIMEOUT)
    reports = script_reports([str(path) for path in paths], whole.stdout)
    found = {
        Path(report.path).name: Outcome(
            report.returncode,
            report.stdout,
            report.stderr + whole.stderr,
            report.seconds,
            whole.maxrss_kb,
            whole.leftovers,
        )
        for report in reports
    }
    ended = "stopped at its time limit" if whole.returncode is None else "ended"
    for path in paths[len(reports) :]:
        stderr = f"the batch {ended} (status {whole.returncode}) before it ran {path.name}:\n"
        found[path.name] = Outcome(None, "", stderr + whole.stderr, 0.0, 0, whole.leftovers)
    return found


def batch_options(path: Path) -> tuple[str, ...] | None:
    """The options of the batch the attack may share (attacks with the same options run
    together), or None when it must run alone: a usage error (status 2) would stop the whole
    batch, and `--json`, `--jobs` or a placeholder are what the attack is about."""
    options = tuple((header(path, "args") or "").split())
    alone = any(option.startswith(("{", "--json", "--jobs", "-j")) for option in options)
    return None if alone or int(header(path, "status") or 1) != 1 else options


def attack_command(path: Path) -> list[str]:
    args = [str(path) if arg == "{self}" else arg for arg in (header(path, "args") or "").split()]
    return ["run", *args, str(path)]


@pytest.fixture(scope="module")
def baseline() -> dict[str, str]:
    """What a harmless script's run leaves in the folders (say, a parse-table cache)."""
    with tempfile.TemporaryDirectory() as folder:
        harmless = Path(folder, "harmless.py")
        harmless.write_text("x = 1\n")
        outcome = run_measured(["run", str(harmless)])
    assert outcome.returncode == 0, outcome.stderr
    return outcome.leftovers


@pytest.fixture(scope="module")
def outcomes(request: pytest.FixtureRequest) -> dict[str, Outcome]:
    """The selected attacks run once, in batches of attacks with the same options or alone
    (`batch_options`), a few runs at a time."""
    selected = selected_params(request, "test_hostile_script_fails_cleanly", "path")
    groups: dict[tuple[str, ...], list[Path]] = {}
    for path in selected:
        options = batch_options(path)
        if options is not None:
            groups.setdefault(options, []).append(path)
    jobs = [
        (options, batch)
        for options, paths in sorted(groups.items(), key=lambda group: -len(group[1]))
        for batch in batches(paths, max(BATCH_SIZE, -(-len(paths) // WORKERS)))
    ]
    jobs += [(None, [path]) for path in selected if batch_options(path) is None]
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        runs = pool.map(_run_job, jobs)
        return {name: outcome for found in runs for name, outcome in found.items()}


def _run_job(job: tuple[tuple[str, ...] | None, list[Path]]) -> dict[str, Outcome]:
    options, paths = job
    if options is None:
        return {paths[0].name: run_measured(attack_command(paths[0]))}
    return run_batch(paths, options)


def check_clean(outcome: Outcome, baseline: dict[str, str], status: int = 1) -> None:
    """What every attack, in every mode, must satisfy."""
    assert outcome.returncode == status, outcome.stderr[-3000:]
    assert "Traceback" not in outcome.stderr, outcome.stderr[-3000:]
    assert (outcome.stderr + outcome.stdout).strip(), "no message"
    for value in CANARIES.values():
        assert value not in outcome.stdout + outcome.stderr, "an environment value leaked"
    created = {
        key: digest for key, digest in outcome.leftovers.items() if baseline.get(key) != digest
    }
    assert not created, f"files were created or changed: {sorted(created)}"
    assert outcome.maxrss_kb < MAX_RSS_KB, f"peak memory {outcome.maxrss_kb} kB"
    assert outcome.seconds < MAX_SECONDS, f"took {outcome.seconds:.1f} s"


def expectations(path: Path) -> list[str]:
    return (header(path, "expect") or "").split("|")


def test_corpus_is_large_and_annotated() -> None:
    assert len(SCRIPTS) >= 100
    assert len([path for path in SCRIPTS if path.name.startswith("os_")]) >= 20
    for path in SCRIPTS:
        assert header(path, "expect"), f"{path.name} has no '# expect: ...' line"


@pytest.mark.parametrize("path", SCRIPTS, ids=[path.stem for path in SCRIPTS])
def test_hostile_script_fails_cleanly(
    path: Path, outcomes: dict[str, Outcome], baseline: dict[str, str]
) -> None:
    outcome = outcomes[path.name]
    status = int(header(path, "status") or 1)
    check_clean(outcome, baseline, status)
    shown = outcome.stderr + outcome.stdout  # under --json the error is in the JSON line
    matched = [want for want in expectations(path) if _shows(shown, want)]
    assert matched, f"expected {header(path, 'expect')!r} in:\n{outcome.stderr[-3000:]}"
    stdout = header(path, "stdout")
    if stdout is not None:  # the exact output, written with Python's string escapes
        assert outcome.stdout == stdout.encode().decode("unicode_escape"), outcome.stdout
    if status == 1 and all(TYPE_NAME.fullmatch(want) for want in matched):
        _check_located(path, outcome.stderr)


def _shows(stderr: str, want: str) -> bool:
    if TYPE_NAME.fullmatch(want):
        return re.search(rf"^{re.escape(want)}(: \S|$)", stderr, re.M) is not None
    return want in stderr


def _check_located(path: Path, stderr: str) -> None:
    located = LOCATED.search(stderr)
    assert located, stderr
    assert Path(located["file"]).name == path.name
    line = int(located["line"])
    source_lines = path.read_bytes().split(b"\n")
    assert 1 <= line <= len(source_lines)
    after = stderr[located.end() :].lstrip("\n").split("\n")
    if after[0].startswith("    "):  # the source line is shown: a caret under the column
        assert after[1].strip() == "^"
        assert len(after[1]) - 4 == int(located["column"])


# ---- the same attacks through the other ways in ------------------------------------------------

SAMPLE = [
    "os_forty_tensors.ad",
    "os_list_of_lists.ad",
    "os_output_flood.ad",
    "os_surrogate_error.ad",
    "os_deep_iterators.ad",
    "os_huge_exception_message.ad",
    "deep_recursion.ad",
    "huge_ljust.ad",
    "format_map_globals.ad",
    "numpy_tofile.ad",
    "builtin_open.ad",
    "import_os.ad",
]


def _sample() -> list[Path]:
    return [HOSTILE / name for name in SAMPLE if (HOSTILE / name).exists()]


def _body(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def _limit_options(path: Path) -> list[str]:
    """The attack's --max-memory and --max-output options (every command takes them)."""
    args = (header(path, "args") or "").split()
    options = []
    for name, value in zip(args, args[1:] + [""]):
        if name in ("--max-memory", "--max-output"):
            options += [name, value]
    return options


def _modes(path: Path) -> dict[str, tuple[list[str], str]]:
    limits = _limit_options(path)
    return {
        "grad": (["grad", "-", "--at", "x=1", "--timeout", "20", *limits], _body(path) + "\nx\n"),
        "graph": (["graph", "--file", str(path), "--var", "y", "--timeout", "20", *limits], ""),
        "repl": (["repl", *limits], _body(path)),
    }


@pytest.fixture(scope="module")
def mode_outcomes() -> dict[tuple[str, str], Outcome]:
    jobs = []
    for path in _sample():
        for mode, (command, stdin) in _modes(path).items():
            jobs.append(((path.name, mode), command, stdin))
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        runs = pool.map(lambda job: run_measured(job[1], stdin=job[2]), jobs)
        return {key: outcome for (key, _, _), outcome in zip(jobs, runs)}


@pytest.mark.parametrize("mode", ["grad", "graph", "repl"])
@pytest.mark.parametrize("path", _sample(), ids=[path.stem for path in _sample()])
def test_attacks_fail_cleanly_in_every_command(
    path: Path, mode: str, mode_outcomes: dict, baseline: dict[str, str]
) -> None:
    outcome = mode_outcomes[(path.name, mode)]
    check_clean(outcome, baseline)
    wanted = expectations(path)
    assert any(_shows(outcome.stderr, want) for want in wanted), outcome.stderr[-3000:]


def test_attacks_fail_cleanly_in_parallel_jobs(baseline: dict[str, str]) -> None:
    paths = _sample()
    outcome = run_measured(["run", "--jobs", "2", "--max-output", "1M", *map(str, paths)])
    check_clean(outcome, baseline)
    for path in paths:  # each one's error is there, the others went on
        assert f"{path}:" in outcome.stderr or f"{path}: error" in outcome.stderr, path.name
