"""Fixtures shared by the tests: scripts in a temporary folder, `T` (the engine or torch),
`small_cap`, a lowered element limit, and the end of any source recording a test's in-process
REPL session turned on (`lang/runtime/provenance.py`: a REPL records for the rest of its process)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


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
