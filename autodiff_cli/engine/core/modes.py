"""Modes that watch every op call: forward-mode AD levels, profilers, inference mode, anomaly
mode's forward traces, saved-tensor hooks.

They cost nothing while none is on: the op entry points of `core/tensor.py` (`apply_op`,
`apply_binary`, `apply_unary`, `apply_inplace`, `fill_without_graph`) test one module flag,
`apply._OBSERVED`, which is True only while an observer is pushed here. Then every call goes
through the general `apply_op` / `apply_inplace` and through each observer, outermost first:

    def observer(call: OpCall, proceed: Callable[[], Any]) -> Any:
        ...  # before the op
        result = proceed()  # the next observer, then the op itself
        ...  # after: look at call.op, call.inputs, the result (Tensor or tuple) and its grad_fn
        return result

Calls nest: an op built from other ops, an in-place op (its out-of-place computation) and a
backward formula run under `create_graph` call `apply_op` again while the outer call runs;
`OpCall.depth` says how deep (0 for a call made by the script itself).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Observer = Callable[["OpCall", Callable[[], Any]], Any]

_observers: list[Observer] = []
_listeners: list[Callable[[bool], None]] = []
_depth = [0]
_suffixes: list[Callable[[Any], list[str]]] = []


class OpCall:
    """One op call as the observers see it. `target` is the Tensor an in-place op writes
    (None otherwise); `inputs` are the op's inputs (Tensors or Python numbers), the target
    first for an in-place op."""

    __slots__ = ("op", "inputs", "params", "target", "depth")

    def __init__(self, op: Any, inputs: tuple, params: dict | None, target: Any, depth: int):
        self.op = op
        self.inputs = inputs
        self.params = params
        self.target = target
        self.depth = depth

    @property
    def name(self) -> str:
        """The op's name as PyTorch's `aten::` name reads: `add`, `mm`, `tanh`, and `add_` for
        the in-place form."""
        name = self.op.name
        return name + "_" if self.target is not None and not name.endswith("_") else name


def push(observer: Observer) -> None:
    """Starts watching op calls (the innermost observer is the last pushed)."""
    _observers.append(observer)
    _changed()


def pop(observer: Observer) -> None:
    """Stops `observer` (the last equal one pushed)."""
    for i in range(len(_observers) - 1, -1, -1):
        if _observers[i] is observer or _observers[i] == observer:
            del _observers[i]
            break
    _changed()


def add_repr_suffixes(describe: Callable[[Any], list[str]]) -> None:
    """`describe(tensor)` gives a mode's items for a tensor's repr (forward AD's
    `tangent=...`); asked only while an observer is pushed."""
    _suffixes.append(describe)


def repr_suffixes(tensor: Any) -> list[str]:
    """The items every mode adds to `tensor`'s repr, after `grad_fn=`/`requires_grad=`."""
    return [item for describe in _suffixes for item in describe(tensor)]


def active() -> bool:
    return bool(_observers)


def on_change(listener: Callable[[bool], None]) -> None:
    """`listener(on)` is told when the first observer comes or the last goes (the entry points
    keep their flag this way, as a module global: the cheapest test there is)."""
    _listeners.append(listener)
    listener(bool(_observers))


def _changed() -> None:
    on = bool(_observers)
    for listener in _listeners:
        listener(on)


def observe(
    op: Any, inputs: tuple, params: dict | None, target: Any, run: Callable[[], Any]
) -> Any:
    """Runs `run()` (the op itself) through every observer."""
    observers = tuple(_observers)
    call = OpCall(op, inputs, params, target, _depth[0])

    def step(i: int) -> Any:
        if i == len(observers):
            return run()
        return observers[i](call, lambda: step(i + 1))

    _depth[0] += 1
    try:
        return step(0)
    finally:
        _depth[0] -= 1
