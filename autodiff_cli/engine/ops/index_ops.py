"""Writing along an index: index_add, index_copy, index_fill, masked_scatter, scatter_reduce,
index_reduce (function, method and in-place method each, as PyTorch has them).

An index op writes `source` into `self` at `(:, ..., :, index)` (a numpy index with the index
vector at `dim`); scatter_reduce uses the element-wise index of `scatter`. Both kinds share one
numpy reduction (`_reduce_into`) and one set of gradient formulas; the gradient reaching the
source is `grad.index_select(dim, index)` for the index ops and `grad.gather(dim, index)` for
scatter_reduce.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_inplace, apply_op
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.out_arg import OutRule, write_out
from ..core.saved_hooks import shows_saved
from ..core.tensor import Tensor, _norm_dim, broadcast_error
from .formula_ops import mul_scalar, run
from .indexing import (
    GATHER,
    INDEX_SELECT,
    MASKED_FILL,
    SCATTER_VALUE,
    _check_scatter_index,
    _scatter_index,
)
from .inplace import after_inplace

__all__ = [
    "index_add",
    "index_copy",
    "index_fill",
    "masked_scatter",
    "scatter_reduce",
    "index_reduce",
]

REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")
LEGACY_NAMES = {"max": "amax", "min": "amin"}  # scatter_reduce also takes these


# --------------------------------------------------------------------------------------------
# Forward: numpy
# --------------------------------------------------------------------------------------------


def _hit(shape: tuple, index: tuple) -> np.ndarray:
    """True at the positions of `self` the index writes to."""
    hit = np.zeros(shape, dtype=bool)
    hit[index] = True
    return hit


def _identity(reduce: str, dtype: np.dtype) -> Any:
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "f":
        return -np.inf if reduce == "amax" else np.inf
    info = np.iinfo(dtype) if dtype.kind in "iu" else None
    if info is None:
        return reduce == "amin"
    return info.min if reduce == "amax" else info.max


def _counts(shape: tuple, index: tuple, src_shape: tuple, include_self: bool) -> np.ndarray:
    """How many values are reduced into each position (1 where nothing is written)."""
    count = np.zeros(shape, dtype=np.int64)
    np.add.at(count, index, np.ones(src_shape, dtype=np.int64))
    hit = count > 0
    if include_self:
        count[hit] += 1
    count[~hit] = 1
    return count


_UFUNCS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.fmax, "amin": np.fmin}


def _reduce_into(a: Any, src: Any, index: tuple, reduce: str, include_self: bool) -> np.ndarray:
    out = np.array(a, copy=True)
    if not include_self:
        out[_hit(a.shape, index)] = _identity(reduce, out.dtype)
    ufunc = _UFUNCS[reduce]
    if reduce in ("amax", "amin"):  # NaN wins, as in PyTorch
        ufunc = np.maximum if reduce == "amax" else np.minimum
    ufunc.at(out, index, src)
    if reduce == "mean":
        count = _counts(a.shape, index, src.shape, include_self)
        out = out // count if out.dtype.kind in "iu" else out / count
        out = out.astype(a.dtype, copy=False)
    return out


# --------------------------------------------------------------------------------------------
# Gradients: written once for numpy and Tensors (B is the backend)
# --------------------------------------------------------------------------------------------


def _pick(B: Any, g: Any, index: tuple, indexed: bool) -> Any:
    """`grad.index_select(dim, index)` (index ops) or `grad.gather(dim, index)` (scatter)."""
    return run(B, INDEX_SELECT if indexed else GATHER, g, index=index, shape=tuple(g.shape))


def _zero_at(B: Any, g: Any, index: tuple, indexed: bool) -> Any:
    """The gradient with the written positions zeroed: `grad.index_fill(dim, index, 0)` (index
    ops) or `grad.scatter(dim, index, 0)` (scatter_reduce)."""
    if indexed:
        return run(B, INDEX_FILL, g, index=index, value=0)
    return run(B, SCATTER_VALUE, g, index=index, region=(), value=0)


def _data(x: Any) -> np.ndarray:
    return np.asarray(getattr(x, "_data", x))


_REDUCE_PARAMS = ("reduce", "include_self", "indexed")


def _reduce_again(B: Any, self: Any, src: Any, index: tuple, p: dict) -> Any:
    """The op's reduction redone on other values (its own node under create_graph)."""
    op = INDEX_REDUCE if p["indexed"] else SCATTER_REDUCE
    return run(B, op, self, src, index=index, **{k: p[k] for k in _REDUCE_PARAMS})


