"""Profilers (torch.profiler, torch.autograd.profiler): what is recorded, the table's layout,
that profiling changes no value and leaves nothing behind, and what scripts may reach."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from script_runner import error_of, run

import autodiff_cli.engine as torch
from autodiff_cli.engine.autograd import profiler as legacy
from autodiff_cli.engine.core import apply, backward, modes
from autodiff_cli.engine.profiler import ProfilerAction, profile, record_function, schedule
from autodiff_cli.engine.profiler import recorder as recorder_module
from autodiff_cli.engine.profiler.table import format_memory, format_time


def _step(x, w):
    h = torch.tanh(x @ w + 1.0)
    return (h * h).sum()


def _inputs():
    x = torch.tensor(np.linspace(-1, 1, 6).reshape(2, 3))
    w = torch.tensor(np.linspace(0.5, -0.5, 12).reshape(3, 4), requires_grad=True)
    return x, w


def _nothing_left_on() -> bool:
    return not modes._observers and not backward.NODE_WATCH and apply._OBSERVED is False


def test_profiling_changes_no_value_and_leaves_nothing_on():
    x, w = _inputs()
    plain = _step(x, w)
    plain.backward()
    x2, w2 = _inputs()
    with profile() as prof:
        watched = _step(x2, w2)
        watched.backward()
    assert _nothing_left_on()
    assert watched.item() == plain.item()
    assert np.array_equal(w2.grad.numpy(), w.grad.numpy())
    names = [e.name for e in prof.events()]
    assert names[:5] == ["aten::mm", "aten::add", "aten::tanh", "aten::mul", "aten::sum"]
    assert "autograd::engine::evaluate_function: TanhBackward0" in names
    assert names[-1] == "torch::autograd::AccumulateGrad"


def test_an_error_inside_a_profile_stops_it():
    with pytest.raises(RuntimeError):
        with profile():
            torch.ones(2, 3) @ torch.ones(2, 3)
    assert _nothing_left_on()


def test_nested_profiles_both_record():
    x = torch.ones(3)
    with legacy.profile() as outer:
        x.exp()
        with profile() as inner:
            x.sin()
    assert [e.name for e in outer.function_events] == ["aten::exp", "aten::sin"]
    assert [e.name for e in inner.events()] == ["aten::sin"]
    assert _nothing_left_on()


def test_events_nest_and_self_time_excludes_children():
    x = torch.ones(4)
    with profile() as prof:
        with record_function("outer"):
            with record_function("inner"):
                x.exp()
            x.cos()
    outer, inner, exp, cos = prof.events()
    assert [c.name for c in outer.cpu_children] == ["inner", "aten::cos"]
    assert inner.cpu_parent is outer and exp.cpu_parent is inner and cos.cpu_parent is outer
    children = inner.cpu_time_total + cos.cpu_time_total
    assert outer.cpu_time_total >= children
    assert outer.self_cpu_time_total == pytest.approx(outer.cpu_time_total - children)
    assert [e.id for e in prof.events()] == [1, 2, 3, 4]


def test_backward_under_create_graph_records_the_formula_ops_inside_the_node():
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    with profile() as prof:
        y = (x * x).sum()
        (g,) = torch.autograd.grad(y, x, create_graph=True)
    node = next(e for e in prof.events() if e.name == "MulBackward0")
    assert node.cpu_parent.name == "autograd::engine::evaluate_function: MulBackward0"
    assert [c.name for c in node.cpu_children] and all(
        c.name.startswith("aten::") for c in node.cpu_children
    )
    assert g.grad_fn is not None


def test_record_function_decorator_and_shapes():
    @record_function("f")
    def f(a, b):
        return a * b + a

    with profile(record_shapes=True) as prof:
        f(torch.ones(2, 3), torch.ones(3))
    assert f.__name__ == "f"
    rows = [(e.key, e.count, e.input_shapes) for e in prof.key_averages(True)]
    assert rows == [
        ("f", 1, []),
        ("aten::mul", 1, [[2, 3], [3]]),
        ("aten::add", 1, [[2, 3], [2, 3], []]),
    ]


def test_aten_names_of_op_table_variants():
    x = torch.ones(2, 3)
    with profile() as prof:
        x * 2.0
        x.sum(0)
        x.add_(1.0)
        torch.softmax(x, 1)
        x.pow_(2)
        x.clamp_(0, 5)
    assert [e.name for e in prof.events()] == [
        "aten::mul",
        "aten::sum",
        "aten::add_",
        "aten::_softmax",
        "aten::pow_",  # PyTorch's in-place name, not the table's pow_scalar_
        "aten::clamp_",
    ]


def test_table_layout():
    with profile() as prof:
        with record_function("abc"):
            pass
    lines = prof.key_averages().table().splitlines()
    assert lines[0] == "-" * 7 + "  " + ("-" * 12 + "  ") * 6
    assert (
        lines[1]
        == "   Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg    # of Calls  "
    )
    assert lines[3].startswith("    abc       100.00%")
    assert lines[3].endswith("             1  ")
    assert lines[-1].startswith("Self CPU time total: ")
    assert format_time(12.3456) == "12.346us" and format_time(1234.5) == "1.234ms"
    assert format_time(1.2e6) == "1.200s"
    assert format_time(12064.533, "us") == "12064.533us" and format_time(12064.533, "s") == "0.012s"
    assert "Self CPU time total: " in prof.key_averages().table(time_unit="ms")
    assert lines[-1].split()[-1].endswith("us")
    assert prof.key_averages().table(time_unit="s").splitlines()[-1].endswith("0.000s")
    assert format_memory(0) == "0 B" and format_memory(-400000) == "-390.62 KB"
    assert format_memory(4_401_200) == "4.20 MB"


def test_memory_columns_count_new_storage_only():
    x = torch.ones(1000)
    with profile(profile_memory=True) as prof:
        y = x * 2.0
        y.add_(1.0)
        y.view(10, 100)
    mul, add_, view = prof.events()
    assert (mul.cpu_memory_usage, add_.cpu_memory_usage, view.cpu_memory_usage) == (4000, 0, 0)
    assert "CPU Mem  Self CPU Mem" in prof.key_averages().table()


def test_sort_by_refuses_private_names_and_unknown_keys():
    with profile() as prof:
        torch.ones(2).exp()
    with pytest.raises(AttributeError, match="has no attribute '_events'"):
        prof.key_averages().table(sort_by="_events")
    with pytest.raises(AttributeError, match="has no attribute 'bogus'"):
        prof.key_averages().table(sort_by="bogus")


def test_schedule_actions():
    s = schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1)
    assert [s(i).name for i in range(7)] == [
        "NONE", "NONE", "WARMUP", "RECORD", "RECORD_AND_SAVE", "NONE", "NONE",
    ]  # fmt: skip
    assert s(4) is ProfilerAction.RECORD_AND_SAVE
    with pytest.raises(AssertionError, match="active=0 \\(need > 0\\)"):
        schedule(wait=0, warmup=0, active=0)


def test_event_cap(monkeypatch):
    monkeypatch.setattr(recorder_module, "MAX_EVENTS", 5)
    x = torch.ones(2)
    with pytest.raises(RuntimeError, match="more than 5 events"):
        with profile():
            for _ in range(10):
                x.exp()
    assert _nothing_left_on()


def test_a_profile_left_running_ends_with_the_script():
    prof = profile()
    prof.start()
    assert apply._OBSERVED is True
    torch.reset_global_state()
    assert _nothing_left_on()


def _plain_values(obj, seen, depth=0):
    """Every value reachable through an event's public attributes."""
    if id(obj) in seen or depth > 6:
        return
    seen.add(id(obj))
    yield obj
    if isinstance(obj, (list, tuple)):
        for item in obj:
            yield from _plain_values(item, seen, depth + 1)
        return
    for name in dir(obj):
        if not name.startswith("_") and not callable(getattr(obj, name)):
            yield from _plain_values(getattr(obj, name), seen, depth + 1)


