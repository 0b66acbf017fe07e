"""How compiled control flow runs: the same statements in two shapes, side by side.

`control_flow` compiles each statement once into its parts; these build the runnable statement.
`CLOSURES` serve ordinary bodies: every part is a closure `part(f) -> signal`. `GENERATORS` serve
generator bodies: every part is a generator function whose values `yield from` passes through
(with `send`, `throw` and `close`) and which returns the signal; `steps` are the yields of the
statement's expression, evaluated into their hidden slots first (see `generators`), and the
`except`/`finally`/`__exit__` code of a generator closed after its script ended does not run.
The two shapes differ in nothing else: a change to one statement's semantics is made in both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from autodiff_cli.lang import limits
from autodiff_cli.lang.compile.blocks import BREAK, RETURN, Running, Stmt
from autodiff_cli.lang.errors import Location, attach_location

Fn = Callable[[list], Any]


class FlowRunners(NamedTuple):
    """The statement builders of one shape (their arguments are the compiled parts)."""

    if_statement: Callable[..., Stmt]
    while_statement: Callable[..., Stmt]
    for_statement: Callable[..., Stmt]
    try_statement: Callable[..., Stmt]
    with_statement: Callable[..., Stmt]


# ---- shared by both shapes ------------------------------------------------------------------


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


def _orphaned(error: BaseException, f: list) -> bool:
    """A generator closed after its script ended (collected later, or in another script of a
    batch): its `except`/`finally`/`__exit__` code does not run then (it would run outside any
    script, as a script's `__del__` does not)."""
    if type(error) is not GeneratorExit:
        return False
    running = Running.namespaces
    return not running or running[-1] is not f[0]


# ---- if ---------------------------------------------------------------------------------------


def _closure_if(steps: tuple, branches: tuple, orelse: Stmt | None) -> Stmt:
    if len(branches) == 1:
        ((only_test, only_body),) = branches

        def if_statement(f: list) -> Any:
            if only_test(f):
                return only_body(f)
            if orelse is not None:
                return orelse(f)
            return None

        return if_statement

    def if_chain(f: list) -> Any:
        for branch_test, branch_body in branches:
            if branch_test(f):
                return branch_body(f)
        if orelse is not None:
            return orelse(f)
        return None

    return if_chain


def _generator_if(steps: tuple, branches: tuple, orelse: Stmt | None) -> Stmt:
    def if_statement(f: list) -> Any:
        for step in steps:
            yield from step(f)
        for branch_test, branch_body in branches:
            if branch_test(f):
                return (yield from branch_body(f))
        if orelse is not None:
            return (yield from orelse(f))
        return None

    return if_statement


# ---- loops: `break` ends the loop (skipping `else`), `return` leaves it with its signal -------


def _closure_while(steps: tuple, test: Fn, body: Stmt, orelse: Stmt | None) -> Stmt:
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


def _generator_while(steps: tuple, test: Fn, body: Stmt, orelse: Stmt | None) -> Stmt:
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


def _closure_for(
    steps: tuple, iterable: Fn, store: Callable, body: Stmt, orelse: Stmt | None
) -> Stmt:  # fmt: skip
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


def _generator_for(
    steps: tuple, iterable: Fn, store: Callable, body: Stmt, orelse: Stmt | None
) -> Stmt:  # fmt: skip
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


# ---- try: a `return`/`break` in `finally` replaces the signal and drops the error -------------


def _closure_try(body: Stmt, handlers: tuple, orelse: Stmt | None, final: Stmt | None) -> Stmt:
    if not handlers and final is not None and orelse is None:

        def try_finally(f: list) -> Any:
            try:
                signal = body(f)
            finally:
                final_signal = final(f)
                if final_signal is not None:
                    return final_signal  # noqa: B012 - Python's semantics
            return signal

        return try_finally

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

    return try_statement


def _generator_try(body: Stmt, handlers: tuple, orelse: Stmt | None, final: Stmt | None) -> Stmt:
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


# ---- with -----------------------------------------------------------------------------------


def _closure_with(
    steps: tuple, manager: Fn, store: Callable | None, body: Stmt, where: Location
) -> Stmt:  # fmt: skip
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


def _generator_with(
    steps: tuple, manager: Fn, store: Callable | None, body: Stmt, where: Location
) -> Stmt:  # fmt: skip
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


CLOSURES = FlowRunners(_closure_if, _closure_while, _closure_for, _closure_try, _closure_with)
GENERATORS = FlowRunners(
    _generator_if, _generator_while, _generator_for, _generator_try, _generator_with
)