def _ones_at(B: Any, x: Any, mask: np.ndarray) -> Any:
    """`x.masked_fill(mask, 1)`."""
    return run(B, MASKED_FILL, x, mask=mask, value=1)


def _prod_grad_self(B: Any, g: Any, self: Any, src: Any, index: tuple, p: dict) -> Any:
    """prod: g times the product of the values reduced with `self`, the reduction redone with
    `self`'s zeros set to 1, divided by that `self` (g where nothing is written); with
    include_self=False, then 0 where written."""
    ones = _ones_at(B, self, _data(self) == 0)
    grad = g * _reduce_again(B, ones, src, index, p) / ones
    return grad if p["include_self"] else _zero_at(B, grad, index, p["indexed"])


def _prod_grad_src(B: Any, g: Any, self: Any, src: Any, result: Any, index: tuple, p: dict) -> Any:
    """prod: `g·result / src` at a nonzero source value; at a zero, g times the reduction redone
    with that zero set to 1 when it is the only zero reduced there (0 with more: their second
    derivative raises, as in PyTorch)."""
    indexed, zero = p["indexed"], _data(src) == 0
    n_zeros = np.zeros(_data(self).shape, dtype=np.int64)
    np.add.at(n_zeros, index, zero.astype(np.int64))
    lone = zero & (n_zeros[index] == 1)
    at_zero = _pick(B, g * _reduce_again(B, self, _ones_at(B, src, lone), index, p), index, indexed)
    elsewhere = _pick(B, g * result, index, indexed) / _ones_at(B, src, zero)
    grad = B.where(B.const(zero), at_zero, elsewhere)
    if (n_zeros > 1).any():
        name, arg = ("index_reduce", "source") if indexed else ("scatter_reduce", "src")
        message = (
            f"{name}(): Double backward is unsupported for {arg} when >1 zeros in {arg} are "
            "scattered to the same position in self"
        )
        grad = run(B, DOUBLE_BACKWARD_ERROR, grad, message=message)
    return grad


def _raise(message: str) -> Any:
    raise RuntimeError(message)


# A gradient whose own gradient PyTorch does not compute: the backward pass raises `message`.
DOUBLE_BACKWARD_ERROR = defop(
    "double_backward_error",
    "Error",
    lambda g, message: np.array(g, copy=True),
    lambda B, gg, message: _raise(message),
    arg_names=("grad",),
    promotes=False,
    rules=("raises: not computed",),
)
DOUBLE_BACKWARD_ERROR.node_class().name = lambda self: "torch::autograd::Error"


def _extreme_weights(s: Any, x: Any, r: Any, index: tuple, include_self: bool) -> tuple:
    """amax/amin: the gradient is shared evenly by the values equal to the result (a value of
    `self` equal to it counts as a tie even with include_self=False, as in PyTorch)."""
    s, x, r = _data(s), _data(x), _data(r)
    hit = _hit(s.shape, index)
    eq_self = np.asarray((s == r) & hit)
    eq_src = np.asarray(x == r[index])
    ties = eq_self.astype(s.dtype)
    np.add.at(ties, index, eq_src.astype(s.dtype))
    ties = np.where(ties == 0, 1, ties)
    self_w = np.where(hit, eq_self / ties, 1.0).astype(s.dtype)
    return self_w, 1.0 / ties, eq_src.astype(s.dtype)


def _grad_self(B: Any, g: Any, self: Any, src: Any, result: Any, index: tuple, **p: Any) -> Any:
    reduce, include_self = p["reduce"], p["include_self"]
    if reduce == "prod":
        return _prod_grad_self(B, g, self, src, index, p)
    if not include_self:
        return _zero_at(B, g, index, p["indexed"])
    if reduce == "sum":
        return g
    if reduce == "mean":
        count = _counts(tuple(g.shape), index, tuple(_data(src).shape), True)
        return g / B.const(count.astype(_data(g).dtype))
    return g * B.const(_extreme_weights(self, src, result, index, True)[0])


