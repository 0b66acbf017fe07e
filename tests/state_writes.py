"""Where a module changes another module's state by writing it, read from the source with `ast`.

A module may change another module's state only by calling it (the owner's functions say what
may change and when). Writing it directly is how dependencies get injected at run time (a lower
module's global set by a higher one, a registry filled from outside), so these are found:

- rebinding or deleting a global of another module of the package: `mod.name = value`,
  `mod.name += 1`, `del mod.name`, `setattr(mod, "name", value)`, `delattr(mod, ...)`;
- writing into a container held by another module or by a class imported from one:
  `mod.TABLE[key] = value`, `del mod.TABLE[key]`, `mod.REGISTRY.append(f)` (and `add`, `update`,
  `setdefault`, `insert`, `extend`, `pop`, `remove`, `discard`, `clear`...),
  `Imported.listeners.append(f)`;
- `sys.modules[name] = module` and its mutations (modules stood in for others);
- handing another module code to keep: calling its function that stores an argument given a
  function or a class (annotated `Callable`, `type`, or an alias of a `Callable`) as it is in
  that module's state (`global X; X = provider`, `TABLE[key] = getter`, `Holder.attr = reader`):
  the same write, done for the caller (`anomaly.set_stack_provider(provider)` was one).

The names looked at are those the module binds by `import` / `from ... import` (a module of the
package, or any name imported from one). Attributes of an imported class or object (`GradMode.
enabled = False`, a method the op table attaches to `Tensor`) are its interface, not flagged;
nor are the interpreter's own settings in `sys` (`sys.stdout`, `sys.unraisablehook`, `sys.argv`).
A value reached through a local alias (`table = mod.TABLE; table[k] = v`) is not followed.
"""

from __future__ import annotations

import ast
from pathlib import Path

from import_graph import PACKAGE_ROOT, from_module, module_names
from source_trees import nodes_of, syntax_tree

MUTATORS = frozenset(
    "append extend insert add update setdefault pop popitem remove discard clear "
    "__setitem__ __delitem__".split()
)


def _imported(module: str, path: Path, nodes: list[ast.AST], package: str) -> dict[str, str]:
    """Local name -> what it names, for names imported from the package (and `sys`)."""
    base_package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                found[local] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            base = from_module(node, base_package)
            for alias in node.names:
                found[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            loaded = _loaded_module(node.value)
            if loaded and isinstance(node.targets[0], ast.Name):
                found[node.targets[0].id] = loaded
    return {
        local: name
        for local, name in found.items()
        if name == "sys" or name == package or name.startswith(package + ".")
    }


def _loaded_module(value: ast.expr) -> str | None:
    """The module a `lazy_imports.load("m")`, `importlib.import_module("m")`,
    `sys.modules["m"]` or `sys.modules.get("m")` expression gives, if it names one."""
    if isinstance(value, ast.Subscript):
        argument = value.slice
        holder = value.value
        if not (isinstance(holder, ast.Attribute) and holder.attr == "modules"):
            return None
    elif isinstance(value, ast.Call) and value.args and isinstance(value.func, ast.Attribute):
        if value.func.attr not in ("load", "import_module", "get"):
            return None
        argument = value.args[0]
    else:
        return None
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        return argument.value
    return None


def _root(node: ast.expr) -> tuple[str | None, int]:
    """The name an `a.b[c].d` chain starts from, and how many steps lead to it."""
    steps = 0
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
        steps += 1
    return (node.id if isinstance(node, ast.Name) else None), steps


def _is_sys_modules(node: ast.expr, imported: dict[str, str]) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "modules"
        and isinstance(node.value, ast.Name)
        and imported.get(node.value.id) == "sys"
    )


def _written(target: ast.expr, imported: dict[str, str], modules: set[str]) -> str | None:
    """Why writing `target` changes another module's state, else None."""
    if isinstance(target, (ast.Tuple, ast.List)):
        for item in target.elts:
            why = _written(item, imported, modules)
            if why:
                return why
        return None
    root, steps = _root(target)
    if root not in imported:
        return None
    if isinstance(target, ast.Attribute) and steps == 1:  # mod.name = ...
        if imported[root] in modules and imported[root] != "sys":
            return "rebinds a global of another module"
        return None
    if isinstance(target, ast.Subscript):
        if _is_sys_modules(target.value, imported):
            return "stands a module in for another (sys.modules)"
        if imported[root] != "sys":
            return "writes into a container of another module"
    return None


