"""The commands a simple command line runs without Typer (`fast_path`): the option texts
converted and checked as Typer's options do (`commands`: the same conversions, bounds and
choices), then the command's one call (`command_calls`, which the Typer command calls too) run
with them, and its end turned into an exit status as Typer turns it. A value Typer would refuse
makes `run_simple` return None, so that Typer runs and says why.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable
from typing import Any

from autodiff_cli import i18n
from autodiff_cli.cli.command_calls import run_command
from autodiff_cli.cli.fast_path import DTYPES, GRAPH_FORMATS, REPEATABLE, SimpleCommandLine
from autodiff_cli.cli.jail.isolation import parse_size
from autodiff_cli.cli.jail.limits import MAX_TIMEOUT, timeout_accepted


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
    "fmt": _one_of(GRAPH_FORMATS),
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
    """Run `line`'s command through its call (`command_calls`, Typer's too): its exit status,
    or None when Typer must (a refused value)."""
    values = converted(line.values)
    if values is None:
        return None
    try:
        return run_command(line.command, {**_arguments(line), **values, **line.switches})
    except EOFError:  # as Typer ends: an empty line on stderr, status 1 (Click's Abort)
        sys.stderr.write("\n")
        return 1
    except KeyboardInterrupt:
        return 130
    except OSError as error:
        if error.errno != errno.EPIPE:
            raise
        return 1  # a closed pipe: nothing more can be said


def _arguments(line: SimpleCommandLine) -> dict[str, Any]:
    """The positional arguments as the command's Typer function takes them."""
    if line.command == "run":
        return {"files": line.positional}
    if line.command in ("grad", "graph"):
        return {"expr": line.positional[0] if line.positional else None}
    return {}
