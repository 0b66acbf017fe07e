"""`torch.profiler`: `profile`, `record_function`, `ProfilerActivity`, `schedule`. CPU time per
op call, record_function range and backward node, measured by the engine around each call."""

from __future__ import annotations

from .events import EventList, FunctionEvent, FunctionEventAvg  # noqa: F401
from .profile import (
    ProfilerAction,
    ProfilerActivity,
    profile,
    schedule,
    supported_activities,
    tensorboard_trace_handler,
)
from .recorder import record_function, stop_all  # noqa: F401

__all__ = [
    "ProfilerAction",
    "ProfilerActivity",
    "profile",
    "record_function",
    "schedule",
    "supported_activities",
    "tensorboard_trace_handler",
]
