"""Saved-tensor hooks: `torch.autograd.graph.saved_tensors_hooks` and the `SavedTensor` objects
PyTorch shows as `grad_fn._raw_saved_self`.

While a `saved_tensors_hooks(pack, unpack)` context is on, an observer of `core/modes.py` sees
each op call; when the script's call returns, every node the call made is packed: each saved
tensor goes through `pack` (inputs in the order of their names, then the result, as PyTorch's
generated nodes save them) and the node keeps what `pack` returned. A packed node is given a
subclass of its own class (same name) whose `apply` unpacks first; so the backward pass, fast
path included, needs no check of its own. PyTorch checks no version of a value a hook packed:
neither does a packed node. Only what a formula of an input needing a gradient reads is packed
(PyTorch saves nothing else). Ops whose formulas take an index or mask in another form show the
tensor PyTorch saves (`_saved_index`, `_saved_mask`, nll_loss's `_saved_target`...) through
`shows_saved`, and pack it in its place in the order.
"""

from __future__ import annotations

import dis
import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from . import modes, saved_values
from .formula_backends import NumpyBackend
from .graph import AccumulateGrad, OpNode
from .saved_values import FREED_MESSAGE, RELEASED
from .tensor import Tensor, _wrap

ALREADY_SET_MESSAGE = (
    "Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only one "
    "pair of hooks is allowed at a time."
)
REGISTER_FREED_MESSAGE = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values "
    "of the graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if you need "
    "to access saved variables after calling backward."
)


class HookState:
    """The stack of (pack, unpack) pairs (the innermost is used) and, while
    `disable_saved_tensors_hooks` is on, its message."""

    stack: list[tuple[Callable, Callable]] = []
    disabled: str | None = None
    pending: list = []  # nodes made by the script's call under way
    packing = False  # True while a pack hook runs: the ops it calls are not packed
    deferring = 0  # inside an op noting what it shows (`shows_saved`): it packs when done


def push_hooks(pack: Callable, unpack: Callable) -> None:
    if HookState.disabled is not None:
        raise RuntimeError(HookState.disabled)
    HookState.stack.append((pack, unpack))
    if len(HookState.stack) == 1:
        modes.push(_observer)


def pop_hooks() -> None:
    if HookState.stack:
        HookState.stack.pop()
        if not HookState.stack:
            modes.pop(_observer)
            HookState.pending.clear()


def current_hooks() -> tuple[Callable, Callable] | None:
    return HookState.stack[-1] if HookState.stack else None


def _observer(call: Any, proceed: Callable[[], Any]) -> Any:
    if HookState.packing:
        return proceed()
    try:
        result = proceed()
    except BaseException:
        if call.depth == 0:
            HookState.pending.clear()
        raise
    outputs = result if isinstance(result, tuple) else (result,)
    for out in outputs:
        node = out._grad_fn if isinstance(out, Tensor) else None
        if node is not None and (node._saved or _kept_indices(node) is not None):
            if any(out is x for x in call.inputs):
                continue
            if not any(node is n for n in HookState.pending):
                HookState.pending.append(node)
    if call.depth == 0 and HookState.pending and not HookState.deferring:
        _flush()
    return result


def _flush() -> None:
    """Packs the nodes the script's call made."""
    nodes = list(HookState.pending)
    HookState.pending.clear()
    hooks = current_hooks()
    if hooks is not None:
        HookState.packing = True
        try:
            for node in nodes:
                pack_node(node, *hooks)
        finally:
            HookState.packing = False


# -- packed values -------------------------------------------------------------------------------


