"""Name resolution, as Python does it: which names are locals, cells, free or global variables.

One pass over the parse tree builds a `Scope` per module, function, lambda, class body and
comprehension; `resolve` then decides, for every function-like scope, its frame layout.
"""

from __future__ import annotations

from typing import Any

from autodiff_cli.lang.parse.fstrings import prepare_fstring, split_prefix
from autodiff_cli.lang.parse.syntax_tree import Token, Tree
from autodiff_cli.lang.runtime.namespace import FIRST_VARIABLE_SLOT

FUNCTION_NODES = {"funcdef", "lambdef", "lambdef_nocond"}
COMPREHENSION_NODES = {"listcomp", "setcomp", "dictcomp", "genexpr", "genexpr_argument"}

# A class body's frame: [globals, unused, class namespace, `__class__` cell, free cells...]
CLASS_DICT_SLOT, CLASS_CELL_SLOT, CLASS_FIRST_FREE_SLOT = 2, 3, 4


TOO_DEEP = "expression too deeply nested"


class ScopeError(Exception):
    """A name-binding error Python reports at compile time (`nonlocal x` with no binding...)."""

    def __init__(self, message: str, node: Any) -> None:
        super().__init__(message)
        self.node = node


class Scope:
    """One scope of a program: what it assigns, uses and declares, and (filled in by
    `resolve`) its locals, cells, free names and slots. (Plain classes here, not dataclasses:
    `dataclasses` would cost every start-up its import and generated methods.)"""

    def __init__(self, kind: str, parent: Scope | None, name: str = "") -> None:
        self.kind = kind  # "module", "function", "class" or "comprehension"
        self.parent = parent
        self.name = name
        self.params: list[str] = []
        self.assigned: set[str] = set()
        self.used: set[str] = set()
        self.declared_global: set[str] = set()
        self.declared_nonlocal: set[str] = set()
        self.children: list[Scope] = []
        self.uses_super = False
        self.is_generator = False  # a function whose body has `yield`
        self.annotates = False  # a module or class body with `name: annotation` statements
        # ("global" | "nonlocal", name) -> the statement declaring it (errors are located there)
        self.declaration_nodes: dict[tuple[str, str], Any] = {}
        # Filled in by `resolve`:
        self.locals: set[str] = set()
        self.cells: set[str] = set()
        self.free: set[str] = set()
        self.slots: dict[str, int] = {}

    @property
    def is_function(self) -> bool:
        return self.kind in ("function", "comprehension")

    @property
    def qualname_prefix(self) -> str:
        if self.kind == "module":
            return ""
        if self.kind == "class":
            return f"{self.parent.qualname_prefix}{self.name}."
        return f"{self.parent.qualname_prefix}{self.name}.<locals>."

    def frame_size(self) -> int:
        return FIRST_VARIABLE_SLOT + len(self.slots)

    def kind_of(self, name: str) -> str:
        """How this scope reaches `name`: "local", "cell", "free", "global" or "class"."""
        if self.kind == "module":
            return "global"
        if name in self.declared_global:
            return "global"
        if self.kind == "class":
            return "class"
        if name in self.free:
            return "free"
        if name in self.cells:
            return "cell"
        if name in self.locals:
            return "local"
        return "global"


