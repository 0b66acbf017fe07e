"""`F.scaled_dot_product_attention`, as PyTorch's CPU backends compute it.

PyTorch picks a kernel by the inputs, and the graph shows which: 4-D query/key/value of one
batch and head count and one head size, without dropout, with no mask or a 2-D/4-D mask that
needs no gradient, run the fused kernel (one ScaledDotProductFlashAttentionForCpuBackward0
node, ops/attention.py); any other call runs the math path, composed of the ops PyTorch
composes it of (MulBackward1 by √scale on query and keyᵀ, matmul's UnsafeView/Bmm chain,
AddBackward0 of the mask, SafeSoftmaxBackward0, dropout's MulBackward0, matmul by value).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_op
from ..core.grad_mode import GradMode
from ..core.tensor import Tensor, _wrap
from ..ops.attention import SAFE_SOFTMAX, SDPA_FLASH_CPU
from ..ops.formula_ops import MUL_SCALAR
from ..ops.matrix import matmul

__all__ = ["scaled_dot_product_attention"]


def _check_inputs(query: Any, key: Any, value: Any, attn_mask: Any, dropout_p: float) -> None:
    for position, (name, x) in enumerate((("query", query), ("key", key), ("value", value))):
        if not isinstance(x, Tensor):
            raise TypeError(
                f"scaled_dot_product_attention(): argument '{name}' (position {position + 1}) "
                f"must be Tensor, not {type(x).__name__}"
            )
    q_type, k_type, v_type = (dtypes.scalar_name(x._data.dtype) for x in (query, key, value))
    if not q_type == k_type == v_type:
        raise RuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{_dtype_name(query)} key.dtype: {_dtype_name(key)} and value.dtype: "
            f"{_dtype_name(value)} instead."
        )
    if attn_mask is not None:
        if not isinstance(attn_mask, Tensor):
            raise TypeError(
                "scaled_dot_product_attention(): argument 'attn_mask' must be Tensor, not "
                f"{type(attn_mask).__name__}"
            )
        kind = attn_mask._data.dtype
        if kind != np.bool_ and kind.kind != "f":
            raise RuntimeError(
                "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                f"attn_mask.dtype: {_dtype_name(attn_mask)} and  query.dtype: "
                f"{_dtype_name(query)} instead."
            )
    if query.ndim < 2 or key.ndim < 2 or value.ndim < 2:
        raise RuntimeError(
            "scaled_dot_product_attention: query, key and value need at least 2 dimensions"
        )
    if not 0.0 <= dropout_p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")


def _dtype_name(x: Tensor) -> str:
    """PyTorch's C++ name of a dtype in these messages (`float`, `double`, `long int`)."""
    names = {"Float": "float", "Double": "double", "Long": "long int", "Int": "int"}
    kind = dtypes.scalar_name(x._data.dtype)
    return names.get(kind, kind.lower())


def _float_mask(attn_mask: Any, is_causal: bool, query: Tensor, key: Tensor) -> Any:
    """The additive mask: a bool mask (True = attend) becomes 0 / -inf; `is_causal` the lower
    triangle of (L, S). A float mask stays itself (a Tensor: it may need a gradient)."""
    length, source = query._data.shape[-2], key._data.shape[-2]
    dtype = query._data.dtype
    if is_causal:
        allowed = np.tril(np.ones((length, source), np.bool_))
        return _wrap(np.where(allowed, dtype.type(0), dtype.type(-np.inf)))
    if attn_mask is None:
        return None
    if attn_mask._data.dtype == np.bool_:
        data = np.asarray(attn_mask._data)
        return _wrap(np.where(data, dtype.type(0), dtype.type(-np.inf)))
    return attn_mask


def _fused(query: Tensor, key: Tensor, value: Tensor, mask: Any, dropout_p: float) -> bool:
    """Whether PyTorch's CPU dispatcher picks the fused (flash) kernel for these inputs."""
    if dropout_p > 0.0 or not query.ndim == key.ndim == value.ndim == 4:
        return False
    q, k, v = (x._data.shape for x in (query, key, value))
    if not (q[:2] == k[:2] == v[:2] and q[-1] == k[-1] == v[-1]):
        return False
    if q[2] == 0 or k[2] == 0:
        return False
    if mask is not None and (mask.ndim not in (2, 4) or (mask.requires_grad and GradMode.enabled)):
        return False
    return True


def _scaled(x: Tensor, factor: float) -> Tensor:
    return apply_op(MUL_SCALAR, (x,), {"other": factor})


def _math_path(
    query: Tensor, key: Tensor, value: Tensor, mask: Any, dropout_p: float, scale: float
) -> Tensor:
    """ATen's `_scaled_dot_product_attention_math`, op for op."""
    root = math.sqrt(scale)
    scores = matmul(_scaled(query, root), _scaled(key.transpose(-2, -1), root))
    if mask is not None:
        scores = scores + mask
    weights = apply_op(SAFE_SOFTMAX, (scores,), {"dim": scores.ndim - 1})
    if dropout_p > 0.0:
        from .functional import dropout

        weights = dropout(weights, dropout_p, True)
    return matmul(weights, value)


def _grouped(query: Tensor, key: Tensor, value: Tensor) -> tuple[Tensor, Tensor]:
    """`enable_gqa`: each key/value head serves query.size(-3) / key.size(-3) query heads."""
    heads, key_heads = query._data.shape[-3], key._data.shape[-3]
    if heads % key_heads or heads % value._data.shape[-3]:
        raise RuntimeError(
            "Number of heads in key and value must divide the number of heads in query"
        )
    key = key.repeat_interleave(heads // key_heads, -3)
    value = value.repeat_interleave(heads // value._data.shape[-3], -3)
    return key, value


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    """softmax(query @ keyᵀ · scale + mask) @ value, the softmax's weights dropped out with
    probability `dropout_p`; `scale` defaults to 1 / √E (E: query's last size)."""
    _check_inputs(query, key, value, attn_mask, float(dropout_p))
    if enable_gqa and query.ndim >= 3 and key._data.shape[-3] != query._data.shape[-3]:
        key, value = _grouped(query, key, value)
    if query._data.shape[-1] != key._data.shape[-1]:
        q, k = query._data.shape, key._data.shape
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{int(np.prod(k[:-2]))}, {q[-1]}] but got: [{int(np.prod(k[:-2]))}, {k[-1]}]."
        )
    head_size = query._data.shape[-1]
    scale = 1.0 / math.sqrt(head_size) if scale is None else float(scale)
    mask = _float_mask(attn_mask, is_causal, query, key)
    if _fused(query, key, value, mask, float(dropout_p)):
        data = None if mask is None else np.asarray(mask._data, query._data.dtype)
        return apply_op(SDPA_FLASH_CPU, (query, key, value), {"scale": scale, "mask": data})
    return _math_path(query, key, value, mask, float(dropout_p), scale)
