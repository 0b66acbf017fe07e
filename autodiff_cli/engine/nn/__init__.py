"""`torch.nn`: Module, Parameter and the basic layers."""

from __future__ import annotations

from . import functional  # noqa: F401
from .modules import (  # noqa: F401
    BCEWithLogitsLoss,
    L1Loss,
    Linear,
    Module,
    MSELoss,
    Parameter,
    ReLU,
    Sequential,
    Sigmoid,
    Tanh,
)
