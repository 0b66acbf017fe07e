"""Resource limits of scripts: sizes refused before Python would allocate them, and interrupts.

Sequences (repetition, `range`, string padding, format widths) share the engine's element cap
when the engine is loaded (`autodiff_cli.engine.core.limits`, set by `--max-elements`); integers are
limited to `MAX_INT_BITS`. `request_interrupt` stops a running script at its next loop iteration
or function call, from a signal handler or another thread.
"""

from __future__ import annotations

import math
import operator
import re
import sys
from typing import Any

from autodiff_cli.lang import exact
from autodiff_cli.lang.errors import clear_location

DEFAULT_MAX_ELEMENTS = 2**27
MAX_INT_BITS = 1_000_000  # ~300,000 decimal digits: instant to compute, refused beyond
MAX_RECURSION_DEPTH = 1000  # script function calls, as Python's default limit
_SEQUENCES = (str, bytes, bytearray, list, tuple)
_SEQUENCE_TYPES = frozenset(_SEQUENCES)
MAX_ITERATOR_NESTING = 1000  # map(map(...)) deeper than this would overflow the C stack
_LN2 = math.log(2)


# ---- interrupts -------------------------------------------------------------------------


class ScriptTimeout(BaseException):
    """Stops a script that ran out of time. A BaseException, so `except Exception` in the
    script does not swallow it; a bare `except:` that does is interrupted again at once."""


class Interrupt:
    """The pending interrupt; read on every loop iteration and script function call."""

    pending: BaseException | None = None


def request_interrupt(error: BaseException | None = None) -> None:
    """Stop the running script at its next loop iteration or function call by raising `error`
    (default KeyboardInterrupt). Safe from a signal handler or another thread. The request
    stays pending until the run it stops ends (a request made between runs stops the next)."""
    Interrupt.pending = error if error is not None else KeyboardInterrupt()


def clear_interrupt() -> None:
    Interrupt.pending = None


def raise_interrupt() -> None:
    """Raise the pending interrupt again (it is located where it is raised this time)."""
    pending = Interrupt.pending
    if pending is not None:
        clear_location(pending)
        raise pending.with_traceback(None)


# ---- sizes ------------------------------------------------------------------------------


def max_elements() -> int:
    """The engine's element cap if the engine is loaded (it holds `--max-elements`)."""
    engine_limits = sys.modules.get("autodiff_cli.engine.core.limits")
    if engine_limits is not None:
        return engine_limits.get_max_elements()
    return DEFAULT_MAX_ELEMENTS


def check_length(length: int, what: str) -> None:
    cap = max_elements()
    if length > cap:
        raise MemoryError(f"{what} of {length} items is larger than the limit of {cap} items")


def check_int_bits(bits: float) -> None:
    if bits > MAX_INT_BITS:
        raise OverflowError(
            f"integer result too large: about {int(bits)} bits, the limit is {MAX_INT_BITS}"
        )


def exact_int(value: Any) -> int | None:
    """The plain int value of an int, bool or int subclass (no script `__index__` runs), else None.

    Size checks use this, not `type(x) is int`: `True << n` and `class I(int)` must not skip them."""
    return int.__index__(value) if isinstance(value, int) else None


def repeat_count(value: Any) -> int | None:
    """How many times `seq * value` repeats `seq`: the int, or `__index__()` of another object
    (called once; the caller repeats by the returned int, so a second call cannot differ)."""
    count = exact_int(value)
    if count is None and hasattr(type(value), "__index__"):
        count = int.__index__(operator.index(value))
    return count


def checked_power(base: Any, exponent: Any) -> Any:
    if type(base) is float or type(exponent) is float:  # no integer growth: the common case
        return base**exponent
    if type(base) is int and type(exponent) is int:
        b, e = base, exponent
    else:
        b, e = exact_int(base), exact_int(exponent)
    if b is not None and e is not None and e > 0 and abs(b) > 1:
        check_int_bits(e * (b.bit_length() - 1))
    return base**exponent


