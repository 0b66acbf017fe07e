"""Reductions and scans: sum, mean, prod, max/min, amax/amin, argmax/argmin, norm, var/std,
logsumexp, median, cumsum/cumprod, all/any.

Every differentiable reduction is one op-table entry whose backward formula follows PyTorch's
derivatives.yaml (so values, ties and the grad_fn of a `create_graph` gradient agree). The formulas
run on both backends; the steps with no `B.` function (flip, cumsum, cumprod, scatter along a
dim) are ops called with `run(B, OP, ...)`.

Long because: (about 1000 lines, over the 900 the guide allows) the family shares its argument handling
(dims, keepdim, dtype, the messages of each overload) and its backward helpers between the
forwards, the table and the torch functions; split by op, those modules would import each other.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from ..core import dtypes, limits
from ..core.apply import apply_inplace, apply_op
from ..core.inference import mark_new
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.out_arg import OutRule, declare_out, write_out
from ..core.tensor import Tensor, _norm_dim, _wrap
from .elementwise import maximum, minimum
from .formula_ops import div_scalar, run
from .indexing import MASKED_FILL_TENSOR, SCATTER, _scatter_index
from .views import CAT, FLIP, SLICE, UNSQUEEZE

_add_reduce = np.add.reduce

__all__ = [
    "all",
    "amax",
    "amin",
    "any",
    "argmax",
    "argmin",
    "count_nonzero",
    "cumprod",
    "cumsum",
    "logsumexp",
    "max",
    "mean",
    "median",
    "min",
    "nanmean",
    "nansum",
    "norm",
    "prod",
    "return_types",
    "std",
    "std_mean",
    "sum",
    "var",
    "var_mean",
]


_TYPE_WORDS = dtypes.SCALAR_NAMES  # (ops/random.py reads it)


# --------------------------------------------------------------------------------------------
# torch.return_types: the (values, indices) named tuples of max/min/median along a dim
# --------------------------------------------------------------------------------------------


class _ValuesIndices(tuple):
    """A `torch.return_types.<name>` structseq: a 2-tuple with `.values` and `.indices`."""

    __slots__ = ()

    def __new__(cls, values: Tensor, indices: Tensor):
        return super().__new__(cls, (values, indices))

    @property
    def values(self) -> Tensor:
        return self[0]

    @property
    def indices(self) -> Tensor:
        return self[1]

    def __repr__(self) -> str:
        return (
            f"torch.return_types.{type(self).__name__}(\nvalues={self[0]!r},\nindices={self[1]!r})"
        )

    __str__ = __repr__


def _return_type(name: str) -> type:
    cls = type(name, (_ValuesIndices,), {"__slots__": ()})
    cls.__module__ = "torch.return_types"
    cls.__qualname__ = name
    return cls


class _ReturnTypes:
    """`torch.return_types`."""

    max = _return_type("max")
    min = _return_type("min")
    median = _return_type("median")

    def __repr__(self) -> str:
        return "<module 'torch.return_types'>"


return_types = _ReturnTypes()


# --------------------------------------------------------------------------------------------
# Argument handling
# --------------------------------------------------------------------------------------------


def _as_dim(d: Any) -> int:
    if isinstance(d, Tensor):
        d = d.__index__()
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
        raise TypeError(f"dim must be an int or a tuple of ints, not {type(d).__name__}")
    return int(d)


def _dims(dim: Any, ndim: int) -> tuple | None:
    """`dim` as a tuple of distinct non-negative dims; None reduces everything; () too."""
    if dim is None:
        return None
    items = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    if not items:
        return tuple(range(ndim))
    out: list[int] = []
    for d in items:
        nd = _norm_dim(_as_dim(d), ndim)
        if nd in out:
            raise RuntimeError(f"dim {nd} appears multiple times in the list of dims")
        out.append(nd)
    return tuple(out)


def _axis(dims: tuple | None, shape: tuple) -> tuple | None:
    """The numpy axis of a reduction: a 0-d tensor reduces along dim 0/-1 as if along all."""
    return None if dims is None or not shape else dims


def _count(shape: tuple, dims: tuple | None) -> int:
    """How many elements a reduction over `dims` (None: all) of `shape` takes for each result."""
    if dims is None or not shape:
        return math.prod(shape)
    return math.prod([shape[d] for d in dims])


def _require_float(input: Tensor, message: str) -> None:
    if input._data.dtype.kind != "f":
        raise RuntimeError(message.format(dtypes.scalar_name(input._data.dtype)))


def _check_nonempty(input: Tensor, name: str, dim: int | None) -> None:
    """max/min/amax/argmax/median have no identity: an empty reduction is an error."""
    shape = input._data.shape
    if dim is None:
        if input._data.size == 0:
            if name in ("argmax", "argmin"):
                raise IndexError(
                    f"{name}(): Expected reduction dim to be specified for input.numel() == 0."
                )
            raise RuntimeError(
                f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument."
            )
    elif shape and shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")


def _integral_accumulator(a: Any, dtype: Any) -> Any:
    """sum/prod/cumsum accumulate integers and bools in int64, as PyTorch does."""
    if dtype is not None:
        return dtype
    return np.int64 if a.dtype.kind in "biu" else a.dtype


# --------------------------------------------------------------------------------------------
# Backend helpers: each runs on numpy arrays or on Tensors (under create_graph), through `B`
# --------------------------------------------------------------------------------------------


def _restore(B: Any, g: Any, dims: tuple | None, keepdim: bool, shape: tuple) -> Any:
    """Re-inserts the reduced dims into a reduction's gradient (or result) so it broadcasts."""
    if not shape:
        return g
    return B.unsqueeze_dims(g, dims, keepdim, len(shape))


