"""Custom `torch.autograd.Function` subclasses with static `forward(ctx, ...)`/`backward(ctx, ...)`."""

from __future__ import annotations

from typing import Any

from ..grad_mode import GradMode, no_grad
from ..graph import NO_EDGE, Node
from ..tensor import Tensor, _wrap


class FunctionCtx:
    """The `ctx` object: `save_for_backward`, `saved_tensors`, `needs_input_grad`, free attributes."""

    def __init__(self) -> None:
        self._to_save: tuple = ()
        self._saved_versions: tuple = ()
        self._released = False
        self.needs_input_grad: tuple = ()
        self.materialize_grads = True
        self._non_differentiable: set = set()

    def save_for_backward(self, *tensors: Any) -> None:
        self._to_save = tensors
        self._saved_versions = tuple(t._version if isinstance(t, Tensor) else None for t in tensors)

    @property
    def saved_tensors(self) -> tuple:
        if self._released:
            from ..graph import FREED_MESSAGE

            raise RuntimeError(FREED_MESSAGE)
        return self._to_save

    def mark_non_differentiable(self, *tensors: Any) -> None:
        self._non_differentiable.update(id(t) for t in tensors)

    def mark_dirty(self, *tensors: Any) -> None:
        pass

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = bool(value)


class FunctionNode(Node):
    """The grad_fn of a custom Function's output, named `<ClassName>Backward`."""

    __slots__ = ("ctx", "fn_cls", "n_outputs", "out_meta")

    def apply(self, grads: list, backend: Any) -> list:
        ctx = self.ctx
        if ctx._released:
            from ..graph import FREED_MESSAGE

            raise RuntimeError(FREED_MESSAGE)
        wrapped = []
        for g, (shape, dt) in zip(grads, self.out_meta):
            if g is None:
                import numpy as np

                g = np.zeros(shape, dt) if ctx.materialize_grads else None
            wrapped.append(
                None if g is None else backend.wrap(g) if backend.creates_graph else _wrap(g)
            )
        with no_grad() if not backend.creates_graph else _enable():
            result = self.fn_cls.backward(ctx, *wrapped)
        if not isinstance(result, tuple):
            result = (result,)
        n = len(self.next_functions)
        if len(result) < n:
            raise RuntimeError(
                f"function {type(self).__name__} returned an incorrect number of gradients "
                f"(expected {n}, got {len(result)})"
            )
        out = []
        for (edge, _), r in zip(self.next_functions, result[:n]):
            if edge is None or r is None:
                out.append(None)
            else:
                out.append(r if backend.creates_graph else r._data)
        return out

    def release(self) -> None:
        self.ctx._released = True


class _enable:  # noqa: N801
    def __enter__(self) -> None:
        self._prev = GradMode.enabled
        GradMode.enabled = True

    def __exit__(self, *exc: Any) -> None:
        GradMode.enabled = self._prev


class FunctionMeta(type):
    def __init__(cls, name: str, bases: tuple, ns: dict) -> None:
        super().__init__(name, bases, ns)
        cls._backward_cls = type(f"{name}Backward", (FunctionNode,), {"__slots__": ()})


class Function(metaclass=FunctionMeta):
    """Subclass with static `forward(ctx, *args)` and `backward(ctx, *grads)`; call `.apply`."""

    @staticmethod
    def forward(ctx: FunctionCtx, *args: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def backward(ctx: FunctionCtx, *grads: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom autograd.Function "
            "to use it with backward mode AD."
        )

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        ctx = FunctionCtx()
        tensors = [a for a in args if isinstance(a, Tensor)]
        needs = GradMode.enabled and any(t._requires_grad for t in tensors)
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        with no_grad():
            out = cls.forward(ctx, *args, **kwargs)
        if not needs:
            return out
        outputs = out if isinstance(out, tuple) else (out,)
        node = cls._backward_cls(
            tuple(
                ((a._grad_fn or a._accumulator(), a._output_nr) if a._requires_grad else NO_EDGE)
                if isinstance(a, Tensor)
                else NO_EDGE
                for a in args
            )
        )
        node.ctx = ctx
        node._saved = (ctx,)  # released after backward unless retain_graph
        node.fn_cls = cls
        node.n_outputs = len(outputs)
        node.out_meta = tuple(
            (o._data.shape, o._data.dtype) if isinstance(o, Tensor) else ((), None) for o in outputs
        )
        node._meta = (None, node.out_meta)
        results = []
        for i, o in enumerate(outputs):
            if (
                isinstance(o, Tensor)
                and id(o) not in ctx._non_differentiable
                and o._data.dtype.kind == "f"
            ):
                if any(o is a for a in args):
                    o = _wrap(o._data)
                o._grad_fn = node
                o._output_nr = i
                o._requires_grad = True
            results.append(o)
        return tuple(results) if isinstance(out, tuple) else results[0]


class once_differentiable:  # noqa: N801
    def __new__(cls, fn: Any) -> Any:
        return fn
