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


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _lazy_aliases(tree: ast.Module) -> set[str]:
    """The names the module binds `autodiff_cli.lazy_imports` to (`lazy_imports`, `_lazy`...)."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "autodiff_cli":
            names |= {a.asname or a.name for a in node.names if a.name == "lazy_imports"}
        elif isinstance(node, ast.Import):
            names |= {a.asname for a in node.names if a.name == "autodiff_cli.lazy_imports"}
    return names - {None}


def _string_of(node: ast.AST | None, constants: dict[str, str], module: str) -> str:
    """The module name a `load()` argument spells: a string, a module-level string constant, or
    an f-string of those and `__name__`; `?` for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return module if node.id == "__name__" else constants.get(node.id, "?")
    if isinstance(node, ast.FormattedValue) and node.format_spec is None:
        return _string_of(node.value, constants, module)
    if isinstance(node, ast.JoinedStr):
        parts = [_string_of(value, constants, module) for value in node.values]
        return "?" if "?" in parts else "".join(parts)
    return "?"


def _lazy_loads() -> list[tuple[str, str]]:
    """(`path:line`, module) of every `lazy_imports.load(...)` call in the package (under any
    name the module gives `lazy_imports`); a module name that cannot be read is `?`."""
    calls = []
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = _lazy_aliases(tree)
        module = _module_name(path)
        constants: dict[str, str] = {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    value = _string_of(node.value, constants, module)
                    if value != "?":
                        constants[target.id] = value
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "load"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in aliases
            ):
                name = _string_of(node.args[0] if node.args else None, constants, module)
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


def test_the_scan_reads_the_module_a_load_names() -> None:
    """A literal, a module-level constant, an f-string of `__name__`: read; anything else: `?`."""
    tree = ast.parse('A = "pkg.a"\nB = f"{__name__}.b"\nload(A)\nload(B)\nload("pkg.c")\nload(x)\n')
    constants: dict[str, str] = {}
    for node in tree.body[:2]:
        constants[node.targets[0].id] = _string_of(node.value, constants, "pkg.mod")
    calls = [node.value.args[0] for node in tree.body[2:]]
    assert [_string_of(arg, constants, "pkg.mod") for arg in calls] == [
        "pkg.a", "pkg.mod.b", "pkg.c", "?"
    ]  # fmt: skip