class Packed:
    """What `pack` returned for one saved value, with the unpack hook and what the unpacked
    tensor is given back as PyTorch does (requires_grad, grad_fn, output number of the original;
    `node` as grad_fn for a saved result)."""

    __slots__ = ("value", "unpack", "requires_grad", "grad_fn", "output_nr", "is_result")

    def __init__(self, value: Any, unpack: Callable, original: Any, is_result: bool) -> None:
        self.value = value
        self.unpack = unpack
        self.is_result = is_result
        if is_result:
            self.requires_grad, self.grad_fn, self.output_nr = True, None, 0
        else:
            self.requires_grad = original._requires_grad
            self.grad_fn = original._grad_fn
            self.output_nr = original._output_nr

    def tensor(self) -> Tensor:
        """The unpack hook's result (checked to be a Tensor)."""
        out = self.unpack(self.value)
        if not isinstance(out, Tensor):
            raise TypeError(
                "Output of saved tensor unpack_hook expected to be a Tensor but got result of "
                f"type {type(out).__name__}"
            )
        return out

    def as_saved(self, node: Any) -> Tensor:
        """`grad_fn._saved_<name>`: a new tensor on the unpacked data, with the original's
        autograd metadata (the unpacked tensor itself for an original not requiring grad)."""
        out = self.tensor()
        if self.is_result:
            return _wrap(out._data, True, node, 0)
        if not self.requires_grad:  # nothing to give it: the unpacked tensor itself
            return out
        return _wrap(out._data, self.requires_grad, self.grad_fn, self.output_nr)


def _saved_names(node: Any) -> list[str]:
    op = node.op
    return ["result" if what == "result" else op.arg_names[what] for what in op.saves]


def _kept_indices(node: Any) -> Tensor | None:
    """The indices tensor a node keeps among its parameters (sort, topk, max(dim)...), which
    PyTorch saves (and packs)."""
    x = node._x
    params = None if x is None else x.params
    indices = params.get("indices") if params else None
    return indices if isinstance(indices, Tensor) else None


def _shown_tensors(node: Any) -> dict:
    """The tensors the node shows besides its formulas' values (`shows_saved`), packed or not."""
    shown = saved_values.SHOWN_SAVED.get(node) if saved_values.SHOWN_SAVED else None
    if not shown:
        return {}
    return {k: v for k, v in shown.items() if isinstance(v, (Tensor, Packed)) or _tensors_in(v)}


def _tensors_in(value: Any) -> bool:
    """A tuple of tensors (and None), as IndexBackward0's indices."""
    return type(value) is tuple and any(isinstance(v, (Tensor, Packed)) for v in value)


def _pack_order(node: Any) -> list:
    """The saved values in PyTorch's order, inputs by name then the result: their indices, and
    the names of the tensors the node shows besides them."""
    names = _saved_names(node)
    keys: list = list(range(len(names)))
    keys += [k for k in _shown_tensors(node) if k not in names]

    def name(key: Any) -> str:
        return key if isinstance(key, str) else names[key]

    return sorted(keys, key=lambda k: (name(k) in _OUTPUTS, name(k)))


_OUTPUTS = frozenset({"result", "total_weight"})  # saved outputs: packed after the inputs


def _originals(node: Any) -> dict[int, Any]:
    """The input tensors behind saved values, by index (a node may keep a saved input as the
    Tensor itself, or as its array with the Tensor beside its version)."""
    found = {}
    for entry in node._versions or ():
        if len(entry) > 3 and entry[3] is not None:
            found[entry[0]] = entry[3]
    for i, value in enumerate(node._saved):
        if isinstance(value, Tensor):
            found[i] = value
    return found


_LOADS = frozenset({"LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_DEREF", "LOAD_CLOSURE"})
_formula_uses: dict[Any, frozenset | None] = {}


def _uses(formula: Any) -> frozenset | None:
    """Positions of the saved values `formula(B, g, *saved)` reads (None: it may read all)."""
    if formula in _formula_uses:
        return _formula_uses[formula]
    used = None
    code = getattr(formula, "__code__", None)
    if code is not None and not code.co_flags & inspect.CO_VARARGS:
        params = code.co_varnames[2 : code.co_argcount]
        loaded = {ins.argval for ins in dis.get_instructions(code) if ins.opname in _LOADS}
        used = frozenset(k for k, name in enumerate(params) if name in loaded)
    _formula_uses[formula] = used
    return used


def _needed(node: Any) -> set | None:
    """The saved values a formula of an input needing a gradient reads: PyTorch saves (and
    packs) only those. None: all of them."""
    op = node.op
    if op.variadic:
        return None
    needed: set = set()
    for formula, edge in zip(op.grads, node._next):
        if edge is None:
            continue
        used = _uses(formula)
        if used is None:
            return None
        needed |= used
    return needed


