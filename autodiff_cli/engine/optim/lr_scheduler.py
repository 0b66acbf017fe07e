"""`torch.optim.lr_scheduler`: learning-rate schedules over an optimizer's param groups.

One base class, `LRScheduler`, owns the bookkeeping (`last_epoch`, `base_lrs`, `initial_lr` in
each group, writing lrs into the groups, `get_last_lr`, warnings). A built-in scheduler only says
how the next lrs follow from the current ones (`_rule`, run by `step()`) and, where a schedule has
one, the closed form used by the deprecated `step(epoch)` (`_closed_form`). Scripts subclass
`LRScheduler` by overriding `get_lr`, as in PyTorch.

State is an explicit list of fields per class (`_fields`): `state_dict` copies those and nothing
else, and `load_state_dict` writes only those, so neither hands a script an attribute table nor
lets it write attributes by names it chose.
"""

from __future__ import annotations

import math
import types
import warnings
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..core.tensor import Tensor
from .optimizer import Optimizer

__all__ = [
    "LRScheduler",
    "LambdaLR",
    "MultiplicativeLR",
    "StepLR",
    "MultiStepLR",
    "ConstantLR",
    "LinearLR",
    "ExponentialLR",
    "PolynomialLR",
    "CosineAnnealingLR",
    "SequentialLR",
    "ChainedScheduler",
    "ReduceLROnPlateau",
    "CyclicLR",
    "CosineAnnealingWarmRestarts",
    "OneCycleLR",
]

_HOW_TO = (
    "See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)
_EARLY_STEP = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
    "later, you should call them in the opposite order: `optimizer.step()` before "
    "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first value "
    "of the learning rate schedule. " + _HOW_TO
)
_EPOCH_DEPRECATED = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where "
    "possible. Please use `scheduler.step()` to step the scheduler. During the deprecation, if "
    "epoch is different from None, the closed form is used instead of the new chainable form, "
    "where available. Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)
_USE_GET_LAST_LR = (
    "To get the last learning rate computed by the scheduler, please use `get_last_lr()`."
)


# -- small helpers on values and param groups ----------------------------------------------------
def _copy(value: Any) -> Any:
    """A value as stored apart from its group: tensors cloned, numbers as they are."""
    return value.clone() if isinstance(value, Tensor) else value


def _set_group(group: dict, key: str, value: Any) -> None:
    """`group[key] = value`, filling a tensor-valued entry in place as PyTorch does."""
    if isinstance(group.get(key), Tensor):
        group[key].fill_(value.squeeze() if isinstance(value, Tensor) else value)
    else:
        group[key] = value


def _group_values(optimizer: Optimizer, key: str) -> list[Any]:
    return [_copy(group[key]) for group in optimizer.param_groups]


def _per_group(name: str, optimizer: Optimizer, value: Any) -> list[Any]:
    """One value per param group: a list/tuple of the right length, or one value repeated."""
    count = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != count:
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. "
                f"{name} has {len(value)} values, param_groups has {count}."
            )
        return [_copy(v) for v in value]
    return [_copy(value) for _ in range(count)]


def _require_optimizer(optimizer: Any) -> Optimizer:
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
    return optimizer


def _require_self(scheduler: Any, method: str) -> None:
    """Engine methods act only on schedulers, never on an object a script passes as `self`."""
    if not isinstance(scheduler, LRScheduler):
        raise TypeError(
            f"descriptor '{method}' for 'LRScheduler' objects doesn't apply to a "
            f"'{type(scheduler).__name__}' object"
        )


_PLAIN = (bool, int, float, str, type(None), Tensor)


def _callable_state(fn: Any) -> dict | None:
    """What PyTorch saves of an lr lambda or scale function: nothing for a function; for a
    callable object, its public attributes holding plain values (a copy, never the object's own
    attribute table, and nothing of a class)."""
    if isinstance(fn, (types.FunctionType, types.MethodType, types.BuiltinFunctionType, type)):
        return None
    try:
        table = vars(fn)
    except TypeError:
        return None
    return {
        name: value
        for name, value in table.items()
        if isinstance(name, str) and not name.startswith("_") and isinstance(value, _PLAIN)
    }


def _restore_callable_state(fn: Any, saved: Any) -> None:
    """Give a callable object back the attributes `_callable_state` saved, with the same
    rules: public names of attributes it already has, plain values."""
    if not isinstance(saved, dict) or _callable_state(fn) is None:
        return
    for name, value in saved.items():
        if (
            isinstance(name, str)
            and name.isidentifier()
            and not name.startswith("_")
            and isinstance(value, _PLAIN)
            and name in vars(fn)
        ):
            setattr(fn, name, value)


