"""Fast paths for the one-liner, `autodiff grad EXPR --at ...`, and for `autodiff run FILE...`,
without importing Typer (~30 ms) or building its app (~20 ms).

Only command lines made of the plainest options are handled here, with the same meaning as in
the Typer command; anything else (help, `--`, `-` for stdin, unknown or repeated-value options,
an option missing its value, a value the command would refuse) returns None and goes through
Typer, which gives the usual messages.
"""

from __future__ import annotations

import os
from types import ModuleType

from autodiff_cli import engine_options, lazy_imports
from autodiff_cli.cli.jail.clean_start import isolation_available

_FLAGS = {"--json", "--check", "--explain", "--hessian", "--saved", "--plain", "--debug"}
_FLAGS |= {"--formula", "--latex", "--elementwise"}
_VALUED = {"--at": "at", "-a": "at", "--wrt": "wrt", "-w": "wrt", "--dtype": "dtype"}
_DTYPES = ("float32", "float64")


def _scan(
    args: list[str], flags: set[str], valued: dict[str, str]
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


def parse_simple_grad(argv: list[str]) -> tuple[str, dict[str, list[str]], set[str]] | None:
    """(EXPR, valued options, flags) when argv is `grad EXPR` plus simple options, else None."""
    if len(argv) < 2 or argv[0] != "grad":
        return None
    scanned = _scan(argv[1:], _FLAGS, _VALUED)
    if scanned is None:
        return None
    expressions, values, flags = scanned
    if len(expressions) != 1 or len(values["dtype"]) > 1:
        return None
    if values["dtype"] and values["dtype"][0] not in _DTYPES:
        return None
    return expressions[0], values, flags


def try_fast_grad(argv: list[str]) -> int | None:
    """Run `grad` directly when argv is simple: its exit status, or None to use Typer."""
    parsed = parse_simple_grad(argv)
    if parsed is None:
        return None
    expression, values, flags = parsed
    grad = load_grad_command()
    plain_output("--plain" in flags)
    options = grad.GradOptions(
        at=values["at"],
        wrt=values["wrt"],
        hessian="--hessian" in flags,
        check="--check" in flags,
        explain="--explain" in flags,
        dtype=values["dtype"][0] if values["dtype"] else None,
        with_saved="--saved" in flags,
        formula="--formula" in flags,
        latex="--latex" in flags,
        elementwise="--elementwise" in flags,
    )
    return grad.run_grad(expression, options, as_json="--json" in flags, debug="--debug" in flags)


def load_grad_command() -> ModuleType:
    """The `grad` command's module, its engine lean when the expression runs in a jailed child
    (the extra op families load only if the expression names them: `jail.warm_up`). The engine
    takes the choice when it is first imported, which is here for the one-liner."""
    if isolation_available():
        engine_options.request_lean_engine()
    return lazy_imports.load("autodiff_cli.cli.grad.command")


_RUN_FLAGS = {"--json", "--fail-fast", "--debug", "--plain"}
_RUN_VALUED = {
    "--jobs": "jobs", "-j": "jobs", "--timeout": "timeout", "--max-elements": "max_elements",
    "--max-memory": "max_memory", "--max-output": "max_output",
    "--max-script-size": "max_script_size",
}  # fmt: skip


def parse_simple_run(argv: list[str]) -> tuple[list[str], dict[str, str], set[str]] | None:
    """(PATHS, option texts, flags) when argv is `run PATH...` plus simple options, each given
    once, else None."""
    if len(argv) < 2 or argv[0] != "run":
        return None
    scanned = _scan(argv[1:], _RUN_FLAGS, _RUN_VALUED)
    if scanned is None:
        return None
    paths, values, flags = scanned
    if not paths or any(len(given) > 1 for given in values.values()):
        return None
    return paths, {name: given[0] for name, given in values.items() if given}, flags


def try_fast_run(argv: list[str]) -> int | None:
    """Run `run` directly when argv is simple: its exit status, or None to use Typer."""
    parsed = parse_simple_run(argv)
    if parsed is None:
        return None
    paths, values, flags = parsed
    command = lazy_imports.load("autodiff_cli.cli.run.command")
    options = command.simple_options(values, flags)
    if options is None:
        return None
    plain_output("--plain" in flags)
    return command.run_paths(paths, options)


def plain_output(plain: bool) -> None:
    """`--plain`: styling off everywhere, as NO_COLOR does (every command's, Typer's too)."""
    if plain:
        os.environ["NO_COLOR"] = "1"
        os.environ.pop("FORCE_COLOR", None)
