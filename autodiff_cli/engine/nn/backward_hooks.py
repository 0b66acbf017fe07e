"""Module backward hooks: `register_full_backward_hook`, `register_full_backward_pre_hook` and
the deprecated `register_backward_hook`, with PyTorch's observable behaviour.

With full hooks (or pre-hooks) a module call passes its positional tensor inputs, and then its
outputs, through an identity `autograd.Function`, `BackwardHookFunction` (so the outputs' grad_fn
is `BackwardHookFunctionBackward`). In backward the output-side node sees `grad_output` (None for
an output that got no gradient) and runs the pre-hooks, which may replace it; the input-side node
sees `grad_input` (one entry per positional argument: None for a non-tensor, zeros for a tensor
that got no gradient) and runs the full hooks, which may replace it. When no input requires grad
the full hooks run at the output side with `grad_input` all None.

The deprecated hook is a post-hook on the grad_fn of the module's first output tensor: it sees
that one node's gradients, whatever the module computed before it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..autograd.function import Function
from ..core.grad_mode import GradMode
from ..core.saved_values import legacy_type_name
from ..core.tensor import Tensor


class BackwardHookFunction(Function):
    """Identity on its tensor inputs; its backward hands the gradients to a `_CallState` side."""

    @staticmethod
    def forward(ctx: Any, side: Callable, materialize: bool, *tensors: Tensor) -> tuple:
        ctx._side = side
        ctx.mark_non_differentiable(*[t for t in tensors if not t.requires_grad])
        ctx.set_materialize_grads(materialize)
        return tensors

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple:
        return (None, None, *ctx._side(grads))


BackwardHookFunction.__module__ = "torch.autograd.function"


class _CallState:
    """One module call's hooks and what backward learns in between (grad_output)."""

    def __init__(self, module: Any, args: tuple, full: list) -> None:
        self.module = module
        self.full = full
        self.pre = list(module._backward_pre_hooks.values())
        self.arg_count = len(args)
        self.input_positions: list[int] = []
        self.output_positions: list[int] = []
        self.output_count = 0
        self.grad_output: tuple | None = None

    # -- forward ------------------------------------------------------------------------------
    def wrap_inputs(self, args: tuple) -> tuple:
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        if not GradMode.enabled or not any(args[i].requires_grad for i in positions):
            return args
        self.input_positions = positions
        wrapped = BackwardHookFunction.apply(
            self.inputs_backward, True, *(args[i] for i in positions)
        )
        args = list(args)
        for i, tensor in zip(positions, wrapped):
            args[i] = tensor
        return tuple(args)

    def wrap_outputs(self, result: Any) -> Any:
        single = isinstance(result, Tensor)
        if not single and not isinstance(result, tuple):
            return result  # PyTorch warns: the hooks are not called
        outputs = (result,) if single else result
        positions = [i for i, o in enumerate(outputs) if isinstance(o, Tensor)]
        if not GradMode.enabled or not any(outputs[i].requires_grad for i in positions):
            return result
        self.output_positions = positions
        self.output_count = len(outputs)
        wrapped = BackwardHookFunction.apply(
            self.outputs_backward, False, *(outputs[i] for i in positions)
        )
        outputs = list(outputs)
        for i, tensor in zip(positions, wrapped):
            outputs[i] = tensor
        return outputs[0] if single else tuple(outputs)

    # -- backward -----------------------------------------------------------------------------
    def outputs_backward(self, grads: tuple) -> tuple:
        grad_output = _spread(grads, self.output_positions, self.output_count)
        for hook in self.pre:
            result = hook(self.module, grad_output)
            if result is None:
                continue
            if len(result) != len(grad_output):
                raise RuntimeError(
                    "Backward pre hook returned an invalid number of grad_output, got "
                    f"{len(result)}, but expected {len(grad_output)}"
                )
            grad_output = tuple(result)
        self.grad_output = grad_output
        if not self.input_positions:
            self._without_inputs(grad_output)
        return tuple(grad_output[i] for i in self.output_positions)

    def _without_inputs(self, grad_output: tuple) -> None:
        grad_input = (None,) * self.arg_count
        for hook in self.full:
            result = hook(self.module, grad_input, grad_output)
            if result is not None and any(r is not None for r in result):
                raise RuntimeError(
                    "Backward hook for Modules where no input requires gradient should always "
                    "return None or None for all gradients."
                )

    def inputs_backward(self, grads: tuple) -> tuple:
        grad_output = self.grad_output
        if grad_output is None:  # the gradient did not come through the module's outputs
            return grads
        grad_input = _spread(grads, self.input_positions, self.arg_count)
        for hook in self.full:
            result = hook(self.module, grad_input, grad_output)
            if result is None:
                continue
            if len(result) != len(grad_input):
                raise RuntimeError(
                    "Backward hook returned an invalid number of grad_input, got "
                    f"{len(result)}, but expected {len(grad_input)}"
                )
            grad_input = tuple(result)
        return tuple(_checked(grad_input[i], g) for i, g in zip(self.input_positions, grads))


def _spread(grads: tuple, positions: list, count: int) -> tuple:
    """The gradients of the tensors at `positions` laid out over `count` slots (None elsewhere)."""
    out: list = [None] * count
    for i, g in zip(positions, grads):
        out[i] = g
    return tuple(out)


def _checked(new: Any, old: Any) -> Any:
    """A replacement gradient must keep the dtype and size of the one it replaces."""
    if new is None or old is None or new is old:
        return new
    if not isinstance(new, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
    if new.dtype != old.dtype:
        raise RuntimeError(
            "hook 'hook' has changed the type of value (was "
            f"{legacy_type_name(old._data.dtype)} got {legacy_type_name(new._data.dtype)})"
        )
    if tuple(new.shape) != tuple(old.shape):
        raise RuntimeError("hook 'hook' has changed the size of value")
    return new


def call_with_backward_hooks(module: Any, args: tuple, kwargs: dict, full: list) -> Any:
    """`module(*args, **kwargs)` with its full backward hooks and pre-hooks set up."""
    state = _CallState(module, args, full)
    args = state.wrap_inputs(args)
    output = module._call_forward(args, kwargs)
    return state.wrap_outputs(output)


def attach_legacy_hooks(module: Any, output: Any, hooks: list) -> None:
    """The deprecated hooks: post-hooks on the grad_fn of the first output tensor."""
    first = output
    while not isinstance(first, Tensor):
        if isinstance(first, dict) and first:
            first = next(iter(first.values()))
        elif isinstance(first, (list, tuple)) and first:
            first = first[0]
        else:
            return
    node = first.grad_fn
    if node is None:
        return
    for hook in hooks:
        node.register_hook(_legacy_wrapper(module, hook))


def _legacy_wrapper(module: Any, hook: Callable) -> Callable:
    def wrapper(grad_input: tuple, grad_output: tuple) -> Any:
        return hook(module, grad_input, grad_output)

    wrapper.__name__ = getattr(hook, "__name__", "<unknown>")
    return wrapper
