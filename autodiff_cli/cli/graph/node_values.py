"""The values inner graph nodes produced, for the pictures of `graph`.

A grad_fn does not keep its output, so values are recovered two ways: a tensor some node saved
for backward is the output of its own grad_fn (`a * b` saves both inputs, `exp` its result), and
a node whose every input value is known is replayed with its op's own forward (the op table's
numpy function, with the parameters the node kept). Nodes whose value cannot be recovered
exactly (several outputs, mixed dtypes, an input nothing kept) are left out.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import autodiff_cli.engine as torch


def _saved_names(fn: Any) -> list[str]:
    op = fn.op
    return ["result" if what == "result" else op.arg_names[what] for what in op.saves]


def _saved_outputs(nodes: list[Any]) -> dict[int, Any]:
    """id(node) -> the tensor it produced, for tensors some node saved for backward."""
    found: dict[int, Any] = {}
    several: set[int] = set()
    for fn in nodes:
        if getattr(fn, "op", None) is None:
            continue
        for name in dict.fromkeys(_saved_names(fn)):
            try:
                value = fn.saved_attribute(name)
            except (RuntimeError, AttributeError, IndexError):  # freed by a backward pass
                continue
            producer = getattr(value, "grad_fn", None)
            if producer is None:
                continue
            if getattr(value, "_output_nr", 0) != 0:  # one of several outputs
                several.add(id(producer))
            found.setdefault(id(producer), value)
    return {key: value for key, value in found.items() if key not in several}


def _input_arrays(fn: Any, known: dict[int, Any]) -> list[Any] | None:
    """The numpy values of the node's inputs, in order, or None if one is unknown."""
    op = fn.op
    saved_at = {what: index for index, what in enumerate(op.saves) if what != "result"}
    arrays = []
    for position, (child, output_nr) in enumerate(fn.next_functions):
        value = None
        if child is not None and output_nr == 0:
            value = getattr(child, "variable", None)
            if value is None:
                value = known.get(id(child))
        if value is None and position in saved_at:
            try:
                value = fn.saved_values()[saved_at[position]]
            except RuntimeError:  # freed
                return None
        if value is None:
            return None
        arrays.append(value.detach().numpy() if hasattr(value, "detach") else value)
    return arrays


def _replayed(fn: Any, known: dict[int, Any]) -> Any:
    """The node's output recomputed by its op's forward, or None when that is not exact."""
    op = getattr(fn, "op", None)
    if op is None or op.variadic or op.n_outputs != 1 or not op.keeps_params:
        return None
    arrays = _input_arrays(fn, known)
    dtypes = {array.dtype for array in arrays or () if isinstance(array, np.ndarray)}
    if not arrays or len(dtypes) != 1:  # Python numbers are weak: they keep the tensors' dtype
        return None
    try:
        out = op.forward(*arrays, **(fn._params or {}))
    except Exception:  # a forward needing what the node did not keep: no value shown
        return None
    return torch.as_tensor(np.asarray(out))


def node_outputs(nodes: list[Any], known: dict[int, Any]) -> dict[int, Any]:
    """id(node) -> its output tensor, for the `nodes` (a graph's, as `build.walk` lists them)
    whose value can be recovered; `known` holds outputs already known (named variables, the
    result)."""
    values = {**_saved_outputs(nodes), **known}
    for fn in reversed(nodes):  # inputs before the nodes that use them (a DAG, breadth first)
        if id(fn) not in values and not hasattr(fn, "variable"):
            value = _replayed(fn, values)
            if value is not None:
                values[id(fn)] = value
    return values
