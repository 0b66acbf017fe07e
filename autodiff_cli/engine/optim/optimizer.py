"""`Optimizer`: parameter groups, per-parameter state, `zero_grad`, `step`, `state_dict`."""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..core.grad_mode import enable_grad
from ..core.tensor import Tensor, _wrap
from ..nn.module import zero_param_grad
from ..nn.parameter import typename
from ..profiler.recorder import optimizer_range
from ..pytorch_home import print_from


class defaultdict(collections.defaultdict):  # noqa: N801 - printed as PyTorch's `defaultdict(...)`
    """`collections.defaultdict` (same repr), defined here so scripts may call its methods."""


class _RequiredParameter:
    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


_LABELS = {"lr": "learning rate", "eps": "epsilon value"}


def check_non_negative(**values: float) -> None:
    """PyTorch's `Invalid ...` ValueError for the first of `values` (in order) below 0 or NaN."""
    for name, value in values.items():
        if not 0.0 <= value:
            raise ValueError(f"Invalid {_LABELS.get(name, name + ' value')}: {value}")


def lerp_(target: Tensor, end: np.ndarray, weight: float) -> np.ndarray:
    """`target.lerp_(end, weight)` (the formula for a weight below 0.5); the new value."""
    average = np.asarray(target._data)
    Optimizer._write(target, average + weight * (end - average))
    return np.asarray(target._data)


def square_average_(target: Tensor, grad: np.ndarray, beta: float) -> np.ndarray:
    """`target.mul_(beta).addcmul_(grad, grad, value=1 - beta)`; the new value."""
    Optimizer._write(target, np.asarray(target._data) * beta + (1 - beta) * grad * grad)
    return np.asarray(target._data)


class Optimizer:
    """Base class: subclasses give `defaults` and implement `_update(group, params)`."""

    def __init__(self, params: Any, defaults: dict) -> None:
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                "dicts, but got " + typename(params)
            )
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict] = []
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict) -> None:
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    + typename(param)
                )
            if not (param.is_leaf or param._retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    "parameter group didn't specify a value of required optimization parameter "
                    + name
                )
            param_group.setdefault(name, default)
        existing = {id(p) for group in self.param_groups for p in group["params"]}
        if any(id(p) in existing for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    @optimizer_range
    def zero_grad(self, set_to_none: bool = True) -> None:
        for group in self.param_groups:
            for param in group["params"]:
                zero_param_grad(param, set_to_none)

    @optimizer_range
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        self._opt_called = True  # read by the lr schedulers' "step order" warning
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            params = [p for p in group["params"] if p._grad is not None]
            if params:
                self._update(group, params)
        return loss

    def _update(self, group: dict, params: list) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- helpers for the subclasses -----------------------------------------------------------
    _buffers: tuple[str, ...] = ()

    def _initial_state(self, param: Tensor, group: dict) -> dict:
        """A parameter's state besides `step` at its first update: zero buffers named by
        `_buffers` (a subclass with other initial values overrides this)."""
        return {name: self._zeros_like(param) for name in self._buffers}

    def _state_of(self, param: Tensor, group: dict) -> dict:
        """A parameter's state, made at its first update (`step` first, as PyTorch orders it)."""
        state = self.state[param]
        if not state:
            state["step"] = self._step_tensor()
            state.update(self._initial_state(param, group))
        return state

    def _each_param(self, group: dict, params: list) -> Iterator[tuple]:
        """(param, state, gradient, step) per parameter of `group`, the lines every algorithm
        of PyTorch's docs begins with: the state, the step count after `step += 1`, the gradient
        negated for `maximize` and with the group's weight decay (`_decayed_grad`)."""
        for param in params:
            state = self._state_of(param, group)
            step = self._advance(state["step"])
            grad = self._decayed_grad(param, self._grad(param, group["maximize"]), group)
            yield param, state, grad, step

    def _decayed_grad(self, param: Tensor, grad: np.ndarray, group: dict) -> np.ndarray:
        """L2 weight decay added to the gradient, or (`decoupled_weight_decay`, AdamW) applied
        to the parameter; nothing for an optimizer without `weight_decay` (Rprop)."""
        if "weight_decay" not in self.defaults or group["weight_decay"] == 0:
            return grad
        weight_decay = group["weight_decay"]
        if group.get("decoupled_weight_decay"):
            self._write(param, np.asarray(param._data) * (1 - group["lr"] * weight_decay))
            return grad
        return grad + weight_decay * np.asarray(param._data)

    @staticmethod
    def _grad(param: Tensor, maximize: bool) -> np.ndarray:
        grad = np.asanyarray(param._grad._data)  # (a meta gradient stays meta)
        return -grad if maximize else grad

    @staticmethod
    def _write(target: Tensor, value: np.ndarray) -> None:
        """An in-place update of a parameter or state tensor (bumps its version, as `add_`)."""
        array = target._array()
        np.copyto(array, value, casting="unsafe")
        target._bump_version()

    @staticmethod
    def _zeros_like(param: Tensor) -> Tensor:
        return _wrap(np.zeros_like(param._data))  # (a meta parameter's state is meta)

    @staticmethod
    def _step_tensor() -> Tensor:
        return _wrap(np.array(0.0, np.float32))

    def _advance(self, step: Tensor) -> float:
        """`step_t += 1`, then its value as a Python float (through `Optimizer._write`, never a
        subclass's own `_write`: the value is a raw array)."""
        Optimizer._write(step, np.asarray(step._data) + np.float32(1))
        return float(step._data)

    # -- printing and (de)serialisation -------------------------------------------------------
    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    def state_dict(self) -> dict:
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: v for p, v in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(
            len(g["params"]) != len(s["params"]) for g, s in zip(self.param_groups, saved_groups)
        ):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of "
                "optimizer's group"
            )
        by_index = {}
        for group, saved in zip(self.param_groups, saved_groups):
            by_index.update(zip(saved["params"], group["params"]))
        self.state = defaultdict(dict)
        for key, value in state_dict["state"].items():
            param = by_index.get(key)
            if param is None:
                continue
            self.state[param] = {
                k: (_wrap(np.array(v._data, copy=True)) if isinstance(v, Tensor) else v)
                for k, v in value.items()
            }
        for i, saved in enumerate(saved_groups):
            new_group = {k: v for k, v in saved.items() if k != "params"}
            new_group["params"] = self.param_groups[i]["params"]
            self.param_groups[i] = new_group


print_from("torch.optim.optimizer", Optimizer)
