"""Custom `torch.autograd.Function` subclasses with static `forward`/`backward` (or `setup_context`).

As in PyTorch, the `ctx` handed to `forward` is the graph node itself: each subclass `Name` gets a
node class `NameBackward`, so `y.grad_fn.saved_tensors` and attributes set on `ctx` are visible on
`y.grad_fn`. The node calls the user's `backward`, checks what it returns (count, non-tensor
inputs, shapes) and reduces broadcast gradients as PyTorch does.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core import anomaly, saved_hooks
from ..core.apply import _edge
from ..core.grad_mode import GradMode, check_saveable, no_grad
from ..core.graph import Node
from ..core.saved_values import FREED_MESSAGE, _modified_message
from ..core.tensor import VIEW_OF_LEAF_MESSAGE, Tensor, _wrap
from ..profiler.recorder import function_range
from . import forward_rules

DIRTY_LEAF_MESSAGE = "a leaf Variable that requires grad has been used in an in-place operation."
DIRTY_NOT_RETURNED_MESSAGE = (
    "Some elements marked as dirty during the forward method were not returned as output. The "
    "inputs that are modified inplace must all be outputs of the Function."
)


class FunctionCtx:
    """What `forward`/`setup_context` may call on `ctx`; any other attribute is free to set."""

    def save_for_backward(self, *tensors: Any) -> None:
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(
                    "save_for_backward can only save variables, but argument "
                    f"{i} is of type {type(t).__name__}"
                )
        for t in tensors:
            if t is not None:
                check_saveable(t._vbox)
        self._to_save = tuple(
            (t, t._version_box(), t._version) if t is not None else (None, None, 0) for t in tensors
        )

    def save_for_forward(self, *tensors: Any) -> None:
        """Tensors `jvp` reads as `ctx.saved_tensors` (forward-mode AD)."""
        if not all(t is None or isinstance(t, Tensor) for t in tensors):
            raise AssertionError(
                "save_for_forward expects all arguments to be tensors; you should save "
                "non-tensors as attributes on ctx."
            )
        self._forward_saved = tensors

    @property
    def saved_tensors(self) -> tuple:
        if getattr(self, "_in_jvp", False):  # forward-mode AD: what save_for_forward kept
            return tuple(getattr(self, "_forward_saved", ()))
        if self._released:
            raise RuntimeError(FREED_MESSAGE)
        out = []
        for t, box, version in self._to_save:
            if isinstance(t, saved_hooks.Packed):  # saved under saved_tensors_hooks
                out.append(t.as_saved(self))
                continue
            if t is not None and box[0] != version:
                raise RuntimeError(_modified_message(t, box[0], version, self))
            out.append(t)
        return tuple(out)

    def mark_non_differentiable(self, *tensors: Any) -> None:
        self._non_differentiable.update(id(t) for t in tensors)

    def mark_dirty(self, *tensors: Any) -> None:
        self._dirty.update(id(t) for t in tensors)

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = bool(value)


class BackwardCFunction(Node, FunctionCtx):
    """Base of the `<Name>Backward` nodes (no `__slots__`: `ctx` attributes live in `__dict__`)."""

    _fn_cls: Any = None

    def __init__(self) -> None:
        super().__init__(())
        self._to_save: tuple = ()
        self._released = False
        self._non_differentiable: set = set()
        self._dirty: set = set()
        self._in_meta: tuple = ()
        self.needs_input_grad: tuple = ()
        self.materialize_grads = True
        self._saved = (None,)  # non-empty, so the backward pass calls `release` after running

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__name__} object at {id(self):#x}>"

    def release(self) -> None:
        self._released = True
        self._to_save = ()

    def _script_apply(self, *grads: Any) -> Any:
        """PyTorch's `node.apply(*grads)` on a custom Function's node (scripts read it as
        `apply`; this class's own `apply` is the backward pass's, on raw arrays): the
        Function's `backward` called with this node as its ctx, its result returned as is."""
        return self._fn_cls.backward(self, *grads)

    def apply(self, grads: list, backend: Any) -> list:
        wrapped = []
        for g, (shape, dtype) in zip(grads, self._meta[1]):
            if g is None and self.materialize_grads and dtype is not None:
                g = backend.zeros(shape, dtype)
            wrapped.append(None if g is None else backend.wrap(g))
        result = self._fn_cls.backward(self, *wrapped)
        if not isinstance(result, tuple):
            result = (result,)
        result = self._check_count(result)
        out = []  # one gradient per edge: the tensor inputs
        edges = iter(self.next_functions)
        for i, (r, meta) in enumerate(zip(result, self._in_meta)):
            if meta is not None:
                edge = next(edges)[0]
            if r is None:
                if meta is not None:
                    out.append(None)
                continue
            if meta is None:
                raise RuntimeError(
                    f"function {self.name()} returned a gradient different than None at "
                    f"position {i + 1}, but the corresponding forward input was not a Variable"
                )
            if edge is None:
                out.append(None)
                continue
            if not isinstance(r, Tensor):
                raise TypeError(
                    f"expected Tensor or None as gradient {i} of {self.name()}, "
                    f"but got {type(r).__name__}"
                )
            out.append(self._conform(r, i, meta, backend))
        return out

    def _check_count(self, result: tuple) -> tuple:
        expected = len(self._in_meta)  # one per input of forward, tensor or not
        if len(result) > expected and all(r is None for r in result[expected:]):
            result = result[:expected]
        if len(result) != expected:
            raise RuntimeError(
                f"function {self.name()} returned an incorrect number of gradients "
                f"(expected {expected}, got {len(result)})"
            )
        return result

    def _conform(self, grad: Tensor, index: int, meta: tuple, backend: Any) -> Any:
        """The gradient reduced to its input's shape (if it broadcasts to it) and dtype."""
        shape, dtype = meta
        got = tuple(grad._data.shape)
        if got != shape and not _expandable(shape, got):
            raise RuntimeError(
                f"Function {self.name()} returned an invalid gradient at index {index} - got "
                f"{list(got)} but expected shape compatible with {list(shape)}"
            )
        return backend.conform(backend.unwrap(grad), shape, dtype)


