"""The Adam family: `torch.optim.Adam`, `AdamW` (decoupled weight decay), `Adamax` (infinity norm),
`NAdam` (Nesterov momentum) and `RAdam` (rectified variance). Each `_update` is PyTorch's
single-tensor update (the CPU path), each in-place step one numpy expression in the same order;
the state, step count, `maximize` and weight decay come from `Optimizer._each_param`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..pytorch_home import print_from
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


class Adamax(Optimizer):
    _buffers = ("exp_avg", "exp_inf")

    def __init__(
        self,
        params: Any,
        lr: float = 2e-3,
        betas: tuple = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ) -> None:
        _check(lr, betas, eps, weight_decay)
        defaults = {
            "lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
            "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
            "capturable": capturable,
        }  # fmt: skip
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, eps = group["lr"], group["eps"]
        beta1, beta2 = group["betas"]
        for param, state, grad, step in self._each_param(group, params):
            exp_avg = lerp_(state["exp_avg"], grad, 1 - beta1)
            exp_inf = state["exp_inf"]
            self._write(exp_inf, np.maximum(np.asarray(exp_inf._data) * beta2, np.abs(grad) + eps))
            clr = lr / (1 - beta1**step)
            data = np.asarray(param._data)
            self._write(param, data + (-clr) * exp_avg / np.asarray(exp_inf._data))


class NAdam(Optimizer):
    _buffers = ("exp_avg", "exp_avg_sq")

    def __init__(
        self,
        params: Any,
        lr: float = 2e-3,
        betas: tuple = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum_decay: float = 4e-3,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check(lr, betas, eps, weight_decay)
        check_non_negative(momentum_decay=momentum_decay)
        defaults = {
            "lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
            "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
            "maximize": maximize, "foreach": foreach, "capturable": capturable,
            "differentiable": differentiable,
        }  # fmt: skip
        super().__init__(params, defaults)

    def _initial_state(self, param: Any, group: dict) -> dict:
        mu_product = self._step_tensor()
        Optimizer._write(mu_product, np.float32(1.0))
        return {"mu_product": mu_product, **super()._initial_state(param, group)}

    def _update(self, group: dict, params: list) -> None:
        lr, eps, momentum_decay = group["lr"], group["eps"], group["momentum_decay"]
        beta1, beta2 = group["betas"]
        for param, state, grad, step in self._each_param(group, params):
            bias_correction2 = 1 - beta2**step
            mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
            mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
            mu_product = state["mu_product"]
            Optimizer._write(mu_product, np.asarray(mu_product._data) * np.float32(mu))
            exp_avg = lerp_(state["exp_avg"], grad, 1 - beta1)
            exp_avg_sq = square_average_(state["exp_avg_sq"], grad, beta2)
            denom = np.sqrt(exp_avg_sq / bias_correction2) + eps
            product = float(mu_product._data)
            product_next = product * mu_next
            data = np.asarray(param._data)
            data = data + (-lr * (1.0 - mu) / (1.0 - product)) * grad / denom
            self._write(param, data + ((-lr * mu_next) / (1.0 - product_next)) * exp_avg / denom)


class RAdam(Optimizer):
    _buffers = ("exp_avg", "exp_avg_sq")

    def __init__(
        self,
        params: Any,
        lr: float = 1e-3,
        betas: tuple = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check(lr, betas, eps, weight_decay)
        defaults = {
            "lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
            "maximize": maximize, "foreach": foreach, "capturable": capturable,
            "decoupled_weight_decay": decoupled_weight_decay, "differentiable": differentiable,
        }  # fmt: skip
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, eps = group["lr"], group["eps"]
        beta1, beta2 = group["betas"]
        for param, state, grad, step in self._each_param(group, params):
            exp_avg = lerp_(state["exp_avg"], grad, 1 - beta1)
            exp_avg_sq = square_average_(state["exp_avg_sq"], grad, beta2)
            bias_correction1 = 1 - beta1**step
            bias_correction2 = 1 - beta2**step
            corrected = exp_avg / bias_correction1
            rho_inf = 2 / (1 - beta2) - 1
            rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
            data = np.asarray(param._data)
            if rho_t > 5.0:
                rect = (
                    (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
                ) ** 0.5
                adaptive = (bias_correction2**0.5) / (np.sqrt(exp_avg_sq) + eps)
                self._write(param, data + (-1.0) * (corrected * lr * adaptive * rect))
            else:
                self._write(param, data + (-1.0) * (corrected * lr))


print_from("torch.optim.{lower}", Adam, AdamW, Adamax, NAdam, RAdam)
