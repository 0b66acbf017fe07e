"""Compare printed output with a PyTorch golden number by number, within a rounding tolerance.

The engine computes with numpy's kernels, so a value may differ from PyTorch's in its last bits,
and a printed digit on a rounding boundary may come out one unit apart. Everything else must be
identical. The texts are cut into number tokens and the text between them:

- a float token (it has a `.` or an exponent) matches when |a - b| <= rel · max(|a|, |b|) (at
  least rel · float32's smallest normal number, for subnormals), plus
  one unit in the last printed digit when both are printed alike (as many fraction digits, both
  with or both without an exponent: a tensor's `0.1235` against `0.1234`, not Python's shortest
  repr `0.0` against `-6.1e-05`, nor `3.` which prints an integral value). `FLOAT32_REL` is the
  default, `FLOAT64_REL` for float64-only output;
- an integer token (an index, a size, a count) must be the same text;
- the text between numbers must be the same, except that whitespace touching a number may differ
  when some number's text differs: PyTorch pads a tensor's numbers to a common width, so one
  number that prints a digit wider re-pads (or re-wraps) its neighbours.

Object addresses (`0x7f...`) are not numbers (a number token cannot touch a letter or a dot).

A script may widen the float check by an absolute tolerance (`atol`): for a number printed after
a long chaotic computation, such as a difference of two nearly equal values (`true_w - w` after
training), whose last bits depend on the CPU's BLAS kernels. `script_atol` reads it from the
script's `# golden-tolerance: N float32 ulps at X` line: N units in the last place of float32
at magnitude X (the largest operand of the subtraction), so the bound says where it comes from.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass

import numpy as np

FLOAT32_REL = 1e-5
FLOAT64_REL = 1e-12
# float32's smallest normal number: below it (subnormals) the tolerance stays rel · this, since
# rounding there is absolute (steps of 1.4e-45)
FLOAT32_TINY = 1.1754943508222875e-38

NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w.])")
_SLACK = 1e-9  # for the float arithmetic of the check itself


@dataclass(frozen=True)
class _Piece:
    text: str
    is_number: bool
    line: int


def _pieces(text: str) -> list[_Piece]:
    """Alternating text and number pieces (text first and last, possibly empty)."""
    pieces, start = [], 0
    for match in NUMBER.finditer(text):
        pieces.append(_Piece(text[start : match.start()], False, _line(text, start)))
        pieces.append(_Piece(match.group(), True, _line(text, match.start())))
        start = match.end()
    pieces.append(_Piece(text[start:], False, _line(text, start)))
    return pieces


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _is_float(token: str) -> bool:
    return "." in token or "e" in token or "E" in token


def _format(token: str) -> tuple[int, bool]:
    """How a float token is printed: its number of fraction digits and whether it has an
    exponent."""
    mantissa, e, _ = token.lower().partition("e")
    return len(mantissa.partition(".")[2]), bool(e)


def _unit(token: str) -> float:
    """One unit in the last printed digit of a float token."""
    mantissa, _, exponent = token.lower().partition("e")
    return 10.0 ** (int(exponent or 0) - len(mantissa.partition(".")[2]))


TOLERANCE_LINE = re.compile(
    r"^# golden-tolerance: (\d+) (float32|float64) ulps at ([0-9.eE+-]+)\b", re.MULTILINE
)


def script_atol(source: str) -> float:
    """The absolute tolerance a script's `# golden-tolerance: N float32 ulps at X` line asks
    for (N units in the last place of the dtype at magnitude X), or 0."""
    match = TOLERANCE_LINE.search(source)
    if match is None:
        return 0.0
    count, dtype, magnitude = match.groups()
    return int(count) * float(np.spacing(np.dtype(dtype).type(abs(float(magnitude)))))


def numbers_match(expected: str, actual: str, rel: float = FLOAT32_REL, atol: float = 0.0) -> bool:
    """Whether two number tokens agree: integers exactly, floats within the tolerance."""
    if expected == actual:
        return True
    if not (_is_float(expected) and _is_float(actual)):
        return False
    a, b = float(expected), float(actual)
    bound = max(rel * max(abs(a), abs(b), FLOAT32_TINY), atol)
    if _format(expected) == _format(actual) and _format(expected)[0]:
        bound += _unit(expected)  # the same fixed format: a digit on a rounding boundary
    return abs(a - b) <= bound * (1 + _SLACK)


def _strip_number_side(text: str, left: bool, right: bool) -> str:
    """`text` without the whitespace at its ends that touch a number."""
    if left:
        text = text.lstrip()
    if right:
        text = text.rstrip()
    return text


def differences(
    expected: str, actual: str, rel: float = FLOAT32_REL, atol: float = 0.0
) -> list[str]:
    """What differs between a golden and an output, one located message per difference
    (empty when they match within the tolerance)."""
    want, got = _pieces(expected), _pieces(actual)
    if len(want) != len(got):
        return [f"{len(want) // 2} numbers expected, {len(got) // 2} printed"]
    problems = []
    numbers_differ = False
    for w, g in zip(want[1::2], got[1::2], strict=True):
        if w.text != g.text:
            numbers_differ = True
            if not numbers_match(w.text, g.text, rel, atol):
                problems.append(f"line {g.line}: {g.text} printed, {w.text} expected")
    last = len(want) - 1
    for i in range(0, len(want), 2):
        w, g = want[i].text, got[i].text
        if w != g and numbers_differ:
            w = _strip_number_side(w, i > 0, i < last)
            g = _strip_number_side(g, i > 0, i < last)
        if w != g:
            same = len(os.path.commonprefix([w, g]))
            line = got[i].line + g.count("\n", 0, same)
            problems.append(f"line {line}: text {g!r} printed, {w!r} expected")
    return problems


def mismatch_report(
    expected: str, actual: str, rel: float = FLOAT32_REL, atol: float = 0.0
) -> str | None:
    """None when `actual` matches the golden `expected`; else the differences and a unified
    diff, for a test failure message."""
    problems = differences(expected, actual, rel, atol)
    if not problems:
        return None
    diff = "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile="golden (PyTorch)",
            tofile="actual",
        )
    )
    return "\n".join(problems[:20]) + "\n" + diff
