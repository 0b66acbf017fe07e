"""`torch.func.functional_call` and `stack_module_state`: modules as functions of their tensors."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .. import Tensor, stack
from .levels import wraps


def _merge(dicts: Any) -> dict:
    if isinstance(dicts, dict):
        return dict(dicts)
    if not isinstance(dicts, (list, tuple)) or not all(isinstance(d, dict) for d in dicts):
        raise ValueError(
            "Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
            f"{type(dicts)}"
        )
    merged: dict = {}
    for d in dicts:
        repeated = [key for key in d if key in merged]
        if repeated:
            raise ValueError(
                f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
                "ambiguous"
            )
        merged.update(d)
    return merged


def _slots(module: Any) -> dict[str, tuple[Any, str, str]]:
    """Every parameter and buffer name (tied ones under each of their names): (owner, table,
    attribute)."""
    found = {}
    for prefix, sub in module.named_modules(remove_duplicate=False):
        for table in ("_parameters", "_buffers"):
            for name, value in getattr(sub, table).items():
                if value is not None:
                    found[f"{prefix}.{name}" if prefix else name] = (sub, table, name)
    return found


def _with_tied(module: Any, given: dict, slots: dict) -> dict:
    """`given` plus the other names of each tied tensor that was given under one name."""
    by_tensor = {}
    for key, value in given.items():
        if key in slots:
            sub, table, name = slots[key]
            by_tensor[id(getattr(sub, table)[name])] = value
    result = dict(given)
    for key, (sub, table, name) in slots.items():
        original = getattr(sub, table)[name]
        if key not in result and id(original) in by_tensor:
            result[key] = by_tensor[id(original)]
    return result


def _check_strict(module: Any, given: dict, slots: dict) -> None:
    unexpected = sorted(key for key in given if key not in slots)
    missing = sorted(key for key in slots if key not in given)
    errors = []
    if unexpected:
        errors.append("Unexpected key(s): " + ", ".join(repr(k) for k in unexpected) + ".")
    if missing:
        errors.append("Missing key(s): " + ", ".join(repr(k) for k in missing) + ".")
    if errors:
        raise RuntimeError(
            f"Error(s) in reparametrizing for {type(module).__name__}:\n\t" + "\n\t".join(errors)
        )


@contextmanager
def _swapped(slots: dict, values: dict) -> Iterator[None]:
    saved = []
    try:
        for key, value in values.items():
            if key in slots:
                sub, table, name = slots[key]
                entries = getattr(sub, table)
                saved.append((entries, name, entries[name]))
                entries[name] = value
        yield
    finally:
        for entries, name, original in reversed(saved):
            entries[name] = original


def _check_module(module: Any) -> None:
    """Only real modules (nn is loaded when a script has one: nothing is imported here)."""
    module_class = getattr(sys.modules.get("autodiff_cli.engine.nn.module"), "Module", None)
    if module_class is None or not isinstance(module, module_class):
        raise TypeError(f"expected an nn.Module, got {type(module).__name__}")


def functional_call(
    module: Any,
    parameter_and_buffer_dicts: Any,
    args: Any = None,
    kwargs: dict | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """`module(*args, **kwargs)` with its parameters and buffers replaced by the given tensors
    for the duration of the call."""
    _check_module(module)
    given = _merge(parameter_and_buffer_dicts)
    for value in given.values():
        if not isinstance(value, Tensor):
            raise TypeError(f"{value!r} is not an instance of torch.Tensor")
    slots = _slots(module)
    if tie_weights:
        given = _with_tied(module, given, slots)
    if strict:
        _check_strict(module, given, slots)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _swapped(slots, given):
        return module(*args, **(kwargs or {}))


def stack_module_state(models: Any) -> tuple[dict, dict]:
    """The parameters (as new leaves requiring grad) and buffers of same-shaped `models`,
    stacked along a new first dimension."""
    models = list(models)
    for model in models:
        _check_module(model)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if len({m.training for m in models}) > 1:
        raise RuntimeError(
            "stack_module_state: Expected all models to have the same training/eval mode."
        )
    params = {
        name: stack([dict(m.named_parameters())[name].detach() for m in models]).requires_grad_(
            any(dict(m.named_parameters())[name].requires_grad for m in models)
        )
        for name, _ in models[0].named_parameters()
    }
    buffers = {
        name: stack([dict(m.named_buffers())[name] for m in models])
        for name, _ in models[0].named_buffers()
    }
    return params, buffers


def functionalize(func: Any, *, remove: str = "mutations") -> Any:
    """`torch.func.functionalize`: PyTorch rewrites `func`'s in-place ops for its compilers; run
    eagerly the result is `func`'s own (inputs mutated at the end, as PyTorch copies back)."""
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(
            f"functionalize(f, remove='mutations'): received invalid argument for remove={remove}."
            " Valid options are:\n     remove='mutations': all inplace and out= operators will be"
            " removed from the program, and replaced with their out-of-place equivalents.\n    "
            " remove='mutations_and_views': In addition to the above, all aliasing operators {view}"
            " will be replaced with their non-aliasing counterparts, {view}_copy.\n"
        )

    def functionalized(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    return wraps(func, functionalized)
