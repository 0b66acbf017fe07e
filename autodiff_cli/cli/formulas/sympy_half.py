"""The formulas' SymPy half, loaded as one (`lazy_imports`: SymPy costs ~0.3 s, so only a
formula asked for pays for it): `symbolic` (terms as SymPy expressions), `simplifying`,
`printing`, `derivatives`, `report` (the formulas section) and `chain_rule` (`--explain
--formula`); callers reach them as this module's attributes (`sympy_half.report`).

`warm_sympy` runs before a locked-down child is forked: the child cannot open a file, so it
cannot import the parts of SymPy that its functions import on first use (`simplify` imports the
modules below on its first call; the list was read from `sys.modules` after running this
project's formula tests)."""

from __future__ import annotations

import importlib

import sympy

from autodiff_cli.cli.formulas import (  # noqa: F401 - the half, as this module's attributes
    chain_rule,
    derivatives,
    printing,
    report,
    simplifying,
    symbolic,
    terms,
)

_LAZY = (
    "sympy.assumptions.wrapper",
    "sympy.combinatorics",
    "sympy.physics.matrices",
    "sympy.physics.units",
    "sympy.physics.units.systems.si",
    "sympy.physics.units.util",
    "sympy.sets.handlers.issubset",
    "sympy.sets.setexpr",
    "sympy.tensor.tensor",
)


def warm_sympy() -> None:
    """Import SymPy, the parts it imports lazily and this package's modules that use it, and
    run a small formula through them."""
    for name in _LAZY:
        try:
            importlib.import_module(name)
        except ImportError:  # another SymPy version: its first use will say what is missing
            pass

    x = sympy.Symbol("x", real=True)
    sample = sympy.diff(x**2 * symbolic.Functions.sin(x) + symbolic.Functions.relu(x), x)
    simple, _ = simplifying.bounded_simplify(sample, 5.0)
    for style in ("plain", "unicode", "latex"):
        printing.form(simple, style)
    derivatives._value(simple, {x: sympy.Float(0.5, 30)})
