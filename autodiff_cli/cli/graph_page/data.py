"""The page's data, made where the script ran (the locked-down child): the grad_fn graph of a
tensor as plain JSON-able data, with the steps of one backward pass as the engine ran them.

Nothing is recomputed here: the order of the steps and every gradient come from recording hooks
on the engine's own `backward` (`explain.explained_backward`, what `--explain` shows), and the
values from the tensors themselves. The pass keeps the graph (`retain_graph=True`) and gives
every `.grad` it touched its old value back, so drawing a REPL variable changes nothing.
"""

from __future__ import annotations

import contextlib
import sys
import warnings
from typing import Any

import autodiff_cli.engine as torch
from autodiff_cli.cli.grad import (
    explain,
    result,  # noqa: F401  (explain_json needs it in the jail)
)
from autodiff_cli.cli.graph import build as graphs
from autodiff_cli.cli.graph import node_values
from autodiff_cli.cli.graph.build import CHAIN_KEEP, build_graph, long_runs, saved_values, walk
from autodiff_cli.cli.graph_page.values import tensor_text

FORMAT_VERSION = 1


def page_data(value: Any, names: dict[str, Any], label: str, *, seed: Any = None) -> dict:
    """The data of the page of `value` (a tensor with a grad_fn), its variables named after
    `names` (a namespace); `seed` is the gradient backward starts from (ones by default).
    GraphError when there is nothing to draw."""
    graphs.graph_of_checked(value, label)
    fns = walk(value.grad_fn)
    index = {id(fn): key for key, fn in enumerate(fns)}
    leaves, outputs, output_names = _named(names, torch)
    outputs.setdefault(id(value.grad_fn), value)
    output_names.setdefault(id(value.grad_fn), label)
    structure = build_graph(value.grad_fn, {id(t): n for n, t in leaves.items()})
    saved = saved_values(value)
    values = node_values.node_outputs(fns, outputs)
    nodes = [
        _node(key, fn, structure.nodes[key], values, saved, output_names, index)
        for key, fn in enumerate(fns)
    ]
    in_graph = {id(node.variable) for node in fns if hasattr(node, "variable")}
    retained = [t for t in outputs.values() if t.retains_grad]
    named_leaves = {n: t for n, t in leaves.items() if id(t) in in_graph}
    steps, gradients, error = _backward_steps(value, seed, named_leaves, fns, index, retained)
    for step in steps:
        node = nodes[step["node"]]
        shape = step.pop("shape_of_received")
        if node["shape"] is None and shape is not None:
            node["shape"] = shape
        if step.get("source") is not None and node["source"] is None:
            node["source"] = step["source"]
    for gradient in gradients:
        nodes[gradient["node"]]["grad"] = gradient["grad"]
    runs = [
        {
            "nodes": [node.key for node in run],
            "hidden": [node.key for node in run[CHAIN_KEEP:-CHAIN_KEEP]],
            "name": run[0].name,
            "label": f"… {len(run) - 2 * CHAIN_KEEP:,} × {run[0].name} …",
        }
        for run in long_runs(structure)
    ]
    return {
        "version": FORMAT_VERSION,
        "result": {
            "name": label,
            "shape": list(value.shape),
            "value": tensor_text(value),
            "root": 0,
        },
        "nodes": nodes,
        "runs": runs,
        "steps": steps,
        "seed": tensor_text(seed) if seed is not None else tensor_text(torch.ones_like(value)),
        "gradients": gradients,
        "backward_error": error,
    }


def _named(names: dict[str, Any], torch: Any) -> tuple[dict, dict, dict]:
    """The namespace's leaves that require grad (name -> tensor), and the tensors of named
    results (id(grad_fn) -> tensor, id(grad_fn) -> name)."""
    leaves: dict[str, Any] = {}
    outputs: dict[int, Any] = {}
    output_names: dict[int, str] = {}
    seen: set[int] = set()
    for name, tensor in names.items():
        if not isinstance(tensor, torch.Tensor) or name.startswith("_"):
            continue
        if tensor.grad_fn is None and tensor.requires_grad and id(tensor) not in seen:
            seen.add(id(tensor))
            leaves[name] = tensor
        elif tensor.grad_fn is not None and id(tensor.grad_fn) not in outputs:
            outputs[id(tensor.grad_fn)] = tensor
            output_names[id(tensor.grad_fn)] = name
    return leaves, outputs, output_names


