"""What each box of the page shows, and how big it is: the layout needs the sizes, and the page
draws exactly these lines. Boxes are named `n<node>` (a graph node), `r<run>` (a collapsed run)
and `result`; edges go from an input to the node that used it, as data flows."""

from __future__ import annotations

from dataclasses import dataclass, field

from autodiff_cli.cli.graph_page.values import one_line

CHAR_WIDTH = 7.2  # px of one character of the boxes' 12px monospace font
LINE_HEIGHT = 16
PADDING = 10
MIN_WIDTH = 96


@dataclass
class Box:
    lines: list[str]
    kind: str  # "op", "leaf", "run", "result"
    width: float = 0.0
    height: float = 0.0
    later: list[str] = field(default_factory=list)  # lines the step-through shows in it

    def __post_init__(self) -> None:
        longest = max(len(line) for line in self.lines + self.later)
        self.width = round(max(MIN_WIDTH, longest * CHAR_WIDTH + 2 * PADDING), 1)
        # one line more than shown: the gradient the node receives, during the step-through
        self.height = (len(self.lines) + 1) * LINE_HEIGHT + PADDING


@dataclass
class VisibleGraph:
    boxes: dict[str, Box]  # every box, hidden run members included
    visible: list[str]  # the boxes drawn while every run is collapsed
    edges: list[tuple[str, str, str]] = field(default_factory=list)  # (input, user, edge id)


def _value_line(node: dict) -> str:
    if node.get("value") is not None:
        return one_line(node["value"]) or ""
    if node.get("shape") is not None:
        return f"shape {node['shape']}"
    return "value not kept"


def node_box(node: dict, received: str | None = None) -> Box:
    """The box of a graph node; `received` is the gradient its backward step gets, shown in
    the box during the step-through (the box is made wide enough for it)."""
    later = []
    if received is not None:
        later.append(one_line(("+= " if node["kind"] == "leaf" else "grad ") + received) or "")
    if node.get("grad") is not None:
        later.append(one_line(".grad = " + node["grad"]) or "")
    if node["kind"] == "leaf":
        lines = [one_line(node["variable"] or "(unnamed leaf)"), node["name"], _value_line(node)]
        return Box([line or "" for line in lines], "leaf", later=later)
    lines = [node["name"]]
    if node.get("source"):
        lines.append(one_line(node["source"]) or "")
    value = _value_line(node)
    if node.get("variable"):
        value = one_line(f"{node['variable']} = {value}") or ""
    lines.append(value)
    return Box(lines, "op", later=later)


def visible_graph(data: dict) -> VisibleGraph:
    """The boxes and the edges of the page with every collapsed run closed."""
    nodes = data["nodes"]
    received = {step["node"]: step["received"] for step in data["steps"]}
    boxes = {f"n{node['id']}": node_box(node, received.get(node["id"])) for node in nodes}
    run_of: dict[int, int] = {}
    for number, run in enumerate(data["runs"]):
        boxes[f"r{number}"] = Box([run["label"], "click to expand"], "run")
        run_of.update((key, number) for key in run["hidden"])
    result = data["result"]
    value = one_line(result["value"]) if result.get("value") else f"shape {result['shape']}"
    boxes["result"] = Box([one_line(result["name"]) or "", value or ""], "result")
    visible = [f"n{node['id']}" for node in nodes if node["id"] not in run_of]
    visible += [f"r{number}" for number in range(len(data["runs"]))] + ["result"]
    edges = []
    for node in nodes:
        if node["id"] in run_of:
            continue
        for position, key in enumerate(node["inputs"]):
            if key is None:
                continue
            source = f"r{run_of[key]}" if key in run_of else f"n{key}"
            edges.append((source, f"n{node['id']}", f"e{node['id']}.{position}"))
    for number, run in enumerate(data["runs"]):
        above = run["nodes"][run["nodes"].index(run["hidden"][-1]) + 1]
        edges.append((f"n{above}", f"r{number}", f"r{number}.0"))
    edges.append((f"n{result['root']}", "result", "result.0"))
    return VisibleGraph(boxes, visible, edges)
