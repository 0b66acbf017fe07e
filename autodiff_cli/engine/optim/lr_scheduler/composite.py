"""Schedulers of schedulers: `SequentialLR` (one after another, at milestones) and
`ChainedScheduler` (all at each step)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from ...pytorch_home import print_from
from ..optimizer import Optimizer
from .base import (
    LRScheduler,
    _set_group,
)
from .plateau import ReduceLROnPlateau


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


print_from("torch.optim.lr_scheduler", SequentialLR, ChainedScheduler)
