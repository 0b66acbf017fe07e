"""`nn.Embedding`, a lookup table of rows, and `nn.EmbeddingBag`, which reduces bags of them."""

from __future__ import annotations

from typing import Any

from ...core.grad_mode import no_grad
from ...core.tensor import Tensor
from ...pytorch_home import name_classes_after
from .. import functional as F
from .. import init
from ..module import Module
from ..parameter import Parameter, parameter_storage


def _padding_row(padding_idx: int | None, num_embeddings: int, message: str) -> int | None:
    """`padding_idx` checked as PyTorch checks it (its message differs between Embedding and
    EmbeddingBag), stored as a row number."""
    if padding_idx is None:
        return None
    within = padding_idx == 0 or -num_embeddings <= padding_idx < num_embeddings
    assert within, message
    return padding_idx + num_embeddings if padding_idx < 0 else padding_idx


def _set_table(module: Any, weight: Tensor | None, dtype: Any, requires_grad: bool = True) -> None:
    """The module's `num_embeddings` × `embedding_dim` weight: a new one, reset, or `weight`
    (PyTorch's `_weight`), checked to have that shape."""
    shape = [module.num_embeddings, module.embedding_dim]
    if weight is None:
        storage = parameter_storage(tuple(shape), dtype)
        module.weight = Parameter(storage, requires_grad=requires_grad)
        module.reset_parameters()
    else:
        assert list(weight.shape) == shape, (
            "Shape of weight does not match num_embeddings and embedding_dim"
        )
        module.weight = Parameter(weight, requires_grad=requires_grad)


def _zero_padding_row(module: Any) -> None:
    if module.padding_idx is not None:
        with no_grad():
            module.weight[module.padding_idx].fill_(0)


class Embedding(Module):
    """A lookup table of `num_embeddings` rows of size `embedding_dim`; weight ~ N(0, 1), the
    `padding_idx` row zero."""

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight: Tensor | None = None,
        _freeze: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = _padding_row(
            padding_idx, num_embeddings, "Padding_idx must be within num_embeddings"
        )
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.sparse = sparse
        _set_table(self, _weight, dtype, requires_grad=not _freeze)

    def reset_parameters(self) -> None:
        init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self) -> None:
        _zero_padding_row(self)

    def forward(self, input: Tensor) -> Tensor:
        return F.embedding(
            input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
            self.scale_grad_by_freq, self.sparse,
        )  # fmt: skip

    def extra_repr(self) -> str:
        options = (
            ("padding_idx", self.padding_idx, None),
            ("max_norm", self.max_norm, None),
            ("norm_type", self.norm_type, 2),
            ("scale_grad_by_freq", self.scale_grad_by_freq, False),
            ("sparse", self.sparse, False),
        )
        shown = [f"{name}={value}" for name, value, default in options if value != default]
        return ", ".join([f"{self.num_embeddings}, {self.embedding_dim}", *shown])

    @classmethod
    def from_pretrained(
        cls,
        embeddings: Tensor,
        freeze: bool = True,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
    ) -> Embedding:
        """An Embedding whose weight is `embeddings` (shared), frozen unless `freeze=False`."""
        assert embeddings.dim() == 2, "Embeddings parameter is expected to be 2-dimensional"
        rows, cols = embeddings.shape
        return cls(
            num_embeddings=rows, embedding_dim=cols, _weight=embeddings, _freeze=freeze,
            padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type,
            scale_grad_by_freq=scale_grad_by_freq, sparse=sparse,
        )  # fmt: skip


class EmbeddingBag(Module):
    """Sums, means or maxima of bags of rows of a `num_embeddings` × `embedding_dim` table;
    weight ~ N(0, 1), the `padding_idx` row zero."""

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        _weight: Tensor | None = None,
        include_last_offset: bool = False,
        padding_idx: int | None = None,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.padding_idx = _padding_row(
            padding_idx, num_embeddings, "padding_idx must be within num_embeddings"
        )
        _set_table(self, _weight, dtype)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def reset_parameters(self) -> None:
        init.normal_(self.weight)
        _zero_padding_row(self)

    def forward(
        self,
        input: Tensor,
        offsets: Tensor | None = None,
        per_sample_weights: Tensor | None = None,
    ) -> Tensor:
        return F.embedding_bag(
            input, self.weight, offsets, self.max_norm, self.norm_type,
            self.scale_grad_by_freq, self.mode, self.sparse, per_sample_weights,
            self.include_last_offset, self.padding_idx,
        )  # fmt: skip

    def extra_repr(self) -> str:
        shown = [f"{self.num_embeddings}, {self.embedding_dim}"]
        if self.max_norm is not None:
            shown.append(f"max_norm={self.max_norm}")
        if self.norm_type != 2:
            shown.append(f"norm_type={self.norm_type}")
        if self.scale_grad_by_freq is not False:
            shown.append(f"scale_grad_by_freq={self.scale_grad_by_freq}")
        shown.append(f"mode={self.mode!r}")
        if self.padding_idx is not None:
            shown.append(f"padding_idx={self.padding_idx}")
        return ", ".join(shown)

    @classmethod
    def from_pretrained(
        cls,
        embeddings: Tensor,
        freeze: bool = True,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        include_last_offset: bool = False,
        padding_idx: int | None = None,
    ) -> EmbeddingBag:
        """An EmbeddingBag whose weight is `embeddings` (shared), frozen unless `freeze=False`."""
        assert embeddings.dim() == 2, "Embeddings parameter is expected to be 2-dimensional"
        rows, cols = embeddings.shape
        bag = cls(
            num_embeddings=rows, embedding_dim=cols, _weight=embeddings, max_norm=max_norm,
            norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, mode=mode,
            sparse=sparse, include_last_offset=include_last_offset, padding_idx=padding_idx,
        )  # fmt: skip
        bag.weight.requires_grad = not freeze
        return bag


name_classes_after(globals(), "torch.nn.modules.sparse")
