"""`torch.optim`: SGD, Adam, AdamW, RMSprop, with PyTorch's update arithmetic (single-tensor path)."""

from __future__ import annotations

from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop"]

from .adagrad import Adagrad  # noqa: E402

__all__ += ["Adagrad"]

from . import lr_scheduler  # noqa: E402, F401 - after the optimizers it schedules
from .adaptive import Adadelta, Adamax, NAdam, RAdam  # noqa: E402
from .lbfgs import LBFGS  # noqa: E402
from .resilient import ASGD, Rprop  # noqa: E402

__all__ += ["ASGD", "Adadelta", "Adamax", "LBFGS", "NAdam", "RAdam", "Rprop"]
