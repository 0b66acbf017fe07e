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


# ---- function-level imports (issue 31): at most 30 in the package, every other deferred import
# going through the one documented list, `autodiff_cli/lazy_imports.py`
MAX_FUNCTION_LEVEL_IMPORTS = 30


def _function_level_imports() -> list[str]:
    """`path:line` of every import statement inside a function, anywhere in the package."""
    found = set()
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(function):
                    if isinstance(node, (ast.Import, ast.ImportFrom)):
                        found.add(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return sorted(found)


def _lazy_loads() -> list[tuple[str, str]]:
    """(`path:line`, module) of every `lazy_imports.load(...)` call in the package; a module
    that is not a string literal is reported as `?`."""
    calls = []
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "load"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "lazy_imports"
            ):
                argument = node.args[0] if node.args else None
                name = argument.value if isinstance(argument, ast.Constant) else "?"
                calls.append((f"{path.relative_to(PACKAGE)}:{node.lineno}", name))
    return calls


def test_at_most_30_function_level_imports() -> None:
    found = _function_level_imports()
    assert len(found) <= MAX_FUNCTION_LEVEL_IMPORTS, (
        f"{len(found)} imports inside functions (at most {MAX_FUNCTION_LEVEL_IMPORTS}): move them "
        f"to the top of their module, or defer them through autodiff_cli/lazy_imports.py with "
        f"the reason: {', '.join(found)}"
    )


def test_every_lazy_load_is_a_listed_module_with_its_reason() -> None:
    from autodiff_cli.lazy_imports import DEFERRED

    calls = _lazy_loads()
    assert len(calls) > 10  # (the scan sees the calls: the one-liner's path makes several)
    unlisted = [f"{where} loads {name}" for where, name in calls if name not in DEFERRED]
    assert not unlisted, f"not in lazy_imports.DEFERRED: {', '.join(unlisted)}"
    unused = set(DEFERRED) - {name for _, name in calls}
    assert not unused, f"DEFERRED entries nothing loads: {', '.join(sorted(unused))}"
    assert all(reason.strip() for reason in DEFERRED.values())


def test_lazy_imports_refuses_an_unlisted_module() -> None:
    from autodiff_cli import lazy_imports

    with pytest.raises(KeyError, match="not in autodiff_cli.lazy_imports.DEFERRED"):
        lazy_imports.load("os")
    assert lazy_imports.load("gettext").gettext("gradient") == "gradient"


def test_the_scan_counts_imports_inside_functions(tmp_path: Path) -> None:
    """The counter sees an import in a nested function and a method, and not a module-level one."""
    source = "import os\n\ndef f():\n    import sys\n    def g():\n        from os import path\n"
    source += "\nclass C:\n    def m(self):\n        import json\n"
    tree = ast.parse(source)
    lines = sorted(
        {
            node.lineno
            for function in ast.walk(tree)
            if isinstance(function, ast.FunctionDef)
            for node in ast.walk(function)
            if isinstance(node, (ast.Import, ast.ImportFrom))
        }
    )
    assert lines == [4, 6, 10]
