"""A formula as text: plain (Python syntax, which `autodiff grad` reads back: `abs`, `where`,
`sign`, numbers for π and e), Unicode on one line (`x²·cos(x)`) and LaTeX."""

from __future__ import annotations

import re
from typing import Any

import sympy
from sympy.printing.str import StrPrinter

_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


class _PastablePrinter(StrPrinter):
    """SymPy's `str` with the names `autodiff grad` knows (torch's functions, bare)."""

    def _print_Abs(self, expr: Any) -> str:
        return f"abs({self._print(expr.args[0])})"

    def _print_Piecewise(self, expr: Any) -> str:
        text = None
        for value, condition in reversed(expr.args):
            if condition is sympy.true:
                text = self._print(value)
            else:
                inner = text if text is not None else "nan"
                text = f"where({self._print(condition)}, {self._print(value)}, {inner})"
        return text or "nan"

    def _print_Pi(self, expr: Any) -> str:
        return repr(float(sympy.pi))

    def _print_Exp1(self, expr: Any) -> str:
        return repr(float(sympy.E))

    def _print_Heaviside(self, expr: Any) -> str:
        x = self._print(expr.args[0])
        return f"where({x} > 0, 1, where({x} < 0, 0, 0.5))"

    def _print_DiracDelta(self, expr: Any) -> str:
        return "0"

    def _print_Relational(self, expr: Any) -> str:
        symbol = {"==": "==", "!=": "!="}.get(expr.rel_op)
        if symbol is None:
            return super()._print_Relational(expr)
        return f"{self._print(expr.lhs)} {symbol} {self._print(expr.rhs)}"


def _numbers_evaluated(expr: Any) -> Any:
    """Constants such as log(2) or sqrt(pi) as floats: torch's functions take tensors, not
    numbers, so `log(2)` would not run in `autodiff grad`."""
    constants = {
        part: sympy.Float(float(part), 17)
        for part in sympy.preorder_traversal(expr)
        if isinstance(part, (sympy.Function, sympy.Pow))
        and not part.free_symbols
        and not part.is_Rational
        and part.is_real
    }
    return expr.xreplace(constants) if constants else expr


def plain(expr: Any) -> str:
    """Python syntax: paste it into `autodiff grad` (`x**2*cos(x) + 2*x*sin(x)`)."""
    return _PastablePrinter({"order": None}).doprint(_numbers_evaluated(expr))


def unicode(expr: Any) -> str:
    """One line, with superscript powers and a middle dot (`x²·cos(x) + 2·x·sin(x)`)."""
    text = _PastablePrinter({"order": None}).doprint(expr)
    text = re.sub(r"\*\*\((-?\d+)\)|\*\*(\d+)(?![.\d])", _superscript, text)
    return text.replace("**", "^").replace("*", "·")


def _superscript(match: re.Match) -> str:
    return (match.group(1) or match.group(2)).translate(_SUPERSCRIPTS)


def latex(expr: Any) -> str:
    return sympy.latex(expr)


def form(expr: Any, style: str) -> str:
    """`expr` as "plain", "unicode" or "latex" text."""
    return {"plain": plain, "unicode": unicode, "latex": latex}[style](expr)
