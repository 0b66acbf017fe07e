"""Compiling control flow: if, while, for, try and with statements, in ordinary bodies and in
generator bodies alike.

One compiler reads each statement: its clauses, loop bodies, handlers and targets, in one order,
with one set of checks and errors. Only how the compiled parts run differs, and `flow_runners`
builds that: in an ordinary body each part is a closure returning a control signal
(`CLOSURES`); in a generator body (`in_generator=True`, a statement holding a `yield` of the
function, see `generators`) each part is a generator function returning one, and the
expressions' yields run as steps before them (`GENERATORS`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autodiff_cli.lang.compile.blocks import Stmt
from autodiff_cli.lang.compile.flow_runners import CLOSURES, GENERATORS, FlowRunners
from autodiff_cli.lang.parse.syntax_tree import Tree


class ControlFlowCompiler:
    """If/while/for/try/with statements (a mixin of `compiler.Compiler`)."""

    def _flow(self, in_generator: bool) -> tuple[Callable[[Tree], Stmt], FlowRunners]:
        """How the parts compile and run: (suite compiler, runners) of the body's kind."""
        if in_generator:
            return self.generator_suite, GENERATORS
        return self.suite, CLOSURES

    def _steps(self, node: Any, in_generator: bool) -> tuple:
        """The yields of `node` evaluated before it (none outside generator bodies)."""
        return self._yield_steps(node) if in_generator else ()

    def _no_yield(self, node: Any, what: str, in_generator: bool) -> None:
        if in_generator and node is not None and self.contains_yield(node):
            raise self.error(f"'yield' in {what} is not supported", node)

    def stmt_if_stmt(self, node: Tree, in_generator: bool = False) -> Stmt:
        suite, runners = self._flow(in_generator)
        test, body, *rest = node.children
        steps = self._steps(test, in_generator)
        branches = [(self.condition(test), suite(body))]
        orelse = None
        for child in rest:
            if child is None:
                continue
            if child.data == "elif_clause":
                self._no_yield(child.children[0], "an 'elif' condition", in_generator)
                branches.append((self.condition(child.children[0]), suite(child.children[1])))
            else:
                orelse = suite(child)
        return runners.if_statement(steps, tuple(branches), orelse)

    def _loop_body(self, node: Tree, suite: Callable[[Tree], Stmt]) -> Stmt:
        self.loop_depth += 1
        try:
            return suite(node)
        finally:
            self.loop_depth -= 1

    def stmt_while_stmt(self, node: Tree, in_generator: bool = False) -> Stmt:
        suite, runners = self._flow(in_generator)
        test_node, body_node, orelse_node = node.children
        steps = self._steps(test_node, in_generator)
        test, body = self.condition(test_node), self._loop_body(body_node, suite)
        orelse = suite(orelse_node) if orelse_node is not None else None
        return runners.while_statement(steps, test, body, orelse)

    def stmt_for_stmt(self, node: Tree, in_generator: bool = False) -> Stmt:
        suite, runners = self._flow(in_generator)
        target, iterable_node, body_node, orelse_node = node.children
        self._no_yield(target, "a 'for' target", in_generator)
        steps = self._steps(iterable_node, in_generator)
        iterable, store = self.expr(iterable_node), self.store(target)
        body = self._loop_body(body_node, suite)
        orelse = suite(orelse_node) if orelse_node is not None else None
        return runners.for_statement(steps, iterable, store, body, orelse)

    def stmt_try_stmt(self, node: Tree, in_generator: bool = False) -> Stmt:
        suite, runners = self._flow(in_generator)
        body_node, *rest = node.children
        body = suite(body_node)
        handlers = []
        orelse = final = None
        clauses = [
            child for child in rest if isinstance(child, Tree) and child.data == "except_clause"
        ]
        tail = rest[len(clauses) :]
        for index, clause in enumerate(clauses):
            kind_node, name, handler_body = clause.children
            if kind_node is None and index != len(clauses) - 1:
                raise self.error("default 'except:' must be last", clause)
            self._no_yield(kind_node, "an 'except' clause", in_generator)
            kind = self.expr(kind_node) if kind_node is not None else None
            store = self.store_name(str(name)) if name is not None else None
            delete = self.delete_name(str(name), quiet=True) if name is not None else None
            handlers.append((kind, store, delete, suite(handler_body)))
        if tail:
            orelse = suite(tail[0]) if tail[0] is not None else None
            final = suite(tail[1]) if len(tail) > 1 and tail[1] is not None else None
        return runners.try_statement(body, tuple(handlers), orelse, final)

    def stmt_try_finally(self, node: Tree, in_generator: bool = False) -> Stmt:
        suite, runners = self._flow(in_generator)
        body_node, final_node = node.children
        return runners.try_statement(suite(body_node), (), None, suite(final_node))

    def stmt_with_stmt(self, node: Tree, in_generator: bool = False) -> Stmt:
        suite, runners = self._flow(in_generator)
        *items, body_node = node.children
        body = suite(body_node)
        for item in reversed(items):
            manager_node, target = item.children
            self._no_yield(target, "a 'with' target", in_generator)
            body = runners.with_statement(
                self._steps(manager_node, in_generator),
                self.expr(manager_node),
                self.store(target) if target is not None else None,
                body,
                self.where(item),
            )
        return body
