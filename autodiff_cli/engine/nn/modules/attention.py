"""`nn.MultiheadAttention` (and its out projection, `NonDynamicallyQuantizableLinear`).

As PyTorch: the packed in-projection `in_proj_weight` (3·E, E) when key and value have the
query's size, else `q_proj_weight`/`k_proj_weight`/`v_proj_weight`; xavier_uniform_ weights and
zero biases, drawn after the out projection's own initialisation, so that `torch.manual_seed`
gives PyTorch's values. Inputs are (L, N, E), or (N, L, E) with `batch_first`.
"""

from __future__ import annotations

from typing import Any

from ...core.tensor import Tensor
from ...pytorch_home import name_classes_after
from .. import functional as F
from .. import init
from ..functional_attention import _canonical_mask
from ..module import Module
from ..parameter import Parameter, parameter_storage
from .linear import Linear


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear (PyTorch's marker class for MultiheadAttention's out projection)."""


class MultiheadAttention(Module):
    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        add_bias_kv: bool = False,
        add_zero_attn: bool = False,
        kdim: int | None = None,
        vdim: int | None = None,
        batch_first: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                "embed_dim and num_heads must be greater than 0, got "
                f"embed_dim={embed_dim} and num_heads={num_heads} instead"
            )
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self._make_parameters(bias, add_bias_kv, dtype)
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _make_parameters(self, bias: bool, add_bias_kv: bool, dtype: Any) -> None:
        e = self.embed_dim
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(parameter_storage((e, e), dtype))
            self.k_proj_weight = Parameter(parameter_storage((e, self.kdim), dtype))
            self.v_proj_weight = Parameter(parameter_storage((e, self.vdim), dtype))
            self.register_parameter("in_proj_weight", None)
        else:
            self.in_proj_weight = Parameter(parameter_storage((3 * e, e), dtype))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(parameter_storage((3 * e,), dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(e, e, bias=bias, dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(parameter_storage((1, 1, e), dtype))
            self.bias_v = Parameter(parameter_storage((1, 1, e), dtype))
        else:
            self.bias_k = self.bias_v = None

    def _reset_parameters(self) -> None:
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def forward(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        key_padding_mask: Tensor | None = None,
        need_weights: bool = True,
        attn_mask: Tensor | None = None,
        average_attn_weights: bool = True,
        is_causal: bool = False,
    ) -> tuple:
        batched = query.ndim == 3
        dtype = query._data.dtype
        key_padding_mask = _canonical_mask(
            key_padding_mask, "key_padding_mask", attn_mask, "attn_mask", dtype
        )
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", dtype, check_other=False)
        if self.batch_first and batched:
            query, key, value = _to_sequence_first(query, key, value)
        output, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads,
            self.in_proj_weight, self.in_proj_bias, self.bias_k, self.bias_v,
            self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias,
            training=self.training, key_padding_mask=key_padding_mask,
            need_weights=need_weights, attn_mask=attn_mask,
            use_separate_proj_weight=not self._qkv_same_embed_dim,
            q_proj_weight=self.q_proj_weight, k_proj_weight=self.k_proj_weight,
            v_proj_weight=self.v_proj_weight, average_attn_weights=average_attn_weights,
            is_causal=is_causal,
        )  # fmt: skip
        if self.batch_first and batched:
            return output.transpose(1, 0), weights
        return output, weights


def _to_sequence_first(query: Tensor, key: Tensor, value: Tensor) -> tuple:
    """(N, L, E) -> (L, N, E), keeping which of them are one tensor (self-attention's single
    projection depends on it)."""
    if key is value:
        if query is key:
            query = key = value = query.transpose(1, 0)
        else:
            query, key = (x.transpose(1, 0) for x in (query, key))
            value = key
        return query, key, value
    return tuple(x.transpose(1, 0) for x in (query, key, value))


name_classes_after(globals(), "torch.nn.modules.activation")
NonDynamicallyQuantizableLinear.__module__ = "torch.nn.modules.linear"
