"""Import graphs of the package's modules, read from the source with `ast` (nothing is imported).

Every `import` and `from ... import` statement counts, wherever it is: at module level, inside a
function (a lazy import still forms a cycle when it runs), under `if TYPE_CHECKING:`. Shared by
the layer tests (tests/test_import_layers.py) and the engine's own (tests/test_engine_imports.py).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Collection
from pathlib import Path

from source_trees import nodes_of, syntax_tree

PACKAGE_ROOT = Path(__file__).resolve().parents[1] / "autodiff_cli"


def module_names(root: Path = PACKAGE_ROOT) -> dict[str, Path]:
    """Dotted module name -> file, for every .py file under `root` (a package directory)."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The module `name` refers to: itself if it is one, else its longest module prefix."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


@functools.cache
def imported_names(module: str, path: Path) -> list[tuple[str, int]]:
    """(absolute dotted name, line) of everything the module imports: `import a.b` gives `a.b`,
    `from a import b` gives `a.b` (a submodule or a name in `a`), relative imports resolved."""
    tree = syntax_tree(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = []
    for node in nodes_of(tree):
        if isinstance(node, ast.Import):
            names.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = from_module(node, package)
            names.extend((f"{base}.{alias.name}", node.lineno) for alias in node.names)
    return names


def from_module(node: ast.ImportFrom, package: str) -> str:
    """The absolute name of the module a `from ... import` reads, in `package`."""
    base = node.module or ""
    if node.level:
        anchor = package.split(".")
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join(anchor + ([base] if base else []))
    return base


@functools.cache
def function_level_lines(path: Path) -> set[int]:
    """Lines of the import statements inside a function (lazy imports) of the module at `path`."""
    tree = syntax_tree(path)
    return {
        node.lineno
        for function in nodes_of(tree)
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
        for node in nodes_of(function)
        if isinstance(node, (ast.Import, ast.ImportFrom))
    }


def import_graph(root: Path = PACKAGE_ROOT) -> dict[str, dict[str, int]]:
    """module -> {module of this package it imports: line of the (first) import}."""
    modules = module_names(root)
    graph: dict[str, dict[str, int]] = {}
    for module, path in modules.items():
        edges: dict[str, int] = {}
        for name, line in imported_names(module, path):
            target = _resolve(name, modules)
            if target is not None and target != module:
                edges.setdefault(target, line)
        graph[module] = edges
    return graph


def find_cycle(
    graph: dict[str, dict[str, int]], prefix: str, ignore: Collection[tuple[str, str]] = ()
) -> list[str] | None:
    """A cycle among the modules named `prefix` or `prefix.*` (all of them when `prefix` is "";
    imports leaving them, and the (importer, imported) pairs in `ignore`, are left out), as
    [a, b, ..., a]; None if none."""
    graph = {
        m: {t: n for t, n in edges.items() if (m, t) not in ignore} for m, edges in graph.items()
    }

    def inside(name: str) -> bool:
        return not prefix or name == prefix or name.startswith(prefix + ".")

    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in sorted(m for m in graph if inside(m)):
        if start in state:
            continue
        path = [start]
        stack = [iter(sorted(t for t in graph[start] if inside(t)))]
        state[start] = 1
        while stack:
            target = next(stack[-1], None)
            if target is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(target) == 1:
                return path[path.index(target) :] + [target]
            elif target not in state:
                state[target] = 1
                path.append(target)
                stack.append(iter(sorted(t for t in graph[target] if inside(t))))
    return None


def describe_cycle(graph: dict[str, dict[str, int]], cycle: list[str]) -> str:
    """`a (line 3) -> b (line 10) -> a`: where each module imports the next."""
    steps = [f"{a} (line {graph[a][b]})" for a, b in zip(cycle, cycle[1:])]
    return " -> ".join(steps + [cycle[-1]])


def layer_violations(graph: dict[str, dict[str, int]], lower: str, upper: str) -> list[str]:
    """`module:line imports target` for each module under `lower` importing one under `upper`."""

    def under(name: str, prefix: str) -> bool:
        return name == prefix or name.startswith(prefix + ".")

    return [
        f"{module}:{line} imports {target}"
        for module, edges in sorted(graph.items())
        if under(module, lower)
        for target, line in sorted(edges.items())
        if under(target, upper)
    ]


def part_graph(graph: dict[str, dict[str, str]], package: str) -> dict[str, dict[str, str]]:
    """The import graph of `package`'s parts (each subpackage or module directly in it): part ->
    {part it imports: the first `module:line` that imports it}; imports inside a part and
    `package` itself (its `__init__`) are left out."""

    def part(name: str) -> str | None:
        if not name.startswith(package + "."):
            return None
        return f"{package}.{name[len(package) + 1 :].split('.')[0]}"

    parts: dict[str, dict[str, str]] = {}
    for module, edges in sorted(graph.items()):
        source = part(module)
        if source is None:
            continue
        found = parts.setdefault(source, {})
        for target, line in sorted(edges.items()):
            into = part(target)
            if into is not None and into != source:
                found.setdefault(into, f"{module}:{line}")
    return parts


# ---- imports deferred through `autodiff_cli.lazy_imports.load(...)` --------------------------


def _lazy_aliases(tree: ast.Module) -> set[str]:
    """The names the module binds `autodiff_cli.lazy_imports` to (`lazy_imports`, `_lazy`...)."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "autodiff_cli":
            names |= {a.asname or a.name for a in node.names if a.name == "lazy_imports"}
        elif isinstance(node, ast.Import):
            names |= {a.asname for a in node.names if a.name == "autodiff_cli.lazy_imports"}
    return names - {None}


def load_argument_names(
    node: ast.AST | None, constants: dict[str, list[str]], module: str
) -> list[str]:
    """The module names a `load()` argument spells: a string, a module-level string constant,
    `TABLE[key]` of a module-level dict of strings (every value), or an f-string of those and
    `__name__`, a part computed at run time read as `*` (`f"{__name__}.{name}"` in the engine:
    `autodiff_cli.engine.*`); `?` for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name):
        return [module] if node.id == "__name__" else constants.get(node.id, ["?"])
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        return constants.get(node.value.id + "[]", ["?"])
    if isinstance(node, ast.FormattedValue) and node.format_spec is None:
        names = load_argument_names(node.value, constants, module)
        return names if "?" not in names else ["*"]
    if isinstance(node, ast.JoinedStr):
        spelled = [""]
        for value in node.values:
            parts = load_argument_names(value, constants, module)
            spelled = [a + b for a in spelled for b in parts]
        return spelled
    return ["?"]


