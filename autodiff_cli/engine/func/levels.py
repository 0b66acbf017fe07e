"""What the torch.func transforms share: checked arguments, fresh inputs, and when results keep
their graph.

Each transform runs the function on fresh inputs (leaves of their own, or clones that stay
connected to inputs that already require grad) and differentiates with `autograd.grad`. Results
keep a graph only where something outside still differentiates them: inside another transform
(the nesting depth is > 0) or when the function reached tensors that require grad outside.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .. import Tensor, enable_grad, zeros_like
from . import pytree


class _Depth:
    value = 0


@contextmanager
def nested() -> Iterator[None]:
    """One more transform level, with gradient mode on (an outer `no_grad` does not apply)."""
    _Depth.value += 1
    try:
        with enable_grad():
            yield
    finally:
        _Depth.value -= 1


def depth() -> int:
    return _Depth.value


def check_argnums(argnums: Any, count: int) -> tuple[int, ...]:
    """The positions `argnums` names, checked as PyTorch checks them."""
    items = argnums if isinstance(argnums, tuple) else (argnums,)
    if not isinstance(argnums, (int, tuple)) or isinstance(argnums, bool):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    if not items:
        raise RuntimeError("argnums must be non-empty")
    for item in items:
        if not isinstance(item, int) or isinstance(item, bool):
            raise RuntimeError(f"argnum must be int, got: {type(item)}")
        if not -count <= item < count:
            raise RuntimeError(f"Got argnum={item}, but only {count} positional inputs")
    positions = tuple(item % count for item in items)
    if len(set(positions)) != len(positions):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return positions


def check_tensors(leaves: list) -> None:
    for leaf in leaves:
        if not isinstance(leaf, Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(leaf)}")


def fresh(x: Tensor) -> Tensor:
    """The input a transform differentiates by: a clone when `x` already requires grad (so the
    result stays connected to it), else a new leaf sharing `x`'s data."""
    if x.requires_grad:
        return x.clone()
    return x.detach().requires_grad_(True)


def reaches_outside(tensors: list, inner: list) -> bool:
    """Whether any of `tensors` depends on a leaf requiring grad other than the `inner` ones."""
    return _reach(tensors, inner)[1]


def _reach(tensors: list, inner: list) -> tuple[bool, bool]:
    """Whether `tensors` depend on the `inner` inputs (leaves, or clones of outer tensors met
    by their node), and whether they depend on a leaf requiring grad outside them."""
    own = {id(t) for t in inner}
    own_nodes = {id(t.grad_fn) for t in inner if t.grad_fn is not None}
    seen: set[int] = set()
    stack = [t.grad_fn for t in tensors if isinstance(t, Tensor) and t.grad_fn is not None]
    stack += [t for t in tensors if isinstance(t, Tensor) and t.requires_grad and t.is_leaf]
    touches_inner = False
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, Tensor):
            if id(node) not in own:
                return touches_inner, True
            touches_inner = True
            continue
        touches_inner = touches_inner or id(node) in own_nodes
        variable = getattr(node, "variable", None)
        if variable is not None:
            if id(variable) not in own:
                return touches_inner, True
            touches_inner = True
            continue
        stack.extend(fn for fn, _ in node.next_functions)
    return touches_inner, False


def keep_graph(outputs: list, inner: list) -> bool:
    """Whether results computed from `outputs` must stay differentiable (see the module doc)."""
    return depth() > 1 or reaches_outside(outputs, inner)


def release(tree: Any, keep: bool) -> Any:
    """`tree` with its tensors detached unless `keep`."""
    if keep:
        return tree
    leaves, spec = pytree.flatten(tree)
    return pytree.unflatten([t.detach() if isinstance(t, Tensor) else t for t in leaves], spec)


def give_back(
    tree: Any, inner: list, originals: list, returned: Callable[[Tensor], Tensor] | None = None
) -> Any:
    """A transform's aux (or primal outputs) as PyTorch gives them back, called after the
    transform's level ends: an input returned as it came in is the caller's own tensor (or
    `returned(it)`: jvp gives an alias); a tensor the inputs did not produce is returned
    untouched; one computed from them keeps its graph where it reaches tensors requiring grad
    outside (or an outer transform differentiates it), else comes back detached."""
    back = {id(t): o if returned is None else returned(o) for t, o in zip(inner, originals)}
    leaves, spec = pytree.flatten(tree)
    released = []
    for leaf in leaves:
        if not isinstance(leaf, Tensor):
            released.append(leaf)
        elif id(leaf) in back:
            released.append(back[id(leaf)])
        else:
            from_inputs, outside = _reach([leaf], inner)
            keep = not from_inputs or outside or depth() > 0
            released.append(leaf if keep else leaf.detach())
    return pytree.unflatten(released, spec)


def zeros_for(x: Tensor) -> Tensor:
    return zeros_like(x)


def split_aux(output: Any, has_aux: bool, api: str) -> tuple[Any, Any]:
    """`(output, aux)` of a function called with `has_aux`, checked."""
    if not has_aux:
        return output, None
    if not isinstance(output, tuple) or len(output) != 2:
        raise RuntimeError(
            f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True"
        )
    aux_leaves, _ = pytree.flatten(output[1])
    for leaf in aux_leaves:
        if not isinstance(leaf, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")
    return output


def wraps(function: Callable, wrapper: Callable) -> Callable:
    """`wrapper` named as `function` (what printing the transformed function shows)."""
    for name in ("__name__", "__qualname__", "__doc__"):
        value = getattr(function, name, None)
        if isinstance(value, str):
            setattr(wrapper, name, value)
    return wrapper
