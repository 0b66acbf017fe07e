"""Per-element step sizes from the history of the gradients: `torch.optim.Adagrad` (sum of
squares), `Adadelta` and `RMSprop` (running averages of squares) and `Rprop` (sign changes).
Each `_update` is PyTorch's single-tensor update (the CPU path), each in-place step one numpy
expression in the same order; the state, step count, `maximize` and weight decay come from
`Optimizer._each_param`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.tensor import _wrap
from ..pytorch_home import print_from
from .optimizer import Optimizer, check_non_negative, lerp_, square_average_


class Adagrad(Optimizer):
    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        check_non_negative(
            lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
            initial_accumulator_value=initial_accumulator_value, eps=eps,
        )  # fmt: skip
        defaults = {
            "lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
            "maximize": maximize, "differentiable": differentiable, "fused": fused,
        }  # fmt: skip
        super().__init__(params, defaults)
        for group in self.param_groups:  # (PyTorch makes Adagrad's state with the optimizer)
            for param in group["params"]:
                self._state_of(param, group)

    def _initial_state(self, param: Any, group: dict) -> dict:
        value = group["initial_accumulator_value"]
        return {"sum": _wrap(np.full(param._data.shape, value, param._data.dtype))}

    def _update(self, group: dict, params: list) -> None:
        lr, lr_decay, eps = group["lr"], group["lr_decay"], group["eps"]
        for param, state, grad, step in self._each_param(group, params):
            data = np.asarray(param._data)
            clr = lr / (1 + (step - 1) * lr_decay)
            state_sum = state["sum"]
            self._write(state_sum, np.asarray(state_sum._data) + grad * grad)
            std = np.sqrt(np.asarray(state_sum._data))
            self._write(param, data - clr * grad / (std + eps))


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
            square_avg = square_average_(state["square_avg"], grad, rho)
            std = np.sqrt(square_avg + eps)
            acc_delta = state["acc_delta"]
            delta = np.sqrt(np.asarray(acc_delta._data) + eps) / std * grad
            square_average_(acc_delta, delta, rho)
            self._write(param, np.asarray(param._data) + (-lr) * delta)


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


print_from("torch.optim.{lower}", Adagrad, Adadelta, RMSprop, Rprop)
