"""Builtins that name attributes and code at run time: `getattr`, `setattr`, `delattr`, `id`,
`eval`, and `function.__code__`.

They add no capability: `getattr(x, "a")` is `x.a` (the same sandbox getter), `setattr`/`delattr`
are the assignment and `del` statements (`capabilities.script_setattr`), `id` is an int, `eval` parses
and compiles the string with the script language itself (never Python's `eval`) and runs it in
the caller's namespace, and `__code__` is a `CodeFacts`: plain facts about a script function
(names, counts, where it was defined), with no bytecode, constants or globals.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autodiff_cli.lang import exact
from autodiff_cli.lang.errors import ScriptError
from autodiff_cli.lang.parse.syntax_tree import Tree
from autodiff_cli.lang.sandbox import capabilities, typeview

_MISSING = object()


def _name_of(name: Any) -> str:
    if not isinstance(name, str):
        raise TypeError(f"attribute name must be string, not '{_type_name(name)}'")
    return exact.text(name) if type(name) is not str else name


def _type_name(value: Any) -> str:
    return typeview.display_name(typeview.script_type(value))


def script_getattr(*args: Any) -> Any:
    """`getattr(obj, name[, default])`: `obj.name` under the sandbox rules; a refused or missing
    attribute gives `default` when there is one, as a missing one does in Python."""
    if len(args) < 2:
        raise TypeError(f"getattr expected at least 2 arguments, got {len(args)}")
    if len(args) > 3:
        raise TypeError(f"getattr expected at most 3 arguments, got {len(args)}")
    obj, name = args[0], _name_of(args[1])
    if len(args) == 2:
        return capabilities.make_getter(name)(obj)
    try:
        return capabilities.make_getter(name)(obj)
    except AttributeError:
        return args[2]


def script_setattr(*args: Any) -> None:
    """`setattr(obj, name, value)`: the assignment `obj.name = value`."""
    if len(args) != 3:
        raise TypeError(f"setattr expected 3 arguments, got {len(args)}")
    capabilities.script_setattr(args[0], _name_of(args[1]), args[2])


def script_delattr(*args: Any) -> None:
    """`delattr(obj, name)`: the statement `del obj.name`."""
    if len(args) != 2:
        raise TypeError(f"delattr expected 2 arguments, got {len(args)}")
    capabilities.script_delattr(args[0], _name_of(args[1]))


def script_id(*args: Any) -> int:
    """`id(obj)`: an int, the same for the same object while it lives (as Python's)."""
    if len(args) != 1:
        raise TypeError(f"id() takes exactly one argument ({len(args)} given)")
    return id(args[0])


script_getattr.__name__ = script_getattr.__qualname__ = "getattr"
script_setattr.__name__ = script_setattr.__qualname__ = "setattr"
script_delattr.__name__ = script_delattr.__qualname__ = "delattr"
script_id.__name__ = script_id.__qualname__ = "id"


# ---- eval --------------------------------------------------------------------------------------

READS_SCOPE = "__autodiff_reads_scope__"  # marks the `eval` builtin (a dunder: never a script's)


class EvalNamespace(dict):
    """The globals an `eval` runs in when given its own mappings: a name is looked up in
    `locals`, then `globals`, then the caller's builtins (as Python's eval); a walrus stores
    here and is copied back to `locals` (or `globals`) afterwards."""

    def __init__(self, caller: Any, globals_: dict, locals_: Any) -> None:
        super().__init__()
        self.caller = caller
        self.globals_ = globals_
        self.locals_ = locals_
        self.stdout = getattr(caller, "stdout", None)
        self.builtins = caller.builtins

    def __missing__(self, name: str) -> Any:
        if self.locals_ is not None:
            try:
                return self.locals_[name]
            except KeyError:
                pass
        if name in self.globals_:
            return self.globals_[name]
        return self.builtins[name]

    def import_module(self, dotted: str) -> Any:
        return self.caller.import_module(dotted)


# `run(text, namespace)` compiles `text` as one expression ("<string>") and runs it in
# `namespace` as one script call deep: the compiler's `run_expression`, given by whoever makes
# the namespace (`autodiff_cli.lang.new_namespace`) or compiles the call (`eval` reading locals).
ExpressionRunner = Callable[[str, Any], Any]


def _no_runner(text: str, namespace: Any) -> Any:
    raise RuntimeError("eval is not available: this namespace was made without a compiler")


def make_eval(namespace: Any, run_expression: ExpressionRunner | None) -> Any:
    """The script's `eval` for `namespace` (its globals when no mapping is given)."""
    run = run_expression or _no_runner

    def eval(*args: Any, **kwargs: Any) -> Any:  # noqa: A001 - the builtin's name
        if kwargs:
            raise TypeError("eval() takes no keyword arguments")
        if not args:
            raise TypeError("eval expected at least 1 argument, got 0")
        if len(args) > 3:
            raise TypeError(f"eval expected at most 3 arguments, got {len(args)}")
        source = args[0]
        globals_ = args[1] if len(args) > 1 else None
        locals_ = args[2] if len(args) > 2 else None
        if globals_ is not None and not isinstance(globals_, dict):
            raise TypeError("globals must be a dict")
        if locals_ is not None and not _is_mapping(locals_):
            raise TypeError("locals must be a mapping")
        return evaluate(namespace, source, globals_, locals_, run)

    setattr(eval, READS_SCOPE, True)
    return eval


def _is_mapping(value: Any) -> bool:
    return isinstance(value, dict) or typeview.is_script_class(type(value))


def evaluate(
    namespace: Any, source: Any, globals_: Any, locals_: Any, run_expression: ExpressionRunner
) -> Any:
    """Compile `source` as one expression of the script language and run it (see `make_eval`).
    A syntax error is Python's SyntaxError for "<string>"; any other error propagates as it is
    (located at the script's `eval` call)."""
    if isinstance(source, bytes):
        source = source.decode("utf-8")
    elif isinstance(source, str):
        source = exact.text(source)
    else:
        raise TypeError("eval() arg 1 must be a string, bytes or code object")
    text = source.lstrip(" \t")
    if not text:
        raise SyntaxError("invalid syntax", ("<string>", 0, 0, ""))
    if globals_ is None and locals_ is None:
        run_in: Any = namespace
    elif globals_ is None:
        run_in = EvalNamespace(namespace, namespace, locals_)
    else:
        run_in = EvalNamespace(namespace, globals_, locals_)
    try:
        result = run_expression(text, run_in)
    except ScriptError as error:
        if not error.is_syntax_error:
            raise
        raise _syntax_error(error) from None
    if run_in is not namespace and len(run_in):  # a walrus: its bindings go back
        (locals_ if locals_ is not None else globals_).update(run_in)
    return result


def _syntax_error(error: Any) -> SyntaxError:
    """Python's SyntaxError for an expression that does not parse ("invalid syntax" where
    Python gives no more specific text)."""
    message = error.message
    if message.startswith("unexpected "):
        message = "invalid syntax"
    return SyntaxError(message, ("<string>", error.line, error.column, error.source_line))


# ---- function.__code__ ------------------------------------------------------------------------


class CodeFacts:
    """What `function.__code__` gives a script: the facts of a code object that describe the
    function (`co_name`, `co_argcount`, `co_varnames`, `co_filename`...), read-only."""

    __slots__ = ("_facts",)

    def __init__(self, facts: dict[str, Any]) -> None:
        object.__setattr__(self, "_facts", facts)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("readonly attribute")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("readonly attribute")

    def __getattr__(self, name: str) -> Any:  # only for names the facts do not have
        if name.startswith("co_") or name in _CODE_OBJECT_NAMES:
            raise AttributeError(
                f"'code' object attribute '{name}' is not available in scripts (only facts "
                "such as co_name, co_argcount and co_varnames are)"
            )
        raise AttributeError(f"'code' object has no attribute '{name}'")

    def __repr__(self) -> str:
        facts = self._facts
        return (
            f"<code object {facts['co_name']} at {id(self):#x}, file "
            f'"{facts["co_filename"]}", line {facts["co_firstlineno"]}>'
        )

    def __eq__(self, other: Any) -> bool:
        return type(other) is CodeFacts and other._facts is self._facts

    def __hash__(self) -> int:
        return id(self._facts)

    co_name = property(lambda self: self._facts["co_name"])
    co_qualname = property(lambda self: self._facts["co_qualname"])
    co_filename = property(lambda self: self._facts["co_filename"])
    co_firstlineno = property(lambda self: self._facts["co_firstlineno"])
    co_argcount = property(lambda self: self._facts["co_argcount"])
    co_posonlyargcount = property(lambda self: self._facts["co_posonlyargcount"])
    co_kwonlyargcount = property(lambda self: self._facts["co_kwonlyargcount"])
    co_nlocals = property(lambda self: self._facts["co_nlocals"])
    co_varnames = property(lambda self: self._facts["co_varnames"])
    co_cellvars = property(lambda self: self._facts["co_cellvars"])
    co_freevars = property(lambda self: self._facts["co_freevars"])


_CODE_OBJECT_NAMES = frozenset({"replace", "co_lines", "co_positions", "_varname_from_oparg"})
typeview.register_wrapper_class(CodeFacts)
typeview.set_display_name(CodeFacts, "code")

_SCOPE_SKIPPED = frozenset({"lambdef", "lambdef_nocond", "listcomp", "setcomp", "dictcomp",
                            "genexp", "comprehension"})  # fmt: skip


def _first_seen(node: Any, wanted: set[str], order: dict[str, None]) -> None:
    """Names of `wanted` in the order a function body first mentions them (CPython lists its
    local variables so in `co_varnames`); nested functions, classes and comprehensions are
    their own scopes (only a def's or class's name is bound here)."""
    stack = [node]
    while stack:
        item = stack.pop()
        if not isinstance(item, Tree):
            if isinstance(item, str) and item in wanted:
                order.setdefault(str(item), None)
            continue
        kind = item.data
        if kind in _SCOPE_SKIPPED:
            continue
        children = item.children
        if kind in ("funcdef", "classdef"):
            children = children[:1]
        elif kind == "getattr":
            children = children[:1]
        elif kind == "keyword_argument":
            children = children[1:]
        stack.extend(reversed(children))


def function_facts(spec: Any, scope: Any, body: Any, filename: str, line: int) -> dict[str, Any]:
    """The `co_*` facts of a script function (`CodeFacts`), as CPython 3.11 gives them."""
    params = [*spec.positional_names, *spec.keyword_only_names]
    params += [name for name in (spec.varargs_name, spec.varkw_name) if name]
    cells = set(scope.cells)
    others = set(scope.locals) - set(params) - cells
    order: dict[str, None] = {}
    _first_seen(body, others, order)
    varnames = tuple(params + list(order) + sorted(others - set(order)))
    return {
        "co_name": spec.name,
        "co_qualname": spec.qualname,
        "co_filename": filename,
        "co_firstlineno": line,
        "co_argcount": spec.n_positional,
        "co_posonlyargcount": 0,
        "co_kwonlyargcount": len(spec.keyword_only_names),
        "co_nlocals": len(varnames),
        "co_varnames": varnames,
        "co_cellvars": tuple(sorted(cells)),
        "co_freevars": tuple(sorted(scope.free)),
    }


def code_maker(spec: Any, scope: Any, body: Any, filename: str, line: int) -> Any:
    """A callable giving the one `CodeFacts` of functions made from `spec` (made on first use:
    functions made by the same `def` share it, as they share a code object in Python); kept
    on each such function (`capabilities.CODE_ATTRIBUTE`), where `function.__code__` reads it."""
    made: list[CodeFacts] = []

    def make() -> CodeFacts:
        if not made:
            made.append(CodeFacts(function_facts(spec, scope, body, filename, line)))
        return made[0]

    return make
