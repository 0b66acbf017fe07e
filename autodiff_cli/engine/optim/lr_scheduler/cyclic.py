"""Cyclical schedules, the momentum cycling the other way: `CyclicLR` (triangle waves) and
`OneCycleLR` (the 1cycle policy)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ...pytorch_home import print_from
from ..optimizer import Optimizer
from .base import (
    LRScheduler,
    _callable_state,
    _per_group,
    _require_optimizer,
    _restore_callable_state,
    _set_group,
)
from .cosine import _cosine


def _set_momentum(group: dict, value: Any, use_beta1: bool) -> None:
    if use_beta1:
        group["betas"] = (value, *group["betas"][1:])
    else:
        group["momentum"] = value


def _momentum_kind(optimizer: Optimizer) -> bool:
    """Whether the optimizer's momentum is `betas[0]` (Adam) rather than `momentum` (SGD)."""
    if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
        raise ValueError(
            "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"
        )
    return "betas" in optimizer.defaults


def _init_momentum(optimizer: Optimizer, maxima: list, bases: list, last_epoch: int) -> bool:
    """Check and (for a fresh run) set each group's momentum range; return `use_beta1`."""
    use_beta1 = _momentum_kind(optimizer)
    if last_epoch == -1:
        for group, high, low in zip(optimizer.param_groups, maxima, bases):
            _set_momentum(group, high, use_beta1)
            group["max_momentum"], group["base_momentum"] = high, low
    return use_beta1