def _called(node: ast.Call, imported: dict[str, str], modules: set[str]) -> str | None:
    function = node.func
    if isinstance(function, ast.Name) and function.id in ("setattr", "delattr") and node.args:
        first = node.args[0]
        if isinstance(first, ast.Name) and imported.get(first.id) in modules - {"sys"}:
            return f"{function.id}() on another module"
        return None
    if not (isinstance(function, ast.Attribute) and function.attr in MUTATORS):
        return None
    holder = function.value
    if _is_sys_modules(holder, imported):
        return "stands a module in for another (sys.modules)"
    root, steps = _root(holder)
    if root in imported and imported[root] != "sys" and steps >= 1:
        return "changes a container of another module"
    return None


def _callable_aliases(tree: ast.Module) -> set[str]:
    """Module-level names standing for a callable type (`Reader = Callable[[Any], Any]`)."""
    return {
        node.targets[0].id
        for node in tree.body
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and "Callable" in ast.unparse(node.value)
    }


def _setters(tree: ast.Module) -> dict[str, tuple[str, int]]:
    """The module's functions that store a parameter given a function or a class, as it is, in
    the module's state: function name -> (parameter, position)."""
    top_names = {
        target.id
        for node in tree.body
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    } | {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
    aliases = _callable_aliases(tree)

    def gives_code(annotation: ast.expr | None) -> bool:
        text = ast.unparse(annotation) if annotation is not None else ""
        return "Callable" in text or text in ("type", "Type") or text in aliases

    found = {}
    for function in tree.body:
        if not isinstance(function, ast.FunctionDef):
            continue
        positional = function.args.posonlyargs + function.args.args
        params = {a.arg: (a, i) for i, a in enumerate(positional)}
        params.update({a.arg: (a, -1) for a in function.args.kwonlyargs})
        inside = nodes_of(function)
        declared = {name for node in inside if isinstance(node, ast.Global) for name in node.names}
        for node in inside:
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Name)):
                continue
            param = params.get(node.value.id)
            if param is None or not gives_code(param[0].annotation):
                continue
            for target in node.targets:
                root, steps = _root(target)
                if (isinstance(target, ast.Name) and target.id in declared) or (
                    steps and root in top_names
                ):
                    found[function.name] = (node.value.id, param[1])
    return found


def _passes(call: ast.Call, param: str, position: int) -> bool:
    if any(keyword.arg == param for keyword in call.keywords):
        return True
    return 0 <= position < len(call.args) or any(isinstance(a, ast.Starred) for a in call.args)


def _setter_calls(parsed: dict[str, tuple], package: str) -> list[str]:
    setters = {module: _setters(tree) for module, (_, tree, _, _) in parsed.items()}
    found = []
    for module, (_, _, nodes, imported) in parsed.items():
        for node in nodes:
            if not isinstance(node, ast.Call):
                continue
            function = node.func
            if isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name):
                owner, name = imported.get(function.value.id), function.attr
            elif isinstance(function, ast.Name) and function.id in imported:
                owner, _, name = imported[function.id].rpartition(".")
            else:
                continue
            stored = setters.get(owner, {}).get(name)
            if owner != module and stored is not None and _passes(node, *stored):
                found.append(
                    f"{module}:{node.lineno} {ast.unparse(function)} (hands another module "
                    f"code to keep: {owner}.{name}'s `{stored[0]}`)"
                )
    return found


def state_writes(root: Path = PACKAGE_ROOT) -> list[str]:
    """`module:line what (why)` for every such write in the package at `root`."""
    modules_found = module_names(root)
    package = root.name
    modules = set(modules_found) | {"sys"}
    found = []
    parsed = {}
    for module, path in sorted(modules_found.items()):
        tree = syntax_tree(path)
        nodes = nodes_of(tree)
        parsed[module] = (path, tree, nodes, _imported(module, path, nodes, package))
    for module, (_, _, nodes, imported) in parsed.items():
        if not imported:
            continue
        for node in nodes:
            targets: list[ast.expr] = []
            if isinstance(node, (ast.Assign, ast.Delete)):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            for target in targets:
                why = _written(target, imported, modules)
                if why:
                    found.append(f"{module}:{node.lineno} {ast.unparse(target)} ({why})")
            if isinstance(node, ast.Call):
                why = _called(node, imported, modules)
                if why:
                    found.append(f"{module}:{node.lineno} {ast.unparse(node.func)} ({why})")
    found += _setter_calls(parsed, package)
    return sorted(found, key=lambda item: (item.split(":")[0], int(item.split(":")[1].split()[0])))
