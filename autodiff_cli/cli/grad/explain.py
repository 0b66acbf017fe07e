"""`--explain`: the backward pass step by step, as the tutorials do it by hand.

Nothing here recomputes gradients: a post hook on every node of the graph records, while the
engine's own `backward` runs, what the node received and what it sent to each input. The local
derivative rules come from the op table (`node.op.rules`, one per input); the numbers each rule
used are its node's inputs, output and parameters as they were before the backward pass (the
values `node_values` recovers, the constants `provenance` noted), written into the rule:
`∂out/∂self = exponent · self^(exponent-1) = 2 · 3.^(2-1)`. Each node also says which source
text made it (`PowBackward0 ← x**2`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import autodiff_cli.engine as torch
from autodiff_cli.cli.grad.result import tensor_to_json
from autodiff_cli.cli.graph.build import node_name, small_value, walk
from autodiff_cli.cli.graph.node_values import node_outputs
from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang.runtime.provenance import note_of


@dataclass
class Step:
    number: int  # execution order, from 1
    name: str  # MulBackward0, AccumulateGrad
    variable: str | None  # the leaf's name, for AccumulateGrad
    received: Any  # the gradient of the node's output
    sent: list[tuple[int | None, str, str, Any]] = field(default_factory=list)
    # (target step number or None for a constant input, input name, local rule, gradient sent)
    source: str | None = None  # the source text that made the node (`x**2`)
    numbers: dict[str, str] = field(default_factory=dict)  # rule name -> its value, as text
    node: Any = None  # the grad_fn (for `--explain --formula`)


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
    names = {id(leaf): name for name, leaf in leaves.items()}
    records: list[tuple[Any, tuple, tuple]] = []
    handles = []
    used = rule_values(result) if result.grad_fn is not None else {}
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
        note = note_of(fn)
        step.source = note.label() if note is not None else None
        step.numbers = used.get(id(fn), {})
        step.node = fn
        for position, (target, _number) in enumerate(getattr(fn, "next_functions", ())):
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


def _value_text(value: Any) -> str:
    """A value a rule used: a small tensor's elements, a large one's shape, a number."""
    if hasattr(value, "numel"):
        return small_value(value) or f"<shape {list(value.shape)}>"
    return repr(value)


def rule_values(result: Any) -> dict[int, dict[str, str]]:
    """id(node) -> {name in its rules: value as text}: the node's inputs (`self`, `other`...,
    by the op's argument names), its output (`result`) and its parameters, as they are now
    (call it before the backward pass frees what the nodes saved)."""
    nodes = walk(result.grad_fn)
    outputs = node_outputs(nodes, {id(result.grad_fn): result})
    found: dict[int, dict[str, str]] = {}
    for fn in nodes:
        op = getattr(fn, "op", None)
        if op is None or op.variadic:
            continue
        note = note_of(fn)
        values: dict[str, Any] = {}
        for position, (child, _nr) in enumerate(fn.next_functions):
            name = op.arg_names[position] if position < len(op.arg_names) else None
            if name is None:
                continue
            value = None
            if child is not None:
                value = getattr(child, "variable", None)
                if value is None:
                    value = outputs.get(id(child))
            elif note is not None and note.op is op and position < len(note.inputs):
                constant = note.inputs[position]
                value = constant if isinstance(constant, (int, float)) else None
            if value is not None:
                values[name] = value
        if id(fn) in outputs:
            values["result"] = outputs[id(fn)]
        values.update(fn._params or {})
        found[id(fn)] = {
            name: _value_text(value)
            for name, value in values.items()
            if value is not None and not isinstance(value, (str, tuple, list))
        }
    return found


_WORD = re.compile(r"[A-Za-z_]\w*")


def with_numbers(rule: str, numbers: dict[str, str]) -> str | None:
    """The rule with each of its names replaced by its value; None when a name's value is not
    known (or the rule has no name to replace)."""
    replaced = False

    def value(match: re.Match) -> str:
        nonlocal replaced
        word = match.group(0)
        if word in _RULE_NAMES:
            if word not in numbers:
                raise KeyError(word)
            replaced = True
            return numbers[word]
        return word

    try:
        text = _WORD.sub(value, rule)
    except KeyError:
        return None
    return text if replaced else None


# the names op-table rules use for inputs, output and parameters
_RULE_NAMES = frozenset(
    ("self", "other", "result", "exponent", "base", "alpha", "weight", "end", "beta", "min",
     "max", "eps", "lambd", "threshold", "negative_slope")
)  # fmt: skip


def explain_lines(
    walk_: Walk, local: dict | None = None, closing: list[str] | None = None
) -> list[str]:
    """The walk as text: one paragraph per node, then each leaf's accumulated gradient. With
    `--formula`, `local` gives each (step, input)'s local derivative as a formula and `closing`
    the chain rule assembled (`formulas.chain_rule`)."""
    by_number = {step.number: step for step in walk_.steps}

    def target_label(number: int | None) -> str:
        if number is None:
            return _("(constant: needs no gradient)")
        target = by_number[number]
        if target.variable is not None:
            return f"[{number}] AccumulateGrad ({target.variable})"
        return f"[{number}] {target.name}"

    lines = [
        _("backward pass, step by step (seed: ∂out/∂out = {seed}):").format(seed=_text(walk_.seed))
    ]
    for step in walk_.steps:
        if step.variable is not None:
            parts = [
                _("{value} from [{number}]").format(value=_text(sent), number=source.number)
                for source in walk_.steps
                for number, _argument, _rule, sent in source.sent
                if number == step.number
            ]
            total = " + ".join(parts) + " = " if len(parts) > 1 else ""
            lines.append(
                f"[{step.number}] AccumulateGrad ({step.variable}): "
                f"{step.variable}.grad += {total}{_text(step.received)}"
            )
            continue
        title = f"{step.name} ← {step.source}" if step.source else step.name
        received = _text(step.received)
        lines.append(
            _("[{number}] {title} receives grad = {received}").format(
                number=step.number, title=title, received=received
            )
        )
        for position, (number, argument, rule, sent) in enumerate(step.sent):
            if number is None:
                lines.append(
                    "      "
                    + _("∂out/∂{argument}: constant input, nothing sent").format(argument=argument)
                )
                continue
            filled = with_numbers(rule, step.numbers)
            factor = rule if filled is None else filled
            if any(sign in factor for sign in (" + ", " - ", " / ")):
                factor = f"({factor})"
            product = f"{received} · {factor}"
            rule_text = f"{rule} = {filled}" if filled is not None else rule
            lines.append(
                f"      ∂out/∂{argument} = {rule_text};  {product} = {_text(sent)}"
                f"  → {target_label(number)}"
            )
            if local and (step.number, position) in local:
                formula = local[(step.number, position)]
                lines.append("        " + _("as a formula: {formula}").format(formula=formula))
    lines.append(_("accumulated gradients:"))
    for name, grad in walk_.gradients.items():
        lines.append(f"  {name}.grad = {_text(grad)}")
    lines.extend(closing or ())
    return lines


def explain_json(walk_: Walk, local: dict | None = None) -> list[dict[str, Any]]:
    """The steps as JSON; each node's `source`, each send's rule `with_numbers` and, with
    `--formula`, its local derivative as a `formula`."""

    def value(tensor: Any) -> Any:
        return None if tensor is None else tensor_to_json(tensor)

    return [
        {
            "step": step.number,
            "name": step.name,
            "variable": step.variable,
            "source": step.source,
            "received": value(step.received),
            "sends": [
                {
                    "to": number,
                    "input": argument,
                    "rule": rule,
                    "with_numbers": with_numbers(rule, step.numbers),
                    "formula": (local or {}).get((step.number, position)),
                    "gradient": value(sent),
                }
                for position, (number, argument, rule, sent) in enumerate(step.sent)
            ],
        }
        for step in walk_.steps
    ]
