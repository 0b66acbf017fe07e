"""`torch.func.jacrev`, `jacfwd` and `hessian`.

`jacrev` stacks one vector-Jacobian product per output element (rows), `jacfwd` one
Jacobian-vector product per input element (columns), so each entry is computed as PyTorch
computes it. Each output leaf gets one Jacobian per differentiated argument, shaped
`output.shape + input.shape`, nested as outputs, then arguments, then the argument's own tree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import Tensor, stack, zeros, zeros_like
from . import levels, pytree
from .forward import JVP_API, Linearized
from .reverse import (
    VJP_API,
    _fresh_args,
    _per_argnum,
    check_outputs,
    gradients,
    no_saved_tensors_hooks,
)


def _one_hot(like: Tensor, index: int) -> Tensor:
    basis = zeros(like.numel(), dtype=like.dtype)
    basis[index] = 1
    return basis.reshape(like.shape)


def _basis(like: list, i: int, k: int) -> list:
    """Zeros shaped as each of `like`, with a 1 at flat position `k` of the `i`-th (PyTorch
    differentiates all outputs, or pushes all inputs, at once: zeros included)."""
    return [_one_hot(t, k) if j == i else zeros_like(t) for j, t in enumerate(like)]


def _assemble(pieces: list, out: Tensor, x: Tensor, columns: bool) -> Tensor:
    """The Jacobian block of `out` w.r.t. `x` from its rows (or columns)."""
    shape = tuple(out.shape) + tuple(x.shape)
    if not pieces:
        return zeros(shape, dtype=out.dtype if columns else x.dtype)
    flat = [p.reshape(-1) for p in pieces]
    return stack(flat, dim=1 if columns else 0).reshape(shape)


def _run(func: Callable, argnums: Any, has_aux: bool, args: tuple, api: str) -> tuple:
    positions = levels.check_argnums(argnums, len(args))
    args, inner, specs, outer = _fresh_args(args, positions)
    output, aux = levels.split_aux(func(*args), has_aux, api)
    outs, out_spec = pytree.flatten(output)
    check_outputs(outs, api, floating=api == VJP_API)
    return inner, outer, specs, outs, out_spec, aux


def _finish(blocks: list, specs: list, argnums: Any, out_spec: Any, keep: bool) -> Any:
    """`blocks[i][j]`: output i w.r.t. fresh input j, nested back into the trees."""
    per_output = []
    for row in blocks:
        trees = _per_argnum(row, specs)
        per_output.append(trees if isinstance(argnums, tuple) else trees[0])
    return levels.release(pytree.unflatten(per_output, out_spec), keep)


def jacrev(
    func: Callable, argnums: Any = 0, *, has_aux: bool = False, chunk_size: int | None = None
) -> Callable:
    """`f` -> a function returning the Jacobian of `f` w.r.t. args[argnums], by reverse mode."""

    def wrapper(*args: Any) -> Any:
        with no_saved_tensors_hooks(), levels.nested():
            inner, outer, specs, outs, out_spec, aux = _run(func, argnums, has_aux, args, VJP_API)
            keep = levels.keep_graph(outs, inner)
            blocks = []
            for i, out in enumerate(outs):
                rows = [
                    gradients(outs, inner, _basis(outs, i, k), keep) for k in range(out.numel())
                ]
                blocks.append(
                    [_assemble([r[j] for r in rows], out, x, False) for j, x in enumerate(inner)]
                )
        result = _finish(blocks, specs, argnums, out_spec, keep)
        return (result, levels.give_back(aux, inner, outer)) if has_aux else result

    return levels.wraps(func, wrapper)


def jacfwd(
    func: Callable, argnums: Any = 0, has_aux: bool = False, *, randomness: str = "error"
) -> Callable:
    """`f` -> a function returning the Jacobian of `f` w.r.t. args[argnums], by forward mode."""

    def wrapper(*args: Any) -> Any:
        with levels.nested():
            inner, outer, specs, outs, out_spec, aux = _run(func, argnums, has_aux, args, JVP_API)
            keep = levels.keep_graph(outs, inner)
            linear = Linearized(outs, inner)
            columns: list[list] = [[] for _ in inner]
            for j, x in enumerate(inner):
                for k in range(x.numel()):
                    columns[j].append(linear.push(_basis(inner, j, k), keep))
            blocks = [
                [_assemble([c[i] for c in columns[j]], out, x, True) for j, x in enumerate(inner)]
                for i, out in enumerate(outs)
            ]
        result = _finish(blocks, specs, argnums, out_spec, keep)
        if not has_aux:
            return result
        return result, _first_of_basis(levels.give_back(aux, inner, outer), inner)

    return levels.wraps(func, wrapper)


def _first_of_basis(aux: Any, inner: list) -> Any:
    """PyTorch's jacfwd maps the function over the basis of tangents and gives back the aux of
    the first: each aux tensor comes back as `expand(basis, ...)[0]` (`SelectBackward0`)."""
    basis = sum(x.numel() for x in inner)
    leaves, spec = pytree.flatten(aux)
    return pytree.unflatten(
        [x.expand(basis, *x.shape).select(0, 0) if isinstance(x, Tensor) else x for x in leaves],
        spec,
    )


def hessian(func: Callable, argnums: Any = 0) -> Callable:
    """`f` -> a function returning the Hessian of `f` w.r.t. args[argnums]."""
    return levels.wraps(func, jacfwd(jacrev(func, argnums), argnums))
