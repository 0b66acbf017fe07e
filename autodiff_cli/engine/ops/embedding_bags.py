"""`_embedding_bag`, the kernel of `F.embedding_bag` / `nn.EmbeddingBag`: each bag (a run of
indices between two offsets) reduced to one row by sum, mean or max of the weight rows it looks
up, `padding_idx` entries left out (EmbeddingBagBackward0, edges to weight and
per_sample_weights).

Its gradients are the ops `_embedding_bag_backward` (EmbeddingBagBackwardBackward0 under
create_graph where it has an input that requires grad; reaching it raises PyTorch's "not
implemented") and `_embedding_bag_per_sample_weights_backward` (a NotImplemented node), as
PyTorch's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.optable import defop
from .formula_ops import not_implemented_formula, run

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


def _bag_backward(
    g: np.ndarray,
    per_sample_weights: np.ndarray | None,
    indices: np.ndarray,
    bags: np.ndarray,
    n_bags: int,
    mode: int,
    padding_idx: int,
    num_weights: int,
    max_rows: np.ndarray | None,
) -> np.ndarray:
    """The weight's gradient: each looked-up row gets its bag's gradient (÷ count for mean,
    × its sample weight for sum; for max, the row of each feature's maximum, `max_rows`)."""
    out = np.zeros((num_weights, g.shape[1]), g.dtype)
    if mode == BAG_MODES["max"]:
        bag, col = np.nonzero(max_rows >= 0)
        np.add.at(out, (indices[max_rows[bag, col]], col), g[bag, col])
        return out
    keep = _kept(bags, indices, padding_idx, n_bags)
    share = g[bags[keep]]
    if mode == BAG_MODES["mean"]:
        share = share / np.maximum(_counts(bags, keep, n_bags), 1)[bags[keep], None]
    if per_sample_weights is not None:
        share = share * per_sample_weights[keep][:, None]
    np.add.at(out, indices[keep], share)
    return out


def _sample_weights_backward(
    g: np.ndarray,
    weight: np.ndarray,
    indices: np.ndarray,
    bags: np.ndarray,
    n_bags: int,
    padding_idx: int,
    **params: Any,
) -> np.ndarray:
    """d/d per_sample_weights[k]: its bag's gradient · the row it weighs (0 for padding)."""
    keep = _kept(bags, indices, padding_idx, n_bags)
    rows = g[np.minimum(bags, n_bags - 1)]
    return np.where(keep, np.einsum("kd,kd->k", rows, weight[indices]), 0).astype(weight.dtype)


def _bag_params(params: dict, w: Any) -> dict:
    """The backward ops' parameters: the table's size, and for max the rows of the maxima."""
    weights = _array(w)
    best = None
    if params["mode"] == BAG_MODES["max"]:
        keep = _kept(params["bags"], params["indices"], params["padding_idx"], params["n_bags"])
        best = _argmax_rows(weights, params["indices"], params["bags"], keep, params["n_bags"])
    return {**params, "num_weights": weights.shape[0], "max_rows": best}


def _weight_grad(B: Any, g: Any, w: Any, per_sample_weights: Any, **params: Any) -> Any:
    return run(B, EMBEDDING_BAG_BACKWARD, g, per_sample_weights, **_bag_params(params, w))


def _sample_weight_grad(B: Any, g: Any, w: Any, per_sample_weights: Any, **params: Any) -> Any:
    return run(B, SAMPLE_WEIGHTS_BACKWARD, g, w, **params)


def _no_derivative(B: Any, gg: Any, *saved: Any, **params: Any) -> Any:
    """PyTorch's `_embedding_bag_backward` has no derivative: its node raises when reached."""
    raise NotImplementedError("the derivative for '_embedding_bag_backward' is not implemented.")


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
EMBEDDING_BAG_BACKWARD = defop(
    "_embedding_bag_backward",
    "EmbeddingBagBackwardBackward0",
    _bag_backward,
    _no_derivative,
    _no_derivative,
    promotes=False,
    saves=(0, 1),
    arg_names=("grad", "per_sample_weights"),
    rules=("not differentiable", "not differentiable"),
    forward_ad=False,
)
SAMPLE_WEIGHTS_BACKWARD = defop(
    "_embedding_bag_per_sample_weights_backward",
    "NotImplemented",
    _sample_weights_backward,
    not_implemented_formula("_embedding_bag_per_sample_weights_backward", lambda *a, **k: None),
    not_implemented_formula("_embedding_bag_per_sample_weights_backward", lambda *a, **k: None),
    promotes=False,
    saves=(0, 1),
    arg_names=("grad", "weight"),
    rules=("not differentiable", "not differentiable"),
)
SAMPLE_WEIGHTS_BACKWARD.node_class().name = lambda self: "torch::autograd::NotImplemented"