class ScopeBuilder:
    """Walks a parse tree once, recording bindings and uses per scope (keyed by tree node)."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.scopes: dict[int, Scope] = {}
        self.fstring_pieces: dict[int, list] = {}  # id(token) -> prepared f-string pieces
        # id(yield node) -> the hidden local holding the value it receives (`x = yield`)
        self.yield_names: dict[int, str] = {}

    def build(self, tree: Tree) -> Scope:
        module = Scope("module", None, "<module>")
        self.scopes[id(tree)] = module
        self._visit_children(tree, module)
        resolve(module)
        return module

    # -- walking ------------------------------------------------------------------------------

    def _visit_children(self, node: Tree, scope: Scope) -> None:
        for child in node.children:
            if isinstance(child, Tree):
                self._visit(child, scope)

    def _visit(self, node: Tree, scope: Scope) -> None:
        try:
            handler = getattr(self, f"_visit_{node.data}", None)
            if handler is not None:
                handler(node, scope)
            elif node.data in COMPREHENSION_NODES:
                self._comprehension(node, scope)
            else:
                self._visit_children(node, scope)
        except RecursionError:  # the innermost level with room left reports it, located
            raise ScopeError(TOO_DEEP, node) from None

    def _visit_var(self, node: Tree, scope: Scope) -> None:
        scope.used.add(str(node.children[0]))

    def _visit_strings(self, node: Tree, scope: Scope) -> None:
        for token in node.children:
            if "f" in split_prefix(str(token))[0]:
                pieces = prepare_fstring(token, self.source)
                self.fstring_pieces[id(token)] = pieces
                self._visit_fields(pieces, scope)

    def _visit_fields(self, pieces: list, scope: Scope) -> None:
        for piece in pieces:
            if not isinstance(piece, str):
                self._visit(piece.tree, scope)
                if piece.spec:
                    self._visit_fields(piece.spec, scope)

    def _visit_call(self, node: Tree, scope: Scope) -> None:
        function, arguments = node.children
        if isinstance(function, Tree) and function.data == "var" and arguments is None:
            if str(function.children[0]) == "super":
                _mark_super(scope)
        self._visit_children(node, scope)

    def _visit_assign(self, node: Tree, scope: Scope) -> None:
        *targets, value = node.children
        for target in targets:
            self._target(target, scope)
        self._visit(value, scope)

    def _visit_annassign(self, node: Tree, scope: Scope) -> None:
        """`target: annotation [= value]`: a name target binds (a bare one too: it makes the
        name local in a function); the annotation is evaluated only in a module or class body."""
        target, annotation, value = node.children
        if target.data == "var":
            name = str(target.children[0])
            if name in scope.declared_global or name in scope.declared_nonlocal:
                kind = "global" if name in scope.declared_global else "nonlocal"
                raise ScopeError(f"annotated name '{name}' can't be {kind}", node)
        if value is not None:
            self._visit(value, scope)
        self._target(target, scope)
        if not scope.is_function:
            scope.annotates = True
            self._visit(annotation, scope)

    def _visit_augassign(self, node: Tree, scope: Scope) -> None:
        target, _, value = node.children
        self._target(target, scope)
        self._visit(target, scope)
        self._visit(value, scope)

    def _visit_for_stmt(self, node: Tree, scope: Scope) -> None:
        target, *rest = node.children
        self._target(target, scope)
        for child in rest:
            if isinstance(child, Tree):
                self._visit(child, scope)

    def _visit_with_item(self, node: Tree, scope: Scope) -> None:
        value, target = node.children
        self._visit(value, scope)
        if target is not None:
            self._target(target, scope)

    def _visit_except_clause(self, node: Tree, scope: Scope) -> None:
        kind, name, body = node.children
        if kind is not None:
            self._visit(kind, scope)
        if name is not None:
            scope.assigned.add(str(name))
        self._visit(body, scope)

    def _visit_del_stmt(self, node: Tree, scope: Scope) -> None:
        self._target(node.children[0], scope)

    def _visit_import_name(self, node: Tree, scope: Scope) -> None:
        for item in node.children:
            dotted, alias = item.children
            scope.assigned.add(str(alias) if alias is not None else str(dotted.children[0]))

    def _visit_import_from(self, node: Tree, scope: Scope) -> None:
        for item in node.children[1].children:
            if item is not None:
                name, alias = item.children
                scope.assigned.add(str(alias if alias is not None else name))

    def _visit_import_star(self, node: Tree, scope: Scope) -> None:
        if scope.kind != "module":
            raise ScopeError("import * only allowed at module level", node)

    def _visit_global_stmt(self, node: Tree, scope: Scope) -> None:
        names = [str(name) for name in node.children]
        if scope.kind != "module":
            _check_declaration(scope, names, "global", node)
        scope.declared_global |= set(names)
        for name in names:
            scope.declaration_nodes.setdefault(("global", name), node)

    def _visit_nonlocal_stmt(self, node: Tree, scope: Scope) -> None:
        if scope.kind == "module":
            raise ScopeError("nonlocal declaration not allowed at module level", node)
        names = [str(name) for name in node.children]
        _check_declaration(scope, names, "nonlocal", node)
        scope.declared_nonlocal |= set(names)
        for name in names:
            scope.declaration_nodes.setdefault(("nonlocal", name), node)

    def _visit_yield_expr(self, node: Tree, scope: Scope) -> None:
        if scope.kind in ("module", "class"):
            raise ScopeError("'yield' outside function", node)
        if scope.kind == "comprehension":
            raise ScopeError(f"'yield' inside {_COMPREHENSION_NAMES[scope.name]}", node)
        scope.is_generator = True
        hidden = f"%yield{len(self.yield_names)}"  # not a name a script can write
        self.yield_names[id(node)] = hidden
        scope.assigned.add(hidden)
        self._visit_children(node, scope)

    _visit_yield_from = _visit_yield_expr

    def _visit_walrus(self, node: Tree, scope: Scope) -> None:
        """`name := value` binds in the enclosing function (or module) of comprehensions."""
        name = str(node.children[0])
        self._visit(node.children[1], scope)
        if scope.kind != "comprehension":
            scope.assigned.add(name)
            return
        comprehensions = []
        target = scope
        while target.kind == "comprehension":
            if name in target.assigned:
                raise ScopeError(
                    f"assignment expression cannot rebind comprehension iteration variable "
                    f"'{name}'",
                    node,
                )
            comprehensions.append(target)
            target = target.parent
        if target.kind == "class":
            raise ScopeError(
                "assignment expression within a comprehension cannot be used in a class body",
                node,
            )
        target.assigned.add(name)
        is_global = target.kind == "module" or name in target.declared_global
        for comprehension in comprehensions:
            if is_global:
                comprehension.declared_global.add(name)
            else:
                comprehension.used.add(name)

    def _visit_funcdef(self, node: Tree, scope: Scope) -> None:
        name, parameters, returns, body = node.children
        scope.assigned.add(str(name))
        if returns is not None:
            self._visit(returns, scope)
        inner = self._new_scope(node, "function", scope, str(name))
        self._parameters(parameters, scope, inner)
        self._visit(body, inner)

    def _visit_lambdef(self, node: Tree, scope: Scope) -> None:
        parameters, body = node.children
        inner = self._new_scope(node, "function", scope, "<lambda>")
        self._parameters(parameters, scope, inner)
        self._visit(body, inner)

    _visit_lambdef_nocond = _visit_lambdef

    def _visit_classdef(self, node: Tree, scope: Scope) -> None:
        name, arguments, body = node.children
        scope.assigned.add(str(name))
        if arguments is not None:
            self._visit(arguments, scope)
        inner = self._new_scope(node, "class", scope, str(name))
        self._visit(body, inner)

    def _comprehension(self, node: Tree, scope: Scope) -> None:
        comprehension = node.children[0]
        result, first_for, *clauses = comprehension.children
        # The first iterable is evaluated in the enclosing scope, as in Python.
        iterable = first_for.children[1]
        if _has_walrus(iterable):
            raise ScopeError(
                "assignment expression cannot be used in a comprehension iterable expression",
                _has_walrus(iterable),
            )
        self._visit(iterable, scope)
        inner = self._new_scope(node, "comprehension", scope, f"<{node.data}>")
        self._target(first_for.children[0], inner)
        for clause in clauses:
            if clause.data == "comp_for":
                self._target(clause.children[0], inner)
                self._visit(clause.children[1], inner)
            else:
                self._visit(clause, inner)
        self._visit(result, inner)

    # -- helpers ------------------------------------------------------------------------------

    def _new_scope(self, node: Tree, kind: str, parent: Scope, name: str) -> Scope:
        inner = Scope(kind, parent, name)
        parent.children.append(inner)
        self.scopes[id(node)] = inner
        return inner

    def _parameters(self, parameters: Tree | None, outer: Scope, inner: Scope) -> None:
        """Defaults and annotations belong to the outer scope; names to the inner one."""
        signature = parse_signature(parameters)
        _check_signature(signature, parameters)
        inner.params = signature.names()
        for param in signature.positional + signature.keyword_only:
            if param.default is not None:
                self._visit(param.default, outer)
        for _, annotation in signature.annotations():
            self._visit(annotation, outer)

    def _target(self, target: Any, scope: Scope) -> None:
        """Record the names an assignment/for/del target binds; visit what it evaluates."""
        if target is None or isinstance(target, Token):
            return
        if target.data == "var":
            scope.assigned.add(str(target.children[0]))
        elif target.data in ("tuple", "list"):
            for item in target.children:
                self._target(item, scope)
        elif target.data == "star_expr":
            self._target(target.children[0], scope)
        else:  # attribute or subscript targets: evaluated, bind nothing
            self._visit(target, scope)


class Param:
    __slots__ = ("name", "default", "annotation")

    def __init__(self, name: str, default: Any = None, annotation: Any = None) -> None:
        self.name = name
        self.default = default  # a parse tree, or None when there is no default
        self.annotation = annotation  # likewise


class Signature:
    def __init__(self) -> None:
        self.positional: list[Param] = []
        self.varargs: str | None = None
        self.keyword_only: list[Param] = []
        self.varkw: str | None = None
        self.varargs_annotation: Any = None
        self.varkw_annotation: Any = None

    def annotations(self) -> list[tuple[str, Any]]:
        """(name, annotation tree) in the order of Python's `__annotations__`."""
        found = [(p.name, p.annotation) for p in self.positional]
        found.append((self.varargs, self.varargs_annotation))
        found += [(p.name, p.annotation) for p in self.keyword_only]
        found.append((self.varkw, self.varkw_annotation))
        return [(name, tree) for name, tree in found if tree is not None]

    def names(self) -> list[str]:
        names = [param.name for param in self.positional]
        if self.varargs:
            names.append(self.varargs)
        names += [param.name for param in self.keyword_only]
        if self.varkw:
            names.append(self.varkw)
        return names


