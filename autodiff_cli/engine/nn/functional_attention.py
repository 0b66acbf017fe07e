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
import warnings
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_op
from ..core.grad_mode import GradMode
from ..core.saved_hooks import also_shows as _also_shows
from ..core.tensor import Tensor, _wrap
from ..ops.attention import SAFE_SOFTMAX, SDPA_FLASH_CPU, flash_logsumexp
from ..ops.formula_ops import MUL_SCALAR
from ..ops.matrix import bmm, linear, matmul
from ..ops.matrix_functions import baddbmm
from ..ops.nn_functional_ops import SOFTMAX
from ..ops.views import cat
from .dropout import _scaled_mask
from .functional_ops import pad

__all__ = ["scaled_dot_product_attention", "multi_head_attention_forward"]


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
            "Expected query, key, and value to all be  at least 2 dimensional, but got "
            f"query.dim: {query.ndim} key.dim: {key.ndim} and value.dim: {value.ndim} instead."
        )
    if not 0.0 <= dropout_p <= 1.0:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p:g}")


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


def _check_mask_broadcasts(mask: Any, query: Tensor, key: Tensor) -> None:
    """The fused kernel's message for a mask that does not broadcast to (..., L, S)."""
    if mask is None:
        return
    scores = query._data.shape[:-1] + (key._data.shape[-2],)
    shape = mask._data.shape
    for i in range(1, len(shape) + 1):
        if shape[-i] not in (1, scores[-i]):
            raise RuntimeError(
                f"The size of tensor a ({scores[-i]}) must match the size of tensor b "
                f"({shape[-i]}) at non-singleton dimension {len(scores) - i}"
            )


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
    weights = _safe_softmax(scores, -1)
    if dropout_p > 0.0:
        weights = _dropout(weights, dropout_p)
    return matmul(weights, value)


def _dropout(x: Tensor, p: float) -> Tensor:
    """F.dropout in training: `x` times PyTorch's scaled bernoulli(1 - p) mask (MulBackward0)."""
    return x * _scaled_mask(x, x._data.shape, p)


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
    given_scale = scale
    scale = 1.0 / math.sqrt(head_size) if scale is None else float(scale)
    mask = _float_mask(attn_mask, is_causal, query, key)
    if _fused(query, key, value, mask, float(dropout_p)):
        _check_mask_broadcasts(mask, query, key)
        shown = {"scale": given_scale, "is_causal": bool(is_causal), "dropout_p": 0.0}
        shown["attn_mask"] = None if is_causal else mask
        return _flash(query, key, value, scale, mask, shown)
    return _math_path(query, key, value, mask, float(dropout_p), scale)


def _flash(query: Tensor, key: Tensor, value: Tensor, scale: float, mask: Any, shown: dict):
    """The fused kernel's node, showing PyTorch's `_saved_*` values (the mask as given or
    made float, the scale as given, the output and the log-sum-exp it keeps)."""
    data = None if mask is None else np.asarray(mask._data, query._data.dtype)
    out = apply_op(SDPA_FLASH_CPU, (query, key, value), {"scale": scale, "attn_mask": data})
    lse = flash_logsumexp(query._data, key._data, scale, data)
    _also_shows(out, output=out.detach(), logsumexp=_wrap(lse), **shown)
    return out


# --------------------------------------------------------------------------------------------
# multi_head_attention_forward (nn.MultiheadAttention's computation)
# --------------------------------------------------------------------------------------------


def _canonical_mask(
    mask: Any, name: str, other: Any, other_name: str, dtype: Any, check_other: bool = True
) -> Any:
    """A bool mask (True = masked out) as an additive float mask of `dtype` (0 / -inf); a
    float mask as is (PyTorch's `_canonical_mask`)."""
    if mask is None:
        return None
    kind = mask._data.dtype
    if kind != np.bool_ and kind.kind != "f":
        raise AssertionError(f"only bool and floating types of {name} are supported")
    if check_other and other is not None and kind != other._data.dtype:
        warnings.warn(
            f"Support for mismatched {name} and {other_name} is deprecated. Use same type for "
            "both instead.",
            UserWarning,
            stacklevel=4,
        )
    if kind.kind == "f":
        return mask
    data = np.asarray(mask._data)
    return _wrap(np.where(data, dtype.type(-np.inf), dtype.type(0)))