def test_events_hold_no_arrays_or_tensors():
    x = torch.ones(2, 3, requires_grad=True)
    with profile(record_shapes=True, profile_memory=True) as prof:
        (x * x).sum().backward()
    seen: set = set()
    for event in [*prof.events(), *prof.key_averages(), prof.key_averages().total_average()]:
        for value in _plain_values(event, seen):
            assert not isinstance(value, (np.ndarray, np.generic, torch.Tensor))


def test_scripts_reach_results_but_no_internals():
    source = (
        "import torch\nfrom torch.profiler import profile, record_function, ProfilerActivity\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "with profile(activities=[ProfilerActivity.CPU]) as prof:\n"
        "    with record_function('r') as r:\n"
        "        (x * 3).sum().backward()\n"
        "print([e.name for e in prof.events()][:3], ProfilerActivity.CPU)\n"
        "print(prof.key_averages()[0].key, type(prof.events()).__name__)\n"
    )
    assert run(source).splitlines() == [
        "['r', 'aten::mul', 'aten::sum'] ProfilerActivity.CPU",
        "r EventList",
    ]
    for attack in ("prof._events", "r._events", "prof.events()[0].__class__", "prof._rec"):
        error = error_of(source + f"print({attack})\n")
        assert error.type_name == "AttributeError"


def test_export_is_refused_without_traceback(tmp_path):
    path = tmp_path / "trace.py"
    path.write_text(
        "import torch\nwith torch.profiler.profile() as prof:\n    torch.ones(2).exp()\n"
        "prof.export_chrome_trace('trace.json')\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", str(path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 1
    assert "trace.py:4:" in result.stderr
    assert "RuntimeError: export_chrome_trace: scripts cannot write files" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "trace.json").exists()


def test_a_range_left_open_ends_when_its_profile_stops():
    prof = profile()
    prof.start()
    with record_function("outlives"):
        prof.stop()
        (event,) = prof.events()
        end = event.time_range.end
        torch.ones(3).exp()
    assert event.time_range.end == end and end >= event.time_range.start
    assert [e.name for e in prof.events()] == ["outlives"]
