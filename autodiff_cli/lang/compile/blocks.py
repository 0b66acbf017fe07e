"""What every statement compiler shares: control signals, located statements, blocks.

A statement closure returns None normally, or a control signal (BREAK, CONTINUE, RETURN)
that enclosing loops and function bodies act on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autodiff_cli.lang.errors import Location, attach_location
from autodiff_cli.lang.parse.fstrings import decode_plain, split_prefix
from autodiff_cli.lang.parse.syntax_tree import Tree

BREAK, CONTINUE, RETURN = "break", "continue", "return"
Stmt = Callable[[list], Any]

# Where the innermost running statement is, as `line << 24 | column` in item 0: a process that
# may be killed mid-statement points this at memory its parent reads (`set_statement_probe`).
_probe: Any = [0]


def set_statement_probe(probe: Any) -> None:
    """Record each running statement's `line << 24 | column` in `probe[0]` (a list or a
    memoryview of 64-bit ints); the enclosing statement's again once an inner one returns."""
    global _probe
    _probe = probe


def located(statement: Stmt, where: Location) -> Stmt:
    packed = where.line << 24 | min(where.column, (1 << 24) - 1)

    def run(f: list) -> Any:
        probe = _probe
        outer = probe[0]
        probe[0] = packed
        try:
            result = statement(f)
        except BaseException as error:
            attach_location(error, where)
            raise
        probe[0] = outer
        return result

    return run


def located_generator(statement: Stmt, where: Location) -> Stmt:
    """`located` for a statement of a generator body (a generator function itself): the probe
    points at it when it starts and after each resume up to its next `yield`."""
    packed = where.line << 24 | min(where.column, (1 << 24) - 1)

    def run(f: list) -> Any:
        probe = _probe
        outer = probe[0]
        probe[0] = packed
        try:
            result = yield from statement(f)
        except BaseException as error:
            attach_location(error, where)
            raise
        probe[0] = outer
        return result

    return run


def block(statements: list[Stmt]) -> Stmt:
    if len(statements) == 1:
        return statements[0]
    items = tuple(statements)

    def block(f: list) -> Any:
        for statement in items:
            signal = statement(f)
            if signal is not None:
                return signal
        return None

    return block


def flatten(children: list) -> list[Tree]:
    """Statements of a suite, with `a; b` groups (simple_stmt) spread out."""
    result = []
    for child in children:
        if not isinstance(child, Tree):
            continue
        if child.data in ("simple_stmt", "suite"):
            result.extend(flatten(child.children))
        else:
            result.append(child)
    return result


def docstring_of(body: Tree) -> str | None:
    """The leading string literal of a def/class body (not an f-string), if any."""
    statements = flatten(body.children) if body.data == "suite" else []
    if statements and statements[0].data == "expr_stmt":
        value = statements[0].children[0]
        if isinstance(value, Tree) and value.data == "strings":
            tokens = [str(token) for token in value.children]
            if not any("f" in split_prefix(token)[0] for token in tokens):
                return "".join(decode_plain(token) for token in tokens)
    return None


def describe_target(target: Any) -> str:
    names = {
        "call": "function call", "number": "literal", "strings": "literal",
        "const_none": "None", "const_true": "True", "const_false": "False",
        "comparison": "comparison", "lambdef": "lambda",
    }  # fmt: skip
    kind = target.data if isinstance(target, Tree) else "expression"
    return names.get(kind, "expression")


class Running:
    """How many `Program.run` calls are active (a script function may run inside another),
    and the namespaces they run in, innermost last."""

    depth = 0
    namespaces: list[dict] = []

    @staticmethod
    def enter(namespace: dict) -> None:
        """A run starts in `namespace`."""
        Running.depth += 1
        Running.namespaces.append(namespace)

    @staticmethod
    def leave() -> None:
        """The innermost run ended."""
        Running.depth -= 1
        Running.namespaces.pop()
