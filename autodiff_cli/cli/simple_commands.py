"""The commands a simple command line runs without Typer (`fast_path`): the option texts
converted and checked as Typer's options do (`commands`: the same conversions, bounds and
choices), the learner's settings applied, the command called as its Typer command calls it, and
its end turned into an exit status as Typer turns it. A value Typer would refuse makes
`run_simple` return None, so that Typer runs and says why.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable
from typing import Any

from autodiff_cli import i18n
from autodiff_cli.cli.fast_path import (
    DTYPES,
    GRAPH_FORMATS,
    REPEATABLE,
    SimpleCommandLine,
    command_module,
    plain_output,
)
from autodiff_cli.cli.jail.isolation import Limits, parse_size
from autodiff_cli.cli.jail.limits import MAX_TIMEOUT, timeout_accepted
from autodiff_cli.cli.output import hints


def timeout_refusal(seconds: float) -> str | None:
    """Why `--timeout SECONDS` is refused, in Typer's usage error; None when it is accepted."""
    if timeout_accepted(seconds):
        return None
    return f"must be more than 0 and at most {MAX_TIMEOUT:g} seconds"


def _timeout(text: str) -> float:
    seconds = float(text)  # Click's FLOAT: float() of the text
    if timeout_refusal(seconds) is not None:
        raise ValueError(text)
    return seconds


def _at_least_one(text: str) -> int:
    number = int(text)  # Click's INT: int() of the text; `min=1` as IntRange checks it
    if number < 1:
        raise ValueError(text)
    return number


def _one_of(choices: Any) -> Callable[[str], str]:
    def chosen(text: str) -> str:
        if text not in choices:
            raise ValueError(text)
        return text

    return chosen


_CONVERSIONS: dict[str, Callable[[str], Any]] = {
    "timeout": _timeout,
    "max_memory": parse_size,
    "max_output": parse_size,
    "max_script_size": parse_size,
    "jobs": _at_least_one,
    "max_elements": _at_least_one,
    "order": int,
    "dtype": _one_of(DTYPES),
    "format": _one_of(GRAPH_FORMATS),
    "lang": _one_of(i18n.LANGUAGES),
}


def converted(values: dict[str, list[str]]) -> dict[str, Any] | None:
    """Each option's value as Typer hands it to the command (a list for the repeatable ones,
    None when not given), or None when Typer would refuse one."""
    found: dict[str, Any] = {}
    try:
        for key, texts in values.items():
            if key in REPEATABLE:
                found[key] = texts
            else:
                found[key] = _CONVERSIONS.get(key, str)(texts[0]) if texts else None
    except ValueError:
        return None
    return found


def run_simple(line: SimpleCommandLine) -> int | None:
    """Run `line`'s command: its exit status, or None when Typer must (a refused value)."""
    values = converted(line.values)
    if values is None:
        return None
    plain_output("--plain" in line.flags)
    hints.set_enabled("--no-hints" not in line.flags)  # (`commands.learner_settings`)
    if values["lang"] is not None:
        i18n.set_language(values["lang"])
    run = _RUNNERS[line.command]
    try:
        return run(line, values)
    except EOFError:  # as Typer ends: an empty line on stderr, status 1 (Click's Abort)
        sys.stderr.write("\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except OSError as error:
        if error.errno != errno.EPIPE:
            raise
        return 1  # a closed pipe: nothing more can be said


def _grad(line: SimpleCommandLine, values: dict[str, Any]) -> int:
    flags = line.flags
    command = command_module("grad")
    options = command.GradOptions(
        at=values["at"],
        wrt=values["wrt"],
        vjp=values["vjp"],
        order=1 if values["order"] is None else values["order"],
        hessian="--hessian" in flags,
        check="--check" in flags,
        explain="--explain" in flags,
        dtype=values["dtype"],
        with_saved="--saved" in flags,
        formula="--formula" in flags,
        latex="--latex" in flags,
        quiet=bool(flags & {"--quiet", "-q"}),
        elementwise="--elementwise" in flags,
    )
    return command.run_grad(
        line.positional[0],
        options,
        as_json="--json" in flags,
        debug="--debug" in flags,
        timeout=values["timeout"],
        max_memory=values["max_memory"],
        max_output=values["max_output"],
        html=values["html"],
    )


def _run(line: SimpleCommandLine, values: dict[str, Any]) -> int:
    command = command_module("run")
    options = command.RunOptions(
        jobs=values["jobs"] or 1,
        fail_fast="--fail-fast" in line.flags,
        timeout=values["timeout"],
        max_elements=values["max_elements"],
        as_json="--json" in line.flags,
        debug="--debug" in line.flags,
        max_memory=values["max_memory"],
        max_output=values["max_output"],
        max_script_size=values["max_script_size"] or command.DEFAULT_MAX_SCRIPT_SIZE,
    )
    return command.run_paths(line.positional, options)


def _graph(line: SimpleCommandLine, values: dict[str, Any]) -> int:
    command = command_module("graph")
    request = command.GraphRequest(
        expression=line.positional[0] if line.positional else None,
        at=values["at"],
        file=values["file"],
        var=values["var"],
        fmt=values["format"] or command.format_for_output(values["output"]),
        output=values["output"],
        with_saved="--saved" in line.flags,
        backward="--backward" in line.flags,
        formula="--formula" in line.flags,
        timeout=values["timeout"],
        max_memory=values["max_memory"],
        max_output=values["max_output"],
    )
    return command.run_graph(request, debug="--debug" in line.flags)


def _repl(line: SimpleCommandLine, values: dict[str, Any]) -> int:
    repl = command_module("repl")
    if not line.command:  # `autodiff` alone: the root's call
        return repl.run_repl()
    limits = Limits.of(values["max_memory"], values["max_output"], None)
    return repl.run_repl(debug="--debug" in line.flags, limits=limits)


_RUNNERS: dict[str, Callable[[SimpleCommandLine, dict[str, Any]], int]] = {
    "grad": _grad,
    "run": _run,
    "graph": _graph,
    "repl": _repl,
    "": _repl,
}