def parse_signature(parameters: Tree | None) -> Signature:
    """The parameters of a `def` or `lambda`, with their defaults and annotations."""
    signature = Signature()
    if parameters is None:
        return signature
    for item in parameters.children:
        if item is None:
            continue
        if item.data in ("param", "lambda_param"):
            signature.positional.append(_param(item))
        elif item.data in ("starparams", "lambda_starparams"):
            star, *rest = item.children
            if star is not None:
                signature.varargs = str(star.children[0] if isinstance(star, Tree) else star)
                signature.varargs_annotation = _annotation_of(star)
            for extra in rest:
                if extra is None:
                    continue
                if extra.data in ("kwparams", "lambda_kwparams"):
                    signature.varkw = _kw_name(extra)
                    signature.varkw_annotation = _annotation_of(extra.children[0])
                else:
                    signature.keyword_only.append(_param(extra))
        else:
            signature.varkw = _kw_name(item)
            signature.varkw_annotation = _annotation_of(item.children[0])
    return signature


def _param(node: Tree) -> Param:
    children = node.children
    if len(children) == 3:  # `param`: name, annotation, default
        return Param(str(children[0]), children[2], children[1])
    return Param(str(children[0]), children[-1] if len(children) > 1 else None)


def _annotation_of(node: Any) -> Any:
    """The annotation of `*args: T` / `**kwargs: T` (an `annotated_name`), else None."""
    if isinstance(node, Tree) and node.data == "annotated_name":
        return node.children[1]
    return None


