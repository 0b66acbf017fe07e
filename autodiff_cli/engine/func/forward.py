"""`torch.func.jvp`: Jacobian-vector products by the double-vjp trick.

The vector-Jacobian product `u -> u^T J` is linear in `u`; differentiating it w.r.t. `u` against a
tangent `v` gives `J v`. `Linearized` builds `u^T J` once (with a graph) so that many tangents can
be pushed through it (`jacfwd` pushes one per input element).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import Tensor, zeros_like
from ..autograd import grad as autograd_grad
from ..ops.views import ALIAS, apply_view
from . import levels, pytree
from .reverse import check_outputs

JVP_API = "jvp(f, primals, tangents)"


class Linearized:
    """The outputs of a function of `inputs`, ready to push tangents of the inputs through."""

    def __init__(self, outputs: list, inputs: list) -> None:
        self.outputs = outputs
        self.inputs = inputs
        self.live = [i for i, o in enumerate(outputs) if o.requires_grad]
        self.dummies = [zeros_like(outputs[i]).requires_grad_(True) for i in self.live]
        found = (None,) * len(inputs)
        if self.live:
            found = autograd_grad(
                [outputs[i] for i in self.live],
                inputs,
                self.dummies,
                retain_graph=True,
                create_graph=True,
                allow_unused=True,
            )
        self.vjps = [g if g is not None and g.requires_grad else None for g in found]

    def push(self, tangents: list, keep: bool) -> list:
        """J · tangents, one tensor per output (zeros where an output does not depend on them);
        `tangents` holds one tensor (or None for zero) per input."""
        pairs = [(g, t) for g, t in zip(self.vjps, tangents) if g is not None and t is not None]
        found: tuple = (None,) * len(self.dummies)
        if pairs:
            found = autograd_grad(
                [g for g, _ in pairs],
                self.dummies,
                [t for _, t in pairs],
                retain_graph=True,
                create_graph=keep,
                allow_unused=True,
            )
        result = [zeros_like(o) for o in self.outputs]
        for i, g in zip(self.live, found):
            if g is not None:
                result[i] = g
        return result


def jvp(
    func: Callable, primals: Any, tangents: Any, *, strict: bool = False, has_aux: bool = False
) -> tuple:
    """`(f(*primals), J·tangents)` (and aux)."""
    if not isinstance(primals, tuple):
        raise RuntimeError(
            f"{JVP_API}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals)."
        )
    leaves, spec = pytree.flatten(primals)
    tangent_leaves, tangent_spec = pytree.flatten(tangents)
    if spec != tangent_spec:
        raise RuntimeError(
            f"{JVP_API}: Expected primals and tangents to have the same python structure. For "
            "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
            f"with structure {pytree.spec_repr(spec)} and tangents with structure "
            f"{pytree.spec_repr(tangent_spec)}"
        )
    if not leaves:
        raise RuntimeError(f"{JVP_API}: Expected primals to contain at least one Tensor.")
    _check_pairs(leaves, tangent_leaves)
    with levels.nested():
        inner = [levels.fresh(x) for x in leaves]
        output, aux = levels.split_aux(func(*pytree.unflatten(inner, spec)), has_aux, JVP_API)
        outs, out_spec = pytree.flatten(output)
        check_outputs(outs, JVP_API, floating=False)
        keep = levels.keep_graph(outs, inner) or any(t.requires_grad for t in tangent_leaves)
        pushed = Linearized(outs, inner).push(tangent_leaves, keep)
    outs = pytree.flatten(levels.give_back(output, inner, leaves))[0]
    given = [_alias(o) if o.requires_grad or any(o is x for x in leaves) else o for o in outs]
    result = (pytree.unflatten(given, out_spec), pytree.unflatten(pushed, out_spec))
    return (*result, levels.give_back(aux, inner, leaves, _alias)) if has_aux else result


def _alias(x: Tensor) -> Tensor:
    """PyTorch's jvp gives back its primal outputs unpacked from dual tensors: aliases
    (`AliasBackward0` where they require grad) of what the function returned."""
    return apply_view(ALIAS, x)


def _check_pairs(primals: list, tangents: list) -> None:
    for x, t in zip(primals, tangents):
        for what, value in (("primal", x), ("tangent", t)):
            if not isinstance(value, Tensor):
                raise ValueError(f"Thing passed to transform API must be Tensor, got {type(value)}")
            if not value.is_floating_point():
                raise ValueError(
                    f"Expected {what} to be floating point or complex, but got: {value.dtype}"
                )
        if tuple(x.shape) != tuple(t.shape):
            raise RuntimeError(
                "Trying to set a forward gradient that has a different size than that of the "
                f"original Tensor, this is not supported. Tensor is of size {list(x.shape)} while "
                f"the given forward gradient is of size {list(t.shape)}."
            )


def linearize(func: Callable, *primals: Any) -> tuple:
    """`(func(*primals), jvp_fn)`: `jvp_fn(*tangents)` pushes tangents through the function's
    linearisation at `primals` (built once)."""
    leaves, spec = pytree.flatten(primals)
    with levels.nested():
        inner = [levels.fresh(x) if isinstance(x, Tensor) else x for x in leaves]
        output = func(*pytree.unflatten(inner, spec))
        outs, out_spec = pytree.flatten(output)
        tensors = [i for i, o in enumerate(outs) if isinstance(o, Tensor)]
        fresh = [x for x in inner if isinstance(x, Tensor)]
        keep = levels.keep_graph([outs[i] for i in tensors], fresh)
        linear = Linearized([outs[i] for i in tensors], fresh)

    def jvp_fn(*tangents: Any) -> Any:
        tangent_leaves, tangent_spec = pytree.flatten(tangents)
        if tangent_spec != spec:
            raise RuntimeError(
                f"Expected the tangents {pytree.spec_repr(tangent_spec)} to have the same argspec "
                f"as the primals {pytree.spec_repr(spec)}"
            )
        for i, (t, x) in enumerate(zip(tangent_leaves, leaves)):
            if isinstance(x, Tensor) and tuple(t.shape) != tuple(x.shape):
                raise RuntimeError(
                    f"tangent:{i} with shape {t.shape} in flattened pytree doesn't match the "
                    f"shape {x.shape} of the corresponding primal."
                )
        pushed = linear.push(
            [t for t, x in zip(tangent_leaves, leaves) if isinstance(x, Tensor)],
            keep or levels.depth() > 0 or any(t.requires_grad for t in tangent_leaves),
        )
        result: list = [None] * len(outs)
        for i, value in zip(tensors, pushed):
            result[i] = value
        return pytree.unflatten(result, out_spec)

    return levels.release(output, keep), jvp_fn
