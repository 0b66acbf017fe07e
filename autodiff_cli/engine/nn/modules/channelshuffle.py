"""`nn.ChannelShuffle` (ShuffleNet's interleaving of channel groups)."""

from __future__ import annotations

from ...core.tensor import Tensor
from ...pytorch_home import name_classes_after
from .. import functional as F
from ..module import Module

__all__ = ["ChannelShuffle"]


class ChannelShuffle(Module):
    """The channels of an (N, C, *) input read as a (groups, C / groups) grid, column by
    column."""

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


name_classes_after(globals(), "torch.nn.modules.channelshuffle")
