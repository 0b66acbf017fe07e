"""Typer wiring of the `autodiff` command; each command's work lives in its own module.

Typer is imported here. Each command's function declares its options (names, help, defaults)
and hands them, as given, to the command's one call (`command_calls`, which the fast path runs
too): that call applies the display options and builds the command's options, and its package
is loaded when it runs (`fast_path.command_module`). The option checks that need the jail's
modules load when such an option is given (`simple_commands`, shared with the fast path), so
that no command pays for another's imports and `--help` and usage errors for none.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from enum import Enum
from types import ModuleType
from typing import Annotated, Any, NoReturn, Optional

import click
import typer
from typer.core import TyperGroup

from autodiff_cli import __version__, lazy_imports
from autodiff_cli.cli import command_calls, help_language
from autodiff_cli.cli.fast_path import DTYPES, GRAPH_FORMATS, command_module, exit_now
from autodiff_cli.cli.numpy_docs import import_numpy_without_docstrings
from autodiff_cli.cli.output.diagnostics import json_error
from autodiff_cli.cli.output.terminal import print_error
from autodiff_cli.i18n import gettext as _

_N = str  # marks a help text for the catalogue: `help_language` translates it as help shows


class _JsonUsageErrors(TyperGroup):
    """One style for every usage error, the commands' own and the option parser's:
    `autodiff grad: error: MESSAGE` and `Try 'autodiff grad -h' for help.` on stderr (no
    Rich box); with `--json` on the command line, the `--json` error object on stdout
    (`{"error": {"type": "UsageError", ...}}`). Exit status 2 either way. Every end of the
    app is `exit_now`: no interpreter shutdown (as the fast path ends)."""

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        arguments = sys.argv[1:] if args is None else list(args)
        help_language.prepare(self, arguments)  # --help in the language of --lang or LANG
        extra["standalone_mode"] = False
        try:
            status = super().main(arguments, *rest, **extra)
        except click.ClickException as error:
            if "--json" in arguments:
                json_error("UsageError", error.format_message())
            else:
                print_error(usage_error_text(error))
            exit_now(error.exit_code)
        except click.Abort:
            exit_now(1)
        exit_now(status if isinstance(status, int) else 0)


def usage_error_text(error: click.ClickException) -> str:
    """`autodiff grad: error: No such option: --bogus` and how to get the command's help."""
    context = getattr(error, "ctx", None)
    command = context.command_path if context is not None else "autodiff"
    text = f"{command}: error: {error.format_message()}"
    if context is not None:
        text += "\n" + _("Try '{command} -h' for help.").format(command=command)
    return text


app = typer.Typer(
    name="autodiff",
    cls=_JsonUsageErrors,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Differentiate expressions and run scripts on a PyTorch-faithful autograd engine.",
)


DType = Enum("DType", {name: name for name in DTYPES}, type=str)


class Isolation(str, Enum):
    strict = "strict"
    best = "best"


GraphFormat = Enum("GraphFormat", {name: name for name in GRAPH_FORMATS}, type=str)


HtmlOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--html",
        metavar="FILE",
        help="Also write the graph as a page for a browser, its backward pass step by step.",
    ),
]
DebugOption = Annotated[
    bool, typer.Option("--debug", help="Show the Python traceback behind an error.")
]
PlainOption = Annotated[
    bool, typer.Option("--plain", help="No colours or styling (as NO_COLOR=1 does).")
]
FormulaOption = Annotated[
    bool,
    typer.Option(
        "--formula",
        help="Also the derivatives as formulas read from the graph (SymPy), each checked "
        "against the gradient at the point.",
    ),
]
LatexOption = Annotated[
    bool, typer.Option("--latex", help="With --formula: show the formulas in LaTeX too.")
]
NoHintsOption = Annotated[
    bool,
    typer.Option("--no-hints", help="No teaching hint after an error (PyTorch's message only)."),
]
LangOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--lang",
        metavar="LANG",
        help="Language of the tool's own words: en or zh (default: from LANG/LC_ALL/LANGUAGE).",
    ),
]


