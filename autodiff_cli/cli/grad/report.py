"""The output of `autodiff grad`: a human-readable report (Rich on a terminal) or JSON."""

from __future__ import annotations

import sys
from typing import Any

from autodiff_cli.cli import output
from autodiff_cli.cli.grad import optional
from autodiff_cli.cli.grad.elementwise import diagonal_note, elementwise_lines, hessian_lines
from autodiff_cli.cli.grad.result import (
    ELEMENTWISE,
    GRADIENT,
    HESSIAN,
    JACOBIAN,
    VJP,
    GradResult,
    tensor_to_json,
)
from autodiff_cli.cli.graph.build import build_graph, collapse_chains, node_name
from autodiff_cli.cli.graph.tree import render_plain, tree_of
from autodiff_cli.cli.output.terminal import can_encode, wants_color
from autodiff_cli.engine.core.graph import accumulator
from autodiff_cli.i18n import gettext as _
from autodiff_cli.lang.errors import display_width


def _maybe(tensor: Any) -> Any:
    return None if tensor is None else tensor_to_json(tensor)


def result_json(outcome: GradResult, *, with_graph: bool = False) -> dict[str, Any]:
    """The documented `--json` object (README: "`--json`"); every key is always present."""
    result = outcome.result
    grad_fn = result.grad_fn
    data: dict[str, Any] = {
        "expression": outcome.expression,
        "parsed": outcome.parsed,
        "value": tensor_to_json(result),
        "dtype": result.dtype.name,
        "shape": list(result.shape),
        "grad_fn": node_name(grad_fn) if grad_fn is not None else None,
        "wrt": list(outcome.wrt),
        "mode": outcome.mode,
        "seed": _maybe(outcome.seed),
        "gradients": None,
        "jacobian": None,
        "hessian": None,
        "order": outcome.order,
        "derivatives": None,
        "check": outcome.check,
        "graph": None,
        "formulas": None,
        "formula_check": None,
    }
    if outcome.formula is not None:
        data.update(outcome.formula.data)
    if outcome.gradients is not None:
        data["gradients"] = {name: _maybe(grad) for name, grad in outcome.gradients.items()}
    if outcome.jacobian is not None:
        data["jacobian"] = {name: _maybe(block) for name, block in outcome.jacobian.items()}
    if outcome.hessian is not None:
        data["hessian"] = {
            row: {column: _maybe(block) for column, block in blocks.items()}
            for row, blocks in outcome.hessian.items()
        }
    if outcome.derivatives is not None:
        data["derivatives"] = {name: _maybe(d) for name, d in outcome.derivatives.items()}
    if outcome.explain is not None:
        explain = optional("explain")
        data["graph"] = explain.explain_json(outcome.explain, (outcome.chain or (None,))[0])
    return data


def print_json(outcome: GradResult) -> None:
    json_text = output.optional("json_text")
    sys.stdout.write(json_text.dumps(result_json(outcome), sys.stdout, allow_nan=False) + "\n")


def read_as(parsed: str) -> str:
    """How a math-form expression (`3x²`) was read: its Python spelling."""
    return _("the expression as parsed (Python spelling): {parsed}").format(parsed=parsed)


def _labelled(label: str, text: str) -> str:
    """`label: text`, continuation lines of a multi-line tensor repr indented under the text."""
    indent = " " * (sum(display_width(char) for char in label) + 2)  # 值 takes two columns
    return f"{label}: " + text.replace("\n", "\n" + indent)


def _superscript(number: int) -> str:
    return str(number).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


