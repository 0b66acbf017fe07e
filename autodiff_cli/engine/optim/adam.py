"""`torch.optim.Adam` and `AdamW` (Adam with decoupled weight decay), PyTorch's single-tensor path."""

from __future__ import annotations

from typing import Any

import numpy as np

from .optimizer import Optimizer


def _check(lr: float, betas: tuple, eps: float, weight_decay: float) -> None:
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not 0.0 <= eps:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if not 0.0 <= weight_decay:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


class Adam(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        _check(lr, betas, eps, weight_decay)
        defaults = {
            "lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
            "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
            "capturable": capturable, "differentiable": differentiable, "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay,
        }  # fmt: skip
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, eps, weight_decay, amsgrad = (
            group["lr"],
            group["eps"],
            group["weight_decay"],
            group["amsgrad"],
        )
        beta1, beta2 = group["betas"]
        for param in params:
            state = self.state[param]
            if not state:
                state["step"] = self._step_tensor()
                state["exp_avg"] = self._zeros_like(param)
                state["exp_avg_sq"] = self._zeros_like(param)
                if amsgrad:
                    state["max_exp_avg_sq"] = self._zeros_like(param)
            grad = self._grad(param, group["maximize"])
            step = self._advance(state["step"])
            if weight_decay != 0:
                if group["decoupled_weight_decay"]:
                    self._write(param, np.asarray(param._data) * (1 - lr * weight_decay))
                else:
                    grad = grad + weight_decay * np.asarray(param._data)
            exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
            average = np.asarray(exp_avg._data)
            self._write(exp_avg, average + (1 - beta1) * (grad - average))  # lerp
            squares = np.asarray(exp_avg_sq._data) * beta2
            self._write(exp_avg_sq, squares + (1 - beta2) * grad * grad)
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            step_size = lr / bias_correction1
            bias_correction2_sqrt = bias_correction2**0.5
            second = np.asarray(exp_avg_sq._data)
            if amsgrad:
                highest = state["max_exp_avg_sq"]
                self._write(highest, np.maximum(np.asarray(highest._data), second))
                second = np.asarray(highest._data)
            denom = np.sqrt(second) / bias_correction2_sqrt + eps
            data = np.asarray(param._data)
            self._write(param, data - step_size * np.asarray(exp_avg._data) / denom)


class AdamW(Adam):
    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        super().__init__(
            params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
            capturable=capturable, differentiable=differentiable, fused=fused,
            decoupled_weight_decay=True,
        )  # fmt: skip


Adam.__module__ = "torch.optim.adam"
AdamW.__module__ = "torch.optim.adamw"