def _checks() -> ModuleType:
    """`simple_commands`, whose conversions and checks of option values both paths share. It
    loads the jail's modules (and the engine): only when an option that needs them is given,
    so that `--help` and usage errors never pay for them, and `grad`'s engine stays lean."""
    import_numpy_without_docstrings()
    return lazy_imports.load("autodiff_cli.cli.simple_commands")


def _check_timeout(value: Optional[float]) -> Optional[float]:  # noqa: UP045
    """--timeout must be a finite number of seconds above 0 (`nan`, `inf`, `0` are refused)."""
    refusal = None if value is None else _checks().timeout_refusal(value)
    if refusal is not None:
        raise typer.BadParameter(refusal)
    return value


def _check_size(value: Optional[str]) -> Optional[int]:  # noqa: UP045
    """A size option: `512M`, `2G`, `64MB` or bytes."""
    if value is None:
        return None

    try:
        return _checks().parse_size(value)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None


TimeoutOption = Annotated[
    Optional[float],  # noqa: UP045 - Typer reads the annotation at run time on Python 3.10
    typer.Option(
        "--timeout",
        metavar="SECONDS",
        callback=_check_timeout,
        help="Stop after SECONDS (exit status 1).",
    ),
]
MaxMemoryOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--max-memory",
        metavar="SIZE",
        callback=_check_size,
        help="Memory the untrusted code may use, e.g. 512M or 4G (default 2G).",
    ),
]
MaxOutputOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--max-output",
        metavar="SIZE",
        callback=_check_size,
        help="Output a script may print, e.g. 1M (default 64M); past it the script is stopped.",
    ),
]
AtOption = Annotated[
    list[str],
    typer.Option(
        "--at",
        "-a",
        metavar="NAME=VALUE",
        help="A variable: a number, a \\[list] or an expression such as ones(3). Repeat it or "
        "give a comma list: --at x=2,w=3.",
    ),
]


def _run(command: str, options: dict[str, Any]) -> NoReturn:
    """Run `command`'s one call (`command_calls`, the fast path's too) with the options its
    Typer function was given (its `locals()`), a choice (an Enum) as its text."""
    given = {name: value.value if isinstance(value, Enum) else value
             for name, value in options.items()}  # fmt: skip
    raise typer.Exit(_with_usage_errors(command_calls.run_command, command, given))


def _with_usage_errors(call: Any, *args: Any) -> Any:
    """`call(*args)`, an unknown `--lang` turned into the option's usage error."""
    try:
        return call(*args)
    except command_calls.UnknownLanguage as error:
        raise typer.BadParameter(str(error), param_hint="'--lang'") from None


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"autodiff {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    plain: PlainOption = False,
    no_hints: NoHintsOption = False,
    lang: LangOption = None,
) -> None:
    """Differentiate expressions and run scripts on a PyTorch-faithful autograd engine.

    With no command, start the REPL.
    """
    options = {"plain": plain, "no_hints": no_hints, "lang": lang}
    if ctx.invoked_subcommand is None:
        _run("", options)  # the REPL
    _with_usage_errors(command_calls.display_settings, options)  # then the command's own


RUN_EXAMPLES = _N(
    "Examples:\n\n"
    "  autodiff run train.py\n\n"
    "  autodiff run lessons/ -j 4   (every *.py and *.ad of the folder)\n\n"
    "  autodiff run a.py b.py --json --timeout 10\n\n"
    "  echo 'print(2**10)' | autodiff run -"
)
GRAD_EXAMPLES = _N(
    "Examples:\n\n"
    '  autodiff grad "x**2 + 3*x" --at x=2\n\n'
    '  autodiff grad "3x² + 2x" --at x=2   (math as typed: 2x, x², √x, |x|, e^x, ln, π)\n\n'
    '  autodiff grad "sin(x)" --at x=\\[0,1,2] --elementwise\n\n'
    '  autodiff grad "(w*x).sum()" --at "x=\\[1,2;3,4],w=2" --explain\n\n'
    '  autodiff grad "x*y + y**2" --at x=1,y=2 --hessian'
)
GRAPH_EXAMPLES = _N(
    "Examples:\n\n"
    '  autodiff graph "(x*w).sum()" --at x=\\[1,2],w=3\n\n'
    '  autodiff graph "tanh(x)" --at x=1 -o g.svg   (format from the extension)\n\n'
    "  autodiff graph --file model.py --var loss --backward"
)