def _grad_src(B: Any, g: Any, self: Any, src: Any, result: Any, index: tuple, **p: Any) -> Any:
    reduce, include_self, indexed = p["reduce"], p["include_self"], p["indexed"]
    if reduce == "sum":
        return _pick(B, g, index, indexed)
    if reduce == "mean":
        count = _counts(tuple(g.shape), index, tuple(_data(src).shape), include_self)
        return _pick(B, g, index, indexed) / B.const(np.asarray(count[index], _data(g).dtype))
    if reduce == "prod":
        return _prod_grad_src(B, g, self, src, result, index, p)
    _, per_tie, eq_src = _extreme_weights(self, src, result, index, include_self)
    return _pick(B, g * B.const(per_tie), index, indexed) * B.const(eq_src)


def _reduce_op(name: str, grad_fn: str, rule: str) -> Any:
    return defop(
        name,
        grad_fn,
        lambda a, src, index, reduce, include_self, indexed: _reduce_into(
            a, src, index, reduce, include_self
        ),
        _grad_self,
        _grad_src,
        saves=(0, 1, "result"),
        arg_names=("self", "src") if name == "scatter_reduce" else ("self", "source"),
        promotes=False,
        rules=(f"1, or the {rule}'s derivative where written", f"the {rule}'s derivative"),
        out=OutRule("exact"),
    )


SCATTER_REDUCE = _reduce_op("scatter_reduce", "ScatterReduceBackward0", "reduction")
INDEX_REDUCE = _reduce_op("index_reduce", "IndexReduceBackward0", "reduction")


def _add_forward(a: Any, src: Any, index: tuple, alpha: Any) -> np.ndarray:
    out = np.array(a, copy=True)
    np.add.at(out, index, src if alpha == 1 else src * np.asarray(alpha).astype(a.dtype))
    return out


def _copy_forward(a: Any, *src: Any, index: tuple, value: Any = None) -> np.ndarray:
    out = np.array(a, copy=True)
    out[index] = np.reshape(src[0], out[index].shape) if src else value
    return out


def _source_grad(B: Any, g: Any, index: tuple, alpha: Any, shape: tuple | None = None) -> Any:
    """`grad.index_select(dim, index).expand_as(source)`, times alpha when it is not 1."""
    picked = _pick(B, g, index, True)
    picked = B.expand(picked, tuple(picked.shape) if shape is None else shape)
    return picked if alpha == 1 else mul_scalar(B, picked, alpha)


INDEX_ADD = defop(
    "index_add",
    "IndexAddBackward0",
    lambda a, src, index, alpha: _add_forward(a, src, index, alpha),
    lambda B, g, index, alpha: g,
    lambda B, g, index, alpha: _source_grad(B, g, index, alpha),
    arg_names=("self", "source"),
    promotes=False,
    rules=("1", "alpha at the rows it was added to"),
    out=OutRule("exact"),
)
INDEX_COPY = defop(
    "index_copy",
    "IndexCopyBackward0",
    lambda a, src, index, shape: _copy_forward(a, src, index=index),
    lambda B, g, index, shape: _zero_at(B, g, index, True),
    lambda B, g, index, shape: _source_grad(B, g, index, 1, shape),
    arg_names=("self", "source"),
    promotes=False,
    rules=("1 where not overwritten", "1 at the rows it was copied to"),
    out=OutRule("exact"),
)
INDEX_FILL = defop(
    "index_fill",
    "IndexFillBackward0",
    lambda a, index, value: _copy_forward(a, index=index, value=value),
    lambda B, g, index, value: _zero_at(B, g, index, True),
    promotes=False,
    rules=("1 where not filled",),
)
INDEX_FILL_TENSOR = defop(
    "index_fill_tensor",
    "IndexFillBackward1",
    lambda a, value, index: _copy_forward(a, index=index, value=value),
    lambda B, g, index: _zero_at(B, g, index, True),
    lambda B, g, index: B.where(B.const(_hit(tuple(g.shape), index)), g, 0.0),
    arg_names=("self", "value"),
    promotes=False,
    rules=("1 where not filled", "sum of the gradient where filled"),
    aten="index_fill",
)


