"""The derivatives a `grad` mode asks for, as simplified formulas, each checked against the
engine's number at the point.

The check: both values are computed from the same point (the leaves' own float values, so
`0.1` in float32 is the float32 number), the formula exactly (30 digits), the engine in its
dtype. Each engine op rounds to within eps/2 of its exact result, relative to the terms it adds,
so a gradient of a graph of n ops is within about n·eps of the exact value relative to the
largest term of the chain-rule sum. The tolerance, 256·eps × (1 + |formula| + |autograd| + the
sum of the magnitudes of the unsimplified derivative's terms), covers graphs of a few hundred
ops with cancellation (5e-5 relative in float32, 6e-14 in float64); a wrong formula is off by
O(1) of its terms.
"""

from __future__ import annotations

import math
from typing import Any

import sympy

from autodiff_cli.cli.formulas.simplifying import bounded_simplify

ULPS = 256
DIGITS = 30


class Formula:
    """One derivative: `key` (a leaf name, or (row, column) for the Hessian), its simplified
    `expr` (or the raw one, with `note` saying why), its value at the point and the engine's."""

    def __init__(self, key: Any, expr: Any, note: str | None, raw: Any) -> None:
        self.key = key
        self.expr = expr
        self.note = note
        self.raw = raw
        self.value: float = math.nan
        self.engine: float = math.nan
        self.agrees = False


def wanted(expr: Any, symbols: dict[str, Any], wrt: list[str], mode: str, order: int) -> list:
    """(key, unsimplified derivative) for each derivative of `mode` ("gradient", "order" or
    "hessian"); a --wrt leaf the graph does not reach has derivative 0."""
    zero = sympy.Integer(0)

    def symbol(name: str) -> Any:
        return symbols.get(name)

    def d(e: Any, name: str, n: int = 1) -> Any:
        s = symbol(name)
        return zero if s is None else sympy.diff(e, s, n)

    if mode == "hessian":
        return [((row, column), d(d(expr, row), column)) for row in wrt for column in wrt]
    n = order if mode == "order" else 1
    return [(name, d(expr, name, n)) for name in wrt]


def _value(expr: Any, point: dict[Any, Any]) -> float:
    try:
        value = sympy.N(expr.subs(point), DIGITS)
        if value.is_real is False or not value.is_number:
            return math.nan
        return float(value)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return math.nan


def _magnitude(expr: Any, point: dict[Any, Any]) -> float:
    terms = expr.args if expr.is_Add else (expr,)
    total = 0.0
    for term in terms:
        value = _value(term, point)
        if math.isfinite(value):
            total += abs(value)
    return total


def agree(value: float, engine: float, scale: float, eps: float) -> bool:
    """Whether the formula's value and the engine's are the same number (module docstring)."""
    if math.isnan(value) or math.isnan(engine):
        return math.isnan(value) and math.isnan(engine)
    if math.isinf(value) or math.isinf(engine):
        return value == engine
    return abs(value - engine) <= ULPS * eps * (1 + abs(value) + abs(engine) + scale)


def formulas(
    expr: Any,
    symbols: dict[str, Any],
    wrt: list[str],
    mode: str,
    order: int,
    point: dict[str, float],
    engine: dict[Any, float],
    eps: float,
) -> list[Formula]:
    """Each derivative of `mode`, simplified under the time bound, evaluated at `point` (leaf
    name -> value) and compared with `engine` (key -> the engine's value)."""
    at = {symbols[name]: sympy.Float(value, DIGITS) for name, value in point.items()
          if name in symbols}  # fmt: skip
    results = []
    for key, raw in wanted(expr, symbols, wrt, mode, order):
        simple, note = bounded_simplify(raw)
        formula = Formula(key, simple, note, raw)
        formula.value = _value(simple, at)
        formula.engine = engine.get(key, math.nan)
        formula.agrees = agree(formula.value, formula.engine, _magnitude(raw, at), eps)
        results.append(formula)
    return results
