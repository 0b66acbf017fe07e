"""`torch.func`: composable function transforms (grad, vjp, jvp, jacobians, vmap) over autograd."""

from __future__ import annotations

from .forward import jvp, linearize
from .jacobians import hessian, jacfwd, jacrev
from .modules import functional_call, functionalize, stack_module_state
from .reverse import grad, grad_and_value, vjp
from .vmap import vmap

__all__ = [
    "functional_call",
    "functionalize",
    "grad",
    "grad_and_value",
    "hessian",
    "jacfwd",
    "jacrev",
    "jvp",
    "linearize",
    "stack_module_state",
    "vjp",
    "vmap",
]
