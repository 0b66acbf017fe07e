"""Recording a profile: an observer of every op call (core/modes.py) and a watcher of every
backward node run (core/backward.py `NODE_WATCH`), both present only while a profile records,
and `record_function` ranges. Each event is timed with `time.perf_counter_ns` around the call;
events nest as the calls do (`cpu_parent`, `cpu_children`)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

from ..core import backward, modes
from ..core.graph import AccumulateGrad
from ..core.optable import OPS
from ..core.tensor import Tensor
from .events import FunctionEvent

MAX_EVENTS = 200_000  # per profile: a loop left running under a profiler cannot fill memory

_ACTIVE: list[Recorder] = []
_EVENT_NAMES: dict[str, str] = {}  # "mm" -> "aten::mm", made once


def _shape_of(value: Any) -> tuple:
    return tuple(value.shape) if isinstance(value, Tensor) else ()


class Recorder:
    """The events of one profile, in the order their calls started."""

    def __init__(self, record_shapes: bool, profile_memory: bool) -> None:
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.events: list[FunctionEvent] = []
        self.stack: list[FunctionEvent] = []
        self.start_ns = time.perf_counter_ns()
        self.closed = False

    def now(self) -> float:
        return (time.perf_counter_ns() - self.start_ns) / 1000.0

    def begin(self, name: str, shapes: tuple | None) -> FunctionEvent:
        if len(self.events) >= MAX_EVENTS:
            raise RuntimeError(
                f"profiler: more than {MAX_EVENTS} events recorded in one profile; "
                "profile a smaller part of the script"
            )
        event = FunctionEvent(len(self.events) + 1, name, self.now(), shapes)
        if self.stack:
            parent = self.stack[-1]
            event.cpu_parent = parent
            if parent._children is None:
                parent._children = [event]
            else:
                parent._children.append(event)
        self.stack.append(event)
        self.events.append(event)
        return event

    def end(self, event: FunctionEvent) -> None:
        if self.closed:  # a range exited after its profile stopped keeps the stop's time
            return
        event.end_us = self.now()
        stack = self.stack
        if stack and stack[-1] is event:
            stack.pop()
        elif event in stack:  # ranges closed out of order (record_function objects)
            stack.remove(event)

    def close(self) -> None:
        """Ends the events still open (a range never exited) when recording stops, and merges
        an event into its parent when it is the parent's only child and has its name (as
        PyTorch lists them: `outer` inside `outer` is one event)."""
        while self.stack:
            self.end(self.stack[-1])
        self.closed = True
        dropped = set()
        for event in self.events:
            parent = event.cpu_parent
            if parent is not None and parent.name == event.name and len(parent.cpu_children) == 1:
                parent._children = event._children
                for child in event.cpu_children:
                    child.cpu_parent = parent
                dropped.add(id(event))
        if dropped:
            self.events = [e for e in self.events if id(e) not in dropped]


def start(recorder: Recorder) -> None:
    """Records every op call and backward node into `recorder` until `stop`."""
    _ACTIVE.append(recorder)
    if len(_ACTIVE) == 1:
        modes.push(_observe_op)
        backward.watch_nodes(_watch_node)


def stop_all() -> None:
    """Ends every profile still recording (one a script left running when it ended)."""
    for recorder in list(_ACTIVE):
        stop(recorder)


def stop(recorder: Recorder) -> None:
    if recorder in _ACTIVE:
        _ACTIVE.remove(recorder)
        recorder.close()
        if not _ACTIVE:
            modes.pop(_observe_op)
            backward.stop_watching_nodes(_watch_node)


def _op_shapes(call: modes.OpCall, name: str) -> tuple:
    """The shapes of the op's arguments (tuples: the event makes lists when read)."""
    shapes = tuple(_shape_of(x) for x in call.inputs)
    entry = OPS.get(name.removesuffix("_"))  # (the aten op's entry: its schema's arguments)
    wanted = None if entry is None else entry.aten_args
    if wanted is None:
        return shapes + ((),) * len(call.params or ())
    return shapes + ((),) * (wanted - len(shapes))


def _aten_name(call: modes.OpCall) -> str:
    """The op's PyTorch name (`defop(aten=)`: `add` for the table's `add_scalar`). An in-place
    call of an op not named as in-place is named after the entry of that name with `_` (its
    own `aten=`, squeeze_dim's `squeeze_`), or its aten name with `_` (`pow_` for pow_scalar)."""
    op = call.op
    if call.target is not None and not op.name.endswith("_"):
        twin = OPS.get(op.name + "_")
        return op.aten + "_" if twin is None else twin.aten
    return op.aten


