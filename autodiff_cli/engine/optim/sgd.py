"""`torch.optim.SGD`: momentum, dampening, Nesterov, weight decay, maximize."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.tensor import _wrap
from .optimizer import Optimizer


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
        weight_decay, nesterov = group["weight_decay"], group["nesterov"]
        for param in params:
            grad = self._grad(param, group["maximize"])
            data = np.asarray(param._data)
            if weight_decay != 0:
                grad = grad + weight_decay * data
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


SGD.__module__ = "torch.optim.sgd"
