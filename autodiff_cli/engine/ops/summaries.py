"""Summaries of a tensor's values: aminmax (one AminmaxBackward0 node for both results), renorm
(RenormBackward0: each slice along `dim` rescaled to a p-norm of at most maxnorm) and histogram
(counts and bin edges, not differentiable)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_inplace, apply_op
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.tensor import Tensor, _dims_text, _wrap
from ..core.tensor_values import _norm_dim
from . import creation
from .formula_ops import run
from .reductions import AMAX, _by_count, return_types

__all__ = ["aminmax", "renorm", "histogram"]


def _named_pair(type_name: str, first: str, second: str) -> type:
    """`torch.return_types.<type_name>`: a 2-tuple whose items are also `first` and `second`."""

    def __repr__(self: tuple) -> str:  # noqa: N807
        return f"torch.return_types.{type_name}(\n{first}={self[0]!r},\n{second}={self[1]!r})"

    namespace = {
        "__slots__": (),
        "__repr__": __repr__,
        "__str__": __repr__,
        first: property(lambda self: self[0]),
        second: property(lambda self: self[1]),
    }
    cls = type(type_name, (tuple,), namespace)
    cls.__module__ = "torch.return_types"
    setattr(type(return_types), type_name, cls)
    return cls


AminmaxResult = _named_pair("aminmax", "min", "max")
HistogramResult = _named_pair("histogram", "hist", "bin_edges")
HistogramOutResult = _named_pair("histogram_out", "hist", "bin_edges")


# --------------------------------------------------------------------------------------------
# aminmax
# --------------------------------------------------------------------------------------------


def _aminmax(a: np.ndarray, dim: int | None = None, keepdim: bool = False) -> tuple:
    axis = None if a.ndim == 0 else dim
    keep = keepdim and a.ndim > 0
    return np.min(a, axis=axis, keepdims=keep), np.max(a, axis=axis, keepdims=keep)


def _aminmax_grad(B: Any, grads: list, self: Any, dim: int | None = None, keepdim: bool = False):
    """Each result's gradient shared among the elements equal to it (scale_grad_by_count), the
    min's part first."""
    dims = None if dim is None or not self.shape else (dim,)
    keep = keepdim and bool(self.shape)
    total = None
    for g, pick in zip(grads, (np.min, np.max)):
        if g is None:
            continue
        value = pick(B.array_of(self), axis=None if dims is None else dim, keepdims=keep)
        part = _by_count(B, g, self, B.const(np.asarray(value)), dims, keep)
        total = part if total is None else total + part
    return total


AMINMAX = defop(
    "aminmax",
    "AminmaxBackward0",
    _aminmax,
    _aminmax_grad,
    n_outputs=2,
    rules=("1 at the minima and at the maxima (each shared among ties)",),
)


def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False) -> AminmaxResult:
    """(min, max) of the whole tensor, or along `dim` (one node for both, AminmaxBackward0)."""
    ndim = input.ndim
    if dim is not None:
        dim = _norm_dim(int(dim), ndim)
        if ndim and input.shape[dim] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {dim} to have non-zero size.")
    elif input.numel() == 0:
        raise RuntimeError(
            "aminmax(): cannot compute aminmax over an empty dimension as the operation has no "
            "identity."
        )
    return AminmaxResult(apply_op(AMINMAX, (input,), {"dim": dim, "keepdim": bool(keepdim)}))


# --------------------------------------------------------------------------------------------
# renorm
# --------------------------------------------------------------------------------------------


def _slice_norms(B: Any, x: Any, p: float, dims: tuple) -> Any:
    """The p-norm of each slice (the dims other than `dim` reduced, kept)."""
    a = B.abs(x)
    if p == math.inf:
        return run(B, AMAX, a, dim=dims, keepdim=True)
    if p == 0:
        return B.sum_dims(B.astype_like(B.array_of(a) != 0, a), dims, True)
    if p == 1:
        return B.sum_dims(a, dims, True)
    return B.sum_dims(a**p, dims, True) ** (1.0 / p)


