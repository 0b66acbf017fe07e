"""Custom `torch.autograd.Function` subclasses with static `forward`/`backward` (or `setup_context`).

As in PyTorch, the `ctx` handed to `forward` is the graph node itself: each subclass `Name` gets a
node class `NameBackward`, so `y.grad_fn.saved_tensors` and attributes set on `ctx` are visible on
`y.grad_fn`. The node calls the user's `backward`, checks what it returns (count, non-tensor
inputs, shapes) and reduces broadcast gradients as PyTorch does.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from ..grad_mode import GradMode, no_grad
from ..graph import FREED_MESSAGE, NO_EDGE, Node, _modified_message
from ..tensor import Tensor, _edge, _wrap, leaf_inplace_error


class FunctionCtx:
    """What `forward`/`setup_context` may call on `ctx`; any other attribute is free to set."""

    def save_for_backward(self, *tensors: Any) -> None:
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(
                    "save_for_backward can only save variables, but argument "
                    f"{i} is of type {type(t).__name__}"
                )
        self._to_save = tuple(
            (t, t._version_box(), t._version) if t is not None else (None, None, 0) for t in tensors
        )

    @property
    def saved_tensors(self) -> tuple:
        if self._released:
            raise RuntimeError(FREED_MESSAGE)
        out = []
        for t, box, version in self._to_save:
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
        out = []
        for i, ((edge, _), r, meta) in enumerate(zip(self.next_functions, result, self._in_meta)):
            if r is None:
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
        expected = len(self.next_functions)
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
        value = grad if backend.creates_graph else grad._data
        return backend.conform(value, shape, dtype)


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

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        separate_setup = cls.setup_context is not Function.setup_context
        with no_grad():
            if separate_setup:
                out = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, out)
            else:
                out = cls.forward(ctx, *args, **kwargs)
        if not (GradMode.enabled and any(ctx.needs_input_grad)):
            return out
        return _connect(ctx, args, out)


def _connect(node: BackwardCFunction, args: tuple, out: Any) -> Any:
    """Makes `node` the grad_fn of the differentiable outputs of `forward`."""
    node.next_functions = tuple(_edge(a) if isinstance(a, Tensor) else NO_EDGE for a in args)
    node._in_meta = tuple(
        (a._data.shape, a._data.dtype) if isinstance(a, Tensor) else None for a in args
    )
    outputs = out if isinstance(out, tuple) else (out,)
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
                if o._requires_grad and o._grad_fn is None:
                    raise leaf_inplace_error(o)
                o._bump_version()
            elif any(o is a for a in args):
                alias = _wrap(o._array())
                alias._vbox = o._version_box()
                alias._base = o._base if o._base is not None else o
                o = alias
            if differentiable:
                o.set_history(node, i)
        results.append(o)
    return tuple(results) if isinstance(out, tuple) else results[0]


def once_differentiable(fn: Callable) -> Callable:
    """A backward that is not itself differentiable: it runs with gradient tracking off."""

    @functools.wraps(fn)
    def wrapper(ctx: Any, *grads: Any) -> Any:
        with no_grad():
            return fn(ctx, *grads)

    return wrapper


FunctionCtx.__module__ = Function.__module__ = "torch.autograd.function"