def pack_node(node: Any, pack: Callable, unpack: Callable, only: int | None = None) -> None:
    """Passes the saved tensors of `node` (or only its `only`-th) through `pack`."""
    if not isinstance(node, OpNode) or node._saved is RELEASED:
        return
    indices = _kept_indices(node) if only is None else None
    if indices is not None:  # sort, topk, max(dim)...: the indices they output
        saved_values.shown_values(node).setdefault("indices", indices)
    shown = _shown_tensors(node) if only is None else {}
    if not node._saved and not shown:
        return
    saved = list(node._saved)
    names = _saved_names(node)
    originals = _originals(node)
    needed = _needed(node) if only is None else None
    for i in _pack_order(node) if only is None else [only]:
        if isinstance(i, str):  # a tensor the node shows (an index op's index...)
            value = shown[i]
            if isinstance(value, Tensor):
                saved_values.shown_values(node)[i] = Packed(pack(value), unpack, value, False)
            elif type(value) is tuple:
                saved_values.shown_values(node)[i] = tuple(
                    Packed(pack(v), unpack, v, False) if isinstance(v, Tensor) else v for v in value
                )
            continue
        value = saved[i]
        if isinstance(value, Packed) or value is None or (needed is not None and i not in needed):
            continue
        if names[i] != "result" and i in originals:
            original = originals[i]
            arg = original if only is None else _wrap(original._data)
            saved[i] = Packed(pack(arg), unpack, original, False)
        elif names[i] == "result" and isinstance(value, (np.ndarray, np.generic)):
            arg = _wrap(value, True, node, 0) if only is None else _wrap(value)
            saved[i] = Packed(pack(arg), unpack, None, True)
    for i, original in originals.items():  # the others, as the formulas take them
        if not isinstance(saved[i], Packed):
            saved[i] = original
    node._saved = tuple(saved)
    node._versions = None
    if type(node).apply is not _packed_apply:
        node.__class__ = _packed_class(type(node))


def _unpacked(node: Any, backend: Any) -> tuple:
    """The node's saved values with each packed one unpacked, as its formulas take them."""
    out = list(node._saved)
    numpy = backend is NumpyBackend
    shown = _shown_tensors(node)
    for i in _pack_order(node):  # unpacked in the order they were packed, as PyTorch
        if isinstance(i, str):  # (the formulas take it in another form)
            for value in shown[i] if type(shown[i]) is tuple else (shown[i],):
                if isinstance(value, Packed):
                    value.tensor()
            continue
        value = out[i]
        if isinstance(value, Packed):
            t = value.tensor()
            out[i] = t._data if numpy or value.is_result else t
        elif numpy and isinstance(value, Tensor):
            out[i] = value._data
    return tuple(out)


def _packed_apply(self: Any, grads: list, backend: Any) -> list:
    packed = self._saved
    if packed is RELEASED:
        raise RuntimeError(FREED_MESSAGE)
    self._saved = _unpacked(self, backend)
    try:
        return OpNode.apply(self, grads, backend)
    finally:
        if self._saved is not RELEASED:
            self._saved = packed


def _packed_saved_attribute(self: Any, key: str) -> Any:
    shown = _shown_tensors(self).get(key)
    if isinstance(shown, Packed):
        return shown.as_saved(self)
    if type(shown) is tuple:
        return tuple(v.as_saved(self) if isinstance(v, Packed) else v for v in shown)
    names = _saved_names(self)
    if key in names:
        if self._saved is RELEASED:
            raise RuntimeError(FREED_MESSAGE)
        value = self._saved[names.index(key)]
        if isinstance(value, Packed):
            return value.as_saved(self)
    return OpNode.saved_attribute(self, key)


_packed_classes: dict[type, type] = {}


def _packed_class(cls: type) -> type:
    """`cls` with an `apply` that unpacks first (same name, so the node prints as before)."""
    sub = _packed_classes.get(cls)
    if sub is None:
        sub = _packed_classes[cls] = type(
            cls.__name__,
            (cls,),
            {
                "__slots__": (),
                "__module__": cls.__module__,
                "apply": _packed_apply,
                "saved_attribute": _packed_saved_attribute,
            },
        )
    return sub


