"""The parse tree: Lark's `Token` leaves and `Tree` nodes whose position is made on demand.

`Tree` is Lark's class with two more slots: `tree_builder` stores the start of a node's text as
`line`/`column` and Lark's `Meta` is made only when the compiler asks for `meta` (most nodes are
never asked; making one per node costs ~10% of parsing). A tuple in `_meta` is a node's own
start, kept when an inlined rule gives it another `line`/`column`.
"""

from __future__ import annotations

from lark.lexer import Token
from lark.tree import Meta
from lark.tree import Tree as LarkTree

__all__ = ["Meta", "Token", "Tree"]


class Tree(LarkTree):
    """A node: `data` (rule or alias name) and `children` (nodes, tokens or None)."""

    __slots__ = ("line", "column")

    def __init__(
        self,
        data: str,
        children: list,
        meta: Meta | tuple | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.data = data
        self.children = children
        self._meta = meta
        self.line = line
        self.column = column

    @property
    def meta(self) -> Meta:
        meta = self._meta
        if type(meta) is Meta:
            return meta
        line, column = meta if meta is not None else (self.line, self.column)
        meta = Meta()
        if line is not None:
            meta.line, meta.column, meta.empty = line, column, False
        self._meta = meta
        return meta
