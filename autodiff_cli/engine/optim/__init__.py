"""`torch.optim`: the optimizers, with PyTorch's update arithmetic (single-tensor path), and the
learning-rate schedulers (`lr_scheduler`).

`Optimizer` (optimizer.py) holds what every algorithm shares: param groups, per-parameter state,
the step count, `maximize`, weight decay, `zero_grad`, `state_dict`; each optimizer class gives its
defaults and its update rule. The families: sgd.py (SGD, ASGD), adam.py (Adam, AdamW, Adamax,
NAdam, RAdam), adaptive.py (Adagrad, Adadelta, RMSprop, Rprop), lbfgs.py (LBFGS)."""

from __future__ import annotations

from . import lr_scheduler  # noqa: F401
from .adam import Adam, Adamax, AdamW, NAdam, RAdam
from .adaptive import Adadelta, Adagrad, RMSprop, Rprop
from .lbfgs import LBFGS
from .optimizer import Optimizer
from .sgd import ASGD, SGD

__all__ = [
    "Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "ASGD", "Adadelta", "Adamax",
    "LBFGS", "NAdam", "RAdam", "Rprop",
]  # fmt: skip
