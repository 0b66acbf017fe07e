"""`LRScheduler`, the base of the schedulers: its bookkeeping (`last_epoch`, `base_lrs`, the lrs
written into the param groups), warnings and state (the package docstring has the design)."""

from __future__ import annotations

import types
import warnings
from collections.abc import Iterable
from typing import Any

from ...core.tensor import Tensor
from ...pytorch_home import print_from
from ..optimizer import Optimizer

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


print_from("torch.optim.lr_scheduler", LRScheduler, _LRScheduler)