def _flip(B: Any, t: Any, dim: int) -> Any:
    return run(B, FLIP, t, dims=(dim,))


def _cumsum(B: Any, t: Any, dim: int) -> Any:
    return run(B, CUMSUM, t, dim=dim, dtype=None)


def _cumprod(B: Any, t: Any, dim: int) -> Any:
    return run(B, CUMPROD, t, dim=dim, dtype=None)


def _unsqueeze(B: Any, t: Any, dim: int) -> Any:
    return run(B, UNSQUEEZE, t, dim=dim % (len(t.shape) + 1))


def _narrow(B: Any, t: Any, dim: int, start: int, stop: int) -> Any:
    shape = tuple(t.shape)
    return run(B, SLICE, t, dim=dim, start=start, stop=stop, step=1, shape=shape)


def _reversed_cumsum(B: Any, g: Any, dim: int) -> Any:
    return _flip(B, _cumsum(B, _flip(B, g, dim), dim), dim)


def _leave_one_out(B: Any, a: Any, dim: int) -> Any:
    """`a` repeated along a new dim `dim` with the diagonal set to 1: entry [.., i, k, ..] is
    a[.., k, ..] for k != i and 1 for k == i (products 'of all the others', zero-safe)."""
    n = a.shape[dim]
    eye = np.eye(n, dtype=bool).reshape((n, n) + (1,) * (len(a.shape) - dim - 1))
    return B.where(eye, 1.0, _unsqueeze(B, a, dim))


def _prod_of_others(B: Any, a: Any, dim: int) -> Any:
    """The product along `dim` of every element but the one at each position (zero-safe): the
    exclusive cumulative products from each end, multiplied (as PyTorch's graph records them)."""
    shape = tuple(a.shape)
    n = shape[dim]
    ones = B.const(np.ones(shape[:dim] + (1,) + shape[dim + 1 :], B.array_of(a).dtype))
    head = _narrow(B, a, dim, 0, n - 1)
    tail = _flip(B, _narrow(B, a, dim, 1, n), dim)
    before = _cumprod(B, _cat(B, ones, head, dim), dim)
    after = _flip(B, _cumprod(B, _cat(B, ones, tail, dim), dim), dim)
    return before * after


def _cat(B: Any, x: Any, y: Any, dim: int) -> Any:
    return run(B, CAT, x, y, dim=dim, shapes=(tuple(x.shape), tuple(y.shape)))


def _put_along(B: Any, g: Any, indices: np.ndarray, dim: int, shape: tuple) -> Any:
    """Zeros of `shape` with `g` placed at `indices` along `dim` (PyTorch's scatter)."""
    zeros = B.zeros(shape, getattr(g, "_data", g).dtype)
    index = _scatter_index(shape, dim, indices)
    return run(B, SCATTER, zeros, g, index=index, region=tuple(slice(0, n) for n in indices.shape))


def _evenly(B: Any, g: Any, a: Any, r: Any) -> Any:
    """The gradient of max(), min() and median(): shared equally by the elements equal to the
    result, or that are nan when it is nan (PyTorch's `zeros.masked_fill_(mask, grad /
    mask.sum())`, MaskedFillBackward1)."""
    shape = tuple(a.shape)
    mask = B.astype_like(B.eq(a, r), a)
    nan = B.isnan(r)
    if B.array_of(nan).any():
        mask = B.where(nan, B.astype_like(B.isnan(a), a), mask)
    zeros = B.zeros(shape, B.array_of(a).dtype)
    share = g / B.sum_dims(mask, tuple(range(len(shape))), False)
    return run(B, MASKED_FILL_TENSOR, zeros, share, mask=B.array_of(mask) != 0)


def _by_count(B: Any, g: Any, a: Any, r: Any, dims: tuple | None, keepdim: bool) -> Any:
    """The gradient of amax/amin: `grad / count * mask` over the elements equal to the result,
    the reduced dims restored by a view (PyTorch's scale_grad_by_count: nan where the result is
    nan, as no element equals it)."""
    shape = tuple(a.shape)
    dims = tuple(range(len(shape))) if dims is None else dims
    if not keepdim:
        kept = tuple(1 if d in dims else n for d, n in enumerate(shape))
        g, r = B.reshape(g, kept), B.reshape(r, kept)
    mask = B.astype_like(B.eq(a, r), a)
    with np.errstate(divide="ignore", invalid="ignore"):
        return g / B.sum_dims(mask, _axis(dims, shape), True) * mask


# --------------------------------------------------------------------------------------------
# Forwards
# --------------------------------------------------------------------------------------------


def _sum(a: Any, dim: Any, keepdim: bool, shape: tuple, dtype: Any = None) -> Any:
    acc = _integral_accumulator(a, dtype)
    if np.dtype(acc).kind == "f":  # PyTorch casts first, then sums in the new dtype
        a = a.astype(acc, copy=False)
    return _add_reduce(a, _axis(dim, a.shape), acc, None, keepdim)  # np.sum without its wrapper