def _masked_scatter_forward(a: Any, src: Any, mask: np.ndarray) -> np.ndarray:
    out = np.array(a, copy=True)
    out[mask] = np.reshape(src, -1)[: int(mask.sum())]
    return out


def _masked_scatter_backward(g: Any, mask: np.ndarray, src_shape: tuple) -> np.ndarray:
    """The source's k-th element went to the k-th True of the mask (0 for the rest)."""
    taken = np.asarray(g)[mask]
    out = np.zeros(int(np.prod(src_shape, dtype=np.int64)), dtype=taken.dtype)
    out[: taken.size] = taken
    return out.reshape(src_shape)


MASKED_SCATTER_BACKWARD = defop(
    "masked_scatter_backward",
    "MaskedScatterBackwardBackward0",
    lambda g, mask, src_shape: _masked_scatter_backward(g, mask, src_shape),
    lambda B, gg, mask, src_shape: run(
        B,
        MASKED_SCATTER,
        B.const(np.zeros(mask.shape, _data(gg).dtype)),
        gg,
        mask=mask,
        src_shape=src_shape,
    ),
    arg_names=("grad_output",),
    rules=("1 from the k-th True of the mask to the source's k-th element",),
)


MASKED_SCATTER = defop(
    "masked_scatter",
    "MaskedScatterBackward0",
    lambda a, src, mask, src_shape: _masked_scatter_forward(a, src, mask),
    lambda B, g, mask, src_shape: run(B, MASKED_FILL, g, mask=mask, value=0),
    lambda B, g, mask, src_shape: run(
        B, MASKED_SCATTER_BACKWARD, g, mask=mask, src_shape=src_shape
    ),
    arg_names=("self", "source"),
    promotes=False,
    rules=("1 where the mask is False", "1 at the position it was written to"),
)


# --------------------------------------------------------------------------------------------
# Argument checks (PyTorch's messages)
# --------------------------------------------------------------------------------------------


def _dims(shape: tuple) -> str:
    return "[" + ", ".join(str(n) for n in shape) + "]"


def _type_name(t: Tensor) -> str:
    return dtypes.scalar_name(t.dtype)


def _index_vector(index: Tensor, name: str, kinds: str = "int32/int64") -> np.ndarray:
    data = np.asarray(index._data)
    if data.dtype.kind not in "iu":
        raise RuntimeError(
            f"{name}(): Expected dtype {kinds} for index but got: {_type_name(index)}"
        )
    if data.ndim > 1:
        raise IndexError(
            f"{name}(): Index is supposed to be a vector, but got dim: {data.ndim} with type: "
            f"{_type_name(index)} and size: {_dims(data.shape)}"
        )
    return data.reshape(-1).astype(np.int64)


def _check_source(self: Tensor, dim: int, data: np.ndarray, source: Tensor, name: str) -> None:
    if self._data.dtype != source._data.dtype:
        raise RuntimeError(
            f"{name}(): self ({_type_name(self)}) and source ({_type_name(source)}) must have "
            "the same scalar type"
        )
    s_shape, src_shape = self._data.shape, source._data.shape
    if dim >= max(source._data.ndim, 1):
        raise RuntimeError(
            f"{name}(): Indexing dim {dim} is out of bounds of the source tensor with dim "
            f"{source._data.ndim}"
        )
    src_dim = src_shape[dim] if source._data.ndim else 1
    if data.size != src_dim:
        raise RuntimeError(
            f"{name}(): Number of indices ({data.size}) should be equal to source.size(dim): "
            f"({src_dim}), for dim: {dim}"
        )
    rest = [n for d, n in enumerate(s_shape) if d != dim]
    if len(src_shape) != len(s_shape) or [n for d, n in enumerate(src_shape) if d != dim] != rest:
        raise RuntimeError(
            "source tensor shape must match self tensor shape, excluding the specified "
            f"dimension. Got self.shape = {_dims(s_shape)} source.shape = {_dims(src_shape)}"
        )


def _along(ndim: int, dim: int, data: np.ndarray) -> tuple:
    """The numpy index of `index` along `dim`; a 0-d self (whose only index is 0) is written
    whole."""
    return (slice(None),) * dim + (data,) if ndim else ()


