"""Statistics and distances: cdist, dist, trapezoid / trapz / cumulative_trapezoid, cov, corrcoef,
quantile / nanquantile, nanmedian and mode.

cdist and dist are ops of their own (CdistBackward0, EuclideanDistBackward0, DistBackward0);
the others are built from existing ops in the order PyTorch composes them, so that a result shows
the grad_fn PyTorch shows (trapezoid's MulBackward1, cov's SqueezeBackward0, quantile's in-place
squeeze SqueezeBackward4, ...)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_op, as_default_float
from ..core.inference import mark_new
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.tensor import Tensor, _norm_dim, _wrap, broadcast_error
from . import arithmetic
from .blends import lerp
from .elementwise import clamp
from .formula_ops import DIV_SCALAR, MUL_SCALAR, run
from .indexing import gather
from .inplace_methods import squeeze_
from .matrix import diagonal, mm
from .reductions import (
    _along,
    _along_grad,
    _check_nonempty,
    _extreme_grad,
    _return_type,
    _ReturnTypes,
    cumsum,
    values_and_indices,
)
from .reductions import sum as reduce_sum
from .sorting import sort
from .views import narrow, select, view

__all__ = [
    "cdist",
    "dist",
    "trapezoid",
    "trapz",
    "cumulative_trapezoid",
    "cov",
    "corrcoef",
    "quantile",
    "nanquantile",
    "nanmedian",
    "mode",
]

for _name in ("nanmedian", "mode"):
    setattr(_ReturnTypes, _name, _return_type(_name))
del _name


# --------------------------------------------------------------------------------------------
# cdist, dist
# --------------------------------------------------------------------------------------------


def _pairwise(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    return x1[..., :, None, :] - x2[..., None, :, :]


def _p_norm(diff: np.ndarray, p: float, axis: Any) -> np.ndarray:
    a = np.abs(diff)
    if p == 0:
        return (a != 0).sum(axis).astype(diff.dtype)
    if p == math.inf:
        return a.max(axis) if a.size else a.sum(axis)
    if p == 1:
        return a.sum(axis)
    if p == 2:
        return np.sqrt((a * a).sum(axis))
    return (a**p).sum(axis) ** (1 / p)


def _norm_slope(diff: np.ndarray, norm: np.ndarray, p: float) -> np.ndarray:
    """d‖diff‖_p / d diff, 0 where the norm is 0 (PyTorch's subgradient)."""
    with np.errstate(all="ignore"):
        if p == 0:
            return np.zeros_like(diff)
        if p == 1:
            return np.sign(diff)
        if p == math.inf:
            return np.sign(diff) * (np.abs(diff) == norm)
        if p == 2:
            slope = diff / norm
        else:
            slope = np.sign(diff) * np.abs(diff) ** (p - 1) / norm ** (p - 1)
    return np.where(norm == 0, 0, slope).astype(diff.dtype)


def _cdist_np(x1: np.ndarray, x2: np.ndarray, p: float) -> np.ndarray:
    return _p_norm(_pairwise(x1, x2), p, -1).astype(x1.dtype)


def _cdist_backward_np(g: Any, x1: Any, x2: Any, result: Any, p: float) -> np.ndarray:
    diff = _pairwise(x1, x2)
    slope = _norm_slope(diff, result[..., None], p)
    return (np.asarray(g)[..., None] * slope).sum(-2).astype(x1.dtype)


def _no_double_backward(*_: Any, **__: Any) -> Any:
    raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")


CDIST_BACKWARD = defop(
    "cdist_backward",
    "CdistBackwardBackward0",
    _cdist_backward_np,
    _no_double_backward,
    _no_double_backward,
    _no_double_backward,
    _no_double_backward,
    arg_names=("grad", "x1", "x2", "cdist"),
    rules=("not implemented (as PyTorch)",) * 4,
)


def _cdist_grad(B: Any, g: Any, x1: Any, x2: Any, result: Any, p: float) -> Any:
    return run(B, CDIST_BACKWARD, g, x1, x2, result, p=p)


def _cdist_grad_x2(B: Any, g: Any, x1: Any, x2: Any, result: Any, p: float) -> Any:
    mt = B.transpose(g, -1, -2)
    return run(B, CDIST_BACKWARD, mt, x2, x1, B.transpose(result, -1, -2), p=p)


CDIST = defop(
    "cdist",
    "CdistBackward0",
    _cdist_np,
    _cdist_grad,
    _cdist_grad_x2,
    saves=(0, 1, "result"),
    arg_names=("x1", "x2"),
    rules=("Σ_j grad · d‖x1_i − x2_j‖_p", "Σ_i grad · d‖x1_i − x2_j‖_p (negated)"),
)


def _euclid_np(x1: np.ndarray, x2: np.ndarray) -> np.ndarray:
    """‖x1_i − x2_j‖ through the product x1 x2ᵀ (|x1|² + |x2|² − 2 x1·x2, clamped at 0)."""
    sq1 = (x1 * x1).sum(-1)[..., :, None]
    sq2 = (x2 * x2).sum(-1)[..., None, :]
    squared = sq1 + sq2 - 2 * np.matmul(x1, np.swapaxes(x2, -1, -2))
    return np.sqrt(np.maximum(squared, 0)).astype(x1.dtype)


def _scaled_by_distance(B: Any, g: Any, result: Any) -> Any:
    """grad / distance, 0 where the distance is 0."""
    zero = B.const(B.array_of(result) == 0)
    safe = result + B.astype_like(zero, result)
    return B.where(zero, 0.0, g / safe)


def _euclid_grad(B: Any, g: Any, x1: Any, x2: Any, result: Any, first: bool) -> Any:
    ratio = _scaled_by_distance(B, g, result)
    if not first:
        ratio = B.transpose(ratio, -1, -2)
        x1, x2 = x2, x1
    weight = B.sum_dims(ratio, (len(ratio.shape) - 1,), True)
    return x1 * weight - B.matmul(ratio, x2)


EUCLIDEAN_DIST = defop(
    "_euclidean_dist",
    "EuclideanDistBackward0",
    _euclid_np,
    lambda B, g, x1, x2, result: _euclid_grad(B, g, x1, x2, result, True),
    lambda B, g, x1, x2, result: _euclid_grad(B, g, x1, x2, result, False),
    arg_names=("x1", "x2"),
    rules=("x1 Σ_j grad/d − (grad/d) x2", "x2 Σ_i grad/d − (grad/d)ᵀ x1"),
)

_CDIST_MODES = (
    "use_mm_for_euclid_dist_if_necessary",
    "use_mm_for_euclid_dist",
    "donot_use_mm_for_euclid_dist",
)


def _check_cdist(x1: Tensor, x2: Tensor, p: float) -> None:
    for name, t in (("X1", x1), ("X2", x2)):
        if t.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {t.ndim}D")
    c1, c2 = x1._data.shape[-1], x2._data.shape[-1]
    if c1 != c2:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {c1} X2: {c2}")
    for name, t in (("X1", x1), ("X2", x2)):
        if t._data.dtype.kind != "f":
            raise RuntimeError(
                f"cdist only supports floating-point dtypes, {name} got: "
                f"{dtypes.scalar_name(t._data.dtype)}"
            )
    if x1._data.dtype != x2._data.dtype:
        raise RuntimeError(
            f"expected scalar type {dtypes.scalar_name(x1._data.dtype)} but found "
            f"{dtypes.scalar_name(x2._data.dtype)}"
        )
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str = _CDIST_MODES[0]) -> Tensor:
    """The p-norm distance between each row of x1 and each row of x2 (batched): CdistBackward0,
    or for p = 2 through a matrix product (EuclideanDistBackward0 under a view) when asked, or
    by default past 25 rows, as PyTorch."""
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    _check_cdist(x1, x2, float(p))
    try:
        batch = tuple(np.broadcast_shapes(x1._data.shape[:-2], x2._data.shape[:-2]))
    except ValueError:
        raise broadcast_error([x1._data.shape[:-2], x2._data.shape[:-2]]) from None
    r1, r2 = x1._data.shape[-2], x2._data.shape[-2]
    mode = _CDIST_MODES.index(compute_mode)
    if p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))):
        return view(apply_op(EUCLIDEAN_DIST, (x1, x2)), batch + (r1, r2))
    return apply_op(CDIST, (x1, x2), {"p": float(p)})