def _mean(a: Any, dim: Any, keepdim: bool, shape: tuple, dtype: Any = None) -> Any:
    a = a if dtype is None else a.astype(dtype)
    total = _add_reduce(a, _axis(dim, a.shape), None, None, keepdim)  # PyTorch: the sum, then / n
    return np.asarray(total / np.asarray(_count(a.shape, dim), dtype=a.dtype), dtype=a.dtype)


def _prod(a: Any, dim: int | None, keepdim: bool, dtype: Any = None) -> Any:
    acc = _integral_accumulator(a, dtype)
    axis = None if dim is None else _axis((dim,), a.shape)
    return np.prod(a, axis=axis, keepdims=keepdim, dtype=acc)


def _extreme(pick: Any):
    def forward(a: Any, dim: Any = None, keepdim: bool = False) -> Any:
        return pick(a, axis=_axis(dim, a.shape), keepdims=keepdim)

    return forward


def _kept(indices: Tensor, dim: int, keepdim: bool) -> np.ndarray:
    """The saved `indices` tensor (as returned to the user) with the reduced dim kept."""
    data = np.asarray(indices._data)
    return data if keepdim else np.expand_dims(data, dim)


def _along(a: Any, dim: int, keepdim: bool, indices: Tensor, shape: tuple) -> Any:
    """The values of max/min/median along `dim` at precomputed `indices`."""
    if not shape:
        return np.array(a)
    values = np.take_along_axis(np.asarray(a), _kept(indices, dim, keepdim), axis=dim)
    return values if keepdim else np.squeeze(values, dim)


def _vector_norm(
    a: Any, ord: float = 2.0, dim: Any = None, keepdim: bool = False, dtype: Any = None, p=None
) -> Any:
    ord = ord if p is None else p  # `p`: the parameter's name for callers of the old NORM entry
    a = a if dtype is None else a.astype(dtype)
    axis = _axis(dim, a.shape)
    absolute = np.abs(a)
    if ord == 2:
        out = np.sqrt(np.sum(absolute * absolute, axis=axis, keepdims=keepdim))
    elif ord == math.inf:
        out = np.max(absolute, axis=axis, keepdims=keepdim)
    elif ord == -math.inf:
        out = np.min(absolute, axis=axis, keepdims=keepdim)
    elif ord == 0:
        out = np.sum(a != 0, axis=axis, keepdims=keepdim)
    elif ord == 1:
        out = np.sum(absolute, axis=axis, keepdims=keepdim)
    else:
        out = np.sum(absolute**ord, axis=axis, keepdims=keepdim) ** (1.0 / ord)
    return np.asarray(out, dtype=a.dtype)


def _var(a: Any, dim: Any, correction: float, keepdim: bool) -> Any:
    axis = _axis(dim, a.shape)
    n = _count(a.shape, dim)
    dev = a - np.sum(a, axis=axis, keepdims=True) / np.asarray(n, dtype=a.dtype)
    squares = np.sum(dev * dev, axis=axis, keepdims=keepdim)
    if n == 0:
        return np.full(np.shape(squares), np.nan, dtype=a.dtype)
    return np.asarray(squares / np.asarray(n - correction, dtype=a.dtype), dtype=a.dtype)


def _std(a: Any, dim: Any, correction: float, keepdim: bool) -> Any:
    return np.sqrt(_var(a, dim, correction, keepdim))


def _logsumexp(a: Any, dim: Any, keepdim: bool) -> Any:
    if a.dtype.kind != "f":
        a = a.astype(dtypes.get_default_dtype().np)
    axis = _axis(dim, a.shape)
    if a.size == 0:
        return np.log(np.sum(np.exp(a), axis=axis, keepdims=keepdim))
    maxes = np.max(a, axis=axis, keepdims=True)
    maxes = np.where(np.isinf(maxes), 0, maxes)
    total = np.sum(np.exp(a - maxes), axis=axis, keepdims=keepdim)
    shift = maxes if keepdim else np.reshape(maxes, np.shape(total))
    return np.asarray(np.log(total) + shift, dtype=a.dtype)


def _scan(fn: Any):
    def forward(a: Any, dim: int, dtype: Any = None) -> Any:
        acc = _integral_accumulator(a, dtype)
        if not a.shape:
            return np.asarray(a, dtype=acc)
        return fn(a, axis=dim, dtype=acc)

    return forward


# --------------------------------------------------------------------------------------------
# Backward formulas
# --------------------------------------------------------------------------------------------


def _sum_grad(B: Any, g: Any, dim: Any, keepdim: bool, shape: tuple, dtype=None) -> Any:
    return B.expand(_restore(B, g, dim, keepdim, shape), shape)


def _mean_grad(B: Any, g: Any, dim: Any, keepdim: bool, shape: tuple, dtype=None) -> Any:
    expanded = _sum_grad(B, g, dim, keepdim, shape)
    n = _count(shape, dim)
    return div_scalar(B, expanded, n)


def _prod_grad(B: Any, g: Any, a: Any, r: Any, dim: int | None, keepdim: bool, dtype=None) -> Any:
    shape = tuple(a.shape)
    if not shape:
        return g
    dim = None if dim is None else (dim,)
    g = _restore(B, g, dim, keepdim, shape)
    r = _restore(B, r, dim, keepdim, shape)
    if not (B.array_of(a) == 0).any():
        return g * (r / a)
    if dim is None:
        flat = B.reshape(a, (-1,))
        return B.reshape(B.reshape(g, (1,)) * _prod_of_others(B, flat, 0), shape)
    return g * _prod_of_others(B, a, dim[0])


