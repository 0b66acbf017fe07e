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
"""

from __future__ import annotations

from .lr_cycles import (
    ChainedScheduler,
    CyclicLR,
    OneCycleLR,
    ReduceLROnPlateau,
    SequentialLR,
)
from .lr_schedules import (
    ConstantLR,
    CosineAnnealingLR,
    CosineAnnealingWarmRestarts,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    LRScheduler,
    MultiplicativeLR,
    MultiStepLR,
    PolynomialLR,
    StepLR,
    _LRScheduler,
    register_engine_schedulers,
)

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
    _cls.__module__ = "torch.optim.lr_scheduler"
    register_engine_schedulers(_cls)
del _cls
