"""The shape of the code: no function over 80 lines and no module over 900 lines, unless the
module says why at its top (a line starting `Long because:` in its docstring)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "autodiff_cli"
MAX_FUNCTION_LINES = 80
MAX_MODULE_LINES = 900
REASON_MARK = "Long because:"
MODULES = sorted(PACKAGE.rglob("*.py"))


def _explained(tree: ast.Module) -> bool:
    docstring = ast.get_docstring(tree) or ""
    return any(line.strip().startswith(REASON_MARK) for line in docstring.splitlines())


def _long_functions(tree: ast.Module) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append(f"{node.name} (line {node.lineno}, {length} lines)")
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_functions_and_modules_are_short_or_say_why(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    if _explained(tree):
        return
    lines = text.count("\n") + 1
    assert lines <= MAX_MODULE_LINES, f"{lines} lines: split it, or say why ({REASON_MARK})"
    long_ones = _long_functions(tree)
    assert not long_ones, f"functions over {MAX_FUNCTION_LINES} lines: {', '.join(long_ones)}"