@app.command(epilog=RUN_EXAMPLES)
def run(
    files: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH...",
            help="Scripts, or directories whose *.py and *.ad files run in sorted order; "
            "'-' reads stdin.",
        ),
    ],
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="Run up to N scripts at once.")
    ] = command_calls.RUN_JOBS,
    fail_fast: Annotated[
        bool, typer.Option("--fail-fast", help="Stop at the first script that fails.")
    ] = False,
    timeout: TimeoutOption = None,
    max_elements: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(
            "--max-elements", metavar="N", min=1, help="Largest tensor a script may make."
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="One JSON line per script: path, ok, stdout, error, seconds."),
    ] = False,
    max_memory: MaxMemoryOption = None,
    max_output: MaxOutputOption = None,
    max_script_size: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--max-script-size",
            metavar="SIZE",
            callback=_check_size,
            help="Largest script file accepted (default 1M).",
        ),
    ] = None,
    isolation: Annotated[
        Isolation,
        typer.Option(
            "--isolation",
            help="strict: refuse to run where the full jail (namespaces, empty root, seccomp...) "
            "is not available; best: every protection this machine gives.",
        ),
    ] = Isolation.best,
    plain: PlainOption = False,
    no_hints: NoHintsOption = False,
    lang: LangOption = None,
    debug: DebugOption = False,
) -> None:
    """Run scripts, each in a fresh namespace and its own locked-down process; stdout is what
    they print, errors go to stderr."""
    _run("run", locals())


WrtOption = Annotated[
    list[str],
    typer.Option("--wrt", "-w", metavar="NAME", help="Differentiate only these --at variables."),
]
CheckOption = Annotated[
    bool, typer.Option("--check", help="Compare with central finite differences in float64.")
]
ExplainOption = Annotated[
    bool, typer.Option("--explain", help="Walk through the backward pass step by step.")
]
QuietOption = Annotated[
    bool, typer.Option("--quiet", "-q", help="Only the derivatives: no value, no graph.")
]
ElementwiseOption = Annotated[
    bool,
    typer.Option(
        "--elementwise",
        help="For an elementwise function of a vector: a table of x and f'(x) per element.",
    ),
]


