"""`torch.optim.RMSprop`: smoothing `alpha`, `momentum`, `centered`, weight decay, maximize."""

from __future__ import annotations

from typing import Any

import numpy as np

from .optimizer import Optimizer, check_non_negative, lerp_, square_average_


class RMSprop(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_non_negative(
            lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha
        )
        defaults = {
            "lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
            "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
            "maximize": maximize, "differentiable": differentiable,
        }  # fmt: skip
        super().__init__(params, defaults)

    def _initial_state(self, param: Any, group: dict) -> dict:
        state = {"square_avg": self._zeros_like(param)}
        if group["momentum"] > 0:
            state["momentum_buffer"] = self._zeros_like(param)
        if group["centered"]:
            state["grad_avg"] = self._zeros_like(param)
        return state

    def _update(self, group: dict, params: list) -> None:
        lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
        momentum, centered = group["momentum"], group["centered"]
        for param, state, grad, _ in self._each_param(group, params):
            data = np.asarray(param._data)
            grad = self._decayed_grad(param, grad, group)
            square_avg = square_average_(state["square_avg"], grad, alpha)
            if centered:
                mean = lerp_(state["grad_avg"], grad, 1 - alpha)
                avg = np.sqrt(square_avg - mean * mean)
            else:
                avg = np.sqrt(square_avg)
            avg = avg + eps
            if momentum > 0:
                buf = state["momentum_buffer"]
                self._write(buf, np.asarray(buf._data) * momentum + grad / avg)
                self._write(param, data - lr * np.asarray(buf._data))
            else:
                self._write(param, data - lr * grad / avg)


RMSprop.__module__ = "torch.optim.rmsprop"
