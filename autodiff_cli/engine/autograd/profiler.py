"""`torch.autograd.profiler`: the older profiler (`profile`, `record_function`), over the same
recording as `torch.profiler` (engine/profiler). CPU only: `use_cuda` / `use_device` are
accepted and ignored, with PyTorch's warnings on a machine without CUDA."""

from __future__ import annotations

import warnings
from typing import Any

from ..profiler.events import EventList, FunctionEvent, FunctionEventAvg
from ..profiler.profile import ProfilerActivity, ProfileResults
from ..profiler.recorder import Recorder, record_function


class profile(ProfileResults):  # noqa: N801 - PyTorch's name
    """`with torch.autograd.profiler.profile() as prof:` records every op call,
    record_function range and backward node; `prof.function_events` holds them after."""

    def __init__(
        self,
        enabled: bool = True,
        *,
        use_cuda: bool = False,
        use_device: str | None = None,
        record_shapes: bool = False,
        with_flops: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_modules: bool = False,
        use_kineto: bool = False,
        use_cpu: bool = True,
        **kwargs: Any,
    ) -> None:
        self.enabled = bool(enabled)
        self.record_shapes = bool(record_shapes)
        self.profile_memory = bool(profile_memory)
        self.with_flops = bool(with_flops)
        self.with_stack = bool(with_stack)
        self.with_modules = bool(with_modules)
        self.use_cpu = bool(use_cpu)
        self.use_device = use_device
        self.entered = False
        self._rec: Recorder | None = None
        if use_cuda:
            warnings.warn(
                "The attribute `use_cuda` will be deprecated soon, please use "
                "``use_device = 'cuda'`` instead.",
                FutureWarning,
                stacklevel=2,
            )
            self.use_device = "cuda"
        if self.use_device == "cuda":
            warnings.warn("CUDA is not available, disabling CUDA profiling", stacklevel=2)
            self.use_device = None
        elif self.use_device is not None:
            warnings.warn(f"The {self.use_device} is not a valid device option.", stacklevel=2)
            self.use_device = None

    def __enter__(self) -> profile | None:
        if not self.enabled:
            return None
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        self._rec = self._record()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._rec is not None:
            rec, self._rec = self._rec, None
            self._keep(rec)

    @property
    def function_events(self) -> EventList | None:
        return self._events

    def table(self, *args: Any, **kwargs: Any) -> str:
        """The table of every event (one row per call; `key_averages().table()` groups)."""
        return self._finished().table(*args, **kwargs)

    def total_average(self) -> FunctionEventAvg:
        return self._finished().total_average()

    @property
    def self_cpu_time_total(self) -> float:
        return self._finished().self_cpu_time_total

    def __str__(self) -> str:
        if self._events is None:
            return "<unfinished torch.autograd.profile>"
        return self._events.table()

    def __repr__(self) -> str:
        if self._events is None:
            return "<unfinished torch.autograd.profile>"
        return repr(self._events)


__all__ = [
    "EventList",
    "FunctionEvent",
    "FunctionEventAvg",
    "ProfilerActivity",
    "profile",
    "record_function",
]
