"""Fast paths: simple command lines of `grad` (the one-liner), `run`, `graph`, `repl`, `doctor`,
of `autodiff` alone (the REPL) and `autodiff --version` start their command without importing
Typer and Click (~30 ms), building the app (~20 ms), or loading what only the app's option
checks need (the whole engine, where the one-liner's is lean).

Only command lines made of the commands' own options are handled here (`--name value`,
`--name=value`, flags), with the same meaning as in the Typer command (`commands`: both run
the command's one call in `command_calls`, which takes the options by the parameter names the
tables below map each spelling to); anything else (help, `--`, `-` for stdin, unknown,
combined or repeated-value options, an option missing its value, options before a command
name) returns None and goes through Typer, which gives the usual messages. Values are
converted and checked in `simple_commands`, as Typer's options do; one Typer would refuse also
goes to Typer, so that it says why. tests/test_cli.py and test_cli_command_calls.py run both
paths on the same command lines and compare what they print and their exit status.

Imported before the clean start (`cli/app.py`): it imports nothing but the start-up's own
modules.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType

from autodiff_cli import engine_options, lazy_imports
from autodiff_cli.cli.jail.clean_start import COMPLETION, isolation_available
from autodiff_cli.cli.numpy_docs import import_numpy_without_docstrings

DTYPES = ("float32", "float64")  # grad's --dtype (Typer's choices are made from these too)
GRAPH_FORMATS = ("tree", "dot", "mermaid", "svg", "png", "html")  # graph's --format

# each option's spellings -> the parameter of the command's Typer function and of its call
# (`command_calls`): flags, then options taking a value
_LEARNER = {"--plain": "plain", "--no-hints": "no_hints"}  # every command's (and `autodiff`'s)
_LANG = {"--lang": "lang"}
_LIMITS = {"--timeout": "timeout", "--max-memory": "max_memory", "--max-output": "max_output"}
_AT = {"--at": "at", "-a": "at"}
_JSON = {"--json": "as_json"}
_DEBUG = {"--debug": "debug"}
_GRAD_FLAGS = {"--check": "check", "--explain": "explain", "--hessian": "hessian",
               "--saved": "saved", "--formula": "formula", "--latex": "latex",
               "--elementwise": "elementwise", "--quiet": "quiet", "-q": "quiet",
               } | _JSON | _DEBUG | _LEARNER  # fmt: skip
_GRAD_VALUED = {"--wrt": "wrt", "-w": "wrt", "--dtype": "dtype", "--vjp": "vjp", "--html": "html",
                "--order": "order", "-n": "order"} | _AT | _LIMITS | _LANG  # fmt: skip
_RUN_FLAGS = {"--fail-fast": "fail_fast"} | _JSON | _DEBUG | _LEARNER
_RUN_VALUED = {"--jobs": "jobs", "-j": "jobs", "--max-elements": "max_elements",
               "--max-script-size": "max_script_size"} | _LIMITS | _LANG  # fmt: skip
_GRAPH_FLAGS = {"--saved": "saved", "--backward": "backward", "--formula": "formula"}
_GRAPH_FLAGS |= _DEBUG | _LEARNER
_GRAPH_VALUED = {"--file": "file", "--var": "var", "--format": "fmt", "-f": "fmt",
                 "--output": "output", "-o": "output"} | _AT | _LIMITS | _LANG  # fmt: skip
_REPL_VALUED = {"--max-memory": "max_memory", "--max-output": "max_output"} | _LANG
_DOCTOR_FLAGS = _JSON | {"--plain": "plain"}
_DOCTOR_VALUED = {"--jobs": "jobs", "-j": "jobs", "--only": "only"}

# command -> (its flags, its valued options, fewest and most positional arguments); "" is
# `autodiff` with no command (the REPL, with the root's options)
COMMAND_LINES: dict[str, tuple[dict[str, str], dict[str, str], int, int]] = {
    "grad": (_GRAD_FLAGS, _GRAD_VALUED, 1, 1),
    "run": (_RUN_FLAGS, _RUN_VALUED, 1, sys.maxsize),
    "graph": (_GRAPH_FLAGS, _GRAPH_VALUED, 0, 1),
    "repl": (_DEBUG | _LEARNER, _REPL_VALUED, 0, 0),
    "": (_LEARNER, _LANG, 0, 0),
    "doctor": (_DOCTOR_FLAGS, _DOCTOR_VALUED, 0, 0),
}
REPEATABLE = ("at", "wrt", "only")  # the options Typer takes several times (a list)

# each command's package, loaded when the command runs (`grad`'s through `load_grad_command`,
# which asks for a lean engine first)
_COMMANDS = {
    "grad": "autodiff_cli.cli.grad.command",
    "run": "autodiff_cli.cli.run.command",
    "graph": "autodiff_cli.cli.draw.command",
    "repl": "autodiff_cli.cli.repl.main",
    "kernel": "autodiff_cli.cli.notebook.kernelspec",
    "doctor": "autodiff_cli.cli.jail.doctor",
}


class SimpleCommandLine:
    """A command line the fast path runs: the command (`""`: none, the REPL), its positional
    arguments, each valued option's texts (a list, empty when not given), the flags given, and
    each flag of the command as its parameter (`switches`: `{"as_json": True, ...}`)."""

    __slots__ = ("command", "positional", "values", "flags", "switches")

    def __init__(
        self,
        command: str,
        positional: list[str],
        values: dict[str, list[str]],
        flags: set[str],
        switches: dict[str, bool] | None = None,
    ) -> None:
        self.command = command
        self.positional = positional
        self.values = values
        self.flags = flags
        self.switches = switches or {}


def _scan(
    args: list[str], flags: dict[str, str], valued: dict[str, str]
) -> tuple[list[str], dict[str, list[str]], set[str]] | None:
    """(positional arguments, each valued option's values, flags given) of a command line made
    of the options named here only (`--name=value` or `--name value`), else None."""
    positional: list[str] = []
    values: dict[str, list[str]] = {key: [] for key in valued.values()}
    given: set[str] = set()
    index = 0
    while index < len(args):
        arg = args[index]
        name, eq, inline = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in flags and not eq:
            given.add(name)
        elif name in valued:
            if eq:
                value = inline
            elif index + 1 < len(args) and not args[index + 1].startswith("-"):
                index += 1
                value = args[index]
            else:
                return None
            values[valued[name]].append(value)
        elif arg.startswith("-"):
            return None  # `-` (stdin), `--`, help, other options: Typer's job
        else:
            positional.append(arg)
        index += 1
    return positional, values, given


def parse_simple(argv: list[str]) -> SimpleCommandLine | None:
    """The command line when it is simple (see the module's docstring), else None."""
    command = argv[0] if argv and not argv[0].startswith("-") else ""
    if command not in COMMAND_LINES:
        return None
    flags, valued, fewest, most = COMMAND_LINES[command]
    scanned = _scan(argv[1:] if command else argv, flags, valued)
    if scanned is None:
        return None
    positional, values, given = scanned
    if not fewest <= len(positional) <= most:
        return None  # (options before a command name land here too)
    if any(len(texts) > 1 for key, texts in values.items() if key not in REPEATABLE):
        return None
    switches = {parameter: False for parameter in flags.values()}
    switches.update((flags[flag], True) for flag in given)
    return SimpleCommandLine(command, positional, values, given, switches)


def simple_command_line(argv: list[str]) -> SimpleCommandLine | None:
    """The command line when the fast path runs it (`--version`: a command of its own), else
    None (Typer's). For `grad`, the engine's lean choice is made here, before anything loads it."""
    if COMPLETION in os.environ:  # a shell asks Typer for completions
        return None
    if argv == ["--version"]:
        return SimpleCommandLine("--version", [], {}, set())
    line = parse_simple(argv)
    if line is not None and line.command == "grad":
        load_grad_command()
    return line


def command_module(name: str) -> ModuleType:
    """The module of the command `name` (`_COMMANDS`), imported on first use, after numpy
    (without its docstrings: `numpy_docs`)."""
    import_numpy_without_docstrings()
    return lazy_imports.load(_COMMANDS[name])


def load_grad_command() -> ModuleType:
    """The `grad` command's module, its engine lean when the expression runs in a jailed child
    (the extra op families load only if the expression names them: `jail.warm_up`). The engine
    takes the choice when it is first imported, which is here for the one-liner."""
    if isolation_available():
        engine_options.request_lean_engine()
    return command_module("grad")


def plain_output(plain: bool) -> None:
    """`--plain`: styling off everywhere, as NO_COLOR does (every command's, Typer's too)."""
    if plain:
        os.environ["NO_COLOR"] = "1"
        os.environ.pop("FORCE_COLOR", None)


def exit_now(status: int) -> None:
    """End the process at once, its output flushed. The interpreter's own shutdown frees every
    module and object one by one: ~40-60 ms, a third of a one-liner's time, for a process with
    nothing left to clean up (its child waited for, no file open for writing, no atexit work).
    Both paths end so: the fast one (`app.main`) and Typer's (`commands`)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            pass
    os._exit(status)
