"""The grad_fn graph of a result as a tree of labels, drawn plain (with Rich: `output.styled`,
which reads each node's `label`, `style` and `children`).

The graph is a DAG: a node reached a second time is shown once more by name, marked as shared,
without its inputs again; long runs of one op are collapsed (see `build.collapse_chains`) and
very large or deep graphs are cut off with a marker line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from autodiff_cli.cli.graph.build import Record, build_graph, collapse_chains
from autodiff_cli.cli.graph.build import node_name as name_of

if TYPE_CHECKING:
    from autodiff_cli.cli.graph.build import Graph, GraphNode

MAX_NODES = 200
MAX_DEPTH = 60

OP, LEAF, CONSTANT, SHARED, CUT = "op", "leaf", "constant", "shared", "cut"
STYLES = {OP: "bold cyan", LEAF: "green", CONSTANT: "dim", SHARED: "dim cyan", CUT: "dim"}


class TreeNode(Record):
    """A line of the tree: its text, its kind (OP, LEAF, CONSTANT, SHARED or CUT), its children."""

    def __init__(self, label: str, kind: str, children: list[TreeNode] | None = None) -> None:
        self.label, self.kind = label, kind
        self.children = [] if children is None else children

    @property
    def style(self) -> str:
        """How a terminal that takes colour shows the node (a Rich style)."""
        return STYLES[self.kind]


def node_name(grad_fn: Any) -> str:
    """PyTorch's name for a graph node, e.g. `MulBackward0` or `AccumulateGrad`."""
    return name_of(grad_fn)


def _details(node: GraphNode) -> str:
    parts = []
    if node.shape is not None:
        parts.append(f"shape={list(node.shape)}")
    if node.value is not None:
        parts.append(f"value={node.value}")
    if node.grad is not None:
        parts.append(f"grad={node.grad}")
    parts.extend(f"saved {name}={text}" for name, text in node.saved)
    return "  " + "  ".join(parts) if parts else ""


def tree_of(graph: Graph, *, details: bool = False, max_nodes: int = MAX_NODES) -> TreeNode:
    """The graph as a tree, depth first, first input first. A node reached again is shown by
    name, marked as shared; past `max_nodes` lines the rest is cut off with a marker."""

    def label(node: GraphNode) -> str:
        return node.title + (_details(node) if details else "")

    kinds = {"op": OP, "leaf": LEAF, "collapsed": CUT}
    root_node = graph.root
    root = TreeNode(label(root_node), kinds[root_node.kind])
    seen = {root_node.key}
    count = 1
    stack = [(root_node, root, 0)]
    while stack:
        node, tree, depth = stack.pop()
        if node.inputs and depth >= MAX_DEPTH:
            tree.children.append(TreeNode("… deeper nodes not shown", CUT))
            continue
        pending = []
        for key in node.inputs:
            if count >= max_nodes:
                tree.children.append(TreeNode("… more nodes not shown", CUT))
                break
            count += 1
            if key is None:
                tree.children.append(TreeNode("constant", CONSTANT))
                continue
            child = graph.nodes[key]
            if child.kind == "leaf":
                tree.children.append(TreeNode(label(child), LEAF))
            elif key in seen:
                tree.children.append(TreeNode(f"{child.title} (shared, shown above)", SHARED))
            else:
                seen.add(key)
                branch = TreeNode(label(child), kinds[child.kind])
                tree.children.append(branch)
                pending.append((child, branch, depth + 1))
        stack.extend(reversed(pending))
    return root


def build_tree(grad_fn: Any, leaf_names: dict[int, str]) -> TreeNode:
    """The tree below `grad_fn`; `leaf_names` maps id(leaf tensor) to the name shown for it."""
    return tree_of(collapse_chains(build_graph(grad_fn, leaf_names)))


_UNICODE_GUIDES = ("├── ", "└── ", "│   ", "    ")
_ASCII_GUIDES = ("|-- ", "`-- ", "|   ", "    ")


def render_plain(root: TreeNode, *, unicode: bool = True) -> str:
    """The tree drawn with the same guide lines as Rich, without styling."""
    branch, last, pipe, space = _UNICODE_GUIDES if unicode else _ASCII_GUIDES
    lines = [root.label]
    stack = [
        (child, "", index == len(root.children) - 1) for index, child in enumerate(root.children)
    ]
    stack.reverse()
    while stack:
        node, prefix, is_last = stack.pop()
        lines.append(prefix + (last if is_last else branch) + node.label)
        child_prefix = prefix + (space if is_last else pipe)
        children = node.children
        for index in range(len(children) - 1, -1, -1):
            stack.append((children[index], child_prefix, index == len(children) - 1))
    return "\n".join(lines)
