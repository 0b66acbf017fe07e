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

from autodiff_cli.lang import limits
from autodiff_cli.lang.blocks import BREAK, RETURN, Running, Stmt, flatten, located_generator
from autodiff_cli.lang.control_flow import enter_context, find_handler
from autodiff_cli.lang.expressions import Fn
from autodiff_cli.lang.generator_object import new_generator
from autodiff_cli.lang.scopes import FIRST_VARIABLE_SLOT, RETURN_SLOT
from autodiff_cli.lang.syntax_tree import Tree

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
        if node.data in _COMPOUND:
            compiled = getattr(self, f"gen_{node.data}")(node)
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

    def _no_yield(self, node: Any, what: str) -> None:
        if node is not None and self.contains_yield(node):
            raise self.error(f"'yield' in {what} is not supported", node)

    # -- compound statements ----------------------------------------------------------------

    def gen_if_stmt(self, node: Tree) -> GenStmt:
        test_node, body, *rest = node.children
        steps, test = self._yield_steps(test_node), self.condition(test_node)
        branches = [(test, self.generator_suite(body))]
        orelse = None
        for child in rest:
            if child is None:
                continue
            if child.data == "elif_clause":
                self._no_yield(child.children[0], "an 'elif' condition")
                suite = self.generator_suite(child.children[1])
                branches.append((self.condition(child.children[0]), suite))
            else:
                orelse = self.generator_suite(child)
        branches_tuple = tuple(branches)

        def if_statement(f: list) -> Any:
            for step in steps:
                yield from step(f)
            for branch_test, branch_body in branches_tuple:
                if branch_test(f):
                    return (yield from branch_body(f))
            if orelse is not None:
                return (yield from orelse(f))
            return None

        return if_statement

    def _generator_loop_body(self, node: Tree) -> GenStmt:
        self.loop_depth += 1
        try:
            return self.generator_suite(node)
        finally:
            self.loop_depth -= 1

    def gen_while_stmt(self, node: Tree) -> GenStmt:
        test_node, body_node, orelse_node = node.children
        steps, test = self._yield_steps(test_node), self.condition(test_node)
        body = self._generator_loop_body(body_node)
        orelse = self.generator_suite(orelse_node) if orelse_node is not None else None
        interrupt = limits.Interrupt

        def while_statement(f: list) -> Any:
            while True:
                for step in steps:
                    yield from step(f)
                if not test(f):
                    break
                if interrupt.pending is not None:
                    limits.raise_interrupt()
                signal = yield from body(f)
                if signal is BREAK:
                    return None
                if signal is RETURN:
                    return signal
            if orelse is not None:
                return (yield from orelse(f))
            return None

        return while_statement

    def gen_for_stmt(self, node: Tree) -> GenStmt:
        target, iterable_node, body_node, orelse_node = node.children
        self._no_yield(target, "a 'for' target")
        steps, iterable = self._yield_steps(iterable_node), self.expr(iterable_node)
        store = self.store(target)
        body = self._generator_loop_body(body_node)
        orelse = self.generator_suite(orelse_node) if orelse_node is not None else None
        interrupt = limits.Interrupt

        def for_statement(f: list) -> Any:
            for step in steps:
                yield from step(f)
            for item in iterable(f):
                if interrupt.pending is not None:
                    limits.raise_interrupt()
                store(f, item)
                signal = yield from body(f)
                if signal is BREAK:
                    return None
                if signal is RETURN:
                    return signal
            if orelse is not None:
                return (yield from orelse(f))
            return None

        return for_statement

    def gen_with_stmt(self, node: Tree) -> GenStmt:
        *items, body_node = node.children
        body = self.generator_suite(body_node)
        for item in reversed(items):
            manager_node, target = item.children
            self._no_yield(target, "a 'with' target")
            body = _make_generator_with(
                self._yield_steps(manager_node),
                self.expr(manager_node),
                self.store(target) if target is not None else None,
                body,
                self.where(item),
            )
        return body

    def gen_try_finally(self, node: Tree) -> GenStmt:
        body_node, final_node = node.children
        return _make_generator_try(
            self.generator_suite(body_node), (), None, self.generator_suite(final_node)
        )

    def gen_try_stmt(self, node: Tree) -> GenStmt:
        body_node, *rest = node.children
        body = self.generator_suite(body_node)
        clauses = [c for c in rest if isinstance(c, Tree) and c.data == "except_clause"]
        tail = rest[len(clauses) :]
        handlers = []
        for index, clause in enumerate(clauses):
            kind_node, name, handler_body = clause.children
            if kind_node is None and index != len(clauses) - 1:
                raise self.error("default 'except:' must be last", clause)
            self._no_yield(kind_node, "an 'except' clause")
            kind = self.expr(kind_node) if kind_node is not None else None
            store = self.store_name(str(name)) if name is not None else None
            delete = self.delete_name(str(name), quiet=True) if name is not None else None
            handlers.append((kind, store, delete, self.generator_suite(handler_body)))
        orelse = final = None
        if tail:
            orelse = self.generator_suite(tail[0]) if tail[0] is not None else None
            if len(tail) > 1 and tail[1] is not None:
                final = self.generator_suite(tail[1])
        return _make_generator_try(body, tuple(handlers), orelse, final)


# ---- helpers -------------------------------------------------------------------------------


def _orphaned(error: BaseException, f: list) -> bool:
    """A generator closed after its script ended (collected later, or in another script of a
    batch): its `except`/`finally`/`__exit__` code does not run then (it would run outside any
    script, as a script's `__del__` does not)."""
    if type(error) is not GeneratorExit:
        return False
    running = Running.namespaces
    return not running or running[-1] is not f[0]


def _make_generator_try(
    body: GenStmt, handlers: tuple, orelse: GenStmt | None, final: GenStmt | None
) -> GenStmt:  # fmt: skip
    def guarded(f: list) -> Any:
        try:
            signal = yield from body(f)
        except BaseException as error:
            if _orphaned(error, f):
                raise
            found = find_handler(f, handlers, error)
            if found is None:
                raise
            _, store, delete, handler = found
            if store is None:
                return (yield from handler(f))
            store(f, error)
            try:
                return (yield from handler(f))
            finally:
                delete(f)
        if orelse is not None:
            return (yield from orelse(f))
        return signal

    if final is None:
        return guarded

    def try_statement(f: list) -> Any:
        try:
            signal = yield from guarded(f)
        except BaseException as error:
            if _orphaned(error, f):
                raise
            final_signal = yield from final(f)
            if final_signal is not None:
                return final_signal  # a `return`/`break` in `finally` drops the error
            raise
        final_signal = yield from final(f)
        return final_signal if final_signal is not None else signal

    return try_statement


def _make_generator_with(
    steps: tuple, manager: Fn, store: Callable | None, body: GenStmt, where: Any
) -> GenStmt:  # fmt: skip
    def with_statement(f: list) -> Any:
        for step in steps:
            yield from step(f)
        context = manager(f)
        value, exit_ = enter_context(context, where)
        try:
            if store is not None:
                store(f, value)
            signal = yield from body(f)
        except BaseException as error:
            if _orphaned(error, f) or not exit_(context, type(error), error, error.__traceback__):
                raise
            return None
        exit_(context, None, None, None)
        return signal

    return with_statement
