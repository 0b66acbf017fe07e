"""`torch.autograd.detect_anomaly` and `torch.autograd.set_detect_anomaly`, as PyTorch 2.13 has
them: both are context managers (neither is a decorator); `detect_anomaly` warns when made and
turns the mode on when entered, `set_detect_anomaly` sets it at once and restores the previous
state on exit. The machinery is `core/anomaly.py`."""

from __future__ import annotations

import warnings
from typing import Any

from ..core.anomaly import set_anomaly_enabled
from ..core.grad_mode import AnomalyMode

ENABLED_WARNING = (
    "Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
    "enabled for debugging."
)


class detect_anomaly:  # noqa: N801
    """Context manager that turns anomaly detection on: NaN checks in backward, and the trace
    of the forward call behind a failing node."""

    def __init__(self, check_nan: Any = True) -> None:
        self.prev = AnomalyMode.enabled
        self.check_nan = check_nan
        self.prev_check_nan = AnomalyMode.check_nan
        warnings.warn(ENABLED_WARNING, UserWarning, stacklevel=2)

    def __enter__(self) -> None:
        set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *args: Any) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)

    def __repr__(self) -> str:
        return f"<torch.autograd.anomaly_mode.detect_anomaly object at {id(self):#x}>"


class set_detect_anomaly:  # noqa: N801
    """Sets anomaly detection on or off at once; as a context manager, restores the previous
    state on exit."""

    def __init__(self, mode: Any, check_nan: Any = True) -> None:
        self.prev = AnomalyMode.enabled
        self.prev_check_nan = AnomalyMode.check_nan
        set_anomaly_enabled(mode, check_nan)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *args: Any) -> None:
        set_anomaly_enabled(self.prev, self.prev_check_nan)

    def __repr__(self) -> str:
        return f"<torch.autograd.anomaly_mode.set_detect_anomaly object at {id(self):#x}>"


detect_anomaly.__module__ = set_detect_anomaly.__module__ = "torch.autograd.anomaly_mode"

__all__ = ["detect_anomaly", "set_detect_anomaly"]
