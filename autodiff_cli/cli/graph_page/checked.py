"""The page data as this process may trust it: the child that made it ran an untrusted script,
so every field is checked for its type (and every node number for its range) before the page
is laid out. What the page shows of it is text, rendered as text (never as HTML)."""

from __future__ import annotations

from typing import Any

from autodiff_cli.cli.graph.export import RenderError


class BadPageData(RenderError):
    """The data is not what `data.page_data` makes."""


def _fail(where: str) -> None:
    raise BadPageData(f"malformed graph data ({where})")


def _text(value: Any, where: str, *, optional: bool = True) -> None:
    if not (type(value) is str or (optional and value is None)):
        _fail(where)


def _ints(value: Any, where: str) -> None:
    if type(value) is not list or not all(type(item) is int and item >= 0 for item in value):
        _fail(where)


def _node_ref(value: Any, count: int, where: str, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if type(value) is not int or not 0 <= value < count:
        _fail(where)


def _texts(value: Any, where: str) -> None:
    if type(value) is not list or not all(type(item) is str for item in value):
        _fail(where)


def _check_node(node: Any, key: int, count: int) -> None:
    where = f"node {key}"
    if type(node) is not dict or node.get("id") != key or type(node.get("id")) is not int:
        _fail(where)
    if node.get("kind") not in ("op", "leaf"):
        _fail(where + " kind")
    _text(node.get("name"), where + " name", optional=False)
    for name in ("variable", "value", "grad", "source"):
        _text(node.get(name), f"{where} {name}")
    if node.get("shape") is not None:
        _ints(node.get("shape"), where + " shape")
    inputs = node.get("inputs")
    if type(inputs) is not list:
        _fail(where + " inputs")
    for item in inputs:
        _node_ref(item, count, where + " inputs", optional=True)
    _texts(node.get("next_functions"), where + " next_functions")
    _texts(node.get("hooks"), where + " hooks")
    saved = node.get("saved")
    if type(saved) is not list or not all(
        type(pair) is list and len(pair) == 2 and all(type(s) is str for s in pair)
        for pair in saved
    ):
        _fail(where + " saved")
    if type(node.get("retains_grad")) is not bool:
        _fail(where + " retains_grad")


def _check_step(step: Any, number: int, count: int) -> None:
    where = f"step {number}"
    if type(step) is not dict:
        _fail(where)
    _node_ref(step.get("node"), count, where + " node")
    _text(step.get("received"), where + " received")
    _text(step.get("source"), where + " source")
    sends = step.get("sends")
    if type(sends) is not list:
        _fail(where + " sends")
    for send in sends:
        if type(send) is not dict or type(send.get("position")) is not int:
            _fail(where + " sends")
        _node_ref(send.get("to"), count, where + " sends", optional=True)
        for name in ("input", "rule", "gradient"):
            _text(send.get(name), f"{where} sends {name}")


def _check_run(run: Any, count: int) -> None:
    if type(run) is not dict:
        _fail("runs")
    _ints(run.get("nodes"), "runs")
    _ints(run.get("hidden"), "runs")
    if not all(key < count for key in run["nodes"]) or len(run["hidden"]) < 1:
        _fail("runs")
    if not set(run["hidden"]) <= set(run["nodes"]) or len(run["nodes"]) < len(run["hidden"]) + 2:
        _fail("runs")
    _text(run.get("name"), "runs name", optional=False)
    _text(run.get("label"), "runs label", optional=False)


def checked_page_data(data: Any) -> dict:
    """`data` itself when it has the shape `data.page_data` gives it; BadPageData if not."""
    if type(data) is not dict or data.get("version") != 1:
        _fail("version")
    nodes = data.get("nodes")
    if type(nodes) is not list or not nodes:
        _fail("nodes")
    count = len(nodes)
    for key, node in enumerate(nodes):
        _check_node(node, key, count)
    result = data.get("result")
    if type(result) is not dict:
        _fail("result")
    _text(result.get("name"), "result name", optional=False)
    _text(result.get("value"), "result value")
    _ints(result.get("shape"), "result shape")
    _node_ref(result.get("root"), count, "result root")
    for field in ("runs", "steps", "gradients"):
        if type(data.get(field)) is not list:
            _fail(field)
    hidden: set[int] = set()
    for run in data["runs"]:
        _check_run(run, count)
        if hidden & set(run["hidden"]) or result["root"] in run["hidden"]:
            _fail("runs overlap")
        hidden.update(run["hidden"])
    for number, step in enumerate(data["steps"], 1):
        _check_step(step, number, count)
    for gradient in data["gradients"]:
        if type(gradient) is not dict:
            _fail("gradients")
        _node_ref(gradient.get("node"), count, "gradients node")
        _text(gradient.get("grad"), "gradients grad", optional=False)
    _text(data.get("seed"), "seed")
    _text(data.get("backward_error"), "backward_error")
    return data
