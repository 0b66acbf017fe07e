"""Lazy modules: `nn.LazyLinear(out_features)` learns `in_features` from its first input.

As in PyTorch, a lazy module holds `UninitializedParameter`s (printed `<UninitializedParameter>`)
until its first call; a forward pre-hook registered at construction then gives them their shape
(in place: an optimizer made before the first call keeps the same objects), runs the layer's
`reset_parameters` (so the random stream is drawn at the first call, as PyTorch draws it, and
values match under `manual_seed`), removes itself and turns the module into its plain class
(`LazyLinear` becomes `Linear`).
"""

from __future__ import annotations

from typing import Any

from ..core.tensor import Tensor
from .module import Module
from .modules import Linear
from .parameter import UninitializedParameter


class LazyModuleMixin:
    """The first-call initialisation shared by the lazy modules (`cls_to_become`: the class the
    module becomes once its parameters have their shapes)."""

    cls_to_become: type | None = None

    def _register_lazy_hook(self) -> None:
        self._lazy_hook = self.register_forward_pre_hook(_infer_parameters)

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter still waits for the first call to learn its shape."""
        return any(isinstance(p, UninitializedParameter) for p in self._parameters.values())

    def initialize_parameters(self, *args: Any) -> None:  # pragma: no cover - per layer
        raise NotImplementedError


def _infer_parameters(module: Any, args: tuple) -> None:
    """The pre-hook of a lazy module's first call: shapes from the input, then the plain class."""
    module.initialize_parameters(*args)
    if module.has_uninitialized_params():
        raise RuntimeError(f"module {module._get_name()} has not been fully initialized")
    module._lazy_hook.remove()
    del module.__dict__["_lazy_hook"]
    if module.cls_to_become is not None:
        object.__setattr__(module, "__class__", module.cls_to_become)  # (Module refuses dunders)


class LazyLinear(LazyModuleMixin, Linear):
    """`nn.LazyLinear(out_features, bias=True)`: `Linear` with `in_features` read from the last
    dimension of the first input."""

    cls_to_become = Linear

    def __init__(
        self, out_features: int, bias: bool = True, device: Any = None, dtype: Any = None
    ) -> None:
        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self.weight = UninitializedParameter(dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)
        else:
            self.register_parameter("bias", None)
        self._register_lazy_hook()

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Any = None, *args: Any) -> None:
        if not self.has_uninitialized_params():
            return
        if not isinstance(input, Tensor):
            raise TypeError(
                "linear(): argument 'input' (position 1) must be Tensor, not "
                f"{type(input).__name__}"
            )
        if input.ndim == 0:
            raise IndexError("tuple index out of range")
        self.in_features = int(input.shape[-1])
        self.weight.materialize((self.out_features, self.in_features))
        if self.bias is not None:
            self.bias.materialize((self.out_features,))
        self.reset_parameters()


__all__ = ["LazyLinear", "LazyModuleMixin"]
