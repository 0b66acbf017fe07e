"""`torch.optim.Adam` and `AdamW` (Adam with decoupled weight decay), PyTorch's single-tensor path."""

from __future__ import annotations

from typing import Any

import numpy as np

from .optimizer import Optimizer, check_non_negative, lerp_, square_average_


def _check(lr: float, betas: tuple, eps: float, weight_decay: float) -> None:
    check_non_negative(lr=lr, eps=eps)
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    check_non_negative(weight_decay=weight_decay)


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

    def _initial_state(self, param: Any, group: dict) -> dict:
        names = ("exp_avg", "exp_avg_sq", "max_exp_avg_sq")[: 3 if group["amsgrad"] else 2]
        return {name: self._zeros_like(param) for name in names}

    def _update(self, group: dict, params: list) -> None:
        lr, eps, amsgrad = group["lr"], group["eps"], group["amsgrad"]
        beta1, beta2 = group["betas"]
        for param, state, grad, step in self._each_param(group, params):
            grad = self._decayed_grad(param, grad, group, group.get("decoupled_weight_decay"))
            exp_avg = lerp_(state["exp_avg"], grad, 1 - beta1)
            second = square_average_(state["exp_avg_sq"], grad, beta2)
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            step_size = lr / bias_correction1
            bias_correction2_sqrt = bias_correction2**0.5
            if amsgrad:
                highest = state["max_exp_avg_sq"]
                self._write(highest, np.maximum(np.asarray(highest._data), second))
                second = np.asarray(highest._data)
            denom = np.sqrt(second) / bias_correction2_sqrt + eps
            data = np.asarray(param._data)
            self._write(param, data - step_size * exp_avg / denom)


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
