"""What a profile holds: one `FunctionEvent` per op call, record_function range or backward
node, `FunctionEventAvg` for the events of one name, `EventList` (a list of either) with
`key_averages`, `total_average` and `table` in PyTorch's layout. Times are microseconds (floats)
measured by the engine itself; events hold only names, numbers and shapes (never arrays)."""

from __future__ import annotations

from typing import Any

from .table import format_memory, format_time, render_table


class Interval:
    """An event's start and end (microseconds from the profile's start)."""

    __slots__ = ("start", "end")

    def __init__(self, start: float = 0.0, end: float = 0.0) -> None:
        self.start = start
        self.end = end

    def elapsed_us(self) -> float:
        return self.end - self.start


class FunctionEvent:
    """One profiled call: `name` (`aten::mul`, a record_function's name, `MulBackward0`...),
    its `time_range`, `input_shapes` (with record_shapes), `cpu_children` and `cpu_parent`.
    Few objects per event (a profile may hold 200,000: the garbage collector walks them)."""

    __slots__ = (
        "id", "name", "start_us", "end_us", "_shapes", "_children", "cpu_parent",
        "cpu_memory_usage", "is_user_annotation",
    )  # fmt: skip
    # CPU only: device times, memory and flops are 0 (tables may still sort by them)
    device_time_total = self_device_time_total = cuda_time_total = self_cuda_time_total = 0
    device_memory_usage = self_device_memory_usage = flops = 0
    overload_name = ""
    use_device = None
    thread = count = 1
    node_id = sequence_nr = -1
    is_async = is_remote = is_legacy = False

    def __init__(self, id: int, name: str, start: float, input_shapes: tuple | None) -> None:  # noqa: A002
        self.id = id
        self.name = name
        self.start_us = self.end_us = start
        self._shapes = input_shapes or None  # a tuple of shape tuples
        self._children: list[FunctionEvent] | None = None
        self.cpu_parent: FunctionEvent | None = None
        self.cpu_memory_usage = 0
        self.is_user_annotation = False

    @property
    def input_shapes(self) -> list:
        return [list(shape) for shape in self._shapes] if self._shapes is not None else []

    @property
    def cpu_children(self) -> list:
        return self._children if self._children is not None else []

    @property
    def stack(self) -> list:
        return []

    @property
    def time_range(self) -> Interval:
        return Interval(self.start_us, self.end_us)

    @property
    def key(self) -> str:
        return self.name

    @property
    def cpu_time_total(self) -> float:
        return self.end_us - self.start_us

    @property
    def cpu_time(self) -> float:
        return self.cpu_time_total

    @property
    def self_cpu_time_total(self) -> float:
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def self_cpu_memory_usage(self) -> int:
        return self.cpu_memory_usage - sum(c.cpu_memory_usage for c in self.cpu_children)

    cpu_time_str = property(lambda self: format_time(self.cpu_time))
    cpu_time_total_str = property(lambda self: format_time(self.cpu_time_total))
    self_cpu_time_total_str = property(lambda self: format_time(self.self_cpu_time_total))

    def __repr__(self) -> str:
        children = [c.id for c in self.cpu_children]
        return (
            f"<FunctionEvent id={self.id} name={self.name} overload_name= device_type="
            f"DeviceType.CPU node_id=-1 cpu_time={self.cpu_time_str} start_us="
            f"{self.start_us:.3f} end_us={self.end_us:.3f} cpu_children="
            f"{children} None_time=0.000us name={self.name} thread=1 input_shapes="
            f"{self.input_shapes} cpu_memory_usage={self.cpu_memory_usage} None_memory_usage=0 "
            f"is_async=False is_remote=False seq_nr={self.sequence_nr} is_legacy=False>"
        )