def _renorm(a: np.ndarray, p: float, dim: int, maxnorm: float) -> np.ndarray:
    dims = tuple(d for d in range(a.ndim) if d != dim)
    norm = _slice_norms(_NUMPY, a, p, dims)
    factor = np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0).astype(a.dtype)
    return (a * factor).astype(a.dtype)


def _norm_backward(B: Any, g: Any, x: Any, p: float, norm: Any) -> Any:
    """d norm / d x times `g` (one value per slice), as PyTorch's norm_backward."""
    sign = B.sign(x)
    zero_norm = B.array_of(norm) == 0
    if p == 0:
        return B.zeros_like(x)
    if p == 1:
        return sign * g
    if p == 2:
        return x * B.where(zero_norm, 0.0, g / norm)
    if p == math.inf:
        mask = B.astype_like(B.eq(B.abs(x), norm), x)
        dims = tuple(d for d, n in enumerate(norm.shape) if n == 1)
        return sign * mask * (g / B.sum_dims(mask, dims, True))
    scaled = sign * B.abs(x) ** (p - 1)
    if p < 1:
        scaled = B.where(B.array_of(x) == 0, 0.0, scaled)
    return scaled * B.where(zero_norm, 0.0, g / norm ** (p - 1))


def _renorm_grad(B: Any, g: Any, self: Any, p: float, dim: int, maxnorm: float) -> Any:
    """PyTorch's renorm_backward: factor·grad − factor/(norm+1e-7) · norm_backward(Σ grad·self)
    where the slice's norm exceeds maxnorm, grad elsewhere."""
    dims = tuple(d for d in range(len(self.shape)) if d != dim)
    norm = _slice_norms(B, self, p, dims)
    nb = _norm_backward(B, B.sum_dims(self * g, dims, True), self, p, norm)
    invnorm = 1.0 / (norm + 1e-7)
    factor = invnorm * maxnorm
    return B.where(B.array_of(norm) > maxnorm, factor * g - (factor * invnorm) * nb, g)


class _NUMPY:  # noqa: N801 - the numpy functions `_slice_norms` needs, as a backend offers them
    creates_graph = False
    abs = staticmethod(np.abs)
    array_of = staticmethod(np.asarray)
    const = staticmethod(np.asarray)

    @staticmethod
    def astype_like(mask: Any, like: Any) -> Any:
        return np.asarray(mask).astype(np.asarray(like).dtype)

    @staticmethod
    def sum_dims(x: Any, dims: tuple, keepdim: bool) -> Any:
        return np.sum(x, axis=dims, keepdims=keepdim)


RENORM = defop(
    "renorm",
    "RenormBackward0",
    _renorm,
    _renorm_grad,
    rules=("maxnorm/norm · (1 − x·∂norm/∂x / norm) where the slice's norm exceeds maxnorm",),
)


def _renorm_args(input: Tensor, p: Any, dim: Any, maxnorm: Any) -> dict:
    if input.ndim < 2:
        raise RuntimeError(
            f"renorm: input needs at least 2 dimensions, got {input.ndim} dimensions"
        )
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {_number(float(maxnorm))}")
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if input._data.dtype.kind != "f":
        raise RuntimeError(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
            + dtypes.scalar_name(input._data.dtype)
        )
    return {"p": float(p), "dim": _norm_dim(int(dim), input.ndim), "maxnorm": float(maxnorm)}


def renorm(input: Tensor, p: float, dim: int, maxnorm: float) -> Tensor:
    """Each slice `input.select(dim, i)` whose p-norm exceeds maxnorm, scaled down to
    maxnorm / (norm + 1e-7) times itself (RenormBackward0)."""
    return apply_op(RENORM, (input,), _renorm_args(input, p, dim, maxnorm))


def renorm_(self: Tensor, p: float, dim: int, maxnorm: float) -> Tensor:
    return apply_inplace(RENORM, self, (), _renorm_args(self, p, dim, maxnorm))


# --------------------------------------------------------------------------------------------
# histogram
# --------------------------------------------------------------------------------------------


