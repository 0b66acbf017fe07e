"""`autodiff run PATH... | -`: run scripts, each in a fresh namespace.

Each script runs in its own child process (`isolation`), forked from this warm one, locked down
and killed at its deadline; up to `--jobs` at once, their outputs printed in the order of the
files. Alone and without `--json`, a script's output streams as it comes. Where processes cannot
be forked (or `AUTODIFF_ISOLATION=0`), scripts run one after the other in this process.
"""

from __future__ import annotations

import collections
import dataclasses
import io
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from autodiff_cli import lazy_imports
from autodiff_cli.cli import output
from autodiff_cli.cli.jail.isolation import (
    DEFAULT_MAX_MEMORY,
    DEFAULT_MAX_OUTPUT,
    LimitError,
    Limits,
    isolation_available,
    run_children,
    timeout_problem,
)
from autodiff_cli.cli.jail.limits import (
    ScriptTimeout,
    set_max_elements,
    time_limit,
)
from autodiff_cli.cli.jail.probe import JailUnavailable, require_full_jail
from autodiff_cli.cli.jail.warm_up import warm_up
from autodiff_cli.cli.output.diagnostics import (
    exit_on_interrupt,
    json_error,
    report_exception,
    warnings_to_stderr,
)
from autodiff_cli.cli.output.json_text import dumps, encodable
from autodiff_cli.cli.output.output_text import Text, encoding_of, write_json_string, write_output
from autodiff_cli.cli.output.terminal import print_error, wants_color
from autodiff_cli.cli.run.script_files import (  # noqa: F401 - `run.command` names them too
    DEFAULT_MAX_SCRIPT_SIZE,
    STDIN_NAME,
    Script,
    UsageError,
    read_script,
)
from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang import ScriptError, run_source

SCRIPT_SUFFIXES = (".py", ".ad")
SKIPPED = "skipped: an earlier script failed (--fail-fast)"
# what notebooks and a terminal's progress bar add, imported only then (lazy_imports says why)
_OPTIONAL = {
    "notebook": "autodiff_cli.cli.notebook.run_notebook",
    "progress": "rich.progress",
}


def _optional(name: str) -> ModuleType:
    return lazy_imports.load(_OPTIONAL[name])


@dataclass
class Outcome:
    """One script's report; also the `--json` line (path, ok, stdout, error, seconds, where
    `error` is `error` and `problem` joined). A child's output stays the bytes it wrote,
    decoded piece by piece as it is printed (`output_text`)."""

    path: str
    ok: bool
    stdout: Text
    error: Text | None
    seconds: float
    problem: str | None = None  # why the parent stopped the child (follows `error`)


@dataclass
class RunOptions:
    jobs: int = 1
    fail_fast: bool = False
    timeout: float | None = None
    max_elements: int | None = None
    as_json: bool = False
    debug: bool = False
    max_memory: int | None = None  # bytes; None: the default (2 GiB)
    max_output: int | None = None  # bytes per script; None: the default (64 MiB)
    max_script_size: int = DEFAULT_MAX_SCRIPT_SIZE
    strict_isolation: bool = False  # --isolation strict: refuse to run without the full jail


def expand_paths(paths: list[str]) -> list[str]:
    """Files as given; a directory becomes the *.py and *.ad files below it, sorted. A symbolic
    link found in a directory that leads outside it is skipped (with a note on stderr): only a
    file named on the command line may live elsewhere."""
    files: list[str] = []
    for path in paths:
        if path != "-" and Path(path).is_dir():
            found = _scripts_in(Path(path))
            if not found:
                raise UsageError(f"autodiff run: error: no *.py or *.ad scripts in {path}")
            files.extend(found)
        else:
            files.append(path)
    return files


def _scripts_in(folder: Path) -> list[str]:
    root = folder.resolve()
    found = []
    for item in sorted(folder.rglob("*")):
        if item.suffix not in SCRIPT_SUFFIXES:
            continue
        target = item.resolve()
        if target != root and root not in target.parents:
            print_error(f"autodiff run: skipped {item}: a symbolic link to outside {folder}")
            continue
        if item.is_file():
            found.append(str(item))
    return found