@app.command(epilog=GRAD_EXAMPLES)
def grad(
    expr: Annotated[
        str,
        typer.Argument(
            help="An expression, or ';'-separated statements ending with the expression; "
            "'-' reads it from stdin."
        ),
    ],
    at: AtOption = [],  # noqa: B006 - Typer reads the default, never mutates it
    wrt: WrtOption = [],  # noqa: B006
    vjp: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--vjp", metavar="VALUE", help="The vector-Jacobian product v·J."),
    ] = None,
    order: Annotated[
        int, typer.Option("--order", "-n", metavar="N", help="The N-th derivative.")
    ] = command_calls.GRAD_ORDER,
    hessian: Annotated[bool, typer.Option("--hessian", help="The Hessian matrix.")] = False,
    elementwise: ElementwiseOption = False,
    check: CheckOption = False,
    explain: ExplainOption = False,
    saved: Annotated[
        bool, typer.Option("--saved", help="Show the tensors each node saved for backward.")
    ] = False,
    formula: FormulaOption = False,
    latex: LatexOption = False,
    dtype: Annotated[
        Optional[DType],  # noqa: UP045
        typer.Option("--dtype", help="Floating dtype of the --at values (default float32)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    html: HtmlOption = None,
    quiet: QuietOption = False,
    timeout: TimeoutOption = None,
    max_memory: MaxMemoryOption = None,
    max_output: MaxOutputOption = None,
    plain: PlainOption = False,
    no_hints: NoHintsOption = False,
    lang: LangOption = None,
    debug: DebugOption = False,
) -> None:
    """Differentiate EXPR at the point given by --at: value, grad_fn graph and derivatives.

    A scalar result gives gradients; a non-scalar one its Jacobian.
    """
    _run("grad", locals())


@app.command(epilog=GRAPH_EXAMPLES)
def graph(
    expr: Annotated[
        Optional[str],  # noqa: UP045
        typer.Argument(help="An expression (with --at), or nothing with --file."),
    ] = None,
    at: AtOption = [],  # noqa: B006
    file: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--file", metavar="SCRIPT", help="Run SCRIPT and draw the graph of --var."),
    ] = None,
    var: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--var", metavar="NAME", help="The tensor of SCRIPT to draw."),
    ] = None,
    fmt: Annotated[
        Optional[GraphFormat],  # noqa: UP045
        typer.Option(
            "--format", "-f", help="Output format (default: from -o FILE's extension, else tree)."
        ),
    ] = None,
    output: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--output", "-o", metavar="FILE", help="Write to FILE instead of stdout."),
    ] = None,
    saved: Annotated[
        bool, typer.Option("--saved", help="Show the values each node saved for backward.")
    ] = False,
    backward: Annotated[
        bool,
        typer.Option("--backward", help="Call backward first, so nodes show their gradients."),
    ] = False,
    formula: Annotated[
        bool,
        typer.Option(
            "--formula",
            help="After the graph, the derivatives of the tensor as formulas read from it, "
            "checked against autograd.",
        ),
    ] = False,
    timeout: TimeoutOption = None,
    max_memory: MaxMemoryOption = None,
    max_output: MaxOutputOption = None,
    plain: PlainOption = False,
    no_hints: NoHintsOption = False,
    lang: LangOption = None,
    debug: DebugOption = False,
) -> None:
    """Draw the grad_fn graph of an expression or of a script's variable."""
    _run("graph", locals())


@app.command()
def repl(
    max_memory: MaxMemoryOption = None,
    max_output: MaxOutputOption = None,
    plain: PlainOption = False,
    no_hints: NoHintsOption = False,
    lang: LangOption = None,
    debug: DebugOption = False,
) -> None:
    """Start the REPL (also what `autodiff` alone does)."""
    _run("repl", locals())


kernel_app = typer.Typer(help="The Jupyter kernel (needs the jupyter extra).")
app.add_typer(kernel_app, name="kernel")


@kernel_app.command("install")
def kernel_install(
    user: Annotated[
        bool, typer.Option("--user", help="Into your own Jupyter data directory.")
    ] = False,
    sys_prefix: Annotated[
        bool, typer.Option("--sys-prefix", help="Into this Python environment (sys.prefix).")
    ] = False,
    prefix: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--prefix", metavar="PATH", help="Into PATH/share/jupyter."),
    ] = None,
) -> None:
    """Register the kernel "autodiff (PyTorch autograd on numpy)" with Jupyter (by default
    for every user of this machine)."""
    if sum((user, sys_prefix, prefix is not None)) > 1:
        print_error("autodiff kernel install: error: give one of --user, --sys-prefix, --prefix")
        raise typer.Exit(2)
    kernels = command_module("kernel")
    try:
        folder = kernels.install_kernel(user=user, prefix=sys.prefix if sys_prefix else prefix)
    except kernels.KernelInstallError as error:
        print_error(f"autodiff kernel install: error: {error}")
        raise typer.Exit(1) from None
    sys.stdout.write(f"installed the kernel autodiff in {folder}\n")


@app.command()
def doctor(
    as_json: Annotated[
        bool,
        typer.Option("--json", help="One JSON object: protections, attacks, summary."),
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="Run up to N attacks at once.")
    ] = command_calls.DOCTOR_JOBS,
    only: Annotated[
        list[str],
        typer.Option("--only", metavar="NAME", help="Run only this attack (repeatable)."),
    ] = [],  # noqa: B006 - Typer reads the default, never mutates it
    plain: PlainOption = False,
) -> None:
    """Show which protections of the jail this machine gives and run the built-in attacks
    inside it, each reported contained or not (exit status 0 when all hold)."""
    _run("doctor", locals())
