"""`torch.optim.Adadelta`, `Adamax`, `NAdam` and `RAdam`: PyTorch's single-tensor updates (the
CPU path), each in-place step of PyTorch's code one numpy expression in the same order."""

from __future__ import annotations

from typing import Any

import numpy as np

from .adam import _check
from .optimizer import Optimizer, check_non_negative, lerp_, square_average_


class Adadelta(Optimizer):
    _buffers = ("square_avg", "acc_delta")

    def __init__(
        self,
        params: Any,
        lr: float = 1.0,
        rho: float = 0.9,
        eps: float = 1e-6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        capturable: bool = False,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        check_non_negative(lr=lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        check_non_negative(eps=eps, weight_decay=weight_decay)
        defaults = {
            "lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
            "capturable": capturable, "foreach": foreach, "differentiable": differentiable,
        }  # fmt: skip
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, rho, eps = group["lr"], group["rho"], group["eps"]
        for param, state, grad, _ in self._each_param(group, params):
            grad = self._decayed_grad(param, grad, group, group.get("decoupled_weight_decay"))
            square_avg = square_average_(state["square_avg"], grad, rho)
            std = np.sqrt(square_avg + eps)
            acc_delta = state["acc_delta"]
            delta = np.sqrt(np.asarray(acc_delta._data) + eps) / std * grad
            square_average_(acc_delta, delta, rho)
            self._write(param, np.asarray(param._data) + (-lr) * delta)


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
            grad = self._decayed_grad(param, grad, group, group.get("decoupled_weight_decay"))
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
            grad = self._decayed_grad(param, grad, group, group.get("decoupled_weight_decay"))
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
            grad = self._decayed_grad(param, grad, group, group.get("decoupled_weight_decay"))
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


Adadelta.__module__ = "torch.optim.adadelta"
Adamax.__module__ = "torch.optim.adamax"
NAdam.__module__ = "torch.optim.nadam"
RAdam.__module__ = "torch.optim.radam"
