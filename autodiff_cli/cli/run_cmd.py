"""`autodiff run PATH... | -`: run scripts, each in a fresh namespace.

Scripts run in this process, their output streaming, unless `--jobs`, `--timeout` or `--json`
ask otherwise: with `--json` each script's output is captured; with `--jobs N` or `--timeout`
each script runs in a worker process (killed when its time is up), and outputs are printed in
the order of the files.
"""

from __future__ import annotations

import io
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from autodiff_cli.cli.terminal import print_error

STDIN_NAME = "<stdin>"
SCRIPT_SUFFIXES = (".py", ".ad")
SKIPPED = "skipped: an earlier script failed (--fail-fast)"


@dataclass(frozen=True)
class Script:
    name: str  # as the user wrote it; errors are located with it
    source: str | bytes


@dataclass
class Outcome:
    """One script's report; also the `--json` line (path, ok, stdout, error, seconds)."""

    path: str
    ok: bool
    stdout: str
    error: str | None
    seconds: float


@dataclass
class RunOptions:
    jobs: int = 1
    fail_fast: bool = False
    timeout: float | None = None
    max_elements: int | None = None
    as_json: bool = False
    debug: bool = False


class UsageError(Exception):
    """A path that cannot be read: reported before any script runs, exit status 2."""


def read_script(path: str) -> Script:
    """The script's bytes: the language decodes them, so bad bytes get a located syntax error."""
    if path == "-":
        data = sys.stdin.buffer.read() if sys.stdin is not None else b""
        return Script(STDIN_NAME, data)
    try:
        with open(path, "rb") as handle:
            return Script(path, handle.read())
    except FileNotFoundError:
        raise UsageError(f"autodiff run: error: file not found: {path}") from None
    except IsADirectoryError:
        raise UsageError(f"autodiff run: error: is a directory, not a script: {path}") from None
    except OSError as error:
        raise UsageError(f"autodiff run: error: cannot read {path}: {error.strerror}") from None


def expand_paths(paths: list[str]) -> list[str]:
    """Files as given; a directory becomes the *.py and *.ad files below it, sorted."""
    files: list[str] = []
    for path in paths:
        if path != "-" and Path(path).is_dir():
            found = sorted(
                str(item)
                for item in Path(path).rglob("*")
                if item.suffix in SCRIPT_SUFFIXES and item.is_file()
            )
            if not found:
                raise UsageError(f"autodiff run: error: no *.py or *.ad scripts in {path}")
            files.extend(found)
        else:
            files.append(path)
    return files


def run_script(script: Script, *, debug: bool, stdout: Any = None) -> bool:
    """Run one script with `stdout` (default sys.stdout) as its output; report its failure on
    stderr. True on success."""
    from autodiff_cli.cli.diagnostics import report_exception, warnings_to_stderr
    from autodiff_cli.lang import run_source

    stream = stdout if stdout is not None else sys.stdout
    _reset_engine()
    try:
        with warnings_to_stderr(script.name):
            run_source(script.source, script.name, stdout=stream)
    except Exception as error:  # ScriptError, or a bug below the language: report, go on
        report_exception(error, debug=debug, context=script.name)
        return False
    finally:
        stream.flush()
    return True


def _reset_engine() -> None:
    """Each script starts from the engine's defaults (grad mode, dtype, print options, seed)."""
    engine = sys.modules.get("autodiff_cli.engine")
    if engine is not None:  # nothing to reset before the first script imports it
        engine.reset_global_state()


def run_captured(script: Script, *, debug: bool) -> Outcome:
    """Run a script with its output and its error report captured as text."""
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with redirect_stdout(out), redirect_stderr(err):
        ok = run_script(script, debug=debug, stdout=out)
    error = err.getvalue() or None
    return Outcome(script.name, ok, out.getvalue(), error, time.perf_counter() - start)


KILL_GRACE = 1.0  # seconds a worker gets past --timeout to stop by itself with a located error


def _worker(
    script: Script, debug: bool, max_elements: int | None, timeout: float | None, connection: Any
) -> None:
    """Body of a worker process: run one script, send its Outcome back. The time limit applies
    inside too, so a script stopped in time gets a located error; the parent kills it later."""
    from autodiff_cli.cli.limits import set_max_elements, time_limit

    set_max_elements(max_elements)
    try:
        with time_limit(timeout):
            outcome = run_captured(script, debug=debug)
    except KeyboardInterrupt:
        outcome = Outcome(script.name, False, "", "KeyboardInterrupt\n", 0.0)
    connection.send(outcome)
    connection.close()


def _timed_out(script: Script, seconds: float, elapsed: float) -> Outcome:
    from autodiff_cli.cli.limits import timeout_message

    message = f"{script.name}: error\nScriptTimeout: {timeout_message(seconds)}\n"
    return Outcome(script.name, False, "", message, elapsed)


def _skipped(script: Script) -> Outcome:
    return Outcome(script.name, False, "", f"{script.name}: {SKIPPED}\n", 0.0)


def _crashed(script: Script, code: int | None, elapsed: float) -> Outcome:
    message = f"{script.name}: error\nRuntimeError: the worker process died (exit code {code})\n"
    return Outcome(script.name, False, "", message, elapsed)