def _kw_name(node: Tree) -> str:
    first = node.children[0]
    return str(first.children[0] if isinstance(first, Tree) else first)


def _check_signature(signature: Signature, node: Any) -> None:
    names = signature.names()
    for name in names:
        if names.count(name) > 1:
            raise ScopeError(f"duplicate argument '{name}' in function definition", node)
    seen_default = False
    for param in signature.positional:
        if param.default is not None:
            seen_default = True
        elif seen_default:
            raise ScopeError("non-default argument follows default argument", node)


_COMPREHENSION_NAMES = {
    "<listcomp>": "list comprehension", "<setcomp>": "set comprehension",
    "<dictcomp>": "dict comprehension", "<genexpr>": "generator expression",
    "<genexpr_argument>": "generator expression",
}  # fmt: skip


def _check_declaration(scope: Scope, names: list[str], kind: str, node: Any) -> None:
    """Python's errors for a `global`/`nonlocal` name already bound or used in `scope`."""
    for name in names:
        if name in scope.params:
            raise ScopeError(f"name '{name}' is parameter and {kind}", node)
        declared = scope.declared_nonlocal if kind == "global" else scope.declared_global
        if name in declared:  # located at the `global` statement, as Python does
            where = scope.declaration_nodes.get(("global", name), node)
            raise ScopeError(f"name '{name}' is nonlocal and global", where)
        if name in scope.assigned:
            raise ScopeError(f"name '{name}' is assigned to before {kind} declaration", node)
        if name in scope.used:
            raise ScopeError(f"name '{name}' is used prior to {kind} declaration", node)


