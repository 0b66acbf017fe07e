"""Distances between vectors: `torch.cosine_similarity`, `torch.pairwise_distance`,
`torch.pdist` (nn.functional re-exports them, as PyTorch's are the same functions).

pdist is an op of its own (PdistBackward0, and PdistBackwardBackward0 for its gradient under
create_graph, which PyTorch cannot differentiate); pairwise_distance is ATen's composition
`norm(x1 - x2 + eps, p, last dim)` with the old `norm` overload (NormBackward1), and
cosine_similarity divides each input by its cloned, eps-clamped 2-norm (LinalgVectorNormBackward0).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtypes, script_data
from ..core.apply import apply_op
from ..core.grad_mode import no_grad
from ..core.optable import defop
from ..core.tensor import Tensor, broadcast_shape
from . import arithmetic
from .formula_ops import ADD_SCALAR, run
from .reductions import _dims, _norm_grad, _vector_norm
from .statistics import _p_norm

__all__ = ["cosine_similarity", "pairwise_distance", "pdist"]

# --------------------------------------------------------------------------------------------
# cosine_similarity
# --------------------------------------------------------------------------------------------


def _clamp_min_without_graph(x: Tensor, eps: float) -> None:
    """`x.clamp_min_(eps)` under no_grad: the values change, the graph does not."""
    with no_grad():
        array = x._array()
        np.maximum(array, np.asarray(script_data.number(eps, "eps"), array.dtype), out=array)
        x._bump_version()


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """ATen's composition: each input over its (cloned, eps-clamped) 2-norm, then
    `(x1 / n1 * (x2 / n2)).sum(dim)`."""
    common = np.result_type(x1._data.dtype, x2._data.dtype)
    if common.kind != "f":
        raise RuntimeError(
            "expected common dtype to be floating point, yet common dtype is "
            + dtypes.scalar_name(common)
        )
    if x1._data.shape != x2._data.shape:
        shape = broadcast_shape(x1._data.shape, x2._data.shape)
        x1, x2 = arithmetic.expand(x1, shape), arithmetic.expand(x2, shape)
    ndim = max(x1.ndim, 1)
    if not -ndim <= dim < ndim:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got "
            f"{dim})"
        )
    n1 = x1.norm(2, dim, keepdim=True).clone()
    n2 = x2.norm(2, dim, keepdim=True).clone()
    _clamp_min_without_graph(n1, eps)
    _clamp_min_without_graph(n2, eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


# --------------------------------------------------------------------------------------------
# pairwise_distance: the old `norm(input, p, dim, keepdim)` overload
# --------------------------------------------------------------------------------------------

NORM_P_DIM = defop(
    "norm_p_dim",
    "NormBackward1",
    _vector_norm,
    _norm_grad,
    saves=(0, "result"),
    rules=("self / ‖self‖ (p = 2); sign(self) · |self|^(p-1) / ‖self‖^(p-1)",),
    aten="norm",
)


def pairwise_distance(
    x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    """`‖x1 - x2 + eps‖_p` along the last dimension of the broadcast inputs."""
    innermost = max(x1.ndim, x2.ndim) - 1
    diff = x1 - x2
    if diff._data.dtype.kind == "f":
        shifted = apply_op(ADD_SCALAR, (diff,), {"other": eps})
    else:  # (an integer difference plus a float: the default float dtype)
        shifted = diff + eps
    params = {"p": p, "dim": _dims(innermost, shifted.ndim), "keepdim": bool(keepdim)}
    return apply_op(NORM_P_DIM, (shifted,), params)


# --------------------------------------------------------------------------------------------
# pdist
# --------------------------------------------------------------------------------------------


def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The row pairs (i, j), i < j, in PyTorch's order (row-major upper triangle)."""
    return np.triu_indices(n, 1)


def _pdist_np(a: np.ndarray, p: float) -> np.ndarray:
    i, j = _pairs(a.shape[0])
    return np.asarray(_p_norm(a[i] - a[j], p, -1), a.dtype).reshape(-1)


def _pdist_slope(diff: np.ndarray, dist: np.ndarray, p: float) -> np.ndarray:
    """d‖diff‖_p / d diff as PyTorch's pdist backward takes it: 0 where the distance is 0 (and,
    for p < 1, where a coordinate difference is 0); p = 0 has no gradient."""
    with np.errstate(all="ignore"):
        if p == 0:
            return np.zeros_like(diff)
        if p == 1:
            slope = np.sign(diff)
        elif p == math.inf:
            slope = np.sign(diff) * (np.abs(diff) == dist)
        elif p == 2:
            slope = diff / dist
        else:
            slope = np.sign(diff) * np.abs(diff) ** (p - 1) / dist ** (p - 1)
            slope = np.where(diff == 0, 0, slope)
    return np.where(dist == 0, 0, slope).astype(diff.dtype)


def _pdist_backward_np(g: Any, a: Any, result: Any, p: float) -> np.ndarray:
    i, j = _pairs(a.shape[0])
    contribution = np.asarray(g)[:, None] * _pdist_slope(a[i] - a[j], result[:, None], p)
    out = np.zeros_like(a)
    np.add.at(out, i, contribution)
    np.subtract.at(out, j, contribution)
    return out


def _no_double_backward(*_: Any, **__: Any) -> Any:
    raise NotImplementedError("the derivative for '_pdist_backward' is not implemented.")


PDIST_BACKWARD = defop(
    "_pdist_backward",
    "PdistBackwardBackward0",
    _pdist_backward_np,
    _no_double_backward,
    _no_double_backward,
    _no_double_backward,
    arg_names=("grad", "self", "pdist"),
    rules=("not implemented (as PyTorch)",) * 3,
)
PDIST = defop(
    "_pdist_forward",
    "PdistBackward0",
    _pdist_np,
    lambda B, g, self, result, p: run(B, PDIST_BACKWARD, g, self, result, p=p),
    saves=(0, "result"),
    rules=("Σ over the pairs of row i: grad · d‖x_i − x_j‖_p (negated for row j)",),
    forward_ad=False,
)


def pdist(input: Tensor, p: float = 2) -> Tensor:
    """The p-norm distances between every pair of rows i < j of a 2-D input, as a vector."""
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    if input._data.dtype.kind != "f":
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    return apply_op(PDIST, (input,), {"p": float(p)})
