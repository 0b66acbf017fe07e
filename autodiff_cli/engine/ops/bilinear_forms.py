"""`_trilinear`, the kernel of `F.bilinear` / `nn.Bilinear`: `out[b, o] = Σ_ij x1[b, i] ·
W[o, i, j] · x2[b, j]` (TrilinearBackward0, edges to x1, W and x2).

PyTorch's `_trilinear` is general (expand and sum dimensions); `bilinear` calls it on flattened
(batch, features) inputs only, which is the one form kept here. Its gradients are matrix products
written with backend ops, so they have graphs of their own under create_graph.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.optable import defop


def _trilinear(i1: np.ndarray, w: np.ndarray, i2: np.ndarray) -> np.ndarray:
    return np.asarray(np.einsum("bi,oij,bj->bo", i1, w, i2), i1.dtype)


def _grad_pairs(B: Any, g: Any, w: Any) -> Any:
    """Σ_o g[b, o] · W[o, i, j] as (batch, I, J)."""
    out, rows, cols = w.shape
    return B.reshape(g @ B.reshape(w, (out, rows * cols)), (g.shape[0], rows, cols))


def _grad_i1(B: Any, g: Any, i1: Any, w: Any, i2: Any) -> Any:
    batch, cols = i2.shape
    pairs = _grad_pairs(B, g, w) @ B.reshape(i2, (batch, cols, 1))
    return B.reshape(pairs, (batch, w.shape[1]))


def _grad_w(B: Any, g: Any, i1: Any, w: Any, i2: Any) -> Any:
    batch = i1.shape[0]
    outer = B.reshape(B.reshape(i1, (batch, -1, 1)) * B.reshape(i2, (batch, 1, -1)), (batch, -1))
    return B.reshape(B.transpose(g, 0, 1) @ outer, w.shape)


def _grad_i2(B: Any, g: Any, i1: Any, w: Any, i2: Any) -> Any:
    batch, rows = i1.shape
    pairs = B.reshape(i1, (batch, 1, rows)) @ _grad_pairs(B, g, w)
    return B.reshape(pairs, (batch, w.shape[2]))


TRILINEAR = defop(
    "_trilinear",
    "TrilinearBackward0",
    _trilinear,
    _grad_i1,
    _grad_w,
    _grad_i2,
    arg_names=("i1", "i2", "i3"),
    saves=(0, 1, 2),
    rules=("Σ_oj grad · W · x2", "grad ⊗ x1 ⊗ x2 summed over the batch", "Σ_oi grad · x1 · W"),
)
