"""What a graph node shows of its saved values: `grad_fn._saved_<name>` (a saved input as the
Tensor itself, a saved result or number as a Tensor, a parameter as its value), the messages of
freed or modified saved values, and the names ops show besides their formulas' values.
`core/graph.py` gives every node class these properties."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from .dtypes import NAMES, legacy_type
from .grad_mode import AnomalyMode
from .tensor import Tensor, _wrap

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)

RELEASED = object()  # marks saved values freed after backward


def legacy_type_name(dtype: Any) -> str:
    """How PyTorch names a CPU tensor type in messages: `torch.FloatTensor`, and `CPUBoolType` for
    the types without a legacy class name."""
    name = str(dtype)
    if name == "bool":
        return "CPUBoolType"
    return f"torch.{legacy_type(name)}" if name in NAMES else f"CPU{name.capitalize()}Type"


def _forward_name(node: Any) -> str:
    """PyTorch names the op of a saved output without the Backward suffix: "output 0 of Exp"."""
    name = node.name()
    cut = name.rfind("Backward")
    return name[:cut] if cut > 0 else name


HINT = (
    "enable anomaly detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
ANOMALY_HINT = (  # with anomaly mode on, a warning above shows the forward trace
    "the backtrace further above shows the operation that failed to compute its gradient. The "
    "variable in question was changed in there or anywhere later. Good luck!"
)


def _modified_message(item: Any, version: int, expected: int, node: Any) -> str:
    """PyTorch's message for a saved tensor changed in place; `item` is a Tensor or the saved
    result array of `node` itself."""
    if hasattr(item, "grad_fn"):
        dtype_name, shape, fn, nr = item.dtype.name, item.shape, item.grad_fn, item._output_nr
    else:
        dtype_name, shape, fn, nr = str(item.dtype), item.shape, node, 0
    dims = ", ".join(str(s) for s in shape)
    origin = f", which is output {nr} of {_forward_name(fn)}," if fn is not None else ""
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [torch.{legacy_type(dtype_name)} [{dims}]]{origin} is at "
        f"version {version}; expected version {expected} instead. Hint: "
        + (ANOMALY_HINT if AnomalyMode.enabled else HINT)
    )


_SAVED_ALIASES = {"self_sym_sizes": "shape", "self_sizes": "shape"}


def _as_saved_tensor(value: Any, node: Any) -> Any:
    """Saved values as PyTorch shows them: Python numbers as wrapped 0-d tensors."""
    if value is None or isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float)):
        return _wrap(
            np.asarray(
                value,
                dtype=np.bool_
                if isinstance(value, bool)
                else np.int64
                if isinstance(value, int)
                else np.float64,
            )
        )
    return _wrap(value, node is not None, node, 0)


def saved_properties(op: Any, raw_saved: Callable[[Any, str], Any]) -> dict:
    """The `_saved_<name>` and `_raw_saved_<name>` properties of `op`'s node class: its saved
    values, its forward's parameters and the aliases PyTorch shows. `raw_saved(node, name)`
    gives the `SavedTensor` behind `_raw_saved_<name>` (`saved_hooks.raw_saved`, passed in by
    the op table: saved_hooks sits above this module)."""
    saved = ["result" if what == "result" else op.arg_names[what] for what in op.saves]
    found = {}
    for key in {*saved, *_parameter_names(op.forward), *_SAVED_ALIASES}:
        found["_saved_" + key] = saved_property(key)
    for key in saved:
        found["_raw_saved_" + key] = _raw_saved_property(key, raw_saved)
    return found


_properties: dict = {}  # one per name, shared by the node classes


def saved_property(key: str) -> property:
    """The property `grad_fn._saved_<key>`."""
    found = _properties.get("_saved_" + key)
    if found is None:
        found = _properties["_saved_" + key] = property(partial(_saved_value, key=key))
    return found


def _raw_saved_property(key: str, raw_saved: Callable[[Any, str], Any]) -> property:
    """The property `grad_fn._raw_saved_<key>` (one per name and reader)."""
    found = _properties.get("_raw_saved_" + key)
    if found is None or found.fget.func is not raw_saved:
        found = _properties["_raw_saved_" + key] = property(partial(raw_saved, key=key))
    return found


def _parameter_names(forward: Callable) -> tuple:
    """The names `forward` takes (an op's parameters are passed to it by name); a ufunc or
    builtin (`np.tanh`, `operator.mul`) takes none (read from the code: `inspect.signature`
    would cost start-up time)."""
    code = getattr(forward, "__code__", None) or getattr(
        getattr(forward, "__wrapped__", None), "__code__", None
    )
    if code is None:
        return ()
    return code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]


def _forward_defaults(forward: Callable) -> dict:
    """The default values of an op's parameters, as its forward declares them."""
    code = getattr(forward, "__code__", None)
    if code is None:
        return {}
    found = dict(forward.__kwdefaults__ or {})
    defaults = forward.__defaults__ or ()
    if defaults:
        names = code.co_varnames[: code.co_argcount]
        found.update(zip(names[len(names) - len(defaults) :], defaults))
    return found


def _saved_value(node: Any, key: str) -> Any:
    return node.saved_attribute(key)


def saved_attribute(self: Any, key: str) -> Any:
    """`grad_fn._saved_<key>`: a saved value (a Tensor, as PyTorch shows it) or parameter."""
    shown = SHOWN_SAVED.get(self) if SHOWN_SAVED else None
    if shown is not None and key in shown:
        return shown[key]
    op = self.op
    names = ["result" if what == "result" else op.arg_names[what] for what in op.saves]
    if key in names:
        if self._saved is RELEASED:
            raise RuntimeError(FREED_MESSAGE)
        i = names.index(key)
        value = self._saved[i]
        for index, _, _, tensor in self._versions or ():
            if index == i and tensor is not None:
                return tensor
        return _as_saved_tensor(value, self if key == "result" else None)
    params = self._params or {}
    key = _SAVED_ALIASES.get(key, key)
    if key not in params:  # a parameter left at its default (`x + y`: `_saved_alpha` is 1)
        params = _forward_defaults(op.forward)
    if key in params:
        value = params[key]
        return tuple(value) if isinstance(value, (list, tuple)) else value
    raise AttributeError(f"'{type(self).__name__}' object has no attribute '_saved_{key}'")


# `_saved_<name>` of values ops show besides their formulas' (core/saved_hooks.shows_saved and
# also_shows: tests/test_engine_saved_attributes.py checks every name they are given is here)
SHOWN_NAMES = (
    "condition",
    "dim",
    "dims",
    "index",
    "indices",
    "mask",
    "noise",
    "self",
    "shifts",
    "source",
    "target",
    "total_weight",
    "weight",
)

# what a node shows as `grad_fn._saved_<name>` besides its formulas' values (an index op's index
# Tensor and dim, noted by `saved_hooks.shows_saved`)
SHOWN_SAVED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def shown_values(node: Any) -> dict:
    """The values `node` shows besides its formulas' (`SHOWN_SAVED`), an empty dict at first."""
    shown = SHOWN_SAVED.get(node)
    if shown is None:
        shown = SHOWN_SAVED[node] = {}
    return shown
