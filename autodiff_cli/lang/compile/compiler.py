"""Compiling statements, functions and classes into closures; `compile_source` and `Program`.

The parse tree is walked once, here and in the mixins `Compiler` is made of: control flow
(`control_flow`), definitions (`definitions`), targets (`targets`), generator bodies
(`generators`); `blocks` has the control signals and located statements they share.
"""

from __future__ import annotations

import sys
from typing import Any

from autodiff_cli.lang import limits
from autodiff_cli.lang.compile.annotations import AnnotationCompiler, setup_annotations
from autodiff_cli.lang.compile.blocks import (
    BREAK,
    CONTINUE,
    RETURN,
    Running,
    Stmt,
    block,
    flatten,
    located,
    set_statement_probe,
)
from autodiff_cli.lang.compile.control_flow import ControlFlowCompiler
from autodiff_cli.lang.compile.definitions import DefinitionCompiler
from autodiff_cli.lang.compile.expressions import ExpressionCompiler, Fn
from autodiff_cli.lang.compile.generators import GeneratorCompiler
from autodiff_cli.lang.compile.operator_closures import AUGMENTED_OPERATORS
from autodiff_cli.lang.compile.scopes import Scope, ScopeBuilder, ScopeError
from autodiff_cli.lang.compile.targets import TargetCompiler
from autodiff_cli.lang.errors import (
    CompileError,
    Location,
    ScriptError,
    Source,
    clear_location_in,
    is_user_interrupt,
    mark_raised_by_script,
    set_location,
)
from autodiff_cli.lang.parse.parser import ParseFailure, decode_source, parse
from autodiff_cli.lang.parse.syntax_tree import Tree
from autodiff_cli.lang.runtime import unraisable
from autodiff_cli.lang.runtime.namespace import RETURN_SLOT, UNBOUND, CallDepth
from autodiff_cli.lang.sandbox import capabilities, introspection, reflection

__all__ = ["Compiler", "Program", "compile_tree", "set_statement_probe"]


class Compiler(
    AnnotationCompiler,
    GeneratorCompiler,
    ControlFlowCompiler,
    DefinitionCompiler,
    TargetCompiler,
    ExpressionCompiler,
):
    def __init__(self, source: Source, builder: ScopeBuilder) -> None:
        self.source = source
        self.scopes = builder.scopes
        self.fstring_pieces = builder.fstring_pieces
        self.yield_names = builder.yield_names
        self.scope: Scope = None  # type: ignore[assignment]
        self.loop_depth = 0
        self._yield_cache: dict[int, bool] = {}
        self._hoisted_slots: dict[int, int] = {}  # id(node) -> the slot a generator step fills

    # -- entry points -----------------------------------------------------------------------

    def module(self, tree: Tree, *, keep_last_value: bool) -> Stmt:
        self.scope = self.scopes[id(tree)]
        statements = flatten(tree.children)
        self._future_imports = _leading_future_imports(statements)
        compiled = [self.statement(node) for node in statements]
        if self.scope.annotates:
            compiled.insert(0, setup_annotations)
        if keep_last_value and statements and statements[-1].data == "expr_stmt":
            value = self.expr(statements[-1].children[0])

            def keep(f: list) -> None:
                f[RETURN_SLOT] = value(f)

            compiled[-1] = located(keep, self.where(statements[-1]))
        return block(compiled) if compiled else (lambda f: None)

    def expression(self, tree: Tree) -> Fn:
        self.scope = self.scopes[id(tree)]
        return self.expr(tree.children[0])

    def expr_call(self, node: Tree) -> Fn:
        function, arguments = node.children
        if (
            arguments is None
            and isinstance(function, Tree)
            and function.data == "var"
            and str(function.children[0]) == "dir"
            and self.scope.kind == "function"
            and self.scope.kind_of("dir") == "global"
        ):
            return self._scope_dir(function)
        if (
            isinstance(function, Tree)
            and function.data == "var"
            and str(function.children[0]) == "eval"
            and self.scope.kind == "function"
            and self.scope.kind_of("eval") == "global"
        ):
            return self._scope_eval(node)
        return super().expr_call(node)

    def _scope_eval(self, node: Tree) -> Fn:
        """`eval(...)` in a function: if `eval` is the builtin, it sees the function's bound
        local variables (a snapshot, as Python's) when it is given no mappings."""
        call = super().expr_call(node)
        load = self.expr(node.children[0])
        arguments = node.children[1]
        only_source = (
            arguments is not None
            and len(arguments.children) == 1
            and isinstance(arguments.children[0], Tree)
            and arguments.children[0].data
            not in ("keyword_argument", "star_argument", "double_star_argument")
        )
        if not only_source:
            return call
        source = self.expr(arguments.children[0])
        scope = self.scope
        entries = tuple(
            (name, slot, scope.kind_of(name) != "local")
            for name, slot in scope.slots.items()
            if not name.startswith("%")
        )

        def local_eval(f: list) -> Any:
            builtin = load(f)
            if not getattr(builtin, reflection.READS_SCOPE, False):
                return call(f)
            bound = {}
            for name, slot, is_cell in entries:
                value = getattr(f[slot], "v", UNBOUND) if is_cell else f[slot]
                if value is not UNBOUND:
                    bound[name] = value
            return reflection.evaluate(f[0], source(f), None, bound, run_expression)

        return local_eval

    def _scope_dir(self, function: Tree) -> Fn:
        """`dir()` in a function: its bound local names, as Python's (if `dir` is the builtin)."""
        load = self.expr(function)
        scope = self.scope
        entries = tuple(
            (name, slot, scope.kind_of(name) != "local")
            for name, slot in scope.slots.items()
            if not name.startswith("%")  # the compiler's hidden slots
        )

        def local_dir(f: list) -> Any:
            builtin = load(f)
            if not getattr(builtin, introspection.LISTS_SCOPE, False):
                return builtin()
            return sorted(
                name
                for name, slot, is_cell in entries
                if (getattr(f[slot], "v", UNBOUND) if is_cell else f[slot]) is not UNBOUND
            )

        return local_dir

    # -- statements -------------------------------------------------------------------------

    def suite(self, node: Tree) -> Stmt:
        return block([self.statement(child) for child in flatten(node.children)])

    def statement(self, node: Tree) -> Stmt:
        method = getattr(self, f"stmt_{node.data}", None)
        if method is None:
            raise self.error(f"'{node.data}' is not supported", node)
        return located(method(node), self.where(node))

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
            name = self.attribute_name(target.children[1])
            getter = capabilities.make_getter(name)

            def augment_attribute(f: list) -> None:
                holder = obj(f)
                capabilities.script_setattr(holder, name, op(getter(holder), value(f)))

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
        if dotted == "__future__":
            return self._future_import(node, names)
        items = []
        for item in names.children:
            if item is None:
                continue
            name, alias = item.children
            items.append((str(name), self.store_name(str(alias if alias is not None else name))))

        getters = [(name, capabilities.make_getter(name), store) for name, store in items]

        def import_from(f: list) -> None:
            module = f[0].import_module(dotted)
            for name, getter, store in getters:
                if not capabilities.name_allowed(name) or not hasattr(module, name):
                    raise ImportError(f"cannot import name '{name}' from '{dotted}'")
                store(f, getter(module))  # the value checked as `module.name` would be

        return import_from

    def _future_import(self, node: Tree, names: Tree) -> Stmt:
        """`from __future__ import annotations` (and the older features): accepted where Python
        accepts them, at the start of the file; every one is already how scripts behave."""
        if id(node) not in getattr(self, "_future_imports", ()):
            raise self.error(
                "from __future__ imports must occur at the beginning of the file", node
            )
        for item in names.children:
            if item is None:
                continue
            feature = str(item.children[0])
            if feature == "braces":
                raise self.error("not a chance", item)
            if feature not in _FUTURE_FEATURES:
                raise self.error(f"future feature {feature} is not defined", item)
            if feature == "annotations":
                self.future_annotations = True
        return lambda f: None

    def stmt_import_star(self, node: Tree) -> Stmt:
        dotted = ".".join(str(part) for part in node.children[0].children)

        def import_star(f: list) -> None:
            module = f[0].import_module(dotted)
            for name, value in vars(module).items():
                if not name.startswith("_") and capabilities.may_hold(value):
                    f[0][name] = value

        return import_star


