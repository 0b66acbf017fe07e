"""The base of `torch.optim.lr_scheduler` (`LRScheduler`, its bookkeeping and warnings) and the
schedules that follow a formula of the epoch: lambda, step, exponential, warm-up, polynomial,
cosine. Scripts reach these through `lr_scheduler`, which also holds the module's design notes.
"""

from __future__ import annotations

import math
import types
import warnings
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..core.tensor import Tensor
from .optimizer import Optimizer

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
        state = {name: getattr(self, name) for name in _engine_fields(self) if hasattr(self, name)}
        if type(self) not in _STATE_FIELDS:  # a script's subclass: its public attributes too
            for name, value in vars(self).items():
                if _script_field(name):
                    state.setdefault(name, value)
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        _require_self(self, "load_state_dict")
        for name in _engine_fields(self):
            if name in state_dict:
                setattr(self, name, state_dict[name])
        if type(self) not in _STATE_FIELDS:
            for name, value in state_dict.items():
                if _script_field(name):
                    setattr(self, name, value)


# The state fields of each engine scheduler class (`lr_scheduler` registers them all). The state
# methods read the fields of a scheduler's nearest engine class, never `self._fields`: a script's
# subclass may define `_fields` in its class body, and names it chose (`__dict__`, `__class__`,
# `step`) would be read with getattr (raw bound methods, the attribute table) and written with
# setattr. A script's subclass saves and loads its own public attributes besides (PyTorch saves
# the whole `__dict__` but the optimizer).
_STATE_FIELDS: dict[type, tuple[str, ...]] = {}


def register_engine_schedulers(*classes: type) -> None:
    for cls in classes:
        _STATE_FIELDS[cls] = tuple(cls._fields)


def _engine_fields(scheduler: LRScheduler) -> tuple[str, ...]:
    for klass in type(scheduler).__mro__:
        fields = _STATE_FIELDS.get(klass)
        if fields is not None:
            return fields
    return ()


def _script_field(name: Any) -> bool:
    """A public attribute name a script could set itself (`scheduler.warmup = 5`)."""
    return (
        type(name) is str
        and name.isidentifier()
        and not name.startswith("_")
        and name != "optimizer"
    )


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
