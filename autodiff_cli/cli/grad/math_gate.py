"""Whether `grad`'s expression is written as math (`2x`, `x²`, `√x`, `e^x`...) and, if so, its
Python spelling (`math_input`). The first look is one regular expression, so a plain Python
expression never loads the rewrite: the one-liner's start-up stays as it was."""

from __future__ import annotations

import re
from collections.abc import Container, Mapping
from typing import Any

from autodiff_cli.cli.grad import optional

# what only the math form writes (non-ASCII, ^, |, 2x, 2(, )x, )(, ln, `2 x`) or what it
# refuses as ambiguous (`sin x`: two words side by side)
# (ASCII classes: anything else is caught by the first alternative, and compiles ~10x faster)
_MATH_HINT = re.compile(
    r"[^\x00-\x7f]|[\^|]|\d\.?[A-Za-z_]|\d\(|\)\s*[\w(]|\bln\b|\d\s+[A-Za-z_]|[A-Za-z_]\w*[ \t]+\w",
    re.ASCII,
)
# the names a rewrite may write, for the parent's warm-up of the engine's op families
WRITTEN_NAMES = "sqrt exp log abs pi"


def looks_like_math(expression: str) -> bool:
    return _MATH_HINT.search(expression) is not None


def load_rewrite(expression: str) -> str:
    """In the parent, before a locked-down child starts (it cannot import): load the rewrite
    when the expression may need it; the names it may write (for the warm-up), else ''."""
    if not looks_like_math(expression):
        return ""
    optional("math_input")
    return WRITTEN_NAMES


def python_spelling(expression: str, at_names: Container[str], namespace: Mapping[str, Any]) -> Any:
    """The rewrite (`math_input.Rewritten`) when the expression is written as math, else None."""
    if not looks_like_math(expression):
        return None
    rewritten = optional("math_input").rewrite(expression, at_names, namespace)
    return rewritten if rewritten.changed else None


def split_names(name: str, at_names: Container[str]) -> list[str] | None:
    """`xy` -> ["x", "y"] when it is two or more different --at names (or π) run together,
    else None."""
    if len(name) < 2:
        return None
    best: list[list[str] | None] = [[]] + [None] * len(name)
    for end in range(1, len(name) + 1):
        for start in range(end):
            part = name[start:end]
            if best[start] is not None and (part in at_names or part == "π"):
                best[end] = [*best[start], "pi" if part == "π" else part]
                break
    found = best[len(name)]  # (`yy` is more likely a typo of `y` than y*y: not split)
    return found if found is not None and len(set(found)) > 1 else None
