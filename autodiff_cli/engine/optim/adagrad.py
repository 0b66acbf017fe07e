"""`torch.optim.Adagrad`: per-element learning rates from the running sum of squared gradients
(PyTorch's single-tensor path; the state is created with the optimizer)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.tensor import _wrap
from .optimizer import Optimizer, check_non_negative


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
        for group in self.param_groups:
            for param in group["params"]:
                state = self.state[param]
                state["step"] = self._step_tensor()
                state.update(self._initial_state(param, group))

    def _initial_state(self, param: Any, group: dict) -> dict:
        value = group["initial_accumulator_value"]
        return {"sum": _wrap(np.full(param._data.shape, value, param._data.dtype))}

    def _update(self, group: dict, params: list) -> None:
        lr, lr_decay, eps = group["lr"], group["lr_decay"], group["eps"]
        # (the state is made at construction; here only for a group added later)
        for param, state, grad, step in self._each_param(group, params):
            data = np.asarray(param._data)
            grad = self._decayed_grad(param, grad, group)
            clr = lr / (1 + (step - 1) * lr_decay)
            state_sum = state["sum"]
            self._write(state_sum, np.asarray(state_sum._data) + grad * grad)
            std = np.sqrt(np.asarray(state_sum._data))
            self._write(param, data - clr * grad / (std + eps))


Adagrad.__module__ = "torch.optim.adagrad"
