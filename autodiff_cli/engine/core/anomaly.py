"""Anomaly mode's machinery (`torch.autograd.detect_anomaly`, `set_detect_anomaly`).

While the mode is on (`set_anomaly_enabled`), two watchers run, and nothing otherwise:
- forward: an observer of `core/modes.py` gives every node an op call makes the stack of the
  call that made it, as PyTorch does, in `grad_fn.metadata["traceback_"]` (formatted as
  Python's `traceback.format_list`), and a node made while the backward pass runs another
  node (`create_graph`) that node as `metadata["parent_"]`;
- backward: a node watcher of `core/backward.py` (`NODE_WATCH`) checks each node's input
  gradients for NaN (`check_nan`) and, when running a node fails, warns with the stack
  recorded when the node was made before the error goes on.
The stack comes from the source the mode was switched on with (`set_anomaly_enabled`'s
`stack_source`, kept while the mode is on): by default Python's stack outside this package
(`python_stack`); the script language switches the mode through switches made with its own
source, its script's statements (`autograd/anomaly_mode.py`'s `anomaly_switches`).
"""

from __future__ import annotations

import linecache
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from . import backward, graph, modes
from .grad_mode import AnomalyMode
from .tensor import Tensor

_TRIGGERED = " (Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/{}.)"
_ANOMALY_CPP = "python_anomaly_mode.cpp:{}"
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (filename, line, function name, source line) per frame, outermost first
StackEntry = tuple[str, int, str, str]


def python_stack() -> list[StackEntry]:
    """The Python frames calling into the engine (this package's own left out)."""

    entries = []
    frame = sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if not os.path.abspath(code.co_filename).startswith(_PACKAGE_DIR):
            line = linecache.getline(code.co_filename, frame.f_lineno)
            entries.append((code.co_filename, frame.f_lineno, code.co_name, line))
        frame = frame.f_back
    entries.reverse()
    return entries


StackSource = Callable[[], list[StackEntry]]


class _Mode:
    """Where forward traces come from while the mode is on (`set_anomaly_enabled`)."""

    stack_source: StackSource = python_stack


def format_stack(entries: list[StackEntry]) -> list[str]:
    """As Python's `traceback.format_list`: `  File "f", line n, in name` and the source."""
    out = []
    for filename, line, name, source in entries:
        text = f'  File "{filename}", line {line}, in {name}\n'
        source = source.strip()
        if source:
            text += f"    {source}\n"
        out.append(text)
    return out


# -- switching the mode ---------------------------------------------------------------------------


def _bool_argument(value: Any, name: str, position: int) -> bool:
    if value.__class__ is not bool:
        raise TypeError(
            f"set_anomaly_enabled(): argument '{name}' (position {position}) must be bool, not "
            f"{type(value).__name__}"
        )
    return value


def current_stack_source() -> StackSource:
    """Where forward traces come from now (what a switch restores on exit)."""
    return _Mode.stack_source


def set_anomaly_enabled(
    enabled: Any, check_nan: Any = True, stack_source: StackSource = python_stack
) -> None:
    """Turns anomaly mode on or off (the arguments checked as PyTorch checks them); while on,
    forward traces come from `stack_source`."""
    enabled = _bool_argument(enabled, "enabled", 1)
    check_nan = _bool_argument(check_nan, "check_nan", 2)
    was = AnomalyMode.enabled
    AnomalyMode.enabled = enabled
    AnomalyMode.check_nan = check_nan
    _Mode.stack_source = stack_source
    if enabled and not was:
        modes.push(_record)
        backward.watch_nodes(_watch)
    elif was and not enabled:
        modes.pop(_record)
        backward.stop_watching_nodes(_watch)


# -- the switches: `torch.autograd.detect_anomaly` and `set_detect_anomaly` -----------------------

ENABLED_WARNING = (
    "Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
    "enabled for debugging."
)
_MODULE = "torch.autograd.anomaly_mode"


