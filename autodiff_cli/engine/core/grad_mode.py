"""Global gradient mode: `no_grad`, `enable_grad`, `set_grad_enabled`, `inference_mode`."""

from __future__ import annotations

import functools
from typing import Any


class GradMode:
    """Holds the one process-wide switch the op machinery reads on every call."""

    enabled = True


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


class inference_mode(_GradModeContext):  # noqa: N801
    def __init__(self, mode: bool = True) -> None:
        self._target = not mode


class set_grad_enabled(_GradModeContext):  # noqa: N801
    """Sets the mode at once (function form) and restores it on exit (context-manager form)."""

    def __init__(self, mode: bool) -> None:
        self._prev = GradMode.enabled
        self._target = bool(mode)
        GradMode.enabled = self._target

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