def _index_add_params(self: Tensor, dim: int, index: Tensor, source: Tensor, alpha: Any) -> dict:
    dim = _norm_dim(dim, self._data.ndim)
    data = _index_vector(index, "index_add_")
    _check_source(self, dim, data, source, "index_add_")
    size = self._data.shape[dim] if self._data.ndim else 1
    bad = data[(data >= size) | (data < 0)]
    if bad.size and not self._data.ndim:
        raise IndexError("index out of range in self")
    if bad.size:
        raise RuntimeError(
            f"index {int(bad[0])} is out of bounds for dimension {dim} with size {size}"
        )
    return {"index": _along(self._data.ndim, dim, data), "alpha": alpha}


def _index_copy_params(self: Tensor, dim: int, index: Tensor, source: Tensor) -> dict:
    dim = _norm_dim(dim, self._data.ndim)
    data = np.asarray(index._data)
    if data.dtype != np.int64:
        raise RuntimeError(
            f"index_copy_(): Expected a long tensor for index, but got {_type_name(index)}"
        )
    if data.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {data.ndim})")
    data = data.reshape(-1)
    if self._data.dtype != source._data.dtype:
        raise RuntimeError(
            "index_copy_(): self and source expected to have the same dtype, but got (self) "
            f"{_type_name(self)} and (source) {_type_name(source)}"
        )
    src_shape = source._data.shape
    if source._data.ndim and self._data.ndim and source._data.ndim != self._data.ndim:
        raise IndexError(
            "index_copy_(): When source and destination are not scalars, their dimensionality "
            f"must match. Source dimensionality ({source._data.ndim}), destination "
            f"dimensionality ({self._data.ndim})"
        )
    s_rest = [str(n) for d, n in enumerate(self._data.shape) if d != dim]
    src_rest = [str(n) for d, n in enumerate(src_shape) if d != dim]
    if self._data.ndim and s_rest != src_rest:
        raise RuntimeError(
            "index_copy_(): Source/destination tensor must have same slice shapes. "
            f"Destination slice shape: {' '.join(s_rest)} at dimension {dim} and source slice "
            f"shape: {' '.join(src_rest)} at dimension 0."
        )
    src_dim = src_shape[dim] if source._data.ndim else 1
    if data.size != src_dim:
        raise IndexError(
            f"index_copy_(): Number of indices ({data.size}) should be equal to "
            f"source.size(dim) ({src_dim})"
        )
    size = self._data.shape[dim] if self._data.ndim else 1
    bad = data[(data >= size) | (data < 0)]
    if bad.size:
        raise IndexError(
            f"index_copy_(): index {int(bad[0])} is out of bounds for dimension {dim} with "
            f"size {size}"
        )
    return {"index": _along(self._data.ndim, dim, data), "shape": src_shape}


def _index_fill_index(self: Tensor, dim: int, index: Tensor, value: Any) -> tuple:
    dim = _norm_dim(dim, self._data.ndim)
    data = np.asarray(index._data)
    if data.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if data.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if isinstance(value, Tensor) and value._data.ndim != 0:
        raise RuntimeError(
            "index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
            f"{value._data.ndim} dimension(s)."
        )
    data = data.reshape(-1)
    size = self._data.shape[dim] if self._data.ndim else 1
    bad = data[(data >= size) | (data < -size)]
    if bad.size:
        raise IndexError(
            f"index {int(bad[0])} is out of bounds for dimension {dim} with size {size}"
        )
    return _along(self._data.ndim, dim, np.where(data < 0, data + size, data))


def _check_expand(mask_shape: tuple, shape: tuple) -> None:
    """In place, the mask is expanded to self's shape: PyTorch's expand messages."""
    if len(mask_shape) > len(shape):
        raise RuntimeError(
            f"expand(CPUBoolType{{{_dims(mask_shape)}}}, size={_dims(shape)}): the number of "
            f"sizes provided ({len(shape)}) must be greater or equal to the number of dimensions "
            f"in the tensor ({len(mask_shape)})"
        )
    lead = len(shape) - len(mask_shape)
    for i in reversed(range(len(mask_shape))):
        n, target = mask_shape[i], shape[lead + i]
        if n != 1 and n != target:
            raise RuntimeError(
                f"The expanded size of the tensor ({target}) must match the existing size ({n}) "
                f"at non-singleton dimension {lead + i}.  Target sizes: {_dims(shape)}.  Tensor "
                f"sizes: {_dims(mask_shape)}"
            )


