"""Drawing a `Graph` as text (tree, DOT, Mermaid) or as a picture (SVG, PNG through Graphviz).

As in the seed tutorials' pictures, data flows down: tensors (leaves and the result) are boxes,
operations are rounded boxes, and arrows go from an op's inputs to the op.
"""

from __future__ import annotations

import shutil
import subprocess

from autodiff_cli.cli.graph.build import COLLAPSED, LEAF, Graph, GraphNode
from autodiff_cli.cli.graph.tree import render_plain, tree_of

FORMATS = ("tree", "dot", "mermaid", "svg", "png")
TEXT_FORMATS = ("tree", "dot", "mermaid")
GRAPHVIZ_HINT = (
    "Graphviz's `dot` program is needed to render {fmt}, and it is not installed (not on PATH). "
    "Install the `graphviz` package (apt-get install graphviz, brew install graphviz, "
    "choco install graphviz), or use --format dot or --format mermaid for text output."
)


class RenderError(Exception):
    """The picture cannot be made (Graphviz missing or failing): exit status 1."""


def _lines(node: GraphNode) -> list[str]:
    lines = [node.label if node.kind == LEAF and node.label else node.title]
    if node.kind == LEAF and node.label:
        lines = [node.label, node.name]
    if node.shape is not None:
        lines.append(f"shape {list(node.shape)}")
    if node.value is not None:
        lines.append(f"value {node.value}")
    if node.grad is not None:
        lines.append(f"grad {node.grad}")
    lines.extend(f"saved {name}: {text}" for name, text in node.saved)
    return lines


def _result_lines(graph: Graph) -> list[str]:
    lines = [graph.result_name]
    if graph.result_shape is not None:
        lines.append(f"shape {list(graph.result_shape)}")
    if graph.result_value is not None:
        lines.append(f"value {graph.result_value}")
    return lines


def _edges(graph: Graph) -> list[tuple[int, int]]:
    """(input, consumer) pairs, one per input (`x * x` has two), in a stable order."""
    return [(key, node.key) for node in graph.nodes for key in node.inputs if key is not None]


def to_dot(graph: Graph) -> str:
    out = [
        "digraph autograd {",
        "    rankdir=TB;",
        '    node [fontname="Helvetica", fontsize=11];',
    ]
    for node in graph.nodes:
        label = "\\n".join(line.replace("\\", "\\\\").replace('"', '\\"') for line in _lines(node))
        if node.kind == LEAF:
            style = 'shape=box, style=filled, fillcolor="#d9f2d9"'
        elif node.kind == COLLAPSED:
            style = 'shape=box, style="rounded,dashed"'
        else:
            style = 'shape=box, style="rounded,filled", fillcolor="#dde8f7"'
        out.append(f'    n{node.key} [label="{label}", {style}];')
    result = "\\n".join(line.replace('"', '\\"') for line in _result_lines(graph))
    out.append(f'    result [label="{result}", shape=box, style=filled, fillcolor="#f7e3c4"];')
    for source, target in _edges(graph):
        out.append(f"    n{source} -> n{target};")
    out.append(f"    n{graph.root.key} -> result;")
    out.append("}")
    return "\n".join(out) + "\n"


def _mermaid_text(lines: list[str]) -> str:
    return "<br/>".join(line.replace('"', "#quot;") for line in lines)


def to_mermaid(graph: Graph) -> str:
    out = ["graph TD"]
    for node in graph.nodes:
        text = _mermaid_text(_lines(node))
        shape = f'["{text}"]' if node.kind == LEAF else f'("{text}")'
        out.append(f"    n{node.key}{shape}")
    out.append(f'    result["{_mermaid_text(_result_lines(graph))}"]')
    for source, target in _edges(graph):
        out.append(f"    n{source} --> n{target}")
    out.append(f"    n{graph.root.key} --> result")
    return "\n".join(out) + "\n"


def to_tree_text(graph: Graph, *, unicode: bool = True) -> str:
    return render_plain(tree_of(graph, details=True), unicode=unicode) + "\n"


def render_picture(graph: Graph, fmt: str) -> bytes:
    """SVG or PNG bytes drawn by Graphviz's `dot`; RenderError naming the package if absent."""
    return render_dot(to_dot(graph), fmt)


def render_dot(dot_text: str | bytes, fmt: str) -> bytes:
    """SVG or PNG bytes of DOT text (made in a sandboxed child, drawn by `dot` out here; bytes
    as the child wrote them, UTF-8)."""
    dot = shutil.which("dot")
    if dot is None:
        raise RenderError(GRAPHVIZ_HINT.format(fmt=fmt.upper()))
    try:
        done = subprocess.run(
            [dot, f"-T{fmt}"],
            input=dot_text if isinstance(dot_text, bytes) else dot_text.encode(),
            capture_output=True,
            timeout=120,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise RenderError(f"Graphviz's dot failed: {error}") from None
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip()
        raise RenderError(f"Graphviz's dot failed: {message}")
    return done.stdout


def export(graph: Graph, fmt: str, *, unicode: bool = True) -> str | bytes:
    """The graph in `fmt` (one of FORMATS): text for tree/dot/mermaid, bytes for svg/png."""
    if fmt == "tree":
        return to_tree_text(graph, unicode=unicode)
    if fmt == "dot":
        return to_dot(graph)
    if fmt == "mermaid":
        return to_mermaid(graph)
    if fmt in ("svg", "png"):
        return render_picture(graph, fmt)
    raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
