"""The generator object a script holds: a safe wrapper around the body's Python generator.

Calling a script generator function returns a `ScriptGenerator`. Scripts see `next`, `send`,
`throw`, `close` and iteration, as Python's generators have them; the Python generator that runs
the compiled body (and its `gi_frame`, `gi_code`, the frames' globals...) stays inside: the
wrapper's only other attribute is private, and its methods refuse any other `self`.
Each resume counts as a call for the script's recursion limit and checks for interrupts (time
limit, Ctrl-C), as a script function call does.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from autodiff_cli.lang.limits import MAX_RECURSION_DEPTH, Interrupt, raise_interrupt
from autodiff_cli.lang.runtime.namespace import CallDepth
from autodiff_cli.lang.sandbox import typeview


class ScriptGenerator:
    """What a script's generator function returns (shown and typed as Python's `generator`)."""

    __slots__ = ("_body", "_qualname", "__weakref__")

    def __new__(cls, *args: Any, **kwargs: Any) -> ScriptGenerator:
        raise TypeError("cannot create 'generator' instances")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError("type 'generator' is not an acceptable base type")

    def __iter__(self) -> ScriptGenerator:
        return self

    def __next__(self) -> Any:
        return _resume(self, "send", (None,))

    def send(self, value: Any, /) -> Any:
        return _resume(self, "send", (value,))

    def throw(self, *args: Any) -> Any:
        return _resume(self, "throw", args)

    def close(self) -> None:
        _resume(self, "close", ())

    def __repr__(self) -> str:
        _check(self)
        return f"<generator object {self._qualname} at {id(self):#x}>"


def _check(obj: Any) -> None:
    if type(obj) is not ScriptGenerator:
        raise TypeError(
            f"descriptor for 'generator' objects doesn't apply to a '{type(obj).__name__}' object"
        )


def _resume(generator: ScriptGenerator, how: str, args: tuple) -> Any:
    _check(generator)
    if Interrupt.pending is not None:
        raise_interrupt()
    depth = CallDepth
    if depth.depth >= MAX_RECURSION_DEPTH:
        raise RecursionError("maximum recursion depth exceeded")
    depth.depth += 1
    try:
        return getattr(generator._body, how)(*args)
    finally:
        depth.depth -= 1


def new_generator(body: Generator, qualname: str) -> ScriptGenerator:
    """Wrap the Python generator running a compiled generator body."""
    generator = object.__new__(ScriptGenerator)
    generator._body = body
    generator._qualname = qualname
    return generator


# Scripts hold it and read its public names (the methods above; `_body` is private), as the
# sandbox's other wrapper classes; `type(g)` is a stand-in shown as Python's `generator` (not
# callable, not a base).
ScriptGenerator.__name__ = ScriptGenerator.__qualname__ = "generator"  # in Python's messages
ScriptGenerator.__module__ = "builtins"
typeview.register_wrapper_class(ScriptGenerator)
typeview.set_display_name(ScriptGenerator, "generator")
Generator.register(ScriptGenerator)
