"""`torch.autograd.functional`: jacobian, hessian, vjp, jvp, hvp, vhp (by reverse mode)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.backward import grad
from ..core.grad_mode import enable_grad
from ..core.tensor import Tensor, _wrap


def _as_tuple(x: Any) -> tuple[tuple, bool]:
    if isinstance(x, tuple):
        return x, True
    if isinstance(x, list):
        return tuple(x), True
    return (x,), False


def _prepare(inputs: tuple, create_graph: bool) -> tuple:
    out = []
    for x in inputs:
        if not isinstance(x, Tensor):
            raise TypeError(
                f"The inputs given to jacobian must be either a Tensor or a tuple of Tensors but "
                f"the given argument at index 0 has type {type(x).__name__}."
            )
        d = x.detach() if not create_graph else x
        d = _wrap(np.array(x._data, copy=True)) if not create_graph else x.view_as(x)
        if not d._requires_grad:
            d.requires_grad_(True)
        out.append(d)
    return tuple(out)


def _grad_or_zeros(
    outputs: Any, inputs: tuple, grad_outputs: Any, create_graph: bool, retain: bool
) -> tuple:
    needs = [o for o in ([outputs] if isinstance(outputs, Tensor) else outputs)]
    if not any(o._requires_grad for o in needs):
        return tuple(_wrap(np.zeros(x._data.shape, x._data.dtype)) for x in inputs)
    gs = grad(
        outputs,
        inputs,
        grad_outputs,
        retain_graph=retain,
        create_graph=create_graph,
        allow_unused=True,
    )
    return tuple(
        g if g is not None else _wrap(np.zeros(x._data.shape, x._data.dtype))
        for g, x in zip(gs, inputs)
    )


def vjp(
    func: Callable, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple:
    ins, is_tuple = _as_tuple(inputs)
    with enable_grad():
        ins = _prepare(ins, create_graph)
        out = func(*ins)
        outs, out_tuple = _as_tuple(out)
        if v is None:
            if any(o._data.size != 1 for o in outs):
                raise RuntimeError(
                    "The vector v can only be None if the user-provided function returns a single "
                    "Tensor with a single element."
                )
            vs = tuple(_wrap(np.ones(o._data.shape, o._data.dtype)) for o in outs)
        else:
            vs, _ = _as_tuple(v)
        gs = _grad_or_zeros(outs, ins, vs, create_graph, create_graph)
    out_val = out if create_graph else _detach_all(out)
    return out_val, (gs if is_tuple else gs[0])


def _detach_all(x: Any) -> Any:
    if isinstance(x, Tensor):
        return x.detach()
    return tuple(_detach_all(i) for i in x)


def jacobian(
    func: Callable,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """J[i][j] has shape out_i.shape + in_j.shape, nested as PyTorch nests it."""
    ins, is_tuple = _as_tuple(inputs)
    with enable_grad():
        ins = _prepare(ins, create_graph)
        out = func(*ins)
        outs, out_tuple = _as_tuple(out)
        jac_rows = []
        for o in outs:
            flat = o.reshape(-1)
            per_input = [[] for _ in ins]
            for k in range(flat._data.size):
                if not flat._requires_grad:
                    gs = tuple(_wrap(np.zeros(x._data.shape, x._data.dtype)) for x in ins)
                else:
                    gs = _grad_or_zeros(flat[k], ins, None, create_graph, True)
                for j, g in enumerate(gs):
                    per_input[j].append(g)
            blocks = []
            for j, x in enumerate(ins):
                from ..ops.arithmetic import stack

                if per_input[j]:
                    stacked = (
                        stack(per_input[j])
                        if create_graph
                        else _wrap(np.stack([g._data for g in per_input[j]]))
                    )
                else:
                    stacked = _wrap(np.zeros((0,) + x._data.shape, x._data.dtype))
                blocks.append(stacked.reshape(o._data.shape + x._data.shape))
            jac_rows.append(tuple(blocks))
    if not out_tuple and not is_tuple:
        return jac_rows[0][0]
    if not out_tuple:
        return jac_rows[0]
    if not is_tuple:
        return tuple(row[0] for row in jac_rows)
    return tuple(jac_rows)


def hessian(
    func: Callable,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    ins, is_tuple = _as_tuple(inputs)

    def gradient(*xs: Any) -> Any:
        out = func(*xs)
        if not isinstance(out, Tensor) or out._data.size != 1:
            raise RuntimeError(
                "The function given to hessian should return a single Tensor containing a single "
                "element."
            )
        gs = _grad_or_zeros(out.reshape(()), xs, None, True, True)
        return gs if is_tuple else gs[0]

    return jacobian(gradient, inputs, create_graph=create_graph)


def jvp(
    func: Callable, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple:
    """Forward-mode product through the double-vjp trick."""
    ins, is_tuple = _as_tuple(inputs)
    if v is None:
        if any(x._data.size != 1 for x in ins):
            raise RuntimeError(
                "The vector v can only be None if the input to the user-provided function is a "
                "single Tensor with a single element."
            )
        vs = tuple(_wrap(np.ones(x._data.shape, x._data.dtype)) for x in ins)
    else:
        vs, _ = _as_tuple(v)
    with enable_grad():
        ins = _prepare(ins, True)
        out = func(*ins)
        outs, out_tuple = _as_tuple(out)
        dummies = tuple(
            _wrap(np.zeros(o._data.shape, o._data.dtype)).requires_grad_(True) for o in outs
        )
        gs = _grad_or_zeros(outs, ins, dummies, True, True)
        pairs = [(g, vv) for g, vv in zip(gs, vs) if g._requires_grad]
        if pairs:
            res = grad(
                [g for g, _ in pairs],
                dummies,
                [vv for _, vv in pairs],
                create_graph=create_graph,
                allow_unused=True,
            )
        else:
            res = (None,) * len(dummies)
        res = tuple(
            r if r is not None else _wrap(np.zeros(o._data.shape, o._data.dtype))
            for r, o in zip(res, outs)
        )
    out_val = out if create_graph else _detach_all(out)
    return out_val, (res if out_tuple else res[0])


def vhp(
    func: Callable, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple:
    ins, is_tuple = _as_tuple(inputs)
    vs, _ = (
        _as_tuple(v)
        if v is not None
        else (tuple(_wrap(np.ones(x._data.shape, x._data.dtype)) for x in ins), True)
    )
    with enable_grad():
        ins = _prepare(ins, True)
        out = func(*ins)
        if not isinstance(out, Tensor) or out._data.size != 1:
            raise RuntimeError(
                "The Tensor returned by the function given to hvp should contain a single element"
            )
        gs = _grad_or_zeros(out, ins, None, True, True)
        res = _grad_or_zeros(gs, ins, vs, create_graph, True)
    out_val = out if create_graph else out.detach()
    return out_val, (res if is_tuple else res[0])


hvp = vhp  # the Hessian is symmetric for twice-differentiable functions
