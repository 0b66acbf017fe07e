"""The operators' closures and tables: `a + b` and its kin compiled into `fn(frame) -> value`,
with the size checks of `limits` on the results (split from `expressions`)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from autodiff_cli.lang import limits
from autodiff_cli.lang.errors import Location, attach_location
from autodiff_cli.lang.limits import (
    check_concatenation,
    check_sequence_result,
    checked_lshift,
    checked_modulo,
    checked_multiply,
    checked_power,
)
from autodiff_cli.lang.runtime.teaching_facts import checked_matmul

Fn = Callable[[list], Any]


def binary(op: Callable[[Any, Any], Any], left: Fn, right: Fn, where: Location) -> Fn:
    def binary(f: list) -> Any:
        try:
            return op(left(f), right(f))
        except BaseException as error:
            attach_location(error, where)
            raise

    return binary


def _add(left: Fn, right: Fn, where: Location) -> Fn:
    sequences = frozenset({str, list, tuple})

    def add(f: list) -> Any:
        try:
            a = left(f)
            b = right(f)
            if type(a) in sequences:
                check_concatenation(a, b)
            result = a + b
            if type(result) in sequences:
                return check_sequence_result(result)
            return result
        except BaseException as error:
            attach_location(error, where)
            raise

    return add


def _sub(left: Fn, right: Fn, where: Location) -> Fn:
    def sub(f: list) -> Any:
        try:
            return left(f) - right(f)
        except BaseException as error:
            attach_location(error, where)
            raise

    return sub


def mul(left: Fn, right: Fn, where: Location) -> Fn:
    plain = limits.PLAIN_MULTIPLICANDS

    def mul(f: list) -> Any:
        try:
            a = left(f)
            b = right(f)
            if type(a) in plain and type(b) in plain:
                return a * b
            return checked_multiply(a, b)
        except BaseException as error:
            attach_location(error, where)
            raise

    return mul


def _truediv(left: Fn, right: Fn, where: Location) -> Fn:
    def truediv(f: list) -> Any:
        try:
            return left(f) / right(f)
        except BaseException as error:
            attach_location(error, where)
            raise

    return truediv


def _checked_add(left: Any, right: Any) -> Any:
    check_concatenation(left, right)
    return check_sequence_result(left + right)


BINARY_FACTORIES = {"+": _add, "-": _sub, "*": mul, "/": _truediv}
NESTED_CHAIN_LIMIT = 64  # operators; a longer chain is evaluated in a loop
BINARY_OPERATORS = {
    "@": checked_matmul, "//": operator.floordiv, "%": checked_modulo, "**": checked_power,
    "^": checked_power, "&": operator.and_, "|": operator.or_, "<<": checked_lshift,
    ">>": operator.rshift,
}  # fmt: skip
CHAIN_OPERATORS = {
    **BINARY_OPERATORS, "+": _checked_add, "-": operator.sub, "*": checked_multiply,
    "/": operator.truediv,
}  # fmt: skip
AUGMENTED_OPERATORS = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "@=": operator.imatmul,
    "/=": operator.itruediv, "%=": operator.imod, "&=": operator.iand, "|=": operator.ior,
    "^=": operator.ipow, "<<=": operator.ilshift, ">>=": operator.irshift,
    "**=": operator.ipow, "//=": operator.ifloordiv,
}  # fmt: skip
COMPARISONS = {
    "<": operator.lt, ">": operator.gt, "==": operator.eq, ">=": operator.ge, "<=": operator.le,
    "!=": operator.ne, "in": lambda a, b: a in b, "notin": lambda a, b: a not in b,
    "is": operator.is_, "isnot": operator.is_not,
}  # fmt: skip
UNARY = {"-": operator.neg, "+": operator.pos, "~": operator.invert}


def _power_augmented(target: Any, value: Any) -> Any:
    if type(target) is int and type(value) is int:
        return checked_power(target, value)
    return operator.ipow(target, value)


AUGMENTED_OPERATORS["**="] = AUGMENTED_OPERATORS["^="] = _power_augmented
AUGMENTED_OPERATORS.update({
    "*=": limits.checked_inplace_multiply, "+=": limits.checked_inplace_add,
    "<<=": limits.checked_inplace_lshift, "%=": limits.checked_inplace_modulo,
})  # fmt: skip
