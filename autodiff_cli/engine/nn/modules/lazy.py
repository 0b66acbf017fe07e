"""`LazyModuleMixin`, the first-call initialisation of the lazy layers: `nn.LazyLinear(n)` (in
`linear`) learns `in_features` from its first input.

As in PyTorch, a lazy module holds `UninitializedParameter`s (printed `<UninitializedParameter>`)
until its first call; a forward pre-hook registered at construction then gives them their shape
(in place: an optimizer made before the first call keeps the same objects), runs the layer's
`reset_parameters` (so the random stream is drawn at the first call, as PyTorch draws it, and
values match under `manual_seed`), removes itself and turns the module into its plain class
(`LazyLinear` becomes `Linear`).
"""

from __future__ import annotations

from typing import Any

from ...pytorch_home import name_classes_after
from ..parameter import UninitializedParameter


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


name_classes_after(globals(), "torch.nn.modules.lazy")
