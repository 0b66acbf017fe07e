"""Stochastic gradient descent: `torch.optim.SGD` (momentum, dampening, Nesterov) and `ASGD`
(averaged SGD), PyTorch's single-tensor updates (the CPU path)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.dtypes import get_default_dtype
from ..core.tensor import _wrap
from ..pytorch_home import print_from
from .optimizer import Optimizer, check_non_negative


def _scalar_tensor(value: float) -> Any:
    """A 0-d state tensor of the default dtype (PyTorch's `_get_scalar_dtype()`)."""
    return _wrap(np.array(value, get_default_dtype().np))


class SGD(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float = 0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr, "momentum": momentum, "dampening": dampening,
            "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
            "foreach": foreach, "differentiable": differentiable, "fused": fused,
        }  # fmt: skip
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
        nesterov = group["nesterov"]
        for param in params:  # (no step count: SGD's state is its momentum buffer alone)
            grad = self._decayed_grad(param, self._grad(param, group["maximize"]), group)
            data = np.asarray(param._data)
            if momentum != 0:
                state = self.state[param]
                buf = state.get("momentum_buffer")
                if buf is None:
                    buf = state["momentum_buffer"] = _wrap(np.array(grad, copy=True, subok=True))
                else:
                    value = np.asarray(buf._data) * momentum + (1 - dampening) * grad
                    self._write(buf, value)
                buf_data = np.asarray(buf._data)
                grad = grad + momentum * buf_data if nesterov else buf_data
            self._write(param, data - lr * grad)


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


print_from("torch.optim.{lower}", SGD, ASGD)
