"""The `autodiff` entry point.

`main()` starts clean first (`jail.clean_start`: it may replace this process, so nothing else is
imported before it), then sends simple command lines of `grad`, `run`, `graph`, `repl`, `doctor`,
`autodiff` alone and `--version` straight to the command (`fast_path`), so they pay neither for
importing Typer nor for building the app; everything else, `--help` included, goes through the
Typer app in `commands`. Both run the command's one call (`command_calls`), which loads the
command through `fast_path.command_module`, which first imports numpy (`numpy_docs`; after the
BLAS thread limit): `--version`, `--help` and usage errors never load it.
"""

from __future__ import annotations

import gc
import sys

from autodiff_cli import __version__, lazy_imports
from autodiff_cli.cli.fast_path import exit_now, simple_command_line
from autodiff_cli.cli.jail.clean_start import (
    ensure_clean_start,
    isolation_available,
    limit_blas_threads,
)
from autodiff_cli.cli.numpy_docs import import_numpy_without_docstrings

GC_THRESHOLDS = (100_000, 50, 100)


def main() -> None:
    """Console-script entry point."""
    ensure_clean_start("autodiff_cli.cli.app:main")  # before anything else: see clean_start
    # A graph is many small objects that live until backward: collecting the young generation
    # every 700 allocations (the default) costs a third of a scalar op's time.
    gc.set_threshold(*GC_THRESHOLDS)
    if isolation_available():  # before numpy loads: children cannot start BLAS threads
        limit_blas_threads()
    status = try_fast(sys.argv[1:])
    if status is not None:
        exit_now(status)
    typer_app()(prog_name="autodiff")


def try_fast(argv: list[str]) -> int | None:
    """Run a simple command line without Typer (`fast_path`, `simple_commands`): its exit
    status, or None to use Typer."""
    line = simple_command_line(argv)
    if line is None:
        return None
    if line.command == "--version":
        sys.stdout.write(f"autodiff {__version__}\n")
        return 0
    import_numpy_without_docstrings()  # (before the jail's modules load it)
    return lazy_imports.load("autodiff_cli.cli.simple_commands").run_simple(line)


def typer_app():  # -> typer.Typer (unannotated: no typing import before the exec)
    """The Typer app (`commands`), built on first use: the one-liner never pays for it."""
    return lazy_imports.load("autodiff_cli.cli.commands").app


def __getattr__(name: str) -> object:
    if name == "app":  # `autodiff_cli.cli.app.app`, the Typer app, built on first use
        return typer_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
