"""`:vars`: the session's variables in a table, each with a short value. Tensors fill every
column (shape, dtype, requires_grad, is_leaf, grad_fn, grad); numbers, strings and booleans show
their value; any other object its type (modules are left out). Nothing of the script's runs (no `__repr__` of a script
class): values are shown only for the engine's tensors and Python's own scalar types."""

from __future__ import annotations

import sys
import warnings
from typing import Any

import autodiff_cli.engine as torch
from autodiff_cli.cli.graph.build import node_name
from autodiff_cli.engine.core import printing
from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang.sandbox.capabilities import ModuleProxy
from autodiff_cli.lang.sandbox.typeview import display_name

MAX_VALUE = 40  # characters of the value column
_SCALARS = (bool, int, float, complex, str, type(None))


def short_value(value: Any) -> str:
    """One line: a tensor's data (`[1., 2., 3., ..., 9.]`), a scalar's repr, else `<type>`."""
    if isinstance(value, torch.Tensor):
        with printing.printoptions(threshold=6, edgeitems=3, linewidth=1_000_000):
            text = repr(value.detach())
        text = text.removeprefix("tensor(")
        text = text.split(", dtype=")[0].split(", size=")[0].removesuffix(")")
    elif type(value) in _SCALARS:
        text = repr(value)
    else:
        return f"<{display_name(type(value))}>"
    text = " ".join(text.split())
    return text if len(text) <= MAX_VALUE else text[: MAX_VALUE - 1] + "…"


def grad_of(tensor: Any) -> Any:
    """`.grad` without the non-leaf warning: None unless it is a leaf or retains grad."""
    if not (tensor.is_leaf or tensor.retains_grad):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tensor.grad


def variable_rows(namespace: dict[str, Any], cell: Any) -> list[list[str]]:
    """A row per public variable (tensors first, as they were defined); `cell` draws a grad."""
    tensors, others = [], []
    for name, value in namespace.items():
        if not isinstance(name, str) or name.startswith("_") or isinstance(value, ModuleProxy):
            continue
        if isinstance(value, torch.Tensor):
            grad = grad_of(value)
            grad_fn = value.grad_fn
            tensors.append(
                [
                    name,
                    short_value(value),
                    str(list(value.shape)),
                    value.dtype.name,
                    str(value.requires_grad),
                    str(value.is_leaf),
                    node_name(grad_fn) if grad_fn is not None else "",
                    "" if grad is None else cell(grad),
                ]
            )
        else:
            others.append([name, short_value(value), "", "", "", "", "", ""])
    return tensors + others


def show_vars(state: Any, argument: str, print_table: Any, cell: Any) -> None:
    rows = variable_rows(dict(state.namespace), cell)
    if not rows:
        sys.stdout.write(_("no variables yet") + "\n")
        return
    columns = [_("name"), _("value"), "shape", "dtype", "requires_grad", "is_leaf", "grad_fn"]
    print_table(state, [*columns, "grad"], rows, _("variables"))