def run_script(script: Script, *, debug: bool, stdout: Any = None) -> bool:
    """Run one script with `stdout` (default sys.stdout) as its output; report its failure on
    stderr. True on success."""
    stream = stdout if stdout is not None else sys.stdout
    _reset_engine()
    if script.name.lower().endswith(".ipynb"):
        report_cells = script.report_cells
        try:
            notebooks = _optional("notebook")
            return notebooks.run_notebook(
                script.name, script.source, debug=debug, stdout=stream, report_cells=report_cells
            )
        finally:
            stream.flush()
    try:
        with warnings_to_stderr(script.name):
            run_source(script.source, script.name, stdout=stream)
    except Exception as error:  # ScriptError, or a bug below the language: report, go on
        _end_line(stream)
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


def _end_line(stream: Any) -> None:
    """End the script's last line before its error report, when it runs among several."""
    if isinstance(stream, LineEnds):
        stream.flush()
        stream.end_line()


def script_header(scripts: list[Script], index: int) -> str | None:
    """`==> a.py <==` before each script's output, as `tail` and `head` print it, when several
    scripts print to a terminal (a pipe or a file gets the outputs alone, as ever)."""
    if len(scripts) < 2 or not sys.stdout.isatty():
        return None
    return ("\n" if index else "") + f"==> {scripts[index].name} <==\n"


def run_limited(
    script: Script,
    *,
    debug: bool,
    timeout: float | None,
    separate: bool = False,
    header: str | None = None,
) -> bool:
    """`run_script` under the time limit: a script stopped in time gets a located error.
    `separate` (one of several scripts): its error report starts on a line of its own;
    `header` is printed first (`script_header`)."""
    stream = LineEnds(sys.stdout) if separate else None
    if header is not None:
        sys.stdout.write(header)
        sys.stdout.flush()
    try:
        with time_limit(timeout):
            return run_script(script, debug=debug, stdout=stream)
    except ScriptTimeout as error:  # raised between statements, outside the script's frames
        _end_line(stream)
        print_error(f"{script.name}: error\nScriptTimeout: {error}")
        return False


def run_captured(script: Script, *, debug: bool, timeout: float | None = None) -> Outcome:
    """Run a script in this process with its output and its error report captured as text."""
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with redirect_stdout(out), redirect_stderr(err):
        ok = run_limited(script, debug=debug, timeout=timeout)
    error = err.getvalue() or None
    return Outcome(script.name, ok, out.getvalue(), error, time.perf_counter() - start)


def _skipped(script: Script) -> Outcome:
    return Outcome(script.name, False, "", f"{script.name}: {SKIPPED}\n", 0.0)


def _is_skipped(outcome: Outcome) -> bool:
    return outcome.error == f"{outcome.path}: {SKIPPED}\n"


def summary_of(outcomes: list[Outcome]) -> dict[str, Any]:
    """The counts that end a run of several scripts (the `--json` summary object)."""
    skipped = [outcome for outcome in outcomes if _is_skipped(outcome)]
    failed = [outcome.path for outcome in outcomes if not outcome.ok and outcome not in skipped]
    return {
        "scripts": len(outcomes),
        "passed": sum(outcome.ok for outcome in outcomes),
        "failed": len(failed),
        "skipped": len(skipped),
        "failed_paths": failed,
    }


def print_summary(outcomes: list[Outcome], as_json: bool) -> None:
    """`3 scripts: 2 passed, 1 failed (a.py)` on stderr, or `{"summary": {...}}` on stdout."""
    summary = summary_of(outcomes)
    if as_json:
        sys.stdout.write(dumps({"summary": summary}, sys.stdout) + "\n")
        sys.stdout.flush()
        return
    text = _("{scripts} scripts: {passed} passed, {failed} failed").format(**summary)
    if summary["failed_paths"]:
        text += f" ({', '.join(summary['failed_paths'])})"
    if summary["skipped"]:
        text += _(", {skipped} skipped").format(**summary)
    print_error(text)


def limits_of(options: RunOptions) -> Any:
    """The child's `isolation.Limits` for these options."""
    return Limits(
        memory=options.max_memory or DEFAULT_MAX_MEMORY,
        output=options.max_output or DEFAULT_MAX_OUTPUT,
        timeout=options.timeout,
    )


