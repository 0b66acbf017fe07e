"""`torch.optim.Adadelta`, `Adamax`, `NAdam` and `RAdam`: PyTorch's single-tensor updates (the
CPU path), each in-place step of PyTorch's code one numpy expression in the same order."""

from __future__ import annotations

from typing import Any

import numpy as np

from .adam import _check
from .optimizer import Optimizer


def _decay(self: Optimizer, param: Any, grad: np.ndarray, group: dict) -> np.ndarray:
    """L2 weight decay added to the gradient, or (decoupled) applied to the parameter."""
    weight_decay = group["weight_decay"]
    if weight_decay == 0:
        return grad
    if group.get("decoupled_weight_decay"):
        self._write(param, np.asarray(param._data) * (1 - group["lr"] * weight_decay))
        return grad
    return grad + weight_decay * np.asarray(param._data)


def _lerp(target: Any, end: np.ndarray, weight: float) -> np.ndarray:
    """`target.lerp_(end, weight)` for a weight below 0.5."""
    average = np.asarray(target._data)
    Optimizer._write(target, average + weight * (end - average))
    return np.asarray(target._data)


def _square_average(target: Any, grad: np.ndarray, beta: float) -> np.ndarray:
    """`target.mul_(beta).addcmul_(grad, grad, value=1 - beta)`."""
    Optimizer._write(target, np.asarray(target._data) * beta + (1 - beta) * grad * grad)
    return np.asarray(target._data)


class Adadelta(Optimizer):
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
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {
            "lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
            "capturable": capturable, "foreach": foreach, "differentiable": differentiable,
        }  # fmt: skip
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, rho, eps = group["lr"], group["rho"], group["eps"]
        for param in params:
            state = self.state[param]
            if not state:
                state["step"] = self._step_tensor()
                state["square_avg"] = self._zeros_like(param)
                state["acc_delta"] = self._zeros_like(param)
            grad = self._grad(param, group["maximize"])
            self._advance(state["step"])
            grad = _decay(self, param, grad, group)
            square_avg = _square_average(state["square_avg"], grad, rho)
            std = np.sqrt(square_avg + eps)
            acc_delta = state["acc_delta"]
            delta = np.sqrt(np.asarray(acc_delta._data) + eps) / std * grad
            _square_average(acc_delta, delta, rho)
            self._write(param, np.asarray(param._data) + (-lr) * delta)


class Adamax(Optimizer):
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
        for param in params:
            state = self.state[param]
            if not state:
                state["step"] = self._step_tensor()
                state["exp_avg"] = self._zeros_like(param)
                state["exp_inf"] = self._zeros_like(param)
            grad = self._grad(param, group["maximize"])
            step = self._advance(state["step"])
            grad = _decay(self, param, grad, group)
            exp_avg = _lerp(state["exp_avg"], grad, 1 - beta1)
            exp_inf = state["exp_inf"]
            self._write(exp_inf, np.maximum(np.asarray(exp_inf._data) * beta2, np.abs(grad) + eps))
            clr = lr / (1 - beta1**step)
            data = np.asarray(param._data)
            self._write(param, data + (-clr) * exp_avg / np.asarray(exp_inf._data))


class NAdam(Optimizer):
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
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = {
            "lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay,
            "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
            "maximize": maximize, "foreach": foreach, "capturable": capturable,
            "differentiable": differentiable,
        }  # fmt: skip
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, eps, momentum_decay = group["lr"], group["eps"], group["momentum_decay"]
        beta1, beta2 = group["betas"]
        for param in params:
            state = self.state[param]
            if not state:
                state["step"] = self._step_tensor()
                state["mu_product"] = self._step_tensor()
                Optimizer._write(state["mu_product"], np.float32(1.0))
                state["exp_avg"] = self._zeros_like(param)
                state["exp_avg_sq"] = self._zeros_like(param)
            grad = self._grad(param, group["maximize"])
            step = self._advance(state["step"])
            bias_correction2 = 1 - beta2**step
            grad = _decay(self, param, grad, group)
            mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
            mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
            mu_product = state["mu_product"]
            Optimizer._write(mu_product, np.asarray(mu_product._data) * np.float32(mu))
            exp_avg = _lerp(state["exp_avg"], grad, 1 - beta1)
            exp_avg_sq = _square_average(state["exp_avg_sq"], grad, beta2)
            denom = np.sqrt(exp_avg_sq / bias_correction2) + eps
            product = float(mu_product._data)
            product_next = product * mu_next
            data = np.asarray(param._data)
            data = data + (-lr * (1.0 - mu) / (1.0 - product)) * grad / denom
            self._write(param, data + ((-lr * mu_next) / (1.0 - product_next)) * exp_avg / denom)


class RAdam(Optimizer):
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
        for param in params:
            state = self.state[param]
            if not state:
                state["step"] = self._step_tensor()
                state["exp_avg"] = self._zeros_like(param)
                state["exp_avg_sq"] = self._zeros_like(param)
            grad = self._grad(param, group["maximize"])
            step = self._advance(state["step"])
            grad = _decay(self, param, grad, group)
            exp_avg = _lerp(state["exp_avg"], grad, 1 - beta1)
            exp_avg_sq = _square_average(state["exp_avg_sq"], grad, beta2)
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
