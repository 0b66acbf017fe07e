"""`torch.autograd.functional`: vjp, jvp, jacobian, hessian, hvp, vhp, by reverse mode.

As in PyTorch, `jvp` and `hvp` use the double-backward trick: the vector-Jacobian product is
linear in its vector `u`, so differentiating it w.r.t. `u` against `v` gives the Jacobian-vector
product. Inputs are differentiated through fresh leaves (views of inputs that require grad when
`create_graph`, so the results stay connected); results are detached unless `create_graph`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ... import lazy_imports
from ..core.backward_api import grad
from ..core.grad_mode import enable_grad
from ..core.tensor import Tensor
from ..ops.arithmetic import stack
from ..ops.creation import ones_like, zeros, zeros_like
from .jacobian_strategy import check_strategy

UNUSED_OUTPUT = (
    "Output {} of the user-provided function does not require gradients. The outputs must be "
    "computed in a differentiable manner from the input when running in strict mode."
)
INDEPENDENT_OUTPUT = (
    "The output of the user-provided function is independent of input {}. This is not allowed "
    "in strict mode."
)
INDEPENDENT_JACOBIAN = (
    "While computing the hessian, found that the jacobian of the user-provided function with "
    "respect to input {} is independent of the input. This is not allowed in strict mode. You "
    "should ensure that your function is twice differentiable and that the jacobian depends on "
    "the inputs (this would be violated by a linear function for example)."
)
INDEPENDENT_V = (
    "The gradient with respect to the input is independent of entry {} in the grad_outputs when "
    "using the double backward trick to compute forward mode gradients. This is not allowed in "
    "strict mode."
)


def _as_tuple(value: Any, what: str, api: str) -> tuple[tuple, bool]:
    """`value` as a tuple of tensors, and whether it was a tuple (or list)."""
    if isinstance(value, Tensor):
        return (value,), False
    if not isinstance(value, (tuple, list)):
        raise TypeError(
            f"The {what} given to {api} must be either a Tensor or a tuple of Tensors but the "
            f"given {what} has type {type(value)}."
        )
    for i, item in enumerate(value):
        if not isinstance(item, Tensor):
            raise TypeError(
                f"The {what} given to {api} must be either a Tensor or a tuple of Tensors but the "
                f"value at index {i} has type {type(item)}."
            )
    return tuple(value), True


def _outputs(value: Any, api: str) -> tuple[tuple, bool]:
    return _as_tuple(value, "outputs of the user-provided function", api)


def _vectors(v: Any, like: tuple, api: str, where: str) -> tuple:
    """`v` checked against the tensors `like` (ones when None is allowed: one element)."""
    if v is None:
        if len(like) != 1 or like[0].numel() != 1:
            raise RuntimeError(
                f"The vector v can only be None if the {where} a single Tensor with a single "
                "element."
            )
        return (ones_like(like[0]),)
    vs, _ = _as_tuple(v, "v", api)
    if len(vs) != len(like):
        raise RuntimeError(
            f"v is a tuple of invalid length: should be {len(like)} but got {len(vs)}."
        )
    for i, (a, b) in enumerate(zip(vs, like)):
        if a.shape != b.shape:
            prefix = f"Entry {i} in v" if len(like) > 1 else "v"
            raise RuntimeError(f"{prefix} has invalid size: should be {b.shape} but got {a.shape}.")
    return vs


def _fresh(inputs: tuple, create_graph: bool) -> tuple:
    return tuple(
        x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(True)
        for x in inputs
    )


def _release(values: tuple, create_graph: bool) -> tuple:
    return values if create_graph else tuple(v.detach() for v in values)


def _shape_result(values: tuple, as_tuple: bool) -> Any:
    return values if as_tuple else values[0]


def _check_outputs(outputs: tuple, strict: bool) -> None:
    if strict:
        for i, out in enumerate(outputs):
            if not out.requires_grad:
                raise RuntimeError(UNUSED_OUTPUT.format(i))


def _grad(
    outputs: tuple, inputs: tuple, vs: Any, create_graph: bool, strict_message: str | None
) -> tuple:
    """d(outputs)/d(inputs) against `vs`, zeros where unused (an error where `strict_message`)."""
    live = [i for i, o in enumerate(outputs) if o.requires_grad]
    found: tuple = (None,) * len(inputs)
    if live:
        found = grad(
            [outputs[i] for i in live],
            inputs,
            None if vs is None else [vs[i] for i in live],
            retain_graph=True,
            create_graph=create_graph,
            allow_unused=True,
        )
    result = []
    for i, (g, x) in enumerate(zip(found, inputs)):
        if g is None:
            if strict_message is not None:
                raise RuntimeError(strict_message.format(i))
            g = zeros_like(x)
        result.append(g)
    return tuple(result)


def vjp(
    func: Callable, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple:
    """`(func(inputs), v^T J)`."""
    ins, in_tuple = _as_tuple(inputs, "inputs", "vjp")
    with enable_grad():
        ins = _fresh(ins, create_graph)
        outs, out_tuple = _outputs(func(*ins), "vjp")
        _check_outputs(outs, strict)
        vs = _vectors(v, outs, "vjp", "user-provided function returns")
        gs = _grad(outs, ins, vs, create_graph, INDEPENDENT_OUTPUT if strict else None)
    outs = _release(outs, create_graph)
    return _shape_result(outs, out_tuple), _shape_result(_release(gs, create_graph), in_tuple)


def jvp(
    func: Callable, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple:
    """`(func(inputs), J v)` by the double-backward trick."""
    ins, in_tuple = _as_tuple(inputs, "inputs", "jvp")
    vs = _vectors(v, ins, "jvp", "input to the user-provided function is")
    with enable_grad():
        ins = _fresh(ins, create_graph)
        outs, out_tuple = _outputs(func(*ins), "jvp")
        _check_outputs(outs, strict)
        dummies = tuple(zeros_like(o).requires_grad_(True) for o in outs)
        gs = _grad(outs, ins, dummies, True, INDEPENDENT_OUTPUT if strict else None)
        result = _grad(gs, dummies, vs, create_graph, INDEPENDENT_V if strict else None)
    outs = _release(outs, create_graph)
    return _shape_result(outs, out_tuple), _shape_result(_release(result, create_graph), out_tuple)


def _scalar_output(func: Callable, ins: tuple, api: str) -> Tensor:
    outs, _ = _outputs(func(*ins), api)
    if len(outs) != 1 or outs[0].numel() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {api} should contain a single element"
        )
    return outs[0]


def _hessian_product(
    func: Callable, inputs: Any, v: Any, create_graph: bool, strict: bool, api: str
) -> tuple:
    """`(func(inputs), H v)` (the Hessian is symmetric: `v^T H` has the same values)."""
    ins, in_tuple = _as_tuple(inputs, "inputs", api)
    vs = _vectors(v, ins, api, "input to the user-provided function is")
    with enable_grad():
        ins = _fresh(ins, create_graph)
        out = _scalar_output(func, ins, api)
        _check_outputs((out,), strict)
        gs = _grad((out,), ins, None, True, INDEPENDENT_OUTPUT if strict else None)
        if strict:
            _check_outputs(gs, False)
            for i, g in enumerate(gs):
                if not g.requires_grad:
                    raise RuntimeError(INDEPENDENT_JACOBIAN.format(i))
        result = _grad(gs, ins, vs, create_graph, INDEPENDENT_JACOBIAN if strict else None)
    (out,) = _release((out,), create_graph)
    return out, _shape_result(_release(result, create_graph), in_tuple)


def vhp(
    func: Callable, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple:
    """`(func(inputs), v^T H)` for a scalar `func`."""
    return _hessian_product(func, inputs, v, create_graph, strict, "vhp")


def hvp(
    func: Callable, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple:
    """`(func(inputs), H v)` for a scalar `func`."""
    return _hessian_product(func, inputs, v, create_graph, strict, "hvp")


def jacobian(
    func: Callable,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """J[i][j] has shape out_i.shape + in_j.shape, nested as PyTorch nests it."""
    ins, in_tuple = _as_tuple(inputs, "inputs", "jacobian")
    if check_strategy(strategy, vectorize, create_graph, strict):
        return forward_mode().forward_jacobian(
            func, ins, in_tuple, lambda value: _outputs(value, "jacobian")
        )
    with enable_grad():
        ins = _fresh(ins, create_graph)
        outs, out_tuple = _outputs(func(*ins), "jacobian")
        _check_outputs(outs, strict)
        rows = [_jacobian_blocks(out, ins, create_graph, strict) for out in outs]
    rows = [_release(row, create_graph) for row in rows]
    if not out_tuple:
        return _shape_result(rows[0], in_tuple)
    return tuple(_shape_result(row, in_tuple) for row in rows)


def _jacobian_blocks(out: Tensor, ins: tuple, create_graph: bool, strict: bool) -> tuple:
    """The Jacobian of one output w.r.t. each input, one reverse pass per output element."""
    flat = out.reshape(-1)
    per_input: list[list] = [[] for _ in ins]
    message = (
        "The jacobian of the user-provided function is independent of input {}. This is not "
        "allowed in strict mode."
    )
    for k in range(flat.numel()):
        gs = _grad((flat[k],), ins, None, create_graph, message if strict else None)
        for j, g in enumerate(gs):
            per_input[j].append(g)
    blocks = []
    for j, x in enumerate(ins):
        shape = tuple(out.shape) + tuple(x.shape)
        if per_input[j]:
            blocks.append(stack(per_input[j]).reshape(shape))
        else:
            blocks.append(zeros(shape, dtype=x.dtype))
    return tuple(blocks)


def hessian(
    func: Callable,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """The Hessian of a scalar `func`: H[i][j] has shape in_i.shape + in_j.shape."""
    ins, in_tuple = _as_tuple(inputs, "inputs", "hessian")
    check_strategy(outer_jacobian_strategy, vectorize, False, False, hint=False)

    def gradient(*xs: Any) -> Any:
        out = _scalar_output(func, xs, "hessian")
        gs = _grad((out.reshape(()),), xs, None, True, None)
        return gs if in_tuple else gs[0]

    return jacobian(gradient, inputs, create_graph=create_graph, strict=strict)


# What a script sees of this module (the language exports only these names).
__all__ = ["jacobian", "hessian", "vjp", "jvp", "vhp", "hvp"]


def forward_mode() -> Any:
    """`forward_jacobian`, loaded on first use: it imports forward-mode AD, which the one-liner
    does not need (~1.5 ms of its start-up); `torch.autograd.load_all` loads it for a child."""
    return lazy_imports.load("autodiff_cli.engine.autograd.forward_jacobian")