def _expandable(shape: tuple, target: tuple) -> bool:
    """True when a tensor of `shape` broadcasts to `target` (PyTorch's `is_expandable_to`)."""
    if len(shape) > len(target):
        return False
    return all(s == t or s == 1 for s, t in zip(reversed(shape), reversed(target)))


class FunctionMeta(type):
    """Gives every Function subclass its node class, `<Name>Backward`."""

    def __init__(cls, name: str, bases: tuple, ns: dict) -> None:
        super().__init__(name, bases, ns)
        node_cls = type(f"{name}Backward", (BackwardCFunction,), {"_fn_cls": cls})
        node_cls.__module__ = "torch.autograd.function"
        cls._backward_cls = node_cls


class Function(metaclass=FunctionMeta):
    """Subclass with static `forward(ctx, *args)` and `backward(ctx, *grads)`; call `.apply`."""

    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple, output: Any) -> Any:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    @classmethod
    def vjp(cls, ctx: Any, *grads: Any) -> Any:
        return cls.backward(ctx, *grads)

    @staticmethod
    def jvp(ctx: Any, *tangents: Any) -> Any:
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with "
            "forward mode AD."
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Runs `forward` without recording and makes its node the grad_fn of the outputs.
        Keyword arguments are first bound to `forward`'s parameters: its inputs are positional."""
        ctx = cls._backward_cls()
        separate_setup = cls.setup_context is not Function.setup_context
        if separate_setup:
            args, kwargs = _bind_with_defaults(cls.forward, args, kwargs)
        elif kwargs:
            args, kwargs = _bind_keywords(cls.forward, args, kwargs), {}
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        with no_grad(), forward_rules.suspended(), function_range(cls):
            if separate_setup:
                out = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, out)
            else:
                out = cls.forward(ctx, *args)
        if not (GradMode.enabled and any(ctx.needs_input_grad)):
            result = _without_graph(ctx, args, out)
        else:
            result = _connect(ctx, args, out)
            anomaly.note_new_node(ctx)  # anomaly mode: the forward trace
            hooks = saved_hooks.current_hooks()
            if hooks is not None and ctx._to_save:
                ctx._to_save = tuple(_packed(entry, *hooks) for entry in ctx._to_save)
        if forward_rules.Level.current is not None:  # forward AD: the tangents `jvp` gives
            forward_rules.custom_jvp(cls, ctx, args, out, result)
        return result


def _packed(entry: tuple, pack: Callable, unpack: Callable) -> tuple:
    """A `save_for_backward` entry passed through the saved-tensor hooks (None stays None)."""
    t = entry[0]
    if t is None:
        return entry
    return (saved_hooks.Packed(pack(t), unpack, t, False), None, 0)


def _signature(forward: Callable) -> inspect.Signature | None:
    try:
        return inspect.signature(forward)
    except (TypeError, ValueError):  # a callable without one
        return None


