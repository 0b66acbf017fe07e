"""`torch.func.grad`, `grad_and_value` and `vjp`: reverse mode through `autograd.grad`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import Tensor
from ..autograd import grad as autograd_grad
from ..autograd.graph import disable_saved_tensors_hooks
from . import levels, pytree

GRAD_API = "grad_and_value(f)(*args)"
VJP_API = "vjp(f, *primals)"


def no_saved_tensors_hooks() -> disable_saved_tensors_hooks:
    """As PyTorch's reverse-mode transforms: no saved-tensor hooks around them or inside."""
    return disable_saved_tensors_hooks(
        "torch.func.{grad, vjp, jacrev, hessian} don't yet support saved tensor hooks. Please "
        "open an issue with your use case."
    )


def grad_and_value(func: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """`f` -> a function returning `(gradient w.r.t. args[argnums], f(*args))`."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return _grad_and_value(func, argnums, has_aux, args, kwargs)

    return levels.wraps(func, wrapper)


def grad(func: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """`f` -> a function returning the gradient of `f`'s scalar output w.r.t. args[argnums]."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        gradient, (_, aux) = _grad_and_value(func, argnums, has_aux, args, kwargs, split=True)
        return (gradient, aux) if has_aux else gradient

    return levels.wraps(func, wrapper)


def _grad_and_value(
    func: Callable, argnums: Any, has_aux: bool, args: tuple, kwargs: dict, split: bool = False
) -> Any:
    positions = levels.check_argnums(argnums, len(args))
    with no_saved_tensors_hooks(), levels.nested():
        args, inner, specs, outer = _fresh_args(args, positions)
        output, aux = levels.split_aux(func(*args, **kwargs), has_aux, GRAD_API)
        if not isinstance(output, Tensor):
            raise RuntimeError(
                f"{GRAD_API}: Expected f(*args) to return a Tensor, got {type(output)}"
            )
        if output.dim() != 0:
            raise RuntimeError(
                f"{GRAD_API}: Expected f(*args) to return a scalar Tensor, got tensor with "
                f"{output.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?"
            )
        keep = levels.keep_graph([output], inner)
        grads = gradients([output], inner, None, keep)
    trees = _per_argnum(grads, specs)
    gradient = trees if isinstance(argnums, tuple) else trees[0]
    value = levels.give_back(output, inner, outer)
    aux = levels.give_back(aux, inner, outer)
    if split:
        return gradient, (value, aux)
    return gradient, ((value, aux) if has_aux else value)


def _fresh_args(args: tuple, positions: tuple[int, ...]) -> tuple[tuple, list, list, list]:
    """`args` with the differentiated ones replaced by fresh inputs; those inputs; their specs;
    the caller's tensors they stand for."""
    args = list(args)
    inner: list = []
    outer: list = []
    specs = []
    for position in positions:
        leaves, spec = pytree.flatten(args[position])
        levels.check_tensors(leaves)
        new = [levels.fresh(x) for x in leaves]
        inner.extend(new)
        outer.extend(leaves)
        specs.append((spec, len(new)))
        args[position] = pytree.unflatten(new, spec)
    return tuple(args), inner, specs, outer


def _per_argnum(grads: list, specs: list) -> tuple:
    trees = []
    start = 0
    for spec, count in specs:
        trees.append(pytree.unflatten(grads[start : start + count], spec))
        start += count
    return tuple(trees)


def gradients(outputs: list, inputs: list, cotangents: list | None, keep: bool) -> list:
    """d(outputs)/d(inputs) against `cotangents` (ones for None); zeros where unused."""
    given = cotangents if cotangents is not None else [None] * len(outputs)
    pairs = [(o, c) for o, c in zip(outputs, given) if o.requires_grad]
    if pairs:
        found = autograd_grad(
            [o for o, _ in pairs],
            inputs,
            None if cotangents is None else [c for _, c in pairs],
            retain_graph=True,
            create_graph=keep,
            allow_unused=True,
        )
    else:
        found = (None,) * len(inputs)
    return [g if g is not None else levels.zeros_for(x) for g, x in zip(found, inputs)]


def vjp(func: Callable, *primals: Any, has_aux: bool = False) -> tuple:
    """`(f(*primals), vjp_fn)` (and aux): `vjp_fn(cotangents)` gives one gradient per primal."""
    with no_saved_tensors_hooks(), levels.nested():
        args, inner, specs, outer = _fresh_args(primals, tuple(range(len(primals))))
        output, aux = levels.split_aux(func(*args), has_aux, VJP_API)
        outs, out_spec = pytree.flatten(output)
        check_outputs(outs, VJP_API)
        keep = levels.keep_graph(outs, inner)

    def vjp_fn(cotangents: Any) -> tuple:
        leaves, spec = pytree.flatten(cotangents)
        if spec != out_spec:
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure of "
                f"outputs to the function. cotangents: {pytree.short_str(spec)}, "
                f"primal output: {pytree.short_str(out_spec)}"
            )
        for leaf in leaves:
            if not isinstance(leaf, Tensor):  # (read no attribute of another object)
                raise TypeError(
                    f"vjp(f, ...)(cotangents): expected Tensors as cotangents, got "
                    f"{type(leaf).__name__}"
                )
        create = keep or levels.depth() > 0 or any(c.requires_grad for c in leaves)
        return _per_argnum(gradients(outs, inner, leaves, create), specs)

    vjp_fn.__name__, vjp_fn.__qualname__ = "wrapper", "_vjp_with_argnums.<locals>.wrapper"
    result = (levels.give_back(output, inner, outer), vjp_fn)
    return (*result, levels.give_back(aux, inner, outer)) if has_aux else result


def check_outputs(outs: list, api: str, floating: bool = True) -> None:
    """Every output a tensor (floating point for reverse mode), as PyTorch checks them."""
    for out in outs:
        if not isinstance(out, Tensor):
            raise RuntimeError(
                f"{api}: expected f(*primals) to return only tensors, got unsupported type "
                f"{type(out)}"
            )
        if floating and not out.is_floating_point():
            raise RuntimeError(
                "vjp(f, ...): All outputs of f must be floating-point or complex "
                f"Tensors, got Tensor with dtype {out.dtype}"
            )