def _dist_np(a: np.ndarray, b: np.ndarray, p: float) -> np.ndarray:
    return np.asarray(_p_norm(a - b, p, None), np.result_type(a, b))


def _dist_grad(B: Any, g: Any, self: Any, other: Any, result: Any, p: float) -> Any:
    """d‖self − other‖_p / d self · grad: sign(diff) for p = 1 (and at the maxima for inf),
    diff · |diff|^(p−2) · grad / ‖diff‖^(p−1) otherwise (0 where the norm is 0)."""
    diff = self - other
    if p == 0:
        return B.zeros(tuple(diff.shape), B.array_of(diff).dtype)
    if p == 1:
        return B.sign(diff) * g
    if p == math.inf:
        peaks = np.abs(B.array_of(diff)) == B.array_of(result)
        return B.sign(diff) * (B.const(peaks.astype(B.array_of(diff).dtype)) * g)
    scale = _scaled_by_distance(B, g, result if p == 2 else result ** (p - 1))
    if p == 2:
        return diff * scale
    return diff * B.abs(diff) ** (p - 2) * scale


DIST = defop(
    "dist",
    "DistBackward0",
    _dist_np,
    _dist_grad,
    lambda B, g, self, other, result, p: -_dist_grad(B, g, self, other, result, p),
    rules=("d‖self − other‖_p", "−d‖self − other‖_p"),
)