# Types whose products need no check (not str/list/tuple/int): the fast path of `*`. Learned
# as they are met, except script classes (created at run time, without bound).
PLAIN_MULTIPLICANDS = {float, complex, bool}


def _learn_plain(kind: type) -> None:
    if kind in PLAIN_MULTIPLICANDS:
        return
    if kind.__module__ != "__main__" and not issubclass(kind, (*_SEQUENCES, int)):
        PLAIN_MULTIPLICANDS.add(kind)


def _repeat(sequence: Any, other: Any, sequence_first: bool) -> Any:
    """`sequence * other` (or `other * sequence`) for a builtin sequence, refused past the cap.

    As in Python, a non-builtin multiplier's own `__rmul__`/`__mul__` goes first (a tensor);
    then its `__index__` is read once and the sequence is repeated by that int."""
    kind = type(other)
    if kind is int:
        check_length(_length(sequence) * other, f"'{type(sequence).__name__}' repetition")
        return sequence * other
    special = getattr(kind, "__rmul__" if sequence_first else "__mul__", None)
    if special is not None and kind.__module__ != "builtins":
        result = special(other, sequence)
        if result is not NotImplemented:
            return result
    count = repeat_count(other)
    if count is None:
        return sequence * other if sequence_first else other * sequence
    check_length(_length(sequence) * count, f"'{type(sequence).__name__}' repetition")
    return sequence * count


def _length(sequence: Any) -> int:
    """The builtin's own length of a str/bytes/list/tuple or subclass (its `__len__` may lie)."""
    if type(sequence) in _SEQUENCE_TYPES:
        return len(sequence)
    for kind in _SEQUENCES:
        if isinstance(sequence, kind):
            return kind.__len__(sequence)
    return len(sequence)


def _plain_sequence(value: Any) -> bool:
    """A builtin sequence, or a script subclass of one that does not define its own `*`."""
    return isinstance(value, _SEQUENCES) and type(value).__mul__ in _BUILTIN_MUL


_BUILTIN_MUL = {kind.__mul__ for kind in _SEQUENCES}


def checked_multiply(left: Any, right: Any, multiply: Any = operator.mul) -> Any:
    """`left * right`, refusing enormous repetitions and integer products (`multiply`:
    `operator.imul` for `*=`)."""
    if type(left) is int and type(right) is int:  # the common case, first
        if left.bit_length() + right.bit_length() > MAX_INT_BITS:
            check_int_bits(left.bit_length() + right.bit_length())
        return left * right
    if type(left) in _SEQUENCE_TYPES:
        return _repeat(left, right, sequence_first=True)
    if type(right) in _SEQUENCE_TYPES and type(left) is int:
        return _repeat(right, left, sequence_first=False)
    _learn_plain(type(left))
    _learn_plain(type(right))
    if _plain_sequence(left):
        return _repeat(left, right, sequence_first=True)
    if _plain_sequence(right):
        return _repeat(right, left, sequence_first=False)
    a, b = exact_int(left), exact_int(right)
    if a is not None and b is not None:
        check_int_bits(a.bit_length() + b.bit_length())
    return multiply(left, right)


def checked_inplace_multiply(left: Any, right: Any) -> Any:
    """`*=`: in place where the left operand has `__imul__`, as in Python (lists grow, a
    tensor, array or script object changes: `grad *= 100` in a hook), after the same checks
    as `*`."""
    if _plain_sequence(left) and isinstance(left, (list, bytearray)):
        count = repeat_count(right)
        if count is not None:
            check_length(_length(left) * count, f"'{type(left).__name__}' repetition")
            return operator.imul(left, count)
    return checked_multiply(left, right, operator.imul)


def check_concatenation(left: Any, right: Any) -> None:
    """Before `+`/`+=` of two sequences: refuse a result past the cap before it is allocated."""
    if isinstance(left, _SEQUENCES) and isinstance(right, _SEQUENCES):
        check_length(_length(left) + _length(right), f"'{type(left).__name__}'")


