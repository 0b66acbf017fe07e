"""The script language: a Python subset speaking PyTorch's autograd API.

`compile_source` parses once and compiles to closures; `run_source` runs a script in a fresh
sandboxed namespace; `Session` keeps one namespace for a REPL or one-liners. Every failure is
a `ScriptError`. `request_interrupt` stops a running script (`--timeout`, Ctrl-C). Parsing runs
the shipped tables with our own code (no Lark module); the engine is imported when first needed.
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Any

from autodiff_cli.lang.compile.compiler import compile_tree, run_expression
from autodiff_cli.lang.errors import ScriptError, Source
from autodiff_cli.lang.limits import ScriptTimeout, clear_interrupt, request_interrupt
from autodiff_cli.lang.parse.parser import ParseFailure, decode_source, parse
from autodiff_cli.lang.runtime import namespace as _namespace
from autodiff_cli.lang.runtime.namespace import Namespace

if TYPE_CHECKING:
    from autodiff_cli.lang.compile.compiler import Program

__all__ = [
    "Namespace",
    "ScriptError",
    "ScriptTimeout",
    "Session",
    "clear_interrupt",
    "compile_source",
    "new_namespace",
    "request_interrupt",
    "run_source",
]

MODES = ("exec", "eval", "single")


def new_namespace(bare_torch: bool = False) -> Namespace:
    """A fresh script namespace whose `eval` compiles with this package's compiler; with
    `bare_torch`, torch's functions, `pi` and `e` are bound as names too."""
    return _namespace.new_namespace(bare_torch, run_expression)


def compile_source(source: str | bytes, filename: str = "<script>", mode: str = "exec") -> Program:
    """Parse and compile a script. `mode`: "exec" (statements), "eval" (one expression) or
    "single" (statements; `run` returns the value of a trailing expression statement)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    text = decode_source(source, filename)
    info = Source(filename, tuple(text.split("\n")))
    try:
        tree = parse(text, info, start="eval_input" if mode == "eval" else "file_input")
    except ParseFailure as failure:
        raise failure.error from None
    return compile_tree(tree, info, mode)


def run_source(
    source: str | bytes,
    filename: str = "<script>",
    namespace: Namespace | None = None,
    stdout: IO[str] | None = None,
) -> Namespace:
    """Run a script (in `namespace`, else a fresh one); `print` writes to `stdout` if given."""
    program = compile_source(source, filename, "exec")
    if namespace is None:
        namespace = new_namespace()
    saved = namespace.stdout
    if stdout is not None:
        namespace.stdout = stdout
    try:
        program.run(namespace)
    finally:
        namespace.stdout = saved
    return namespace


class Session:
    """One namespace across many inputs: a REPL, or `grad`'s `--at` values and expression."""

    def __init__(self, bare_torch: bool = False, stdout: IO[str] | None = None) -> None:
        self.namespace = new_namespace(bare_torch=bare_torch)
        self.namespace.stdout = stdout

    def execute(self, source: str | bytes, filename: str = "<stdin>") -> Any:
        """Run statements (`;` or newlines); the value of a trailing expression, else None."""
        return compile_source(source, filename, "single").run(self.namespace)

    def is_complete(self, source: str) -> bool:
        """False while more lines could complete the input (open block, bracket or string)."""
        text = decode_source(source, "<stdin>")
        if not text.strip():
            return True
        if text.rstrip("\n \t").endswith("\\"):
            return False
        try:
            parse(text, Source("<stdin>", tuple(text.split("\n"))))
        except ParseFailure as failure:
            return not failure.at_end
        return True