def run_in_workers(
    scripts: list[Script], options: RunOptions, report: Callable[[int, Outcome], None]
) -> None:
    """Run each script in its own process, up to `options.jobs` at once; kill those that run
    past the timeout. `report(index, outcome)` is called as each one finishes."""
    import multiprocessing
    from multiprocessing.connection import wait

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    waiting = list(enumerate(scripts))
    running: dict[Any, tuple[int, Script, Any, float]] = {}  # connection -> job
    failed = False
    try:
        while waiting or running:
            while waiting and len(running) < options.jobs and not (failed and options.fail_fast):
                index, script = waiting.pop(0)
                receiver, sender = context.Pipe(duplex=False)
                process = context.Process(
                    target=_worker,
                    args=(script, options.debug, options.max_elements, options.timeout, sender),
                    daemon=True,
                )
                process.start()
                sender.close()
                running[receiver] = (index, script, process, time.perf_counter())
            if failed and options.fail_fast:
                for receiver, (index, script, process, _) in list(running.items()):
                    process.kill()
                    process.join(5)
                    receiver.close()
                    del running[receiver]
                    report(index, _skipped(script))
                for index, script in waiting:
                    report(index, _skipped(script))
                return
            ready = wait(list(running), timeout=_next_wait(running, options.timeout))
            now = time.perf_counter()
            for receiver in list(running):
                index, script, process, started = running[receiver]
                if receiver in ready:
                    try:
                        outcome = receiver.recv()
                    except EOFError:
                        process.join(1)
                        outcome = _crashed(script, process.exitcode, now - started)
                elif options.timeout is not None and now - started > options.timeout + KILL_GRACE:
                    process.kill()
                    outcome = _timed_out(script, options.timeout, now - started)
                else:
                    continue
                process.join(5)
                receiver.close()
                del running[receiver]
                failed = failed or not outcome.ok
                report(index, outcome)
    finally:
        for _, _, process, _ in running.values():
            process.kill()


def _next_wait(running: dict, timeout: float | None) -> float | None:
    if timeout is None:
        return None
    now = time.perf_counter()
    deadline = timeout + KILL_GRACE
    return max(0.0, min(started + deadline - now for _, _, _, started in running.values())) + 0.01


class OrderedPrinter:
    """Prints outcomes in the order of the files, as soon as all earlier ones are in."""

    def __init__(
        self, total: int, as_json: bool, on_print: Callable[[], None], fail_fast: bool = False
    ) -> None:
        self.outcomes: list[Outcome | None] = [None] * total
        self.next = 0
        self.as_json = as_json
        self.on_print = on_print
        self.fail_fast = fail_fast
        self.stopped = False  # --fail-fast after a failure: later files are reported skipped

    def __call__(self, index: int, outcome: Outcome) -> None:
        self.outcomes[index] = outcome
        while self.next < len(self.outcomes) and self.outcomes[self.next] is not None:
            outcome = self.outcomes[self.next]
            if self.stopped and outcome.ok:
                outcome = self.outcomes[self.next] = _skipped(Script(outcome.path, ""))
            self._print(outcome)
            self.stopped = self.stopped or (self.fail_fast and not outcome.ok)
            self.next += 1

    def _print(self, outcome: Outcome) -> None:
        if self.as_json:
            import json

            record = asdict(outcome)
            record["seconds"] = round(outcome.seconds, 6)
            sys.stdout.write(json.dumps(record) + "\n")
        else:
            sys.stdout.write(outcome.stdout)
        sys.stdout.flush()
        if outcome.error and not self.as_json:
            print_error(outcome.error)
        self.on_print()


@contextmanager
def progress_bar(total: int) -> Iterator[Callable[[], None]]:
    """A Rich progress bar on stderr when it is a terminal and there are several scripts; yields
    the function that advances it (a no-op without a bar)."""
    from autodiff_cli.cli.terminal import wants_color

    if total < 2 or not wants_color(sys.stderr):
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    progress = Progress(
        TextColumn("running scripts"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
        redirect_stdout=sys.stdout.isatty(),
        redirect_stderr=True,
    )
    task = progress.add_task("run", total=total)
    with progress:
        yield lambda: progress.advance(task)


def run_paths(paths: list[str], options: RunOptions) -> int:
    """Run every script (unless --fail-fast stops early): 0 if all succeed, 1 if any failed,
    2 if a path cannot be read (then nothing runs)."""
    from autodiff_cli.cli.limits import set_max_elements

    try:
        scripts = [read_script(path) for path in expand_paths(paths)]
    except UsageError as error:
        print_error(str(error))
        return 2
    if not set_max_elements(options.max_elements):
        print_error(
            "autodiff run: warning: this engine has no element limit; --max-elements ignored"
        )
    try:
        with progress_bar(len(scripts)) as advance:
            printer = OrderedPrinter(len(scripts), options.as_json, advance, options.fail_fast)

            def report(index: int, outcome: Outcome) -> None:
                printer(index, outcome)

            if options.jobs > 1 or options.timeout is not None:
                run_in_workers(scripts, options, report)
            else:
                run_here(scripts, options, report, advance)
    except KeyboardInterrupt:
        from autodiff_cli.cli.diagnostics import exit_on_interrupt

        return exit_on_interrupt()
    results = [outcome is not None and outcome.ok for outcome in printer.outcomes]
    return 0 if all(results) else 1


def run_here(
    scripts: list[Script],
    options: RunOptions,
    report: Callable[[int, Outcome], None],
    advance: Callable[[], None],
) -> None:
    """Run the scripts one after the other in this process; output streams unless --json."""
    failed = False
    for index, script in enumerate(scripts):
        if failed and options.fail_fast:
            report(index, _skipped(script))
            continue
        if options.as_json:
            outcome = run_captured(script, debug=options.debug)
        else:
            start = time.perf_counter()
            ok = run_script(script, debug=options.debug)
            outcome = Outcome(script.name, ok, "", None, time.perf_counter() - start)
        failed = failed or not outcome.ok
        report(index, outcome)
