"""The layers' imports (docs/ARCHITECTURE.md): engine <- lang <- cli, no import cycle among
the modules of lang or of cli, and none among lang's parts nor among cli's (their subpackages and
top modules: each layer's form one order). Imports inside functions and under TYPE_CHECKING count
too; for cli's parts, so do the loads through lazy_imports."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import pytest
from import_graph import (
    describe_cycle,
    find_cycle,
    import_graph,
    layer_violations,
    lazy_load_graph,
    part_graph,
    write_package,
)
from source_trees import trees_dropped  # noqa: F401  (autouse: the trees go after this module)

# Imports left out of the cycle check, each with its reason (none today: every cycle fails).
KNOWN_CYCLE_EDGES: set[tuple[str, str]] = set()


@pytest.fixture(scope="module")
def package_graph() -> dict[str, dict[str, int]]:
    """The package's import graph, read when a test asks (not at collection)."""
    return import_graph()


@pytest.mark.parametrize("package", ["autodiff_cli.lang", "autodiff_cli.cli"])
def test_no_import_cycle_in(package: str, package_graph: dict[str, dict[str, int]]):
    assert sum(1 for module in package_graph if module.startswith(package + ".")) > 10
    cycle = find_cycle(package_graph, package, ignore=KNOWN_CYCLE_EDGES)
    assert cycle is None, f"import cycle: {describe_cycle(package_graph, cycle)}"


def _part_cycle(
    parts: dict[str, dict[str, str]], package: str, ignore: Collection[tuple[str, str]] = ()
) -> str | None:
    cycle = find_cycle(parts, package, ignore=ignore)
    if cycle is None:
        return None
    steps = [f"{a} ({parts[a][b]} imports {b})" for a, b in zip(cycle, cycle[1:])]
    return " -> ".join(steps + [cycle[-1]])


@pytest.mark.parametrize("package", ["autodiff_cli.lang"])
def test_no_import_cycle_among_the_parts_of(package: str, package_graph: dict[str, dict[str, int]]):
    """lang/parse, sandbox, pylib, runtime, compile (and errors, exact, limits) form one order
    (docs/ARCHITECTURE.md): a module of one part never imports one of a part above it."""
    parts = part_graph(package_graph, package)
    named = {f"{package}.{name}" for name in ("parse", "sandbox", "pylib", "runtime", "compile")}
    assert named <= set(parts)
    assert sum(len(imported) for imported in parts.values()) > 10  # (the graph sees them)
    assert _part_cycle(parts, package) is None


# Loads through lazy_imports that go up cli's order: optional features of a lower command, loaded
# only when asked for (each its reason). Every other load goes down, as imports do.
UPWARD_LOADS = {
    ("autodiff_cli.cli.grad", "autodiff_cli.cli.formulas"): "grad --formula (grad.optional)",
    ("autodiff_cli.cli.grad", "autodiff_cli.cli.graph_page"): "grad --html (grad.optional)",
    ("autodiff_cli.cli.run", "autodiff_cli.cli.notebook"): "run NOTEBOOK.ipynb",
}


def test_the_parts_of_cli_form_an_order(package_graph: dict[str, dict[str, int]]):
    """cli's parts (grad/, graph/, jail/, output/..., and its top-level modules) import each
    other without a cycle: output <- jail <- graph <- grad <- formulas <- graph_page <- run <-
    draw <- repl <- notebook (docs/ARCHITECTURE.md); and what they load through lazy_imports
    keeps to that order too, but for the optional features in UPWARD_LOADS."""
    package = "autodiff_cli.cli"
    parts = part_graph(package_graph, package)
    assert "autodiff_cli.cli.graph" in parts["autodiff_cli.cli.grad"]  # (the graph sees them)
    assert _part_cycle(parts, package) is None

    loads = lazy_load_graph()
    both = {m: {**edges, **loads.get(m, {})} for m, edges in package_graph.items()}
    parts = part_graph(both, package)
    assert set(UPWARD_LOADS) <= {(a, b) for a, edges in parts.items() for b in edges}
    assert _part_cycle(parts, package, ignore=UPWARD_LOADS) is None


