"""What a `grad` run computes, shared by the command (`command`), its report (`report`),
`--explain` and `--check` (`fdcheck`): the modes, `GradResult`, the compiled `Expression`, the
N-th derivatives, and tensors as JSON. Nothing here imports another cli module.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import autodiff_cli.engine as torch
from autodiff_cli.lang import compile_source

EXPR_NAME = "<expr>"
GRADIENT, JACOBIAN, VJP, HESSIAN, ORDER = "gradient", "jacobian", "vjp", "hessian", "order"
ELEMENTWISE = "elementwise"  # f'(x) per element (`gradients`), the Jacobian checked diagonal

__all__ = [
    "ELEMENTWISE",
    "EXPR_NAME",
    "GRADIENT",
    "HESSIAN",
    "JACOBIAN",
    "ORDER",
    "VJP",
    "Expression",
    "GradResult",
    "nth_derivatives",
    "tensor_to_json",
]


class GradResult:
    """What `grad` computed; the fields after `namespace` are filled in by mode. (A plain
    class: `dataclasses` would cost the one-liner's start-up its import and generated methods.)"""

    def __init__(
        self,
        expression: str,
        result: Any,  # engine Tensor: the expression's value
        leaves: dict[str, Any],  # --at name -> its tensor (a leaf requiring grad when in --wrt)
        wrt: list[str],
        mode: str,  # GRADIENT, JACOBIAN, VJP, HESSIAN or ORDER
        namespace: dict[str, Any],
    ) -> None:
        self.expression = expression
        self.result = result
        self.leaves = leaves
        self.wrt = wrt
        self.mode = mode
        self.namespace = namespace
        self.seed: Any = None  # the --vjp vector
        self.gradients: dict[str, Any] | None = None  # name -> .grad (GRADIENT and VJP)
        self.jacobian: dict[str, Any] | None = None  # name -> out.shape + in.shape tensor
        self.hessian: dict[str, dict[str, Any]] | None = None  # name -> name -> block
        self.derivatives: dict[str, Any] | None = None  # name -> N-th derivative (ORDER)
        self.order = 1
        self.parsed: str | None = None  # the Python spelling of a math-form expression (2x)
        self.check: dict[str, Any] | None = None
        self.explain: Any = None  # explain.Walk
        self.saved: dict[int, Any] | None = None  # --saved: saved values before the backward
        self.terms: Any = None  # --formula: formulas.terms.Terms, or why there is no formula
        self.formula: Any = None  # --formula: formulas.report.FormulaSection
        self.chain: Any = None  # --explain --formula: (local derivatives, chain-rule lines)


class Expression:
    """The compiled expression as a function of the --wrt leaves (the other names stay bound)."""

    def __init__(self, source: str, session: Any, wrt: list[str]) -> None:
        self.program = compile_source(source, EXPR_NAME, "single")
        self.namespace = session.namespace
        self.wrt = wrt

    def __call__(self, *values: Any) -> Any:
        for name, value in zip(self.wrt, values):
            self.namespace[name] = value
        return self.program.run(self.namespace)


def nth_derivatives(result: Any, inputs: tuple, wrt: list[str], order: int) -> dict[str, Any]:
    """For each input x, d^N result / dx^N: differentiate N times (each time the sum of the last
    derivative, so for an elementwise function of a vector this is the elementwise derivative)."""
    derivatives = {}
    for name, x in zip(wrt, inputs):
        current = result
        for step in range(order):
            if not current.requires_grad:
                current = torch.zeros_like(x)
                continue
            (current,) = torch.autograd.grad(
                current.sum(), x, create_graph=step < order - 1, allow_unused=True
            )
            if current is None:
                current = torch.zeros_like(x)
        derivatives[name] = current.detach()
    return derivatives


def _shortest_float(value: Any) -> float | str:
    """A numpy float as the shortest decimal that reads back to the same value (JSON-safe)."""
    return json_float(float(str(value)))


def json_float(number: float) -> float | str:
    """A float as JSON can hold it: NaN and the infinities as the strings "nan", "inf", "-inf"."""
    if math.isnan(number):
        return "nan"
    if math.isinf(number):
        return "inf" if number > 0 else "-inf"
    return number


def tensor_to_json(tensor: Any) -> Any:
    """A tensor's values as a number or nested lists; floats keep their dtype's precision."""
    array = np.asarray(tensor.detach().numpy())

    def convert(part: Any) -> Any:
        if isinstance(part, np.ndarray) and part.ndim > 0:
            return [convert(item) for item in part]
        item = part[()] if isinstance(part, np.ndarray) else part
        if isinstance(item, np.floating):
            return _shortest_float(item)
        if isinstance(item, np.bool_):
            return bool(item)
        return int(item)

    return convert(array)