def dist(input: Tensor, other: Tensor, p: float = 2) -> Tensor:
    """‖input − other‖_p over all elements (broadcast), DistBackward0."""
    for t in (input, other):
        if t._data.dtype.kind != "f":
            raise RuntimeError(
                "norm(): input dtype should be either floating point or complex. Got "
                f"{dtypes.scalar_name(t._data.dtype)} instead."
            )
    try:
        np.broadcast_shapes(input._data.shape, other._data.shape)
    except ValueError:
        arithmetic.sub(input, other)  # PyTorch's broadcast error
    return apply_op(DIST, (input, other), {"p": float(p)})


# --------------------------------------------------------------------------------------------
# trapezoid, trapz, cumulative_trapezoid
# --------------------------------------------------------------------------------------------

_TRAPEZOID_SIGNATURES = (
    " * (Tensor y, Tensor x, *, int dim = -1)\n * (Tensor y, *, Number dx = 1, int dim = -1)\n"
)


def _trapezoid_args(name: str, y: Tensor, x: Any, dx: Any, dim: int) -> tuple:
    if (x is not None and dx is not None) or (x is not None and not isinstance(x, Tensor)):
        got = "Tensor, Tensor, dx=" + type(dx).__name__ if dx is not None else "Tensor, "
        if dx is None:
            got += type(x).__name__
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got ({got}), but "
            f"expected one of:\n{_TRAPEZOID_SIGNATURES}"
        )
    base = "cumulative_trapezoid" if name.startswith("cumulative") else "trapezoid"
    if y._data.dtype.kind == "b":
        raise RuntimeError(f"{base}: received a bool input for `y`, but bool is not supported")
    d = _norm_dim(dim, y.ndim)
    if x is not None:
        if x._data.dtype.kind == "b":
            raise RuntimeError(f"{base}: received a bool input for `x`, but bool is not supported")
        n = x._data.shape[0] if x.ndim == 1 else x._data.shape[_norm_dim(dim, x.ndim)]
        if n != y._data.shape[d]:
            raise RuntimeError(f"{base}: There must be one `x` value for each sample point")
    return d, as_default_float(y), None if x is None else as_default_float(x)


def _pieces(t: Tensor, d: int) -> tuple:
    """t[:-1] and t[1:] along `d`."""
    n = t._data.shape[d]
    return narrow(t, d, 0, n - 1), narrow(t, d, 1, n - 1)


def _spacing(x: Tensor, y: Tensor, d: int) -> Tensor:
    """x[1:] − x[:-1] along `d`, a 1-D x first viewed along y's dimension `d`."""
    if x.ndim == 1 and y.ndim > 1:
        x = view(x, tuple(-1 if i == d else 1 for i in range(y.ndim)))
    lower, upper = _pieces(x, d if x.ndim > 1 else 0)
    return arithmetic.sub(upper, lower)