def outcome_of(
    script: Script, result: Any, *, streamed: bool, timeout: float | None = None
) -> Outcome:
    """An `Outcome` from a child's `ChildResult` (its output kept as bytes); streamed output
    was printed already."""
    stdout = b"" if streamed else result.stdout
    error = None if streamed else (result.stderr or None)
    problem = None if result.problem is None else _problem_text(script, result, timeout)
    return Outcome(script.name, result.status == 0, stdout, error, result.seconds, problem)


def _problem_text(script: Script, result: Any, timeout: float | None) -> str:
    """Why the child was stopped; a timeout is located at the statement it was running, as a
    timeout caught between statements is."""
    timed_out = timeout is not None and result.problem == timeout_problem(timeout)
    if result.statement is None or not timed_out or script.name.lower().endswith(".ipynb"):
        return f"{script.name}: error: the script was {result.problem}\n"

    line, column = result.statement
    source = script.source
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    lines = text.split("\n")
    quoted = lines[line - 1] if 0 < line <= len(lines) else ""
    return (
        str(ScriptError("ScriptTimeout", result.problem, script.name, line, column, quoted)) + "\n"
    )


def run_isolated(
    scripts: list[Script], options: RunOptions, report: Callable[[int, Outcome], None]
) -> None:
    """Each script in its own locked-down child, up to `--jobs` at once."""
    warm_up()
    if any(script.name.lower().endswith(".ipynb") for script in scripts):
        _optional("notebook")  # the child cannot import
    streamed = options.jobs == 1 and not options.as_json
    separate = len(scripts) > 1 and not options.as_json
    failed = False

    def work(index: int, script: Script) -> Callable[[], int]:
        header = script_header(scripts, index) if separate else None
        return lambda: (
            0
            if run_limited(
                script,
                debug=options.debug,
                timeout=options.timeout,
                separate=separate,
                header=header,
            )
            else 1
        )

    def done(index: int, result: Any) -> bool:
        nonlocal failed
        outcome = outcome_of(scripts[index], result, streamed=streamed, timeout=options.timeout)
        failed = failed or not outcome.ok
        report(index, outcome)
        return not (failed and options.fail_fast)

    results = run_children(
        [work(index, script) for index, script in enumerate(scripts)],
        limits_of(options),
        jobs=options.jobs,
        stream=streamed,
        on_done=done,
        window=None if streamed else options.jobs + 1,  # outputs held to print in order
    )
    for index in range(len(results), len(scripts)):
        report(index, _skipped(scripts[index]))


# ---- one script's output never runs into the next's ---------------------------------------------

_TAIL = 4096  # how much of the output `LineEnds` keeps to see how it ends
_INTRODUCERS = re.compile("[\x1b\x90\x98\x9b\x9d\x9e\x9f]")
_C0 = re.compile("[\x00-\x17\x19\x1c-\x1f]")  # executed inside a sequence, not ending it
_OPEN_CSI = re.compile("(?:\x1b\\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*")
_OPEN_ESCAPE = re.compile("\x1b[\x20-\x2f]*")
_STRING_START = re.compile("\x1b[\\]PX^_]|[\x90\x98\x9d\x9e\x9f]")


def ends_in_open_escape(text: str) -> bool:
    """Whether `text` ends inside a terminal escape sequence (`\\x1b[2`, an OSC title without
    its terminator...), which would swallow the first characters printed after it."""
    starts = [match.start() for match in _INTRODUCERS.finditer(text[-_TAIL:])]
    if not starts:
        return False
    rest = text[-_TAIL:][starts[-1] :]
    if "\x18" in rest or "\x1a" in rest:  # CAN, SUB: the sequence was cancelled
        return False
    if _STRING_START.match(rest):  # OSC, DCS, SOS, PM, APC: open until BEL or ST
        return "\x07" not in rest and "\x9c" not in rest
    rest = _C0.sub("", rest)
    return bool(_OPEN_CSI.fullmatch(rest) or _OPEN_ESCAPE.fullmatch(rest))


