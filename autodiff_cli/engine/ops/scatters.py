"""Out-of-place writes of a source tensor into a copy of the input: select_scatter,
slice_scatter, diagonal_scatter (each its own kernel and grad_fn, as in PyTorch: the input's
gradient is the output's with the written part zeroed, the source's the written part of it) and
torch.put / Tensor.put / Tensor.put_ (the PutBackward0 entry of ops/select_ops.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_inplace, apply_op
from ..core.optable import defop, tensor_methods
from ..core.saved_hooks import shows_saved
from ..core.tensor import Tensor, _dims_text
from ..core.tensor_values import _norm_dim
from .formula_ops import run
from .matrix import DIAGONAL, _diagonal_np
from .select_ops import PUT, _take_index
from .views import SELECT, SLICE

__all__ = ["select_scatter", "slice_scatter", "diagonal_scatter", "put"]


def _written(a: Any, src: Any, part: Any) -> np.ndarray:
    """A copy of `a` (its dtype) with `src` written where `part(copy)` views it."""
    out = np.array(a, copy=True)
    part(out)[...] = np.asarray(src).astype(out.dtype, copy=False)
    return out


def _zeros_of(B: Any, g: Any, part: Any) -> Any:
    """Zeros shaped like the part of `g` the source was written to (PyTorch's zeros_like(src))."""
    shape = part(np.broadcast_to(np.zeros((), np.int8), tuple(g.shape))).shape
    return B.zeros(shape, B.array_of(g).dtype)


def _select_part(dim: int, index: int) -> Any:
    return lambda a: a[(slice(None),) * dim + (index, Ellipsis)]


def _slice_part(dim: int, start: Any, end: Any, step: int) -> Any:
    return lambda a: a[(slice(None),) * dim + (slice(start, end, step),)]


def _diagonal_part(offset: int, dim1: int, dim2: int) -> Any:
    return lambda a: _diagonal_np(a, offset, dim1, dim2)


SELECT_SCATTER = defop(
    "select_scatter", "SelectScatterBackward0",
    lambda a, src, dim, index: _written(a, src, _select_part(dim, index)),
    lambda B, g, dim, index: run(
        B, SELECT_SCATTER, g, _zeros_of(B, g, _select_part(dim, index)), dim=dim, index=index
    ),
    lambda B, g, dim, index: run(B, SELECT, g, dim=dim, index=index, shape=tuple(g.shape)),
    arg_names=("self", "src"),
    promotes=False,
    rules=("1 (0 at the selected index)", "1 at the selected index"),
)  # fmt: skip
SLICE_SCATTER = defop(
    "slice_scatter", "SliceScatterBackward0",
    lambda a, src, dim, start, end, step: _written(a, src, _slice_part(dim, start, end, step)),
    lambda B, g, dim, start, end, step: run(
        B, SLICE_SCATTER, g, _zeros_of(B, g, _slice_part(dim, start, end, step)),
        dim=dim, start=start, end=end, step=step,
    ),
    lambda B, g, dim, start, end, step: run(
        B, SLICE, g, dim=dim, start=start, stop=end, step=step, shape=tuple(g.shape)
    ),
    arg_names=("self", "src"),
    promotes=False,
    rules=("1 (0 at the sliced positions)", "1 at the sliced positions"),
)  # fmt: skip
DIAGONAL_SCATTER = defop(
    "diagonal_scatter", "DiagonalScatterBackward0",
    lambda a, src, offset, dim1, dim2: _written(a, src, _diagonal_part(offset, dim1, dim2)),
    lambda B, g, offset, dim1, dim2: run(
        B, DIAGONAL_SCATTER, g, _zeros_of(B, g, _diagonal_part(offset, dim1, dim2)),
        offset=offset, dim1=dim1, dim2=dim2,
    ),
    lambda B, g, offset, dim1, dim2: run(
        B, DIAGONAL, g, offset=offset, dim1=dim1, dim2=dim2, shape=tuple(g.shape)
    ),
    arg_names=("self", "src"),
    promotes=False,
    rules=("1 (0 on the diagonal)", "1 on the diagonal"),
)  # fmt: skip


def _check_src(input: Tensor, src: Any, fn: str, part: Any) -> Tensor:
    if not isinstance(src, Tensor):
        raise TypeError(
            f"{fn}(): argument 'src' (position 2) must be Tensor, not {type(src).__name__}"
        )
    expected = part(np.broadcast_to(np.zeros((), np.int8), tuple(input.shape))).shape
    if tuple(src.shape) != expected:
        raise RuntimeError(
            f"expected src to have a size equal to the slice of self. src size = "
            f"{_dims_text(tuple(src.shape))}, slice size = {_dims_text(expected)}"
        )
    return src


def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """A copy of `input` with `src` written at `index` along `dim` (SelectScatterBackward0)."""
    dim = _norm_dim(int(dim), input.ndim)
    size = input.shape[dim]
    if not -size <= index < size:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size "
            f"{_dims_text(tuple(input.shape))} at dimension {dim}"
        )
    index = int(index) % size
    _check_src(input, src, "select_scatter", _select_part(dim, index))
    return apply_op(SELECT_SCATTER, (input, src), {"dim": dim, "index": index})