def _extreme_grad(B: Any, g: Any, a: Any, r: Any) -> Any:
    return _evenly(B, g, a, r)


def _amax_grad(B: Any, g: Any, a: Any, r: Any, dim: Any = None, keepdim: bool = False) -> Any:
    return _by_count(B, g, a, r, dim, keepdim)


def _along_grad(B: Any, g: Any, dim: int, keepdim: bool, indices: Tensor, shape: tuple) -> Any:
    if not shape:
        return g
    if not keepdim:
        g = _unsqueeze(B, g, dim)
    return _put_along(B, g, _kept(indices, dim, keepdim), dim, shape)


def _norm_grad(
    B: Any,
    g: Any,
    a: Any,
    r: Any,
    ord: float = 2.0,
    dim: Any = None,
    keepdim: bool = False,
    dtype: Any = None,
    p: Any = None,
) -> Any:
    """PyTorch's norm_backward."""
    ord = ord if p is None else p
    shape = tuple(a.shape)
    g = _restore(B, g, dim, keepdim, shape)
    r = _restore(B, r, dim, keepdim, shape)
    if ord == 0:
        return None  # PyTorch returns an undefined gradient: nothing reaches the input
    if ord == 1:
        return B.sign(a) * g
    if ord == 2:
        return g * B.where(B.eq(r, 0), 0.0, a / r)
    if ord in (math.inf, -math.inf):
        absolute = B.abs(a)
        mask = B.astype_like(B.eq(absolute, r), a)
        counts = B.sum_dims(mask, _axis(dim, shape), True) if dim is not None else B.count(mask)
        return B.sign(a) * ((g / counts) * mask)
    if ord < 1:
        scaled = B.sign(a) * B.where(B.eq(a, 0), 0.0, B.abs(a) ** (ord - 1))
        return scaled * g * r ** (1 - ord)
    scaled = B.sign(a) * B.abs(a) ** (ord - 1) if ord < 2 else a * B.abs(a) ** (ord - 2)
    return scaled * B.where(B.eq(r, 0), 0.0, g / r ** (ord - 1))


def _var_grad_of(B: Any, g: Any, a: Any, dim: Any, correction: float, keepdim: bool) -> Any:
    shape = tuple(a.shape)
    g = _restore(B, g, dim, keepdim, shape)
    axis = _axis(dim, shape)
    n = _count(shape, dim)
    mean = B.sum_dims(a, axis, True) / n
    return (2.0 / (n - correction)) * g * (a - mean)


def _var_grad(B: Any, g: Any, a: Any, dim: Any, correction: float, keepdim: bool) -> Any:
    return _var_grad_of(B, g, a, dim, correction, keepdim)


def _std_grad(B: Any, g: Any, a: Any, r: Any, dim: Any, correction: float, keepdim: bool) -> Any:
    scaled = B.where(B.eq(r, 0), 0.0, g / (r * 2))
    return _var_grad_of(B, scaled, a, dim, correction, keepdim)


def _logsumexp_grad(B: Any, g: Any, a: Any, r: Any, dim: Any, keepdim: bool) -> Any:
    shape = tuple(a.shape)
    return _restore(B, g, dim, keepdim, shape) * B.exp(a - _restore(B, r, dim, keepdim, shape))


def _cumsum_grad(B: Any, g: Any, dim: int, dtype: Any = None) -> Any:
    shape = tuple(g.shape)
    if not shape or int(np.prod(shape)) <= 1 or shape[dim] == 1:
        return g
    return _reversed_cumsum(B, g, dim)


def _cumprod_grad(B: Any, g: Any, a: Any, r: Any, dim: int, dtype: Any = None) -> Any:
    """PyTorch's cumprod_backward: reversed_cumsum(result * grad) / input without zeros; with
    zeros, grad_i = sum_{j >= i} grad_j * prod_{k <= j, k != i} input_k."""
    shape = tuple(a.shape)
    if not shape or int(np.prod(shape)) <= 1 or shape[dim] == 1:
        return g
    data = B.array_of(a)
    if not (data == 0).any():
        return _reversed_cumsum(B, r * g, dim) / a
    n = shape[dim]
    partial = _cumprod(B, _leave_one_out(B, a, dim), dim + 1)  # [.., i, j, ..]
    upper = np.triu(np.ones((n, n), dtype=data.dtype)).reshape(
        (n, n) + (1,) * (len(shape) - dim - 1)
    )
    return B.sum_dims(_unsqueeze(B, g, dim) * B.const(upper) * partial, (dim + 1,), False)


# --------------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------------