def _bind_with_defaults(forward: Callable, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """With `setup_context`, PyTorch binds every call to `forward`'s signature, defaults
    included: `setup_context` sees all the inputs (Python's own binding errors)."""
    signature = _signature(forward)
    if signature is None:
        return args, kwargs
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.args, bound.kwargs


def _bind_keywords(forward: Callable, args: tuple, kwargs: dict) -> tuple:
    """`args` followed by the keyword arguments in the order of `forward(ctx, ...)`'s parameters,
    as PyTorch binds them (defaults are not filled in; a keyword may not skip a parameter)."""
    signature = _signature(forward)
    if signature is None:
        raise TypeError("forward() does not take keyword arguments")
    params = list(signature.parameters.values())[1:]
    names = [p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD]
    end = len(args)
    for key in kwargs:
        if key not in names:
            raise TypeError(f"forward() got an unexpected keyword argument '{key}'")
        position = names.index(key)
        if position < len(args):
            raise TypeError(f"forward() got multiple values for argument '{key}'")
        end = max(end, position + 1)
    for position in range(len(args), end):
        if names[position] not in kwargs:
            raise TypeError(
                f"forward() missing required argument: '{names[position]}' (position {position})"
            )
    return args + tuple(kwargs[name] for name in names[len(args) : end])


def _connect(node: BackwardCFunction, args: tuple, out: Any) -> Any:
    """Makes `node` the grad_fn of the differentiable outputs of `forward`. Its edges are those
    of the tensor inputs only; other inputs have no edge (but their backward result is checked)."""
    node.next_functions = tuple(_edge(a) for a in args if isinstance(a, Tensor))
    node._in_meta = tuple(
        (a._data.shape, a._data.dtype) if isinstance(a, Tensor) else None for a in args
    )
    outputs = out if isinstance(out, tuple) else (out,)
    if node._dirty and not node._dirty <= {id(o) for o in outputs}:
        raise RuntimeError(DIRTY_NOT_RETURNED_MESSAGE)
    node._meta = (
        None,
        tuple(
            (o._data.shape, o._data.dtype) if isinstance(o, Tensor) else ((), None) for o in outputs
        ),
    )
    results = []
    for i, o in enumerate(outputs):
        if isinstance(o, Tensor):
            differentiable = (
                id(o) not in node._non_differentiable and np.asarray(o._data).dtype.kind == "f"
            )
            if id(o) in node._dirty:
                _check_dirty(o)
                o._bump_version()
            elif any(o is a for a in args):
                o = _alias(o, as_view=True)
            if differentiable:
                o._set_history(node, i)
        results.append(o)
    return tuple(results) if isinstance(out, tuple) else results[0]


def _alias(t: Tensor, as_view: bool) -> Tensor:
    """A new tensor sharing `t`'s data and version counter: what `apply` returns for an input
    that `forward` returned as it is (a view of it unless `t` is cut off from its graph)."""
    alias = _wrap(t._array())
    alias._vbox = t._version_box()
    if as_view:
        alias._base = t._base if t._base is not None else t
    return alias


def _without_graph(node: BackwardCFunction, args: tuple, out: Any) -> Any:
    """`apply`'s result when nothing is recorded (grad mode off, or no input requires grad):
    inputs returned as they are still come back as new tensors that do not require grad."""
    outputs = out if isinstance(out, tuple) else (out,)
    results = tuple(
        _alias(o, as_view=not o._requires_grad)
        if isinstance(o, Tensor) and id(o) not in node._dirty and any(o is a for a in args)
        else o
        for o in outputs
    )
    return results if isinstance(out, tuple) else results[0]


def _check_dirty(t: Tensor) -> None:
    """An input `forward` modified in place (`ctx.mark_dirty`) may not be a leaf requiring grad
    or a view of one."""
    if t._requires_grad and t._grad_fn is None:
        raise RuntimeError(DIRTY_LEAF_MESSAGE)
    base = t._base
    if base is not None and base._requires_grad and base._grad_fn is None:
        raise RuntimeError(VIEW_OF_LEAF_MESSAGE)


def once_differentiable(fn: Callable) -> Callable:
    """A backward that is not itself differentiable: it runs with gradient tracking off."""

    @functools.wraps(fn)
    def wrapper(ctx: Any, *grads: Any) -> Any:
        with no_grad():
            return fn(ctx, *grads)

    return wrapper


FunctionCtx.__module__ = Function.__module__ = "torch.autograd.function"


# the names PyTorch's torch.autograd.function offers that exist here (scripts see only these:
# the core's Node, GradMode and the profiler's ranges, imported above, are not its API)
__all__ = ["BackwardCFunction", "Function", "FunctionCtx", "FunctionMeta", "once_differentiable"]