def _split_heads(x: Tensor, length: int, batch_heads: int, head_dim: int) -> Tensor:
    """(length, batch, embed) -> (batch · heads, length, head_dim)."""
    return x.view(length, batch_heads, head_dim).transpose(0, 1)


def _packed_projection(query: Tensor, key: Tensor, value: Tensor, w: Tensor, b: Any) -> tuple:
    """PyTorch's `_in_projection_packed`: one linear for self-attention (split after), two when
    key is value, three otherwise."""
    embed = query._data.shape[-1]
    if key is value:
        if query is key:
            proj = linear(query, w, b)
            proj = proj.unflatten(-1, (3, embed)).unsqueeze(0).transpose(0, -2).squeeze(-2)
            proj = proj.contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([embed, embed * 2])
        b_q, b_kv = (None, None) if b is None else b.split([embed, embed * 2])
        kv = linear(key, w_kv, b_kv)
        kv = kv.unflatten(-1, (2, embed)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return linear(query, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(query, w_q, b_q), linear(key, w_k, b_k), linear(value, w_v, b_v)


def _projections(query: Tensor, key: Tensor, value: Tensor, p: dict) -> tuple:
    if not p["use_separate_proj_weight"]:
        return _packed_projection(query, key, value, p["in_proj_weight"], p["in_proj_bias"])
    bias = p["in_proj_bias"]
    b_q, b_k, b_v = (None, None, None) if bias is None else bias.chunk(3)
    return (
        linear(query, p["q_proj_weight"], b_q),
        linear(key, p["k_proj_weight"], b_k),
        linear(value, p["v_proj_weight"], b_v),
    )


def _check_attn_mask(attn_mask: Any, target: int, source: int, batch_heads: int) -> Any:
    if attn_mask is None:
        return None
    if attn_mask.ndim == 2:
        if tuple(attn_mask._data.shape) != (target, source):
            raise RuntimeError(
                f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                f"{(target, source)}."
            )
        return attn_mask.unsqueeze(0)
    if attn_mask.ndim == 3:
        if tuple(attn_mask._data.shape) != (batch_heads, target, source):
            raise RuntimeError(
                f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                f"{(batch_heads, target, source)}."
            )
        return attn_mask
    raise RuntimeError(f"attn_mask's dimension {attn_mask.ndim} is not supported")


def _extra_keys(k: Tensor, v: Tensor, masks: list, p: dict, batch: int) -> tuple:
    """`bias_k`/`bias_v` appended along the source (a column of masks each)."""

    k = cat([k, p["bias_k"].repeat(1, batch, 1)])
    v = cat([v, p["bias_v"].repeat(1, batch, 1)])
    return k, v, [None if m is None else pad(m, (0, 1)) for m in masks]


def _zero_keys(k: Tensor, v: Tensor, masks: list) -> tuple:
    """`add_zero_attn`: a zero key and value appended along the source."""

    zeros = _wrap(np.zeros((k._data.shape[0], 1, k._data.shape[2]), k._data.dtype))
    k = cat([k, zeros], 1)
    v = cat([v, _wrap(np.zeros((v._data.shape[0], 1, v._data.shape[2]), v._data.dtype))], 1)
    return k, v, [None if m is None else pad(m, (0, 1)) for m in masks]


def _merge_padding(attn_mask: Any, padding: Any, batch: int, heads: int, source: int) -> Any:
    """The key padding mask, one row per (batch, head), added to the attention mask."""
    if padding is None:
        return attn_mask
    for i, expected in enumerate((batch, source)):
        if padding._data.shape[i] != expected:
            raise AssertionError(
                f"Expected key_padded_mask.shape[{i}] to be {expected}, but got "
                f"{padding._data.shape[i]}"
            )
    padding = padding.view(batch, 1, 1, source).expand(-1, heads, -1, -1)
    padding = padding.reshape(batch * heads, 1, source)
    return padding if attn_mask is None else attn_mask + padding


def _weighted_attention(q: Tensor, k: Tensor, v: Tensor, attn_mask: Any, p: dict) -> tuple:
    """need_weights: the weights computed explicitly (baddbmm/bmm, softmax, dropout, bmm)."""
    q_scaled = q * math.sqrt(1.0 / float(q._data.shape[-1]))
    if attn_mask is not None:
        weights = baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
    else:
        weights = bmm(q_scaled, k.transpose(-2, -1))
    weights = apply_op(SOFTMAX, (weights,), {"dim": weights.ndim - 1})
    if p["dropout_p"] > 0.0:
        weights = _dropout(weights, p["dropout_p"])
    return bmm(weights, v), weights


def _attend(q: Tensor, k: Tensor, v: Tensor, attn_mask: Any, p: dict, shape: tuple) -> tuple:
    """The attention of the per-head q, k, v, and the out projection: (output, weights)."""
    target, batch, embed, heads = shape
    source = k._data.shape[1]
    if p["need_weights"]:
        output, weights = _weighted_attention(q, k, v, attn_mask, p)
        output = output.transpose(0, 1).contiguous().view(target * batch, embed)
    else:
        if attn_mask is not None:
            if attn_mask._data.shape[0] == 1 and attn_mask.ndim == 3:
                attn_mask = attn_mask.unsqueeze(0)
            else:
                attn_mask = attn_mask.view(batch, heads, -1, source)
        q, k, v = (x.view(batch, heads, x._data.shape[1], -1) for x in (q, k, v))
        output = scaled_dot_product_attention(q, k, v, attn_mask, p["dropout_p"], p["is_causal"])
        output = output.permute(2, 0, 1, 3).contiguous().view(batch * target, embed)
        weights = None
    output = linear(output, p["out_proj_weight"], p["out_proj_bias"])
    output = output.view(target, batch, output._data.shape[1])
    if weights is not None:
        weights = weights.view(batch, heads, target, source)
        if p["average_attn_weights"]:
            weights = weights.mean(dim=1)
    return output, weights


def _check_key_value(key: Tensor, value: Tensor, separate: bool) -> None:
    k, v = key.shape, value.shape
    if separate and k[:2] != v[:2]:
        raise AssertionError(f"key's sequence and batch dims {k[:2]} do not match value's {v[:2]}")
    if not separate and k != v:
        raise AssertionError(f"key shape {k} does not match value shape {v}")


def _check_mask_dims(attn_mask: Any, batched: bool) -> None:
    if attn_mask is not None and attn_mask.ndim not in (2, 3):
        kind = "batched (3-D)" if batched else "unbatched (2-D)"
        raise AssertionError(
            f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
            f"{attn_mask.ndim}-D tensor instead"
        )


def _check_batched(query: Tensor, key: Tensor, value: Tensor, padding: Any) -> bool:
    """True for (L, N, E) inputs, False for unbatched (L, E) ones (PyTorch's checks)."""
    if query.ndim == 3:
        if key.ndim != 3 or value.ndim != 3:
            raise AssertionError(
                "For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                f"{key.ndim}-D and {value.ndim}-D tensors respectively"
            )
        if padding is not None and padding.ndim != 2:
            raise AssertionError(
                "For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but "
                f"found {padding.ndim}-D tensor instead"
            )
        return True
    if query.ndim == 2:
        if key.ndim != 2 or value.ndim != 2:
            raise AssertionError(
                "For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                f"{key.ndim}-D and {value.ndim}-D tensors respectively"
            )
        if padding is not None and padding.ndim != 1:
            raise AssertionError(
                "For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D "
                f"but found {padding.ndim}-D tensor instead"
            )
        return False
    raise AssertionError(
        f"query should be unbatched 2D or batched 3D tensor but received {query.ndim}-D query "
        "tensor"
    )


def multi_head_attention_forward(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    embed_dim_to_check: int,
    num_heads: int,
    in_proj_weight: Any,
    in_proj_bias: Any,
    bias_k: Any,
    bias_v: Any,
    add_zero_attn: bool,
    dropout_p: float,
    out_proj_weight: Tensor,
    out_proj_bias: Any,
    training: bool = True,
    key_padding_mask: Any = None,
    need_weights: bool = True,
    attn_mask: Any = None,
    use_separate_proj_weight: bool = False,
    q_proj_weight: Any = None,
    k_proj_weight: Any = None,
    v_proj_weight: Any = None,
    static_k: Any = None,
    static_v: Any = None,
    average_attn_weights: bool = True,
    is_causal: bool = False,
) -> tuple:
    """PyTorch's multi-head attention on (L, N, E) inputs (or unbatched (L, E)): the in
    projections, the heads' attention, the out projection; returns (output, weights)."""
    if static_k is not None or static_v is not None:
        raise RuntimeError("multi_head_attention_forward: static_k and static_v are not supported")
    p = dict(locals())
    p["dropout_p"] = dropout_p if training else 0.0
    batched = _check_batched(query, key, value, key_padding_mask)
    _check_mask_dims(attn_mask, batched)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    output, weights = _multi_head(query, key, value, key_padding_mask, attn_mask, p)
    if not batched:
        output = output.squeeze(1)
        weights = None if weights is None else weights.squeeze(0)
    return output, weights


def _multi_head(query: Tensor, key: Tensor, value: Tensor, padding: Any, mask: Any, p: dict):
    target, batch, embed = query._data.shape
    heads = p["num_heads"]
    if embed != p["embed_dim_to_check"]:
        raise AssertionError(
            f"was expecting embedding dimension of {p['embed_dim_to_check']}, but got {embed}"
        )
    dtype = query._data.dtype
    padding = _canonical_mask(padding, "key_padding_mask", mask, "attn_mask", dtype)
    if p["is_causal"] and mask is None:
        raise RuntimeError(
            "Need attn_mask if specifying the is_causal hint. You may use the Transformer "
            "module method `generate_square_subsequent_mask` to create this mask."
        )
    if p["is_causal"] and padding is None and not p["need_weights"]:
        mask = None
    else:
        mask = _canonical_mask(mask, "attn_mask", None, "", dtype, check_other=False)
        if padding is not None:
            p["is_causal"] = False
    head_dim = embed // heads
    _check_key_value(key, value, p["use_separate_proj_weight"])
    q, k, v = _projections(query, key, value, p)
    mask = _check_attn_mask(mask, target, key._data.shape[0], batch * heads)
    if p["bias_k"] is not None and p["bias_v"] is not None:
        k, v, (mask, padding) = _extra_keys(k, v, [mask, padding], p, batch)
    q = _split_heads(q, target, batch * heads, head_dim)
    k = _split_heads(k, k._data.shape[0], batch * heads, head_dim)
    v = _split_heads(v, v._data.shape[0], batch * heads, head_dim)
    if p["add_zero_attn"]:
        k, v, (mask, padding) = _zero_keys(k, v, [mask, padding])
    mask = _merge_padding(mask, padding, batch, heads, k._data.shape[1])
    return _attend(q, k, v, mask, p, (target, batch, embed, heads))


def _safe_softmax(input: Tensor, dim: int) -> Tensor:
    """ATen's `_safe_softmax` (SafeSoftmaxBackward0): softmax, zeros for a row all -inf."""
    return apply_op(SAFE_SOFTMAX, (input,), {"dim": dim % max(input.ndim, 1)})
