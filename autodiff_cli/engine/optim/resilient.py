"""`torch.optim.ASGD` (averaged SGD) and `Rprop` (resilient backpropagation): PyTorch's
single-tensor updates (the CPU path)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.dtypes import get_default_dtype
from ..core.tensor import _wrap
from .optimizer import Optimizer, check_non_negative


def _scalar_tensor(value: float) -> Any:
    """A 0-d state tensor of the default dtype (PyTorch's `_get_scalar_dtype()`)."""
    return _wrap(np.array(value, get_default_dtype().np))


class ASGD(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        check_non_negative(lr=lr, weight_decay=weight_decay)
        defaults = {
            "lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
            "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
            "capturable": capturable,
        }  # fmt: skip
        super().__init__(params, defaults)

    def _initial_state(self, param: Any, group: dict) -> dict:
        return {
            "eta": _scalar_tensor(group["lr"]),
            "mu": _scalar_tensor(1.0),
            "ax": self._zeros_like(param),
        }

    def _update(self, group: dict, params: list) -> None:
        lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
        for param, state, grad, step in self._each_param(group, params):
            grad = self._decayed_grad(param, grad, group)
            eta, mu, ax = state["eta"], state["mu"], state["ax"]
            eta_value = float(eta._data)
            self._write(param, np.asarray(param._data) * (1 - lambd * eta_value))
            self._write(param, np.asarray(param._data) + (-eta_value) * grad)
            data = np.asarray(param._data)
            if float(mu._data) != 1:
                average = np.asarray(ax._data)
                self._write(ax, average + (data - average) * np.asarray(mu._data))
            else:
                self._write(ax, data)
            Optimizer._write(eta, np.asarray(lr / ((1 + lambd * lr * step) ** alpha)))
            Optimizer._write(mu, np.asarray(1 / max(1, step - t0)))


class Rprop(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        etas: tuple = (0.5, 1.2),
        step_sizes: tuple = (1e-6, 50),
        *,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_non_negative(lr=lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {
            "lr": lr, "etas": tuple(etas), "step_sizes": tuple(step_sizes), "foreach": foreach,
            "maximize": maximize, "differentiable": differentiable, "capturable": capturable,
        }  # fmt: skip
        super().__init__(params, defaults)

    def _initial_state(self, param: Any, group: dict) -> dict:
        step_size = np.full(param._data.shape, group["lr"], param._data.dtype)
        return {"prev": self._zeros_like(param), "step_size": _wrap(step_size)}

    def _update(self, group: dict, params: list) -> None:
        eta_minus, eta_plus = group["etas"]
        low, high = group["step_sizes"]
        for param, state, grad, _ in self._each_param(group, params):
            prev, step_size = state["prev"], state["step_size"]
            sign = np.sign(grad * np.asarray(prev._data))
            factor = np.where(sign > 0, eta_plus, np.where(sign < 0, eta_minus, 1.0))
            factor = factor.astype(grad.dtype)
            self._write(step_size, np.clip(np.asarray(step_size._data) * factor, low, high))
            grad = np.where(factor == np.asarray(eta_minus, grad.dtype), 0, grad).astype(grad.dtype)
            data = np.asarray(param._data)
            self._write(param, data + (-1) * np.sign(grad) * np.asarray(step_size._data))
            self._write(prev, grad)


ASGD.__module__ = "torch.optim.asgd"
Rprop.__module__ = "torch.optim.rprop"
