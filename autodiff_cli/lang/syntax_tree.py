"""The parse tree: `Tree` nodes and `Token` leaves, with the attributes of Lark's classes.

Parsing runs from the shipped tables (`parse_tables`), so the language needs no part of Lark at
run time; these two classes carry what the compiler reads: a node's `data` (its rule or alias),
`children` and `meta.line`/`meta.column`; a token's `type`, text and position.
"""

from __future__ import annotations

from typing import Any


class Token(str):
    """A token: its text (the `str` itself, also `value`), terminal `type` and position
    (1-based `line`/`column`, end included; `start_pos`/`end_pos` are offsets)."""

    __slots__ = (
        "type",
        "start_pos",
        "value",
        "line",
        "column",
        "end_line",
        "end_column",
        "end_pos",
    )

    def __new__(
        cls,
        type: str,  # noqa: A002 - Lark's name
        value: str,
        start_pos: int | None = None,
        line: int | None = None,
        column: int | None = None,
        end_line: int | None = None,
        end_column: int | None = None,
        end_pos: int | None = None,
    ) -> Token:
        token = str.__new__(cls, value)
        token.type = type
        token.value = value
        token.start_pos = start_pos
        token.line = line
        token.column = column
        token.end_line = end_line
        token.end_column = end_column
        token.end_pos = end_pos
        return token

    @classmethod
    def new_borrow_pos(cls, type: str, value: str, borrow: Token) -> Token:  # noqa: A002
        """A token of another type and text at the position of `borrow`."""
        return cls(
            type,
            value,
            borrow.start_pos,
            borrow.line,
            borrow.column,
            borrow.end_line,
            borrow.end_column,
            borrow.end_pos,
        )

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"

    def __reduce__(self) -> Any:
        return (Token, (self.type, self.value, self.start_pos, self.line, self.column,
                        self.end_line, self.end_column, self.end_pos))  # fmt: skip


class Meta:
    """Where a node starts; `empty` when it spans no token."""

    def __init__(self) -> None:
        self.empty = True


class Tree:
    """A node: `data` (rule or alias name) and `children` (nodes, tokens or None).

    Nodes built by `tree_builder` store the start of their text as `line`/`column` and make
    `meta` only when asked (most nodes are never asked); a tuple `meta` is a node's own start,
    kept when an inlined rule gives it another `line`/`column`.
    """

    __slots__ = ("data", "children", "_meta", "line", "column")

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

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"
