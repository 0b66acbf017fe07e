"""Styled output with Rich, for a terminal that takes colour.

Rich costs ~25 ms to import, more than a third of the one-liner's own work, so this module is
the one place the plain paths reach it from: they load it through `lazy_imports` only when
`terminal.wants_color` says the output is styled (`doctor`'s report too). The REPL and `run`'s
progress bar, which always draw with Rich, import Rich themselves.
"""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

__all__ = ["Console", "Table", "Text", "Tree", "console", "to_rich", "warm"]


def console() -> Console:
    """A console on stdout that leaves the text as it is (no highlighting, no wrapping)."""
    return Console(highlight=False, soft_wrap=True)


def to_rich(root: Any) -> Tree:
    """A tree of labelled, styled nodes (`label`, `style`, `children`: a grad_fn tree from
    `graph.tree.tree_of`) as a `rich.tree.Tree`."""
    rich_root = Tree(Text(root.label, style=root.style), guide_style="dim")
    stack = [(root, rich_root)]
    while stack:
        node, rich_node = stack.pop()
        for child in node.children:
            stack.append((child, rich_node.add(Text(child.label, style=child.style))))
    return rich_root


def warm() -> None:
    """Draw once, off screen: Rich imports parts of itself while drawing, which a locked-down
    child could not."""
    out = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=80)
    tree = Tree(Text("a", style="bold"))
    tree.add("b ─ é ←").add(Text("c", style="red"))  # (← : the source beside a node)
    table = Table("x", "y")
    table.add_row("1", Text("2", style="cyan"))
    out.print(tree, table)
