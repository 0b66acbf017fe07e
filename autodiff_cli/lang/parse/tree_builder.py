"""Building the parse tree during LALR reductions, with the positions the compiler reports.

Replaces Lark's tree-builder wrapper chain (child filter, `?rule` inlining, `propagate_positions`)
with one callback per rule. The resulting trees are those Lark builds, and `node.meta.line/column`
follow Lark's `propagate_positions` rule: a node starts where the first token of its text starts,
anonymous keywords (`return`, `(`) included, and an inlined node (`?rule`, `_rule`) keeps its own
start while the node that contains it starts at the start of the inlining rule's text.

Each node stores that container start as `line`/`column` (None for a node that spans no token);
its own `meta` is made only when the compiler asks for it.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

from autodiff_cli.lang.parse.syntax_tree import Token, Tree


class RulePlan:
    """How one grammar rule's matched symbols become a node (see `plan_of`).

    `include`: (index, splice, nones_before) for each kept symbol, as Lark's child filter;
    `filtered`: whether `include` drops, splices or pads anything at all.
    """

    __slots__ = ("name", "expand1", "include", "nones_after", "filtered", "size")

    def __init__(
        self,
        name: str,
        expand1: bool,
        include: tuple[tuple[int, bool, int], ...],
        nones_after: int,
        filtered: bool,
        size: int,
    ) -> None:
        self.name = name
        self.expand1 = expand1
        self.include = include
        self.nones_after = nones_after
        self.filtered = filtered
        self.size = size

    def key(self) -> tuple:
        """Equal for plans that build alike (rules sharing a plan share one callback)."""
        return tuple(getattr(self, name) for name in self.__slots__)


def plan_of(rule: Any) -> RulePlan:
    """How Lark's tree builder (`maybe_placeholders`, LALR) makes a node of a Lark `Rule`:
    which symbols it keeps (tokens filtered out, `_rule` children spliced in), where it puts
    None for an absent `[optional]`, and whether a `?rule` with one child is inlined."""
    options = rule.options
    expansion = rule.expansion
    empty = options.empty_indices
    if empty:
        flags = "".join(str(int(flag)) for flag in empty)
        nones_at = [len(ones) for ones in flags.split("0")]
    else:
        nones_at = [0] * (len(expansion) + 1)
    include = []
    nones = 0
    for index, symbol in enumerate(expansion):
        nones += nones_at[index]
        if options.keep_all_tokens or not (symbol.is_term and symbol.filter_out):
            splice = not symbol.is_term and symbol.name.startswith("_")
            include.append((index, splice, nones))
            nones = 0
    nones += nones_at[len(expansion)]
    filtered = bool(empty) or len(include) < len(expansion) or any(s for _, s, _ in include)
    name = str(rule.alias or options.template_source or rule.origin.name)
    expand1 = bool(options.expand1) and not rule.alias
    return RulePlan(name, expand1, tuple(include), nones, filtered, len(expansion))


unit_value = itemgetter(0)  # the callback of a unit rule (`?expr: or_expr`): its child

# The flat operator rules of the grammar and the nodes they stand for, loosest first: the tree
# the classic one-rule-per-precedence-level grammar builds (all these operators are
# left-associative). `and`/`or` are keywords, left out of the tree as before.
_BINARY_LEVELS = (
    ("or_expr", ("|",)),
    ("and_expr", ("&",)),
    ("shift_expr", ("<<", ">>")),
    ("arith_expr", ("+", "-")),
    ("term", ("*", "@", "/", "%", "//")),
)
_BOOLEAN_LEVELS = (("or_test", ("or",)), ("and_test", ("and",)))


def _regrouper(levels: tuple, keep_operators: bool) -> Callable[[list], Any]:
    """Turns `[operand, operator, operand, ...]` into nested nodes by precedence."""

    def group(items: list, level: int) -> Any:
        if len(items) == 1:
            return items[0]
        name, operators = levels[level]
        children: list = []
        start = 0
        for index in range(1, len(items), 2):
            operator = items[index]
            if operator.value in operators:
                children.append(group(items[start:index], level + 1))
                if keep_operators:
                    children.append(operator)
                start = index + 1
        if not start:
            return group(items, level + 1)
        children.append(group(items[start:], level + 1))
        first = children[0]  # a node's position is its first operand's (a Tree or a Token)
        return Tree(name, children, None, first.line, first.column)

    return lambda items: group(items, 0)


_REGROUP = {
    "expr": _regrouper(_BINARY_LEVELS, keep_operators=True),
    "or_test": _regrouper(_BOOLEAN_LEVELS, keep_operators=False),
}


def make_callback(plan: RulePlan) -> Callable[[list], Any]:
    """The reduction callback of one rule: the node (or inlined child) with its position."""
    name, expand1, include, nones_after = plan.name, plan.expand1, plan.include, plan.nones_after
    if expand1 and plan.size == 1 and include == ((0, False, 0),) and not nones_after:
        return unit_value  # a unit rule (`?expr: or_expr`): the child, position unchanged
    filtered = plan.filtered
    regroup = _REGROUP.get(name)

    def build(children: list) -> Any:
        line = column = None
        for child in children:
            if type(child) is Tree:
                line = child.line
                if line is None:
                    continue
                column = child.column
                break
            if isinstance(child, Token):
                line, column = child.line, child.column
                break
        if filtered:
            kept: list = []
            for index, splice, nones in include:
                if nones:
                    kept += [None] * nones
                if splice:
                    if kept:
                        kept += children[index].children
                    else:
                        kept = children[index].children
                else:
                    kept.append(children[index])
            if nones_after:
                kept += [None] * nones_after
        else:
            kept = children
        if expand1 and len(kept) == 1:
            child = kept[0]
            if type(child) is Tree and line is not None:
                if child._meta is None and child.line is not None:
                    child._meta = (child.line, child.column)  # its own start stays
                child.line, child.column = line, column
            return child
        if regroup is not None:
            return regroup(kept)
        return Tree(name, kept, None, line, column)

    return build
