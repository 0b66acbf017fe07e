"""Running a script in this process, for the language tests: its printed output, or the
ScriptError it ends with."""

from __future__ import annotations

import io
import textwrap

import pytest

from autodiff_cli.lang import ScriptError, run_source


def run(source: str, filename: str = "s.py") -> str:
    out = io.StringIO()
    run_source(source, filename, stdout=out)
    return out.getvalue()


def run_dedented(source: str) -> str:
    """`run` of an indented triple-quoted source (its common indentation removed)."""
    return run(textwrap.dedent(source))


def error_of(source: str) -> ScriptError:
    with pytest.raises(ScriptError) as info:
        run(source)
    return info.value
