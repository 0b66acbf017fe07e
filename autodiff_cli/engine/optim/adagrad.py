"""`torch.optim.Adagrad`: per-element learning rates from the running sum of squared gradients
(PyTorch's single-tensor path; the state is created with the optimizer)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.tensor import _wrap
from .optimizer import Optimizer


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
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(
                f"Invalid initial_accumulator_value value: {initial_accumulator_value}"
            )
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = {
            "lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
            "maximize": maximize, "differentiable": differentiable, "fused": fused,
        }  # fmt: skip
        super().__init__(params, defaults)
        for group in self.param_groups:
            for param in group["params"]:
                state = self.state[param]
                state["step"] = self._step_tensor()
                state["sum"] = self._full_like(param, group["initial_accumulator_value"])

    @staticmethod
    def _full_like(param: Any, value: float) -> Any:
        return _wrap(np.full(param._data.shape, value, param._data.dtype))

    def _update(self, group: dict, params: list) -> None:
        lr, lr_decay, eps, weight_decay = (
            group["lr"],
            group["lr_decay"],
            group["eps"],
            group["weight_decay"],
        )
        for param in params:
            state = self.state[param]
            if not state:  # a group added after construction
                state["step"] = self._step_tensor()
                state["sum"] = self._full_like(param, group["initial_accumulator_value"])
            grad = self._grad(param, group["maximize"])
            step = self._advance(state["step"])
            data = np.asarray(param._data)
            if weight_decay != 0:
                grad = grad + weight_decay * data
            clr = lr / (1 + (step - 1) * lr_decay)
            state_sum = state["sum"]
            self._write(state_sum, np.asarray(state_sum._data) + grad * grad)
            std = np.sqrt(np.asarray(state_sum._data))
            self._write(param, data - clr * grad / (std + eps))


Adagrad.__module__ = "torch.optim.adagrad"
