"""Each command's one call, shared by both ways a command line runs: the Typer commands
(`commands`) and the Typer-free fast path (`simple_commands`). A call takes the command's
options by their Typer parameter names, their values already converted and checked (None: not
given), applies the display options (`--plain`, `--no-hints`, `--lang`) in one place, loads the
command's package, builds its options (`GradOptions`, `RunOptions`, `GraphRequest`...) and runs
it, returning the exit status. A new option is added to the command's Typer signature, to
`fast_path`'s spelling table, and to the command's call here; both paths then take it alike.

Imported by `commands` at start, and by `simple_commands`: it imports nothing that `fast_path`
does not (the commands' packages load when their call runs), so that `--help` and usage errors
pay for none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autodiff_cli import i18n
from autodiff_cli.cli.fast_path import command_module, load_grad_command, plain_output
from autodiff_cli.cli.output import hints

DOCTOR_JOBS = 3  # `doctor --jobs`'s default (Typer shows it in the help)
RUN_JOBS = 1  # `run --jobs`'s default
GRAD_ORDER = 1  # `grad --order`'s default


class UnknownLanguage(ValueError):
    """`--lang` names no language we speak (Typer reports it as the option's usage error; the
    fast path leaves such a command line to Typer)."""


def display_settings(options: dict[str, Any]) -> None:
    """Take the display options out of `options` and apply those the command has: `--plain`
    (styling off, as NO_COLOR), `--no-hints`, `--lang`. Set before any child is forked:
    children inherit them. A command without one of them leaves its setting as it was (the root's
    `autodiff --no-hints doctor`)."""
    if options.pop("plain", False):
        plain_output(True)
    if "no_hints" in options:
        hints.set_enabled(not options.pop("no_hints"))
    lang = options.pop("lang", None)
    if lang is not None:
        try:
            i18n.set_language(lang)
        except ValueError as error:
            raise UnknownLanguage(str(error)) from None


def run_command(name: str, options: dict[str, Any]) -> int:
    """Run the command `name` (`""`, `autodiff` alone: the REPL) with `options` (Typer's
    parameter names); its exit status."""
    options = dict(options)
    display_settings(options)
    return CALLS[name](**options)


def grad(
    expr: str,
    *,
    at: list[str],
    wrt: list[str],
    vjp: str | None,
    order: int | None,
    hessian: bool,
    elementwise: bool,
    check: bool,
    explain: bool,
    saved: bool,
    formula: bool,
    latex: bool,
    dtype: str | None,
    as_json: bool,
    html: str | None,
    quiet: bool,
    timeout: float | None,
    max_memory: int | None,
    max_output: int | None,
    debug: bool,
) -> int:
    """`autodiff grad EXPR ...`."""
    command = load_grad_command()
    options = command.GradOptions(
        at=at,
        wrt=wrt,
        vjp=vjp,
        order=GRAD_ORDER if order is None else order,
        hessian=hessian,
        check=check,
        explain=explain,
        dtype=dtype,
        with_saved=saved,
        formula=formula,
        latex=latex,
        quiet=quiet,
        elementwise=elementwise,
    )
    return command.run_grad(
        expr,
        options,
        as_json=as_json,
        debug=debug,
        timeout=timeout,
        max_memory=max_memory,
        max_output=max_output,
        html=html,
    )


def run(
    files: list[str],
    *,
    jobs: int | None,
    fail_fast: bool,
    timeout: float | None,
    max_elements: int | None,
    as_json: bool,
    max_memory: int | None,
    max_output: int | None,
    max_script_size: int | None,
    debug: bool,
    isolation: str = "best",
) -> int:
    """`autodiff run PATH...` (`--isolation` is Typer's alone: the fast path runs `best`)."""
    command = command_module("run")
    options = command.RunOptions(
        jobs=jobs or RUN_JOBS,
        fail_fast=fail_fast,
        timeout=timeout,
        max_elements=max_elements,
        as_json=as_json,
        debug=debug,
        max_memory=max_memory,
        max_output=max_output,
        max_script_size=max_script_size or command.DEFAULT_MAX_SCRIPT_SIZE,
        strict_isolation=isolation == "strict",
    )
    return command.run_paths(files, options)


def graph(
    expr: str | None,
    *,
    at: list[str],
    file: str | None,
    var: str | None,
    fmt: str | None,
    output: str | None,
    saved: bool,
    backward: bool,
    formula: bool,
    timeout: float | None,
    max_memory: int | None,
    max_output: int | None,
    debug: bool,
) -> int:
    """`autodiff graph [EXPR] ...`: the format from `--format`, else from `-o FILE`'s extension."""
    command = command_module("graph")
    request = command.GraphRequest(
        expression=expr,
        at=at,
        file=file,
        var=var,
        fmt=fmt or command.format_for_output(output),
        output=output,
        with_saved=saved,
        backward=backward,
        formula=formula,
        timeout=timeout,
        max_memory=max_memory,
        max_output=max_output,
    )
    return command.run_graph(request, debug=debug)


def repl(
    *, max_memory: int | None = None, max_output: int | None = None, debug: bool = False
) -> int:
    """`autodiff repl`, and `autodiff` alone (no options of its own: the defaults)."""
    return command_module("repl").run_repl(
        debug=debug, max_memory=max_memory, max_output=max_output
    )


def doctor(*, as_json: bool, jobs: int | None, only: list[str]) -> int:
    """`autodiff doctor`: the jail's protections and its attack battery."""
    return command_module("doctor").run_doctor(as_json=as_json, jobs=jobs or DOCTOR_JOBS, only=only)


CALLS: dict[str, Callable[..., int]] = {
    "grad": grad,
    "run": run,
    "graph": graph,
    "repl": repl,
    "": repl,
    "doctor": doctor,
}
