"""`--explain`: the backward pass step by step, as the tutorials do it by hand.

Nothing here recomputes gradients: a post hook on every node of the graph records, while the
engine's own `backward` runs, what the node received and what it sent to each input. The local
derivative rules come from the op table (`node.op.rules`, one per input).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from autodiff_cli.cli.graphs import node_name, small_value, walk


@dataclass
class Step:
    number: int  # execution order, from 1
    name: str  # MulBackward0, AccumulateGrad
    variable: str | None  # the leaf's name, for AccumulateGrad
    received: Any  # the gradient of the node's output
    sent: list[tuple[int | None, str, str, Any]] = field(default_factory=list)
    # (target step number or None for a constant input, input name, local rule, gradient sent)


@dataclass
class Walk:
    steps: list[Step]
    seed: Any
    gradients: dict[str, Any]  # leaf name -> accumulated .grad


def _rule_for(fn: Any, index: int) -> tuple[str, str]:
    """(input name, local derivative rule) of input `index` of a node."""
    op = getattr(fn, "op", None)
    rules = tuple(getattr(op, "rules", ()) or ())
    arg_names = tuple(getattr(op, "arg_names", ()) or ())
    if getattr(op, "variadic", False):
        return f"input {index}", rules[0] if rules else "?"
    argument = arg_names[index] if index < len(arg_names) else f"input {index}"
    rule = rules[index] if index < len(rules) else "?"
    return argument, rule


def leaves_of(result: Any) -> set[int]:
    """id() of every leaf tensor whose gradient `result.backward()` would accumulate."""
    if result.grad_fn is None:
        return {id(result)} if result.requires_grad else set()
    return {id(fn.variable) for fn in walk(result.grad_fn) if hasattr(fn, "variable")}


def explained_backward(
    result: Any, seed: Any, leaves: dict[str, Any], *, retain_graph: bool = False
) -> Walk:
    """Run `result.backward(seed)` with recording hooks; the steps in execution order."""
    import autodiff_cli.engine as torch

    names = {id(leaf): name for name, leaf in leaves.items()}
    records: list[tuple[Any, tuple, tuple]] = []
    handles = []
    for fn in walk(result.grad_fn) if result.grad_fn is not None else ():

        def record(grad_inputs: tuple, grad_outputs: tuple, fn: Any = fn) -> None:
            records.append((fn, tuple(grad_inputs), tuple(grad_outputs)))

        handles.append(fn.register_hook(record))
    try:
        result.backward(seed, retain_graph=retain_graph)
    finally:
        for handle in handles:
            handle.remove()

    numbers = {id(fn): index + 1 for index, (fn, _, _) in enumerate(records)}
    steps = []
    for index, (fn, grad_inputs, grad_outputs) in enumerate(records):
        variable = getattr(fn, "variable", None)
        step = Step(
            index + 1,
            node_name(fn),
            names.get(id(variable), "unnamed leaf") if hasattr(fn, "variable") else None,
            grad_outputs[0] if grad_outputs else None,
        )
        for position, (target, _) in enumerate(getattr(fn, "next_functions", ())):
            argument, rule = _rule_for(fn, position)
            sent = grad_inputs[position] if position < len(grad_inputs) else None
            step.sent.append(
                (numbers.get(id(target)) if target is not None else None, argument, rule, sent)
            )
        steps.append(step)
    if seed is None:
        seed = torch.ones_like(result)
    gradients = {name: leaf.grad for name, leaf in leaves.items() if leaf.requires_grad}
    return Walk(steps, seed, gradients)


def _text(tensor: Any) -> str:
    if tensor is None:
        return "None"
    return small_value(tensor) or f"<tensor of shape {list(tensor.shape)}>"


def explain_lines(walk_: Walk) -> list[str]:
    """The walk as text: one paragraph per node, then each leaf's accumulated gradient."""
    by_number = {step.number: step for step in walk_.steps}

    def target_label(number: int | None) -> str:
        if number is None:
            return "(constant: needs no gradient)"
        target = by_number[number]
        if target.variable is not None:
            return f"[{number}] AccumulateGrad ({target.variable})"
        return f"[{number}] {target.name}"

    lines = [f"backward pass, step by step (seed: ∂out/∂out = {_text(walk_.seed)}):"]
    for step in walk_.steps:
        if step.variable is not None:
            parts = [
                f"{_text(sent)} from [{source.number}]"
                for source in walk_.steps
                for number, _, _, sent in source.sent
                if number == step.number
            ]
            total = " + ".join(parts) + " = " if len(parts) > 1 else ""
            lines.append(
                f"[{step.number}] AccumulateGrad ({step.variable}): "
                f"{step.variable}.grad += {total}{_text(step.received)}"
            )
            continue
        lines.append(f"[{step.number}] {step.name} receives grad = {_text(step.received)}")
        for number, argument, rule, sent in step.sent:
            if number is None:
                lines.append(f"      ∂out/∂{argument}: constant input, nothing sent")
                continue
            lines.append(
                f"      ∂out/∂{argument} = {rule};  grad · {rule} = {_text(sent)}"
                f"  → {target_label(number)}"
            )
    lines.append("accumulated gradients:")
    for name, grad in walk_.gradients.items():
        lines.append(f"  {name}.grad = {_text(grad)}")
    return lines


def explain_json(walk_: Walk) -> list[dict[str, Any]]:
    from autodiff_cli.cli.grad_result import tensor_to_json

    def value(tensor: Any) -> Any:
        return None if tensor is None else tensor_to_json(tensor)

    return [
        {
            "step": step.number,
            "name": step.name,
            "variable": step.variable,
            "received": value(step.received),
            "sends": [
                {"to": number, "input": argument, "rule": rule, "gradient": value(sent)}
                for number, argument, rule, sent in step.sent
            ],
        }
        for step in walk_.steps
    ]
