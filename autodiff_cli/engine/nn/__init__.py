"""`torch.nn`: Module, Parameter, the basic layers and losses, `functional` and `init`."""

from __future__ import annotations

from . import functional, init  # noqa: F401
from .loss import (  # noqa: F401
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
)
from .module import Module  # noqa: F401
from .modules import (  # noqa: F401
    Dropout,
    Flatten,
    Identity,
    LeakyReLU,
    Linear,
    LogSoftmax,
    ModuleList,
    ReLU,
    Sequential,
    Sigmoid,
    Softmax,
    Tanh,
)
from .parameter import Parameter  # noqa: F401
