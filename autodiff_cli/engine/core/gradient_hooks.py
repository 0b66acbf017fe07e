"""Running the hooks a backward pass meets, and checking what they return as PyTorch checks it:
tensor hooks (`tensor.register_hook`), retained gradients, node pre- and post-hooks, and a
leaf's post-accumulate hooks. `core/backward.py` calls these only where a node or leaf has hooks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .formula_backends import NumpyBackend
from .saved_values import legacy_type_name
from .tensor import Tensor, _wrap

REPLACE_NONE_MESSAGE = "can't replace a None gradient with a non-None value"


def run_pre_hooks(node_hooks: Any, grads: list, backend: Any) -> list:
    """Tensor hooks (may replace the gradient), then retain_grad (always last), then node
    pre-hooks."""
    if node_hooks.tensor:
        for nr, hooks in node_hooks.tensor.items():
            for fn in list(hooks.values()):
                grads[nr] = run_tensor_hook(fn, grads[nr], backend)
    if node_hooks.retained:
        for nr, ref in node_hooks.retained.items():
            t = ref()
            if t is not None and grads[nr] is not None:
                store_retained(t, grads[nr], backend)
    if node_hooks.pre:
        for fn in list(node_hooks.pre.values()):
            grads = run_tuple_hook(fn, (grads,), grads, backend)
    return grads


# -- what hooks may return, checked as PyTorch checks it ----------------------------------------


def _hook_name(fn: Any) -> str:
    return getattr(fn, "__name__", "<unknown>")


def _check_hook_value(fn: Any, new: Any, old: Any, backend: Any) -> Any:
    """A hook's replacement `new` for the gradient `old` (never None): a Tensor of the same dtype
    and shape, returned unwrapped for `backend`."""
    if not isinstance(new, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
    old_data = old._data if isinstance(old, Tensor) else np.asarray(old)
    if new._data.dtype != old_data.dtype:
        raise RuntimeError(
            f"hook '{_hook_name(fn)}' has changed the type of value (was "
            f"{legacy_type_name(old_data.dtype)} got {legacy_type_name(new._data.dtype)})"
        )
    if new._data.shape != old_data.shape:
        raise RuntimeError(f"hook '{_hook_name(fn)}' has changed the size of value")
    return backend.unwrap(new)


def run_tensor_hook(fn: Any, g: Any, backend: Any) -> Any:
    """`tensor.register_hook(fn)`: `fn(grad)` may return a replacement. As in PyTorch, the hook
    also runs (with None) for an output of its node that received no gradient."""
    if g is None:
        if fn(None) is not None:
            raise RuntimeError(REPLACE_NONE_MESSAGE)
        return None
    seen = backend.wrap(g)
    new = fn(seen)
    if new is None:
        return _as_left(fn, seen, g, backend)
    return _check_hook_value(fn, new, g, backend)


def _as_left(fn: Any, seen: Any, g: Any, backend: Any) -> Any:
    """The gradient `g` as the hook that received it (as the Tensor `seen`) left it: the
    gradient is that tensor, as in PyTorch, so `grad *= 100` in a hook returning None counts.
    (An array changes in place; a 0-d gradient is a numpy scalar, which `seen` replaced.)"""
    data = backend.unwrap(seen)
    if data is g:
        return g
    return _check_hook_value(fn, seen, g, backend)


def run_tuple_hook(fn: Any, args: tuple, grads: list, backend: Any) -> list:
    """A node pre-hook `fn(grad_outputs)` or post-hook `fn(grad_inputs, grad_outputs)`: `args`
    are the gradient lists it receives, the first of which (`grads`) it may replace by
    returning a tuple of the same length."""
    wrap = backend.wrap
    seen = [tuple(None if g is None else wrap(g) for g in gs) for gs in args]
    new = fn(*seen)
    if new is None:  # each gradient as the hook left it (changed in place: `_as_left`)
        return [g if g is None else _as_left(fn, t, g, backend) for t, g in zip(seen[0], grads)]
    if not isinstance(new, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(new).__name__}'")
    if len(new) != len(grads):
        raise RuntimeError(
            f"hook '{_hook_name(fn)}' has returned an incorrect number of values (got {len(new)}, "
            f"but expected {len(grads)})"
        )
    out = []
    for value, old in zip(new, grads):
        if value is None:
            out.append(None)
        elif old is None:
            raise RuntimeError(REPLACE_NONE_MESSAGE)
        else:
            out.append(_check_hook_value(fn, value, old, backend))
    return out


def run_post_hooks(post: dict, outs: list, grads: list, backend: Any) -> list:
    for fn in list(post.values()):
        outs = run_tuple_hook(fn, (outs, grads), outs, backend)
    return outs


def run_post_accumulate_hooks(var: Tensor) -> None:
    """`fn(tensor)` after `.grad` was updated: PyTorch wants None back (or the tensor itself),
    and checks anything else like a replacement gradient before refusing it."""
    for fn in list(var._post_accumulate_hooks.values()):
        result = fn(var)
        if result is None or result is var:
            continue
        _check_hook_value(fn, result, var, NumpyBackend)
        raise RuntimeError("Tensor post accumulate grad hooks should return None.")


def store_retained(t: Tensor, g: Any, backend: Any) -> None:
    """A non-leaf's retained gradient: unlike a leaf's, a copy the first time (CloneBackward0
    under create_graph) and then a new sum each time, never added in place."""
    current = t._grad
    if backend.creates_graph:
        t._grad = g.clone() if current is None else current + g
    elif current is None:
        t._grad = _wrap(np.array(g, copy=True, subok=True))
    else:
        t._grad = _wrap(current._data + g)
