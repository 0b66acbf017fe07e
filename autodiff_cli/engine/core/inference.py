"""Inference mode's machinery (the switch itself is `grad_mode.inference_mode`).

While inference mode is on, an observer of `core/modes.py` watches every op call: it runs the
op with gradient mode off (even under `enable_grad()`, as PyTorch records nothing there) and
makes each new tensor it returns an inference tensor, whose version counter is `NO_VERSION`
(views of a normal tensor keep their base's counter, as in PyTorch). Factories mark what they
make through `mark_new`. Nothing runs while the mode is off: the errors of inference tensors
used outside (in-place writes, saving for backward, `_version`) come from `NO_VERSION` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import modes
from .grad_mode import NO_VERSION, GradMode, InferenceMode, on_inference_switch
from .optable import tensor_methods
from .tensor import Tensor


def is_inference(input: Tensor) -> bool:
    """`Tensor.is_inference()` and `torch.is_inference(t)`."""
    if not isinstance(input, Tensor):
        raise TypeError(
            "is_inference(): argument 'input' (position 1) must be Tensor, not "
            f"{type(input).__name__}"
        )
    return input._vbox is NO_VERSION


def mark_new(t: Tensor) -> Tensor:
    """A tensor a factory just made: an inference tensor while inference mode is on."""
    if InferenceMode.enabled:
        t._vbox = NO_VERSION
    return t


def _mark_results(result: Any, inputs: tuple) -> None:
    for out in result if isinstance(result, tuple) else (result,):
        if isinstance(out, Tensor) and out._vbox is None:
            for x in inputs:
                if x is out:
                    break
            else:
                out._vbox = NO_VERSION


def _observe(call: modes.OpCall, proceed: Callable[[], Any]) -> Any:
    prev = GradMode.enabled
    GradMode.enabled = False
    try:
        result = proceed()
    finally:
        GradMode.enabled = prev
    if call.target is None:  # an in-place write keeps its target's kind
        _mark_results(result, call.inputs)
    return result


def _switched(enabled: bool) -> None:
    if enabled:
        modes.push(_observe)
    else:
        modes.pop(_observe)


on_inference_switch(_switched)

tensor_methods("core.inference", {"is_inference": is_inference})
