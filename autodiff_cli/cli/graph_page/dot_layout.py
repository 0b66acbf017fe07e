"""Graphviz's layout of the page's boxes, when `dot` is installed: boxes of our sizes with no
label (no script text reaches Graphviz), read back from `dot -Tplain` as centres and edge
splines; the page draws them itself."""

from __future__ import annotations

import shutil
import subprocess

DPI = 72.0  # Graphviz's points per inch
TIMEOUT = 10.0  # seconds; past this the layered layout is used
MAX_BOXES = 500  # larger graphs can take dot minutes (a weight shared by every step of a loop)
QUICK_FROM = 100  # from this many boxes, dot's network simplex is cut short (nslimit)


class DotLayout:
    def __init__(self, nodes: dict[str, tuple[float, float]], edges: dict[str, list]) -> None:
        self.nodes = nodes  # box -> centre (px, y down)
        self.edges = edges  # edge id -> spline control points [[x, y], ...]


def dot_program() -> str | None:
    return shutil.which("dot")


def dot_source(
    visible: list[str], sizes: dict[str, tuple[float, float]], edges: list[tuple[str, str, str]]
) -> str:
    quick = " nslimit=1; nslimit1=1;" if len(visible) >= QUICK_FROM else ""
    lines = [
        "digraph page {",
        "  rankdir=TB; nodesep=0.45; ranksep=0.8;" + quick,
        '  node [shape=box, fixedsize=true, label=""];',
    ]
    for box in visible:
        width, height = sizes[box]
        lines.append(f"  {box} [width={width / DPI:.3f}, height={height / DPI:.3f}];")
    lines.extend(f"  {source} -> {target};" for source, target, _ in edges)
    lines.append("}")
    return "\n".join(lines) + "\n"


def dot_layout(
    visible: list[str], sizes: dict[str, tuple[float, float]], edges: list[tuple[str, str, str]]
) -> DotLayout | str:
    """The layout by `dot`, or why there is none (not installed, too large, too slow, failed)."""
    dot = dot_program()
    if dot is None:
        return "Graphviz is not installed"
    if len(visible) > MAX_BOXES:
        return f"over {MAX_BOXES} boxes are too many for Graphviz's dot"
    try:
        done = subprocess.run(
            [dot, "-Tplain"],
            input=dot_source(visible, sizes, edges).encode(),
            capture_output=True,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return f"Graphviz's dot took over {TIMEOUT:.0f} s"
    except OSError as error:
        return f"Graphviz's dot failed: {error.strerror}"
    if done.returncode != 0:
        return "Graphviz's dot failed"
    return _parsed(done.stdout.decode(errors="replace"), edges) or "Graphviz's dot failed"


def _parsed(plain: str, edges: list[tuple[str, str, str]]) -> DotLayout | None:
    """Centres and splines from `-Tplain` (inches, y up), as px with y down."""
    height = None
    nodes: dict[str, tuple[float, float]] = {}
    splines: dict[tuple[str, str], list[list]] = {}
    try:
        for line in plain.splitlines():
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "graph":
                height = float(parts[3])
            elif parts[0] == "node" and height is not None:
                x, y = float(parts[2]), float(parts[3])
                nodes[parts[1]] = (round(x * DPI, 1), round((height - y) * DPI, 1))
            elif parts[0] == "edge" and height is not None:
                count = int(parts[3])
                numbers = [float(value) for value in parts[4 : 4 + 2 * count]]
                points = [
                    [round(numbers[i] * DPI, 1), round((height - numbers[i + 1]) * DPI, 1)]
                    for i in range(0, len(numbers), 2)
                ]
                splines.setdefault((parts[1], parts[2]), []).append(points)
    except (ValueError, IndexError):
        return None
    routes = {}
    for source, target, key in edges:
        queue = splines.get((source, target))
        if queue:
            routes[key] = queue.pop(0)
    return DotLayout(nodes, routes)