# (a formula only for one element: `--formula` refuses a reduction of more)
SUM = defop(
    "sum",
    "SumBackward0",
    _sum,
    _sum_grad,
    rules=("1",),
    symbolic=lambda S, self, **_: self,
    out=OutRule("free", in_out_dtype=True, needs_dim=True),
    aten_args=2,
)
SUM_DIM = defop("sum_dim", "SumBackward1", _sum, _sum_grad, rules=("1",), aten="sum")
NANSUM = defop(
    "nansum",
    "NansumBackward0",
    lambda a, dim, keepdim, dtype=None: np.nansum(
        a, axis=_axis(dim, a.shape), keepdims=keepdim, dtype=_integral_accumulator(a, dtype)
    ),
    lambda B, g, self, dim, keepdim, dtype=None: B.where(
        B.isnan(self), 0.0, B.expand(_restore(B, g, dim, keepdim, tuple(self.shape)), self.shape)
    ),
    rules=("1 where self is not nan, else 0",),
    out=OutRule("free", in_out_dtype=True, no_kernel="biu"),
)
MEAN = defop(
    "mean",
    "MeanBackward0",
    _mean,
    _mean_grad,
    rules=("1 / n",),
    symbolic=lambda S, self, **_: self,
    aten_args=2,
)
MEAN_DIM = defop("mean_dim", "MeanBackward1", _mean, _mean_grad, rules=("1 / n",), aten="mean")
PROD = defop(
    "prod",
    "ProdBackward0",
    _prod,
    _prod_grad,
    saves=(0, "result"),
    rules=("product of the other elements",),
    out=OutRule("free", in_out_dtype=True, needs_dim=True),
)
PROD_DIM = defop(
    "prod_dim",
    "ProdBackward1",
    _prod,
    _prod_grad,
    saves=(0, "result"),
    rules=("product of the other elements along dim",),
    aten="prod",
)
MAX_ALL = defop(
    "max",
    "MaxBackward1",
    _extreme(np.max),
    _extreme_grad,
    saves=(0, "result"),
    rules=("1 at the maximum (shared among ties)",),
)
MIN_ALL = defop(
    "min",
    "MinBackward1",
    _extreme(np.min),
    _extreme_grad,
    saves=(0, "result"),
    rules=("1 at the minimum (shared among ties)",),
)
# amax/amin's out= dtype message (PyTorch words it for both)
SAME_DTYPE = (
    "Expected the dtype for input and out to match, but got {} for input's dtype and {} for "
    "out's dtype."
)
AMAX = defop(
    "amax",
    "AmaxBackward0",
    _extreme(np.max),
    _amax_grad,
    saves=(0, "result"),
    rules=("1 at the maxima along dim (shared among ties)",),
    out=OutRule("same_as_input", message=SAME_DTYPE),
)
AMIN = defop(
    "amin",
    "AminBackward0",
    _extreme(np.min),
    _amax_grad,
    saves=(0, "result"),
    rules=("1 at the minima along dim (shared among ties)",),
    out=OutRule("same_as_input", message=SAME_DTYPE),
)
MEDIAN_ALL = defop(
    "median",
    "MedianBackward0",
    lambda a: _lower_median_all(a),
    _extreme_grad,
    saves=(0, "result"),
    rules=("1 at the median (shared among ties)",),
    out=OutRule(("median_values", "median_indices"), needs_dim=True),
)
MAX_DIM = defop(
    "max_dim_values",
    "MaxBackward0",
    _along,
    _along_grad,
    rules=("1 at the selected element",),
    aten="max",
)
MIN_DIM = defop(
    "min_dim_values",
    "MinBackward0",
    _along,
    _along_grad,
    rules=("1 at the selected element",),
    aten="min",
)
MEDIAN_DIM = defop(
    "median_dim_values",
    "MedianBackward1",
    _along,
    _along_grad,
    rules=("1 at the selected element",),
    aten="median",
)
NORM = defop(
    "norm",
    "LinalgVectorNormBackward0",
    _vector_norm,
    _norm_grad,
    saves=(0, "result"),
    rules=("self / ‖self‖ (p = 2); sign(self) · |self|^(p-1) / ‖self‖^(p-1)",),
    out=OutRule("exact", named="linalg_vector_norm"),
)
VAR = defop(
    "var",
    "VarBackward0",
    _var,
    _var_grad,
    saves=(0,),
    rules=("2 (self - mean) / (N - correction)",),
)
STD = defop(
    "std",
    "StdBackward0",
    _std,
    _std_grad,
    saves=(0, "result"),
    rules=("(self - mean) / ((N - correction) · std)",),
)
LOGSUMEXP = defop(
    "logsumexp",
    "LogsumexpBackward0",
    _logsumexp,
    _logsumexp_grad,
    saves=(0, "result"),
    rules=("exp(self - logsumexp(self))",),
    out=OutRule("floating"),
)
CUMSUM = defop(
    "cumsum",
    "CumsumBackward0",
    _scan(np.cumsum),
    _cumsum_grad,
    rules=("reversed cumsum",),
    out=OutRule("free", in_out_dtype=True),
)
CUMPROD = defop(
    "cumprod",
    "CumprodBackward0",
    _scan(np.cumprod),
    _cumprod_grad,
    saves=(0, "result"),
    rules=("sum over later outputs of the product of the other factors",),
    out=OutRule("free", in_out_dtype=True),
)

# --------------------------------------------------------------------------------------------
# Functions: the torch.* / Tensor.* surface
# --------------------------------------------------------------------------------------------


def _dtype_param(dtype: Any) -> Any:
    return None if dtype is None else dtypes.to_numpy(dtype)


def sum(
    input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None, out: Any = None
) -> Tensor:
    if out is not None:
        return write_out(sum, out, input, dim, keepdim, dtype=dtype)
    if isinstance(dim, (float, str)):
        raise TypeError(_invalid("sum", dim, _SUM_SIGNATURES))
    dims = _dims(dim, input.ndim)
    params = {
        "dim": dims,
        "keepdim": bool(keepdim),
        "shape": input._data.shape,
        "dtype": _dtype_param(dtype),
    }
    return apply_op(SUM if dims is None else SUM_DIM, (input,), params)


def nansum(
    input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None, out: Any = None
) -> Tensor:
    if out is not None:
        return write_out(nansum, out, input, dim, keepdim, dtype=dtype)
    params = {"dim": _dims(dim, input.ndim), "keepdim": bool(keepdim), "dtype": _dtype_param(dtype)}
    return apply_op(NANSUM, (input,), params)