def checked_inplace_add(left: Any, right: Any) -> Any:
    check_concatenation(left, right)
    return check_sequence_result(operator.iadd(left, right))


def checked_inplace_lshift(left: Any, right: Any) -> Any:
    if isinstance(left, int):
        return checked_lshift(left, right)
    return operator.ilshift(left, right)


def checked_lshift(left: Any, right: Any) -> Any:
    if type(left) is int and type(right) is int:
        a, b = left, right
    else:
        a, b = exact_int(left), exact_int(right)
    if a is not None and b is not None and a and b > 0:
        check_int_bits(a.bit_length() + b)
    return left << right


def check_sequence_result(result: Any) -> Any:
    """After `+`/`+=`: a str/list/tuple past the cap is refused (doubling stops at the cap)."""
    if isinstance(result, _SEQUENCES) and _length(result) > max_elements():
        check_length(_length(result), f"'{type(result).__name__}'")
    return result


def checked_range(*args: Any) -> range:
    result = range(*args)
    check_length(len(result), "range()")
    return result


# `{:>100000000000}`, `%100000000000d`: any number in a format spec or %-template is a width
_NUMBERS = re.compile(r"\d+")


def check_format_spec(spec: str) -> None:
    """Refuse a format spec (or %-template) whose width/precision is past the cap."""
    if type(spec) is not str:  # a str subclass's `__len__`/`__bool__` may lie
        spec = exact.text(spec)
    if spec and any(len(digits) > 6 for digits in _NUMBERS.findall(spec)):
        for digits in _NUMBERS.findall(spec):
            check_length(int(digits) if len(digits) < 30 else 10**30, "formatted field")


def checked_modulo(left: Any, right: Any) -> Any:
    """`%`: for a str/bytes template, refuse huge widths, also `*` widths taken from the values."""
    if isinstance(left, (str, bytes, bytearray)):
        template = exact.text_or_bytes(left)  # `in`, `decode` of a subclass may lie
        if type(template) is bytearray:
            template = bytes(template)
        is_text = type(template) is str
        check_format_spec(template if is_text else bytes.decode(template, "latin-1"))
        if ("*" if is_text else b"*") in template:
            for value in right if isinstance(right, tuple) else (right,):
                count = repeat_count(value) if not isinstance(value, float) else None
                if count is not None:
                    check_length(abs(count), "formatted field")
    return left % right


def checked_inplace_modulo(left: Any, right: Any) -> Any:
    """`%=`: a str/bytes template checked as by `%`; anything else in place where it can be."""
    if isinstance(left, (str, bytes, bytearray)):
        return checked_modulo(left, right)
    return operator.imod(left, right)


def checked_width(width: Any) -> int:
    """A padding width (`ljust`, `zfill`...) as a plain int, refused past the cap."""
    count = repeat_count(width)
    if count is None:
        raise TypeError(f"'{type(width).__name__}' object cannot be interpreted as an integer")
    check_length(count, "padded string")
    return count


def _log2_factorial(n: int) -> float:
    return math.lgamma(n + 1) / _LN2


def safe_factorial(n: Any) -> int:
    if isinstance(n, int) and n > 2:
        check_int_bits(_log2_factorial(n))
    return math.factorial(n)


def safe_comb(n: Any, k: Any) -> int:
    if isinstance(n, int) and isinstance(k, int) and 0 <= k <= n:
        check_int_bits(_log2_factorial(n) - _log2_factorial(k) - _log2_factorial(n - k))
    return math.comb(n, k)


def safe_perm(n: Any, k: Any = None) -> int:
    if isinstance(n, int) and n >= 0 and (k is None or isinstance(k, int) and 0 <= k <= n):
        check_int_bits(_log2_factorial(n) - _log2_factorial(n - (n if k is None else k)))
    return math.perm(n, k)


CHECKED_MATH = {"factorial": safe_factorial, "comb": safe_comb, "perm": safe_perm}