class LineEnds:
    """Our stdout while several scripts run (without --json): text passes through as the scripts
    printed it, and `end_line` then ends a script's last line if it did not (after cancelling an
    escape sequence left open, with CAN), so that the next script's output, an error report or
    the summary starts on a line of its own: `print("50%", end="\\r\\x1b[2K")` at the end of
    one script never overwrites or joins the next one's first line."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._recent: collections.deque[str] = collections.deque()  # the last writes
        self._size = 0  # their length: at most _TAIL more than the last one's

    def write(self, text: str) -> int:
        if text:
            self._recent.append(text)
            self._size += len(text)
            while self._size - len(self._recent[0]) >= _TAIL:
                self._size -= len(self._recent.popleft())
        return self._stream.write(text)

    def end_line(self) -> None:
        tail = "".join(self._recent)[-_TAIL:]
        cancel = "\x18" if ends_in_open_escape(tail) else ""
        line_end = "\n" if tail and not tail.endswith("\n") else ""
        if cancel or line_end:
            self._stream.write(cancel + line_end)
            self._stream.flush()
        self._recent.clear()
        self._size = 0

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding...
        return getattr(self._stream, name)


class OrderedPrinter:
    """Prints outcomes in the order of the files, as soon as all earlier ones are in; a
    printed outcome keeps no output (only what the summary needs). With `line_ends` (several
    scripts), each script's output ends on a line of its own."""

    def __init__(
        self,
        total: int,
        as_json: bool,
        bar: Bar,
        fail_fast: bool = False,
        line_ends: LineEnds | None = None,
    ) -> None:
        self.outcomes: list[Outcome | None] = [None] * total
        self.next = 0
        self.as_json = as_json
        self.bar = bar
        self.fail_fast = fail_fast
        self.line_ends = line_ends
        self.stopped = False  # --fail-fast after a failure: later files are reported skipped

    def __call__(self, index: int, outcome: Outcome) -> None:
        self.outcomes[index] = outcome
        while self.next < len(self.outcomes) and self.outcomes[self.next] is not None:
            outcome = self.outcomes[self.next]
            if self.stopped and outcome.ok:
                outcome = _skipped(Script(outcome.path, ""))
            with self.bar.paused():
                self._print(outcome)
            self.bar.advance()
            self.outcomes[self.next] = _without_output(outcome)
            self.stopped = self.stopped or (self.fail_fast and not outcome.ok)
            self.next += 1

    def _print(self, outcome: Outcome) -> None:
        if self.as_json:
            if outcome.path.lower().endswith(".ipynb") and not _is_skipped(outcome):
                return _optional("notebook").write_notebook_json(outcome)  # (cell_report's)
            _write_json(outcome)
            return
        write_output(sys.stdout, outcome.stdout)
        if self.line_ends is not None:  # (streamed output went through it already)
            self.line_ends.end_line()
        sys.stdout.flush()
        last = write_output(sys.stderr, outcome.error or "", escaped=True)
        if outcome.problem is not None:
            if last not in ("", "\n"):
                sys.stderr.write("\n")
            print_error(outcome.problem)
        elif last not in ("", "\n"):
            print_error("")


def _write_json(outcome: Outcome) -> None:
    """The outcome's `--json` line, as `json.dumps` of its fields writes it, written piece by
    piece."""
    out = sys.stdout
    path = encodable(json.dumps(outcome.path, ensure_ascii=False), out)
    out.write(f'{{"path": {path}, "ok": {json.dumps(outcome.ok)}, "stdout": ')
    write_json_string(out, outcome.stdout, encoding=encoding_of(sys.stdout))
    out.write(', "error": ')
    write_json_string(out, outcome.error, outcome.problem, encoding=encoding_of(sys.stderr))
    out.write(f', "seconds": {json.dumps(round(outcome.seconds, 6))}}}\n')
    out.flush()


def _without_output(outcome: Outcome) -> Outcome:
    """What the summary needs of a printed outcome: its output is let go."""
    kept = outcome.error if _is_skipped(outcome) else None
    return Outcome(outcome.path, outcome.ok, "", kept, outcome.seconds, outcome.problem)


class Bar:
    """The progress of a batch on stderr: a Rich bar, or nothing (this class itself)."""

    def advance(self) -> None:
        pass

    @contextmanager
    def paused(self) -> Iterator[None]:
        yield