# Python's future features; all but `annotations` (kept as text, see `annotations`) are how the
# language behaves already (division is true division...). `barry_as_FLUFL` (`<>`) is not
# among them.
_FUTURE_FEATURES = frozenset({
    "nested_scopes", "generators", "division", "absolute_import", "with_statement",
    "print_function", "unicode_literals", "generator_stop", "annotations",
})  # fmt: skip


def _leading_future_imports(statements: list[Tree]) -> frozenset[int]:
    """ids of the `from __future__ import` statements at the start of a module (after its
    docstring), the only place Python accepts them."""
    found = set()
    for index, node in enumerate(statements):
        if index == 0 and node.data == "expr_stmt":
            value = node.children[0]
            if isinstance(value, Tree) and value.data == "strings":
                continue
        if node.data != "import_from":
            break
        dotted = ".".join(str(part) for part in node.children[0].children)
        if dotted != "__future__":
            break
        found.add(id(node))
    return frozenset(found)


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
        introspection.install(namespace)  # dir, help, GeneratorExit (not yet in runtime)
        frame = [namespace, None]
        saved_depth = CallDepth.depth
        outermost = not Running.depth
        limit = sys.getrecursionlimit()
        if limit < 20000:
            sys.setrecursionlimit(20000)
        Running.enter(namespace)
        saved_hook = sys.unraisablehook
        if outermost:  # a finalizer's error: one located line, never CPython's traceback
            sys.unraisablehook = unraisable.hook_for(self.filename)
        try:
            result = self.code(frame)
        except BaseException as error:
            if is_user_interrupt(error):
                raise
            raise ScriptError.from_exception(error, None) from error
        finally:
            Running.leave()
            CallDepth.depth = saved_depth
            sys.setrecursionlimit(limit)
            if outermost:
                sys.unraisablehook = saved_hook
                limits.clear_interrupt()
        return result if self.mode == "eval" else frame[RETURN_SLOT]


def run_expression(text: str, namespace: dict) -> Any:
    """The script's `eval`: `text` parsed and compiled as one expression of the language (its
    syntax errors are ScriptErrors for "<string>") and run in `namespace`, one call deep."""
    text = decode_source(text, "<string>")
    source = Source("<string>", tuple(text.split("\n")))
    try:
        tree = parse(text, source, start="eval_input")
    except ParseFailure as failure:
        raise failure.error from None
    code = compile_tree(tree, source, "eval").code
    if CallDepth.depth >= limits.MAX_RECURSION_DEPTH:
        raise RecursionError("maximum recursion depth exceeded")
    CallDepth.depth += 1
    try:
        return code([namespace, None])
    except BaseException as error:
        clear_location_in(error, source)
        raise
    finally:
        CallDepth.depth -= 1


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
