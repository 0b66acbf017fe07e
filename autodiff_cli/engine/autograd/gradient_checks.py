"""`gradcheck` / `gradgradcheck`: analytical gradients against central finite differences."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core import generator as stream
from ..core.backward_api import grad
from ..core.tensor import Tensor, _wrap
from ..ops.random import default_generator


class GradcheckError(RuntimeError):
    pass


def _outputs(func: Callable, inputs: tuple) -> tuple:
    out = func(*inputs)
    return out if isinstance(out, tuple) else (out,)


def _numerical_jacobian(func: Callable, inputs: tuple, eps: float) -> list:
    """Per (input, output): a matrix of shape (input.numel(), output.numel())."""
    base = _outputs(func, inputs)
    result = []
    for x in inputs:
        if not (isinstance(x, Tensor) and x._requires_grad):
            result.append(None)
            continue
        flat = x._array().reshape(-1)
        cols = [np.zeros((flat.size, o._data.size)) for o in base]
        for i in range(flat.size):
            orig = flat[i].item()
            flat[i] = orig + eps
            plus = [o._data.astype(np.float64).reshape(-1) for o in _outputs(func, inputs)]
            flat[i] = orig - eps
            minus = [o._data.astype(np.float64).reshape(-1) for o in _outputs(func, inputs)]
            flat[i] = orig
            for k in range(len(base)):
                cols[k][i] = (plus[k] - minus[k]) / (2 * eps)
        result.append(cols)
    return result


def _analytical_jacobian(func: Callable, inputs: tuple) -> list:
    outs = _outputs(func, inputs)
    diff = [x for x in inputs if isinstance(x, Tensor) and x._requires_grad]
    result = {id(x): [np.zeros((x._data.size, o._data.size)) for o in outs] for x in diff}
    for k, o in enumerate(outs):
        if not o._requires_grad:
            continue
        flat_n = o._data.size
        for j in range(flat_n):
            seed = np.zeros(flat_n, o._data.dtype)
            seed[j] = 1
            gs = grad(
                o, diff, _wrap(seed.reshape(o._data.shape)), retain_graph=True, allow_unused=True
            )
            for x, g in zip(diff, gs):
                if g is not None:
                    result[id(x)][k][:, j] = g._data.reshape(-1)
    return [
        result.get(id(x)) if isinstance(x, Tensor) and x._requires_grad else None for x in inputs
    ]


def gradcheck(
    func: Callable,
    inputs: Any,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    **kwargs: Any,
) -> bool:
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    for x in inputs:
        if isinstance(x, Tensor) and x._requires_grad and x._data.dtype != np.float64:
            warnings.warn(
                "Input #0 requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex. ",
                UserWarning,
                stacklevel=2,
            )
    numerical = _numerical_jacobian(func, inputs, eps)
    analytical = _analytical_jacobian(func, inputs)
    for i, (n, a) in enumerate(zip(numerical, analytical)):
        if n is None:
            continue
        for k, (nk, ak) in enumerate(zip(n, a)):
            if not np.allclose(ak, nk, rtol=rtol, atol=atol):
                if raise_exception:
                    raise GradcheckError(
                        f"Jacobian mismatch for output {k} with respect to input {i},\n"
                        f"numerical:{_wrap(nk)!r}\nanalytical:{_wrap(ak)!r}\n"
                    )
                return False
    return True


def _random_grad_outputs(outputs: tuple) -> tuple:
    """PyTorch's default `grad_outputs`: one `empty(shape).uniform_(-1, 1)` per differentiable
    output, in order (float64 for a non-floating output), drawn from the global generator, so the
    random stream after a `gradgradcheck` is PyTorch's."""
    made = []
    for o in outputs:
        dtype = o._data.dtype if np.issubdtype(o._data.dtype, np.floating) else np.float64
        values = stream.uniform(default_generator, o._data.size, np.dtype(dtype), -1.0, 1.0)
        made.append(_wrap(values.astype(dtype, copy=False).reshape(o._data.shape)))
    for g in made:
        g.requires_grad_(True)
    return tuple(made)


def gradgradcheck(
    func: Callable,
    inputs: Any,
    grad_outputs: Any = None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    **kwargs: Any,
) -> bool:
    """Second derivatives by `gradcheck` of `func`'s vector-Jacobian product, checked with respect
    to the inputs and to the grad_outputs that require grad (the random default ones do)."""
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    if grad_outputs is None:
        grad_outputs = _random_grad_outputs(_differentiable(_outputs(func, inputs)))
    elif isinstance(grad_outputs, Tensor):
        grad_outputs = (grad_outputs,)
    else:
        grad_outputs = tuple(grad_outputs)
    count = len(inputs)

    def first_grads(*args: Any) -> tuple:
        xs, gos = args[:count], args[count:]
        outs = _differentiable(_outputs(func, xs))
        d = [x for x in xs if isinstance(x, Tensor) and x._requires_grad]
        gs = grad(outs, d, gos, create_graph=True, allow_unused=True)
        return tuple(g for g in gs if g is not None)

    return gradcheck(
        first_grads,
        inputs + grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
    )


def _differentiable(outputs: tuple) -> tuple:
    return tuple(o for o in outputs if isinstance(o, Tensor) and o._requires_grad)


# What a script sees of this module (the language exports only these names).
__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]
