"""`torch.optim.RMSprop`: smoothing `alpha`, `momentum`, `centered`, weight decay, maximize."""

from __future__ import annotations

from typing import Any

import numpy as np

from .optimizer import Optimizer


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
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = {
            "lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
            "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
            "maximize": maximize, "differentiable": differentiable,
        }  # fmt: skip
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
        momentum, centered, weight_decay = (
            group["momentum"],
            group["centered"],
            group["weight_decay"],
        )
        for param in params:
            state = self.state[param]
            if not state:
                state["step"] = self._step_tensor()
                state["square_avg"] = self._zeros_like(param)
                if momentum > 0:
                    state["momentum_buffer"] = self._zeros_like(param)
                if centered:
                    state["grad_avg"] = self._zeros_like(param)
            grad = self._grad(param, group["maximize"])
            self._advance(state["step"])
            data = np.asarray(param._data)
            if weight_decay != 0:
                grad = grad + weight_decay * data
            square_avg = state["square_avg"]
            squares = np.asarray(square_avg._data) * alpha
            self._write(square_avg, squares + (1 - alpha) * grad * grad)
            if centered:
                grad_avg = state["grad_avg"]
                average = np.asarray(grad_avg._data)
                self._write(grad_avg, average + (1 - alpha) * (grad - average))  # lerp
                mean = np.asarray(grad_avg._data)
                avg = np.sqrt(np.asarray(square_avg._data) - mean * mean)
            else:
                avg = np.sqrt(np.asarray(square_avg._data))
            avg = avg + eps
            if momentum > 0:
                buf = state["momentum_buffer"]
                self._write(buf, np.asarray(buf._data) * momentum + grad / avg)
                self._write(param, data - lr * np.asarray(buf._data))
            else:
                self._write(param, data - lr * grad / avg)


RMSprop.__module__ = "torch.optim.rmsprop"
