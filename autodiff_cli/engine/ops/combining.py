"""Ops that combine tensors or scan along a dim: cummax/cummin (CummaxBackward0,
CumminBackward0, with their indices), block_diag (BlockDiagBackward0), and kron, tensordot and
cartesian_prod, built from views, mul, mm and stack in PyTorch's order so that they show its
grad_fn (UnsafeViewBackward0, ViewBackward0, StackBackward0)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_op
from ..core.inference import mark_new
from ..core.optable import defop, tensor_methods
from ..core.out_arg import _copy_into as copy_into
from ..core.out_arg import write_out
from ..core.saved_hooks import also_shows
from ..core.tensor import Tensor, _dims_text, _norm_dim, _wrap
from .arithmetic import mul
from .creation import zeros
from .formula_ops import run
from .indexing import SCATTER_ADD, _scatter_index
from .matrix import _reshape, dot, mm
from .reductions import _return_type, _ReturnTypes
from .reductions import sum as sum_all
from .reshaping import meshgrid, require_tensor, require_tensors
from .views import (
    SLICE,
    UNSAFE_VIEW,
    VIEW_STRIDE_MESSAGE,
    _can_view,
    permute,
    squeeze,
    stack,
    view,
)

__all__ = ["cummax", "cummin", "block_diag", "kron", "tensordot", "cartesian_prod"]

for _name in ("cummax", "cummin"):
    setattr(_ReturnTypes, _name, _return_type(_name))


# --------------------------------------------------------------------------------------------
# cummax, cummin
# --------------------------------------------------------------------------------------------


def _running_indices(a: np.ndarray, dim: int, largest: bool) -> np.ndarray:
    """For each position along `dim`, the index of the running max (min) so far: a later equal
    value takes over, and NaN wins and stays (a later NaN takes over), as in PyTorch."""
    running = (np.maximum if largest else np.minimum).accumulate(a, axis=dim)
    takes = a == running  # (running NaN once a NaN is met: only a NaN takes over then)
    if a.dtype.kind in "fc":
        takes |= np.isnan(a)
    shape = [1] * a.ndim
    shape[dim] = a.shape[dim]
    positions = np.arange(a.shape[dim], dtype=np.int64).reshape(shape)
    return np.maximum.accumulate(np.where(takes, positions, 0), axis=dim)


def _at_indices(a: Any, dim: int, indices: Tensor) -> np.ndarray:
    a = np.asarray(a)
    if a.ndim == 0:
        return a.copy()
    return np.take_along_axis(a, np.asarray(indices._data), axis=dim)


def _scatter_back(B: Any, g: Any, dim: int, indices: Tensor) -> Any:
    """`zeros.scatter_add(dim, indices, grad)`: each value's gradient to where it came from."""
    shape = tuple(g.shape)
    if not shape:
        return g
    zeros = B.zeros(shape, B.array_of(g).dtype)
    index = _scatter_index(shape, dim, np.asarray(indices._data))
    region = tuple(slice(0, n) for n in shape)
    return run(B, SCATTER_ADD, zeros, g, index=index, region=region)


CUMMAX = defop(
    "cummax", "CummaxBackward0", _at_indices, _scatter_back,
    rules=("1 at the running maximum's position (summed)",),
)  # fmt: skip
CUMMIN = defop(
    "cummin", "CumminBackward0", _at_indices, _scatter_back,
    rules=("1 at the running minimum's position (summed)",),
)  # fmt: skip


def _cumulative(input: Tensor, dim: int, largest: bool) -> tuple:
    require_tensor(input, "cummax" if largest else "cummin", "input", 1)
    d = _norm_dim(dim, input.ndim)
    data = np.asarray(input._data)
    if data.ndim == 0:
        found = np.zeros((), np.int64)
    else:
        found = _running_indices(data, d, largest)
    indices = mark_new(_wrap(found))
    values = apply_op(CUMMAX if largest else CUMMIN, (input,), {"dim": d, "indices": indices})
    shown_dim = dim + 2**64 if dim < 0 else dim  # (as PyTorch shows a negative dim)
    also_shows(values, self=input, dim=shown_dim)  # (PyTorch's node saves self too)
    return values, indices


_NO_DIM: Any = object()


def _require_dim(name: str, dim: Any) -> None:
    if dim is _NO_DIM:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')


def _check_outs(name: str, input: Tensor, out: Any) -> None:
    """cummax/cummin's out=(values, indices): values of input's dtype, indices int64."""
    if isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not Tensor")
    if isinstance(out, (tuple, list)) and len(out) == 2:
        wanted = (np.asarray(input._data).dtype, np.dtype(np.int64))
        for want, given in zip(wanted, out):
            have = np.asarray(given._data).dtype
            if have != want:
                raise RuntimeError(
                    f"expected scalar_type {dtypes.scalar_name(want)} but found "
                    f"{dtypes.scalar_name(have)}"
                )