def _node(
    key: int,
    fn: Any,
    drawn: Any,
    values: dict[int, Any],
    saved: dict[int, list],
    output_names: dict[int, str],
    index: dict[int, int],
) -> dict:
    is_leaf = hasattr(fn, "variable")
    produced = fn.variable if is_leaf else values.get(id(fn))
    return {
        "id": key,
        "name": drawn.name,
        "kind": "leaf" if is_leaf else "op",
        "variable": (drawn.label or None) if is_leaf else output_names.get(id(fn)),
        "shape": list(produced.shape) if produced is not None else None,
        "value": tensor_text(produced) if produced is not None else None,
        "inputs": [None if child is None else index[id(child)] for child, _ in fn.next_functions],
        "next_functions": [
            "None" if child is None else f"({drawn_name(child)}, {nr})"
            for child, nr in fn.next_functions
        ],
        "saved": [[name, text] for name, text in saved.get(id(fn), [])],
        "hooks": _hooks_of(fn),
        "retains_grad": _retains_grad(fn),
        "grad": None,
        "source": None,
    }


def drawn_name(fn: Any) -> str:
    return graphs.node_name(fn)


def _count(hooks: Any) -> int:
    return len(hooks) if isinstance(hooks, dict) else 0


def _hooks_of(fn: Any) -> list[str]:
    """The hooks registered on a node (and on the tensor it stands for), counted by kind."""
    hooks = getattr(fn, "_hooks", None)
    counts = []
    if hooks is not None:
        tensor_hooks = sum(_count(group) for group in (hooks.tensor or {}).values())
        counts += [(_count(hooks.pre), "pre-hook"), (_count(hooks.post), "post hook")]
        counts.append((tensor_hooks, "tensor hook"))
    variable = getattr(fn, "variable", None)
    if variable is not None:
        counts.append((_count(variable._leaf_hooks), "tensor hook"))
        counts.append((_count(variable._post_accumulate_hooks), "post-accumulate-grad hook"))
    totals: dict[str, int] = {}
    for number, kind in counts:
        totals[kind] = totals.get(kind, 0) + number
    return [f"{n} {kind}{'s' if n > 1 else ''}" for kind, n in totals.items() if n]


def _retains_grad(fn: Any) -> bool:
    hooks = getattr(fn, "_hooks", None)
    retained = hooks.retained if hooks is not None else None
    return bool(retained) and any(ref() is not None for ref in retained.values())


def _backward_steps(
    value: Any,
    seed: Any,
    leaves: dict[str, Any],
    fns: list[Any],
    index: dict[int, int],
    retained: list[Any],
) -> tuple[list[dict], list[dict], str | None]:
    """The engine's backward pass, recorded: (steps, each leaf's .grad, error or None).
    `retained` are the tensors whose `.grad` the pass fills besides the leaves."""
    order: list[Any] = []
    handles = []
    for fn in fns:  # registered before explain's own hooks: one entry per recorded step

        def record(grad_inputs: tuple, grad_outputs: tuple, fn: Any = fn) -> None:
            order.append(fn)

        handles.append(fn.register_hook(record))
    kept = [fn.variable for fn in fns if hasattr(fn, "variable")]
    try:
        with _grads_kept([*kept, *retained]), contextlib.redirect_stdout(sys.stderr):
            walked = explain.explained_backward(value, seed, leaves, retain_graph=True)
            final = {id(leaf): tensor_text(leaf.grad) for leaf in kept if leaf.grad is not None}
    except Exception as error:  # a freed graph, a hook that fails: the graph still shows
        return [], [], f"{type(error).__name__}: {error}"
    finally:
        for handle in handles:
            handle.remove()
    recorded = explain.explain_json(walked)  # with grad_result's JSON of each tensor
    steps = []
    for fn, step, described in zip(order, walked.steps, recorded):
        sends = []
        for position, (number, argument, rule, sent) in enumerate(step.sent):
            child = fn.next_functions[position][0] if position < len(fn.next_functions) else None
            sends.append(
                {
                    "position": position,
                    "to": None if child is None or number is None else index[id(child)],
                    "input": argument,
                    "rule": rule,
                    "gradient": tensor_text(sent) if sent is not None else None,
                }
            )
        received = step.received
        entry = {
            "node": index[id(fn)],
            "received": tensor_text(received) if received is not None else None,
            "sends": sends,
            "shape_of_received": list(received.shape) if received is not None else None,
        }
        if isinstance(described, dict) and isinstance(described.get("source"), str):
            entry["source"] = described["source"]
        steps.append(entry)
    gradients = []
    for fn in fns:
        variable = getattr(fn, "variable", None)
        if variable is not None and id(variable) in final:
            gradients.append({"node": index[id(fn)], "grad": final[id(variable)]})
    return steps, gradients, None


@contextlib.contextmanager
def _grads_kept(leaves: list[Any]) -> Any:
    """Every leaf's `.grad` as it was before, once the block ends."""
    before = [(leaf, leaf.grad) for leaf in leaves]
    try:
        yield
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for leaf, grad in before:
                leaf.grad = grad
