"""Compiling annotations: `target: annotation [= value]` and the annotations of a `def`.

Python 3.11's rules: in a module or class body the annotation of a name is evaluated and stored
in that body's `__annotations__` (made at the start of a body that has one); a function body
never evaluates its annotations; a `def` evaluates its parameters' and return annotations when it
runs and keeps them in the function's `__annotations__`. Under `from __future__ import
annotations` nothing is evaluated and the stored values are the annotations' source text (as
`ast.unparse` writes it). Every annotation is an ordinary script expression, so the values
stored are values the script could hold anyway; `__annotations__` is readable only on the
script's own functions and classes (`sandbox`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autodiff_cli.lang.compile.scopes import Signature
from autodiff_cli.lang.errors import CompileError
from autodiff_cli.lang.parse import fstrings
from autodiff_cli.lang.parse.syntax_tree import Token, Tree

Fn = Callable[[list], Any]


class AnnotationCompiler:
    """Annotated assignments and function annotations (a mixin of `compiler.Compiler`)."""

    future_annotations = False  # set by `from __future__ import annotations`

    def stmt_annassign(self, node: Tree) -> Callable[[list], None]:
        target, annotation, value_node = node.children
        self._check_annotation_target(target, node)
        steps: list[Callable[[list], None]] = []
        if value_node is not None:
            value, store = self.expr(value_node), self.store(target)
            steps.append(lambda f: store(f, value(f)))
        in_body = not self.scope.is_function
        if target.data == "var" and not _parenthesized(target, node):
            if in_body:
                steps.append(self._record_annotation(target, annotation, node))
        else:
            if value_node is None:  # `obj.name: T` evaluates `obj` (and `obj[key]: T` the key)
                steps.append(self._discard(self.expr(target.children[0])))
                if target.data == "getitem":
                    steps.append(self._discard(self.subscript(target.children[1])))
            if in_body and not self.future_annotations:
                steps.append(self._discard(self.expr(annotation)))
        if len(steps) == 1:
            return steps[0]
        steps_tuple = tuple(steps)

        def annotated_assignment(f: list) -> None:
            for step in steps_tuple:
                step(f)

        return annotated_assignment

    @staticmethod
    def _discard(value: Fn) -> Callable[[list], None]:
        def evaluate(f: list) -> None:
            value(f)

        return evaluate

    def _check_annotation_target(self, target: Tree, node: Tree) -> None:
        kind = target.data
        if kind in ("var", "getattr", "getitem"):
            return
        if kind in ("tuple", "list"):
            message = f"only single target (not {kind}) can be annotated"
        elif kind == "star_expr":
            message = "invalid syntax"
        else:
            message = "illegal target for annotation"
        raise CompileError(message, self.where(node))

    def _record_annotation(self, target: Tree, annotation: Tree, node: Tree) -> Callable:
        """`__annotations__[name] = annotation`, the mapping looked up by name as Python does."""
        key = self.attribute_name(str(target.children[0]))  # `__x` in a class body is mangled
        value = self.annotation(annotation)
        table = self.load_name("__annotations__", self.where(node))

        def record(f: list) -> None:
            table(f)[key] = value(f)

        return record

    def annotation(self, tree: Tree) -> Fn:
        """An annotation's value: evaluated, or its source text under the future import."""
        if self.future_annotations:
            try:
                text = annotation_text(tree)
            except _NoText:
                raise CompileError(
                    "this annotation cannot be kept as text", self.where(tree)
                ) from None
            return lambda f: text
        return self.expr(tree)

    def function_annotations(
        self, signature: Signature, returns: Tree | None
    ) -> Callable[[list], dict] | None:
        """A closure making a `def`'s `__annotations__` as it runs (None: it has none)."""
        found = signature.annotations()
        if returns is not None:
            found.append(("return", returns))
        if not found:
            return None
        entries = tuple((self.attribute_name(name), self.annotation(tree)) for name, tree in found)
        return lambda f: {name: value(f) for name, value in entries}


def setup_annotations(f: list) -> None:
    """The start of a module with annotations: its `__annotations__`, unless it has one."""
    namespace = f[0]
    if "__annotations__" not in namespace:
        namespace["__annotations__"] = {}


def _parenthesized(target: Tree, node: Tree) -> bool:
    """`(x): int`: a name in parentheses is not stored in `__annotations__`."""
    return (target.meta.line, target.meta.column) != (node.meta.line, node.meta.column)


# ---- the text of an annotation (`ast.unparse`'s spelling) -------------------------------------

# Precedence levels as `ast.unparse` uses them (higher binds tighter).
_TERNARY, _OR, _AND, _NOT, _COMPARE, _UNARY, _POWER, _ATOM = 1, 2, 3, 4, 5, 11, 12, 20
_BINARY_PRECEDENCE = {
    "or_expr": 6, "and_expr": 7, "shift_expr": 8, "arith_expr": 9, "term": 10,
}  # fmt: skip