def _has_walrus(node: Any) -> Any:
    """The first `:=` in `node` outside nested functions (None if there is none)."""
    if not isinstance(node, Tree) or node.data in FUNCTION_NODES:
        return None
    if node.data == "walrus":
        return node
    for child in node.children:
        found = _has_walrus(child)
        if found is not None:
            return found
    return None


def _mark_super(scope: Scope) -> None:
    """A zero-argument `super()` needs the enclosing class and the method's first argument."""
    scope.uses_super = True


def resolve(module: Scope) -> None:
    """Decide locals, cells and free variables for every scope, then number the frame slots."""
    all_scopes: list[Scope] = []
    _collect(module, all_scopes)
    for scope in all_scopes:
        if scope.is_function:
            bound = set(scope.params) | scope.assigned
            scope.locals = bound - scope.declared_global - scope.declared_nonlocal
    for scope in all_scopes:
        if scope.kind == "module":
            continue
        wanted = (scope.used | scope.assigned) - scope.locals - scope.declared_global
        if scope.kind == "class":
            wanted = scope.used - scope.declared_global
        for name in sorted(wanted | scope.declared_nonlocal):
            _resolve_free(scope, name)
    for scope in all_scopes:
        if scope.uses_super and scope.parent is not None and scope.parent.kind == "class":
            scope.free.add("__class__")
    for scope in all_scopes:
        if scope.is_function:
            ordered = list(dict.fromkeys(scope.params)) + sorted(scope.locals - set(scope.params))
            ordered += sorted(scope.free - scope.locals)
            scope.slots = {name: FIRST_VARIABLE_SLOT + i for i, name in enumerate(ordered)}
        elif scope.kind == "class":
            ordered = sorted(scope.free)
            # slot 2 holds the class namespace dict, slot 3 the `__class__` cell
            scope.slots = {name: CLASS_FIRST_FREE_SLOT + i for i, name in enumerate(ordered)}
            scope.slots["__class__"] = CLASS_CELL_SLOT


def _collect(scope: Scope, out: list[Scope]) -> None:
    out.append(scope)
    for child in scope.children:
        _collect(child, out)


def _resolve_free(scope: Scope, name: str) -> None:
    """If an enclosing function binds `name`, make it a cell there and free on the way down."""
    path: list[Scope] = []
    outer = scope.parent
    while outer is not None and outer.kind != "module":
        if outer.is_function and name in outer.locals:
            outer.cells.add(name)
            scope.free.add(name)
            for middle in path:
                middle.free.add(name)
            return
        if outer.is_function and name in outer.declared_global:
            break
        path.append(outer)
        outer = outer.parent
    if name in scope.declared_nonlocal:
        node = scope.declaration_nodes.get(("nonlocal", name))
        raise ScopeError(f"no binding for nonlocal '{name}' found", node)


class FreeView:
    """The free-variable view of a class scope (class bodies read enclosing cells)."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def kind_of(self, name: str) -> str:
        return "free"

    @property
    def slots(self) -> dict[str, int]:
        return self.scope.slots