def anomaly_switches(stack_source: StackSource) -> tuple[type, type]:
    """`detect_anomaly` and `set_detect_anomaly` recording forward traces from `stack_source`."""

    class detect_anomaly:  # noqa: N801
        """Context manager that turns anomaly detection on: NaN checks in backward, and the trace
        of the forward call behind a failing node."""

        def __init__(self, check_nan: Any = True) -> None:
            self.prev = AnomalyMode.enabled
            self.check_nan = check_nan
            self.prev_check_nan = AnomalyMode.check_nan
            self.prev_source = current_stack_source()
            warnings.warn(ENABLED_WARNING, UserWarning, stacklevel=2)

        def __enter__(self) -> None:
            set_anomaly_enabled(True, self.check_nan, stack_source)

        def __exit__(self, *args: Any) -> None:
            set_anomaly_enabled(self.prev, self.prev_check_nan, self.prev_source)

        def __repr__(self) -> str:
            return f"<torch.autograd.anomaly_mode.detect_anomaly object at {id(self):#x}>"

    class set_detect_anomaly:  # noqa: N801
        """Sets anomaly detection on or off at once; as a context manager, restores the previous
        state on exit."""

        def __init__(self, mode: Any, check_nan: Any = True) -> None:
            self.prev = AnomalyMode.enabled
            self.prev_check_nan = AnomalyMode.check_nan
            self.prev_source = current_stack_source()
            set_anomaly_enabled(mode, check_nan, stack_source)

        def __enter__(self) -> None:
            pass

        def __exit__(self, *args: Any) -> None:
            set_anomaly_enabled(self.prev, self.prev_check_nan, self.prev_source)

        def __repr__(self) -> str:
            return f"<torch.autograd.anomaly_mode.set_detect_anomaly object at {id(self):#x}>"

    for cls in (detect_anomaly, set_detect_anomaly):
        cls.__module__ = _MODULE
        cls.__qualname__ = cls.__name__
    return detect_anomaly, set_detect_anomaly


# -- forward: where each node was made ------------------------------------------------------------

_running: list = [None]  # the node the backward pass runs now (the parent of nodes it makes)


def _record(call: modes.OpCall, proceed: Callable[[], Any]) -> Any:
    start = graph._next_seq()  # every node made by this call is numbered after it
    result = proceed()
    roots = [out._grad_fn for out in (result if isinstance(result, tuple) else (result,))
             if isinstance(out, Tensor) and out._grad_fn is not None]  # fmt: skip
    if call.target is not None and call.target._grad_fn is not None:
        roots.append(call.target._grad_fn)
    new = _new_nodes(roots, start)
    if new:
        _annotate(new)
    return result


def note_new_node(node: Any) -> None:
    """A node made outside the op machinery (a custom Function's) gets its trace as well."""
    if AnomalyMode.enabled:
        _annotate([node])


def _annotate(nodes: list) -> None:
    trace = format_stack(_Mode.stack_source())
    parent = _running[0]
    for node in nodes:
        metadata = node.metadata
        metadata["traceback_"] = list(trace)
        if parent is not None:
            metadata["parent_"] = parent


def _new_nodes(roots: list, start: int) -> list:
    """The nodes reached from `roots` that were made after `start` and have no trace yet."""
    new: list = []
    seen: set = set()
    stack = list(roots)
    while stack:
        node = stack.pop()
        if node is None or node in seen or node._seq <= start:
            continue
        seen.add(node)
        if node.__class__ is graph.AccumulateGrad:
            continue
        if "traceback_" not in node.metadata:
            new.append(node)
        stack.extend(node._next)
    return new


# -- backward: checking each node ---------------------------------------------------------------


def _watch(node: Any, grads: list, run: Callable[[], Any]) -> Any:
    previous = _running[0]
    _running[0] = node
    try:
        outs = run()
        if AnomalyMode.check_nan and outs:
            _check_nan(node, outs)
    except Exception:
        _warn_trace(node)
        raise
    finally:
        _running[0] = previous
    return outs


def _check_nan(node: Any, outs: Any) -> None:
    for i, g in enumerate(outs):
        if g is None:
            continue
        data = g._data if isinstance(g, Tensor) else np.asarray(g)
        if data.dtype.kind in "fc" and np.isnan(data).any():
            raise RuntimeError(f"Function '{node.name()}' returned nan values in its {i}th output.")


def _trace_of(node: Any) -> list | None:
    return node.metadata.get("traceback_")


def _warn_trace(node: Any) -> None:
    """PyTorch's warnings for a node whose backward failed: the stack of the forward call that
    made it, then that of each node whose backward made it (create_graph)."""
    trace = _trace_of(node)
    if trace is None:
        warnings.warn(
            f"Error detected in {node.name()}. No forward pass information available. Enable "
            "detect anomaly during forward pass for more information."
            + _TRIGGERED.format(_ANOMALY_CPP.format(100)),
            UserWarning,
            stacklevel=3,
        )
        return
    warnings.warn(
        f"Error detected in {node.name()}. Traceback of forward call that caused the error:\n"
        + "".join(trace)
        + _TRIGGERED.format(_ANOMALY_CPP.format(122)),
        UserWarning,
        stacklevel=3,
    )
    seen = {id(node)}
    parent = node.metadata.get("parent_")
    while parent is not None and id(parent) not in seen:
        seen.add(id(parent))
        trace = _trace_of(parent)
        if trace is None:
            break
        warnings.warn(
            f"\n\nPrevious calculation was induced by {parent.name()}. Traceback of forward call "
            "that induced the previous calculation:\n"
            + "".join(trace)
            + _TRIGGERED.format(_ANOMALY_CPP.format(129)),
            UserWarning,
            stacklevel=3,
        )
        parent = parent.metadata.get("parent_")