class CyclicLR(LRScheduler):
    """lr goes up and down between `base_lr` and `max_lr` (triangle waves), momentum the other
    way; `triangular2` halves the height each cycle, `exp_range` scales it by gamma**step."""

    _fields = LRScheduler._fields + (
        "_scale_fn_custom",
        "base_momentums",
        "cycle_momentum",
        "gamma",
        "max_lrs",
        "max_momentums",
        "mode",
        "scale_mode",
        "step_ratio",
        "total_size",
        "use_beta1",
    )

    def __init__(
        self,
        optimizer: Optimizer,
        base_lr: float | list[float],
        max_lr: float | list[float],
        step_size_up: int = 2000,
        step_size_down: int | None = None,
        mode: str = "triangular",
        gamma: float = 1.0,
        scale_fn: Callable[[float], float] | None = None,
        scale_mode: str = "cycle",
        cycle_momentum: bool = True,
        base_momentum: float = 0.8,
        max_momentum: float = 0.9,
        last_epoch: int = -1,
    ) -> None:
        _require_optimizer(optimizer)
        base_lrs = _per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for group, lr in zip(optimizer.param_groups, base_lrs):
                _set_group(group, "lr", lr)
        self.max_lrs = _per_group("max_lr", optimizer, max_lr)
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        if scale_fn is None:
            self.scale_mode = "iterations" if mode == "exp_range" else "cycle"
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self.base_momentums = _per_group("base_momentum", optimizer, base_momentum)
            self.max_momentums = _per_group("max_momentum", optimizer, max_momentum)
            self.use_beta1 = _init_momentum(
                optimizer, self.max_momentums, self.base_momentums, last_epoch
            )
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def scale_fn(self, x: float) -> float:
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        if self.mode == "exp_range":
            return self.gamma**x
        return 1.0

    def _rule(self) -> list[Any]:
        position = self.last_epoch / self.total_size  # in cycles
        cycle = math.floor(1 + position)
        x = 1.0 + position - cycle  # fraction of the current cycle
        if x <= self.step_ratio:
            height = x / self.step_ratio
        else:
            height = (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [
            base + (high - base) * height * scale for base, high in zip(self.base_lrs, self.max_lrs)
        ]
        if self.cycle_momentum:
            for group, low, high in zip(
                self.optimizer.param_groups, self.base_momentums, self.max_momentums
            ):
                _set_momentum(group, high - (high - low) * height * scale, self.use_beta1)
        return lrs

    def state_dict(self) -> dict[str, Any]:
        state = super().state_dict()
        state["_scale_fn_custom"] = _callable_state(self._scale_fn_custom)
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        fn_state = state_dict.get("_scale_fn_custom")
        super().load_state_dict({k: v for k, v in state_dict.items() if k != "_scale_fn_custom"})
        _restore_callable_state(self._scale_fn_custom, fn_state)


def _anneal(strategy: str, start: Any, end: Any, pct: float) -> Any:
    if strategy == "cos":
        return _cosine(end, start, pct)
    return (end - start) * pct + start


class OneCycleLR(LRScheduler):
    """The 1cycle policy: lr from max_lr/div_factor up to max_lr, then down to
    initial/final_div_factor (with `three_phase`, back to the initial lr first)."""

    _fields = LRScheduler._fields + (
        "_anneal_func_type",
        "_schedule_phases",
        "cycle_momentum",
        "total_steps",
        "use_beta1",
    )

    def __init__(
        self,
        optimizer: Optimizer,
        max_lr: float | list[float],
        total_steps: int | None = None,
        epochs: int | None = None,
        steps_per_epoch: int | None = None,
        pct_start: float = 0.3,
        anneal_strategy: str = "cos",
        cycle_momentum: bool = True,
        base_momentum: float | list[float] = 0.85,
        max_momentum: float | list[float] = 0.95,
        div_factor: float = 25.0,
        final_div_factor: float = 1e4,
        three_phase: bool = False,
        last_epoch: int = -1,
    ) -> None:
        _require_optimizer(optimizer)
        self.total_steps = self._count_steps(total_steps, epochs, steps_per_epoch)
        if not isinstance(pct_start, float) or not 0 <= pct_start <= 1:
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._anneal_func_type = anneal_strategy
        self._schedule_phases = self._phases(pct_start * self.total_steps, three_phase)
        max_lrs = _per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for group, high in zip(optimizer.param_groups, max_lrs):
                group["initial_lr"] = high / div_factor
                group["max_lr"] = high
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            maxima = _per_group("max_momentum", optimizer, max_momentum)
            bases = _per_group("base_momentum", optimizer, base_momentum)
            self.use_beta1 = _init_momentum(optimizer, maxima, bases, last_epoch)
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _count_steps(total_steps: Any, epochs: Any, steps_per_epoch: Any) -> int:
        if total_steps is not None:
            if not isinstance(total_steps, int) or total_steps <= 0:
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            return total_steps
        if epochs is None or steps_per_epoch is None:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        if not isinstance(epochs, int) or epochs <= 0:
            raise ValueError(f"Expected positive integer epochs, but got {epochs}")
        if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
            raise ValueError(
                f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}"
            )
        return epochs * steps_per_epoch

    def _phases(self, warmup: float, three_phase: bool) -> list[dict[str, Any]]:
        """The phases: last step of each, and the group keys of the lr/momentum at its ends."""

        def phase(end: float, lrs: tuple[str, str], momenta: tuple[str, str]) -> dict[str, Any]:
            return {
                "end_step": end,
                "start_lr": lrs[0],
                "end_lr": lrs[1],
                "start_momentum": momenta[0],
                "end_momentum": momenta[1],
            }

        up = phase(float(warmup) - 1, ("initial_lr", "max_lr"), ("max_momentum", "base_momentum"))
        last = self.total_steps - 1
        if not three_phase:
            return [up, phase(last, ("max_lr", "min_lr"), ("base_momentum", "max_momentum"))]
        return [
            up,
            phase(
                float(2 * warmup) - 2, ("max_lr", "initial_lr"), ("base_momentum", "max_momentum")
            ),
            phase(last, ("initial_lr", "min_lr"), ("max_momentum", "max_momentum")),
        ]

    def _rule(self) -> list[Any]:
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(
                f"Tried to step {step} times. The specified number of total steps is "
                f"{self.total_steps}"
            )
        start = 0.0
        for current in self._schedule_phases:
            if step <= current["end_step"] or current is self._schedule_phases[-1]:
                break
            start = current["end_step"]
        pct = (step - start) / (current["end_step"] - start)
        lrs = []
        for group in self.optimizer.param_groups:
            lrs.append(
                _anneal(
                    self._anneal_func_type,
                    group[current["start_lr"]],
                    group[current["end_lr"]],
                    pct,
                )
            )
            if self.cycle_momentum:
                momentum = _anneal(
                    self._anneal_func_type,
                    group[current["start_momentum"]],
                    group[current["end_momentum"]],
                    pct,
                )
                _set_momentum(group, momentum, self.use_beta1)
        return lrs


print_from("torch.optim.lr_scheduler", CyclicLR, OneCycleLR)
