"""`_embedding_bag`, the kernel of `F.embedding_bag` / `nn.EmbeddingBag`: each bag (a run of
indices between two offsets) reduced to one row by sum, mean or max of the weight rows it looks
up, `padding_idx` entries left out (EmbeddingBagBackward0, edges to weight and
per_sample_weights).

Its gradients are PyTorch's `_embedding_bag_backward` and
`_embedding_bag_per_sample_weights_backward`, whose results PyTorch records no graph for: under
create_graph they are constants here too (grad_fn None).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.optable import defop

BAG_MODES = {"sum": 0, "mean": 1, "max": 2}


def _array(x: Any) -> np.ndarray:
    return x if isinstance(x, np.ndarray) else x._array()


def _kept(bags: np.ndarray, indices: np.ndarray, padding_idx: int, n_bags: int) -> np.ndarray:
    """The entries that count: in a bag (not past include_last_offset's end), not padding."""
    return (bags < n_bags) & (indices != padding_idx)


def _counts(bags: np.ndarray, keep: np.ndarray, n_bags: int) -> np.ndarray:
    return np.bincount(bags[keep], minlength=n_bags)[:n_bags]


def _argmax_rows(
    w: np.ndarray, indices: np.ndarray, bags: np.ndarray, keep: np.ndarray, n_bags: int
) -> np.ndarray:
    """For each bag and feature, the position in `indices` of the largest value (the first one
    on ties); -1 for an empty bag."""
    best = np.full((n_bags, w.shape[1]), -1, np.int64)
    for k in np.flatnonzero(keep):
        bag, row = bags[k], w[indices[k]]
        current = best[bag]
        seen = current >= 0
        better = ~seen | (row > w[indices[np.where(seen, current, 0)], np.arange(w.shape[1])])
        best[bag] = np.where(better, k, current)
    return best


def _embedding_bag(
    w: np.ndarray,
    per_sample_weights: np.ndarray | None,
    indices: np.ndarray,
    bags: np.ndarray,
    n_bags: int,
    mode: int,
    padding_idx: int,
) -> np.ndarray:
    keep = _kept(bags, indices, padding_idx, n_bags)
    if mode == BAG_MODES["max"]:
        best = _argmax_rows(w, indices, bags, keep, n_bags)
        rows = w[indices[np.maximum(best, 0)], np.arange(w.shape[1])]
        return np.asarray(np.where(best >= 0, rows, 0), w.dtype)
    out = np.zeros((n_bags, w.shape[1]), w.dtype)
    rows = w[indices[keep]]
    if per_sample_weights is not None:
        rows = rows * per_sample_weights[keep][:, None]
    np.add.at(out, bags[keep], rows)
    if mode == BAG_MODES["mean"]:
        out /= np.maximum(_counts(bags, keep, n_bags), 1)[:, None]
    return out


def _weight_grad(B: Any, g: Any, w: Any, per_sample_weights: Any, **params: Any) -> Any:
    """Each looked-up row gets its bag's gradient (÷ count for mean, × its sample weight for sum;
    the max's position only for max)."""
    grad, weights = _array(g), _array(w)
    indices, bags = params["indices"], params["bags"]
    n_bags, mode = params["n_bags"], params["mode"]
    keep = _kept(bags, indices, params["padding_idx"], n_bags)
    out = np.zeros(weights.shape, grad.dtype)
    if mode == BAG_MODES["max"]:
        best = _argmax_rows(weights, indices, bags, keep, n_bags)
        bag, col = np.nonzero(best >= 0)
        np.add.at(out, (indices[best[bag, col]], col), grad[bag, col])
        return B.const(out)
    share = grad[bags[keep]]
    if mode == BAG_MODES["mean"]:
        share = share / np.maximum(_counts(bags, keep, n_bags), 1)[bags[keep], None]
    if per_sample_weights is not None:
        share = share * _array(per_sample_weights)[keep][:, None]
    np.add.at(out, indices[keep], share)
    return B.const(out)


def _sample_weight_grad(B: Any, g: Any, w: Any, per_sample_weights: Any, **params: Any) -> Any:
    """d/d per_sample_weights[k]: its bag's gradient · the row it weighs (0 for padding)."""
    grad, weights = _array(g), _array(w)
    indices, bags = params["indices"], params["bags"]
    keep = _kept(bags, indices, params["padding_idx"], params["n_bags"])
    rows = grad[np.minimum(bags, params["n_bags"] - 1)]
    out = np.where(keep, np.einsum("kd,kd->k", rows, weights[indices]), 0)
    return B.const(np.asarray(out, _array(per_sample_weights).dtype))


EMBEDDING_BAG = defop(
    "_embedding_bag",
    "EmbeddingBagBackward0",
    _embedding_bag,
    _weight_grad,
    _sample_weight_grad,
    promotes=False,
    saves=(0, 1),
    arg_names=("weight", "per_sample_weights"),
    rules=(
        "1 per looked-up row in its bag (÷ bag size for mean, × sample weight; max's row only)",
        "the row the sample weight multiplies, dotted with its bag's gradient",
    ),
    forward_ad=False,
)