def trapezoid(y: Tensor, x: Any = None, *, dx: Any = None, dim: int = -1) -> Tensor:
    """The trapezoidal rule along `dim`, with sample points `x` or a spacing `dx`."""
    d, y, x = _trapezoid_args("trapezoid", y, x, dx, dim)
    n = y._data.shape[d]
    if n == 0:
        shape = y._data.shape[:d] + y._data.shape[d + 1 :]
        return _wrap(np.zeros(shape, y._data.dtype))
    if x is None:  # dx · (Σ y − (y_first + y_last) / 2)
        ends = arithmetic.add(select(y, d, 0), select(y, d, n - 1))
        inner = arithmetic.sub(reduce_sum(y, d), apply_op(MUL_SCALAR, (ends,), {"other": 0.5}))
        return apply_op(MUL_SCALAR, (inner,), {"other": 1 if dx is None else dx})
    lower, upper = _pieces(y, d)
    areas = arithmetic.mul(arithmetic.add(lower, upper), _spacing(x, y, d))
    return apply_op(DIV_SCALAR, (reduce_sum(areas, d),), {"other": 2})


def trapz(y: Tensor, x: Any = None, *, dx: Any = None, dim: int = -1) -> Tensor:
    """An alias of trapezoid."""
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y: Tensor, x: Any = None, *, dx: Any = None, dim: int = -1) -> Tensor:
    """The running trapezoidal sums along `dim` (one fewer element than `y`)."""
    d, y, x = _trapezoid_args("cumulative_trapezoid", y, x, dx, dim)
    n = y._data.shape[d]
    if n == 0:
        return _wrap(np.zeros(y._data.shape, y._data.dtype))
    lower, upper = _pieces(y, d)
    pairs = arithmetic.add(lower, upper)
    if x is None:
        half = (1 if dx is None else dx) / 2
        return cumsum(apply_op(MUL_SCALAR, (pairs,), {"other": half}), d)
    areas = arithmetic.mul(pairs, _spacing(x, y, d))
    return apply_op(DIV_SCALAR, (cumsum(areas, d),), {"other": 2})


# --------------------------------------------------------------------------------------------
# cov, corrcoef
# --------------------------------------------------------------------------------------------


def _check_weights(name: str, w: Tensor, observations: int, integral: bool) -> None:
    if w.ndim > 1:
        raise RuntimeError(
            f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
            f"{w.ndim} dimensions"
        )
    if w._data.size != observations:
        raise RuntimeError(
            f"cov(): expected {name} to have the same numel as there are observations in the "
            f"input but got {w._data.size} != {observations}"
        )
    kind = w._data.dtype.kind
    if integral and kind not in "iu":
        raise RuntimeError(
            f"cov(): expected {name} to have integral dtype but got {name} with "
            f"{dtypes.scalar_name(w._data.dtype)} dtype"
        )
    if not integral and kind != "f":
        raise RuntimeError(
            f"cov(): expected {name} to have floating point dtype but got {name} with "
            f"{dtypes.scalar_name(w._data.dtype)} dtype"
        )
    if (np.asarray(w._data) < 0).any():
        raise RuntimeError(f"cov(): {name} cannot be negative")


def _observations(input: Tensor, name: str) -> Tensor:
    if input.ndim > 2:
        raise RuntimeError(
            f"{name}(): expected input to have two or fewer dimensions but got an input with "
            f"{input.ndim} dimensions"
        )
    x = as_default_float(input)
    return view(x, (1, -1)) if x.ndim < 2 else x


def cov(
    input: Tensor, *, correction: int = 1, fweights: Any = None, aweights: Any = None
) -> Tensor:
    """The covariance of the rows (variables) over the columns (observations), optionally
    weighted by frequency and by importance."""
    x = _observations(input, "cov")
    n = x._data.shape[1]
    w = None
    if fweights is not None:
        _check_weights("fweights", fweights, n, True)
        w = fweights
    if aweights is not None:
        _check_weights("aweights", aweights, n, False)
        w = aweights if w is None else arithmetic.mul(w, aweights)
    if w is None:
        total: Any = n
        avg = arithmetic.div(reduce_sum(x, 1), n)
        factor: Any = n - correction
    else:
        total = reduce_sum(w)
        avg = arithmetic.div(reduce_sum(arithmetic.mul(x, w), 1), total)
        if correction == 0:
            factor = total
        elif aweights is None:
            factor = arithmetic.sub(total, correction)
        else:
            weighted = reduce_sum(arithmetic.mul(w, aweights))
            factor = arithmetic.sub(
                total, arithmetic.div(arithmetic.mul(weighted, correction), total)
            )
    if not isinstance(factor, Tensor):
        factor = max(factor, 0)
    elif factor.item() < 0:
        factor = clamp(factor, min=0)
    centred = arithmetic.sub(x, arithmetic.unsqueeze(avg, 1))
    right = centred if w is None else arithmetic.mul(centred, w)
    product = mm(centred, arithmetic.t(right))
    return arithmetic.squeeze(arithmetic.div(product, factor))


