"""`autodiff grad --formula`: the graph read before the backward pass, and the formulas section
once the engine's derivatives are known."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from autodiff_cli import lazy_imports
from autodiff_cli.cli.formulas.terms import NoFormula, Terms, graph_terms


def read_terms(result: Any, leaves: dict[str, Any]) -> Terms | str:
    """The result's graph as `Terms`, or the reason there is no formula."""
    names = {id(leaf): name for name, leaf in leaves.items()}
    if result.grad_fn is None:  # the result is a --wrt leaf itself
        name = names.get(id(result))
        return Terms([["leaf", name]], 0, {}) if name else "no formula"
    try:
        return graph_terms(result.grad_fn, names)
    except NoFormula as error:
        return str(error)


def _scalar(tensor: Any) -> float:
    if tensor is None:
        return 0.0
    values = tensor.detach().numpy().reshape(-1)
    return float(values[0]) if values.size == 1 else math.nan


def formula_of(outcome: Any, *, latex: bool = False) -> Any:
    """The `FormulaSection` of a computed `GradResult`."""
    mode = outcome.mode
    if mode == "hessian":
        engine = {
            (row, column): _scalar(block)
            for row, blocks in outcome.hessian.items()
            for column, block in blocks.items()
        }
    elif mode == "order":
        engine = {name: _scalar(value) for name, value in outcome.derivatives.items()}
    else:
        engine = {name: _scalar(value) for name, value in (outcome.gradients or {}).items()}
    point = {name: _scalar(leaf) for name, leaf in outcome.leaves.items() if leaf.numel() == 1}
    eps = float(np.finfo(outcome.result.detach().numpy().dtype).eps)
    report = lazy_imports.load("autodiff_cli.cli.formulas.sympy_half").report
    return report.formula_section(
        outcome.terms, outcome.wrt, mode, outcome.order, point, engine, eps, latex=latex
    )
