"""Compiling definitions: functions, lambdas, classes and comprehensions."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from autodiff_cli.lang import limits
from autodiff_cli.lang.compile.blocks import Running, Stmt, docstring_of
from autodiff_cli.lang.compile.expressions import Fn
from autodiff_cli.lang.compile.scopes import (
    CLASS_CELL_SLOT,
    CLASS_DICT_SLOT,
    Scope,
    parse_signature,
)
from autodiff_cli.lang.parse.syntax_tree import Tree
from autodiff_cli.lang.runtime.functions import FunctionSpec, make_function
from autodiff_cli.lang.runtime.namespace import RETURN_SLOT, UNBOUND, Cell
from autodiff_cli.lang.sandbox import capabilities, class_checks, nesting, reflection, typeview


class DefinitionCompiler:
    """Def, lambda, class and comprehension compilation (a mixin of `compiler.Compiler`)."""

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
        returns = node.children[2] if node.data == "funcdef" else None
        annotations = self.function_annotations(signature, returns)
        saved_loop_depth = self.loop_depth
        self.scope, self.loop_depth = inner, 0
        doc = None if is_expression else docstring_of(body_node)
        try:
            if inner.is_generator:
                qualname = outer.qualname_prefix + name
                body = self.generator_body(body_node, qualname, is_expression)
            elif is_expression:
                body = self.expr(body_node)
            else:
                body = self.suite(body_node)
        finally:
            self.scope, self.loop_depth = outer, saved_loop_depth
        spec = FunctionSpec(
            name, outer.qualname_prefix + name, inner, signature, body, is_expression, doc
        )
        line = node.meta.line if not node.meta.empty else 1
        spec.code = reflection.code_maker(spec, inner, body_node, self.source.filename, line)
        capture = self._capture(inner, outer)

        def create(f: list) -> Callable[..., Any]:
            return make_function(
                spec,
                f[0],
                [default(f) for default in defaults],
                {key: default(f) for key, default in kwdefaults},
                capture(f),
            )

        if annotations is None:
            return create

        def create_annotated(f: list) -> Callable[..., Any]:
            function = create(f)  # defaults first, then annotations, as Python evaluates them
            function.__annotations__ = annotations(f)
            return function

        return create_annotated

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
        doc = docstring_of(body_node)
        free = tuple(sorted(inner.free))
        outer_slots = tuple(outer.slots[item] for item in free)
        inner_slots = tuple(inner.slots[item] for item in free)
        size = max([CLASS_CELL_SLOT + 1, *(slot + 1 for slot in inner_slots)])
        annotates = inner.annotates

        def define_class(f: list) -> None:
            base_values = tuple(base(f) for base in bases)
            named_tuple = _named_tuple_base(base_values)
            for base_value in base_values:
                if base_value is not named_tuple:
                    typeview.check_base(base_value)
            namespace: dict[str, Any] = {"__module__": "__main__", "__qualname__": qualname}
            if annotates or named_tuple is not None:
                namespace["__annotations__"] = {}
            if doc is not None:
                namespace["__doc__"] = doc
            frame: list[Any] = [UNBOUND] * size
            frame[0], frame[CLASS_DICT_SLOT], frame[CLASS_CELL_SLOT] = f[0], namespace, Cell()
            for outer_slot, inner_slot in zip(outer_slots, inner_slots):
                frame[inner_slot] = f[outer_slot]
            body(frame)
            if named_tuple is not None:  # `class P(NamedTuple)`: derives from its namedtuple
                made = sys.modules[_TYPING_MODULE].named_tuple_base(name, namespace)
                base_values = tuple(made if b is named_tuple else b for b in base_values)
            class_checks.check_namespace(namespace)
            namespace[capabilities.SCRIPT_MARK] = True
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
            class_checks.check_class(cls)
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


_TYPING_MODULE = "autodiff_cli.lang.pylib.modules.typing_module"


def _named_tuple_base(bases: tuple) -> Any:
    """The script's `typing.NamedTuple` among a class's bases (None: it is not there)."""
    typing_module = sys.modules.get(_TYPING_MODULE)
    if typing_module is None:
        return None
    return next((base for base in bases if base is typing_module.NamedTuple), None)


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
        running = Running.namespaces
        if not running or running[-1] is not owner:
            return
        try:
            finalizer(self)
        except BaseException:  # noqa: BLE001, S110 - nothing can report it
            pass

    return __del__