def nanmean(
    input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None, out: Any = None
) -> Tensor:
    """PyTorch's composite: nansum / the count of non-nan elements (DivBackward0)."""
    if out is not None:
        return write_out(nanmean, out, input, dim, keepdim, dtype=dtype)
    _require_float(
        input,
        "nanmean(): expected input to have floating point or complex dtype but got {}",
    )
    present = sum(input.isnan().logical_not(), dim, keepdim)
    return nansum(input, dim, keepdim, dtype=dtype) / present


declare_out("nanmean", OutRule(no_kernel="biu"))


def mean(
    input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None, out: Any = None
) -> Tensor:
    if out is not None:
        return write_out(mean, out, input, dim, keepdim, dtype=dtype)
    target = _dtype_param(dtype)
    if target is not None and target.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Optional dtype must be either a floating point "
            f"or complex dtype. Got: {dtypes.scalar_name(target)}"
        )
    if target is None:
        _require_float(
            input,
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            "complex dtype. Got: {}",
        )
    dims = _dims(dim, input.ndim)
    params = {
        "dim": dims,
        "keepdim": bool(keepdim),
        "shape": input._data.shape,
        "dtype": target,
    }
    return apply_op(MEAN if dims is None else MEAN_DIM, (input,), params)


_SUM_SIGNATURES = (
    " * (*, torch.dtype dtype = None)\n"
    " * (tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None)\n"
)
_PROD_SIGNATURES = (
    " * (*, torch.dtype dtype = None)\n"
    " * (int dim, bool keepdim = False, *, torch.dtype dtype = None)\n"
)


def _invalid(name: str, dim: Any, signatures: str) -> str:
    return (
        f"{name}() received an invalid combination of arguments - got ({type(dim).__name__}), "
        f"but expected one of:\n{signatures}"
    )


def prod(
    input: Tensor, dim: Any = None, keepdim: bool = False, *, dtype: Any = None, out: Any = None
) -> Tensor:
    if out is not None:
        return write_out(prod, out, input, dim, keepdim, dtype=dtype)
    if dim is not None and not isinstance(dim, (int, np.integer, Tensor)):
        raise TypeError(_invalid("prod", dim, _PROD_SIGNATURES))
    d = None if dim is None else _norm_dim(_as_dim(dim), input.ndim)
    params = {"dim": d, "keepdim": bool(keepdim), "dtype": _dtype_param(dtype)}
    return apply_op(PROD if d is None else PROD_DIM, (input,), params)


def _pick_along(op: Any, name: str, pick: Any, input: Tensor, dim: Any, keepdim: bool) -> Any:
    """max/min/median along one dim: the (values, indices) named tuple."""
    if isinstance(dim, (tuple, list)):
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got (dim=tuple, ), but "
            "expected one of:\n * ()\n * (Tensor other)\n * (int dim, bool keepdim = False)\n"
        )
    d = _norm_dim(_as_dim(dim), input.ndim)
    _check_nonempty(input, name, d)
    return values_and_indices(op, getattr(return_types, name), pick, input, d, keepdim)


def values_and_indices(
    op: Any, result_type: Any, pick: Any, input: Tensor, d: int, keepdim: bool
) -> Any:
    """`result_type(values, indices)` of an op that picks one element along dim `d`: `pick`
    gives the indices (numpy), `op` the values with their gradient to the picked places."""
    data = np.asarray(input._data)
    if data.ndim == 0:
        indices = mark_new(_wrap(np.zeros((), dtype=np.int64)))
        params = {"dim": 0, "keepdim": bool(keepdim), "indices": indices, "shape": ()}
        return result_type(apply_op(op, (input,), params), indices)
    kept = np.expand_dims(pick(data, d), d).astype(np.int64)
    indices = mark_new(_wrap(np.array(kept if keepdim else np.squeeze(kept, d))))
    params = {"dim": d, "keepdim": bool(keepdim), "indices": indices, "shape": data.shape}
    return result_type(apply_op(op, (input,), params), indices)


def _argmax_nan(a: np.ndarray, axis: int) -> np.ndarray:
    return np.argmax(a, axis=axis)  # numpy's argmax already returns the first nan


def _argmin_nan(a: np.ndarray, axis: int) -> np.ndarray:
    return np.argmin(a, axis=axis)  # likewise


def _median_index(a: np.ndarray, axis: int) -> np.ndarray:
    """The index of the lower median along `axis` (of the first nan where there is one)."""
    order = np.argsort(a, axis=axis, kind="stable")
    k = (a.shape[axis] - 1) // 2
    idx = np.take(order, k, axis=axis)
    nan = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, dtype=bool)
    if nan.any():
        idx = np.where(nan.any(axis=axis), np.argmax(nan, axis=axis), idx)
    return idx


def _lower_median_all(a: Any) -> Any:
    flat = np.asarray(a).reshape(-1)
    if flat.size == 0:
        return np.asarray(np.nan, dtype=flat.dtype)
    return np.asarray(flat[_median_index(flat, 0)], dtype=flat.dtype)


