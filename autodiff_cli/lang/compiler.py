"""Compiling statements, functions and classes into closures; `compile_source` and `Program`.

A statement closure returns None normally, or a control signal (BREAK, CONTINUE, RETURN)
that enclosing loops and function bodies act on; the parse tree is walked once, here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from autodiff_cli.lang import limits, nesting, sandbox, typeview
from autodiff_cli.lang.errors import (
    CompileError,
    Location,
    ScriptError,
    Source,
    attach_location,
    is_user_interrupt,
    mark_raised_by_script,
    set_location,
)
from autodiff_cli.lang.expressions import AUGMENTED_OPERATORS, ExpressionCompiler, Fn
from autodiff_cli.lang.functions import FunctionSpec, make_function
from autodiff_cli.lang.runtime import UNBOUND, Cell
from autodiff_cli.lang.scopes import (
    CLASS_CELL_SLOT,
    CLASS_DICT_SLOT,
    RETURN_SLOT,
    Scope,
    ScopeBuilder,
    ScopeError,
    parse_signature,
)
from autodiff_cli.lang.syntax_tree import Tree

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


def _located(statement: Stmt, where: Location) -> Stmt:
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


def _block(statements: list[Stmt]) -> Stmt:
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


class Compiler(ExpressionCompiler):
    def __init__(self, source: Source, builder: ScopeBuilder) -> None:
        self.source = source
        self.scopes = builder.scopes
        self.fstring_pieces = builder.fstring_pieces
        self.scope: Scope = None  # type: ignore[assignment]
        self.loop_depth = 0

    # -- entry points -----------------------------------------------------------------------

    def module(self, tree: Tree, *, keep_last_value: bool) -> Stmt:
        self.scope = self.scopes[id(tree)]
        statements = _flatten(tree.children)
        compiled = [self.statement(node) for node in statements]
        if keep_last_value and statements and statements[-1].data == "expr_stmt":
            value = self.expr(statements[-1].children[0])

            def keep(f: list) -> None:
                f[RETURN_SLOT] = value(f)

            compiled[-1] = _located(keep, self.where(statements[-1]))
        return _block(compiled) if compiled else (lambda f: None)

    def expression(self, tree: Tree) -> Fn:
        self.scope = self.scopes[id(tree)]
        return self.expr(tree.children[0])

    # -- statements -------------------------------------------------------------------------

    def suite(self, node: Tree) -> Stmt:
        return _block([self.statement(child) for child in _flatten(node.children)])

    def statement(self, node: Tree) -> Stmt:
        method = getattr(self, f"stmt_{node.data}", None)
        if method is None:
            raise self.error(f"'{node.data}' is not supported", node)
        return _located(method(node), self.where(node))

    def stmt_expr_stmt(self, node: Tree) -> Stmt:
        value = self.expr(node.children[0])

        def expression_statement(f: list) -> None:
            value(f)

        return expression_statement

    def stmt_pass_stmt(self, node: Tree) -> Stmt:
        return lambda f: None

    def stmt_break_stmt(self, node: Tree) -> Stmt:
        if not self.loop_depth:
            raise self.error("'break' outside loop", node)
        return lambda f: BREAK

    def stmt_continue_stmt(self, node: Tree) -> Stmt:
        if not self.loop_depth:
            raise self.error("'continue' not properly in loop", node)
        return lambda f: CONTINUE

    def stmt_return_stmt(self, node: Tree) -> Stmt:
        if self.scope.kind != "function":
            raise self.error("'return' outside function", node)
        if node.children[0] is None:
            return lambda f: RETURN
        value = self.expr(node.children[0])

        def return_statement(f: list) -> str:
            f[RETURN_SLOT] = value(f)
            return RETURN

        return return_statement

    def stmt_global_stmt(self, node: Tree) -> Stmt:
        return lambda f: None

    stmt_nonlocal_stmt = stmt_global_stmt

    def stmt_assign(self, node: Tree) -> Stmt:
        *targets, value_node = node.children
        value = self.expr(value_node)
        stores = [self.store(target) for target in targets]
        if len(stores) == 1:
            (store,) = stores

            def assign(f: list) -> None:
                store(f, value(f))

            return assign
        stores_tuple = tuple(stores)

        def assign_many(f: list) -> None:
            result = value(f)
            for store in stores_tuple:
                store(f, result)

        return assign_many

    def stmt_augassign(self, node: Tree) -> Stmt:
        target, op_node, value_node = node.children
        op = AUGMENTED_OPERATORS[str(op_node.children[0])]
        value = self.expr(value_node)
        where = self.where(node)
        if target.data == "var":
            load, store = self.expr(target), self.store(target)

            def augment_name(f: list) -> None:
                store(f, op(load(f), value(f)))

            return augment_name
        if target.data == "getattr":
            obj = self.expr(target.children[0])
            name = str(target.children[1])
            getter = sandbox.make_getter(name)

            def augment_attribute(f: list) -> None:
                holder = obj(f)
                result = op(getter(holder), value(f))
                sandbox.check_setattr(holder, name)
                setattr(holder, name, result)

            return augment_attribute
        if target.data == "getitem":
            obj, key = self.expr(target.children[0]), self.subscript(target.children[1])

            def augment_item(f: list) -> None:
                holder, index = obj(f), key(f)
                holder[index] = op(holder[index], value(f))

            return augment_item
        raise CompileError("'expression' is an illegal expression for augmented assignment", where)

    def stmt_del_stmt(self, node: Tree) -> Stmt:
        return self.delete(node.children[0])

    def stmt_assert_stmt(self, node: Tree) -> Stmt:
        test = self.condition(node.children[0])
        message = self.expr(node.children[1]) if node.children[1] is not None else None

        def assert_statement(f: list) -> None:
            if not test(f):
                if message is None:
                    raise AssertionError
                raise AssertionError(message(f))

        return assert_statement

    def stmt_raise_stmt(self, node: Tree) -> Stmt:
        exception_node, cause_node = node.children
        where = self.where(node)
        if exception_node is None:

            def reraise(f: list) -> None:
                current = sys.exc_info()[1]
                if current is None:
                    error = RuntimeError("No active exception to reraise")
                    set_location(error, where)
                    raise error
                raise current

            return reraise
        exception = self.expr(exception_node)
        cause = self.expr(cause_node) if cause_node is not None else None

        def raise_statement(f: list) -> None:
            error = exception(f)  # checked by type: `isinstance` would ask `__class__`
            if issubclass(type(error), type) and issubclass(error, BaseException):
                error = error()
            if not issubclass(type(error), BaseException):
                raise TypeError("exceptions must derive from BaseException")
            set_location(error, where)
            mark_raised_by_script(error)
            if cause is not None:
                raise error from cause(f)
            raise error

        return raise_statement

    # -- imports ----------------------------------------------------------------------------

    def stmt_import_name(self, node: Tree) -> Stmt:
        actions = []
        for item in node.children:
            dotted_node, alias = item.children
            dotted = ".".join(str(part) for part in dotted_node.children)
            if alias is None:
                first = str(dotted_node.children[0])
                actions.append((dotted, first, self.store_name(first)))
            else:
                actions.append((dotted, None, self.store_name(str(alias))))

        def import_statement(f: list) -> None:
            namespace = f[0]
            for dotted, first, store in actions:
                module = namespace.import_module(dotted)
                store(f, namespace.import_module(first) if first else module)

        return import_statement

    def stmt_import_from(self, node: Tree) -> Stmt:
        dotted_node, names = node.children
        dotted = ".".join(str(part) for part in dotted_node.children)
        items = []
        for item in names.children:
            if item is None:
                continue
            name, alias = item.children
            items.append((str(name), self.store_name(str(alias if alias is not None else name))))

        getters = [(name, sandbox.make_getter(name), store) for name, store in items]

        def import_from(f: list) -> None:
            module = f[0].import_module(dotted)
            for name, getter, store in getters:
                if not sandbox.name_allowed(name) or not hasattr(module, name):
                    raise ImportError(f"cannot import name '{name}' from '{dotted}'")
                store(f, getter(module))  # the value checked as `module.name` would be

        return import_from

    def stmt_import_star(self, node: Tree) -> Stmt:
        dotted = ".".join(str(part) for part in node.children[0].children)

        def import_star(f: list) -> None:
            module = f[0].import_module(dotted)
            for name, value in vars(module).items():
                if not name.startswith("_") and sandbox.may_hold(value):
                    f[0][name] = value

        return import_star

    # -- control flow -----------------------------------------------------------------------

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

    # -- definitions ------------------------------------------------------------------------

    def stmt_funcdef(self, node: Tree, decorators: tuple[Fn, ...] = ()) -> Stmt:
        name = str(node.children[0])
        body = node.children[3]
        create = self.function(node, name, node.children[1], body, is_expression=False)
        store = self.store_name(name)

        def define(f: list) -> None:
            function = create(f)
            for decorator in reversed(decorators):
                function = decorator(f)(function)
            store(f, function)

        return define

    def expr_lambdef(self, node: Tree) -> Fn:
        return self.function(node, "<lambda>", node.children[0], node.children[1], True)

    expr_lambdef_nocond = expr_lambdef

    def function(
        self, node: Tree, name: str, parameters: Tree | None, body_node: Tree, is_expression: bool
    ) -> Fn:
        """Compile a def/lambda once; the returned closure creates the function object."""
        outer = self.scope
        inner = self.scopes[id(node)]
        signature = parse_signature(parameters)
        defaults = [self.expr(p.default) for p in signature.positional if p.default is not None]
        kwdefaults = [
            (p.name, self.expr(p.default)) for p in signature.keyword_only if p.default is not None
        ]
        saved_loop_depth = self.loop_depth
        self.scope, self.loop_depth = inner, 0
        try:
            if is_expression:
                body = self.expr(body_node)
                doc = None
            else:
                body = self.suite(body_node)
                doc = _docstring(body_node)
        finally:
            self.scope, self.loop_depth = outer, saved_loop_depth
        spec = FunctionSpec(
            name, outer.qualname_prefix + name, inner, signature, body, is_expression, doc
        )
        capture = self._capture(inner, outer)

        def create(f: list) -> Callable[..., Any]:
            return make_function(
                spec,
                f[0],
                [default(f) for default in defaults],
                {key: default(f) for key, default in kwdefaults},
                capture(f),
            )

        return create

    def _capture(self, inner: Scope, outer: Scope) -> Callable[[list], tuple]:
        """Read the cells a new function/comprehension closes over from the defining frame."""
        slots = tuple(outer.slots[name] for name in sorted(inner.free))
        if not slots:
            return lambda f: ()
        return lambda f: tuple([f[slot] for slot in slots])

    def stmt_decorated(self, node: Tree) -> Stmt:
        *decorator_nodes, definition = node.children
        decorators = tuple(self.expr(item.children[0]) for item in decorator_nodes)
        if definition.data == "funcdef":
            return self.stmt_funcdef(definition, decorators)
        return self.stmt_classdef(definition, decorators)

    def stmt_classdef(self, node: Tree, decorators: tuple[Fn, ...] = ()) -> Stmt:
        name_token, arguments, body_node = node.children
        name = str(name_token)
        bases: list[Fn] = []
        for child in arguments.children if arguments is not None else []:
            if isinstance(child, Tree) and child.data.endswith("argument"):
                raise self.error("class keywords and star arguments are not supported", child)
            if child is not None:
                bases.append(self.expr(child))
        outer, inner = self.scope, self.scopes[id(node)]
        saved_loop_depth = self.loop_depth
        self.scope, self.loop_depth = inner, 0
        try:
            body = self.suite(body_node)
        finally:
            self.scope, self.loop_depth = outer, saved_loop_depth
        store = self.store_name(name)
        qualname = outer.qualname_prefix + name
        doc = _docstring(body_node)
        free = tuple(sorted(inner.free))
        outer_slots = tuple(outer.slots[item] for item in free)
        inner_slots = tuple(inner.slots[item] for item in free)
        size = max([CLASS_CELL_SLOT + 1, *(slot + 1 for slot in inner_slots)])

        def define_class(f: list) -> None:
            base_values = tuple(base(f) for base in bases)
            for base_value in base_values:
                typeview.check_base(base_value)
            namespace: dict[str, Any] = {"__module__": "__main__", "__qualname__": qualname}
            if doc is not None:
                namespace["__doc__"] = doc
            frame: list[Any] = [UNBOUND] * size
            frame[0], frame[CLASS_DICT_SLOT], frame[CLASS_CELL_SLOT] = f[0], namespace, Cell()
            for outer_slot, inner_slot in zip(outer_slots, inner_slots):
                frame[inner_slot] = f[outer_slot]
            body(frame)
            _check_class_namespace(namespace)
            namespace[sandbox.SCRIPT_MARK] = True
            if "__del__" in namespace:
                namespace["__del__"] = _quiet_finalizer(namespace["__del__"], f[0])
            if any(issubclass(base, int) for base in base_values):
                for key, method in _CHECKED_INT_METHODS.items():
                    namespace.setdefault(key, method)
            metaclass = type
            for base in base_values:
                if isinstance(type(base), type) and issubclass(type(base), metaclass):
                    metaclass = type(base)
            cls = metaclass(name, base_values, namespace)
            frame[CLASS_CELL_SLOT].v = cls
            for decorator in reversed(decorators):
                cls = decorator(f)(cls)
            store(f, cls)

        return define_class

    # -- comprehensions ---------------------------------------------------------------------

    def _comprehension(self, node: Tree) -> tuple[Fn, Callable[[list], Any]]:
        """(first iterable in the outer scope, make_generator(frame, first_iterable))."""
        comprehension = node.children[0]
        result_node, first_for, *clauses = comprehension.children
        outer, inner = self.scope, self.scopes[id(node)]
        first_iterable = self.expr(first_for.children[1])
        self.scope = inner
        try:
            steps = [("for", self.store(first_for.children[0]), None)]
            for clause in clauses:
                if clause.data == "comp_for":
                    steps.append(
                        ("for", self.store(clause.children[0]), self.expr(clause.children[1]))
                    )
                else:
                    steps.append(("if", self.condition(clause.children[0]), None))
            if result_node.data == "key_value":
                key, value = self.expr(result_node.children[0]), self.expr(result_node.children[1])

                def result(f: list) -> Any:
                    return key(f), value(f)

            else:
                result = self.expr(result_node)
        finally:
            self.scope = outer
        capture = self._capture(inner, outer)
        free_slots = tuple(inner.slots[name] for name in sorted(inner.free))
        cell_slots = tuple(inner.slots[name] for name in sorted(inner.cells))
        size = inner.frame_size()
        generator = _nest(steps, result)

        def run(f: list, iterable: Any) -> Any:
            frame: list[Any] = [UNBOUND] * size
            frame[0], frame[RETURN_SLOT] = f[0], None
            for slot, cell in zip(free_slots, capture(f)):
                frame[slot] = cell
            for slot in cell_slots:
                frame[slot] = Cell()
            return generator(frame, iter(iterable))

        return first_iterable, run

    def expr_genexpr(self, node: Tree) -> Fn:
        first, run = self._comprehension(node)
        track = nesting.track_generator

        def generator_expression(f: list) -> Any:
            source = first(f)
            return track(run(f, source), source)

        return generator_expression

    expr_genexpr_argument = expr_genexpr

    def expr_listcomp(self, node: Tree) -> Fn:
        first, run = self._comprehension(node)
        return lambda f: list(run(f, first(f)))

    def expr_setcomp(self, node: Tree) -> Fn:
        first, run = self._comprehension(node)
        return lambda f: set(run(f, first(f)))

    def expr_dictcomp(self, node: Tree) -> Fn:
        first, run = self._comprehension(node)
        return lambda f: dict(run(f, first(f)))

    # -- assignment targets -----------------------------------------------------------------

    def store_name(self, name: str) -> Callable[[list, Any], None]:
        scope = self.scope
        kind = scope.kind_of(name)
        if kind == "local":
            slot = scope.slots[name]

            def store_local(f: list, value: Any) -> None:
                f[slot] = value

            return store_local
        if kind in ("cell", "free"):
            slot = scope.slots[name]

            def store_cell(f: list, value: Any) -> None:
                f[slot].v = value

            return store_cell
        if kind == "class":

            def store_class(f: list, value: Any) -> None:
                f[CLASS_DICT_SLOT][name] = value

            return store_class

        def store_global(f: list, value: Any) -> None:
            f[0][name] = value

        return store_global

    def store(self, target: Tree) -> Callable[[list, Any], None]:
        kind = target.data
        if kind == "var":
            return self.store_name(str(target.children[0]))
        if kind in ("tuple", "list"):
            return self._store_unpack([child for child in target.children if child is not None])
        if kind == "getattr":
            obj = self.expr(target.children[0])
            name = str(target.children[1])

            def store_attribute(f: list, value: Any) -> None:
                holder = obj(f)
                sandbox.check_setattr(holder, name)
                setattr(holder, name, value)

            return store_attribute
        if kind == "getitem":
            obj, key = self.expr(target.children[0]), self.subscript(target.children[1])

            def store_item(f: list, value: Any) -> None:
                obj(f)[key(f)] = value

            return store_item
        if kind == "star_expr":
            raise self.error("starred assignment target must be in a list or tuple", target)
        raise self.error(f"cannot assign to {_describe(target)}", target)

    def _store_unpack(self, targets: list[Tree]) -> Callable[[list, Any], None]:
        stars = [i for i, t in enumerate(targets) if isinstance(t, Tree) and t.data == "star_expr"]
        if len(stars) > 1:
            raise self.error("multiple starred expressions in assignment", targets[stars[1]])
        if stars:
            star = stars[0]
            before = tuple(self.store(t) for t in targets[:star])
            middle = self.store_name_or_target(targets[star].children[0])
            after = tuple(self.store(t) for t in targets[star + 1 :])
            minimum = len(before) + len(after)

            def store_starred(f: list, value: Any) -> None:
                items = list(value)
                if len(items) < minimum:
                    raise ValueError(
                        f"not enough values to unpack (expected at least {minimum}, got {len(items)})"
                    )
                for store, item in zip(before, items):
                    store(f, item)
                middle(f, items[len(before) : len(items) - len(after)])
                for store, item in zip(after, items[len(items) - len(after) :]):
                    store(f, item)

            return store_starred
        stores = tuple(self.store(t) for t in targets)
        count = len(stores)

        def store_unpack(f: list, value: Any) -> None:
            items = value if type(value) is tuple else tuple(value)
            if len(items) != count:
                if len(items) > count:
                    raise ValueError(f"too many values to unpack (expected {count})")
                raise ValueError(
                    f"not enough values to unpack (expected {count}, got {len(items)})"
                )
            for store, item in zip(stores, items):
                store(f, item)

        return store_unpack

    def store_name_or_target(self, target: Tree) -> Callable[[list, Any], None]:
        return self.store(target)

    def delete_name(self, name: str, quiet: bool = False) -> Stmt:
        scope = self.scope
        kind = scope.kind_of(name)
        message = f"name '{name}' is not defined"
        if kind in ("local", "cell", "free"):
            slot = scope.slots[name]
            is_cell = kind != "local"

            def delete_variable(f: list) -> None:
                if is_cell:
                    if f[slot].v is UNBOUND and not quiet:
                        raise NameError(message)
                    f[slot].v = UNBOUND
                else:
                    if f[slot] is UNBOUND and not quiet:
                        raise NameError(message)
                    f[slot] = UNBOUND

            return delete_variable
        slot = CLASS_DICT_SLOT if kind == "class" else 0

        def delete_global(f: list) -> None:
            mapping = f[slot]
            if name in mapping:
                del mapping[name]
            elif not quiet:
                raise NameError(message)

        return delete_global

    def delete(self, target: Tree) -> Stmt:
        kind = target.data
        if kind == "var":
            return self.delete_name(str(target.children[0]))
        if kind in ("tuple", "list"):
            return _block([self.delete(child) for child in target.children if child is not None])
        if kind == "getattr":
            obj = self.expr(target.children[0])
            name = str(target.children[1])

            def delete_attribute(f: list) -> None:
                holder = obj(f)
                sandbox.check_setattr(holder, name)
                delattr(holder, name)

            return delete_attribute
        if kind == "getitem":
            obj, key = self.expr(target.children[0]), self.subscript(target.children[1])

            def delete_item(f: list) -> None:
                del obj(f)[key(f)]

            return delete_item
        raise self.error(f"cannot delete {_describe(target)}", target)


# ---- helpers for statements ----------------------------------------------------------------


def _make_try(
    body: Stmt, handlers: tuple, orelse: Stmt | None, final: Stmt | None
) -> Stmt:  # fmt: skip
    def try_statement(f: list) -> Any:
        signal = None
        try:
            try:
                signal = body(f)
            except BaseException as error:
                for kind, store, delete, handler in handlers:
                    if kind is not None:
                        expected = kind(f)
                        if not _is_exception_class(expected):
                            raise TypeError(
                                "catching classes that do not inherit from BaseException "
                                "is not allowed"
                            ) from None
                        if not issubclass(type(error), expected):  # never asks `__class__`
                            continue
                    if store is not None:
                        store(f, error)
                        try:
                            return handler(f)
                        finally:
                            delete(f)
                    return handler(f)
                raise
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


def _make_with(manager: Fn, store: Callable | None, body: Stmt, where: Location) -> Stmt:
    def with_statement(f: list) -> Any:
        context = manager(f)
        kind = type(context)
        try:
            enter, exit_ = kind.__enter__, kind.__exit__
        except AttributeError:
            error = TypeError(
                f"'{kind.__name__}' object does not support the context manager protocol"
            )
            attach_location(error, where)
            raise error from None
        value = enter(context)
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


def _nest(steps: list, result: Fn) -> Callable[[list, Any], Any]:
    """A generator function running comprehension clauses left to right."""
    interrupt = limits.Interrupt

    def build(index: int) -> Callable[[list], Any]:
        if index == len(steps):

            def emit(f: list) -> Any:
                yield result(f)

            return emit
        kind, first, second = steps[index]
        inner = build(index + 1)
        if kind == "if":
            test = first

            def filter_step(f: list) -> Any:
                if test(f):
                    yield from inner(f)

            return filter_step
        store, iterable = first, second

        def for_step(f: list) -> Any:
            for item in iterable(f):
                if interrupt.pending is not None:
                    limits.raise_interrupt()
                store(f, item)
                yield from inner(f)

        return for_step

    _, first_store, _ = steps[0]
    rest = build(1)
    innermost_simple = len(steps) == 1

    def generator(f: list, iterator: Any) -> Any:
        if innermost_simple:
            for item in iterator:
                if interrupt.pending is not None:
                    limits.raise_interrupt()
                first_store(f, item)
                yield result(f)
        else:
            for item in iterator:
                if interrupt.pending is not None:
                    limits.raise_interrupt()
                first_store(f, item)
                yield from rest(f)

    return generator


def _flatten(children: list) -> list[Tree]:
    """Statements of a suite, with `a; b` groups (simple_stmt) spread out."""
    result = []
    for child in children:
        if not isinstance(child, Tree):
            continue
        if child.data in ("simple_stmt", "suite"):
            result.extend(_flatten(child.children))
        else:
            result.append(child)
    return result


def _docstring(body: Tree) -> str | None:
    """The leading string literal of a def/class body (not an f-string), if any."""
    from autodiff_cli.lang.fstrings import decode_plain, split_prefix

    statements = _flatten(body.children) if body.data == "suite" else []
    if statements and statements[0].data == "expr_stmt":
        value = statements[0].children[0]
        if isinstance(value, Tree) and value.data == "strings":
            tokens = [str(token) for token in value.children]
            if not any("f" in split_prefix(token)[0] for token in tokens):
                return "".join(decode_plain(token) for token in tokens)
    return None


def _describe(target: Any) -> str:
    names = {
        "call": "function call", "number": "literal", "strings": "literal",
        "const_none": "None", "const_true": "True", "const_false": "False",
        "comparison": "comparison", "lambdef": "lambda",
    }  # fmt: skip
    kind = target.data if isinstance(target, Tree) else "expression"
    return names.get(kind, "expression")


# ---- programs ------------------------------------------------------------------------------


class Program:
    """A compiled script: `run(namespace)` executes it and returns the kept value, if any."""

    def __init__(self, source: Source, code: Stmt, mode: str) -> None:
        self.source = source
        self.code = code
        self.mode = mode

    @property
    def filename(self) -> str:
        return self.source.filename

    def run(self, namespace: dict) -> Any:
        """Run in `namespace`; a failure becomes a ScriptError located in the script.

        A pending `request_interrupt` is consumed by the outermost run: KeyboardInterrupt
        propagates (located like a ScriptError's cause), a ScriptTimeout becomes a ScriptError.
        """
        from autodiff_cli.lang.runtime import CallDepth

        frame = [namespace, None]
        saved_depth = CallDepth.depth
        outermost = not _Running.depth
        limit = sys.getrecursionlimit()
        if limit < 20000:
            sys.setrecursionlimit(20000)
        _Running.depth += 1
        _Running.namespaces.append(namespace)
        try:
            result = self.code(frame)
        except BaseException as error:
            if is_user_interrupt(error):
                raise
            raise ScriptError.from_exception(error, None) from error
        finally:
            _Running.depth -= 1
            _Running.namespaces.pop()
            CallDepth.depth = saved_depth
            sys.setrecursionlimit(limit)
            if outermost:
                limits.clear_interrupt()
        return result if self.mode == "eval" else frame[RETURN_SLOT]


class _Running:
    """How many `Program.run` calls are active (a script function may run inside another),
    and the namespaces they run in, innermost last."""

    depth = 0
    namespaces: list[dict] = []


# Names a class body may not define: they would change what the sandbox sees of its objects
# (`__class__`, or a `__getattribute__` answering for it, fakes isinstance for the engine) or
# be called by copying/pickling code.
_RESERVED_CLASS_NAMES = frozenset(
    "__class__ __dict__ __weakref__ __getattribute__ __reduce__ __reduce_ex__ __getstate__ "
    "__setstate__ __copy__ __deepcopy__ __mro_entries__ __autodiff_script__".split()
)


def _check_class_namespace(namespace: dict[str, Any]) -> None:
    for key in namespace:
        if key in _RESERVED_CLASS_NAMES:
            raise TypeError(f"a script class cannot define '{key}'")


def _checked_int_pow(self: int, other: Any, modulo: Any = None) -> Any:
    if modulo is None:
        return limits.checked_power(int.__index__(self), other)
    return int.__pow__(self, other, modulo)


def _checked_int_rpow(self: int, other: Any, modulo: Any = None) -> Any:
    if modulo is None:
        return limits.checked_power(other, int.__index__(self))
    return int.__rpow__(self, other, modulo)


# `**` of a script subclass of int without its own: checked like `**` of int (also `**=`).
_CHECKED_INT_METHODS = {"__pow__": _checked_int_pow, "__rpow__": _checked_int_rpow}


def _quiet_finalizer(finalizer: Callable[[Any], Any], owner: dict) -> Callable[[Any], None]:
    """A script's `__del__` runs at unpredictable times: its errors are ignored, not printed,
    and it runs only while its own script runs (not after it ended, nor during the next script
    of a batch, where it could change that script's grad mode or default dtype)."""

    def __del__(self: Any) -> None:  # noqa: N807
        running = _Running.namespaces
        if not running or running[-1] is not owner:
            return
        try:
            finalizer(self)
        except BaseException:  # noqa: BLE001, S110 - nothing can report it
            pass

    return __del__


def compile_tree(tree: Tree, source: Source, mode: str) -> Program:
    builder = ScopeBuilder(source)
    try:
        builder.build(tree)
        compiler = Compiler(source, builder)
        if mode == "eval":
            code = compiler.expression(tree)
        else:
            code = compiler.module(tree, keep_last_value=mode == "single")
    except ScopeError as error:
        location = Location(source, 1, 1)
        if error.node is not None and isinstance(error.node, Tree) and not error.node.meta.empty:
            location = Location(source, error.node.meta.line, error.node.meta.column)
        raise ScriptError.at(location, "SyntaxError", str(error)) from None
    except CompileError as error:
        raise ScriptError.at(error.location, "SyntaxError", str(error)) from None
    except RecursionError:
        raise ScriptError.at(
            Location(source, 1, 1), "SyntaxError", "too many nested expressions or blocks"
        ) from None
    return Program(source, code, mode)