def _masked_scatter_params(self: Tensor, mask: Tensor, source: Tensor, inplace: bool) -> dict:
    if not isinstance(mask, Tensor) or mask._data.dtype != np.bool_:
        raise RuntimeError(
            "masked_scatter_ only supports boolean masks, but got mask with dtype "
            f"{_type_name(mask)}"
        )
    if self._data.dtype != source._data.dtype:
        raise RuntimeError(
            "masked_scatter: expected self and source to have same dtypes but got"
            f"{_type_name(self)} and {_type_name(source)}"
        )
    shape = self._data.shape
    if inplace:
        _check_expand(mask._data.shape, shape)
    try:
        out_shape = np.broadcast_shapes(mask._data.shape, shape)
    except ValueError:
        raise broadcast_error([mask._data.shape, shape]) from None
    if out_shape != shape:
        raise broadcast_error([mask._data.shape, shape])
    full = np.broadcast_to(mask._data, shape)
    if int(full.sum()) > source._data.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return {"mask": np.array(full), "src_shape": source._data.shape}


def _reduce_params(
    self: Tensor, dim: int, index: tuple, reduce: str, include_self: bool, indexed: bool
) -> dict:
    return {"index": index, "reduce": reduce, "include_self": include_self, "indexed": indexed}


def _scalar_index(dim: int, index: Tensor) -> tuple:
    """scatter_reduce into a 0-d self: a 0-d index of 0 (or -1) writes it whole."""
    _norm_dim(dim, 0)
    data = np.asarray(index._data)
    if data.dtype.kind not in "iu":
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if data.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if not -1 <= int(data) < 1:
        raise RuntimeError(f"index {int(data)} is out of bounds for dimension 0 with size 1")
    return ()


def _scatter_reduce_params(
    self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, include_self: bool
) -> tuple:
    reduce = LEGACY_NAMES.get(reduce, reduce)
    if reduce not in REDUCTIONS:
        raise RuntimeError(
            f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
        )
    if self._data.dtype != src._data.dtype and self._data.ndim:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if not self._data.ndim:
        return src, _reduce_params(
            self, dim, _scalar_index(dim, index), reduce, include_self, False
        )
    dim, data = _check_scatter_index(self, dim, index, "scatter", "self")
    for d, n in enumerate(data.shape):
        too_big = n > src._data.shape[d] or (d != dim and n > self._data.shape[d])
        if too_big:
            raise RuntimeError(
                f"Expected index {_dims(data.shape)} to be no larger than self "
                f"{_dims(self._data.shape)} apart from dimension {dim} and to be no larger "
                f"size than src {_dims(src._data.shape)}"
            )
    data = np.where(data < 0, data + self._data.shape[dim], data)
    np_index = _scatter_index(self._data.shape, dim, data)
    region = tuple(slice(0, n) for n in data.shape)
    source = src if region == tuple(slice(0, n) for n in src._data.shape) else src[region]
    return source, _reduce_params(self, dim, np_index, reduce, include_self, False)


_BETA_WARNED: list = []


def _warn_beta() -> None:
    """PyTorch warns once per process that index_reduce is in beta."""
    if not _BETA_WARNED:
        _BETA_WARNED.append(True)
        warnings.warn(
            "index_reduce() is in beta and the API may change at any time.", UserWarning, 4
        )


def _index_reduce_params(
    self: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, include_self: bool
) -> dict:
    if reduce not in REDUCTIONS[1:]:
        raise RuntimeError(
            "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got "
            f"{reduce}."
        )
    _warn_beta()
    dim = _norm_dim(dim, self._data.ndim)
    data = _index_vector(index, "index_reduce_")
    _check_source(self, dim, data, source, "index_reduce_")
    size = self._data.shape[dim] if self._data.ndim else 1
    if data.size and (data.max() >= size or data.min() < 0):
        raise IndexError("index out of range in self")
    return _reduce_params(self, dim, _along(self._data.ndim, dim, data), reduce, include_self, True)


# --------------------------------------------------------------------------------------------
# Public functions and methods
# --------------------------------------------------------------------------------------------


