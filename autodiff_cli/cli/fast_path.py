"""A fast path for the one-liner: `autodiff grad EXPR --at ...` without importing Typer.

Only command lines made of the plainest options are handled here, with the same meaning as in
the Typer command; anything else (help, `--`, unknown or repeated-value options, an option
missing its value) returns None and goes through Typer, which gives the usual messages.
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


def parse_simple_grad(argv: list[str]) -> tuple[str, dict[str, list[str]], set[str]] | None:
    """(EXPR, valued options, flags) when argv is `grad EXPR` plus simple options, else None."""
    if len(argv) < 2 or argv[0] != "grad":
        return None
    expression = None
    values: dict[str, list[str]] = {"at": [], "wrt": [], "dtype": []}
    flags: set[str] = set()
    rest = argv[1:]
    index = 0
    while index < len(rest):
        arg = rest[index]
        name, eq, inline = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in _FLAGS and not eq:
            flags.add(name)
        elif name in _VALUED:
            if eq:
                value = inline
            elif index + 1 < len(rest) and not rest[index + 1].startswith("-"):
                index += 1
                value = rest[index]
            else:
                return None
            values[_VALUED[name]].append(value)
        elif arg.startswith("-") or expression is not None:
            return None  # `-` (stdin), `--`, help, other options: Typer's job
        else:
            expression = arg
        index += 1
    if expression is None or len(values["dtype"]) > 1:
        return None
    if values["dtype"] and values["dtype"][0] not in _DTYPES:
        return None
    return expression, values, flags


def try_fast_grad(argv: list[str]) -> int | None:
    """Run `grad` directly when argv is simple: its exit status, or None to use Typer."""
    parsed = parse_simple_grad(argv)
    if parsed is None:
        return None
    expression, values, flags = parsed
    grad = load_grad_command()
    if "--plain" in flags:
        os.environ["NO_COLOR"] = "1"
        os.environ.pop("FORCE_COLOR", None)
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
