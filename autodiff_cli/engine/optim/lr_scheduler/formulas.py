"""The schedules that follow a formula of the epoch: lambda, multiplicative, step, multi-step,
exponential, constant, linear warm-up and polynomial."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ...pytorch_home import print_from
from ..optimizer import Optimizer
from .base import (
    LRScheduler,
    _callable_state,
    _require_optimizer,
    _restore_callable_state,
)


class _LambdaScheduler(LRScheduler):
    """LambdaLR and MultiplicativeLR: one function of the epoch per param group."""

    _fields = LRScheduler._fields + ("lr_lambdas",)

    def __init__(self, optimizer: Optimizer, lr_lambda: Any, last_epoch: int = -1) -> None:
        groups = _require_optimizer(optimizer).param_groups
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != len(groups):
                raise ValueError(f"Expected {len(groups)} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * len(groups)
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict[str, Any]:
        state = super().state_dict()
        state["lr_lambdas"] = [_callable_state(fn) for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        saved = state_dict.get("lr_lambdas") or []
        super().load_state_dict({k: v for k, v in state_dict.items() if k != "lr_lambdas"})
        for fn, fn_state in zip(self.lr_lambdas, saved):
            _restore_callable_state(fn, fn_state)


class LambdaLR(_LambdaScheduler):
    """lr = initial lr * lr_lambda(epoch)."""

    def _rule(self) -> list[Any]:
        return [base * fn(self.last_epoch) for fn, base in zip(self.lr_lambdas, self.base_lrs)]


class MultiplicativeLR(_LambdaScheduler):
    """lr = previous lr * lr_lambda(epoch)."""

    def __init__(self, optimizer: Optimizer, lr_lambda: Any, last_epoch: int = -1) -> None:
        candidates = lr_lambda if isinstance(lr_lambda, (list, tuple)) else [lr_lambda]
        for fn in candidates:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, lr_lambda, last_epoch)

    def _rule(self) -> list[Any]:
        if self._is_initial:
            return self._current_lrs()
        return [lr * fn(self.last_epoch) for fn, lr in zip(self.lr_lambdas, self._current_lrs())]


# -- step and exponential decays -------------------------------------------------------------------
class StepLR(LRScheduler):
    """lr times gamma every `step_size` epochs."""

    _fields = LRScheduler._fields + ("step_size", "gamma")

    def __init__(
        self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1
    ) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def _rule(self) -> list[Any]:
        lrs = self._current_lrs()
        if self.last_epoch == 0 or self.last_epoch % self.step_size:
            return lrs
        return [lr * self.gamma for lr in lrs]

    def _closed_form(self) -> list[Any]:
        return [base * self.gamma ** (self.last_epoch // self.step_size) for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """lr times gamma at each milestone (a milestone given twice counts twice)."""

    _fields = LRScheduler._fields + ("milestones", "gamma")

    def __init__(
        self,
        optimizer: Optimizer,
        milestones: Iterable[int],
        gamma: float = 0.1,
        last_epoch: int = -1,
    ) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def _rule(self) -> list[Any]:
        times = self.milestones.get(self.last_epoch, 0)
        lrs = self._current_lrs()
        return [lr * self.gamma**times for lr in lrs] if times else lrs

    def _closed_form(self) -> list[Any]:
        passed = bisect_right(sorted(self.milestones.elements()), self.last_epoch)
        return [base * self.gamma**passed for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """lr times gamma every epoch."""

    _fields = LRScheduler._fields + ("gamma",)

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def _rule(self) -> list[Any]:
        lrs = self._current_lrs()
        return lrs if self._is_initial else [lr * self.gamma for lr in lrs]

    def _closed_form(self) -> list[Any]:
        return [base * self.gamma**self.last_epoch for base in self.base_lrs]


# -- warm-up and polynomial schedules (factor f(t) of the initial lr; the rule applies
#    f(t) / f(t-1) to the current lr, so changes a script makes to the lr carry on) ----------------
class ConstantLR(LRScheduler):
    """lr times `factor` until epoch `total_iters`, then the initial lr."""

    _fields = LRScheduler._fields + ("factor", "total_iters")

    def __init__(
        self,
        optimizer: Optimizer,
        factor: float = 1.0 / 3,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        if not 0 <= factor <= 1.0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def _rule(self) -> list[Any]:
        lrs = self._current_lrs()
        if self.last_epoch == 0:
            return [lr * self.factor for lr in lrs]
        if self.last_epoch == self.total_iters:
            return [lr * (1.0 / self.factor) for lr in lrs]
        return lrs

    def _closed_form(self) -> list[Any]:
        factor = 1.0 if self.last_epoch >= self.total_iters else self.factor
        return [base * factor for base in self.base_lrs]


class LinearLR(LRScheduler):
    """The factor goes linearly from `start_factor` to `end_factor` over `total_iters` epochs."""

    _fields = LRScheduler._fields + ("start_factor", "end_factor", "total_iters")

    def __init__(
        self,
        optimizer: Optimizer,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        if not 0 < start_factor <= 1.0:
            raise ValueError(
                "Starting multiplicative factor expected to be greater than 0 and less or "
                "equal to 1."
            )
        if not 0 <= end_factor <= 1.0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def _rule(self) -> list[Any]:
        lrs = self._current_lrs()
        t = self.last_epoch
        if t == 0:
            return [lr * self.start_factor for lr in lrs]
        if self._is_initial or t > self.total_iters:
            return lrs
        # f(t) / f(t-1) = 1 + slope / f(t-1), with f in units of 1/total_iters
        rise = self.end_factor - self.start_factor
        ratio = 1.0 + rise / (self.total_iters * self.start_factor + (t - 1) * rise)
        return [lr * ratio for lr in lrs]

    def _closed_form(self) -> list[Any]:
        done = min(self.total_iters, self.last_epoch) / self.total_iters
        factor = self.start_factor + (self.end_factor - self.start_factor) * done
        return [base * factor for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """The factor (1 - t / total_iters) ** power, then 0."""

    _fields = LRScheduler._fields + ("total_iters", "power")

    def __init__(
        self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0, last_epoch: int = -1
    ) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def _rule(self) -> list[Any]:
        lrs = self._current_lrs()
        t, total = self.last_epoch, self.total_iters
        if self._is_initial or t > total:
            return lrs
        ratio = ((1.0 - t / total) / (1.0 - (t - 1) / total)) ** self.power
        return [lr * ratio for lr in lrs]

    def _closed_form(self) -> list[Any]:
        remaining = 1.0 - min(self.total_iters, self.last_epoch) / self.total_iters
        return [base * remaining**self.power for base in self.base_lrs]


print_from(
    "torch.optim.lr_scheduler",
    LambdaLR,
    MultiplicativeLR,
    StepLR,
    MultiStepLR,
    ExponentialLR,
    ConstantLR,
    LinearLR,
    PolynomialLR,
)
