"""Global modes: gradient mode (`no_grad`, `enable_grad`, `set_grad_enabled`), inference mode
(`inference_mode`, and `NO_VERSION`, the version counter inference tensors share) and anomaly
mode's switches (`AnomalyMode`; its machinery is `core/anomaly.py`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


class _Switch:
    """Holds the one process-wide switch the op machinery reads on every call: an instance's
    slot, which CPython 3.11 reads faster than a class attribute (1 ns against 9)."""

    __slots__ = ("enabled",)

    def __init__(self) -> None:
        self.enabled = True


GradMode = _Switch()


def is_grad_enabled() -> bool:
    return GradMode.enabled


class _GradModeContext:
    """Base of the context managers; each also works as a decorator, as in PyTorch."""

    _target: bool = True

    def __enter__(self) -> None:
        self._prev = GradMode.enabled
        GradMode.enabled = self._target

    def __exit__(self, *exc: Any) -> None:
        GradMode.enabled = self._prev

    def __call__(self, fn):  # decorator form: @torch.no_grad()
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)

        return wrapper

    def __repr__(self) -> str:
        return f"<torch.autograd.grad_mode.{type(self).__name__} object at {id(self):#x}>"


class no_grad(_GradModeContext):  # noqa: N801
    _target = False


class enable_grad(_GradModeContext):  # noqa: N801
    _target = True


class set_grad_enabled(_GradModeContext):  # noqa: N801
    """Sets the mode at once (function form) and restores it on exit (context-manager form).
    `mode` and `prev` are public, and it prints as PyTorch's does (`...(mode=True)`)."""

    def __init__(self, mode: bool) -> None:
        if type(mode) is not bool:
            raise TypeError(
                "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                f"{type(mode).__name__}"
            )
        self._prev = GradMode.enabled
        self._target = mode
        GradMode.enabled = mode

    @property
    def mode(self) -> bool:
        return self._target

    @property
    def prev(self) -> bool:
        return self._prev

    def __repr__(self) -> str:
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self._target})"

    def __enter__(self) -> None:
        pass

    def __call__(self, fn):
        mode = self._target
        GradMode.enabled = self._prev

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)

        return wrapper


# -- inference mode -----------------------------------------------------------------------------

INPLACE_INFERENCE_MESSAGE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone "
    "to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 "
    "for more details."
)
VERSION_INFERENCE_MESSAGE = "Inference tensors do not track version counter."
SAVE_INFERENCE_MESSAGE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a clone "
    "to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`."
)
REQUIRES_GRAD_INFERENCE_MESSAGE = (
    "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
)


class InferenceMode:
    """Whether inference mode is on; `listeners` (`core/inference.py`) are told each change."""

    enabled = False
    listeners: list = []


def is_inference_mode_enabled() -> bool:
    return InferenceMode.enabled


class _NoVersion:
    """The version counter of every inference tensor (its `_vbox`): inference tensors track no
    version. Views and `detach()` share it, so they are inference tensors too; `clone()` makes a
    normal tensor. `Tensor._version` and the places that save a tensor for backward test for it
    (`check_saveable`) and raise PyTorch's errors; the one read left is the version bump after
    an in-place write (`box[0] += 1`, after the data was written, as in PyTorch): nothing inside
    inference mode, PyTorch's in-place error outside."""

    __slots__ = ()

    def __getitem__(self, index: int) -> int:
        if InferenceMode.enabled:
            return 0
        raise RuntimeError(INPLACE_INFERENCE_MESSAGE)

    def __setitem__(self, index: int, value: int) -> None:
        pass

    def __repr__(self) -> str:
        return "<no version counter>"


def check_saveable(box: Any) -> None:
    """Refuses to save for backward a tensor whose version counter is `box` if it is an
    inference tensor's."""
    if box is NO_VERSION:
        raise RuntimeError(SAVE_INFERENCE_MESSAGE)


NO_VERSION = _NoVersion()


def on_inference_switch(listener: Callable[[bool], None]) -> None:
    """Tell `listener` each change of inference mode (on: True)."""
    InferenceMode.listeners.append(listener)


def _set_inference(enabled: bool, grad: bool) -> None:
    changed = InferenceMode.enabled != enabled
    InferenceMode.enabled = enabled
    GradMode.enabled = grad
    if changed:
        for listener in InferenceMode.listeners:
            listener(enabled)


def reset_inference_mode() -> None:
    """Inference mode off (a script left it on): `reset_global_state` between scripts."""
    if InferenceMode.enabled:
        _set_inference(False, True)


class inference_mode:  # noqa: N801
    """`torch.inference_mode(mode=True)`: no graph is recorded, and what ops and factories make
    is an inference tensor; `inference_mode(False)` turns it off (and gradients on) inside.
    A context manager and a decorator, with or without parentheses, as in PyTorch."""

    def __new__(cls, mode: Any = True) -> Any:
        if not isinstance(mode, bool):  # `@torch.inference_mode`: PyTorch decorates what it gets
            return cls()(mode)
        return super().__new__(cls)

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)

    def __enter__(self) -> None:
        self._prev = (InferenceMode.enabled, GradMode.enabled)
        _set_inference(self.mode, not self.mode)

    def __exit__(self, *exc: Any) -> None:
        _set_inference(*self._prev)

    def __call__(self, fn):
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return fn(*args, **kwargs)

        return wrapper

    def clone(self) -> inference_mode:
        return inference_mode(self.mode)

    def __repr__(self) -> str:
        return f"<torch.autograd.grad_mode.inference_mode object at {id(self):#x}>"


inference_mode.__module__ = "torch.autograd.grad_mode"


# -- anomaly mode's switches ------------------------------------------------------------------


class AnomalyMode:
    """`torch.is_anomaly_enabled()` and `is_anomaly_check_nan_enabled()`; set through
    `core/anomaly.py` (`set_anomaly_enabled`), which records forward traces while it is on."""

    enabled = False
    check_nan = True


def is_anomaly_enabled() -> bool:
    return AnomalyMode.enabled


def is_anomaly_check_nan_enabled() -> bool:
    return AnomalyMode.check_nan
