"""`autodiff grad`: the command (`command`), what it computes (`result`, `points` for `--at` and
`--wrt`), its report (`report`, `notes`), and the optional `--explain` (`explain`) and `--check`
(`fdcheck`) passes.

The optional parts load only when asked for, through `optional` (the one-liner's start-up pays
for none of them; autodiff_cli/lazy_imports.py says why each waits)."""

from __future__ import annotations

from types import ModuleType

from autodiff_cli import lazy_imports

OPTIONAL = {
    "explain": "autodiff_cli.cli.grad.explain",  # --explain
    "fdcheck": "autodiff_cli.cli.grad.fdcheck",  # --check
    "math_input": "autodiff_cli.cli.grad.math_input",  # an expression written as math (2x, x²)
    "formulas": "autodiff_cli.cli.formulas.grad_formulas",  # --formula, SymPy-free (the child)
    "sympy": "autodiff_cli.cli.formulas.sympy_half",  # --formula's section, --explain's chain
    "page": "autodiff_cli.cli.graph_page.commands",  # --html
}


def optional(name: str) -> ModuleType:
    """The optional part `name` of `grad` (`OPTIONAL`), imported on first use."""
    return lazy_imports.load(OPTIONAL[name])
