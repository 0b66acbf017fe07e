"""`key_averages().table()` in PyTorch's layout: right-aligned columns of width 12 separated by
two spaces, the Name column as wide as the longest name plus 4 (at most 55, longer names cut
with "..."), dashed rules, an optional Input Shapes column, the "Self CPU time total" footer."""

from __future__ import annotations

from typing import Any

_COLUMN = 12
_KB, _MB, _GB = 1024, 1024**2, 1024**3


_UNITS = {"s": 1e6, "ms": 1e3, "us": 1.0}


def format_time(us: float, unit: str | None = None) -> str:
    """A duration in microseconds as PyTorch prints it: `12.345us`, `1.234ms`, `1.200s`, or
    always in `unit` ("s", "ms", "us")."""
    if unit in _UNITS:
        return f"{us / _UNITS[unit]:.3f}{unit}"
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


def format_memory(nbytes: int) -> str:
    """Bytes as PyTorch prints them: `0 B`, `390.62 KB`, `4.20 MB`, `1.00 GB`."""
    size = abs(nbytes)
    if size >= _GB:
        return f"{nbytes / _GB:.2f} GB"
    if size >= _MB:
        return f"{nbytes / _MB:.2f} MB"
    if size >= _KB:
        return f"{nbytes / _KB:.2f} KB"
    return f"{nbytes} B"


def _percent(part: float, whole: float) -> str:
    return f"{100.0 * part / whole if whole else 0.0:.2f}%"


def _cut(text: str, width: int) -> str:
    return text[: width - 3] + "..." if len(text) >= width - 3 else text


def render_table(
    events: list,
    rows: list,
    *,
    max_name_column_width: int,
    max_shapes_column_width: int,
    header: str | None,
    top_level_events_only: bool,
    profile_memory: bool,
    time_unit: str | None = None,
) -> str:
    """The text of the table of `rows` (widths and totals from all `events`)."""
    if not events:
        return ""
    name_width = min(max(len(e.key) for e in events) + 4, max_name_column_width)
    shapes = any(e.input_shapes for e in events)
    shapes_width = 0
    if shapes:
        longest = max(len(str(e.input_shapes)) for e in events)
        shapes_width = min(longest + 4, max_shapes_column_width)
    titles = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
    if profile_memory:
        titles += ["CPU Mem", "Self CPU Mem"]
    titles.append("# of Calls")
    widths = [name_width] + [_COLUMN] * len(titles) + ([shapes_width] if shapes else [])
    titles = ["Name", *titles] + (["Input Shapes"] if shapes else [])
    rule = "".join("-" * w + "  " for w in widths)
    line_length = sum(widths) + 2 * (len(widths) - 1)
    total = sum(e.self_cpu_time_total for e in events)
    lines = []
    if header is not None:
        lines += ["=" * line_length, header]
    if top_level_events_only:
        lines += ["=" * line_length, "This report only display top-level ops statistics"]
    lines += [rule, _row(titles, widths), rule]
    for event in rows:
        cells = _cells(event, total, name_width, shapes_width, profile_memory, time_unit)
        lines.append(_row(cells, widths))
    lines += [rule, f"Self CPU time total: {format_time(total, time_unit)}"]
    return "\n".join(lines) + "\n"


def _cells(
    event: Any, total: float, name_width: int, shapes_width: int, memory: bool, unit: str | None
) -> list:
    cells = [
        _cut(event.key, name_width),
        _percent(event.self_cpu_time_total, total),
        format_time(event.self_cpu_time_total, unit),
        _percent(event.cpu_time_total, total),
        format_time(event.cpu_time_total, unit),
        format_time(event.cpu_time, unit),
    ]
    if memory:
        cells += [format_memory(event.cpu_memory_usage), format_memory(event.self_cpu_memory_usage)]
    cells.append(str(event.count))
    if shapes_width:
        cells.append(str(event.input_shapes)[:shapes_width])
    return cells


def _row(cells: list, widths: list) -> str:
    return "".join(cell.rjust(width) + "  " for cell, width in zip(cells, widths))
