"""Nested tuples, lists and dicts of leaves ("pytrees"), as torch.func walks its arguments.

A spec records the containers; `flatten` gives the leaves in order (dict values in key order),
`unflatten` rebuilds the containers around new leaves. The two printed forms are PyTorch's: the
short one of `vjp`'s messages (`(*, *)`) and the `TreeSpec(...)` one of `jvp`'s and `vmap`'s.
"""

from __future__ import annotations

from typing import Any

LEAF = None  # the spec of a leaf


class Spec:
    """A container node: its kind (tuple, list or dict), dict keys, and the children's specs."""

    __slots__ = ("kind", "keys", "children")

    def __init__(self, kind: type, keys: list | None, children: list) -> None:
        self.kind = kind
        self.keys = keys
        self.children = children

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Spec)
            and self.kind is other.kind
            and self.keys == other.keys
            and self.children == other.children
        )

    def __hash__(self) -> int:
        return hash((self.kind, len(self.children)))


def _container_kind(obj: Any) -> type | None:
    for kind in (tuple, list, dict):
        if type(obj) is kind:
            return kind
    return None


def flatten(obj: Any) -> tuple[list, Spec | None]:
    """The leaves of `obj` in order and its spec."""
    leaves: list = []
    return leaves, _flatten_into(obj, leaves)


def _flatten_into(obj: Any, leaves: list) -> Spec | None:
    kind = _container_kind(obj)
    if kind is None:
        leaves.append(obj)
        return LEAF
    if kind is dict:
        keys = list(obj)
        return Spec(dict, keys, [_flatten_into(obj[k], leaves) for k in keys])
    return Spec(kind, None, [_flatten_into(item, leaves) for item in obj])


def unflatten(leaves: list, spec: Spec | None) -> Any:
    """The containers of `spec` around `leaves` (consumed in order)."""
    it = iter(leaves)
    return _build(it, spec)


def _build(it: Any, spec: Spec | None) -> Any:
    if spec is None:
        return next(it)
    items = [_build(it, child) for child in spec.children]
    if spec.kind is dict:
        return dict(zip(spec.keys, items))
    return spec.kind(items)


def num_leaves(spec: Spec | None) -> int:
    if spec is None:
        return 1
    return sum(num_leaves(child) for child in spec.children)


def broadcast_prefix(prefix: Any, spec: Spec | None) -> list | None:
    """`prefix` (a tree whose leaves stand for whole subtrees of `spec`) expanded to one value
    per leaf of `spec`, or None when its structure does not match."""
    out: list = []
    return out if _expand(prefix, spec, out) else None


def _expand(prefix: Any, spec: Spec | None, out: list) -> bool:
    kind = _container_kind(prefix)
    if kind is None:
        out.extend([prefix] * num_leaves(spec))
        return True
    if spec is None or spec.kind is not kind or len(prefix) != len(spec.children):
        return False
    if kind is dict:
        if set(prefix) != set(spec.keys):
            return False
        return all(_expand(prefix[k], c, out) for k, c in zip(spec.keys, spec.children))
    return all(_expand(p, c, out) for p, c in zip(prefix, spec.children))


def short_str(spec: Spec | None) -> str:
    """`(*, *)`, `[*]`, `{'a': *}`: the form of `vjp`'s messages."""
    if spec is None:
        return "*"
    parts = [short_str(child) for child in spec.children]
    if spec.kind is dict:
        return "{" + ", ".join(f"{k!r}: {p}" for k, p in zip(spec.keys, parts)) + "}"
    if spec.kind is tuple:
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    return "[" + ", ".join(parts) + "]"


def spec_repr(spec: Spec | None, indent: int = 0) -> str:
    """`TreeSpec(tuple, None, [*,\\n  *])`: the form of `jvp`'s and `vmap`'s messages."""
    if spec is None:
        return "*"
    keys = "None" if spec.keys is None else repr(spec.keys)
    inner = indent + 2
    children = [spec_repr(child, inner) for child in spec.children]
    body = (",\n" + " " * inner).join(children)
    return f"TreeSpec({spec.kind.__name__}, {keys}, [{body}])"
