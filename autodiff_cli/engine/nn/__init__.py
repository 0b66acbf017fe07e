"""`torch.nn`: Module, Parameter, the basic layers and losses, `functional` and `init`."""

from __future__ import annotations

from . import functional, init, utils  # noqa: F401
from .module import Module  # noqa: F401
from .modules.activation import (  # noqa: F401
    CELU,
    ELU,
    GELU,
    GLU,
    SELU,
    Hardshrink,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    RReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softmin,
    Softplus,
    Softshrink,
    Softsign,
    Tanh,
    Tanhshrink,
    Threshold,
)  # fmt: skip
from .modules.attention import MultiheadAttention  # noqa: F401
from .modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d  # noqa: F401
from .modules.channelshuffle import ChannelShuffle  # noqa: F401
from .modules.container import (  # noqa: F401
    ModuleDict,
    ModuleList,
    ParameterDict,
    ParameterList,
    Sequential,
)  # fmt: skip
from .modules.conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d  # noqa: F401
from .modules.distance import CosineSimilarity, PairwiseDistance  # noqa: F401
from .modules.dropout import (  # noqa: F401
    AlphaDropout,
    Dropout,
    Dropout1d,
    Dropout2d,
    Dropout3d,
    FeatureAlphaDropout,
)  # fmt: skip
from .modules.flatten import Flatten, Unflatten  # noqa: F401
from .modules.fold import Fold, Unfold  # noqa: F401
from .modules.instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d  # noqa: F401
from .modules.linear import Bilinear, Identity, LazyLinear, Linear  # noqa: F401
from .modules.loss import (  # noqa: F401
    BCELoss,
    BCEWithLogitsLoss,
    CosineEmbeddingLoss,
    CrossEntropyLoss,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MarginRankingLoss,
    MSELoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    NLLLoss,
    PoissonNLLLoss,
    SmoothL1Loss,
    SoftMarginLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)  # fmt: skip
from .modules.normalization import GroupNorm, LayerNorm  # noqa: F401
from .modules.padding import (  # noqa: F401
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    ReflectionPad1d,
    ReflectionPad2d,
    ReflectionPad3d,
    ReplicationPad1d,
    ReplicationPad2d,
    ReplicationPad3d,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
)  # fmt: skip
from .modules.pixelshuffle import PixelShuffle, PixelUnshuffle  # noqa: F401
from .modules.pooling import (  # noqa: F401
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AvgPool1d,
    AvgPool2d,
    MaxPool1d,
    MaxPool2d,
)  # fmt: skip
from .modules.rnn import (  # noqa: F401
    GRU,
    LSTM,
    RNN,
    GRUCell,
    LSTMCell,
    RNNBase,
    RNNCell,
    RNNCellBase,
)  # fmt: skip
from .modules.sparse import Embedding, EmbeddingBag  # noqa: F401
from .modules.transformer import (  # noqa: F401
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)  # fmt: skip
from .modules.upsampling import Upsample  # noqa: F401
from .parameter import Parameter, UninitializedParameter  # noqa: F401

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
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AvgPool1d", "AvgPool2d", "Conv1d", "Conv2d",
    "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "Fold", "MaxPool1d", "MaxPool2d", "Unflatten",
    "Unfold", "Upsample",
    # normalization, shuffles, padding and adaptive max pooling
    "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "ChannelShuffle", "ConstantPad1d", "ConstantPad2d",
    "ConstantPad3d", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
    "PixelShuffle", "PixelUnshuffle", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
    "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d",
    "ZeroPad3d",
    "Hardshrink", "PReLU", "RReLU", "Softmin", "Softshrink", "Softsign", "Tanhshrink",
    "CosineEmbeddingLoss", "CosineSimilarity", "GaussianNLLLoss", "HingeEmbeddingLoss",
    "KLDivLoss", "MarginRankingLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss",
    "PairwiseDistance", "PoissonNLLLoss", "SoftMarginLoss", "TripletMarginLoss",
    "TripletMarginWithDistanceLoss",
    "MultiheadAttention", "Transformer", "TransformerDecoder", "TransformerDecoderLayer",
    "TransformerEncoder", "TransformerEncoderLayer",
    "Bilinear", "EmbeddingBag",
]  # fmt: skip
