"""Cosine annealing: `CosineAnnealingLR` and `CosineAnnealingWarmRestarts`."""

from __future__ import annotations

import math
from typing import Any

from ...pytorch_home import print_from
from ..optimizer import Optimizer
from .base import (
    LRScheduler,
)


def _cosine(low: Any, high: Any, progress: float) -> Any:
    """`low + (high - low) * (1 + cos(pi * progress)) / 2`: from `high` at 0 to `low` at 1."""
    return low + (high - low) * (1 + math.cos(math.pi * progress)) / 2


class CosineAnnealingLR(LRScheduler):
    """The documented recursive cosine annealing between the initial lr and `eta_min`."""

    _fields = LRScheduler._fields + ("T_max", "eta_min")

    def __init__(
        self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1
    ) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def _rule(self) -> list[Any]:
        lrs = self._current_lrs()
        t, period, low = self.last_epoch, self.T_max, self.eta_min
        if self._is_initial:
            return lrs
        if self._step_count == 1 and t > 0:  # resumed at epoch t: start from the closed form
            return self._closed_form()
        if (t - 1 - period) % (2 * period) == 0:
            # leaving the bottom of the curve, where the ratio below would divide by zero
            rise = (1 - math.cos(math.pi / period)) / 2
            return [lr + (base - low) * rise for lr, base in zip(lrs, self.base_lrs)]
        ratio = (1 + math.cos(math.pi * t / period)) / (1 + math.cos(math.pi * (t - 1) / period))
        return [low + ratio * (lr - low) for lr in lrs]

    def _closed_form(self) -> list[Any]:
        progress = self.last_epoch / self.T_max
        return [_cosine(self.eta_min, base, progress) for base in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing restarted every `T_i` epochs, `T_i` growing by `T_mult` each cycle."""

    _fields = LRScheduler._fields + ("T_0", "T_i", "T_mult", "eta_min", "T_cur")

    def __init__(
        self,
        optimizer: Optimizer,
        T_0: int,
        T_mult: int = 1,
        eta_min: float = 0.0,
        last_epoch: int = -1,
    ) -> None:
        if not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(
                f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}"
            )
        self.T_0 = self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def _rule(self) -> list[Any]:
        progress = self.T_cur / self.T_i
        return [_cosine(self.eta_min, base, progress) for base in self.base_lrs]

    def step(self, epoch: float | None = None) -> None:
        if epoch is None and self.last_epoch >= 0:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur -= self.T_i
                self.T_i *= self.T_mult
        else:
            epoch = 0 if epoch is None else epoch
            if epoch < 0:
                raise ValueError(f"Expected non-negative epoch, but got {epoch}")
            self._restart_at(epoch)
        self._advance(math.floor(epoch))  # (no closed form: the rule at that epoch)

    def _restart_at(self, epoch: float) -> None:
        """`T_i` and `T_cur` for an epoch given directly: skip the whole cycles before it."""
        if self.T_mult == 1:
            self.T_i, self.T_cur = self.T_0, epoch % self.T_0
            return
        self.T_i, self.T_cur = self.T_0, epoch
        while self.T_cur >= self.T_i:
            self.T_cur -= self.T_i
            self.T_i *= self.T_mult


print_from("torch.optim.lr_scheduler", CosineAnnealingLR, CosineAnnealingWarmRestarts)
