"""The test modules' rewritten code (pytest's assertion rewriting), written to `__pycache__` by
the xdist controller before its workers start (conftest's `pytest_configure`).

Each worker imports every test module to collect the suite, and rewrites the asserts of those
it finds no cache for: on a fresh checkout, or after test files changed, the three workers all
did the same 2.5 CPU-s of parsing and rewriting at once. The controller does it once here; the
workers then read the cache as on any later run. This uses pytest's own (private) rewriting
functions, so anything unexpected (another pytest, a file that does not parse, a read-only
tree) leaves the work to the workers, as before."""

from __future__ import annotations

from pathlib import Path

import pytest


def rewrite_ahead(config: pytest.Config) -> None:
    """Rewrite the test files of this run that have no up-to-date cached rewrite."""
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _rewrite_test,
            _write_pyc,
            assertstate_key,
            get_cache_dir,
            try_makedirs,
        )
    except ImportError:
        return
    state = config.stash.get(assertstate_key, None)
    if state is None:  # (--assert=plain)
        return
    for path in _test_files(config):
        cache_dir = get_cache_dir(path)
        pyc = cache_dir / (path.name[:-3] + PYC_TAIL)
        try:
            if pyc.stat().st_mtime >= path.stat().st_mtime:
                continue  # (the workers check it is valid, as always)
        except OSError:
            pass
        try:
            if not try_makedirs(cache_dir):
                return
            source_hash, code = _rewrite_test(path, config)
            _write_pyc(state, code, source_hash, pyc)
        except Exception:  # noqa: BLE001, S112 - the worker meets it and reports it as usual
            continue


def _test_files(config: pytest.Config) -> list[Path]:
    """The test files (`test_*.py`) and conftests under this run's arguments."""
    files: list[Path] = []
    for argument in config.args:
        path = config.invocation_params.dir / argument.split("::", 1)[0]
        if path.is_dir():
            files.extend(sorted(path.rglob("test_*.py")))
            files.extend(sorted(path.rglob("conftest.py")))
        elif path.name.startswith("test_") and path.suffix == ".py":
            files.append(path)
    return files