def corrcoef(input: Tensor) -> Tensor:
    """Pearson correlation coefficients of the rows, clamped to [-1, 1]."""
    _observations(input, "corrcoef")
    c = cov(input)
    if c.ndim == 0:
        return arithmetic.div(c, c)
    spread = diagonal(c).sqrt()
    c = arithmetic.div(c, view(spread, (-1, 1)))
    c = arithmetic.div(c, view(spread, (1, -1)))
    return clamp(c, -1, 1)


# --------------------------------------------------------------------------------------------
# quantile, nanquantile
# --------------------------------------------------------------------------------------------

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile_q(input: Tensor, q: Any) -> tuple[np.ndarray, bool]:
    """The quantiles as a 1-D float64 array, and whether q was a scalar."""
    if isinstance(q, Tensor):
        if q.ndim > 1:
            raise RuntimeError("quantile() q must be a scalar or 1D tensor")
        if q._data.dtype != input._data.dtype:
            raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
        values, scalar = np.asarray(q._data, np.float64).reshape(-1), q.ndim == 0
    elif isinstance(q, (int, float)) and not isinstance(q, bool):
        values, scalar = np.array([float(q)]), True
    else:
        raise TypeError(
            "quantile() received an invalid combination of arguments - got (Tensor, "
            f"{type(q).__name__}), but expected one of:\n * (Tensor input, Tensor q, int dim = "
            'None, bool keepdim = False, *, str interpolation = "linear", Tensor out = None)\n'
            " * (Tensor input, float q, int dim = None, bool keepdim = False, *, str "
            'interpolation = "linear", Tensor out = None)\n'
        )
    for v in values:
        if not 0 <= v <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {v:g}")
    return values, scalar


def _ranks(sorted_data: np.ndarray, q: np.ndarray, ignore_nan: bool) -> np.ndarray:
    """Each row's fractional rank of each quantile: q · (count − 1) over its valid values; a
    row with NaN (quantile) or only NaN (nanquantile) points at its last value, a NaN."""
    n = sorted_data.shape[-1]
    nans = np.isnan(sorted_data).sum(-1, keepdims=True)
    valid = n - nans if ignore_nan else np.full_like(nans, n)
    ranks = q * (valid - 1)
    bad = (valid == 0) if ignore_nan else (nans > 0)
    return np.where(bad, n - 1, ranks)


def _quantile(
    name: str, input: Tensor, q: Any, dim: Any, keepdim: bool, interpolation: str
) -> Tensor:
    if input._data.dtype not in (np.float32, np.float64):
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    qs, scalar = _quantile_q(input, q)
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(
            f"{name}() interpolation must be one of linear, lower, higher, midpoint or nearest, "
            f"but got {interpolation}"
        )
    if input._data.size == 0:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    shape = input._data.shape
    if dim is None:
        ordered = sort(view(input, (-1,)), -1).values
        out_shape = (1,) * input.ndim if keepdim else ()
    else:
        d = _norm_dim(dim, input.ndim)
        moved = input if d == input.ndim - 1 else input.unsqueeze(-1).transpose(d, -1)
        ordered = sort(moved, -1).values
        out_shape = shape[:d] + ((1,) if keepdim else ()) + shape[d + 1 :]
    n = ordered._data.shape[-1]
    ordered = view(ordered, out_shape + (n,))
    ranks = _ranks(np.asarray(ordered._data), qs, name == "nanquantile")
    low, high = np.floor(ranks), np.ceil(ranks)
    if interpolation in ("lower", "higher", "nearest"):
        pick = {"lower": low, "higher": high, "nearest": np.round(ranks)}[interpolation]
        result = gather(ordered, -1, _index(pick))
    else:
        weight = ranks - low if interpolation == "linear" else np.full_like(ranks, 0.5)
        weights = _wrap(weight.astype(input._data.dtype))
        result = lerp(gather(ordered, -1, _index(low)), gather(ordered, -1, _index(high)), weights)
    if not scalar:  # the quantiles' dimension first
        result = result.unsqueeze(0).transpose(0, -1)
    return squeeze_(result, result.ndim - 1)  # PyTorch's in-place squeeze_ of its own result


