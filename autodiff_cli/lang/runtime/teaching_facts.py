"""Facts the language notes while a script runs, for the CLI's teaching hints (`cli/output/hints.py`):
which tensor's `.grad` was read as None (and why it is None), and the shapes of the two
operands of a failed `@`. They cost nothing until a `.grad` reads None or an `@` fails, and they
never change what the script sees."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from autodiff_cli.lang.errors import (
    LOCATION_ATTRIBUTE,
    Location,
    Span,
    _own_attributes,
    attach_location,
)
from autodiff_cli.lang.sandbox import typeview

OPERAND_SHAPES = "_autodiff_operand_shapes"


class NoneGrad:
    """A read of `NAME.grad` that gave None: where, and the tensor's facts at that moment."""

    __slots__ = ("where", "name", "requires_grad", "is_leaf", "grad_fn")

    def __init__(self, where: Location, name: str, tensor: Any) -> None:
        self.where = where
        self.name = name
        self.requires_grad = bool(tensor.requires_grad)
        self.is_leaf = bool(tensor.is_leaf)
        node = tensor.grad_fn
        self.grad_fn = type(node).__name__ if node is not None else None


_last_none_grad: NoneGrad | None = None


def _is_engine_object(value: Any) -> bool:
    kind = type(value)
    return typeview.is_engine_class(kind) and not typeview.is_script_class(kind)


def note_grad_read(where: Location, name: str, tensor: Any, grad: Any) -> None:
    """Called after `NAME.grad` was read: remember it when it gave None on an engine tensor."""
    global _last_none_grad
    if grad is None and _is_engine_object(tensor) and hasattr(type(tensor), "is_leaf"):
        _last_none_grad = NoneGrad(where, name, tensor)


def grad_reader(
    obj: Callable, getter: Callable, where: Location, target: Any, attach_hint: Callable
) -> Callable:
    """The compiled `NAME.grad` (`obj` evaluates NAME, the syntax tree `target`): read as any
    attribute (its error located and given Python's "Did you mean" by `attach_hint`, the
    compiler's `suggestions.attach_attribute_hint`), and a None read noted."""
    shown = str(target.children[0]) if getattr(target, "data", None) == "var" else ""

    def get_grad(f: list) -> Any:
        value = obj(f)
        try:
            grad = getter(value)
        except BaseException as error:
            attach_location(error, where)
            attach_hint(error, value, "grad")
            raise
        if grad is None:
            note_grad_read(where, shown, value, grad)
        return grad

    return get_grad


def none_grad_behind(error: BaseException) -> NoneGrad | None:
    """The last `.grad` read as None, if it was on the line where `error` (the exception the
    script raised) happened."""
    found = _last_none_grad
    where = _own_attributes(error).get(LOCATION_ATTRIBUTE)
    if found is None or type(where) not in (Location, Span):  # (a Span: an operator's)
        return None
    if found.where.source is where.source and found.where.line == where.line:
        return found
    return None


def checked_matmul(left: Any, right: Any) -> Any:
    """`left @ right`; a failure keeps both operands' shapes (engine tensors only)."""
    try:
        return operator.matmul(left, right)
    except RuntimeError as error:
        if _is_engine_object(left) and _is_engine_object(right) and type(error) is RuntimeError:
            try:
                _own_attributes(error)[OPERAND_SHAPES] = (tuple(left.shape), tuple(right.shape))
            except Exception:  # noqa: BLE001 - a fact for a hint, never in the way
                pass
        raise


def operand_shapes(error: BaseException) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    shapes = _own_attributes(error).get(OPERAND_SHAPES)
    return shapes if type(shapes) is tuple else None