def _sections(outcome: GradResult) -> list[tuple[str, list[str]]]:
    """(heading, lines) for each derivative the mode computed."""
    sections = []
    if outcome.mode in (GRADIENT, VJP):
        heading = _("gradients:")
        if outcome.mode == VJP:
            heading = _("vector-Jacobian product (seed v = {seed}):").format(
                seed=_one_line(outcome.seed)
            )
        lines = [
            _labelled(f"  {name}.grad", repr(grad)) for name, grad in outcome.gradients.items()
        ]
        sections.append((heading, lines))
    elif outcome.mode == JACOBIAN:
        shape = list(outcome.result.shape)
        heading = _(
            "jacobian (the result is not a scalar: shape {shape}; one row per element):"
        ).format(shape=shape)
        lines = [
            _labelled(f"  d result/d {name} {list(block.shape)}", repr(block))
            for name, block in outcome.jacobian.items()
        ]
        sections.append((heading, lines))
        note = diagonal_note(outcome)
        if note is not None:
            sections.append((note, []))
    elif outcome.mode == ELEMENTWISE:
        sections.append(
            (_("elementwise derivative (one row per element):"), elementwise_lines(outcome))
        )
    elif outcome.mode == HESSIAN and hessian_lines(outcome) is not None:
        sections.append(
            (_("hessian (one matrix, rows and columns by variable):"), hessian_lines(outcome))
        )
    elif outcome.mode == HESSIAN:
        lines = [
            _labelled(f"  d²result/d{row} d{column} {list(block.shape)}", repr(block))
            for row, blocks in outcome.hessian.items()
            for column, block in blocks.items()
        ]
        sections.append((_("hessian:"), lines))
    else:
        n = _superscript(outcome.order)
        lines = [
            _labelled(f"  d{n}result/d{name}{n}", repr(derivative))
            for name, derivative in outcome.derivatives.items()
        ]
        sections.append((_("derivatives of order {order}:").format(order=outcome.order), lines))
    if outcome.check is not None:
        sections.append(
            (_("check (central differences in float64, eps=1e-06):"), _check_lines(outcome.check))
        )
    if outcome.formula is not None:
        sections.append((outcome.formula.heading, outcome.formula.lines))
    if outcome.explain is not None:
        if outcome.parsed is not None:
            sections.append((read_as(outcome.parsed), []))
        local, closing = outcome.chain or (None, None)
        explain = optional("explain")
        lines = explain.explain_lines(outcome.explain, local, closing)
        sections.append((lines[0], ["  " + line for line in lines[1:]]))
    return sections


def _check_lines(check: dict[str, Any]) -> list[str]:
    """The largest error and the verdict, then each element the differences could not judge."""
    where = f" ({check['where']})" if check["where"] else ""
    if check["checked"]:
        errors = (
            f"largest error: {check['max_abs_error']:.3g} absolute{where}, "
            f"{check['max_rel_error']:.3g} relative"
        )
    else:
        errors = "no element could be compared with finite differences"
    lines = [f"  {errors}: {check['verdict']}"]
    lines.extend(f"  {problem['message']}" for problem in check["problems"])
    return lines


def _one_line(tensor: Any) -> str:
    return " ".join(repr(tensor).split())


def print_report(outcome: GradResult, *, with_saved: bool = False, quiet: bool = False) -> None:
    """The human-readable report: value, grad_fn tree, derivatives; styled on a terminal.
    `quiet` (`-q`): only the derivatives' lines, unindented, for a shell pipeline."""
    if quiet:
        lines = [
            line.removeprefix("  ").replace("\n  ", "\n")
            for _heading, body in _sections(outcome)
            for line in body
        ]
        sys.stdout.write("\n".join(lines) + "\n")
        return

    result = outcome.result
    value = _labelled(_("value"), repr(result.detach()))
    leaf_names = {id(leaf): name for name, leaf in outcome.leaves.items()}
    root = result.grad_fn
    if root is None and result.requires_grad:  # the result is a leaf itself: show its node
        root = accumulator(result)
    graph = collapse_chains(
        build_graph(root, leaf_names, with_saved=with_saved, saved=outcome.saved)
    )
    tree = tree_of(graph, details=with_saved)
    sections = _sections(outcome)

    if wants_color(sys.stdout):
        styled = output.optional("styled")
        Text = styled.Text  # noqa: N806
        console = styled.console()
        console.print(Text(value))
        console.print(Text(_("grad_fn graph:"), style="bold"))
        console.print(styled.to_rich(tree))
        for heading, lines in sections:
            console.print(Text(heading, style="bold"))
            for line in lines:
                style = "red" if "MISMATCH" in line or "not checked" in line else None
                if outcome.formula is not None and line in outcome.formula.lines:
                    style = None if outcome.formula.ok else "red"
                console.print(Text(line, style=style or ""))
        return

    tree_text = render_plain(tree, unicode=can_encode(sys.stdout, "├─│└"))
    lines = [value, _("grad_fn graph:"), tree_text]
    for heading, body in sections:
        lines.append(heading)
        lines.extend(body)
    sys.stdout.write("\n".join(lines) + "\n")