# -- the base class -------------------------------------------------------------------------------
class LRScheduler:
    """Base of the schedulers: `step()` moves `last_epoch` on and writes the new lrs."""

    # The state `state_dict` saves (PyTorch's key names); subclasses add theirs.
    _fields: tuple[str, ...] = (
        "_get_lr_called_within_step",
        "_is_initial",
        "_last_lr",
        "_step_count",
        "base_lrs",
        "last_epoch",
    )

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        self.optimizer = _require_optimizer(optimizer)
        for i, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", _copy(group["lr"]))
            elif "initial_lr" not in group:
                raise KeyError(
                    f"param 'initial_lr' is not specified in param_groups[{i}] when resuming "
                    "scheduler with last_epoch >= 0.\nThis typically happens when:\n"
                    "1. You're trying to resume training from a checkpoint but haven't properly "
                    "loaded the optimizer state\n"
                    "2. You're using last_epoch >= 0 for a fresh training run (not recommended)"
                )
        self.base_lrs: list[Any] = _group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        self._get_lr_called_within_step = False
        self._initial_step()

    def _initial_step(self) -> None:
        """The step every scheduler takes when it is made: lrs for `last_epoch + 1`."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    # -- the schedule ---------------------------------------------------------------------------
    def get_lr(self) -> list[Any]:
        """The lrs for the current `last_epoch` (scripts' subclasses override this)."""
        if not self._get_lr_called_within_step:
            warnings.warn(_USE_GET_LAST_LR, UserWarning, stacklevel=2)
        return self._rule()

    def _rule(self) -> list[Any]:
        raise NotImplementedError

    def _current_lrs(self) -> list[Any]:
        return _group_values(self.optimizer, "lr")

    def get_last_lr(self) -> list[Any]:
        return self._last_lr

    def step(self, epoch: int | None = None) -> None:
        if self._step_count == 1 and not getattr(self.optimizer, "_opt_called", False):
            warnings.warn(_EARLY_STEP, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(_EPOCH_DEPRECATED, UserWarning, stacklevel=2)
        self._advance(epoch)

    def _advance(self, epoch: int | None) -> None:
        """Move to `epoch` (closed form, where there is one) or to the next epoch (the rule)."""
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                lrs = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(type(self), "_closed_form", None)
                lrs = closed_form(self) if closed_form else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        self._write_lrs(lrs)

    def _write_lrs(self, lrs: Iterable[Any]) -> None:
        lrs = list(lrs)
        if len(lrs) != len(self.optimizer.param_groups):
            raise ValueError(
                f"get_lr() returned {len(lrs)} values for "
                f"{len(self.optimizer.param_groups)} param groups"
            )
        for group, lr in zip(self.optimizer.param_groups, lrs):
            _set_group(group, "lr", lr)
        self._last_lr = self._current_lrs()

    # -- state ----------------------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        _require_self(self, "state_dict")
        return {name: getattr(self, name) for name in self._fields if hasattr(self, name)}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        _require_self(self, "load_state_dict")
        for name in self._fields:
            if name in state_dict:
                setattr(self, name, state_dict[name])


class _LRScheduler(LRScheduler):
    """The old name of the base class, kept as PyTorch keeps it."""


# -- schedules from a function of the epoch -------------------------------------------------------
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


# -- cosine schedules -------------------------------------------------------------------------------
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
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            lrs = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        self._write_lrs(lrs)

    def _restart_at(self, epoch: float) -> None:
        """`T_i` and `T_cur` for an epoch given directly: skip the whole cycles before it."""
        if self.T_mult == 1:
            self.T_i, self.T_cur = self.T_0, epoch % self.T_0
            return
        self.T_i, self.T_cur = self.T_0, epoch
        while self.T_cur >= self.T_i:
            self.T_cur -= self.T_i
            self.T_i *= self.T_mult


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


for _cls in (
    LRScheduler, _LRScheduler, LambdaLR, MultiplicativeLR, StepLR, MultiStepLR, ConstantLR,
    LinearLR, ExponentialLR, SequentialLR, PolynomialLR, CosineAnnealingLR, ChainedScheduler,
    ReduceLROnPlateau, CyclicLR, CosineAnnealingWarmRestarts, OneCycleLR,
):  # fmt: skip
    _cls.__module__ = "torch.optim.lr_scheduler"
del _cls
