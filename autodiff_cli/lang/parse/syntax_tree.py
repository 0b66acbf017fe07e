"""The parse tree: `Token` leaves and `Tree` nodes whose position is made on demand.

Our own classes, with the attributes and behaviour of Lark's `Token`, `Tree` and `Meta` that the
compiler and the error messages use (importing Lark's modules cost ~6 ms of every one-liner's
start-up). A token is a `str` (its text) with its terminal `type` and Lark's positions: 1-based
`line`/`column`, `end_line`/`end_column` just past its end, `start_pos`/`end_pos` offsets.

`tree_builder` stores the start of a node's text as `line`/`column`; its `Meta` is made only
when the compiler asks for `meta` (most nodes are never asked; making one per node costs ~10% of
parsing). A tuple in `_meta` is a node's own start, kept when an inlined rule gives it another
`line`/`column`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["Meta", "Token", "Tree"]


class Token(str):
    """A terminal of the grammar: its text (the `str`), `type` and position."""

    __slots__ = ("type", "start_pos", "value", "line", "column", "end_line", "end_column",
                 "end_pos")  # fmt: skip

    type: str
    start_pos: int | None
    value: Any
    line: int | None
    column: int | None
    end_line: int | None
    end_column: int | None
    end_pos: int | None

    def __new__(
        cls,
        type: str,  # noqa: A002 - Lark's keyword name
        value: Any,
        start_pos: int | None = None,
        line: int | None = None,
        column: int | None = None,
        end_line: int | None = None,
        end_column: int | None = None,
        end_pos: int | None = None,
    ) -> Token:
        token = str.__new__(cls, value)
        token.type = type
        token.start_pos = start_pos
        token.value = value
        token.line = line
        token.column = column
        token.end_line = end_line
        token.end_column = end_column
        token.end_pos = end_pos
        return token

    @classmethod
    def new_borrow_pos(cls, type_: str, value: Any, borrow_t: Token) -> Token:
        """A token of another type and text at `borrow_t`'s position (indentation tokens)."""
        return cls(type_, value, borrow_t.start_pos, borrow_t.line, borrow_t.column,
                   borrow_t.end_line, borrow_t.end_column, borrow_t.end_pos)  # fmt: skip

    def update(self, type: str | None = None, value: Any = None) -> Token:  # noqa: A002
        """A copy with another type and/or text, at the same position."""
        return Token.new_borrow_pos(
            self.type if type is None else type, self.value if value is None else value, self
        )

    def __eq__(self, other: object) -> bool:
        """Equal to a string of the same text; to another token only of the same type too."""
        if isinstance(other, Token) and self.type != other.type:
            return False
        return str.__eq__(self, other)

    __hash__ = str.__hash__

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"

    def __reduce__(self) -> tuple:
        return (self.__class__, (self.type, self.value, self.start_pos, self.line, self.column))

    def __deepcopy__(self, memo: dict) -> Token:
        return Token(self.type, self.value, self.start_pos, self.line, self.column)


class Meta:
    """A node's position: `empty` until `line`/`column` are set (then those attributes exist;
    code reads them with `getattr(meta, "line", default)` for nodes spanning no token)."""

    __slots__ = ("empty", "line", "column", "__dict__")

    def __init__(self) -> None:
        self.empty = True


class Tree:
    """A node: `data` (rule or alias name) and `children` (nodes, tokens or None); equal to a
    node of the same name and equal children."""

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

    def __eq__(self, other: object) -> bool:
        try:
            return self.data == other.data and self.children == other.children  # type: ignore[attr-defined]
        except AttributeError:
            return False

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.data, tuple(self.children)))

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"

    def scan_values(self, pred: Callable[[Any], bool]) -> Iterator[Any]:
        """The leaves (tokens, None) under this node that `pred` accepts, left to right."""
        for child in self.children:
            if isinstance(child, Tree):
                yield from child.scan_values(pred)
            elif pred(child):
                yield child

    def pretty(self, indent_str: str = "  ") -> str:
        """The tree as indented text (for debugging)."""
        lines: list[str] = []

        def walk(node: Any, level: int) -> None:
            if not isinstance(node, Tree):
                lines.append(f"{indent_str * level}{node}")
                return
            lines.append(f"{indent_str * level}{node.data}")
            for child in node.children:
                walk(child, level + 1)

        walk(self, 0)
        return "\n".join(lines) + "\n"
