"""Compiling control flow: if, while, for, try and with statements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autodiff_cli.lang import limits
from autodiff_cli.lang.blocks import BREAK, RETURN, Stmt
from autodiff_cli.lang.errors import Location, attach_location
from autodiff_cli.lang.expressions import Fn
from autodiff_cli.lang.syntax_tree import Tree


class ControlFlowCompiler:
    """If/while/for/try/with statements (a mixin of `compiler.Compiler`)."""

    def stmt_if_stmt(self, node: Tree) -> Stmt:
        test, body, *rest = node.children
        branches = [(self.condition(test), self.suite(body))]
        orelse = None
        for child in rest:
            if child is None:
                continue
            if child.data == "elif_clause":
                branches.append((self.condition(child.children[0]), self.suite(child.children[1])))
            else:
                orelse = self.suite(child)
        if len(branches) == 1:
            ((only_test, only_body),) = branches

            def if_statement(f: list) -> Any:
                if only_test(f):
                    return only_body(f)
                if orelse is not None:
                    return orelse(f)
                return None

            return if_statement
        branches_tuple = tuple(branches)

        def if_chain(f: list) -> Any:
            for branch_test, branch_body in branches_tuple:
                if branch_test(f):
                    return branch_body(f)
            if orelse is not None:
                return orelse(f)
            return None

        return if_chain

    def _loop_body(self, node: Tree) -> Stmt:
        self.loop_depth += 1
        try:
            return self.suite(node)
        finally:
            self.loop_depth -= 1

    def stmt_while_stmt(self, node: Tree) -> Stmt:
        test_node, body_node, orelse_node = node.children
        test, body = self.condition(test_node), self._loop_body(body_node)
        orelse = self.suite(orelse_node) if orelse_node is not None else None

        interrupt = limits.Interrupt

        def while_statement(f: list) -> Any:
            while test(f):
                if interrupt.pending is not None:
                    limits.raise_interrupt()
                signal = body(f)
                if signal is not None:
                    if signal is BREAK:
                        return None
                    if signal is RETURN:
                        return signal
            if orelse is not None:
                return orelse(f)
            return None

        return while_statement

    def stmt_for_stmt(self, node: Tree) -> Stmt:
        target, iterable_node, body_node, orelse_node = node.children
        iterable, store = self.expr(iterable_node), self.store(target)
        body = self._loop_body(body_node)
        orelse = self.suite(orelse_node) if orelse_node is not None else None

        interrupt = limits.Interrupt

        def for_statement(f: list) -> Any:
            for item in iterable(f):
                if interrupt.pending is not None:
                    limits.raise_interrupt()
                store(f, item)
                signal = body(f)
                if signal is not None:
                    if signal is BREAK:
                        return None
                    if signal is RETURN:
                        return signal
            if orelse is not None:
                return orelse(f)
            return None

        return for_statement

    def stmt_try_stmt(self, node: Tree) -> Stmt:
        body_node, *rest = node.children
        body = self.suite(body_node)
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
            kind = self.expr(kind_node) if kind_node is not None else None
            store = self.store_name(str(name)) if name is not None else None
            delete = self.delete_name(str(name), quiet=True) if name is not None else None
            handlers.append((kind, store, delete, self.suite(handler_body)))
        if tail:
            orelse = self.suite(tail[0]) if tail[0] is not None else None
            final = self.suite(tail[1]) if len(tail) > 1 and tail[1] is not None else None
        return _make_try(body, tuple(handlers), orelse, final)

    def stmt_try_finally(self, node: Tree) -> Stmt:
        body_node, final_node = node.children
        return _make_try(self.suite(body_node), (), None, self.suite(final_node))

    def stmt_with_stmt(self, node: Tree) -> Stmt:
        *items, body_node = node.children
        body = self.suite(body_node)
        for item in reversed(items):
            manager_node, target = item.children
            body = _make_with(
                self.expr(manager_node),
                self.store(target) if target is not None else None,
                body,
                self.where(item),
            )
        return body


# ---- helpers for statements ----------------------------------------------------------------


def find_handler(f: list, handlers: tuple, error: BaseException) -> tuple | None:
    """The first `(kind, store, delete, body)` of `handlers` whose class matches `error`."""
    for handler in handlers:
        kind = handler[0]
        if kind is not None:
            expected = kind(f)
            if not _is_exception_class(expected):
                raise TypeError(
                    "catching classes that do not inherit from BaseException is not allowed"
                ) from None
            if not issubclass(type(error), expected):  # never asks `__class__`
                continue
        return handler
    return None


def _make_try(
    body: Stmt, handlers: tuple, orelse: Stmt | None, final: Stmt | None
) -> Stmt:  # fmt: skip
    def try_statement(f: list) -> Any:
        signal = None
        try:
            try:
                signal = body(f)
            except BaseException as error:
                found = find_handler(f, handlers, error)
                if found is None:
                    raise
                _, store, delete, handler = found
                if store is not None:
                    store(f, error)
                    try:
                        return handler(f)
                    finally:
                        delete(f)
                return handler(f)
            if orelse is not None:
                signal = orelse(f)
        finally:
            if final is not None:
                final_signal = final(f)
                if final_signal is not None:
                    return final_signal  # noqa: B012 - Python's semantics
        return signal

    if not handlers and final is not None and orelse is None:

        def try_finally(f: list) -> Any:
            try:
                signal = body(f)
            finally:
                final_signal = final(f)
                if final_signal is not None:
                    return final_signal  # noqa: B012
            return signal

        return try_finally
    return try_statement


def _is_exception_class(value: Any) -> bool:
    if isinstance(value, tuple):
        return all(_is_exception_class(item) for item in value)
    return isinstance(value, type) and issubclass(value, BaseException)


def enter_context(context: Any, where: Location) -> tuple[Any, Callable[..., Any]]:
    """`(value of __enter__, __exit__ of its class)` of a context manager, or Python's
    TypeError."""
    kind = type(context)
    try:
        enter, exit_ = kind.__enter__, kind.__exit__
    except AttributeError:
        error = TypeError(f"'{kind.__name__}' object does not support the context manager protocol")
        attach_location(error, where)
        raise error from None
    return enter(context), exit_


def _make_with(manager: Fn, store: Callable | None, body: Stmt, where: Location) -> Stmt:
    def with_statement(f: list) -> Any:
        context = manager(f)
        value, exit_ = enter_context(context, where)
        try:
            if store is not None:
                store(f, value)
            signal = body(f)
        except BaseException as error:
            if not exit_(context, type(error), error, error.__traceback__):
                raise
            return None
        exit_(context, None, None, None)
        return signal

    return with_statement
