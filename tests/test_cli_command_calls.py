"""Both ways a command line runs, Typer's (`cli/commands.py`) and the Typer-free fast path's
(`cli/fast_path.py`, `cli/simple_commands.py`), end in the command's one call
(`cli/command_calls.py`): every spelling the fast path reads is the Typer option of the same
parameter, each call takes exactly its Typer command's parameters, and `doctor` and the
`--formula` command lines print the same through either path (the other commands' agreement:
tests/test_cli.py)."""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import pytest
from cli_runner import autodiff, fast_and_typer, takes_fast_path

COMMANDS = ["", "doctor", "grad", "graph", "repl", "run"]  # the fast path's (`COMMAND_LINES`)
DISPLAY = {"plain", "no_hints", "lang"}  # applied by `command_calls.display_settings`
TYPER_ONLY = {  # options the fast path leaves to Typer, by command
    "": {"--version", "--install-completion", "--show-completion", "--help"},
    "run": {"--isolation", "--help"},
}


def _click_command(name: str) -> Any:
    """The Click command Typer makes of `autodiff NAME` (Typer is imported here, by the one
    worker that runs these tests, not by every worker collecting them)."""
    with warnings.catch_warnings():  # (Typer's import of Click names Click deprecates)
        warnings.simplefilter("ignore", DeprecationWarning)
        import typer.main

        from autodiff_cli.cli import commands
    root = typer.main.get_command(commands.app)
    return root if not name else root.commands[name]


def _options(name: str) -> dict[str, Any]:
    """Each spelling of the command's options (`--quiet`, `-q`) -> its Click option."""
    found = {}
    for parameter in _click_command(name).params:
        if parameter.param_type_name == "option":
            for spelling in (*parameter.opts, *parameter.secondary_opts):
                found[spelling] = parameter
    return found


def test_the_fast_path_knows_these_commands():
    from autodiff_cli.cli.command_calls import CALLS
    from autodiff_cli.cli.fast_path import COMMAND_LINES

    assert sorted(COMMAND_LINES) == sorted(CALLS) == COMMANDS


@pytest.mark.parametrize("name", COMMANDS, ids=lambda n: n or "autodiff")
def test_fast_path_spellings_are_the_typer_options(name: str):
    """A spelling names the parameter Typer gives that option to, as a flag or a value (a list
    for the repeatable ones); every option but Typer's own has its fast spelling."""
    from autodiff_cli.cli.fast_path import COMMAND_LINES, REPEATABLE

    flags, valued, _, _ = COMMAND_LINES[name]
    options = _options(name)
    for spelling, parameter in (*flags.items(), *valued.items()):
        option = options[spelling]
        assert option.name == parameter, spelling
        assert option.is_flag == (spelling in flags), spelling
        assert option.multiple == (parameter in REPEATABLE), spelling
    left = set(options) - set(flags) - set(valued) - TYPER_ONLY.get(name, {"--help", "-h"})
    assert left <= {"-h"}, f"options only Typer reads: {sorted(left)}"


@pytest.mark.parametrize("name", COMMANDS[1:])
def test_each_call_takes_its_typer_commands_parameters(name: str):
    from autodiff_cli.cli import command_calls

    typer_parameters = set(inspect.signature(_click_command(name).callback).parameters)
    call_parameters = set(inspect.signature(command_calls.CALLS[name]).parameters)
    assert call_parameters == typer_parameters - DISPLAY


def test_doctor_and_formulas_take_the_fast_path_and_help_goes_through_typer():
    for fast in (["doctor"], ["doctor", "--json", "-j", "2", "--only", "fork", "--only=bpf"],
                 ["doctor", "--plain"], ["grad", "x*x", "--at", "x=1", "--formula", "--latex"],
                 ["graph", "--file", "a.py", "--var", "y", "--formula"]):  # fmt: skip
        assert takes_fast_path(fast), fast
    for typer_only in (["doctor", "--help"], ["doctor", "-h"], ["doctor", "x"],
                       ["doctor", "-j", "0"], ["doctor", "--only"], ["doctor", "--lang", "zh"],
                       ["--plain", "doctor"], ["grad", "--help"], ["run", "-h"],
                       ["graph", "--help"], ["repl", "--help"], ["--help"]):  # fmt: skip
        assert not takes_fast_path(typer_only), typer_only


AGREEING = [
    ["doctor", "--only", "open_passwd", "--plain"],  # the battery, one attack
    ["doctor", "--json", "-j", "2", "--only", "nosuch", "--only=open_passwd"],  # status 2
    ["grad", "x**2*sin(x)", "--at", "x=3", "--formula", "--latex", "--plain"],
]


@pytest.mark.parametrize("args", AGREEING, ids=" ".join)
def test_fast_path_and_typer_agree(args: list[str]):
    fast, slow = fast_and_typer(*args)
    assert "Traceback" not in fast.stderr + slow.stderr
    assert (fast.returncode, fast.stdout, fast.stderr) == (
        slow.returncode,
        slow.stdout,
        slow.stderr,
    )
    assert fast.stdout or fast.returncode == 2  # (it said something)


def test_a_refused_value_goes_to_typer_which_says_why():
    done = autodiff("doctor", "--jobs", "0")
    assert done.returncode == 2
    assert "autodiff doctor: error: Invalid value for '--jobs' / '-j'" in done.stderr
