"""Compiling generator functions: bodies with `yield`, `yield from` and `x = yield`.

A generator body runs as a chain of Python generators (no threads): each statement that
contains a `yield` of this function compiles to a generator function returning the statement's
control signal, and `yield from` passes values, `send`, `throw` and `close` through the chain.
Every other statement, and every expression, is the closure the ordinary compiler makes: a
`yield` inside an expression is evaluated first (its value kept in a hidden local slot, in
evaluation order) and the expression, compiled once as usual, reads that slot. A conditional
expression holding a yield (`a if c else (yield)`, `x or (yield)`) is evaluated the same way as
a whole, its branches or operands (and their yields) only when Python would evaluate them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autodiff_cli.lang.compile.blocks import Stmt, flatten, located_generator
from autodiff_cli.lang.compile.expressions import Fn
from autodiff_cli.lang.parse.syntax_tree import Tree
from autodiff_cli.lang.runtime.generator_object import new_generator
from autodiff_cli.lang.runtime.namespace import FIRST_VARIABLE_SLOT, RETURN_SLOT

YIELD_NODES = ("yield_expr", "yield_from")
_CONDITIONAL = ("ternary", "or_test", "and_test")
_COMPOUND = ("if_stmt", "while_stmt", "for_stmt", "try_stmt", "try_finally", "with_stmt")
GenStmt = Callable[[list], Any]  # a generator function: yields values, returns a signal


class GeneratorCompiler:
    """Generator bodies (a mixin of `compiler.Compiler`)."""

    # -- yields as expressions --------------------------------------------------------------

    def expr_yield_expr(self, node: Tree) -> Fn:
        slot = self.scope.slots[self.yield_names[id(node)]]
        return lambda f: f[slot]

    expr_yield_from = expr_yield_expr

    def expr(self, node: Any) -> Fn:
        slot = self._hoisted_slots.get(id(node)) if self._hoisted_slots else None
        if slot is not None:  # evaluated by a step before the expression (see module doc)
            return lambda f: f[slot]
        return super().expr(node)  # type: ignore[misc]

    def condition(self, node: Any) -> Fn:
        slot = self._hoisted_slots.get(id(node)) if self._hoisted_slots else None
        if slot is not None:
            return lambda f: f[slot]
        return super().condition(node)  # type: ignore[misc]

    def _own_yields(self, node: Any) -> list[Tree]:
        """The units evaluated before `node`: this function's yields, and conditional
        expressions holding one, innermost and leftmost first."""
        if not isinstance(node, Tree):
            return []
        if node.data in _CONDITIONAL:
            return [node] if self.contains_yield(node) else []
        found = []
        for child in node.children:
            found += self._own_yields(child)
        if node.data in YIELD_NODES and self.yield_names.get(id(node)) in self.scope.slots:
            found.append(node)
        return found

    def _yield_steps(self, node: Any) -> tuple[GenStmt, ...]:
        """Generator functions evaluating the yields of `node` into their slots, in order."""
        return tuple(self._yield_step(item) for item in self._own_yields(node))

    def _yield_step(self, node: Tree) -> GenStmt:
        if node.data in _CONDITIONAL:
            return self._conditional_step(node)
        slot = self.scope.slots[self.yield_names[id(node)]]
        value = self.expr(node.children[0]) if node.children[0] is not None else None
        if node.data == "yield_from":

            def yield_from(f: list) -> Any:
                f[slot] = yield from iter(value(f))

            return yield_from

        def yield_value(f: list) -> Any:
            f[slot] = yield (value(f) if value is not None else None)

        return yield_value

    def _conditional_step(self, node: Tree) -> GenStmt:
        """`a if c else b`, `a or b`, `a and b` holding a yield, into a new hidden slot."""
        slots = self.scope.slots
        slot = slots[f"%value{len(slots)}"] = FIRST_VARIABLE_SLOT + len(slots)
        self._hoisted_slots[id(node)] = slot
        if node.data == "ternary":
            body, test, orelse = (self._operand_steps(child) for child in node.children)
            test_steps, test_value = test

            def ternary(f: list) -> Any:
                for step in test_steps:
                    yield from step(f)
                steps, value = body if test_value(f) else orelse
                for step in steps:
                    yield from step(f)
                f[slot] = value(f)

            return ternary
        operands = tuple(self._operand_steps(child) for child in node.children)
        is_or = node.data == "or_test"

        def boolean(f: list) -> Any:
            for steps, operand in operands:
                for step in steps:
                    yield from step(f)
                value = operand(f)
                if bool(value) is is_or:
                    break
            f[slot] = value

        return boolean

    def _operand_steps(self, node: Any) -> tuple[tuple[GenStmt, ...], Fn]:
        return self._yield_steps(node), self.expr(node)

    def contains_yield(self, node: Any) -> bool:
        found = self._yield_cache.get(id(node))
        if found is None:
            found = self._yield_cache[id(node)] = bool(self._own_yields_anywhere(node))
        return found

    def _own_yields_anywhere(self, node: Any) -> bool:
        if not isinstance(node, Tree):
            return False
        if node.data in YIELD_NODES and self.yield_names.get(id(node)) in self.scope.slots:
            return True
        return any(self._own_yields_anywhere(child) for child in node.children)

    # -- bodies -----------------------------------------------------------------------------

    def generator_body(self, body_node: Tree, qualname: str, is_expression: bool) -> Fn:
        """The body a generator function runs when called: it makes the generator object (the
        function's result); the compiled statements run as the object is iterated."""
        if is_expression:
            steps, value = self._yield_steps(body_node), self.expr(body_node)

            def run_expression(f: list) -> Any:
                for step in steps:
                    yield from step(f)
                return value(f)

            return lambda f: new_generator(run_expression(f), qualname)
        body = self.generator_suite(body_node)

        def run(f: list) -> Any:
            f[RETURN_SLOT] = None  # held the generator object until now
            yield from body(f)
            return f[RETURN_SLOT]

        def start(f: list) -> None:
            f[RETURN_SLOT] = new_generator(run(f), qualname)

        return start

    def generator_suite(self, node: Tree) -> GenStmt:
        items = tuple(self.generator_statement(child) for child in flatten(node.children))

        def generator_block(f: list) -> Any:
            for is_generator, statement in items:
                signal = (yield from statement(f)) if is_generator else statement(f)
                if signal is not None:
                    return signal
            return None

        return generator_block

    def generator_statement(self, node: Tree) -> tuple[bool, Stmt]:
        """(True, a generator function) for a statement with a yield, else (False, closure)."""
        if not self.contains_yield(node):
            return False, self.statement(node)
        if node.data in _COMPOUND:  # compiled by `control_flow`, as generator functions
            compiled = getattr(self, f"stmt_{node.data}")(node, in_generator=True)
        else:
            compiled = self._hoisted(node)
        return True, located_generator(compiled, self.where(node))

    def _hoisted(self, node: Tree) -> GenStmt:
        steps = self._yield_steps(node)
        method = getattr(self, f"stmt_{node.data}", None)
        if method is None:
            raise self.error(f"'{node.data}' is not supported", node)
        statement = method(node)

        def simple_statement(f: list) -> Any:
            for step in steps:
                yield from step(f)
            return statement(f)

        return simple_statement
