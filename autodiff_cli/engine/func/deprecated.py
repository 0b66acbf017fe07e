"""`functorch`: PyTorch's deprecated aliases of `torch.func` (each call warns with PyTorch's
FutureWarning, then runs the `torch.func` transform) and its module-state helpers
`make_functional`, `make_functional_with_buffers` and `combine_state_for_ensemble`, whose
functional modules hold a copy of the model with its tensors on the meta device."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from typing import Any

from ..core.devices import as_meta
from ..nn.module import Module
from ..ops.arithmetic import stack
from . import forward, jacobians, modules, reverse
from .vmap import vmap as _vmap

__all__ = [
    "FunctionalModule",
    "FunctionalModuleWithBuffers",
    "combine_state_for_ensemble",
    "functionalize",
    "grad",
    "grad_and_value",
    "hessian",
    "jacfwd",
    "jacrev",
    "jvp",
    "make_functional",
    "make_functional_with_buffers",
    "vjp",
    "vmap",
]


def _warn(api: str, new_api: str | None = None) -> None:
    new_api = new_api or f"torch.func.{api}"
    warnings.warn(
        "We've integrated functorch into PyTorch. As the final step of the integration, "
        f"`functorch.{api}` is deprecated as of PyTorch 2.0 and will be deleted in a future "
        f"version of PyTorch >= 2.3. Please use `{new_api}` instead; see the PyTorch 2.0 release "
        "notes and/or the `torch.func` migration guide for more details "
        "https://pytorch.org/docs/main/func.migrating.html",
        FutureWarning,
        stacklevel=3,
    )


def _alias(api: str, transform: Callable, new_api: str | None = None) -> Callable:
    def deprecated(*args: Any, **kwargs: Any) -> Any:
        _warn(api, new_api)
        return transform(*args, **kwargs)

    deprecated.__name__ = deprecated.__qualname__ = api
    deprecated.__doc__ = transform.__doc__
    return deprecated


grad = _alias("grad", reverse.grad)
grad_and_value = _alias("grad_and_value", reverse.grad_and_value)
vjp = _alias("vjp", reverse.vjp)
jvp = _alias("jvp", forward.jvp)
jacrev = _alias("jacrev", jacobians.jacrev)
jacfwd = _alias("jacfwd", jacobians.jacfwd)
hessian = _alias("hessian", jacobians.hessian)
vmap = _alias("vmap", _vmap, "torch.vmap")
functionalize = _alias("functionalize", modules.functionalize)


def _stateless_copy(model: Module, tables: tuple[str, ...]) -> tuple[Module, list[str], tuple]:
    """A deep copy of `model` whose tensors in `tables` move to the meta device; their names
    (tied ones once) and the copied tensors themselves, which the caller hands out."""
    twin = copy.deepcopy(model)
    names, values, seen = [], [], set()
    for prefix, sub in twin.named_modules(remove_duplicate=False):
        for table in tables:
            for name, value in getattr(sub, table).items():
                if value is None or id(value) in seen:
                    continue
                seen.add(id(value))
                names.append(f"{prefix}.{name}" if prefix else name)
                values.append(value)
    held = tuple(copy.deepcopy(value) for value in values)  # what the caller hands out
    for value in values:
        value._data = as_meta(value._data)
    return twin, names, held


class FunctionalModule(Module):
    """`make_functional`'s module: `fmodel(params, *args)` runs the model with `params`."""

    def __init__(self, stateless_model: Module, param_names: list[str]) -> None:
        super().__init__()
        self.stateless_model = stateless_model
        self.param_names = tuple(param_names)

    def forward(self, params: Any, *args: Any, **kwargs: Any) -> Any:
        return modules.functional_call(
            self.stateless_model, dict(zip(self.param_names, params)), args, kwargs
        )


class FunctionalModuleWithBuffers(Module):
    """`make_functional_with_buffers`'s module: `fmodel(params, buffers, *args)`."""

    def __init__(
        self, stateless_model: Module, param_names: list[str], buffer_names: list[str]
    ) -> None:
        super().__init__()
        self.stateless_model = stateless_model
        self.param_names = tuple(param_names)
        self.buffer_names = tuple(buffer_names)

    def forward(self, params: Any, buffers: Any, *args: Any, **kwargs: Any) -> Any:
        given = dict(zip(self.param_names, params))
        given.update(zip(self.buffer_names, buffers))
        return modules.functional_call(self.stateless_model, given, args, kwargs)


def _check_model(model: Any, api: str) -> None:
    if not isinstance(model, Module):
        raise RuntimeError(f"{api}: Expected model to be an nn.Module, got {type(model).__name__}")


def _functional(model: Any, disable_autograd_tracking: bool) -> tuple[FunctionalModule, tuple]:
    _check_model(model, "make_functional")
    if any(True for _ in model.buffers()):
        raise RuntimeError(
            "make_functional(model): `model` has buffers. Please use "
            "make_functional_with_buffers(model) instead."
        )
    twin, names, params = _stateless_copy(model, ("_parameters",))
    if disable_autograd_tracking:
        for param in params:
            param.requires_grad_(False)
    return FunctionalModule(twin, names), params


def _functional_with_buffers(
    model: Any, disable_autograd_tracking: bool
) -> tuple[FunctionalModuleWithBuffers, tuple, tuple]:
    _check_model(model, "make_functional_with_buffers")
    twin, names, params = _stateless_copy(model, ("_parameters",))
    buffer_names = [name for name, _ in twin.named_buffers()]
    buffers = tuple(copy.deepcopy(b) for _, b in twin.named_buffers())
    for _, buffer in twin.named_buffers():
        buffer._data = as_meta(buffer._data)
    if disable_autograd_tracking:
        for param in params:
            param.requires_grad_(False)
    return FunctionalModuleWithBuffers(twin, names, buffer_names), params, buffers


def make_functional(model: Any, disable_autograd_tracking: bool = False) -> tuple:
    """`(fmodel, params)`: `fmodel(params, *args)` is `model(*args)` with `params` (copies of
    the model's parameters) in place of its own."""
    _warn("make_functional", "torch.func.functional_call")
    return _functional(model, disable_autograd_tracking)


def make_functional_with_buffers(model: Any, disable_autograd_tracking: bool = False) -> tuple:
    """`(fmodel, params, buffers)`: `fmodel(params, buffers, *args)`."""
    _warn("make_functional_with_buffers", "torch.func.functional_call")
    return _functional_with_buffers(model, disable_autograd_tracking)


def combine_state_for_ensemble(models: Any) -> tuple:
    """`(fmodel, params, buffers)` of same-class `models`, each tensor of `params` and `buffers`
    the models' ones stacked on a new first dimension (detached), for `vmap`."""
    _warn("combine_state_for_ensemble", "torch.func.stack_module_state")
    models = list(models)
    if not models:
        raise RuntimeError("combine_state_for_ensemble: Expected at least one model, got 0.")
    if len({m.training for m in models}) > 1:
        raise RuntimeError(
            "combine_state_for_ensemble: Expected all models to have the same training/eval mode."
        )
    if len({type(m) for m in models}) > 1:
        raise RuntimeError(
            "combine_state_for_ensemble: Expected all models to be of the same class."
        )
    made = [_functional_with_buffers(model, False) for model in models]
    params = tuple(stack(list(group)).detach() for group in zip(*(m[1] for m in made)))
    buffers = tuple(stack(list(group)).detach() for group in zip(*(m[2] for m in made)))
    return made[0][0], params, buffers