# -- what index ops show as grad_fn._saved_<name> ---------------------------------------------


def shows_saved(**shown: str) -> Callable[[Callable], Callable]:
    """Decorates an op function whose node PyTorch shows with `_saved_<name>` values its
    formulas take in another form: `shows_saved(index="index", dim="dim")` notes the call's
    `index` argument (the Tensor itself) and `dim` (as PyTorch prints it: unsigned)."""

    def decorate(fn: Callable) -> Callable:
        params = list(inspect.signature(fn).parameters)
        where = {key: (arg, params.index(arg)) for key, arg in shown.items()}

        @functools.wraps(fn)
        def noting(*args: Any, **kwargs: Any) -> Any:
            hooked = bool(HookState.stack) and not HookState.packing
            if hooked:  # packs once the shown values are noted
                HookState.deferring += 1
            try:
                out = fn(*args, **kwargs)
            finally:
                if hooked:
                    HookState.deferring -= 1
            node = out._grad_fn if isinstance(out, Tensor) else None
            if node is not None and where:
                _note(node, where, args, kwargs)
            if hooked and not HookState.deferring:
                if node is not None and not any(node is n for n in HookState.pending):
                    HookState.pending.append(node)
                _flush()
            return out

        return noting

    return decorate


def _note(node: Any, where: dict, args: tuple, kwargs: dict) -> None:
    """Notes the arguments `where` names as what `node` shows (first noted kept)."""
    values = {}
    for key, (arg, pos) in where.items():
        value = kwargs[arg] if arg in kwargs else args[pos] if pos < len(args) else None
        if key == "dim" and isinstance(value, int) and value < 0:
            value += 2**64  # PyTorch shows the int64 dim as unsigned
        if isinstance(value, Tensor) or key == "dim":
            values[key] = value
    shown = saved_values.shown_values(node)
    for key, value in values.items():
        shown.setdefault(key, value)


def also_shows(out: Any, **values: Any) -> None:
    """Values `out`'s node shows that are none of its arguments (the total weight nll_loss
    computes, the indices of `x[idx]`); packed at once outside a `shows_saved` op."""
    node = out._grad_fn if isinstance(out, Tensor) else None
    if node is not None:
        saved_values.shown_values(node).update(values)
        if HookState.stack and not HookState.deferring and not HookState.packing:
            HookState.pending.append(node)  # (outside `shows_saved`: packed now)
            _flush()


# -- grad_fn._raw_saved_<name> -------------------------------------------------------------------


class SavedTensor:
    """One value a node saved (`grad_fn._raw_saved_self`): `register_hooks(pack, unpack)` packs
    it now and unpacks it whenever the backward pass or `_saved_self` reads it."""

    __slots__ = ("_node", "_index")

    def __init__(self, node: Any, index: int) -> None:
        self._node = node
        self._index = index

    def register_hooks(self, pack_hook: Callable, unpack_hook: Callable) -> None:
        if not callable(pack_hook) or not callable(unpack_hook):
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument types "
                "are supported:\n    1. (self: torch._C._autograd.SavedTensor, arg0: "
                "collections.abc.Callable, arg1: collections.abc.Callable) -> None\n"
            )
        node = self._node
        if node._saved is RELEASED:
            raise RuntimeError(REGISTER_FREED_MESSAGE)
        value = node._saved[self._index]
        if isinstance(value, Packed):
            raise RuntimeError(ALREADY_SET_MESSAGE)
        if value is None:
            raise RuntimeError("Calling register_hooks on an undefined saved tensor.")
        pack_node(node, pack_hook, unpack_hook, only=self._index)

    def __repr__(self) -> str:
        return f"<torch._C._autograd.SavedTensor object at {id(self):#x}>"


SavedTensor.__module__ = "torch._C._autograd"


def raw_saved(node: Any, key: str) -> SavedTensor:
    """`grad_fn._raw_saved_<key>` of an op-table node."""
    if isinstance(node, OpNode) and not isinstance(node, AccumulateGrad):
        names = _saved_names(node)
        if key in names:
            return SavedTensor(node, names.index(key))
    raise AttributeError(f"'{type(node).__name__}' object has no attribute '_raw_saved_{key}'")
