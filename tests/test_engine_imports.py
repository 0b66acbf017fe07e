"""The engine's import structure, read from the source with `ast` (nothing is imported).

Every import statement counts, at module level or inside a function: a lazy import still closes a
cycle when it runs. Layers: `engine/core` (tensor, nodes, op table, backward) <- `engine/ops` (the
op families) <- `engine/nn`, `optim`, `autograd`, ... and the engine never imports lang or cli.
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "autodiff_cli" / "engine"
PACKAGE = "autodiff_cli.engine"

# Edges of the core allowed to close a cycle: none now. The core reaches what is defined above it
# (the backward pass for Tensor.backward, tensor factories, views' bookkeeping, a first gradient's
# copy) through `core/provided.py`, which those modules fill when they load.
KNOWN_CORE_EDGES: set[tuple[str, str]] = set()


def _modules() -> dict[str, Path]:
    """`core.tensor` -> its file, for every module of the engine (`""` is the package itself)."""
    out = {}
    for path in sorted(ENGINE.rglob("*.py")):
        parts = list(path.relative_to(ENGINE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path) -> list[tuple[str, int, bool]]:
    """(absolute module name, line, inside a function) of each name the module imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = f"{PACKAGE}.{name}".rstrip(".")
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    in_function = {
        id(node)
        for fn in ast.walk(tree)
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
        for node in ast.walk(fn)
    }
    found = []
    for node in ast.walk(tree):
        inner = id(node) in in_function
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno, inner) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found += [(f"{base}.{alias.name}", node.lineno, inner) for alias in node.names]
    return found


def _graph() -> dict[str, dict[str, int]]:
    """engine module -> {engine module it imports: line} (a name in a module counts as it)."""
    modules = _modules()
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        edges: dict[str, int] = {}
        for target, line, _ in _imports(name, path):
            if not target.startswith(PACKAGE + "."):
                continue
            short = target[len(PACKAGE) + 1 :]
            while short and short not in modules:
                short = short.rpartition(".")[0]
            if short and short != name:
                edges.setdefault(short, line)
        graph[name] = edges
    return graph


def _cycle(graph: dict[str, dict[str, int]]) -> list[str] | None:
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for target in sorted(graph[node]):
            if (node, target) in KNOWN_CORE_EDGES:
                continue
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state:
                found = visit(target, path + [target])
                if found:
                    return found
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start, [start])
            if found:
                return found
    return None


def test_the_engine_import_graph_is_acyclic():
    graph = _graph()
    cycle = _cycle(graph)
    where = (
        " -> ".join(f"{a} (line {graph[a][b]})" for a, b in zip(cycle, cycle[1:])) if cycle else ""
    )
    assert cycle is None, f"import cycle: {where} -> {cycle[-1]}"


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