def module_constants(tree: ast.Module, module: str) -> dict[str, list[str]]:
    """Module-level `NAME = "text"` (as NAME) and `TABLE = {key: "text", ...}` (as `TABLE[]`)."""
    constants: dict[str, list[str]] = {}
    for node in tree.body:
        target = (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
        )
        if not isinstance(target, ast.Name):
            continue
        if isinstance(node.value, ast.Dict):
            values = [load_argument_names(v, constants, module) for v in node.value.values]
            if values and all(len(v) == 1 and v[0] not in "?*" for v in values):
                constants[target.id + "[]"] = [v[0] for v in values]
            continue
        names = load_argument_names(node.value, constants, module)
        if len(names) == 1 and "?" not in names[0] and "*" not in names[0]:
            constants[target.id] = names
    return constants


def lazy_loads(root: Path = PACKAGE_ROOT) -> list[tuple[Path, int, str]]:
    """(file, line, module) of every `lazy_imports.load(...)` call under `root` (under any name
    the module gives `lazy_imports`), one triple for each module the call may load; a name that
    cannot be read is `?`."""
    calls = []
    for module, path in module_names(root).items():
        tree = syntax_tree(path)
        aliases = _lazy_aliases(tree)
        if not aliases:
            continue
        constants = module_constants(tree, module)
        for node in nodes_of(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "load"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in aliases
            ):
                argument = node.args[0] if node.args else None
                for name in load_argument_names(argument, constants, module):
                    calls.append((path, node.lineno, name))
    return calls


def lazy_load_graph(root: Path = PACKAGE_ROOT) -> dict[str, dict[str, int]]:
    """module -> {module of this package it loads through `lazy_imports.load`: line}."""
    modules = module_names(root)
    by_path = {path: module for module, path in modules.items()}
    graph: dict[str, dict[str, int]] = {module: {} for module in modules}
    for path, line, name in lazy_loads(root):
        target = name if name in modules else None
        if target is not None and target != by_path[path]:
            graph[by_path[path]].setdefault(target, line)
    return graph


def write_package(root: Path, files: dict[str, str]) -> Path:
    """A package `pkg` under `root` made of `files` (relative path -> text): the scans' test
    cases."""
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"