def _edges(a: np.ndarray, bins: int, range: Any) -> np.ndarray:
    """`bins + 1` evenly spaced edges over `range` or the data's [min, max] (widened by 0.5
    each way when they are equal; [0, 1] for no data)."""
    if range is not None:
        low, high = (float(v) for v in range)
    elif a.size:
        low, high = float(np.min(a)), float(np.max(a))
    else:
        low, high = 0.0, 1.0
    if low > high:
        raise RuntimeError(
            f"torch.histogramdd: min should not exceed max, but got min {_number(low)} max "
            f"{_number(high)} for dimension 0"
        )
    if not (math.isfinite(low) and math.isfinite(high)):
        raise RuntimeError(
            f"torch.histogramdd: dimension 0's range [{_number(low)}, {_number(high)}] is not "
            "finite"
        )
    if low == high:
        low, high = low - 0.5, high + 0.5
    dtype = dtypes.BY_NUMPY[a.dtype]
    return creation.linspace(low, high, bins + 1, dtype=dtype)._data  # (PyTorch's kernel)


def _number(v: float) -> str:
    return str(int(v)) if v.is_integer() else str(v)


def _counts(a: np.ndarray, edges: np.ndarray, weight: np.ndarray | None) -> np.ndarray:
    """Each value's bin by binary search over the edges (the last edge inclusive); values
    outside [first edge, last edge] are left out."""
    n = len(edges) - 1
    flat = a.reshape(-1)
    inside = (flat >= edges[0]) & (flat <= edges[-1])
    index = np.searchsorted(edges, flat[inside], side="right") - 1
    index = np.minimum(index, n - 1)
    w = None if weight is None else weight.reshape(-1)[inside]
    return np.bincount(index, weights=w, minlength=n).astype(a.dtype)


def _check_histogram(input: Tensor, weight: Any) -> None:
    kind = input._data.dtype.kind
    if kind != "f":
        name = dtypes.scalar_name(input._data.dtype)
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{name}'")
    if weight is not None and tuple(weight.shape) != tuple(input.shape):
        raise RuntimeError(
            "torch.histogramdd: if weight tensor is provided it should have the same shape as "
            "the input tensor excluding its innermost dimension, but got input with shape "
            f"{_dims_text((input.numel(), 1))} and weight with shape "
            f"{_dims_text(tuple(weight.shape))}"
        )


def histogram(
    input: Tensor,
    bins: Any = 100,
    *,
    range: Any = None,
    weight: Tensor | None = None,
    density: bool = False,
    out: Any = None,
) -> HistogramResult:
    """(hist, bin_edges): `bins` equal-width bins (an int) or the given edges (a 1-D Tensor);
    weighted counts with `weight`; with `density`, counts / (total · bin width)."""
    _check_histogram(input, weight)
    a = input._data
    if isinstance(bins, Tensor):
        edges = np.asarray(bins._data, a.dtype)
    else:
        if int(bins) <= 0:
            raise RuntimeError(
                f"torch.histogram(): bins must be > 0, but got {int(bins)} for dimension 0"
            )
        edges = _edges(a, int(bins), range)
    if len(edges) > 1 and edges[0] <= edges[-1]:
        hist = _counts(a, edges, None if weight is None else weight._data)
    else:
        hist = np.zeros(max(len(edges) - 1, 0), a.dtype)
    if density:
        widths = np.diff(edges)
        with np.errstate(divide="ignore", invalid="ignore"):
            hist = (hist / (hist.sum() * widths)).astype(a.dtype)
    result = HistogramResult((_wrap(hist), _wrap(np.array(edges, a.dtype))))
    if out is not None:  # out=(hist, bin_edges): resized and written, as PyTorch does
        for target, value in zip(out, result):
            target.resize_(value.shape)
            target.copy_(value)
        return HistogramOutResult(tuple(out))
    return result


def _aminmax_method(self: Tensor, *, dim: int | None = None, keepdim: bool = False) -> Any:
    return aminmax(self, dim=dim, keepdim=keepdim)


def _histogram_method(self: Tensor, bins: Any = 100, **kwargs: Any) -> HistogramResult:
    return histogram(self, bins, **kwargs)


tensor_methods("ops.summaries", {"aminmax": _aminmax_method, "histogram": _histogram_method})
declare_forms(RENORM, renorm, method=True, inplace=renorm_)
