"""Compiling expression trees into closures `fn(frame) -> value`.

A frame is a list: slot 0 the global namespace, slot 1 the return value, then the variables
of the running function (see `scopes`). Every closure that can fail records its location on
the exception (the innermost one wins), so errors are reported where they happened."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autodiff_cli.lang import exact, limits
from autodiff_cli.lang.compile.operator_closures import (
    BINARY_FACTORIES,
    BINARY_OPERATORS,
    CHAIN_OPERATORS,
    COMPARISONS,
    NESTED_CHAIN_LIMIT,
    UNARY,
    binary,
)
from autodiff_cli.lang.compile.scopes import CLASS_DICT_SLOT, TOO_DEEP, FreeView, Scope
from autodiff_cli.lang.errors import CompileError, Location, Source, attach_location, spanned
from autodiff_cli.lang.parse import fstrings
from autodiff_cli.lang.parse.syntax_tree import Token, Tree
from autodiff_cli.lang.runtime import suggestions
from autodiff_cli.lang.runtime.namespace import UNBOUND
from autodiff_cli.lang.sandbox import call_results, capabilities, withheld

Fn = Callable[[list], Any]


class ExpressionCompiler:
    """Expression half of the compiler; `Compiler` adds statements and function bodies."""

    source: Source
    scope: Scope
    scopes: dict[int, Scope]
    fstring_pieces: dict[int, list]

    # -- helpers ----------------------------------------------------------------------------

    def where(self, node: Tree | Token) -> Location:
        if isinstance(node, Token):
            return Location(self.source, node.line or 1, node.column or 1)
        meta = node.meta
        return Location(self.source, getattr(meta, "line", 1), getattr(meta, "column", 1))

    def error(self, message: str, node: Tree | Token) -> CompileError:
        return CompileError(message, self.where(node))

    def expr(self, node: Tree | Token) -> Fn:
        method = getattr(self, f"expr_{node.data}", None)
        if method is None:
            raise self.error(f"'{node.data}' cannot be used here", node)
        try:
            return method(node)
        except RecursionError:  # the innermost level with room left reports it, located
            raise self.error(TOO_DEEP, node) from None

    def constant_value(self, node: Tree | Token) -> tuple[bool, Any]:
        """(True, value) when `node` is a literal known at compile time."""
        if isinstance(node, Tree):
            if node.data == "number" or (node.data == "strings" and not self._is_fstring(node)):
                return True, self._literal(node)
            simple = {"const_none": None, "const_true": True, "const_false": False}
            if node.data in simple:
                return True, simple[node.data]
            if node.data == "ellipsis":
                return True, Ellipsis
        return False, None

    @staticmethod
    def constant(value: Any) -> Fn:
        return lambda f: value

    # -- names ------------------------------------------------------------------------------

    def expr_var(self, node: Tree) -> Fn:
        return self.load_name(str(node.children[0]), self.where(node))

    def load_name(self, name: str, where: Location, scope: Scope | None = None) -> Fn:
        scope = scope or self.scope
        kind = scope.kind_of(name)
        if kind == "local":
            slot = scope.slots[name]
            message = (
                f"cannot access local variable '{name}' where it is not associated with a value"
            )

            def load_local(f: list) -> Any:
                value = f[slot]
                if value is UNBOUND:
                    error = UnboundLocalError(message)
                    attach_location(error, where)
                    raise error
                return value

            return load_local
        if kind in ("cell", "free"):
            slot = scope.slots[name]
            message = (
                f"cannot access free variable '{name}' where it is not associated with a value "
                "in enclosing scope"
                if kind == "free"
                else f"cannot access local variable '{name}' where it is not associated with a value"
            )
            error_type = NameError if kind == "free" else UnboundLocalError

            def load_cell(f: list) -> Any:
                value = f[slot].v
                if value is UNBOUND:
                    error = error_type(message)
                    attach_location(error, where)
                    raise error
                return value

            return load_cell
        load_global = self._load_global(name, where, scope)
        if kind == "class":
            fallback = load_global
            if name in scope.free:
                fallback = self.load_name(name, where, FreeView(scope))

            key = self.attribute_name(name)  # Python's mangling of `__x` in a class body

            def load_class_name(f: list) -> Any:
                namespace = f[CLASS_DICT_SLOT]
                if key in namespace:
                    return namespace[key]
                return fallback(f)

            return load_class_name
        return load_global

    @staticmethod
    def _load_global(name: str, where: Location, scope: Scope) -> Fn:
        message = withheld.builtin_message(name) or f"name '{name}' is not defined"

        def load_global(f: list) -> Any:
            try:
                return f[0][name]
            except KeyError:
                error = NameError(message, name=name)
                attach_location(error, where)
                suggestions.attach_name_hint(error, name, lambda: _visible_names(f, scope))
                raise error from None

        return load_global

    # -- literals ---------------------------------------------------------------------------

    def expr_number(self, node: Tree) -> Fn:
        return self.constant(self._literal(node))

    def expr_const_none(self, node: Tree) -> Fn:
        return self.constant(None)

    def expr_const_true(self, node: Tree) -> Fn:
        return self.constant(True)

    def expr_const_false(self, node: Tree) -> Fn:
        return self.constant(False)

    def expr_ellipsis(self, node: Tree) -> Fn:
        return self.constant(Ellipsis)

    def _literal(self, node: Tree) -> Any:
        if node.data == "number":
            token = node.children[0]
            text = str(token).replace("_", "")
            if token.type == "IMAG_NUMBER":
                return complex(text)
            if token.type == "FLOAT_NUMBER":
                return float(text)
            return int(text, 0)
        if self._is_bytes(node):
            return b"".join([self._bytes_literal(token) for token in node.children])
        return "".join([fstrings.decode_plain(str(token)) for token in node.children])

    def _is_bytes(self, node: Tree) -> bool:
        """Whether a (concatenated) string literal is bytes; mixing both is a syntax error."""
        tokens = node.children
        first = "b" in fstrings.split_prefix(str(tokens[0]))[0]
        for token in tokens[1:]:
            if ("b" in fstrings.split_prefix(str(token))[0]) != first:
                raise self.error("cannot mix bytes and nonbytes literals", token)
        return first

    def _bytes_literal(self, token: Token) -> bytes:
        text = str(token)
        if not text.isascii():
            raise self.error("bytes can only contain ASCII literal characters", token)
        return fstrings.decode_plain(text)

    @staticmethod
    def _is_fstring(node: Tree) -> bool:
        return any("f" in fstrings.split_prefix(str(token))[0] for token in node.children)

    def expr_strings(self, node: Tree) -> Fn:
        if not self._is_fstring(node) or self._is_bytes(node):
            return self.constant(self._literal(node))
        parts: list[Fn] = []
        for token in node.children:
            prefix, _, _ = fstrings.split_prefix(str(token))
            if "f" not in prefix:
                parts.append(self.constant(self._literal(Tree("strings", [token]))))
                continue
            pieces = self.fstring_pieces[id(token)]
            parts.extend(self._fstring_pieces(pieces, token))
        if len(parts) == 1:
            return parts[0]
        parts_tuple = tuple(parts)
        return lambda f: "".join([part(f) for part in parts_tuple])

    def _fstring_pieces(self, pieces: list, token: Token) -> list[Fn]:
        result: list[Fn] = []
        for piece in pieces:
            if isinstance(piece, str):
                result.append(self.constant(piece))
            else:
                result.append(self._fstring_field(piece, token))
        return result

    def _fstring_field(self, field: fstrings.Field, token: Token) -> Fn:
        where = fstrings.token_location(self.source, token, field.offset)
        value = self.expr(field.tree)
        conversion = {"r": repr, "s": str, "a": ascii, None: None}[field.conversion]
        spec_parts = self._fstring_pieces(field.spec, token) if field.spec else None
        prefix = field.debug_text or ""

        def render(f: list) -> str:
            try:
                result = value(f)
                if conversion is not None:
                    result = conversion(result)
                spec = "".join([part(f) for part in spec_parts]) if spec_parts else ""
                if spec:
                    limits.check_format_spec(spec)
                return prefix + format(result, spec)
            except BaseException as error:
                attach_location(error, where)
                raise

        return render

    # -- operators --------------------------------------------------------------------------

    def _binary_chain(self, node: Tree) -> Fn:
        """`a + b - c ...` (one precedence level, left-associative; the parser gives it flat).
        Short chains nest one closure per operator; long ones run as a loop, so that
        `x + x + ...` with 100,000 terms needs no deep recursion."""
        children = node.children
        where = self.where(node)
        if len(children) > 2 * NESTED_CHAIN_LIMIT:
            return self._long_chain(children, where)
        result = self.expr(children[0])
        for index in range(1, len(children), 2):
            symbol = str(children[index])
            right = self.expr(children[index + 1])
            where = spanned(self.where(node), children[index + 1])
            factory = BINARY_FACTORIES.get(symbol)
            if factory is not None:
                result = factory(result, right, where)
            else:
                result = binary(BINARY_OPERATORS[symbol], result, right, where)
        return result

    def _long_chain(self, children: list, where: Location) -> Fn:
        first = self.expr(children[0])
        steps = tuple(
            (CHAIN_OPERATORS[str(children[index])], self.expr(children[index + 1]))
            for index in range(1, len(children), 2)
        )

        def chain(f: list) -> Any:
            try:
                value = first(f)
                for op, operand in steps:
                    value = op(value, operand(f))
                return value
            except BaseException as error:
                attach_location(error, where)
                raise

        return chain

    expr_arith_expr = expr_term = expr_shift_expr = expr_and_expr = expr_or_expr = _binary_chain

    def expr_power(self, node: Tree) -> Fn:
        base, _, exponent = node.children
        where = spanned(self.where(node), node)
        return binary(limits.checked_power, self.expr(base), self.expr(exponent), where)

    def expr_unary(self, node: Tree) -> Fn:
        symbol, operand = node.children
        op = UNARY[str(symbol)]
        known, value = self.constant_value(operand)
        if known and isinstance(value, (int, float, complex)) and not isinstance(value, bool):
            return self.constant(op(value))
        inner = self.expr(operand)
        where = spanned(self.where(node), node)

        def unary(f: list) -> Any:
            try:
                return op(inner(f))
            except BaseException as error:
                attach_location(error, where)
                raise

        return unary

    def expr_not_op(self, node: Tree) -> Fn:
        inner = self.expr(node.children[0])
        where = self.where(node)

        def not_op(f: list) -> bool:
            try:
                return not inner(f)
            except BaseException as error:
                attach_location(error, where)
                raise

        return not_op

    def _comparison_parts(self, node: Tree) -> tuple[Fn, tuple, Location]:
        children = node.children
        operands = [self.expr(child) for child in children[0::2]]
        ops = [COMPARISONS["".join(str(t) for t in op.children)] for op in children[1::2]]
        return operands[0], tuple(zip(ops, operands[1:])), self.where(node)

    def expr_comparison(self, node: Tree) -> Fn:
        first, pairs, where = self._comparison_parts(node)
        if len(pairs) == 1:
            ((op, right),) = pairs

            def compare(f: list) -> Any:
                try:
                    return op(first(f), right(f))
                except BaseException as error:
                    attach_location(error, where)
                    raise

            return compare
        *tested, (last_op, last) = pairs

        def compare_chain(f: list) -> Any:
            # `a < b < c`: the truth of `a < b` is tested, the last result is returned as is
            try:
                left = first(f)
                for op, operand in tested:
                    right = operand(f)
                    result = op(left, right)
                    if not result:
                        return result
                    left = right
                return last_op(left, last(f))
            except BaseException as error:
                attach_location(error, where)
                raise

        return compare_chain

    def expr_or_test(self, node: Tree) -> Fn:
        return self._boolean_value(node, is_or=True)

    def expr_and_test(self, node: Tree) -> Fn:
        return self._boolean_value(node, is_or=False)

    def _boolean_value(self, node: Tree, is_or: bool) -> Fn:
        """`a or b` / `a and b`: every operand but the last is tested for truth, the operand
        returned is not (`None or tensor` is the tensor)."""
        if any(_is_boolean(child) for child in node.children):
            evaluate = self._boolean(node)
            return lambda f: evaluate(f)[0]
        *tested, last = (self.expr(child) for child in node.children)
        where = self.where(node)

        def boolean(f: list) -> Any:
            try:
                for operand in tested:
                    value = operand(f)
                    if value:
                        if is_or:
                            return value
                    elif not is_or:
                        return value
            except BaseException as error:
                attach_location(error, where)
                raise
            return last(f)

        return boolean

    def _boolean(self, node: Tree) -> Callable[[list], tuple[Any, bool | None]]:
        """`and`/`or`/conditional expressions nested in one another, as (value, truth): the
        truth is known (True/False) when an inner `or`/`and` stopped early, and then an outer
        one does not test the value again (as Python's jumps go straight through); None when
        it is still to be tested."""
        if node.data == "ternary":  # CPython's jumps go through its `else` branch only
            body_node, test_node, orelse_node = node.children
            body, orelse = self.expr(body_node), self._operand(orelse_node)
            test = self.condition(test_node)
            return lambda f: (body(f), None) if test(f) else orelse(f)
        is_or = node.data == "or_test"
        *tested, last = (self._operand(child) for child in node.children)
        where = self.where(node)

        def evaluate(f: list) -> tuple[Any, bool | None]:
            try:
                for operand in tested:
                    value, truth = operand(f)
                    if truth is None:
                        truth = not not value  # noqa: SIM208 - one truth test, as bool()
                    if truth is is_or:
                        return value, truth
            except BaseException as error:
                attach_location(error, where)
                raise
            return last(f)

        return evaluate

    def _operand(self, node: Tree | Token) -> Callable[[list], tuple[Any, bool | None]]:
        if _is_boolean(node):
            return self._boolean(node)
        value = self.expr(node)
        return lambda f: (value(f), None)

    def expr_ternary(self, node: Tree) -> Fn:
        body_node, test_node, orelse_node = node.children
        body, test, orelse = self.expr(body_node), self.condition(test_node), self.expr(orelse_node)
        return lambda f: body(f) if test(f) else orelse(f)

    # -- truth tests ------------------------------------------------------------------------

    def condition(self, node: Tree | Token) -> Fn:
        """A closure whose result the caller tests for truth once (`if`, `while`, `assert`,
        conditional expressions, comprehension filters).

        As Python's jumps, `and`/`or`/`not` and chained comparisons here test each operand or
        intermediate result once and return a bool, instead of building the value of the
        expression and testing that again; any other test is its value."""
        if not isinstance(node, Tree):
            return self.expr(node)
        kind = node.data
        if kind in ("or_test", "and_test"):
            return self._boolean_condition(node, any_true=kind == "or_test")
        if kind == "ternary":
            body, test, orelse = (self.condition(child) for child in node.children)
            return lambda f: body(f) if test(f) else orelse(f)
        if kind == "not_op":
            inner = self.condition(node.children[0])
            where = self.where(node)

            def negation(f: list) -> bool:
                try:
                    return not inner(f)
                except BaseException as error:
                    attach_location(error, where)
                    raise

            return negation
        if kind == "comparison" and len(node.children) > 3:
            first, pairs, where = self._comparison_parts(node)

            def all_hold(f: list) -> bool:
                try:
                    left = first(f)
                    for op, operand in pairs:
                        right = operand(f)
                        if not op(left, right):
                            return False
                        left = right
                    return True
                except BaseException as error:
                    attach_location(error, where)
                    raise

            return all_hold
        return self.expr(node)

    def _boolean_condition(self, node: Tree, any_true: bool) -> Fn:
        parts = tuple(self.condition(child) for child in node.children)
        where = self.where(node)

        def test(f: list) -> bool:
            try:
                for part in parts:
                    if part(f):
                        if any_true:
                            return True
                    elif not any_true:
                        return False
                return not any_true
            except BaseException as error:
                attach_location(error, where)
                raise

        return test

    # -- containers -------------------------------------------------------------------------

    def _items(self, children: list) -> Fn:
        """A function building a list from items that may include `*iterable`."""
        parts = []
        for child in children:
            if isinstance(child, Tree) and child.data == "star_expr":
                parts.append((True, self.expr(child.children[0])))
            else:
                parts.append((False, self.expr(child)))
        if not any(star for star, _ in parts):
            items = tuple(fn for _, fn in parts)
            return lambda f: [item(f) for item in items]
        parts_tuple = tuple(parts)

        def build(f: list) -> list:
            result: list = []
            for star, item in parts_tuple:
                if star:
                    result.extend(item(f))
                else:
                    result.append(item(f))
            return result

        return build

    def expr_tuple(self, node: Tree) -> Fn:
        children = [child for child in node.children if child is not None]
        if len(children) == 2 and not any(_is_star(child) for child in children):
            first, second = self.expr(children[0]), self.expr(children[1])
            return lambda f: (first(f), second(f))
        build = self._items(children)
        return lambda f: tuple(build(f))

    def expr_list(self, node: Tree) -> Fn:
        return self._items([child for child in node.children if child is not None])

    def expr_set(self, node: Tree) -> Fn:
        build = self._items([child for child in node.children if child is not None])
        return lambda f: set(build(f))

    def expr_dict(self, node: Tree) -> Fn:
        parts = []
        for child in node.children:
            if child is None:
                continue
            if child.data == "double_star":
                parts.append((None, self.expr(child.children[0])))
            else:
                parts.append((self.expr(child.children[0]), self.expr(child.children[1])))
        parts_tuple = tuple(parts)
        where = self.where(node)

        def build(f: list) -> dict:
            result: dict = {}
            try:
                for key, value in parts_tuple:
                    if key is None:
                        result.update(value(f))
                    else:
                        result[key(f)] = value(f)
            except BaseException as error:
                attach_location(error, where)
                raise
            return result

        return build

    # -- attribute, subscript, call ---------------------------------------------------------

    def attribute_name(self, token: Any) -> str:
        """An attribute name as written in the source, with Python's private-name mangling:
        `self.__x` inside `class Net` is `self._Net__x`."""
        name = str(token)
        if not name.startswith("__") or name.endswith("__"):
            return name
        scope = self.scope
        while scope is not None and scope.kind != "class":
            scope = scope.parent
        if scope is None:
            return name
        owner = scope.name.lstrip("_")
        return f"_{owner}{name}" if owner else name

    def expr_getattr(self, node: Tree) -> Fn:
        target, name = node.children
        obj, attribute, where = self.expr(target), self.attribute_name(name), self.where(name)
        getter = capabilities.make_getter(attribute)
        if attribute == "grad":  # a None read is noted for the `.grad is None` hint
            hint = suggestions.attach_attribute_hint
            return suggestions.grad_reader(obj, getter, where, target, hint)

        def get_attribute(f: list) -> Any:
            value = obj(f)
            try:
                return getter(value)
            except BaseException as error:
                attach_location(error, where)
                suggestions.attach_attribute_hint(error, value, attribute)
                raise

        return get_attribute

    def subscript(self, node: Tree | Token) -> Fn:
        if isinstance(node, Tree) and node.data == "slice":
            parts = [self.expr(child) if child is not None else None for child in node.children]
            known = [
                self.constant_value(c) if c is not None else (True, None) for c in node.children
            ]
            if all(flag for flag, _ in known):
                return self.constant(slice(*(value for _, value in known)))
            start, stop, step = (part or self.constant(None) for part in parts)
            return lambda f: slice(start(f), stop(f), step(f))
        if isinstance(node, Tree) and node.data == "subscript_tuple":
            items = tuple(self.subscript(child) for child in node.children if child is not None)
            return lambda f: tuple([item(f) for item in items])
        if isinstance(node, Tree) and node.data == "star_expr":
            raise self.error("starred expressions are not supported in subscripts", node)
        return self.expr(node)

    def expr_getitem(self, node: Tree) -> Fn:
        target, index = node.children
        obj, key = self.expr(target), self.subscript(index)
        where = spanned(self.where(node), node)

        def get_item(f: list) -> Any:
            try:
                return obj(f)[key(f)]
            except BaseException as error:
                attach_location(error, where)
                raise

        return get_item

    def expr_call(self, node: Tree) -> Fn:
        function_node, arguments = node.children
        where = spanned(self.where(node), node)
        if (
            isinstance(function_node, Tree)
            and function_node.data == "var"
            and str(function_node.children[0]) == "super"
            and arguments is None
        ):
            return self._zero_argument_super(node)
        function = self.expr(function_node)
        positional, keywords, simple = self._arguments(arguments)
        failed = _failed_call(_called_name(function_node), where)
        if simple and len(positional) <= 2:
            return _simple_call(function, tuple(positional), failed, where)
        if simple:
            return _call_n(function, tuple(positional), failed, where)
        build_args, build_kwargs = self._general_arguments(arguments)
        plain, check_result = call_results.PLAIN_RESULTS, call_results.check

        def call(f: list) -> Any:
            ready = False
            try:
                callee = function(f)
                values = build_args(f)
                named = build_kwargs(f)
                ready = True
                result = callee(*values, **named)
                return result if type(result) in plain else check_result(result, callee)
            except BaseException as error:
                if ready:
                    better = failed(error, callee, tuple(values), named)
                    if better is not None:
                        raise better from None
                attach_location(error, where)
                raise

        return call

    def _arguments(self, arguments: Tree | None) -> tuple[list[Fn], list, bool]:
        if arguments is None:
            return [], [], True
        if arguments.data == "genexpr_argument":
            return [self.expr_genexpr(arguments)], [], True
        children = [child for child in arguments.children if child is not None]
        simple = all(
            not (isinstance(child, Tree) and child.data.endswith("argument")) for child in children
        )
        if simple:
            return [self.expr(child) for child in children], [], True
        return [], [], False

    def _general_arguments(self, arguments: Tree) -> tuple[Fn, Fn]:
        positional: list = []
        keywords: list = []
        seen: set[str] = set()
        for child in arguments.children:
            if child is None:
                continue
            kind = child.data if isinstance(child, Tree) else ""
            if kind == "keyword_argument":
                name = str(child.children[0])
                if name in seen:
                    raise self.error(f"keyword argument repeated: {name}", child)
                seen.add(name)
                keywords.append((name, self.expr(child.children[1])))
            elif kind == "double_star_argument":
                keywords.append((None, self.expr(child.children[0])))
            elif keywords and kind != "star_argument":
                raise self.error("positional argument follows keyword argument", child)
            elif kind == "star_argument":
                positional.append((True, self.expr(child.children[0])))
            else:
                positional.append((False, self.expr(child)))
        positional_tuple, keywords_tuple = tuple(positional), tuple(keywords)

        def build_args(f: list) -> list:
            result: list = []
            for star, item in positional_tuple:
                if star:
                    result.extend(item(f))
                else:
                    result.append(item(f))
            return result

        def build_kwargs(f: list) -> dict:
            result: dict = {}
            for name, item in keywords_tuple:
                if name is None:
                    for key, value in item(f).items():
                        if type(key) is not str:  # a str subclass's `__eq__`/`__hash__` lie
                            if not isinstance(key, str):
                                raise TypeError("keywords must be strings")
                            key = exact.text(key)
                        if key in result:
                            raise TypeError(f"got multiple values for keyword argument '{key}'")
                        result[key] = value
                else:
                    result[name] = item(f)
            return result

        return build_args, build_kwargs

    def _zero_argument_super(self, node: Tree) -> Fn:
        scope = self.scope
        where = self.where(node)
        params = [name for name in scope.slots if name in scope.params]
        if not scope.is_function or "__class__" not in scope.slots or not params:
            message = "super(): no arguments"

            def no_class(f: list) -> Any:
                error = RuntimeError(message)
                attach_location(error, where)
                raise error

            return no_class
        class_slot = scope.slots["__class__"]
        first = self.load_name(scope.params[0], where)
        return lambda f: super(f[class_slot].v, first(f))

    # -- lambdas and comprehensions are compiled by the statement compiler -------------------

    def expr_genexpr(self, node: Tree) -> Fn:  # pragma: no cover - overridden
        raise NotImplementedError


def _visible_names(f: list, scope: Scope) -> list[str]:
    """The names a NameError in `scope` may suggest, in Python's order: the function's bound
    variables, then the globals, then the builtins."""
    names = []
    if scope.is_function:
        for name, slot in scope.slots.items():
            value = f[slot] if scope.kind_of(name) == "local" else getattr(f[slot], "v", UNBOUND)
            if value is not UNBOUND:
                names.append(name)
    namespace = f[0]
    return [*names, *namespace, *getattr(namespace, "builtins", ())]


def _is_boolean(node: Any) -> bool:
    return isinstance(node, Tree) and node.data in ("or_test", "and_test", "ternary")


def _is_star(node: Any) -> bool:
    return isinstance(node, Tree) and node.data == "star_expr"


def _called_name(function_node: Any) -> str | None:
    """The name a call names its function by (`torch.absolute(...)` -> "absolute"); None for a
    function held in a variable (its own name is the op's)."""
    if isinstance(function_node, Tree) and function_node.data == "getattr":
        return str(function_node.children[-1])
    return None


def _failed_call(name: str | None, where: Location) -> Callable:
    """`failed(error, callee, args, kwargs)`: PyTorch's TypeError, located at the call, to raise
    instead of `error` when an engine function was given a non-Tensor where it takes a Tensor
    (`call_results.explained`); None to re-raise `error` itself."""

    def failed(
        error: BaseException, callee: Any, args: tuple, kwargs: dict | None
    ) -> BaseException | None:
        better = call_results.explained(error, callee, args, kwargs, name)
        if better is error:
            return None
        attach_location(better, where)
        return better

    return failed


def _simple_call(function: Fn, positional: tuple, failed: Callable, where: Location) -> Fn:
    """A call with no, one or two plain positional arguments (the common calls, each spelled
    out: a `*args` call builds a tuple)."""
    plain, check_result = call_results.PLAIN_RESULTS, call_results.check
    if not positional:

        def call0(f: list) -> Any:
            try:
                callee = function(f)
                result = callee()
                return result if type(result) in plain else check_result(result, callee)
            except BaseException as error:
                attach_location(error, where)
                raise

        return call0
    if len(positional) == 1:
        (arg,) = positional

        def call1(f: list) -> Any:
            ready = False
            try:
                callee = function(f)
                value = arg(f)
                ready = True
                result = callee(value)
                return result if type(result) in plain else check_result(result, callee)
            except BaseException as error:
                if ready:
                    better = failed(error, callee, (value,), None)
                    if better is not None:
                        raise better from None
                attach_location(error, where)
                raise

        return call1
    arg1, arg2 = positional

    def call2(f: list) -> Any:
        ready = False
        try:
            callee = function(f)
            value1 = arg1(f)
            value2 = arg2(f)
            ready = True
            result = callee(value1, value2)
            return result if type(result) in plain else check_result(result, callee)
        except BaseException as error:
            if ready:
                better = failed(error, callee, (value1, value2), None)
                if better is not None:
                    raise better from None
            attach_location(error, where)
            raise

    return call2


def _call_n(function: Fn, args: tuple, failed: Callable, where: Location) -> Fn:
    """A call with three or more plain positional arguments."""
    plain, check_result = call_results.PLAIN_RESULTS, call_results.check

    def call_n(f: list) -> Any:
        ready = False
        try:
            callee = function(f)
            values = [arg(f) for arg in args]
            ready = True
            result = callee(*values)
            return result if type(result) in plain else check_result(result, callee)
        except BaseException as error:
            if ready:
                better = failed(error, callee, tuple(values), None)
                if better is not None:
                    raise better from None
            attach_location(error, where)
            raise

    return call_n
