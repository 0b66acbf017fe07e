"""The REPL's `:formula NAME [WRT...]`, in two halves: `formula_payload` reads NAME's graph and
the engine's gradients where the namespace lives (the locked-down child: no SymPy there), as
JSON-safe data; `show_formula` checks that data again (it comes from the child, which runs
untrusted code) and prints the formulas, with SymPy, where the REPL reads its input."""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

import autodiff_cli.engine as torch
from autodiff_cli import lazy_imports
from autodiff_cli.cli import output
from autodiff_cli.cli.formulas.terms import NoFormula, graph_terms
from autodiff_cli.cli.formulas.words import _


def formula_payload(namespace: dict[str, Any], argument: str) -> dict[str, Any]:
    """NAME's graph as `Terms` data, the leaves' values, and the gradient of NAME with respect
    to each WRT leaf (all leaves of the graph by default), by `autograd.grad` (no `.grad` is
    touched). ValueError with the message to show when there is no formula."""
    words = argument.split()
    if not words:
        raise ValueError(_("usage: :formula NAME [WRT...]"))
    name, wanted = words[0], words[1:]
    if name not in namespace:
        raise ValueError(f"no variable named {name!r}")
    value = namespace[name]
    if type(value) is not torch.Tensor or value.grad_fn is None:
        raise ValueError(_("no formula: {name} has no grad_fn graph").format(name=name))
    leaves = {
        key: tensor
        for key, tensor in namespace.items()
        if type(tensor) is torch.Tensor
        and tensor.is_leaf
        and tensor.requires_grad
        and not key.startswith("_")
    }
    names = {id(tensor): key for key, tensor in reversed(leaves.items())}
    try:
        terms = graph_terms(value.grad_fn, names)
    except NoFormula as error:
        raise ValueError(str(error)) from None
    in_graph = [node[1] for node in terms.nodes if node[0] == "leaf"]
    for leaf in wanted:
        if leaf not in leaves:
            raise ValueError(f"{leaf!r} is not a leaf tensor that requires grad")
    wrt = wanted or list(dict.fromkeys(in_graph))
    try:
        grads = torch.autograd.grad(
            value, [leaf_tensor for leaf_tensor in (leaves[leaf] for leaf in wrt)],
            retain_graph=True, allow_unused=True,
        )  # fmt: skip
    except RuntimeError:  # freed by an earlier backward(): the formula without the comparison
        grads = None

    def number(tensor: Any) -> float:
        if tensor is None:
            return 0.0
        flat = tensor.detach().numpy().reshape(-1)
        return float(flat[0]) if flat.size == 1 else math.nan

    return {
        "name": name,
        "terms": terms.to_json(),
        "wrt": wrt,
        "point": {leaf: number(leaves[leaf]) for leaf in dict.fromkeys(in_graph)},
        "engine": {} if grads is None else {leaf: number(g) for leaf, g in zip(wrt, grads)},
        "eps": float(np.finfo(value.detach().numpy().dtype).eps),
    }


def _checked(payload: Any) -> dict[str, Any]:
    """The payload if every field has its type, else ValueError (see the module's docstring)."""

    def names(items: Any) -> bool:
        return type(items) is list and all(type(i) is str and i.isidentifier() for i in items)

    def numbers(items: Any) -> bool:
        return type(items) is dict and all(
            type(k) is str and k.isidentifier() and type(v) in (int, float)
            for k, v in items.items()
        )

    if (
        type(payload) is not dict
        or type(payload.get("name")) is not str
        or not payload["name"].isidentifier()
        or not names(payload.get("wrt"))
        or not numbers(payload.get("point"))
        or not numbers(payload.get("engine"))
        or type(payload.get("eps")) is not float
    ):
        raise ValueError("the session sent a malformed formula")
    return payload


def show_formula(payload: Any, *, styled: bool = False) -> bool:
    """Print the formulas of a `formula_payload`; False when one disagrees with autograd."""
    data = _checked(payload)
    sympy_half = lazy_imports.load("autodiff_cli.cli.formulas.sympy_half")
    try:
        terms = sympy_half.symbolic.check_terms(data["terms"])
    except NoFormula as error:
        raise ValueError(str(error)) from None
    section = sympy_half.report.formula_section(
        terms,
        data["wrt"],
        "gradient",
        1,
        data["point"],
        data["engine"],
        data["eps"],
        result=data["name"],
    )
    if styled:
        styled = output.optional("styled")
        console, Text = styled.console(), styled.Text  # noqa: N806
        console.print(Text(section.heading, style="bold"))
        for line in section.lines:
            console.print(Text(line, style="" if section.ok else "red"))
    else:
        sys.stdout.write("\n".join([section.heading, *section.lines]) + "\n")
    sys.stdout.flush()
    return section.ok
