"""Compiling assignment and deletion targets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autodiff_cli.lang.compile.blocks import Stmt, block, describe_target
from autodiff_cli.lang.compile.scopes import CLASS_DICT_SLOT
from autodiff_cli.lang.parse.syntax_tree import Tree
from autodiff_cli.lang.runtime.namespace import UNBOUND
from autodiff_cli.lang.sandbox import capabilities


class TargetCompiler:
    """Stores to and deletions of names, attributes, items and unpacked sequences (a mixin of
    `compiler.Compiler`)."""

    def store_name(self, name: str) -> Callable[[list, Any], None]:
        scope = self.scope
        kind = scope.kind_of(name)
        if kind == "local":
            slot = scope.slots[name]

            def store_local(f: list, value: Any) -> None:
                f[slot] = value

            return store_local
        if kind in ("cell", "free"):
            slot = scope.slots[name]

            def store_cell(f: list, value: Any) -> None:
                f[slot].v = value

            return store_cell
        if kind == "class":
            key = self.attribute_name(name)  # `def __helper` in a class body: `_Class__helper`

            def store_class(f: list, value: Any) -> None:
                f[CLASS_DICT_SLOT][key] = value

            return store_class

        def store_global(f: list, value: Any) -> None:
            f[0][name] = value

        return store_global

    def expr_walrus(self, node: Tree) -> Callable[[list], Any]:
        """`name := value`: stores and gives the value (the scope builder decided where)."""
        store, value = self.store_name(str(node.children[0])), self.expr(node.children[1])

        def assignment_expression(f: list) -> Any:
            result = value(f)
            store(f, result)
            return result

        return assignment_expression

    def store(self, target: Tree) -> Callable[[list, Any], None]:
        kind = target.data
        if kind == "var":
            return self.store_name(str(target.children[0]))
        if kind in ("tuple", "list"):
            return self._store_unpack([child for child in target.children if child is not None])
        if kind == "getattr":
            obj = self.expr(target.children[0])
            name = self.attribute_name(target.children[1])

            def store_attribute(f: list, value: Any) -> None:
                capabilities.script_setattr(obj(f), name, value)

            return store_attribute
        if kind == "getitem":
            obj, key = self.expr(target.children[0]), self.subscript(target.children[1])

            def store_item(f: list, value: Any) -> None:
                obj(f)[key(f)] = value

            return store_item
        if kind == "star_expr":
            raise self.error("starred assignment target must be in a list or tuple", target)
        if kind in ("yield_expr", "yield_from"):
            raise self.error("assignment to yield expression not possible", target)
        raise self.error(f"cannot assign to {describe_target(target)}", target)

    def _store_unpack(self, targets: list[Tree]) -> Callable[[list, Any], None]:
        stars = [i for i, t in enumerate(targets) if isinstance(t, Tree) and t.data == "star_expr"]
        if len(stars) > 1:
            raise self.error("multiple starred expressions in assignment", targets[stars[1]])
        if stars:
            star = stars[0]
            before = tuple(self.store(t) for t in targets[:star])
            middle = self.store_name_or_target(targets[star].children[0])
            after = tuple(self.store(t) for t in targets[star + 1 :])
            minimum = len(before) + len(after)

            def store_starred(f: list, value: Any) -> None:
                items = list(value)
                if len(items) < minimum:
                    raise ValueError(
                        f"not enough values to unpack (expected at least {minimum}, got {len(items)})"
                    )
                for store, item in zip(before, items):
                    store(f, item)
                middle(f, items[len(before) : len(items) - len(after)])
                for store, item in zip(after, items[len(items) - len(after) :]):
                    store(f, item)

            return store_starred
        stores = tuple(self.store(t) for t in targets)
        count = len(stores)

        def store_unpack(f: list, value: Any) -> None:
            items = value if type(value) is tuple else tuple(value)
            if len(items) != count:
                if len(items) > count:
                    raise ValueError(f"too many values to unpack (expected {count})")
                raise ValueError(
                    f"not enough values to unpack (expected {count}, got {len(items)})"
                )
            for store, item in zip(stores, items):
                store(f, item)

        return store_unpack

    def store_name_or_target(self, target: Tree) -> Callable[[list, Any], None]:
        return self.store(target)

    def delete_name(self, name: str, quiet: bool = False) -> Stmt:
        scope = self.scope
        kind = scope.kind_of(name)
        message = f"name '{name}' is not defined"
        if kind in ("local", "cell", "free"):
            slot = scope.slots[name]
            is_cell = kind != "local"

            def delete_variable(f: list) -> None:
                if is_cell:
                    if f[slot].v is UNBOUND and not quiet:
                        raise NameError(message)
                    f[slot].v = UNBOUND
                else:
                    if f[slot] is UNBOUND and not quiet:
                        raise NameError(message)
                    f[slot] = UNBOUND

            return delete_variable
        slot = CLASS_DICT_SLOT if kind == "class" else 0
        key = self.attribute_name(name) if kind == "class" else name

        def delete_global(f: list) -> None:
            mapping = f[slot]
            if key in mapping:
                del mapping[key]
            elif not quiet:
                raise NameError(message)

        return delete_global

    def delete(self, target: Tree) -> Stmt:
        kind = target.data
        if kind == "var":
            return self.delete_name(str(target.children[0]))
        if kind in ("tuple", "list"):
            return block([self.delete(child) for child in target.children if child is not None])
        if kind == "getattr":
            obj = self.expr(target.children[0])
            name = self.attribute_name(target.children[1])

            def delete_attribute(f: list) -> None:
                capabilities.script_delattr(obj(f), name)

            return delete_attribute
        if kind == "getitem":
            obj, key = self.expr(target.children[0]), self.subscript(target.children[1])

            def delete_item(f: list) -> None:
                del obj(f)[key(f)]

            return delete_item
        raise self.error(f"cannot delete {describe_target(target)}", target)
