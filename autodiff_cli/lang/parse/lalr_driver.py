"""The LALR(1) parser: runs a parse table (built from the grammar by Lark, see `table_builder`)
over a stream of tokens.

The parser keeps a stack of states and, beside it, a stack of values (tokens and the nodes built
so far). For each token it looks up the top state's action for the token's type: a shift pushes
the token and the state the action names; a reduction by a rule `origin -> expansion` pops the
expansion's values, pushes what the rule's callback builds of them, and the state the row below
gives for `origin` (the goto), then looks again at the same token. At the end of input a `$END`
token reduces until the start rule's end state is reached.

The serialized table (`IntParseTable.serialize`'s layout) is decoded lazily: a state's row when
the parser first reaches the state, a rule and its callback when a row first reduces by it (a
one-liner visits a few dozen of the ~550 states). A row maps a symbol's name to an int: a state
to shift to (>= 0), or `~index` of the rule to reduce by (< 0).

A token no action takes is an `UnexpectedToken`, with the terminals of the state's row
(`expected`) and those the parser would shift after any chain of reductions (`accepts`,
computed on first read by running each on a copy of the state stack, as Lark's
`InteractiveParser.accepts` does).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from autodiff_cli.lang.parse.parse_rules import Rule
from autodiff_cli.lang.parse.syntax_errors import UnexpectedToken
from autodiff_cli.lang.parse.syntax_tree import Token
from autodiff_cli.lang.parse.tree_builder import unit_value

END = "$END"
SHIFT, REDUCE = 0, 1  # the action kinds of a serialized row

Reduction = tuple[int, str, Callable[[list], Any]]  # size of the expansion, origin, callback


class _Lazy(dict):
    """A dict whose missing keys are made by `make` (KeyError when `make` has none)."""

    def __init__(self, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self._make(key)
        return value


class ParseTable:
    """The rows and reductions of a serialized table, each decoded on first use.

    `table`: `tokens` (index -> symbol name), `start_states`/`end_states` (start rule -> state)
    and `states` (state -> row of `{symbol index: (kind, argument)}`), keys as strings;
    `rules`: rule index -> Lark's serialized rule; `make_callback(rule)`: the function building
    a rule's value from the values it reduces."""

    def __init__(
        self,
        table: Mapping[str, Any],
        rules: Mapping[str, Any],
        make_callback: Callable[[Rule], Callable[[list], Any]],
    ) -> None:
        self.names: Mapping[str, str] = table["tokens"]
        self.start_states: dict[str, int] = dict(table["start_states"])
        self.end_states: dict[str, int] = dict(table["end_states"])
        self._serialized_rows: Mapping[str, Any] = table["states"]
        self._serialized_rules = rules
        self._make_callback = make_callback
        self.rules: dict[int, Rule] = {}  # those decoded so far, by index
        self.rows: dict[int, dict[str, int]] = _Lazy(self._row)
        self.reductions: dict[int, Reduction] = _Lazy(self._reduction)

    def _row(self, state: int) -> dict[str, int]:
        names = self.names
        return {
            names[symbol]: arg if kind == SHIFT else ~arg["@"]
            for symbol, (kind, arg) in self._serialized_rows[str(state)].items()
        }

    def _reduction(self, action: int) -> Reduction:
        if action >= 0:
            raise KeyError(action)
        index = ~action
        rule = self.rules[index] = Rule.from_serialized(self._serialized_rules[str(index)])
        return (len(rule.expansion), rule.origin.name, self._make_callback(rule))

    def parse(self, tokens: Iterable[Token], start: str) -> Any:
        """The value the start rule `start` builds of `tokens`; an `UnexpectedToken` when the
        tokens are not a sentence of the grammar."""
        rows, reductions = self.rows, self.reductions
        end_state = self.end_states[start]
        states = [self.start_states[start]]
        values: list[Any] = []
        token = None
        for token in tokens:
            kind = token.type
            while True:
                try:
                    action = rows[states[-1]][kind]
                except KeyError:
                    raise self.unexpected(token, states, end_state) from None
                if action >= 0:
                    states.append(action)
                    values.append(token)
                    break
                size, origin, build = reductions[action]  # `_reduce`, inlined (the hot loop)
                if build is unit_value:  # a unit rule: the value is its child, only the state moves
                    states[-1] = rows[states[-2]][origin]
                    continue
                if size:
                    children = values[-size:]
                    del states[-size:]
                    del values[-size:]
                else:
                    children = []
                values.append(build(children))
                states.append(rows[states[-1]][origin])
        if not token:  # as Lark: also after an empty token (a closing _DEDENT); unused by messages
            end = Token(END, "", 0, 1, 1)
        else:
            end = Token.new_borrow_pos(END, "", token)
        while True:
            action = rows[states[-1]].get(END)
            if action is None:
                raise self.unexpected(end, states, end_state)
            if action >= 0:
                raise ValueError("the parse table shifts the end of input")
            _reduce(states, values, rows, reductions[action])
            if states[-1] == end_state:
                return values[-1]

    def unexpected(self, token: Token, states: list[int], end_state: int) -> UnexpectedToken:
        """The error for `token` in the parser state `states` (copied: `accepts` comes later)."""
        snapshot = list(states)
        expected = {name for name in self.rows[snapshot[-1]] if name.isupper()}
        return UnexpectedToken(token, expected, lambda: self.accepts(snapshot, end_state))

    def accepts(self, states: list[int], end_state: int) -> set[str]:
        """The terminals of the top state's row that the parser would shift from `states`
        after the reductions they cause (the end of input: that reach `end_state`)."""
        return {
            name
            for name in self.rows[states[-1]]
            if name.isupper() and self._would_shift(name, list(states), end_state)
        }

    def _would_shift(self, name: str, stack: list[int], end_state: int) -> bool:
        rows, reductions = self.rows, self.reductions
        while True:
            action = rows[stack[-1]].get(name)
            if action is None:
                return False
            if action >= 0:
                return True
            size, origin, _ = reductions[action]
            if size:
                del stack[-size:]
            stack.append(rows[stack[-1]][origin])
            if name == END and stack[-1] == end_state:
                return True


def _reduce(states: list, values: list, rows: Any, reduction: tuple) -> None:
    """Pop the rule's right-hand side off both stacks, push the node its callback builds and the
    state the row goes to on the rule's left-hand side."""
    size, origin, build = reduction
    if size:
        children = values[-size:]
        del states[-size:]
        del values[-size:]
    else:
        children = []
    values.append(build(children))
    states.append(rows[states[-1]][origin])