def cummax(input: Tensor, dim: Any = _NO_DIM, *, out: Any = None) -> Any:
    """The running maximum along `dim` and where it was found (`torch.return_types.cummax`)."""
    _require_dim("cummax", dim)
    if out is not None:
        _check_outs("cummax", input, out)
        return write_out(cummax, out, input, dim)
    return _ReturnTypes.cummax(*_cumulative(input, dim, True))


def cummin(input: Tensor, dim: Any = _NO_DIM, *, out: Any = None) -> Any:
    """The running minimum along `dim` and where it was found (`torch.return_types.cummin`)."""
    _require_dim("cummin", dim)
    if out is not None:
        _check_outs("cummin", input, out)
        return write_out(cummin, out, input, dim)
    return _ReturnTypes.cummin(*_cumulative(input, dim, False))


# --------------------------------------------------------------------------------------------
# block_diag
# --------------------------------------------------------------------------------------------


def _as_block(shape: tuple) -> tuple:
    return (1, 1) if not shape else (1, shape[0]) if len(shape) == 1 else tuple(shape)


def _block_diag(*arrays: Any, shapes: tuple) -> np.ndarray:
    blocks = [_as_block(s) for s in shapes]
    dtype = np.result_type(*arrays)
    out = np.zeros((sum(b[0] for b in blocks), sum(b[1] for b in blocks)), dtype)
    r = c = 0
    for a, (h, w) in zip(arrays, blocks):
        out[r : r + h, c : c + w] = np.reshape(a, (h, w))
        r, c = r + h, c + w
    return out


def _block_grad(B: Any, g: Any, i: int, shapes: tuple) -> Any:
    blocks = [_as_block(s) for s in shapes]
    r = sum(b[0] for b in blocks[:i])
    c = sum(b[1] for b in blocks[:i])
    h, w = blocks[i]
    rows = run(B, SLICE, g, dim=0, start=r, stop=r + h, step=1, shape=tuple(g.shape))
    part = run(B, SLICE, rows, dim=1, start=c, stop=c + w, step=1, shape=tuple(rows.shape))
    return B.reshape(part, shapes[i])


BLOCK_DIAG = defop(
    "block_diag",
    "BlockDiagBackward0",
    _block_diag,
    _block_grad,
    variadic=True,
    rules=("1 at its block",),
)


def block_diag(*tensors: Tensor) -> Tensor:
    """The tensors (0-D and 1-D ones as one-row matrices) on the diagonal of a zero matrix."""
    tensors = tuple(require_tensors(tensors))
    for i, t in enumerate(tensors):
        if t.ndim > 2:
            raise RuntimeError(
                "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input "
                f"{i} has {t.ndim} dimensions"
            )
    if not tensors:
        return zeros(1, 0)
    shapes = tuple(tuple(t._data.shape) for t in tensors)
    return apply_op(BLOCK_DIAG, tuple(tensors), {"shapes": shapes})


# --------------------------------------------------------------------------------------------
# kron, tensordot, cartesian_prod
# --------------------------------------------------------------------------------------------


def _unsafe_view(input: Tensor, shape: tuple) -> Tensor:
    """PyTorch's `_unsafe_view`, refused (as a view) where the strides do not allow one."""
    if not _can_view(np.asarray(input._data), shape):
        raise RuntimeError(VIEW_STRIDE_MESSAGE)
    return apply_op(UNSAFE_VIEW, (input,), {"shape": shape, "source": input._data.shape})


