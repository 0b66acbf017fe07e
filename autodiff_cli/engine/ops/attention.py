"""The op entries of attention: `_safe_softmax` (SafeSoftmaxBackward0, the softmax of
`scaled_dot_product_attention`'s math path: a row masked out entirely gives zeros, not NaN) and
the fused CPU kernel `_scaled_dot_product_flash_attention_for_cpu`
(ScaledDotProductFlashAttentionForCpuBackward0), which PyTorch runs for 4-D inputs without
dropout. `nn/functional_attention.py` calls them; it declares no op.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.optable import defop
from .formula_ops import run
from .nn_backward import SOFTMAX_BACKWARD


def _safe_softmax(a: np.ndarray, dim: int) -> np.ndarray:
    """softmax along `dim`; a row whose entries are all -inf gives zeros."""
    top = np.maximum.reduce(a, dim, None, None, True)
    dead = np.isneginf(top)
    e = np.exp(a - np.where(dead, 0, top))
    total = np.add.reduce(e, dim, None, None, True)
    out = np.where(dead, 0, e / np.where(dead, 1, total))
    return out.astype(a.dtype, copy=False)


SAFE_SOFTMAX = defop(
    "_safe_softmax",
    "SafeSoftmaxBackward0",
    _safe_softmax,
    lambda B, g, result, dim: run(B, SOFTMAX_BACKWARD, g, result, dim=dim),
    rules=("softmax · (grad - Σ grad · softmax)",),
)


def _scores(B: Any, query: Any, key: Any, scale: float, attn_mask: Any) -> Any:
    """`query @ keyᵀ · scale + mask`, on arrays or (under `B.creates_graph`) Tensors."""
    scores = B.matmul(query, B.transpose(key, -2, -1)) * scale
    return scores if attn_mask is None else scores + B.const(attn_mask)


def _weights(B: Any, query: Any, key: Any, scale: float, attn_mask: Any) -> Any:
    """The attention weights: the safe softmax of the scores over the keys."""
    scores = _scores(B, query, key, scale, attn_mask)
    return run(B, SAFE_SOFTMAX, scores, dim=len(scores.shape) - 1)


def _flash_forward(query: Any, key: Any, value: Any, scale: float, attn_mask: Any) -> np.ndarray:
    scores = np.matmul(query, np.swapaxes(key, -2, -1)) * query.dtype.type(scale)
    if attn_mask is not None:
        scores = scores + attn_mask
    weights = _safe_softmax(scores.astype(query.dtype, copy=False), scores.ndim - 1)
    return np.matmul(weights, value).astype(query.dtype, copy=False)


def flash_logsumexp(query: Any, key: Any, scale: float, attn_mask: Any) -> np.ndarray:
    """The log-sum-exp of each query's scores over the keys (the fused kernel keeps it for its
    backward; its node shows it as `_saved_logsumexp`), -inf for a row masked out entirely."""
    scores = np.matmul(query, np.swapaxes(key, -2, -1)) * query.dtype.type(scale)
    if attn_mask is not None:
        scores = scores + attn_mask
    top = np.maximum.reduce(scores, -1, None, None, True)
    shift = np.where(np.isneginf(top), 0, top)
    with np.errstate(divide="ignore"):
        total = np.log(np.add.reduce(np.exp(scores - shift), -1))
    return (total + shift[..., 0]).astype(query.dtype, copy=False)


def _score_grad(
    B: Any, g: Any, query: Any, key: Any, value: Any, scale: float, attn_mask: Any
) -> Any:
    """d(loss)/d(scores): softmax's backward of `g @ valueᵀ`, times the scale."""
    weights = _weights(B, query, key, scale, attn_mask)
    d_weights = B.matmul(g, B.transpose(value, -2, -1))
    d_scores = weights * (d_weights - B.sum_dims(d_weights * weights, (-1,), True))
    return d_scores * scale


SDPA_FLASH_CPU = defop(
    "_scaled_dot_product_flash_attention_for_cpu",
    "ScaledDotProductFlashAttentionForCpuBackward0",
    _flash_forward,
    lambda B, g, query, key, value, scale, attn_mask: B.matmul(
        _score_grad(B, g, query, key, value, scale, attn_mask), key
    ),
    lambda B, g, query, key, value, scale, attn_mask: B.matmul(
        B.transpose(_score_grad(B, g, query, key, value, scale, attn_mask), -2, -1), query
    ),
    lambda B, g, query, key, value, scale, attn_mask: B.matmul(
        B.transpose(_weights(B, query, key, scale, attn_mask), -2, -1), g
    ),
    arg_names=("query", "key", "value"),
    rules=(
        "dS @ key · scale, dS = P ∘ (grad @ valueᵀ - Σ P ∘ grad @ valueᵀ)",
        "dSᵀ @ query · scale",
        "Pᵀ @ grad, P = softmax(query @ keyᵀ · scale + mask)",
    ),
)