def _index(positions: np.ndarray) -> Tensor:
    return mark_new(_wrap(positions.astype(np.int64)))


def quantile(
    input: Tensor,
    q: Any,
    dim: Any = None,
    keepdim: bool = False,
    *,
    interpolation: str = "linear",
) -> Tensor:
    """The q-th quantiles along `dim` (of all elements without one); NaN where a row holds NaN."""
    return _quantile("quantile", input, q, dim, keepdim, interpolation)


def nanquantile(
    input: Tensor,
    q: Any,
    dim: Any = None,
    keepdim: bool = False,
    *,
    interpolation: str = "linear",
) -> Tensor:
    """quantile ignoring NaN (NaN only for rows of NaN alone)."""
    return _quantile("nanquantile", input, q, dim, keepdim, interpolation)


# --------------------------------------------------------------------------------------------
# nanmedian, mode
# --------------------------------------------------------------------------------------------


def _nanmedian_all(a: np.ndarray) -> np.ndarray:
    values = np.sort(a[~np.isnan(a)] if a.dtype.kind == "f" else a.reshape(-1))
    if values.size == 0:
        return np.array(np.nan, a.dtype)
    return np.array(values[(values.size - 1) // 2], a.dtype)


def _nanmedian_index(a: np.ndarray, axis: int) -> np.ndarray:
    """The position of each row's lower median of its non-NaN values (0 for a row of NaN)."""
    order = np.argsort(a, axis=axis, kind="stable")  # NaN last
    valid = (~np.isnan(a)).sum(axis, keepdims=True) if a.dtype.kind == "f" else a.shape[axis]
    middle = np.maximum((np.asarray(valid) - 1) // 2, 0)
    middle = np.broadcast_to(middle, a.shape[:axis] + (1,) + a.shape[axis + 1 :])
    return np.take_along_axis(order, middle, axis=axis).squeeze(axis)


def _mode_index(a: np.ndarray, axis: int) -> np.ndarray:
    """Each row's most frequent value (the smallest among equally frequent ones), at the last
    position it holds."""
    moved = np.moveaxis(a, axis, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    out = np.empty(flat.shape[0], np.int64)
    for i, row in enumerate(flat):
        values, counts = np.unique(row, return_counts=True)
        best = values[np.argmax(counts)]  # unique's values ascend: the first maximum is smallest
        if a.dtype.kind == "f" and np.isnan(best):
            out[i] = np.flatnonzero(np.isnan(row))[0]  # (PyTorch: the first NaN)
        else:
            out[i] = np.flatnonzero(row == best)[-1]
    return out.reshape(moved.shape[:-1])


NANMEDIAN_ALL = defop(
    "nanmedian",
    "NanmedianBackward0",
    _nanmedian_all,
    _extreme_grad,
    saves=(0, "result"),
    rules=("1 at the median (shared among ties)",),
)
NANMEDIAN_DIM = defop(
    "nanmedian_dim", "NanmedianBackward1", _along, _along_grad, rules=("1 at the median",)
)
MODE = defop("mode", "ModeBackward0", _along, _along_grad, rules=("1 at the mode's position",))


def _pick(op: Any, name: str, check: str, pick: Any, input: Tensor, dim: Any, keepdim: bool) -> Any:
    d = _norm_dim(dim, max(input.ndim, 1))
    if input.ndim:
        _check_nonempty(input, check, d)
    return values_and_indices(op, getattr(_ReturnTypes, name), pick, input, d, keepdim)


def nanmedian(input: Tensor, dim: Any = None, keepdim: bool = False) -> Any:
    """The lower median ignoring NaN: of all elements, or (values, indices) along `dim`."""
    if dim is None:
        return apply_op(NANMEDIAN_ALL, (input,))
    return _pick(NANMEDIAN_DIM, "nanmedian", "median", _nanmedian_index, input, dim, keepdim)


def mode(input: Tensor, dim: int = -1, keepdim: bool = False) -> Any:
    """(values, indices): the most frequent value along `dim` and its last position."""
    return _pick(MODE, "mode", "mode", _mode_index, input, dim, keepdim)


tensor_methods(
    "ops.statistics",
    {
        "cov": cov,
        "corrcoef": corrcoef,
        "quantile": quantile,
        "nanquantile": nanquantile,
    },
)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(DIST, dist, method=True)
declare_forms(MODE, mode, method=True)
declare_forms(NANMEDIAN_ALL, nanmedian, method=True)
