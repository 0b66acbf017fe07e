"""The engine's import structure, read from the source with `ast` (nothing is imported).

Every import statement counts, at module level or inside a function: a lazy import still closes a
cycle when it runs. Layers: `engine/core` (tensor, nodes, op table, backward) <- `engine/ops` (the
op families) <- `engine/nn`, `optim`, `autograd`, ... and the engine never imports lang or cli.
"""

from __future__ import annotations

import functools
from pathlib import Path

from import_graph import (
    describe_cycle,
    find_cycle,
    function_level_lines,
    import_graph,
    imported_names,
    module_names,
)
from source_trees import trees_dropped  # noqa: F401  (autouse: the trees go after this module)

PACKAGE = "autodiff_cli.engine"

# Edges of the core allowed to close a cycle: none now. What the core calls that is defined above
# it (views' bookkeeping after in-place writes, a first gradient's copy, the legacy constructor,
# torch.where under create_graph) are Tensor methods the ops attach through `tensor_methods`.
KNOWN_CORE_EDGES: set[tuple[str, str]] = set()


def _in_engine(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def _short(name: str) -> str:
    """`autodiff_cli.engine.core.tensor` -> `core.tensor` (the package itself is `""`)."""
    return name[len(PACKAGE) + 1 :]


def _modules() -> dict[str, Path]:
    """`core.tensor` -> its file, for every module of the engine (`""` is the package itself)."""
    return {_short(name): path for name, path in module_names().items() if _in_engine(name)}


def _imports(name: str, path: Path) -> list[tuple[str, int, bool]]:
    """(absolute module name, line, inside a function) of each name the module imports."""
    lazy = function_level_lines(path)
    module = f"{PACKAGE}.{name}".rstrip(".")
    return [(target, line, line in lazy) for target, line in imported_names(module, path)]


@functools.cache
def _graph() -> dict[str, dict[str, int]]:
    """engine module -> {engine module it imports: line} (a name in a module counts as it; the
    package itself, `""`, is never counted as imported)."""
    return {
        _short(module): {
            _short(target): line
            for target, line in edges.items()
            if target.startswith(PACKAGE + ".")
        }
        for module, edges in import_graph().items()
        if _in_engine(module)
    }


def _cycle(graph: dict[str, dict[str, int]]) -> list[str] | None:
    return find_cycle(graph, "", ignore=KNOWN_CORE_EDGES)


def test_the_engine_import_graph_is_acyclic():
    graph = _graph()
    cycle = _cycle(graph)
    assert cycle is None, f"import cycle: {describe_cycle(graph, cycle)}"


def test_known_core_edges_still_exist():
    """An edge removed from the core is removed from KNOWN_CORE_EDGES too."""
    graph = _graph()
    gone = sorted(edge for edge in KNOWN_CORE_EDGES if edge[1] not in graph.get(edge[0], {}))
    assert gone == []


def test_core_imports_no_ops_module():
    graph = _graph()
    upward = [
        f"{m}:{line} imports {t}"
        for m, edges in sorted(graph.items())
        if m.startswith("core")
        for t, line in sorted(edges.items())
        if not t.startswith("core") and (m, t) not in KNOWN_CORE_EDGES
    ]
    assert upward == []


def test_ops_import_no_module_above_them():
    graph = _graph()
    upward = [
        f"{m}:{line} imports {t}"
        for m, edges in sorted(graph.items())
        if m.startswith("ops")
        for t, line in sorted(edges.items())
        if not t.startswith(("core", "ops"))
    ]
    assert upward == []


def test_the_engine_never_imports_lang_or_cli():
    bad = [
        f"{name}:{line} imports {target}"
        for name, path in _modules().items()
        for target, line, _ in _imports(name, path)
        if target.startswith(("autodiff_cli.lang", "autodiff_cli.cli"))
    ]
    assert bad == []


def test_ops_import_at_module_level():
    """The op families load no module lazily (the ops are loaded with the engine)."""
    lazy = [
        f"{name}:{line} imports {target}"
        for name, path in _modules().items()
        if name.startswith("ops")
        for target, line, inner in _imports(name, path)
        if inner
    ]
    assert lazy == []
