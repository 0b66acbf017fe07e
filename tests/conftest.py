"""Fixtures shared by the tests: scripts in a temporary folder, `T` (the engine or torch),
`small_cap`, a lowered element limit, and the end of any source recording a test's in-process
REPL session turned on (`lang/runtime/provenance.py`: a REPL records for the rest of its process).

The suite runs on three pytest-xdist workers, each taking whole files (`-n 3 --dist loadfile
--no-loadscope-reorder`, pyproject's addopts; `-n 0` for one process), the longest files first
(`LONGEST_FIRST`): on this 2-core machine, idle, 203-221 s for 12,524 tests (219-223 s on two
workers: a third fills the time the others wait on a child, a browser or a deadline); under
load it stays green. A worker's environment is the suite's (below)."""

from __future__ import annotations

import gc
import importlib
import os
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from autodiff_cli.cli.app import GC_THRESHOLDS


def _signals_at_their_defaults() -> None:
    """The suite may be started where SIGINT and SIGQUIT are ignored (a background job of a
    non-interactive shell: `cmd &`) or SIGHUP is (`nohup`). An ignored signal is inherited
    through exec, and autodiff rightly keeps it, so a Ctrl-C test's child would ignore its
    Ctrl-C. The suite's own children start with the defaults; a test that wants a signal
    ignored (the `nohup` case) says so itself."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    for name in ("SIGQUIT", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is signal.SIG_IGN:
            signal.signal(number, signal.SIG_DFL)


_signals_at_their_defaults()

# The in-process tests run the engine and the language with the CLI's collector thresholds, as
# a user's run does (a graph's many small objects: the default's young collections cost ~4% of
# the gradient tests' time).
gc.set_threshold(*GC_THRESHOLDS)

TERMINAL_SIZE = ("COLUMNS", "LINES")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:  # noqa: ANN001 - xdist's WorkerController
    """The terminal size of our environment, for the worker (below)."""
    node.workerinput["terminal_size"] = {name: os.environ.get(name) for name in TERMINAL_SIZE}


def pytest_configure(config: pytest.Config) -> None:
    """A worker's environment is ours: xdist's workers get COLUMNS=80 and LINES=24, which the
    CLI run by a test would take as its terminal's width (Rich's tables cut to 80 columns)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None:
        return
    for name, value in workerinput.get("terminal_size", {}).items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


# The files that take longest (the jail's battery, the hostile corpus, the conformance batches:
# 25-50 s each on this machine), started first so that the workers end together; the
# others follow as collected. (xdist's own order, most tests first, started the 90 s jail file
# after 40 s of short files: the other worker then idled at the end.)
LONGEST_FIRST = (
    "test_jail.py", "test_hostile.py", "test_conformance.py", "test_lang_parser.py",
    "test_cli.py", "test_isolation.py", "test_parent_control.py", "test_engine_gradients.py",
    "test_cli_repl.py", "test_cli_grad.py", "test_formula.py",
)  # fmt: skip


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[object]:
    """Collection without the collector, then what it built frozen: the items, the test modules
    and their rewritten code live all session, and later collections need not walk them again
    (-1.1 CPU-s a worker). The test modules' rewritten code is cached in `tests/__pycache__`
    even where PYTHONDONTWRITEBYTECODE is set: pytest honours it, and every worker of every run
    then parsed and rewrote the asserts of all the test files again (2.5 of a worker's 4.8 CPU-s
    of collection); the setting is ours again once the modules are imported."""
    gc.disable()
    setting = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = setting
        gc.freeze()
        gc.enable()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of `LONGEST_FIRST` first, in that order; each file's tests in their order."""
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.fixture(autouse=True)
def _no_source_recording_left() -> Iterator[None]:
    """An in-process REPL session records each node's source for the rest of the process; the
    next test starts without it (its observer would show in the engine's mode tests)."""
    yield
    provenance = sys.modules.get("autodiff_cli.lang.runtime.provenance")
    if provenance is not None:
        provenance.stop_all_recording()


@pytest.fixture
def script(tmp_path: Path) -> Callable[[str, str], str]:
    """`script(name, source)` writes a script into a temporary folder and returns its path."""

    def write(name: str, source: str) -> str:
        path = tmp_path / name
        path.write_text(source, encoding="utf-8")
        return str(path)

    return write


@pytest.fixture
def small_cap(request: pytest.FixtureRequest) -> Iterator[int]:
    """The engine's element limit lowered to the test module's `SMALL_CAP` for one test."""
    from autodiff_cli.engine.core import limits

    cap = request.module.SMALL_CAP
    saved = limits.get_max_elements()
    limits.set_max_elements(cap)
    yield cap
    limits.set_max_elements(saved)


def _engine_and_torch() -> list:
    """The engine, and PyTorch when this interpreter can import it (the same test on both)."""
    import autodiff_cli.engine as engine

    modules = [pytest.param(engine, id="engine")]
    try:
        modules.append(pytest.param(importlib.import_module("torch"), id="torch"))
    except ImportError:
        pass
    return modules


@pytest.fixture(params=_engine_and_torch())
def T(request):  # noqa: N802 - torch's usual name in these tests
    """`torch` or the engine, with grad mode restored after the test."""
    mode = request.param.is_grad_enabled()
    yield request.param
    request.param.set_grad_enabled(mode)