def test_a_cycle_among_parts_is_found(tmp_path: Path):
    """Modules with no cycle among them can still make one among their subpackages."""
    package = write_package(
        tmp_path,
        {
            "__init__.py": "",
            "low/__init__.py": "",
            "low/a.py": "from pkg.high import c\n",
            "low/b.py": "",
            "high/__init__.py": "",
            "high/c.py": "",
            "high/d.py": "def late():\n    from pkg.low import b\n",
        },
    )
    graph = import_graph(package)
    assert find_cycle(graph, "pkg") is None
    parts = part_graph(graph, "pkg")
    assert parts == {
        "pkg.high": {"pkg.low": "pkg.high.d:2"},
        "pkg.low": {"pkg.high": "pkg.low.a:1"},
    }
    assert _part_cycle(parts, "pkg") == (
        "pkg.high (pkg.high.d:2 imports pkg.low) -> pkg.low (pkg.low.a:1 imports pkg.high) -> pkg.high"
    )


@pytest.mark.parametrize(
    "lower, upper",
    [
        ("autodiff_cli.engine", "autodiff_cli.lang"),
        ("autodiff_cli.engine", "autodiff_cli.cli"),
        ("autodiff_cli.lang", "autodiff_cli.cli"),
    ],
)
def test_lower_layer_never_imports_upper(
    lower: str, upper: str, package_graph: dict[str, dict[str, int]]
):
    assert layer_violations(package_graph, lower, upper) == []


def test_the_parser_needs_nothing_of_lang_but_its_errors(
    package_graph: dict[str, dict[str, int]],
):
    """lang/parse (text to tree) sits under the compiler, the runtime and the sandbox."""
    imports = layer_violations(package_graph, "autodiff_cli.lang.parse", "autodiff_cli.lang")
    assert imports, "the graph sees lang/parse's imports"
    allowed = (" imports autodiff_cli.lang.parse", " imports autodiff_cli.lang.errors")
    assert [line for line in imports if not any(mark in line for mark in allowed)] == []


def test_cli_imports_the_layers_below(package_graph: dict[str, dict[str, int]]):
    """The graph sees cross-layer imports (else the layer tests above would pass vacuously)."""
    assert "autodiff_cli.lang" in package_graph["autodiff_cli.cli.grad.result"]
    assert "autodiff_cli.engine" in package_graph["autodiff_cli.cli.grad.result"]
    assert layer_violations(package_graph, "autodiff_cli.cli", "autodiff_cli.lang") != []


def test_a_cycle_through_a_function_level_import_is_found(tmp_path: Path):
    package = write_package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from pkg import b\n",
            "b.py": "import os\n\n\ndef late():\n    from .c import thing\n",
            "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import x\n",
            "d.py": "from . import a\n",
        },
    )
    graph = import_graph(package)
    assert graph["pkg.b"] == {"pkg.c": 5}
    cycle = find_cycle(graph, "pkg")
    assert cycle == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]
    assert (
        describe_cycle(graph, cycle)
        == "pkg.a (line 1) -> pkg.b (line 5) -> pkg.c (line 3) -> pkg.a"
    )


def test_relative_imports_and_layers_resolve(tmp_path: Path):
    package = write_package(
        tmp_path,
        {
            "__init__.py": "",
            "low/__init__.py": "from .core import f\n",
            "low/core.py": "def f():\n    from ..high.top import g\n",
            "high/__init__.py": "",
            "high/top.py": "from pkg.low import f\n",
        },
    )
    graph = import_graph(package)
    assert graph["pkg.low"] == {"pkg.low.core": 1}
    assert graph["pkg.high.top"] == {"pkg.low": 1}
    assert layer_violations(graph, "pkg.low", "pkg.high") == ["pkg.low.core:2 imports pkg.high.top"]
    assert find_cycle(graph, "pkg.low") is None
    assert find_cycle(graph, "pkg", ignore={("pkg.low.core", "pkg.high.top")}) is None
    assert find_cycle(graph, "pkg") == ["pkg.high.top", "pkg.low", "pkg.low.core", "pkg.high.top"]