def slice_scatter(
    input: Tensor,
    src: Tensor,
    dim: int = 0,
    start: int | None = None,
    end: int | None = None,
    step: int = 1,
) -> Tensor:
    """A copy of `input` with `src` written at `start:end:step` along `dim`
    (SliceScatterBackward0)."""
    dim = _norm_dim(int(dim), input.ndim)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    _check_src(input, src, "slice_scatter", _slice_part(dim, start, end, step))
    params = {"dim": dim, "start": start, "end": end, "step": int(step)}
    return apply_op(SLICE_SCATTER, (input, src), params)


def diagonal_scatter(
    input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1
) -> Tensor:
    """A copy of `input` with `src` written on its diagonal `offset` of dims dim1, dim2
    (DiagonalScatterBackward0)."""
    dim1, dim2 = _norm_dim(int(dim1), input.ndim), _norm_dim(int(dim2), input.ndim)
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    _check_src(input, src, "diagonal_scatter", _diagonal_part(int(offset), dim1, dim2))
    params = {"offset": int(offset), "dim1": dim1, "dim2": dim2}
    return apply_op(DIAGONAL_SCATTER, (input, src), params)


# --------------------------------------------------------------------------------------------
# put
# --------------------------------------------------------------------------------------------


def _put_params(input: Tensor, index: Any, source: Any, accumulate: bool) -> dict:
    """put_'s checks, in PyTorch's order; the index made non-negative."""
    if not isinstance(index, Tensor) or index._data.dtype != np.int64:
        got = type(index).__name__ if not isinstance(index, Tensor) else None
        if got is not None:
            raise TypeError(f"put_(): argument 'index' (position 1) must be Tensor, not {got}")
        raise RuntimeError(
            "put_(): Expected a long tensor for index, but got "
            + dtypes.scalar_name(index._data.dtype)
        )
    if not isinstance(source, Tensor):
        raise TypeError(
            f"put_(): argument 'source' (position 2) must be Tensor, not {type(source).__name__}"
        )
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(
            "put_(): self and source expected to have the same dtype, but got self.dtype = "
            f"{dtypes.scalar_name(input._data.dtype)} and source.dtype = "
            f"{dtypes.scalar_name(source._data.dtype)}"
        )
    if index.numel() != source.numel():
        raise IndexError(
            "put_(): Expected source and index to have the same number of elements, but got "
            f"source.numel() = {source.numel()}, index.numel() = {index.numel()}"
        )
    return {"index": _take_index(input, index, 1), "accumulate": bool(accumulate)}


@shows_saved(index="index")
def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of `input` with `source` written (added, with `accumulate`) at the flat
    positions `index` (PutBackward0)."""
    params = _put_params(input, index, source, accumulate)
    return apply_op(PUT, (input, source), params)


@shows_saved(index="index")
def put_(self: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    params = _put_params(self, index, source, accumulate)
    return apply_inplace(PUT, self, (source,), params)


def _scatter_method(fn: Any) -> Any:
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return fn(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = fn.__name__
    return method


tensor_methods(
    "ops.scatters",
    {
        "select_scatter": _scatter_method(select_scatter),
        "slice_scatter": _scatter_method(slice_scatter),
        "diagonal_scatter": _scatter_method(diagonal_scatter),
        "put": _scatter_method(put),
        "put_": put_,
    },
)
