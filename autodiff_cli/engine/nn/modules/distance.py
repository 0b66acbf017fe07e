"""The distance modules: `nn.PairwiseDistance` and `nn.CosineSimilarity` over nn.functional's."""

from __future__ import annotations

from ...core.tensor import Tensor
from ...pytorch_home import name_classes_after
from .. import functional as F
from ..module import Module


class PairwiseDistance(Module):
    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p  # (PyTorch's attribute name)
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


name_classes_after(globals(), "torch.nn.modules.distance")
