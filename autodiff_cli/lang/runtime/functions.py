"""Script-defined functions as ordinary Python callables (the engine calls them as hooks)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from autodiff_cli.lang.limits import MAX_RECURSION_DEPTH, Interrupt, raise_interrupt
from autodiff_cli.lang.runtime.namespace import (
    FIRST_VARIABLE_SLOT,
    RETURN_SLOT,
    UNBOUND,
    CallDepth,
    Cell,
)
from autodiff_cli.lang.sandbox import call_results
from autodiff_cli.lang.sandbox.capabilities import CODE_ATTRIBUTE, SCRIPT_MARK

Body = Callable[[list], Any]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


class FunctionSpec:
    """Everything about a `def`/`lambda` known at compile time: the compiler gives its scope
    (`compile/scopes.Scope`: slots, cells, free variables) and signature (`Signature`)."""

    def __init__(
        self, name: str, qualname: str, scope: Any, signature: Any, body: Body,
        is_expression: bool, doc: str | None = None,
    ) -> None:  # fmt: skip
        self.name = name
        self.qualname = qualname
        self.body = body
        self.is_expression = is_expression  # a lambda: `body` returns the value
        self.doc = doc
        slots = scope.slots
        self.size = scope.frame_size()
        self.n_positional = len(signature.positional)
        self.positional_names = [param.name for param in signature.positional]
        self.keyword_only_names = [param.name for param in signature.keyword_only]
        self.varargs_slot = slots[signature.varargs] if signature.varargs else None
        self.varkw_slot = slots[signature.varkw] if signature.varkw else None
        self.keyword_slots = {
            name: slots[name] for name in self.positional_names + self.keyword_only_names
        }
        self.cell_slots = tuple(slots[name] for name in sorted(scope.cells))
        self.free_slots = tuple(slots[name] for name in sorted(scope.free))
        self.free_names = tuple(sorted(scope.free))
        self.simple = (
            self.varargs_slot is None and self.varkw_slot is None and not self.keyword_only_names
        )
        self.varargs_name, self.varkw_name = signature.varargs, signature.varkw
        self.plain_signature: inspect.Signature | None = None  # made on first use
        self.code: Callable[[], Any] | None = None  # `function.__code__` (`reflection`)


def _python_signature(spec: FunctionSpec, defaults: list, kwdefaults: dict) -> inspect.Signature:
    """What `inspect.signature` reports for a script function (the engine binds the keyword
    arguments of a custom autograd.Function's `forward` with it). Without defaults it is the
    same for every function made from `spec`, so it is made once."""
    if not defaults and not kwdefaults and spec.plain_signature is not None:
        return spec.plain_signature
    P = inspect.Parameter
    n_required = spec.n_positional - len(defaults)
    params = [
        P(
            name,
            P.POSITIONAL_OR_KEYWORD,
            default=defaults[i - n_required] if i >= n_required else P.empty,
        )
        for i, name in enumerate(spec.positional_names)
    ]
    if spec.varargs_name:
        params.append(P(spec.varargs_name, P.VAR_POSITIONAL))
    params += [
        P(name, P.KEYWORD_ONLY, default=kwdefaults.get(name, P.empty))
        for name in spec.keyword_only_names
    ]
    if spec.varkw_name:
        params.append(P(spec.varkw_name, P.VAR_KEYWORD))
    signature = inspect.Signature(params)
    if not defaults and not kwdefaults:
        spec.plain_signature = signature
    return signature


def make_function(
    spec: FunctionSpec, globals_: dict, defaults: list[Any], kwdefaults: dict[str, Any],
    free_cells: tuple[Cell, ...],
) -> Callable[..., Any]:  # fmt: skip
    """A Python function running `spec.body` in a fresh frame per call."""
    template: list[Any] = [UNBOUND] * spec.size
    template[0] = globals_
    template[RETURN_SLOT] = None
    for slot, cell in zip(spec.free_slots, free_cells):
        template[slot] = cell
    bind = _binder(spec, template, defaults, kwdefaults)
    body = spec.body
    is_expression = spec.is_expression
    depth = CallDepth

    interrupt = Interrupt

    plain = call_results.PLAIN_RESULTS
    check_args, check_kwargs = call_results.arguments, call_results.keyword_arguments

    def function(*args: Any, **kwargs: Any) -> Any:
        for value in args:  # what the engine passes in, checked as call results (one lookup)
            if type(value) not in plain:
                args = check_args(args)
                break
        if kwargs:
            kwargs = check_kwargs(kwargs)
        frame = bind(args, kwargs)
        if interrupt.pending is not None:
            raise_interrupt()
        if depth.depth >= MAX_RECURSION_DEPTH:
            raise RecursionError("maximum recursion depth exceeded")
        depth.depth += 1
        try:
            if is_expression:
                return body(frame)
            body(frame)
            return frame[RETURN_SLOT]
        finally:
            depth.depth -= 1

    function.__name__ = spec.name
    function.__qualname__ = spec.qualname
    function.__module__ = "__main__"
    function.__doc__ = spec.doc
    function.__signature__ = _python_signature(spec, defaults, kwdefaults)
    function.__annotations__ = {}  # not this wrapper's: the `def`'s own, if any, replace it
    setattr(function, SCRIPT_MARK, True)
    if spec.code is not None:
        setattr(function, CODE_ATTRIBUTE, spec.code)
    return function


def _check_missing(spec: FunctionSpec, frame: list) -> None:
    """Python's TypeError for required arguments left unbound after binding."""
    first = FIRST_VARIABLE_SLOT
    missing = [p for i, p in enumerate(spec.positional_names) if frame[first + i] is UNBOUND]
    kind = "positional"
    if not missing:
        missing = [p for p in spec.keyword_only_names if frame[spec.keyword_slots[p]] is UNBOUND]
        kind = "keyword-only"
    if missing:
        quoted = [f"'{p}'" for p in missing]
        listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
        raise TypeError(
            f"{spec.name}() missing {len(missing)} required {kind} "
            f"argument{'s' if len(missing) > 1 else ''}: {listed}"
        )


def _binder(spec: FunctionSpec, template: list, defaults: list, kwdefaults: dict):  # noqa: ANN202
    """`bind(args, kwargs) -> frame`: Python's argument binding, with its error messages."""
    name = spec.name
    n = spec.n_positional
    first = FIRST_VARIABLE_SLOT
    cell_slots = spec.cell_slots
    n_defaults = len(defaults)
    default_slots = [(first + n - n_defaults + i, value) for i, value in enumerate(defaults)]
    kw_default_slots = [(spec.keyword_slots[key], value) for key, value in kwdefaults.items()]
    varargs_slot, varkw_slot, keyword_slots = spec.varargs_slot, spec.varkw_slot, spec.keyword_slots

    def finish(frame: list) -> list:
        for slot in cell_slots:
            frame[slot] = Cell(frame[slot])
        return frame

    if spec.simple and not n_defaults:

        def bind_exact(args: tuple, kwargs: dict) -> list:
            if len(args) == n and not kwargs:
                frame = template.copy()
                frame[first : first + n] = args
                return finish(frame) if cell_slots else frame
            return bind(args, kwargs)

    def bind(args: tuple, kwargs: dict) -> list:
        frame = template.copy()
        count = len(args)
        if count > n:
            if varargs_slot is None:
                given = "was" if count == 1 else "were"
                raise TypeError(
                    f"{name}() takes {_plural(n, 'positional argument')} but {count} {given} given"
                )
            frame[first : first + n] = args[:n]
            frame[varargs_slot] = tuple(args[n:])
        else:
            frame[first : first + count] = args
            if varargs_slot is not None:
                frame[varargs_slot] = ()
        if kwargs:
            extra: dict | None = {} if varkw_slot is not None else None
            for key, value in kwargs.items():
                slot = keyword_slots.get(key)
                if slot is None:
                    if extra is None:
                        raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
                    extra[key] = value
                elif frame[slot] is not UNBOUND:
                    raise TypeError(f"{name}() got multiple values for argument '{key}'")
                else:
                    frame[slot] = value
            if varkw_slot is not None:
                frame[varkw_slot] = extra
        elif varkw_slot is not None:
            frame[varkw_slot] = {}
        for slot, value in default_slots:
            if frame[slot] is UNBOUND:
                frame[slot] = value
        for slot, value in kw_default_slots:
            if frame[slot] is UNBOUND:
                frame[slot] = value
        _check_missing(spec, frame)
        return finish(frame)

    if spec.simple and not n_defaults:
        return bind_exact
    return bind