class FunctionEventAvg:
    """The events of one key (and input shapes, when grouped by them), summed."""

    device_time_total = self_device_time_total = cuda_time_total = self_cuda_time_total = 0
    device_time = cuda_time = 0.0
    device_memory_usage = self_device_memory_usage = flops = 0
    overload_name = ""
    use_device = None

    def __init__(self, key: str, input_shapes: Any = "") -> None:
        self.key = key
        self.input_shapes = input_shapes
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.cpu_children = None
        self.cpu_parent = None
        self.node_id = 0
        self.is_user_annotation = False
        self.is_async = False
        self.is_remote = False
        self.is_legacy = False
        self.stack: list = []

    def add(self, other: FunctionEvent | FunctionEventAvg) -> FunctionEventAvg:
        if not self.count:  # a top-level event's average is top-level (the first event's)
            self.cpu_parent = other.cpu_parent
            self.is_user_annotation = other.is_user_annotation
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        self.cpu_memory_usage += other.cpu_memory_usage
        self.self_cpu_memory_usage += other.self_cpu_memory_usage
        return self

    @property
    def cpu_time(self) -> float:
        return self.cpu_time_total / self.count if self.count else 0.0

    cpu_time_str = property(lambda self: format_time(self.cpu_time))
    cpu_time_total_str = property(lambda self: format_time(self.cpu_time_total))
    self_cpu_time_total_str = property(lambda self: format_time(self.self_cpu_time_total))

    def __repr__(self) -> str:
        return (
            f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
            f"cpu_time={self.cpu_time_str}  self_cuda_time=0.000us cuda_time=0.000us "
            f"input_shapes={self.input_shapes} cpu_memory_usage={self.cpu_memory_usage} "
            "cuda_memory_usage=0>"
        )


def _shapes_key(shapes: list) -> str:
    return str(shapes)


class EventList(list):
    """A list of events (`prof.events()`) or of averages (`key_averages()`)."""

    def __init__(self, events: Any = (), profile_memory: bool = False) -> None:
        super().__init__(events)
        self._profile_memory = profile_memory

    @property
    def self_cpu_time_total(self) -> float:
        return sum(e.self_cpu_time_total for e in self)

    def key_averages(
        self, group_by_input_shape: bool = False, group_by_stack_n: int = 0
    ) -> EventList:
        """The events grouped by name (and input shapes), in order of first appearance."""
        groups: dict = {}
        for event in self:
            shapes = event.input_shapes if group_by_input_shape else ""
            key = (event.key, _shapes_key(shapes) if group_by_input_shape else "")
            avg = groups.get(key)
            if avg is None:
                avg = groups[key] = FunctionEventAvg(event.key, shapes)
            avg.add(event)
        return EventList(groups.values(), self._profile_memory)

    def total_average(self) -> FunctionEventAvg:
        """All events summed, under the key "Total"."""
        total = FunctionEventAvg("Total")
        for event in self:
            total.add(event)
        return total

    def table(
        self,
        sort_by: str | None = None,
        row_limit: int = 100,
        max_src_column_width: int = 75,
        max_name_column_width: int = 55,
        max_shapes_column_width: int = 80,
        header: str | None = None,
        top_level_events_only: bool = False,
        time_unit: str | None = None,
    ) -> str:
        """The table PyTorch prints: one row per event, sorted by `sort_by` (largest first)."""
        rows = list(self)
        if top_level_events_only:
            rows = [e for e in rows if e.cpu_parent is None]
        if sort_by is not None:
            if type(sort_by) is not str or sort_by.startswith("_"):  # exact: no lying subclass
                raise AttributeError(f"'FunctionEventAvg' object has no attribute '{sort_by}'")
            rows.sort(key=lambda e: getattr(e, sort_by), reverse=True)
        return render_table(
            self,
            rows[:row_limit] if row_limit is not None and row_limit >= 0 else rows,
            max_name_column_width=max_name_column_width,
            max_shapes_column_width=max_shapes_column_width,
            header=header,
            top_level_events_only=top_level_events_only,
            profile_memory=self._profile_memory,
            time_unit=time_unit,
        )

    def export_chrome_trace(self, path: str) -> None:
        refuse_file_export("export_chrome_trace")

    def export_stacks(self, path: str, metric: str = "self_cpu_time_total") -> None:
        refuse_file_export("export_stacks")

    def __str__(self) -> str:
        return self.table()

    __repr__ = list.__repr__


def refuse_file_export(what: str) -> None:
    """Scripts cannot write files: the trace exports are refused with a plain error."""
    raise RuntimeError(
        f"{what}: scripts cannot write files; print the profile instead "
        "(prof.key_averages().table())"
    )


__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg", "Interval", "format_memory"]
