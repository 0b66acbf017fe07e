"""`torch.autograd.graph`: the `Node` base of every grad_fn, `GradientEdge`, saved-tensor hooks
(`saved_tensors_hooks`, `save_on_cpu`, `disable_saved_tensors_hooks`), `register_multi_grad_hook`
and `allow_mutation_on_saved_tensors` (engine/autograd/mutation.py)."""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from typing import Any

from ..core import backward as _backward
from ..core import graph as _graph
from ..core import saved_hooks as _saved
from ..core.edges import GradientEdge
from ..core.graph import accumulator
from ..core.tensor import Tensor
from .mutation import allow_mutation_on_saved_tensors


class _NodeMeta(abc.ABCMeta):
    """ABCMeta under the engine's name (scripts may hold the `Node` class)."""


class Node(metaclass=_NodeMeta):
    """Base of every grad_fn (an abstract class: the engine's nodes are registered with it)."""

    @abc.abstractmethod
    def name(self) -> str: ...

    @property
    @abc.abstractmethod
    def next_functions(self) -> tuple: ...

    @abc.abstractmethod
    def metadata(self) -> dict: ...

    @abc.abstractmethod
    def _input_metadata(self) -> list: ...

    @abc.abstractmethod
    def register_hook(self, fn: Callable) -> Any: ...

    @abc.abstractmethod
    def register_prehook(self, fn: Callable) -> Any: ...

    @abc.abstractmethod
    def _register_hook_dict(self, tensor: Any) -> None: ...

    @abc.abstractmethod
    def _sequence_nr(self) -> int: ...


for _cls in (Node, _NodeMeta):
    _cls.__module__ = "torch.autograd.graph"
Node.register(_graph.Node)


def get_gradient_edge(tensor: Tensor) -> GradientEdge:
    """The edge `tensor`'s gradient flows along: its grad_fn (or AccumulateGrad) and output."""
    if not tensor.requires_grad:
        raise RuntimeError(
            "It is not possible to get the gradient edge for a Tensor that does not require "
            "gradients"
        )
    if tensor._grad_fn is not None:
        return GradientEdge(tensor._grad_fn, tensor._output_nr)
    return GradientEdge(accumulator(tensor), 0)


class saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """While on, every tensor saved for backward goes through `pack_hook`, and the backward pass
    (or `grad_fn._saved_*`) reads `unpack_hook(packed)` instead."""

    def __init__(self, pack_hook: Callable, unpack_hook: Callable) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> None:
        _saved.push_hooks(self.pack_hook, self.unpack_hook)

    def __exit__(self, *args: Any) -> None:
        _saved.pop_hooks()


saved_tensors_hooks.__module__ = "torch.autograd.graph"


def _pack_to_cpu(tensor: Tensor) -> tuple:
    return (tensor.device, tensor.cpu())


def _unpack_from_cpu(packed: tuple) -> Tensor:
    device, tensor = packed
    return tensor.to(device)


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    """Saved tensors are kept on the CPU (where every tensor of the engine already is)."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        super().__init__(_pack_to_cpu, _unpack_from_cpu)


save_on_cpu.__module__ = "torch.autograd.graph"


class _DisableSavedTensorsHooks:
    """`disable_saved_tensors_hooks(message)`: entering `saved_tensors_hooks` inside raises
    RuntimeError(message), as does entering this while hooks are on; also a decorator."""

    def __init__(self, error_message: str) -> None:
        self.error_message = error_message
        self._previous: str | None = None

    def __enter__(self) -> None:
        if _saved.HookState.stack:
            raise RuntimeError(self.error_message)
        self._previous = _saved.HookState.disabled
        _saved.HookState.disabled = self.error_message

    def __exit__(self, *args: Any) -> None:
        _saved.HookState.disabled = self._previous

    def __call__(self, fn: Callable) -> Callable:
        def decorated(*args: Any, **kwargs: Any) -> Any:
            with _DisableSavedTensorsHooks(self.error_message):
                return fn(*args, **kwargs)

        return decorated


def disable_saved_tensors_hooks(error_message: str) -> _DisableSavedTensorsHooks:
    """A context manager (or decorator) under which saved-tensor hooks raise `error_message`."""
    return _DisableSavedTensorsHooks(error_message)


for _obj in (_DisableSavedTensorsHooks, disable_saved_tensors_hooks):
    _obj.__module__ = "torch.autograd.graph"


class _MultiHandle:
    """What `register_multi_grad_hook` returns: `remove()` takes every tensor's hook out."""

    def __init__(self, handles: tuple) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()

    def __repr__(self) -> str:
        return f"<torch.autograd.graph._MultiHandle object at {id(self):#x}>"


_MultiHandle.__module__ = "torch.autograd.graph"


def register_multi_grad_hook(
    tensors: Sequence[Tensor], fn: Callable, *, mode: str = "all"
) -> _MultiHandle:
    """`fn(grads)` once per backward pass, after every tensor of `tensors` the pass reaches has
    its gradient (None for the others), or with `mode="any"`, `fn(grad)` with the first."""
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    state: dict = {"pass": None, "grads": [], "left": 0}
    if mode == "any":

        def any_hook(grad: Any) -> None:
            current = _backward.current_pass()
            if state["pass"] is not current:
                state["pass"] = current
                fn(grad)

        return _MultiHandle(tuple(t.register_hook(any_hook) for t in tensors))

    def hook_for(i: int) -> Callable:
        def hook(grad: Any) -> None:
            current = _backward.current_pass()
            if state["pass"] is not current:
                state["pass"] = current
                state["grads"] = [None] * len(tensors)
                state["left"] = sum(1 for t in tensors if _backward.will_run(current, t))
            state["grads"][i] = grad
            state["left"] -= 1
            if state["left"] == 0:
                grads, state["grads"] = state["grads"], []
                fn(grads)

        return hook

    return _MultiHandle(tuple(t.register_hook(hook_for(i)) for i, t in enumerate(tensors)))


def increment_version(tensor: Any) -> None:
    """Bumps the version counter of a tensor (or of each tensor of an iterable), as an in-place
    write would."""
    if isinstance(tensor, Tensor):
        tensor._bump_version()
        return
    try:
        tensors = list(tensor)
    except TypeError:
        tensors = None
    if tensors is None or not all(isinstance(t, Tensor) for t in tensors):
        raise RuntimeError("increment_version expect a Iterable[Tensor] as input")
    for t in tensors:
        t._bump_version()


__all__ = [
    "Node",
    "GradientEdge",
    "get_gradient_edge",
    "saved_tensors_hooks",
    "save_on_cpu",
    "disable_saved_tensors_hooks",
    "register_multi_grad_hook",
    "allow_mutation_on_saved_tensors",
    "increment_version",
]
