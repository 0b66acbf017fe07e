"""The lexer's regular expressions as `re` compiles them, made without running `re`'s compiler.

`re.compile` parses and compiles a pattern in Python before handing the program to the C
engine (`_sre`); for the lexer's one 1,700-character alternation that is ~1.5 ms of every
start-up. `table_builder` records the program (`lexer_programs_data.py`, regenerated with the
tables) with the engine's format number (`_sre.MAGIC`) and the Python version it came from;
`compiled` gives the pattern object straight from the engine when this is that Python (the
engine checks the program as it loads it), and None otherwise, so the caller compiles. A test
checks that the object equals `re.compile`'s (patterns compare by text, flags and program).
"""

from __future__ import annotations

import os
import re
import sys
from re import _compiler, _parser  # type: ignore[attr-defined]
from typing import Any

from autodiff_cli.lang.parse import lexer_programs_data

try:
    import _sre
except ImportError:  # not CPython
    _sre = None


DATA_FILE = os.path.join(os.path.dirname(os.path.realpath(__file__)), "lexer_programs_data.py")


def program_of(pattern: str) -> dict[str, Any]:
    """What `re.compile(pattern)` hands the engine (built with `re`'s own parser and compiler;
    used by `table_builder` only)."""
    tree = _parser.parse(pattern, 0)
    index = tree.state.groupdict
    names: list[str | None] = [None] * tree.state.groups
    for name, number in index.items():
        names[number] = name
    return {
        "flags": tree.state.flags,
        "code": [int(word) for word in _compiler._code(tree, 0)],  # (opcodes are named ints)
        "groups": tree.state.groups - 1,
        "groupindex": dict(index),
        "indexgroup": names,
    }


def engine_version() -> list[int]:
    """What a recorded program is valid for: the Python version and the engine's format."""
    return [*sys.version_info[:2], getattr(_sre, "MAGIC", 0), getattr(_sre, "CODESIZE", 0)]


def compiled(pattern: str) -> re.Pattern | None:
    """The compiled pattern from its recorded program; None when none is recorded for it and
    this Python."""
    recorded = lexer_programs_data.PROGRAMS.get(pattern)
    if _sre is None or recorded is None or lexer_programs_data.ENGINE != engine_version():
        return None
    try:
        return _sre.compile(
            pattern,
            recorded["flags"],
            recorded["code"],
            recorded["groups"],
            recorded["groupindex"],
            tuple(recorded["indexgroup"]),
        )
    except (TypeError, ValueError, RuntimeError):  # a program this engine does not take
        return None


def render(patterns: list[str]) -> str:
    """The text of `lexer_programs_data.py`: the programs of `patterns` for this Python."""
    lines = [
        '"""The programs `re.compile` makes of the lexer\'s patterns, for the Python and engine',
        "format in ENGINE, written by `python -m autodiff_cli.lang.parse.table_builder`: do not edit",
        '(see `lexer_program`)."""',
        "",
        "# fmt: off",
        f"ENGINE = {engine_version()!r}",
        "PROGRAMS = {",
    ]
    lines += [f"{pattern!r}: {program_of(pattern)!r}," for pattern in patterns]
    lines.append("}")
    return "\n".join(lines) + "\n"