def kron(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    """Every product `input[i] * other[j]` at `i * other.shape + j`: both reshaped so that
    their dims interleave, multiplied, reshaped back (UnsafeViewBackward0 over MulBackward0)."""
    if out is not None:
        return write_out(_kron_into, out, input, other)
    require_tensor(input, "kron", "input", 1)
    require_tensor(other, "kron", "other", 2)
    nd = max(input.ndim, other.ndim)
    a = (1,) * (nd - input.ndim) + tuple(input._data.shape)
    b = (1,) * (nd - other.ndim) + tuple(other._data.shape)
    wide_a = _unsafe_view(input, tuple(x for s in a for x in (s, 1)))
    wide_b = _unsafe_view(other, tuple(x for s in b for x in (1, s)))
    return _unsafe_view(mul(wide_a, wide_b), tuple(x * y for x, y in zip(a, b)))


def _contiguous(t: Tensor) -> bool:
    return bool(np.asarray(t._data).flags.c_contiguous)


def _kron_into(input: Tensor, other: Tensor) -> Tensor:
    return kron(input, other)


_kron_into.__name__ = "mul"  # PyTorch's out= writes kron's last mul: its messages name mul


def _tensordot_dims(a: Tensor, b: Tensor, dims: Any) -> tuple[list, list]:
    """The contracted dims of `a` and `b` as given (an int `n`: a's last n, counted from the
    end, and b's first n)."""
    if isinstance(dims, Tensor):
        dims = int(dims._data) if dims.ndim == 0 else dims.tolist()
    if isinstance(dims, (list, tuple)):
        if len(dims) != 2:
            raise RuntimeError("tensordot expects dims to be a pair of lists or an int")
        for position, d in zip(("dims_self", "dims_other"), dims):
            if not isinstance(d, (list, tuple)):
                raise TypeError(
                    f"tensordot(): argument '{position}' (position 3) must be tuple of ints, "
                    f"not {type(d).__name__}"
                )
        da, db = ([int(x) for x in d] for d in dims)
        if len(da) != len(db):
            raise RuntimeError("both dimension lists should have same length")
        return da, db
    n = int(dims)
    if n < 0:
        raise RuntimeError(f"tensordot expects dims >= 0, but got dims={n}")
    if n > a.ndim or n > b.ndim:
        raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={n}")
    return list(range(-n, 0)), list(range(n))


def tensordot(a: Tensor, b: Tensor, dims: Any = 2, out: Any = None) -> Tensor:
    """The sum of products over the contracted dims: each side permuted to (free, contracted)
    and reshaped to a matrix (ATen's reshape nodes, ReshapeAliasBackward0 included), one mm (a dot when nothing is left free), the result viewed to
    the free dims (ViewBackward0)."""
    if out is not None:
        return _tensordot_out(a, b, dims, out)
    if a._data.dtype != b._data.dtype:
        raise RuntimeError("both inputs should have same dtype")
    given_a, given_b = _tensordot_dims(a, b, dims)
    da = [_norm_dim(d, a.ndim) for d in given_a]
    db = [_norm_dim(d, b.ndim) for d in given_b]
    sa, sb = a._data.shape, b._data.shape
    for x, y, gx, gy in zip(da, db, given_a, given_b):
        if sa[x] != sb[y]:
            raise RuntimeError(
                f"contracted dimensions need to match, but first has size {sa[x]} in dim {gx} "
                f"and second has size {sb[y]} in dim {gy}"
            )
    if a._data.dtype == np.bool_:
        kernel = "dot" if len(da) == a.ndim == b.ndim else "addmm_impl_cpu_"
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    free_a = [d for d in range(a.ndim) if d not in da]
    free_b = [d for d in range(b.ndim) if d not in db]
    size = math.prod(sa[d] for d in da)
    left = permute(a, free_a + da)
    right = permute(b, db + free_b)
    shape = [sa[d] for d in free_a] + [sb[d] for d in free_b]
    if not free_a and not free_b and not (_contiguous(left) and _contiguous(right)):
        # (PyTorch then multiplies and sums, SumBackward0 over MulBackward0)
        result = sum_all(mul(squeeze(left), squeeze(right)))
    elif not free_a and not free_b:
        result = dot(_reshape(left, (size,)), _reshape(right, (size,)))
    else:
        rows = math.prod(sa[d] for d in free_a)
        cols = math.prod(sb[d] for d in free_b)
        result = mm(_reshape(left, (rows, size)), _reshape(right, (size, cols)))
    return view(result, shape)


def _tensordot_out(a: Tensor, b: Tensor, dims: Any, out: Tensor) -> Tensor:
    """A composite's out=: the result (with its graph) copied into out (CopyBackwards), out's
    dtype the result's."""
    result = tensordot(a, b, dims)
    res, have = np.asarray(result._data).dtype, np.asarray(out._data).dtype
    if res != have:
        raise RuntimeError(
            f"tensordot: Expected the output tensor to have dtype {dtypes.scalar_name(res)}, "
            f"but got an output tensor with dtype {dtypes.scalar_name(have)}"
        )
    return copy_into("tensordot", out, result)


def cartesian_prod(*tensors: Tensor) -> Tensor:
    """Every combination of one element from each 1-D tensor, one combination a row: the
    meshgrid's grids flattened and stacked (StackBackward0); one tensor is returned as is."""
    tensors = tuple(require_tensors(tensors))
    for t in tensors:
        if t.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape {_dims_text(t._data.shape)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return stack([_reshape(g, (g.numel(),)) for g in grids], 1)


tensor_methods("ops.combining", {"cummax": cummax, "cummin": cummin, "kron": kron})
