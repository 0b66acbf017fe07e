"""`--explain --formula`: each backward step's local derivative as a formula, and for each leaf
the chain rule assembled: the sum, over the paths from the result to the leaf, of the products
of the local derivatives along the path — which simplifies to the formula of `--formula`."""

from __future__ import annotations

from typing import Any

import sympy

from autodiff_cli.cli.formulas.printing import plain
from autodiff_cli.cli.formulas.simplifying import bounded_simplify
from autodiff_cli.cli.formulas.symbolic import expressions, local_derivatives
from autodiff_cli.cli.formulas.terms import Terms
from autodiff_cli.cli.formulas.words import _

MAX_PATHS = 12  # paths listed one by one; more are only counted


def _paths(root: Any, leaf_node: Any) -> list[list[tuple[Any, int]]]:
    """Every path from `root` to `leaf_node` as (node, input position) steps (at most
    MAX_PATHS + 1 are collected)."""
    found: list[list[tuple[Any, int]]] = []
    stack: list[tuple[Any, list]] = [(root, [])]
    while stack and len(found) <= MAX_PATHS:
        node, path = stack.pop()
        if node is leaf_node:
            found.append(path)
            continue
        edges = list(enumerate(node.next_functions))
        for position, (child, _nr) in reversed(edges):
            if child is not None:
                stack.append((child, [*path, (node, position)]))
    return found


def chain_rule(walk: Any, terms: Terms, result: str = "result") -> tuple[dict, list[str]]:
    """({(step number, input position): local derivative text}, the closing lines)."""
    values = expressions(terms)
    local: dict[tuple[int, int], Any] = {}
    numbers: dict[int, int] = {}
    for step in walk.steps:
        numbers[id(step.node)] = step.number
        index = terms.keys.get(id(step.node))
        if index is None or terms.nodes[index][0] != "op":
            continue
        for position, derivative in enumerate(local_derivatives(terms, index, values)):
            local[(step.number, position)] = derivative
    texts = {key: plain(value) for key, value in local.items()}
    root = walk.steps[0].node if walk.steps else None
    lines = [_("chain rule (sum over paths of products of local derivatives):")]
    for step in walk.steps:
        if step.variable is None or root is None:
            continue
        paths = _paths(root, step.node)
        label = f"∂{result}/∂{step.variable}"
        if len(paths) > MAX_PATHS:
            lines.append(f"  {label}: " + _("{count} paths: too many to list").format(count="≥13"))
            continue
        products = []
        symbolic = sympy.Integer(0)
        for path in paths:
            factors = [local[(numbers[id(node)], position)] for node, position in path]
            names = [f"[{numbers[id(node)]}]" for node, _position in path]
            products.append(("·".join(names), "·".join(f"({plain(f)})" for f in factors)))
            symbolic += sympy.Mul(*factors)
        lines.append(f"  {label} = " + " + ".join(name for name, _text in products))
        pad = " " * (len(label) + 3)
        lines.append(f"{pad}= " + " + ".join(text for _name, text in products))
        total, _note = bounded_simplify(symbolic)
        lines.append(f"{pad}= {plain(total)}")
    del values
    return texts, lines
