"""SymPy's `simplify` under a bound of CPU time, so that a formula can never hang a command.

`simplify` tries many rewritings and some expressions take it minutes. It runs here under a
CPU-time timer (`ITIMER_VIRTUAL`, SIGVTALRM: another signal than `--timeout`'s wall-clock
SIGALRM, so both hold); at the deadline the handler raises `_OutOfTime`, a BaseException that
SymPy's `except Exception` clauses cannot swallow, and the formula stays as `diff` gave it,
said so. A formula of more than `MAX_OPERATIONS` operations is not tried at all. Where no such
timer exists (not the main thread, no SIGVTALRM), only the size bound applies and `simplify`
is replaced by SymPy's cheaper `cancel` + `factor_terms`. A short expansion is preferred (`_tidy`).
"""

from __future__ import annotations

import signal
import threading
from typing import Any

import sympy

from autodiff_cli.cli.formulas.words import _

SECONDS = 2.0  # CPU seconds one formula may take to simplify
MAX_OPERATIONS = 400  # larger formulas are shown as they are


class _OutOfTime(BaseException):
    pass


def _on_timer(signum: int, frame: Any) -> None:
    raise _OutOfTime


def _timer_usable() -> bool:
    return hasattr(signal, "SIGVTALRM") and threading.current_thread() is threading.main_thread()


def _tidy(expr: Any) -> Any:
    """The simplified form, or its expansion when that is hardly longer: a sum of products
    reads as the textbook writes it (`x**2*cos(x) + 2*x*sin(x)`, not `x*(x*cos(x) + ...)`)."""
    expanded = sympy.expand(expr, deep=False, power_exp=False, log=False, multinomial=False)
    if sympy.count_ops(expanded) <= sympy.count_ops(expr) + 1:
        return expanded
    return expr


def bounded_simplify(expr: Any, seconds: float = SECONDS) -> tuple[Any, str | None]:
    """(simplified expression, None) or (the expression as it was, why not simplified)."""
    size = sympy.count_ops(expr)
    if size > MAX_OPERATIONS:
        return expr, _("not simplified: the formula is too large ({size} operations)").format(
            size=size
        )
    if not _timer_usable():
        return sympy.factor_terms(sympy.cancel(expr)), None
    previous = signal.signal(signal.SIGVTALRM, _on_timer)
    try:
        signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
        try:
            result = _tidy(sympy.simplify(expr))
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    except _OutOfTime:
        return expr, _(
            "not simplified: simplification took longer than {seconds:g} s of CPU time"
        ).format(seconds=seconds)
    finally:
        signal.signal(signal.SIGVTALRM, previous)
    return result, None
