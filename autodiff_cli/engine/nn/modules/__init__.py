"""`torch.nn.modules`: the layers, one submodule per kind as PyTorch arranges them (activation,
container, conv, linear, loss, normalization, pooling, rnn...). Each class is named after its
PyTorch home (`torch.nn.modules.conv.Conv2d`), which `help()` and `typename` print."""

from __future__ import annotations

from ..module import Module
from ..parameter import Parameter
from . import (  # noqa: F401 - every kind loads with the package (`torch.nn.modules.rnn`)
    activation,
    attention,
    batchnorm,
    channelshuffle,
    container,
    conv,
    distance,
    dropout,
    flatten,
    fold,
    instancenorm,
    lazy,
    linear,
    loss,
    normalization,
    padding,
    pixelshuffle,
    pooling,
    rnn,
    sparse,
    transformer,
    upsampling,
)
from .activation import (
    ELU,
    GELU,
    SELU,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    ReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .dropout import (
    AlphaDropout,
    Dropout,
    Dropout1d,
    Dropout2d,
    Dropout3d,
    FeatureAlphaDropout,
)
from .flatten import Flatten
from .linear import Identity, Linear

# What a script sees of this module (the language exports only these names).
__all__ = [
    "Module", "Parameter", "Identity", "Linear", "Flatten", "Dropout", "Dropout1d", "Dropout2d",
    "Dropout3d", "AlphaDropout", "FeatureAlphaDropout", "Sequential", "ModuleList", "ModuleDict",
    "ParameterList", "ParameterDict", "ReLU", "LeakyReLU", "Tanh", "Sigmoid", "GELU", "SiLU",
    "ELU", "SELU", "Softplus", "LogSigmoid", "Softmax", "LogSoftmax",
]  # fmt: skip