def max(
    input: Tensor, dim: Any = None, keepdim: bool = False, *, other: Any = None, out: Any = None
) -> Any:
    if out is not None:
        return write_out(max, out, input, dim, keepdim, other=other)
    if other is not None or isinstance(dim, Tensor):
        return maximum(input, other if other is not None else dim)
    if dim is None:
        _check_nonempty(input, "max", None)
        return apply_op(MAX_ALL, (input,))
    return _pick_along(MAX_DIM, "max", _argmax_nan, input, dim, keepdim)


def min(
    input: Tensor, dim: Any = None, keepdim: bool = False, *, other: Any = None, out: Any = None
) -> Any:
    if out is not None:
        return write_out(min, out, input, dim, keepdim, other=other)
    if other is not None or isinstance(dim, Tensor):
        return minimum(input, other if other is not None else dim)
    if dim is None:
        _check_nonempty(input, "min", None)
        return apply_op(MIN_ALL, (input,))
    return _pick_along(MIN_DIM, "min", _argmin_nan, input, dim, keepdim)


def median(input: Tensor, dim: Any = None, keepdim: bool = False, *, out: Any = None) -> Any:
    if out is not None:
        return write_out(median, out, input, dim, keepdim)
    if dim is None:
        return apply_op(MEDIAN_ALL, (input,))
    return _pick_along(MEDIAN_DIM, "median", _median_index, input, dim, keepdim)


def _amax_amin(op: Any, name: str):
    def fn(input: Tensor, dim: Any = (), keepdim: bool = False, *, out: Any = None) -> Tensor:
        if out is not None:
            return write_out(fn, out, input, dim, keepdim)
        dims = _dims(dim, input.ndim)
        if dim is None or (isinstance(dim, (tuple, list)) and not dim):
            _check_nonempty(input, name, None)
        for d in dims:
            _check_nonempty(input, name, d)
        return apply_op(op, (input,), {"dim": dims, "keepdim": bool(keepdim)})

    fn.__name__ = name
    return fn


amax = _amax_amin(AMAX, "amax")
amin = _amax_amin(AMIN, "amin")


def _arg(name: str, pick: Any):
    def fn(input: Tensor, dim: Any = None, keepdim: bool = False, *, out: Any = None) -> Tensor:
        if out is not None:
            return write_out(fn, out, input, dim, keepdim)
        data = np.asanyarray(input._data)  # (a meta tensor's indices are meta: `asanyarray`)
        if dim is None:
            _check_nonempty(input, name, None)
            out = np.asanyarray(pick(data.reshape(-1)), dtype=np.int64)
            return mark_new(_wrap(out.reshape((1,) * data.ndim) if keepdim else out))
        d = _norm_dim(_as_dim(dim), input.ndim)
        _check_nonempty(input, name, d)
        if data.ndim == 0:
            return mark_new(_wrap(np.zeros((), dtype=np.int64)))
        out = pick(data, axis=d)
        out = np.asanyarray(np.expand_dims(out, d) if keepdim else out, dtype=np.int64)
        return mark_new(_wrap(out))  # inference mode: an inference tensor

    fn.__name__ = name
    return fn


argmax = _arg("argmax", np.argmax)
argmin = _arg("argmin", np.argmin)
declare_out("argmax", OutRule("exact"))
declare_out("argmin", OutRule("exact"))


def _ord(p: Any) -> float:
    """The vector-norm order; an int stays an int (`grad_fn._saved_ord` prints it as given)."""
    if p is None or p == "fro":
        return 2
    if isinstance(p, str):
        raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
    if isinstance(p, Tensor):
        p = p.item()
    return p if isinstance(p, int) and not isinstance(p, bool) else float(p)


def norm(
    input: Tensor,
    p: Any = "fro",
    dim: Any = None,
    keepdim: bool = False,
    dtype: Any = None,
    *,
    out: Any = None,
) -> Tensor:
    """`torch.norm` as `linalg.vector_norm` (PyTorch's path for every numeric p and 'fro')."""
    if out is not None:
        return write_out(norm, out, input, p, dim, keepdim, dtype)
    if p == "nuc":
        raise RuntimeError("norm(): the nuclear norm is not supported")
    ord = _ord(p)
    target = _dtype_param(dtype)
    if target is not None and target.kind != "f":
        raise RuntimeError(
            f"linalg.vector_norm: dtype should be floating point or complex, but got "
            f"{dtypes.scalar_name(target)}"
        )
    _require_float(
        input, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}"
    )
    dims = _dims(dim, input.ndim)
    if input._data.size == 0 and ord < 0 or (input._data.size == 0 and math.isinf(ord)):
        shape = input._data.shape
        empty = [d for d in (dims if dims is not None else ()) if shape[d] == 0]
        if dims is None:
            raise RuntimeError(
                f"linalg.vector_norm cannot compute the {p} norm on an empty tensor because the "
                "operation does not have an identity"
            )
        if empty:
            raise RuntimeError(
                f"linalg.vector_norm cannot compute the {p} norm on the dimension {empty[0]}"
                "because this dimension is empty and the operation does not have an identity"
            )
    params = {"ord": ord, "dim": dims, "keepdim": bool(keepdim), "dtype": target}
    return apply_op(NORM, (input,), params)


def _correction(name: str, unbiased: Any, correction: Any) -> float:
    if unbiased is not None and correction is not None:
        raise TypeError(
            f"{name}() received an invalid combination of arguments - got (unbiased=bool, "
            f"correction={type(correction).__name__}, ), but expected one of:\n"
            " * (tuple of ints dim, bool unbiased = True, bool keepdim = False)\n"
            " * (tuple of ints dim = None, *, Number correction = None, bool keepdim = False)\n"
            " * (bool unbiased = True)\n"
        )
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


