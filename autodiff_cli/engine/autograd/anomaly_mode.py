"""`torch.autograd.detect_anomaly` and `torch.autograd.set_detect_anomaly`, as PyTorch 2.13 has
them: both are context managers (neither is a decorator); `detect_anomaly` warns when made and
turns the mode on when entered, `set_detect_anomaly` sets it at once and restores the previous
state on exit. The machinery is `core/anomaly.py`, which makes the classes
(`anomaly_switches`): these read forward traces from Python's stack; the script language gives
scripts a pair of its own, reading its script's statements (`lang/runtime/script_stack.py`)."""

from __future__ import annotations

from ..core.anomaly import anomaly_switches, python_stack

detect_anomaly, set_detect_anomaly = anomaly_switches(python_stack)

__all__ = ["detect_anomaly", "set_detect_anomaly"]
