"""`torch.profiler.profile` (with `schedule` and `step()`), its activities and actions, and
`schedule`. The results (`events()`, `key_averages()`, tables) come from `events.py`."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from typing import Any

from . import recorder as _recorder
from .events import EventList, refuse_file_export


class _Member:
    """A member of a small enumeration (ProfilerActivity, ProfilerAction): prints as PyTorch's
    enum members do; `name` and `value` as an enum's."""

    __slots__ = ("name", "value")
    _owner = ""

    def __init__(self, name: str, value: int) -> None:
        self.name = name
        self.value = value

    def __repr__(self) -> str:
        return f"<{self._owner}.{self.name}: {self.value}>"

    def __str__(self) -> str:
        return f"{self._owner}.{self.name}"

    def __hash__(self) -> int:
        return hash((self._owner, self.value))

    def __eq__(self, other: object) -> bool:
        return self is other


class ProfilerActivity(_Member):
    """`ProfilerActivity.CPU` (the others are accepted and record nothing: CPU only)."""

    __slots__ = ()
    _owner = "ProfilerActivity"

    def __int__(self) -> int:
        return self.value


class ProfilerAction(_Member):
    """What a `schedule` asks of a step: NONE, WARMUP, RECORD, RECORD_AND_SAVE."""

    __slots__ = ()
    _owner = "ProfilerAction"


for _name, _i in (("CPU", 0), ("XPU", 1), ("MTIA", 4), ("CUDA", 2), ("HPU", 3), ("PrivateUse1", 5)):
    setattr(ProfilerActivity, _name, ProfilerActivity(_name, _i))
for _i, _name in enumerate(("NONE", "WARMUP", "RECORD", "RECORD_AND_SAVE")):
    setattr(ProfilerAction, _name, ProfilerAction(_name, _i))
_RECORDING = (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)


def supported_activities() -> set:
    return {ProfilerActivity.CPU}


def schedule(
    *, wait: int, warmup: int, active: int, repeat: int = 0, skip_first: int = 0,
    skip_first_wait: int = 0,
) -> Callable[[int], ProfilerAction]:  # fmt: skip
    """The action for each step: `skip_first` steps, then cycles of `wait` steps doing
    nothing, `warmup` steps, `active` recorded steps (the last one saves the trace), `repeat`
    cycles (0: for ever)."""
    if min(wait, warmup, repeat, skip_first) < 0 or active <= 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), warmup={warmup} "
            f"(need >= 0), active={active} (need > 0), repeat={repeat} (need >= 0), "
            f"skip_first={skip_first} (need >= 0)."
        )
    if warmup == 0:
        warnings.warn(
            "Profiler won't be using warmup, this can skew profiler results", stacklevel=2
        )

    def schedule_fn(step: int) -> ProfilerAction:
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        cycle = wait + warmup + active
        if repeat > 0 and step // cycle >= repeat:
            return ProfilerAction.NONE
        in_cycle = step % cycle
        if in_cycle < wait:
            return ProfilerAction.NONE
        if in_cycle < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if in_cycle < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    return schedule_fn


def tensorboard_trace_handler(dir_name: str, worker_name: str | None = None, **kwargs: Any) -> Any:
    refuse_file_export("tensorboard_trace_handler")


class ProfileResults:
    """What both profilers give: events, their averages, tables, totals."""

    record_shapes = False
    profile_memory = False
    _events: EventList | None = None

    def _finished(self) -> EventList:
        return self._events if self._events is not None else EventList()

    def key_averages(
        self, group_by_input_shape: bool = False, group_by_stack_n: int = 0, **kwargs: Any
    ) -> EventList:
        return self._finished().key_averages(group_by_input_shape, group_by_stack_n)

    def export_chrome_trace(self, path: str) -> None:
        refuse_file_export("export_chrome_trace")

    def export_stacks(self, path: str, metric: str = "self_cpu_time_total") -> None:
        refuse_file_export("export_stacks")

    def export_memory_timeline(self, path: str, device: str | None = None) -> None:
        refuse_file_export("export_memory_timeline")

    def _record(self) -> _recorder.Recorder:
        rec = _recorder.Recorder(self.record_shapes, self.profile_memory)
        _recorder.start(rec)
        return rec

    def _keep(self, rec: _recorder.Recorder) -> None:
        _recorder.stop(rec)
        self._events = EventList(rec.events, self.profile_memory)


class profile(ProfileResults):  # noqa: N801 - PyTorch's name
    """`torch.profiler.profile`: records CPU time per op call, record_function range and
    backward node while active (or, with a `schedule`, during its recorded steps)."""

    def __init__(
        self,
        *,
        activities: Iterable[ProfilerActivity] | None = None,
        schedule: Callable[[int], ProfilerAction] | None = None,
        on_trace_ready: Callable[[Any], Any] | None = None,
        record_shapes: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_flops: bool = False,
        with_modules: bool = False,
        **kwargs: Any,
    ) -> None:
        self.activities = set(activities) if activities is not None else supported_activities()
        if not any(isinstance(a, ProfilerActivity) for a in self.activities):
            raise AssertionError("No valid profiler activities found")
        self.schedule = schedule
        self.on_trace_ready = on_trace_ready
        self.record_shapes = bool(record_shapes)
        self.profile_memory = bool(profile_memory)
        self.with_stack = bool(with_stack)
        self.with_flops = bool(with_flops)
        self.with_modules = bool(with_modules)
        self.step_num = 0
        self._rec: _recorder.Recorder | None = None
        self._step_event: Any = None
        self._action = ProfilerAction.NONE

    def _action_for(self, step: int) -> ProfilerAction:
        return ProfilerAction.RECORD if self.schedule is None else self.schedule(step)

    def start(self) -> None:
        self.step_num = 0
        self._action = self._action_for(0)
        self._enter_step()

    def _enter_step(self) -> None:
        if self._action in _RECORDING:
            if self._rec is None:
                self._rec = self._record()
            if self.schedule is not None:
                self._step_event = self._rec.begin("ProfilerStep*", None)  # as PyTorch lists it

    def _leave_step(self) -> None:
        if self._step_event is not None and self._rec is not None:
            self._rec.end(self._step_event)
        self._step_event = None

    def _save(self) -> None:
        if self._rec is not None:
            rec, self._rec = self._rec, None
            self._keep(rec)
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)

    def step(self) -> None:
        """The end of one step of the schedule (a training iteration)."""
        self._leave_step()
        self.step_num += 1
        if self._action is ProfilerAction.RECORD_AND_SAVE:
            self._save()
        self._action = self._action_for(self.step_num)
        self._enter_step()

    def stop(self) -> None:
        self._leave_step()
        self._save()
        self._action = ProfilerAction.NONE

    def __enter__(self) -> profile:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<torch.profiler.profiler.profile object at {id(self):#x}>"

    def events(self) -> EventList:
        if self._events is None and self._rec is None:
            raise AssertionError("Profiler must be initialized before accessing events")
        return self._finished()

    def key_averages(
        self, group_by_input_shape: bool = False, group_by_stack_n: int = 0, **kwargs: Any
    ) -> EventList:
        if self._events is None and self._rec is None:
            raise AssertionError("Profiler must be initialized before getting key averages")
        return self._finished().key_averages(group_by_input_shape, group_by_stack_n)


__all__ = [
    "ProfilerAction",
    "ProfilerActivity",
    "profile",
    "schedule",
    "supported_activities",
    "tensorboard_trace_handler",
]
