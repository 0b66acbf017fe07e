"""`torch.random`: the default generator's seed and state, and `fork_rng`."""

from __future__ import annotations

from typing import Any

from .core.tensor import Tensor
from .ops.random import (
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)

__all__ = [
    "default_generator",
    "fork_rng",
    "get_rng_state",
    "initial_seed",
    "manual_seed",
    "seed",
    "set_rng_state",
]


class fork_rng:  # noqa: N801 - named as PyTorch names it
    """A block after which the default generator is back where it was (`enabled=False`: no-op)."""

    def __init__(self, devices: Any = None, enabled: bool = True, **kwargs: Any) -> None:
        self.enabled = enabled
        self._saved: Tensor | None = None

    def __enter__(self) -> None:
        if self.enabled:
            self._saved = get_rng_state()

    def __exit__(self, *exc: Any) -> None:
        if self._saved is not None:
            set_rng_state(self._saved)
            self._saved = None