def _inplace(op: Any, self: Tensor, others: tuple, params: dict) -> Tensor:
    out = apply_inplace(op, self, others, params)
    after_inplace(self)
    return out


@shows_saved(index="index", dim="dim", source="source")
def index_add(
    input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1, out: Any = None
) -> Tensor:
    if out is not None:
        return write_out(index_add, out, input, dim, index, source, alpha=alpha)
    params = _index_add_params(input, dim, index, source, alpha)
    return apply_op(INDEX_ADD, (input, source), params)


def index_add_(self: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:
    return _inplace(INDEX_ADD, self, (source,), _index_add_params(self, dim, index, source, alpha))


@shows_saved(index="index", dim="dim", source="source")
def index_copy(
    input: Tensor, dim: int, index: Tensor, source: Tensor, *, out: Any = None
) -> Tensor:
    if out is not None:
        return write_out(index_copy, out, input, dim, index, source)
    return apply_op(INDEX_COPY, (input, source), _index_copy_params(input, dim, index, source))


def index_copy_(self: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    return _inplace(INDEX_COPY, self, (source,), _index_copy_params(self, dim, index, source))


@shows_saved(index="index", dim="dim")
def index_fill(input: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    np_index = _index_fill_index(input, dim, index, value)
    if isinstance(value, Tensor):
        return apply_op(INDEX_FILL_TENSOR, (input, value), {"index": np_index})
    return apply_op(INDEX_FILL, (input,), {"index": np_index, "value": value})


def index_fill_(self: Tensor, dim: int, index: Tensor, value: Any) -> Tensor:
    np_index = _index_fill_index(self, dim, index, value)
    if isinstance(value, Tensor):
        return _inplace(INDEX_FILL_TENSOR, self, (value,), {"index": np_index})
    return _inplace(INDEX_FILL, self, (), {"index": np_index, "value": value})


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    params = _masked_scatter_params(input, mask, source, False)
    return apply_op(MASKED_SCATTER, (input, source), params)


def masked_scatter_(self: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    params = _masked_scatter_params(self, mask, source, True)
    return _inplace(MASKED_SCATTER, self, (source,), params)


@shows_saved(index="index", dim="dim")
def scatter_reduce(
    input: Tensor,
    dim: int,
    index: Tensor,
    src: Tensor,
    reduce: str,
    *,
    include_self: bool = True,
    out: Any = None,
) -> Tensor:
    if out is not None:
        return write_out(
            scatter_reduce, out, input, dim, index, src, reduce, include_self=include_self
        )
    source, params = _scatter_reduce_params(input, dim, index, src, reduce, include_self)
    return apply_op(SCATTER_REDUCE, (input, source), params)


def scatter_reduce_(
    self: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True
) -> Tensor:
    source, params = _scatter_reduce_params(self, dim, index, src, reduce, include_self)
    return _inplace(SCATTER_REDUCE, self, (source,), params)


@shows_saved(index="index", dim="dim")
def index_reduce(
    input: Tensor,
    dim: int,
    index: Tensor,
    source: Tensor,
    reduce: str,
    *,
    include_self: bool = True,
    out: Any = None,
) -> Tensor:
    if out is not None:
        return write_out(
            index_reduce, out, input, dim, index, source, reduce, include_self=include_self
        )
    params = _index_reduce_params(input, dim, index, source, reduce, include_self)
    return apply_op(INDEX_REDUCE, (input, source), params)


def index_reduce_(
    self: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *, include_self: bool = True
) -> Tensor:
    params = _index_reduce_params(self, dim, index, source, reduce, include_self)
    return _inplace(INDEX_REDUCE, self, (source,), params)


tensor_methods(
    "ops.index_ops",
    {},
)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(INDEX_ADD, index_add, method=True, inplace=index_add_)
declare_forms(INDEX_COPY, index_copy, method=True, inplace=index_copy_)
declare_forms(INDEX_FILL, index_fill, method=True, inplace=index_fill_)
declare_forms(INDEX_REDUCE, index_reduce, method=True, inplace=index_reduce_)
declare_forms(MASKED_SCATTER, masked_scatter, method=True, inplace=masked_scatter_)
declare_forms(SCATTER_REDUCE, scatter_reduce, method=True, inplace=scatter_reduce_)
