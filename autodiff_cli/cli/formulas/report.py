"""The formulas section of a report (`grad --formula`, `:formula`, `graph --file --formula`):
the function read from the graph, each derivative in plain text (pasteable) and Unicode or
LaTeX, its value at the point beside the engine's, and whether they agree."""

from __future__ import annotations

import math
from typing import Any

from autodiff_cli.cli.formulas import printing, symbolic
from autodiff_cli.cli.formulas.derivatives import formulas
from autodiff_cli.cli.formulas.terms import NoFormula, Terms
from autodiff_cli.cli.formulas.words import _
from autodiff_cli.cli.grad.result import json_float

_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


class FormulaSection:
    """What the report shows: `heading`, `lines`, the `--json` data, and `ok` (False when a
    formula and the engine disagree, or there is no formula)."""

    def __init__(self, heading: str, lines: list[str], data: dict[str, Any], ok: bool) -> None:
        self.heading = heading
        self.lines = lines
        self.data = data
        self.ok = ok
        self.formulas: list = []  # derivatives.Formula of each derivative
        self.function: Any = None  # the SymPy expression of the graph


def _label(key: Any, mode: str, order: int, result: str) -> str:
    if mode == "hessian":
        row, column = key
        return f"∂²{result}/∂{row}∂{column}"
    if mode == "order" and order > 1:
        n = str(order).translate(_SUPERSCRIPTS)
        return f"∂{n}{result}/∂{key}{n}"
    return f"∂{result}/∂{key}"


def _number(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value:.8g}"


def failed_section(message: str) -> FormulaSection:
    data = {"formulas": None, "formula_check": {"ok": False, "error": message, "values": None}}
    return FormulaSection(_("formulas (from the grad_fn graph):"), [f"  {message}"], data, False)


def formula_section(
    terms: Terms | str,
    wrt: list[str],
    mode: str,
    order: int,
    point: dict[str, float],
    engine: dict[Any, float],
    eps: float,
    *,
    latex: bool = False,
    result: str = "result",
) -> FormulaSection:
    """The section for `terms` (or the NoFormula message); `engine` maps each derivative's
    key (a leaf name, or (row, column) for the Hessian) to the engine's value."""
    if isinstance(terms, str):
        return failed_section(terms)

    try:
        expr = symbolic.expressions(terms)[terms.root]
    except NoFormula as error:
        return failed_section(str(error))
    symbols = symbolic.symbols_of(terms)
    found = formulas(expr, symbols, wrt, mode, order, point, engine, eps)
    second = printing.latex if latex else printing.unicode
    at = ", ".join(f"{name}={_number(value)}" for name, value in point.items() if name in wrt)
    lines = [f"  {result} = {printing.plain(expr)}"]
    texts: dict[str, Any] = {}
    values: dict[str, Any] = {}
    for formula in found:
        label = _label(formula.key, mode, order, result)
        text = printing.plain(formula.expr)
        lines.append(f"  {label} = {text}")
        other = second(formula.expr)
        if other != text:
            lines.append(" " * (len(label) + 3) + f"= {other}")
        if formula.note:
            lines.append(f"      ({formula.note})")
        verdict = _("agrees") if formula.agrees else _("MISMATCH")
        compared = f"{_('autograd')} {_number(formula.engine)}: {verdict}"
        if formula.key not in engine:  # the graph was freed: nothing to compare with
            formula.agrees = True
            compared = _("autograd: not compared, the graph was freed by backward()")
        lines.append(f"      {_('value at the point')} {at}: {_number(formula.value)} ({compared})")
        entry = {
            "formula": json_float(formula.value),
            "autograd": json_float(formula.engine) if formula.key in engine else None,
            "agrees": formula.agrees,
        }
        if mode == "hessian":
            row, column = formula.key
            texts.setdefault(row, {})[column] = text
            values.setdefault(row, {})[column] = entry
        else:
            texts[formula.key] = text
            values[formula.key] = entry
    ok = all(formula.agrees for formula in found)  # (after the loop: freed graphs agree)
    heading = {
        "order": _("second derivatives (from the grad_fn graph):")
        if order == 2
        else _("formulas (from the grad_fn graph):"),
        "hessian": _("hessian formulas (from the grad_fn graph):"),
    }.get(mode, _("formulas (from the grad_fn graph):"))
    if not ok:
        lines.append(f"  {_('the formula and autograd disagree')}")
    data = {
        "formulas": texts,
        "formula_check": {
            "ok": ok,
            "error": None,
            "values": values,
            "function": printing.plain(expr),
            "latex": {key: printing.latex(f.expr) for key, f in _flat(found)},
            "notes": [f.note for f in found if f.note],
        },
    }
    section = FormulaSection(heading, lines, data, ok)
    section.formulas, section.function = found, expr
    return section


def _flat(found: list) -> list[tuple[str, Any]]:
    return [(",".join(f.key) if isinstance(f.key, tuple) else f.key, f) for f in found]
