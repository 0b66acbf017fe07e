"""A grad_fn graph as plain data a formula can be built from (no SymPy here).

`Terms.nodes` lists the graph's nodes, inputs before the nodes that use them:
`["leaf", name]`, `["const", number]` or `["op", op name, grad_fn name, [input indices],
{param: value}, source text]`. It is JSON (the REPL's child sends it to the process that runs
SymPy) and it is checked again where it is read (`symbolic.check_terms`). Building refuses,
with `NoFormula`, any node that is not elementwise (`no formula for MmBackward0`), a reduction
of more than one element, a result of more than one element and a constant input whose value
was not recorded.
"""

from __future__ import annotations

import math
from typing import Any

from autodiff_cli.cli.formulas.words import _
from autodiff_cli.cli.graph.build import node_name
from autodiff_cli.lang.runtime.provenance import note_of

MAX_NODES = 2000  # graph nodes read into a formula; a larger graph is refused
_REDUCTIONS = ("SumBackward0", "MeanBackward0")


class NoFormula(Exception):
    """The graph cannot be read as a formula; the message says which node and why."""


class Terms:
    """The graph as data: `nodes` (see the module's docstring), `root` its index, `keys` the
    index of each graph node (by id) for `--explain --formula`."""

    def __init__(self, nodes: list, root: int, keys: dict[int, int]) -> None:
        self.nodes = nodes
        self.root = root
        self.keys = keys

    def to_json(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "root": self.root}


def _number(value: Any) -> int | float | None:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    return None


def _param(value: Any) -> Any:
    """A parameter as JSON: numbers and None as they are, anything else (a dtype, dims) as
    text: the symbolic entries read only numbers."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def _constant_of(fn: Any, position: int, note: Any) -> tuple[Any, int]:
    """(number, element count) of input `position` of `fn`, which needs no gradient."""
    op = fn.op
    arguments = tuple(getattr(op, "arg_names", ()) or ())
    argument = arguments[position] if position < len(arguments) else f"input {position}"
    value = None
    if note is not None and note.op is op and position < len(note.inputs):
        value = note.inputs[position]
    if isinstance(value, list):
        count = math.prod(value)
        if count != 1:
            raise NoFormula(
                _(
                    "no formula for {name}: its input '{argument}' is a tensor of shape {shape}"
                ).format(name=node_name(fn), argument=argument, shape=value)
            )
    number = _number(value)
    if number is None:
        raise NoFormula(
            _("no formula for {name}: the value of its input '{argument}' was not recorded").format(
                name=node_name(fn), argument=argument
            )
        )
    return number, 1


def graph_terms(grad_fn: Any, leaf_names: dict[int, str]) -> Terms:
    """The graph below `grad_fn` as `Terms`; `leaf_names` maps id(leaf tensor) to its name."""
    nodes: list = []
    keys: dict[int, int] = {}
    counts: list[int] = []  # elements of each entry's value
    stack = [(grad_fn, False)]
    while stack:
        fn, ready = stack.pop()
        if id(fn) in keys:
            continue
        if len(keys) >= MAX_NODES:
            raise NoFormula(
                _("no formula: the graph has more than {limit} nodes").format(limit=MAX_NODES)
            )
        children = [child for child, _nr in fn.next_functions]
        if not ready:
            stack.append((fn, True))
            stack.extend((child, False) for child in reversed(children) if child is not None)
            continue
        name = node_name(fn)
        if hasattr(fn, "variable"):
            leaf = fn.variable
            label = leaf_names.get(id(leaf))
            if label is None:
                raise NoFormula(_("no formula: a leaf of the graph has no variable name"))
            keys[id(fn)] = len(nodes)
            nodes.append(["leaf", label])
            counts.append(leaf.numel())
            continue
        op = getattr(fn, "op", None)
        if op is None or getattr(op, "symbolic", None) is None:
            raise NoFormula(_("no formula for {name}").format(name=name))
        note = note_of(fn)
        inputs, sizes = [], []
        for position, child in enumerate(children):
            if child is not None:
                inputs.append(keys[id(child)])
                sizes.append(counts[keys[id(child)]])
                continue
            number, count = _constant_of(fn, position, note)
            inputs.append(len(nodes))
            sizes.append(count)
            nodes.append(["const", number])
            counts.append(count)
        size = max(sizes, default=1)
        if name in _REDUCTIONS and size > 1:
            raise NoFormula(
                _("no formula for {name}: it reduces {count} elements").format(
                    name=name, count=size
                )
            )
        params = fn._params or (note.params if note is not None and note.op is op else {})
        label = note.label(False) if note is not None else None
        keys[id(fn)] = len(nodes)
        nodes.append(
            ["op", op.name, name, inputs, {k: _param(v) for k, v in params.items()}, label]
        )
        counts.append(size)
    root = keys[id(grad_fn)]
    if counts[root] != 1:
        raise NoFormula(
            _(
                "no formula: the result has {count} elements (a formula is for a one-element result)"
            ).format(count=counts[root])
        )
    return Terms(nodes, root, keys)
