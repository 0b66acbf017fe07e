"""The grammar rules the parser reduces by, decoded from their serialized form in the tables.

The table builder stores each rule as Lark serializes a `lark.grammar.Rule` (a dict tagged
`"__type__": "Rule"`, its symbols and options tagged likewise). These classes hold what the
parser and `tree_builder.plan_of` read of a rule (its origin's name, its expansion's symbols with
`is_term`/`filter_out`, `alias`, and the options `keep_all_tokens`, `expand1`, `empty_indices`,
`template_source`), so that running the shipped tables needs no Lark module.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Rule", "RuleOptions", "Symbol"]


class Symbol:
    """A terminal (`is_term`; `filter_out`: an anonymous keyword or punctuation the tree leaves
    out) or a nonterminal of a rule."""

    __slots__ = ("name", "is_term", "filter_out")

    def __init__(self, name: str, is_term: bool, filter_out: bool = False) -> None:
        self.name = name
        self.is_term = is_term
        self.filter_out = filter_out

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Symbol) and self.is_term == other.is_term and self.name == other.name
        )

    def __hash__(self) -> int:
        return hash((self.is_term, self.name))

    def __repr__(self) -> str:
        return f"{'Terminal' if self.is_term else 'NonTerminal'}({self.name!r})"


class RuleOptions:
    """How the tree builder treats a rule's match (`!rule`, `?rule`, `[optional]` items)."""

    __slots__ = ("keep_all_tokens", "expand1", "priority", "template_source", "empty_indices")

    def __init__(
        self,
        keep_all_tokens: bool = False,
        expand1: bool = False,
        priority: int | None = None,
        template_source: str | None = None,
        empty_indices: tuple[bool, ...] = (),
    ) -> None:
        self.keep_all_tokens = keep_all_tokens
        self.expand1 = expand1
        self.priority = priority
        self.template_source = template_source
        self.empty_indices = empty_indices


class Rule:
    """`origin -> expansion`, built as `alias` (when given) with `options`."""

    __slots__ = ("origin", "expansion", "alias", "options", "order")

    def __init__(
        self,
        origin: Symbol,
        expansion: list[Symbol],
        alias: str | None = None,
        options: RuleOptions | None = None,
        order: int = 0,
    ) -> None:
        self.origin = origin
        self.expansion = expansion
        self.alias = alias
        self.options = options if options is not None else RuleOptions()
        self.order = order

    @classmethod
    def from_serialized(cls, data: dict[str, Any]) -> Rule:
        """The rule of Lark's `Rule.serialize()` data (as read back from JSON or marshal)."""
        if data.get("__type__") != "Rule":
            raise ValueError(f"not a serialized rule: {data!r}")
        options = data.get("options") or {}
        return cls(
            _symbol(data["origin"]),
            [_symbol(item) for item in data["expansion"]],
            data.get("alias"),
            RuleOptions(
                bool(options.get("keep_all_tokens")),
                bool(options.get("expand1")),
                options.get("priority"),
                options.get("template_source"),
                tuple(options.get("empty_indices") or ()),
            ),
            data.get("order", 0),
        )

    def __str__(self) -> str:
        return f"<{self.origin.name} : {' '.join(symbol.name for symbol in self.expansion)}>"

    def __repr__(self) -> str:
        return f"Rule({self.origin!r}, {self.expansion!r}, {self.alias!r})"


def _symbol(data: dict[str, Any]) -> Symbol:
    kind = data.get("__type__")
    if kind == "Terminal":
        return Symbol(data["name"], True, bool(data.get("filter_out")))
    if kind == "NonTerminal":
        return Symbol(data["name"], False)
    raise ValueError(f"not a serialized grammar symbol: {data!r}")