def _observe_op(call: modes.OpCall, proceed: Callable[[], Any]) -> Any:
    name = _aten_name(call)
    event_name = _EVENT_NAMES.get(name)
    if event_name is None:
        event_name = _EVENT_NAMES[name] = "aten::" + name
    events = []
    for recorder in _ACTIVE:
        shapes = _op_shapes(call, name) if recorder.record_shapes else None
        events.append((recorder, recorder.begin(event_name, shapes)))
    try:
        result = proceed()
    finally:
        for recorder, event in reversed(events):
            recorder.end(event)
    for recorder, event in events:
        if recorder.profile_memory and call.target is None:  # in place: no new storage
            event.cpu_memory_usage = _new_bytes(result)
    return result


def _new_bytes(result: Any) -> int:
    """Bytes of the result tensors that own new storage (views and in-place results: none)."""
    outputs = result if isinstance(result, (tuple, list)) else (result,)
    total = 0
    for t in outputs:
        if isinstance(t, Tensor) and t._base is None:
            data = t._data
            if getattr(data, "base", None) is None:
                total += int(getattr(data, "nbytes", 0))
    return total


def _gradient_shape(g: Any) -> tuple:
    shape = getattr(g, "shape", None)
    return tuple(shape) if shape is not None else ()


def _watch_node(node: Any, grads: Any, run: Callable[[], Any]) -> Any:
    """A backward node's run, as PyTorch shows it: `autograd::engine::evaluate_function: X`
    holding `X` (the node's name, `torch::autograd::AccumulateGrad` for a leaf)."""
    if node.__class__ is AccumulateGrad:
        name = "torch::autograd::AccumulateGrad"
    else:
        name = node.name()
    opened = []
    for recorder in _ACTIVE:
        shapes = None
        if recorder.record_shapes:
            shapes = tuple(_gradient_shape(g) for g in grads if g is not None)
        outer = recorder.begin("autograd::engine::evaluate_function: " + name, None)
        opened.append((recorder, outer, recorder.begin(name, shapes)))
    try:
        return run()
    finally:
        for recorder, outer, inner in reversed(opened):
            recorder.end(inner)
            recorder.end(outer)


class record_function:  # noqa: N801 - PyTorch's name
    """A named range in the profile (`with record_function("name"):`), or a decorator."""

    def __init__(self, name: str, args: str | None = None) -> None:
        if not isinstance(name, str):
            raise TypeError(f"record_function(): name must be a str, not {type(name).__name__}")
        self.name = name
        self.args = args
        self._events: list = []

    def __repr__(self) -> str:
        return f"<torch.autograd.profiler.record_function object at {id(self):#x}>"

    def __enter__(self) -> record_function:
        self._events = [(r, r.begin(self.name, None)) for r in _ACTIVE]
        for _, event in self._events:
            event.is_user_annotation = True
        return self

    def __exit__(self, *exc: Any) -> None:
        for recorder, event in reversed(self._events):
            recorder.end(event)
        self._events = []

    def __call__(self, function: Callable[..., Any]) -> Callable[..., Any]:
        name = self.name

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with record_function(name):
                return function(*args, **kwargs)

        wrapper.__name__ = wrapper.__qualname__ = str(getattr(function, "__name__", "wrapper"))
        return wrapper


def optimizer_range(method: Callable[..., Any]) -> Callable[..., Any]:
    """An optimizer's `step`/`zero_grad`, shown in a profile as PyTorch shows it: inside the
    range `Optimizer.step#SGD.step` (nothing is added while no profile records)."""
    kind = method.__name__

    def in_range(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not _ACTIVE:
            return method(self, *args, **kwargs)
        with record_function(f"Optimizer.{kind}#{type(self).__name__}.{kind}"):
            return method(self, *args, **kwargs)

    in_range.__name__ = in_range.__qualname__ = kind
    in_range.__doc__ = method.__doc__
    return in_range


_NO_RANGE = contextlib.nullcontext()


def function_range(cls: type) -> Any:
    """A custom autograd.Function's forward, shown in a profile inside a range named after the
    Function (as PyTorch shows it); nothing while no profile records."""
    return record_function(cls.__name__) if _ACTIVE else _NO_RANGE
