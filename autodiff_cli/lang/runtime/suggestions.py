"""The "Did you mean" hints of a NameError, as Python 3.12 shows them.

`NameError: name 'sine' is not defined. Did you mean: 'sin'?`: the closest visible name by an
edit distance where a change of case costs 1 and any other edit 2, if it is within
`(len(a) + len(b) + 3) // 3`; for the name of a standard-library module, also
`Did you forget to import 'math'?`. The hint is worked out only when the error is reported
(an `errors.ReportHint`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

from autodiff_cli.lang.errors import HINT_ATTRIBUTE, ReportHint
from autodiff_cli.lang.runtime.teaching_facts import grad_reader  # noqa: F401 - the compiler's, with ours
from autodiff_cli.lang.sandbox.introspection import readable_names

_CASE_COST = 1
_EDIT_COST = 2
_MAX_NAME_LENGTH = 40  # of the parts that differ
_MAX_CANDIDATES = 10_000


def edit_distance(a: str, b: str, limit: int) -> int:
    """The weighted edit distance of `a` and `b`, or some value above `limit` once it is
    certain to exceed it."""
    if a == b:
        return 0
    start = 0  # a common prefix and suffix cost nothing
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    a, b = a[start : len(a) - end], b[start : len(b) - end]
    if len(a) > _MAX_NAME_LENGTH or len(b) > _MAX_NAME_LENGTH:
        return limit + 1  # too long to compare (as Python)
    if abs(len(a) - len(b)) * _EDIT_COST > limit:
        return limit + 1
    previous = [index * _EDIT_COST for index in range(len(b) + 1)]
    for i, char_a in enumerate(a, start=1):
        current = [i * _EDIT_COST]
        for j, char_b in enumerate(b, start=1):
            if char_a == char_b:
                substitution = 0
            elif char_a.lower() == char_b.lower():
                substitution = _CASE_COST
            else:
                substitution = _EDIT_COST
            current.append(
                min(
                    previous[j - 1] + substitution,
                    previous[j] + _EDIT_COST,
                    current[j - 1] + _EDIT_COST,
                )
            )
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def closest_name(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate nearest to `name` within the allowed distance (the first of equals)."""
    best: str | None = None
    best_distance = 0
    for count, candidate in enumerate(candidates):
        if count >= _MAX_CANDIDATES:
            break
        if candidate == name:
            continue
        limit = (len(name) + len(candidate) + 3) * _EDIT_COST // 6
        distance = edit_distance(name, candidate, limit)
        if distance <= limit and (best is None or distance < best_distance):
            best, best_distance = candidate, distance
    return best


def hint(name: str, candidates: Iterable[str]) -> str:
    """The text Python 3.12 appends to `name 'NAME' is not defined` ('' when it has none)."""
    text = ""
    suggestion = closest_name(name, candidates)
    if suggestion is not None:
        text = f". Did you mean: '{suggestion}'?"
    if name in getattr(sys, "stdlib_module_names", ()):
        text += " Or did you" if text else ". Did you"
        text += f" forget to import '{name}'?"
    return text


def attach_name_hint(
    error: BaseException, name: str, candidates: Callable[[], Iterable[str]]
) -> None:
    """Let the error's report suggest a close name; `candidates` is called only then."""
    setattr(error, HINT_ATTRIBUTE, ReportHint(lambda: hint(name, candidates())))


def attach_attribute_hint(error: BaseException, obj: object, name: str) -> None:
    """Python's `. Did you mean: 'backward'?` after `'Tensor' object has no attribute
    'backwrd'`, among the names the script may read (worked out only when reported)."""
    if type(error) is not AttributeError or error.name != name or HINT_ATTRIBUTE in error.__dict__:
        return

    def text() -> str:
        if "has no attribute" not in str(error):
            return ""
        suggestion = closest_name(name, sorted(readable_names(obj)))
        return f". Did you mean: '{suggestion}'?" if suggestion is not None else ""

    setattr(error, HINT_ATTRIBUTE, ReportHint(text))