def annotation_text(tree: Any) -> str:
    """The source text of an annotation as Python stores it under `from __future__ import
    annotations` (spaced and quoted as `ast.unparse` writes it)."""
    return _text(tree)[0]


def _text(node: Any) -> tuple[str, int]:
    """(text, precedence) of an expression tree: higher binds tighter."""
    if isinstance(node, Token):
        return str(node), _ATOM
    kind = node.data
    children = node.children
    if kind == "var":
        return str(children[0]), _ATOM
    if kind in ("number", "strings"):
        return _literal_text(node), _ATOM
    simple = {"const_none": "None", "const_true": "True", "const_false": "False",
              "ellipsis": "..."}  # fmt: skip
    if kind in simple:
        return simple[kind], _ATOM
    if kind == "getattr":
        return f"{_operand(children[0], _ATOM)}.{children[1]}", _ATOM
    if kind == "getitem":
        return f"{_operand(children[0], _ATOM)}[{_subscript(children[1])}]", _ATOM
    if kind == "call":
        arguments = children[1].children if children[1] is not None else []
        inner = ", ".join(_argument(item) for item in arguments if item is not None)
        return f"{_operand(children[0], _ATOM)}({inner})", _ATOM
    if kind == "tuple":
        items = [_text(item)[0] for item in children if item is not None]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")", _ATOM
    if kind == "list":
        return "[" + ", ".join(_text(item)[0] for item in children if item is not None) + "]", _ATOM
    if kind in _BINARY_PRECEDENCE:
        level = _BINARY_PRECEDENCE[kind]
        parts = [_operand(children[0], level)]
        for index in range(1, len(children), 2):
            parts.append(f" {children[index]} {_operand(children[index + 1], level + 1)}")
        return "".join(parts), level
    if kind == "unary":
        return f"{children[0]}{_operand(children[1], _UNARY)}", _UNARY
    if kind == "power":
        base, exponent = _operand(children[0], _POWER + 1), _operand(children[2], _UNARY)
        return f"{base} ** {exponent}", _POWER
    if kind == "comparison":
        parts = [_operand(children[0], _COMPARE + 1)]
        for index in range(1, len(children), 2):
            operator = " ".join(str(token) for token in children[index].children)
            parts.append(f" {operator} {_operand(children[index + 1], _COMPARE + 1)}")
        return "".join(parts), _COMPARE
    if kind in ("or_test", "and_test"):
        level = _OR if kind == "or_test" else _AND
        word = " or " if kind == "or_test" else " and "
        return word.join(_operand(child, level + 1) for child in children), level
    if kind == "not_op":
        return f"not {_operand(children[0], _NOT)}", _NOT
    if kind == "ternary":
        body, test = _operand(children[0], _TERNARY + 1), _operand(children[1], _TERNARY + 1)
        return f"{body} if {test} else {_operand(children[2], _TERNARY)}", _TERNARY
    raise _NoText


class _NoText(Exception):
    """An annotation of a kind `annotation_text` does not spell."""


def _operand(node: Any, level: int) -> str:
    text, own = _text(node)
    return text if own >= level else f"({text})"


def _subscript(node: Any) -> str:
    if isinstance(node, Tree) and node.data == "subscript_tuple":
        return ", ".join(_slice_text(item) for item in node.children if item is not None)
    return _slice_text(node)


def _slice_text(node: Any) -> str:
    if isinstance(node, Tree) and node.data == "slice":
        lower, upper, step = ("" if part is None else _text(part)[0] for part in node.children)
        return f"{lower}:{upper}" + (f":{step}" if step else "")
    return _text(node)[0]


def _argument(node: Any) -> str:
    if isinstance(node, Tree):
        if node.data == "keyword_argument":
            return f"{node.children[0]}={_text(node.children[1])[0]}"
        if node.data == "star_argument":
            return f"*{_text(node.children[0])[0]}"
        if node.data == "double_star_argument":
            return f"**{_text(node.children[0])[0]}"
    return _text(node)[0]


def _literal_text(node: Tree) -> str:
    if node.data == "number":
        token = node.children[0]
        text = str(token).replace("_", "")
        if token.type == "IMAG_NUMBER":
            return repr(complex(text))
        if token.type == "FLOAT_NUMBER":
            return repr(float(text))
        return repr(int(text, 0))
    prefix = fstrings.split_prefix(str(node.children[0]))[0]
    if "f" in prefix:
        raise _NoText
    values = [fstrings.decode_plain(str(token)) for token in node.children]
    return repr(values[0][:0].join(values))
