"""The schedules of `torch.optim.lr_scheduler` that react to a metric or run cycles, and the
schedulers of schedulers: ReduceLROnPlateau, CyclicLR, OneCycleLR, SequentialLR,
ChainedScheduler. The base class and helpers are in `lr_schedules`.
"""

from __future__ import annotations

import math
import warnings
from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import Any

from .lr_schedules import (
    _EPOCH_DEPRECATED,
    LRScheduler,
    _callable_state,
    _cosine,
    _per_group,
    _require_optimizer,
    _restore_callable_state,
    _set_group,
)
from .optimizer import Optimizer


# -- lr driven by a metric ----------------------------------------------------------------------------
class ReduceLROnPlateau(LRScheduler):
    """lr times `factor` when the metric has not improved for more than `patience` steps."""

    _fields = (
        "_last_lr",
        "best",
        "cooldown",
        "cooldown_counter",
        "default_min_lr",
        "eps",
        "factor",
        "last_epoch",
        "min_lrs",
        "mode",
        "mode_worse",
        "num_bad_epochs",
        "patience",
        "threshold",
        "threshold_mode",
    )

    def __init__(
        self,
        optimizer: Optimizer,
        mode: str = "min",
        factor: float = 0.1,
        patience: int = 10,
        threshold: float = 1e-4,
        threshold_mode: str = "rel",
        cooldown: int = 0,
        min_lr: list[float] | float = 0,
        eps: float = 1e-8,
    ) -> None:
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor
        self.optimizer = _require_optimizer(optimizer)
        groups = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != groups:
                raise ValueError(f"expected {groups} min_lrs, got {len(min_lr)}")
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * groups
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = self._current_lrs()
        self._set_mode(mode, threshold, threshold_mode)
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def _set_mode(self, mode: str, threshold: float, threshold_mode: str) -> None:
        if mode not in ("min", "max"):
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.mode, self.threshold, self.threshold_mode = mode, threshold, threshold_mode
        self.mode_worse = math.inf if mode == "min" else -math.inf

    @property
    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def _is_better(self, a: float, best: float) -> bool:
        """Whether metric `a` improves on `best` by more than the threshold."""
        minimise = self.mode == "min"
        if self.threshold_mode == "rel":
            bar = best * (1.0 - self.threshold) if minimise else best * (self.threshold + 1.0)
        else:
            bar = best - self.threshold if minimise else best + self.threshold
        return a < bar if minimise else a > bar

    def step(self, metrics: Any, epoch: int | None = None) -> None:  # type: ignore[override]
        current = float(metrics)
        if epoch is not None:
            warnings.warn(_EPOCH_DEPRECATED, UserWarning, stacklevel=2)
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if self._is_better(current, self.best):
            self.best, self.num_bad_epochs = current, 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs in cooldown do not count
        if self.num_bad_epochs > self.patience:
            self._reduce()
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
        self._last_lr = self._current_lrs()

    def _reduce(self) -> None:
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(
                    f"The number of param groups in the `optimizer` ({len(groups)}) differs from "
                    f"when `ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), usually due "
                    "to a new param group being added to the optimizer. Please modify the "
                    "`min_lrs` field to match the length of the `optimizer` param groups."
                )
            self.min_lrs = [self.default_min_lr] * len(groups)
        for group, min_lr in zip(groups, self.min_lrs):
            old = float(group["lr"])
            new = max(old * self.factor, min_lr)
            if old - new > self.eps:
                _set_group(group, "lr", new)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        super().load_state_dict(state_dict)
        self._set_mode(self.mode, self.threshold, self.threshold_mode)


# -- cyclical schedules -------------------------------------------------------------------------------
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


# -- schedulers of schedulers -----------------------------------------------------------------------
class _SchedulerGroup(LRScheduler):
    """SequentialLR and ChainedScheduler: inner schedulers of one optimizer; the state holds
    each inner scheduler's state."""

    def _take(self, schedulers: Sequence[LRScheduler], optimizer: Optimizer) -> None:
        name = type(self).__name__
        for i, scheduler in enumerate(schedulers):
            if not isinstance(scheduler, LRScheduler):
                raise TypeError(f"{name} at index {i} should have `optimizer` as its attribute.")
            if isinstance(scheduler, ReduceLROnPlateau):
                raise ValueError(
                    f"{name} does not support `ReduceLROnPlateau` scheduler as it requires "
                    "additional kwargs to be specified when calling `step`, but got one at "
                    f"index {i} in the given schedulers sequence."
                )
            if scheduler.optimizer is not optimizer:
                raise ValueError(
                    f"{name} expects all schedulers to belong to the same optimizer, but got "
                    f"scheduler {type(scheduler).__name__} at index {i} has "
                    f"{scheduler.optimizer}, which is different from {type(optimizer).__name__}."
                )
        self._schedulers = list(schedulers)
        self.optimizer = optimizer

    def state_dict(self) -> dict[str, Any]:
        state = super().state_dict()
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        super().load_state_dict({k: v for k, v in state_dict.items() if k != "_schedulers"})
        for scheduler, saved in zip(self._schedulers, state_dict.get("_schedulers") or []):
            scheduler.load_state_dict(saved)


class SequentialLR(_SchedulerGroup):
    """Hands the optimizer to one scheduler after another, at the given milestones."""

    _fields = ("_last_lr", "_milestones", "last_epoch")

    def __init__(
        self,
        optimizer: Optimizer,
        schedulers: list[LRScheduler],
        milestones: list[int],
        last_epoch: int = -1,
    ) -> None:
        if len(schedulers) < 1:
            raise ValueError(
                f"{type(self).__name__} expects at least one scheduler, but got no scheduler."
            )
        self._take(schedulers, optimizer)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more than "
                f"the number of milestone points, but got number of schedulers {len(schedulers)} "
                f"and the number of milestones to be equal to {len(milestones)}"
            )
        self._milestones = list(milestones)
        self.last_epoch = last_epoch + 1
        # The inner schedulers each took their initial step when made: take those back and let
        # only the first one start, from the initial lrs.
        for group in optimizer.param_groups:
            _set_group(group, "lr", group["initial_lr"])
        for scheduler in self._schedulers:
            _rewind(scheduler)
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def step(self) -> None:  # type: ignore[override]
        self.last_epoch += 1
        index = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler._advance(0)  # a scheduler taking over starts at its epoch 0
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


def _rewind(scheduler: LRScheduler) -> None:
    """Undo the epoch count of a scheduler's initial step (of each inner one for a group)."""
    if isinstance(scheduler, _SchedulerGroup):
        for inner in scheduler._schedulers:
            _rewind(inner)
    else:
        scheduler.last_epoch -= 1


class ChainedScheduler(_SchedulerGroup):
    """Steps every scheduler in turn: their changes to the lr compound."""

    _fields = ("_last_lr",)

    def __init__(
        self, schedulers: Sequence[LRScheduler], optimizer: Optimizer | None = None
    ) -> None:
        if len(schedulers) < 1:
            raise ValueError(
                f"{type(self).__name__} expects at least one scheduler to be chained, but got "
                "no scheduler."
            )
        self._take(schedulers, optimizer or schedulers[0].optimizer)
        self._last_lr = self._current_lrs()

    def step(self) -> None:  # type: ignore[override]
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = self._current_lrs()