def _moment(op: Any, name: str):
    def fn(
        input: Tensor,
        dim: Any = None,
        unbiased: Any = None,
        keepdim: bool = False,
        *,
        correction: Any = None,
        out: Any = None,
    ) -> Tensor:
        if out is not None:
            return write_out(fn, out, input, dim, unbiased, keepdim, correction=correction)
        if isinstance(dim, bool):  # var(unbiased)
            dim, unbiased = None, dim
        corr = _correction(name, unbiased, correction)
        _require_float(input, "std and var only support floating point and complex dtypes")
        dims = _dims(dim, input.ndim)
        if _count(input._data.shape, dims) - corr <= 0:
            warnings.warn(
                f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than "
                "the reduction factor (input numel divided by output numel).",
                UserWarning,
                stacklevel=2,
            )
        return apply_op(op, (input,), {"dim": dims, "correction": corr, "keepdim": bool(keepdim)})

    fn.__name__ = name
    return fn


var = _moment(VAR, "var")
std = _moment(STD, "std")


def var_mean(input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
             correction: Any = None) -> tuple:  # fmt: skip
    """`(var, mean)` as a plain tuple (each from its own op; PyTorch has one VarMeanBackward0)."""
    return (
        var(input, dim, unbiased, keepdim, correction=correction),
        mean(input, dim, keepdim),
    )


def std_mean(input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *,
             correction: Any = None) -> tuple:  # fmt: skip
    return (
        std(input, dim, unbiased, keepdim, correction=correction),
        mean(input, dim, keepdim),
    )


def logsumexp(input: Tensor, dim: Any, keepdim: bool = False, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(logsumexp, out, input, dim, keepdim)
    dims = _dims(dim, input.ndim)
    return apply_op(LOGSUMEXP, (input,), {"dim": dims, "keepdim": bool(keepdim)})


def _scan_fn(op: Any, name: str):
    def fn(input: Tensor, dim: Any, *, dtype: Any = None, out: Any = None) -> Tensor:
        if out is not None:
            return write_out(fn, out, input, dim, dtype=dtype)
        d = _norm_dim(_as_dim(dim), input.ndim)
        target = _dtype_param(dtype)
        if target is not None and target.kind == "b":
            raise NotImplementedError(f"\"{name}_out_cpu\" not implemented for 'Bool'")
        return apply_op(op, (input,), {"dim": d, "dtype": target})

    fn.__name__ = fn.__qualname__ = name
    return fn


cumsum = _scan_fn(CUMSUM, "cumsum")
cumprod = _scan_fn(CUMPROD, "cumprod")


def _scan_inplace(op: Any):
    """`cumsum_`/`cumprod_`: the scan written into the tensor (its dtype kept)."""

    def method(self: Tensor, dim: Any, *, dtype: Any = None) -> Tensor:
        params = {"dim": _norm_dim(_as_dim(dim), self.ndim), "dtype": _dtype_param(dtype)}
        return apply_inplace(op, self, (), params)

    method.__name__ = op.name + "_"
    return method


def _logical(name: str, fn: Any):
    def reduce(input: Tensor, dim: Any = None, keepdim: bool = False, *, out: Any = None) -> Tensor:
        if out is not None:
            return write_out(reduce, out, input, dim, keepdim)
        data = np.asarray(input._data)
        dims = _dims(dim, input.ndim)
        limits.check_reduction(data.shape, dims)
        out = fn(data, axis=_axis(dims, data.shape), keepdims=bool(keepdim))
        return mark_new(
            _wrap(np.asarray(out, dtype=np.uint8 if data.dtype == np.uint8 else np.bool_))
        )

    reduce.__name__ = name
    return reduce


all = _logical("all", np.all)
any = _logical("any", np.any)
declare_out("all", OutRule("boolean"))
declare_out("any", OutRule("boolean"))


def count_nonzero(input: Tensor, dim: Any = None) -> Tensor:
    data = np.asarray(input._data)
    dims = _dims(dim, input.ndim)
    limits.check_reduction(data.shape, dims)
    return mark_new(
        _wrap(np.asarray(np.count_nonzero(data, axis=_axis(dims, data.shape)), dtype=np.int64))
    )


# --------------------------------------------------------------------------------------------
# Tensor methods
# --------------------------------------------------------------------------------------------

_METHODS = {
    "nanmean": nanmean,
    "argmax": argmax,
    "argmin": argmin,
    "all": all,
    "any": any,
    "count_nonzero": count_nonzero,
}


tensor_methods("ops.reductions", _METHODS)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(AMAX, amax, method=True)
declare_forms(AMIN, amin, method=True)
declare_forms(CUMPROD, cumprod, method=True, inplace=_scan_inplace(CUMPROD))
declare_forms(CUMSUM, cumsum, method=True, inplace=_scan_inplace(CUMSUM))
declare_forms(LOGSUMEXP, logsumexp, method=True)
declare_forms(MAX_ALL, max, method=True)
declare_forms(MEAN, mean, method=True)
declare_forms(MEDIAN_ALL, median, method=True)
declare_forms(MIN_ALL, min, method=True)
declare_forms(NANSUM, nansum, method=True)
declare_forms(NORM, norm, method=True)
declare_forms(PROD, prod, method=True)
declare_forms(STD, std, method=True)
declare_forms(SUM, sum, method=True)
declare_forms(VAR, var, method=True)
