"""The shape of the code: no function over 80 lines and no module over 900 lines, unless the
module says why at its top (a line starting `Long because:` in its docstring)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest
from import_graph import function_level_lines, lazy_loads, load_argument_names, module_constants
from source_trees import nodes_of, syntax_tree, trees_dropped  # noqa: F401  (autouse: the trees go after this module)

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
    for node in nodes_of(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append(f"{node.name} (line {node.lineno}, {length} lines)")
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_functions_and_modules_are_short_or_say_why(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tree = syntax_tree(path)
    if _explained(tree):
        return
    lines = text.count("\n") + 1
    assert lines <= MAX_MODULE_LINES, f"{lines} lines: split it, or say why ({REASON_MARK})"
    long_ones = _long_functions(tree)
    assert not long_ones, f"functions over {MAX_FUNCTION_LINES} lines: {', '.join(long_ones)}"


# ---- deferred imports (issue 31): no import statement inside a function; every import deferred
# to first use goes through the one documented list, `autodiff_cli/lazy_imports.py`, which holds
# at most 30 entries, loaded from at most 30 places in the package
MAX_DEFERRED = 30
MAX_LOAD_SITES = 30


def _function_level_imports() -> list[str]:
    """`path:line` of every import statement inside a function, anywhere in the package."""
    return sorted(
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in MODULES
        for line in function_level_lines(path)
    )


@functools.cache
def _lazy_loads() -> list[tuple[str, str]]:
    """(`path:line`, module) of every `lazy_imports.load(...)` call in the package, one pair for
    each module it may load (`import_graph.lazy_loads`)."""
    return [
        (f"{path.relative_to(PACKAGE)}:{line}", name) for path, line, name in lazy_loads(PACKAGE)
    ]


def test_no_import_inside_a_function() -> None:
    found = _function_level_imports()
    assert not found, (
        f"imports inside functions: move them to the top of their module, or defer them "
        f"through autodiff_cli/lazy_imports.py with the reason: {', '.join(found)}"
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


def test_at_most_30_deferred_imports_loaded_from_at_most_30_places() -> None:
    from autodiff_cli.lazy_imports import DEFERRED

    assert len(DEFERRED) <= MAX_DEFERRED, (
        f"{len(DEFERRED)} entries in lazy_imports.DEFERRED (at most {MAX_DEFERRED}): import at "
        f"module level what the one-liner's start-up does not need to wait for, or load "
        f"modules that always come together as one"
    )
    sites = sorted({where for where, _ in _lazy_loads()})
    assert len(sites) <= MAX_LOAD_SITES, (
        f"{len(sites)} lazy_imports.load() calls (at most {MAX_LOAD_SITES}): share one "
        f"accessor per module or package: {', '.join(sites)}"
    )


def test_the_scan_reads_tables_and_computed_names(tmp_path: Path) -> None:
    source = (
        "from autodiff_cli import lazy_imports as _lazy\n"
        "TABLE = {'a': 'pkg.one', 'b': 'pkg.two'}\n"
        "NAME = 'pkg.three'\n"
        "def f(key, part):\n"
        "    _lazy.load(TABLE[key]); _lazy.load(NAME); _lazy.load(f'{__name__}.{part}')\n"
        "    _lazy.load(part)\n"
    )
    tree = ast.parse(source)
    constants = module_constants(tree, "pkg")
    assert constants == {"TABLE[]": ["pkg.one", "pkg.two"], "NAME": ["pkg.three"]}
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and n.func.attr == "load"]
    spelled = [load_argument_names(call.args[0], constants, "pkg") for call in calls]
    assert spelled == [["pkg.one", "pkg.two"], ["pkg.three"], ["pkg.*"], ["?"]]


def test_lazy_imports_refuses_an_unlisted_module() -> None:
    from autodiff_cli import lazy_imports

    with pytest.raises(KeyError, match="not in autodiff_cli.lazy_imports.DEFERRED"):
        lazy_imports.load("os")
    with pytest.raises(KeyError, match="not in autodiff_cli.lazy_imports.DEFERRED"):
        lazy_imports.load("autodiff_cli.engineering")  # (`autodiff_cli.engine.*`: its submodules)
    assert lazy_imports.load("gettext").gettext("gradient") == "gradient"
    assert lazy_imports.load("autodiff_cli.engine.linalg").__name__ == "autodiff_cli.engine.linalg"