class _RichBar(Bar):
    """A transient Rich bar, taken off the terminal while an outcome is printed: the output is
    written as it is, never through Rich (which would render it line by line)."""

    def __init__(self, progress: Any, total: int) -> None:
        self.progress = progress
        self.task = progress.add_task("run", total=total)

    def advance(self) -> None:
        self.progress.advance(self.task)

    @contextmanager
    def paused(self) -> Iterator[None]:
        self.progress.stop()
        try:
            yield
        finally:
            self.progress.start()


@contextmanager
def progress_bar(total: int, shown: bool = True) -> Iterator[Bar]:
    """A Rich progress bar on stderr when it is a terminal, there are several scripts and
    `shown` (their outputs are collected, not streamed); else a `Bar` that does nothing."""
    if total < 2 or not shown or not wants_color(sys.stderr):
        yield Bar()
        return

    rich = _optional("progress")
    progress = rich.Progress(
        rich.TextColumn("running scripts"),
        rich.BarColumn(),
        rich.MofNCompleteColumn(),
        console=output.optional("styled").Console(stderr=True),
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
    )
    bar = _RichBar(progress, total)
    with progress:
        yield bar


def run_paths(paths: list[str], options: RunOptions) -> int:
    """Run every script (unless --fail-fast stops early): 0 if all succeed, 1 if any failed,
    2 if a path cannot be read (then nothing runs)."""
    try:
        scripts = [read_script(path, options.max_script_size) for path in expand_paths(paths)]
        if options.as_json:
            scripts = [dataclasses.replace(script, report_cells=True) for script in scripts]
    except UsageError as error:
        return _usage_failure(str(error), options.as_json)
    if options.strict_isolation:
        try:
            require_full_jail()
        except JailUnavailable as error:
            return _usage_failure(f"autodiff run: error: {error}", options.as_json)
    if not set_max_elements(options.max_elements):
        print_error(
            "autodiff run: warning: this engine has no element limit; --max-elements ignored"
        )
    several = len(scripts) > 1 and not options.as_json
    try:
        collected = options.as_json or (options.jobs > 1 and isolation_available())
        with progress_bar(len(scripts), shown=collected) as bar, _line_ends(several) as line_ends:
            printer = OrderedPrinter(
                len(scripts), options.as_json, bar, options.fail_fast, line_ends
            )

            def report(index: int, outcome: Outcome) -> None:
                printer(index, outcome)

            if isolation_available():
                run_isolated(scripts, options, report)
            else:
                run_here(scripts, options, report)
    except LimitError as error:
        return _usage_failure(f"autodiff run: error: {error}", options.as_json)
    except KeyboardInterrupt:
        return exit_on_interrupt()
    outcomes = [outcome for outcome in printer.outcomes if outcome is not None]
    if len(scripts) > 1:
        print_summary(outcomes, options.as_json)
    return 0 if len(outcomes) == len(scripts) and all(o.ok for o in outcomes) else 1


@contextmanager
def _line_ends(several: bool) -> Iterator[LineEnds | None]:
    """Our stdout as a `LineEnds` while several scripts run: one script alone keeps its exact
    output (as `python script.py` prints it), with --json every line is whole anyway."""
    if not several:
        yield None
        return
    line_ends = LineEnds(sys.stdout)
    with redirect_stdout(line_ends):  # streamed output, and output of scripts run here
        yield line_ends


def _usage_failure(text: str, as_json: bool) -> int:
    """Exit status 2 after `autodiff run: error: ...` on stderr, or the `--json` error object."""
    if as_json:
        json_error("UsageError", text.removeprefix("autodiff run: error: "))
    else:
        print_error(text)
    return 2


def run_here(
    scripts: list[Script],
    options: RunOptions,
    report: Callable[[int, Outcome], None],
) -> None:
    """Run the scripts one after the other in this process (no fork: the language's limits
    alone, --jobs ignored); output streams unless --json."""
    failed = False
    for index, script in enumerate(scripts):
        if failed and options.fail_fast:
            report(index, _skipped(script))
            continue
        if options.as_json:
            outcome = run_captured(script, debug=options.debug, timeout=options.timeout)
        else:
            start = time.perf_counter()
            ok = run_limited(
                script,
                debug=options.debug,
                timeout=options.timeout,
                separate=len(scripts) > 1,
                header=script_header(scripts, index),
            )
            outcome = Outcome(script.name, ok, "", None, time.perf_counter() - start)
        failed = failed or not outcome.ok
        report(index, outcome)
