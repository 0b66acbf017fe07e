"""`grad --elementwise`: the derivative of an elementwise function at several points
(`sin(x)` at x=[0,1,2] -> cos(x) per element) instead of its diagonal Jacobian, and the tables
`grad` prints: x against f'(x), and the Hessian as one labelled matrix."""

from __future__ import annotations

from typing import Any

import numpy as np

from autodiff_cli.cli.grad.result import GradResult
from autodiff_cli.engine.autograd.functional import jacobian
from autodiff_cli.i18n import gettext as _

MAX_CHECKED = 1000  # elements: the diagonal check builds the n x n Jacobian


class NotElementwise(Exception):
    """The result is not an elementwise function of a --wrt variable: exit status 1."""


def elementwise_derivatives(function: Any, inputs: tuple, wrt: list[str], result: Any) -> dict:
    """name -> f'(x) per element, after checking that each Jacobian is diagonal (each
    element of the result depends on the same element of x only)."""

    size = result.numel()
    for name, x in zip(wrt, inputs):
        if x.numel() != size:
            message = _(
                "--elementwise needs each --wrt variable to have as many elements as the result: "
                "{name} has {x_shape}, the result {shape}"
            )
            raise NotElementwise(
                message.format(name=name, x_shape=list(x.shape), shape=list(result.shape))
            )
    if size > MAX_CHECKED:
        message = _("--elementwise checks the Jacobian is diagonal: at most {limit} elements")
        raise NotElementwise(message.format(limit=MAX_CHECKED))
    blocks = jacobian(function, inputs)
    derivatives = {}
    for name, x, block in zip(wrt, inputs, blocks):
        square = np.asarray(block.detach().numpy(), dtype=np.float64).reshape(size, size)
        if np.any(square - np.diag(np.diag(square))):
            message = _(
                "the result is not elementwise in {name}: its Jacobian is not diagonal; "
                "drop --elementwise to see the whole Jacobian"
            )
            raise NotElementwise(message.format(name=name))
        derivatives[name] = block.reshape(size, size).diagonal().reshape(x.shape).detach()
    return derivatives


def _number(value: float) -> str:
    value = float(value) + 0.0  # no -0.0
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if value == 0 or 1e-4 <= abs(value) < 1e6:
        return f"{value:.4f}"
    return f"{value:.4e}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    """Columns right-aligned under their headers, two spaces apart."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    return [
        "  ".join(cell.rjust(width) for cell, width in zip(row, widths)) for row in [header, *rows]
    ]


def elementwise_lines(outcome: GradResult) -> list[str]:
    """One row per element: the --wrt values, f and each derivative (∂f/∂x, or f'(x) for one
    variable)."""
    names = list(outcome.wrt)
    columns = [outcome.leaves[name].detach().reshape(-1).tolist() for name in names]
    values = outcome.result.detach().reshape(-1).tolist()
    derivatives = [outcome.gradients[name].reshape(-1).tolist() for name in names]
    if len(names) == 1:
        header = [names[0], f"f({names[0]})", f"f'({names[0]})"]
    else:
        header = [*names, "f", *(f"∂f/∂{name}" for name in names)]
    rows = [
        [_number(c[i]) for c in columns]
        + [_number(values[i])]
        + [_number(d[i]) for d in derivatives]
        for i in range(len(values))
    ]
    return ["  " + line for line in _table(header, rows)]


def diagonal_note(outcome: GradResult) -> str | None:
    """For a Jacobian that is diagonal (an elementwise function of a vector), one line on
    getting f'(x) per element instead."""

    size = outcome.result.numel()
    if outcome.jacobian is None or size < 2:
        return None
    for name, block in outcome.jacobian.items():
        if outcome.leaves[name].numel() != size:
            return None
        square = np.asarray(block.detach().numpy(), dtype=np.float64).reshape(size, size)
        if np.any(square - np.diag(np.diag(square))):
            return None
    return _(
        "the Jacobian is diagonal (an elementwise function): add --elementwise for a table of each element's derivative"
    )


def _labels(name: str, leaf: Any) -> list[str]:
    return [name] if leaf.dim() == 0 else [f"{name}[{i}]" for i in range(leaf.numel())]


def hessian_lines(outcome: GradResult) -> list[str] | None:
    """The Hessian as one matrix, rows and columns labelled (x, y or x[0], x[1]...), when each
    --wrt variable is a scalar or a vector; None otherwise (shown block by block)."""

    leaves = [outcome.leaves[name] for name in outcome.wrt]
    if outcome.hessian is None or any(leaf.dim() > 1 for leaf in leaves):
        return None
    labels = [label for name, leaf in zip(outcome.wrt, leaves) for label in _labels(name, leaf)]
    rows = []
    for row_name, row_leaf in zip(outcome.wrt, leaves):
        blocks = [
            np.asarray(outcome.hessian[row_name][name].detach().numpy(), dtype=np.float64).reshape(
                row_leaf.numel(), leaf.numel()
            )
            for name, leaf in zip(outcome.wrt, leaves)
        ]
        rows.extend(np.concatenate(blocks, axis=1).tolist())
    table = _table(["", *labels], [[label, *map(_number, row)] for label, row in zip(labels, rows)])
    return ["  " + line for line in table]
