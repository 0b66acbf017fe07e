"""`torch.optim.lr_scheduler`: learning-rate schedules over an optimizer's param groups.

One base class, `LRScheduler`, owns the bookkeeping (`last_epoch`, `base_lrs`, `initial_lr` in
each group, writing lrs into the groups, `get_last_lr`, warnings). A built-in scheduler only says
how the next lrs follow from the current ones (`_rule`, run by `step()`) and, where a schedule has
one, the closed form used by the deprecated `step(epoch)` (`_closed_form`). Scripts subclass
`LRScheduler` by overriding `get_lr`, as in PyTorch.

State is an explicit list of fields per engine class (`_fields`, registered below): `state_dict`
copies those and nothing else, and `load_state_dict` writes only those, so neither hands a script
an attribute table nor lets it write attributes by names it chose. A script's subclass cannot
change the list (its own `_fields` is never read); its public attributes are saved besides.

The schedulers by kind: `formulas` (a formula of the epoch: lambda, step, exponential, warm-up,
polynomial), `cosine`, `cyclic` (CyclicLR, OneCycleLR), `plateau` (ReduceLROnPlateau) and
`composite` (SequentialLR, ChainedScheduler); `base` holds `LRScheduler`.
"""

from __future__ import annotations

from .base import LRScheduler, _LRScheduler, register_engine_schedulers
from .composite import ChainedScheduler, SequentialLR
from .cosine import CosineAnnealingLR, CosineAnnealingWarmRestarts
from .cyclic import CyclicLR, OneCycleLR
from .formulas import (
    ConstantLR,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    MultiplicativeLR,
    MultiStepLR,
    PolynomialLR,
    StepLR,
)
from .plateau import ReduceLROnPlateau

__all__ = [
    "LRScheduler",
    "LambdaLR",
    "MultiplicativeLR",
    "StepLR",
    "MultiStepLR",
    "ConstantLR",
    "LinearLR",
    "ExponentialLR",
    "PolynomialLR",
    "CosineAnnealingLR",
    "SequentialLR",
    "ChainedScheduler",
    "ReduceLROnPlateau",
    "CyclicLR",
    "CosineAnnealingWarmRestarts",
    "OneCycleLR",
]


for _cls in (
    LRScheduler, _LRScheduler, LambdaLR, MultiplicativeLR, StepLR, MultiStepLR, ConstantLR,
    LinearLR, ExponentialLR, SequentialLR, PolynomialLR, CosineAnnealingLR, ChainedScheduler,
    ReduceLROnPlateau, CyclicLR, CosineAnnealingWarmRestarts, OneCycleLR,
):  # fmt: skip
    register_engine_schedulers(_cls)
del _cls
