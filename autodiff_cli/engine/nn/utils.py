"""`torch.nn.utils`: gradient clipping and parameter/vector conversion.

Follows `torch/nn/utils/clip_grad.py` and `convert_parameters.py`: the total norm is the norm of
the per-gradient norms (each `linalg.vector_norm`), the clip coefficient is
`clamp(max_norm / (total_norm + 1e-6), max=1.0)` and every gradient is multiplied by it in place.
"""

from __future__ import annotations

import math
import types
import warnings
from collections.abc import Iterable
from typing import Any

from autodiff_cli import engine as _engine  # (torch.linalg, loaded on first use)

from ..core.arguments import checks_own_arguments
from ..core.grad_mode import no_grad
from ..core.tensor import Tensor
from ..ops.creation import tensor as make_tensor
from ..ops.elementwise import clamp
from ..ops.views import cat, stack
from .parameter import typename

__all__ = [
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grad_value_",
    "clip_grads_with_norm_",
    "get_total_norm",
    "parameters_to_vector",
    "vector_to_parameters",
]

_NONFINITE_MESSAGE = (
    "The total norm of order {} for gradients from `parameters` is non-finite, so it cannot be "
    "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
    "`error_if_nonfinite=False`"
)


def _as_list(tensors: Tensor | Iterable[Tensor]) -> list[Tensor]:
    return [tensors] if isinstance(tensors, Tensor) else list(tensors)


def get_total_norm(
    tensors: Tensor | Iterable[Tensor],
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """The `norm_type`-norm of all `tensors` viewed as one vector (a 0-d tensor)."""
    linalg = _engine.linalg
    tensors = _as_list(tensors)
    norm_type = float(norm_type)
    with no_grad():
        if not tensors:
            return make_tensor(0.0)
        groups: dict[Any, list[Tensor]] = {}
        for t in tensors:  # PyTorch groups by (device, dtype), keeping first-seen order
            groups.setdefault(t.dtype, []).append(t)
        norms = [linalg.vector_norm(t, norm_type) for group in groups.values() for t in group]
        total_norm = linalg.vector_norm(stack(norms), norm_type)
        if error_if_nonfinite and not math.isfinite(total_norm.item()):
            raise RuntimeError(_NONFINITE_MESSAGE.format(norm_type))
    return total_norm


def clip_grads_with_norm_(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    total_norm: Tensor,
    foreach: bool | None = None,
) -> None:
    """Scales the gradients in place by `min(max_norm / (total_norm + 1e-6), 1)`."""
    parameters = _as_list(parameters)
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if not grads:
        return
    with no_grad():
        clip_coef = max_norm / (total_norm + 1e-6)
        clip_coef_clamped = clamp(clip_coef, max=1.0)
        for g in grads:
            g.mul_(clip_coef_clamped)


def clip_grad_norm_(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """Clips the gradients' total norm to `max_norm` in place; returns the norm before clipping."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and not parameters:
            warnings.warn(
                "`parameters` is an empty generator, no gradient clipping will occur.",
                stacklevel=2,
            )
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(
    parameters: Tensor | Iterable[Tensor],
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """Deprecated alias of `clip_grad_norm_`."""
    warnings.warn(
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
        "`torch.nn.utils.clip_grad_norm_`.",
        FutureWarning,
        stacklevel=2,
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(
    parameters: Tensor | Iterable[Tensor], clip_value: float, foreach: bool | None = None
) -> None:
    """Clamps every gradient in place to `[-clip_value, clip_value]`."""
    parameters = _as_list(parameters)
    clip_value = float(clip_value)
    with no_grad():
        for p in parameters:
            grad = p.grad
            if grad is not None:
                grad.clamp_(min=-clip_value, max=clip_value)


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """The parameters flattened and concatenated into one vector (`CatBackward0`)."""
    return cat([param.view(-1) for param in parameters])


@checks_own_arguments  # (PyTorch writes it in Python)
def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copies consecutive slices of `vec` into the parameters' data (sharing `vec`'s memory)."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {typename(vec)}")
    pointer = 0
    for param in parameters:
        num_param = param.numel()
        param.data = vec[pointer : pointer + num_param].view_as(param).data
        pointer += num_param
