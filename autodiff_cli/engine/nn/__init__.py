"""`torch.nn`: Module, Parameter, the basic layers and losses, `functional` and `init`."""

from __future__ import annotations

from . import functional, init, utils  # noqa: F401
from . import modules_conv as _modules_conv  # noqa: E402
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d  # noqa: F401
from .layer_modules import (  # noqa: F401
    CELU,
    GLU,
    Embedding,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LayerNorm,
    Mish,
    ReLU6,
    Threshold,
)
from .lazy import LazyLinear  # noqa: F401
from .loss import (  # noqa: F401
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .module import Module  # noqa: F401
from .modules import (  # noqa: F401
    ELU,
    GELU,
    SELU,
    AlphaDropout,
    Dropout,
    Dropout1d,
    Dropout2d,
    Dropout3d,
    FeatureAlphaDropout,
    Flatten,
    Identity,
    LeakyReLU,
    Linear,
    LogSigmoid,
    LogSoftmax,
    ModuleDict,
    ModuleList,
    ParameterDict,
    ParameterList,
    ReLU,
    Sequential,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from .modules_conv import *  # noqa: F401, F403  (Conv*, *Pool*, Upsample, Unflatten, Fold...)
from .parameter import Parameter, UninitializedParameter  # noqa: F401
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase  # noqa: F401

# What a script sees of this module (the language exports only these names and the public
# submodules functional, init, utils...).
__all__ = [
    "AlphaDropout", "BCELoss", "BCEWithLogitsLoss", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
    "CELU", "CrossEntropyLoss", "GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "RNNBase", "RNNCell",
    "RNNCellBase", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "ELU",
    "Embedding", "FeatureAlphaDropout", "Flatten", "GELU", "GLU", "Hardsigmoid", "Hardswish",
    "Hardtanh", "HuberLoss", "Identity", "L1Loss", "LayerNorm", "LazyLinear", "LeakyReLU", "Linear",
    "LogSigmoid", "LogSoftmax", "MSELoss", "Mish", "Module", "ModuleDict", "ModuleList", "NLLLoss",
    "Parameter", "ParameterDict", "ParameterList", "ReLU", "ReLU6", "SELU", "Sequential", "SiLU",
    "Sigmoid", "SmoothL1Loss", "Softmax", "Softplus", "Tanh", "Threshold", "UninitializedParameter",
    *_modules_conv.__all__,
]  # fmt: skip
