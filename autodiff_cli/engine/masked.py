"""`torch.masked`: the reductions and normalizations that take `mask=` (stable in PyTorch 2.13,
no warning), computed as PyTorch computes them so that values, grad_fns and gradients match.

Each masked-out element is replaced by the operation's identity with `torch.where` (0 for sum,
1 for prod, -inf for amax/argmax/softmax/logsumexp, +inf for amin/argmin/softmin), then the plain
op runs: `masked.sum` shows SumBackward1, `masked.amax` AmaxBackward0 (ties share the gradient),
`masked.mean` is the masked sum divided by the count of kept elements (DivBackward0; nan where a
row keeps nothing), `masked.var`/`std` PyTorch's two-pass formula with the correction clamped
at zero kept elements. The mask broadcasts to the input's shape. `MaskedTensor`
(`masked_tensor`, `as_masked_tensor`: a prototype PyTorch warns about) is `masked_tensor.py`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import autodiff_cli.engine as _torch

from . import linalg
from .core.tensor import Tensor
from .nn import functional

__all__ = [
    "sum", "prod", "amax", "amin", "argmax", "argmin", "mean", "var", "std", "norm",
    "logsumexp", "softmax", "log_softmax", "softmin", "cumsum", "cumprod",
    "MaskedTensor", "masked_tensor", "as_masked_tensor",
]  # fmt: skip


def _canonical_dim(dim: Any, ndim: int) -> tuple[int, ...]:
    """`dim` as a tuple of non-negative dims (None: all of them), with PyTorch's errors."""
    if dim is None:
        return tuple(range(ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    result = []
    for d in dims:
        if not -max(ndim, 1) <= d < max(ndim, 1):
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-max(ndim, 1)}, "
                f"{max(ndim, 1) - 1}], but got {d})"
            )
        d = d % max(ndim, 1)
        if d in result:
            raise RuntimeError(f"dim={d} appears multiple times in the list of dims")
        result.append(d)
    return tuple(result)


def _input_mask(input: Tensor, mask: Any) -> Tensor:
    """The mask as a bool tensor of the input's shape."""
    if mask is None:
        return _torch.ones_like(input, dtype=_torch.bool)
    if not isinstance(mask, Tensor):
        raise TypeError(f"mask must be a Tensor, not {type(mask).__name__}")
    if mask.ndim > input.ndim:
        raise IndexError(
            "_input_mask expected broadcastable mask (got mask dimensionality higher than of the "
            "input)"
        )
    if tuple(mask.shape) != tuple(input.shape):
        mask = _torch.broadcast_to(mask.clone(), input.shape)
    return mask.to(dtype=_torch.bool)


def _identity(kind: str, input: Tensor) -> Tensor:
    """The value a masked-out element takes for reduction `kind` (PyTorch's identities)."""
    dtype = input.dtype
    floating = dtype.is_floating_point
    if kind == "sum":
        value: Any = 0
    elif kind == "prod":
        value = 1
    elif kind == "max":
        value = -math.inf if floating else _integer_limits(input)[0]
    elif kind == "min":
        value = math.inf if floating else _integer_limits(input)[1]
    else:
        raise AssertionError(kind)
    return _torch.tensor(value, dtype=dtype)


def _integer_limits(input: Tensor) -> tuple[int, int]:
    kind = input._data.dtype
    if kind == np.bool_:
        return 0, 1
    info = np.iinfo(kind)
    return int(info.min), int(info.max)


def _in_dtype(result: Tensor, input: Tensor, dtype: Any) -> Tensor:
    """The result cast to `dtype`, by default the input's (`masked.argmax` of floats is float)."""
    return result.to(dtype=input.dtype if dtype is None else dtype)


def _combine(kind: str, input: Tensor, mask: Any) -> Tensor:
    if mask is None:
        return input
    return _torch.where(_input_mask(input, mask), input, _identity(kind, input))


def sum(  # noqa: A001 - PyTorch's name
    input: Tensor, dim: Any = None, *, keepdim: bool = False, dtype: Any = None, mask: Any = None
) -> Tensor:
    """The sum of the kept elements over `dim` (all dims when None)."""
    masked = _combine("sum", input, mask)
    return _torch.sum(masked, _canonical_dim(dim, input.ndim), bool(keepdim), dtype=dtype)


def prod(
    input: Tensor, dim: Any = None, *, keepdim: bool = False, dtype: Any = None, mask: Any = None
) -> Tensor:
    """The product of the kept elements, one dim after the other (ProdBackward1)."""
    result = _combine("prod", input, mask)
    if dtype is not None:
        result = result.to(dtype=dtype)
    for d in reversed(_canonical_dim(dim, input.ndim)):
        result = result.prod(dim=d, keepdim=bool(keepdim))
    return result


def amax(
    input: Tensor, dim: Any = None, *, keepdim: bool = False, dtype: Any = None, mask: Any = None
) -> Tensor:
    """The largest kept element (-inf where nothing is kept)."""
    masked = _combine("max", input, mask)
    result = _torch.amax(masked, _canonical_dim(dim, input.ndim), bool(keepdim))
    return _in_dtype(result, input, dtype)


def amin(
    input: Tensor, dim: Any = None, *, keepdim: bool = False, dtype: Any = None, mask: Any = None
) -> Tensor:
    """The smallest kept element (inf where nothing is kept)."""
    masked = _combine("min", input, mask)
    result = _torch.amin(masked, _canonical_dim(dim, input.ndim), bool(keepdim))
    return _in_dtype(result, input, dtype)


def argmax(
    input: Tensor, dim: int | None = None, *, keepdim: bool = False, dtype: Any = None,
    mask: Any = None,
) -> Tensor:  # fmt: skip
    """The index of the largest kept element along `dim`."""
    result = _torch.argmax(_combine("max", input, mask), dim, bool(keepdim))
    return _in_dtype(result, input, dtype)


def argmin(
    input: Tensor, dim: int | None = None, *, keepdim: bool = False, dtype: Any = None,
    mask: Any = None,
) -> Tensor:  # fmt: skip
    """The index of the smallest kept element along `dim`."""
    result = _torch.argmin(_combine("min", input, mask), dim, bool(keepdim))
    return _in_dtype(result, input, dtype)


def mean(
    input: Tensor, dim: Any = None, *, keepdim: bool = False, dtype: Any = None, mask: Any = None
) -> Tensor:
    """The masked sum over the number of kept elements (nan where none is kept)."""
    if dtype is None:
        dtype = input.dtype
        if not dtype.is_floating_point:
            raise ValueError(
                "mean(): Could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {dtype}"
            )
    if mask is None:
        return _torch.mean(input, _canonical_dim(dim, input.ndim), bool(keepdim), dtype=dtype)
    inmask = _input_mask(input, mask)
    count = _torch.sum(inmask, _canonical_dim(dim, input.ndim), bool(keepdim))
    total = sum(input, dim, keepdim=keepdim, dtype=dtype, mask=inmask)
    return total / count


def _var(
    input: Tensor, dim: Any, unbiased: Any, keepdim: bool, dtype: Any, mask: Any, root: bool
) -> Tensor:
    correction = 1 if unbiased is None or unbiased else 0
    if mask is None:
        dims = _canonical_dim(dim, input.ndim)
        result = _torch.var(input, dims, correction=correction, keepdim=bool(keepdim))
        result = _torch.sqrt(result) if root else result
        return result if dtype is None else result.to(dtype=dtype)
    inmask = _input_mask(input, mask)
    count = sum(_torch.ones_like(input, dtype=_torch.int64), dim, keepdim=True, mask=inmask)
    sample_mean = sum(input, dim, keepdim=True, dtype=dtype, mask=inmask) / count
    x = input - sample_mean
    total = sum(x * x, dim, keepdim=keepdim, dtype=dtype, mask=inmask)
    if not keepdim:
        count = count.reshape(total.shape)
    if correction:
        count = count - correction
        count = count.maximum(count.new_zeros([]))
    output = total / count
    if dtype is not None:
        output = output.to(dtype=dtype)
    return _torch.sqrt(output) if root else output


def var(
    input: Tensor, dim: Any = None, unbiased: Any = None, *, keepdim: bool = False,
    dtype: Any = None, mask: Any = None,
) -> Tensor:  # fmt: skip
    """The variance of the kept elements (Bessel's correction unless `unbiased=False`)."""
    return _var(input, dim, unbiased, keepdim, dtype, mask, root=False)


def std(
    input: Tensor, dim: Any = None, unbiased: Any = None, *, keepdim: bool = False,
    dtype: Any = None, mask: Any = None,
) -> Tensor:  # fmt: skip
    """The square root of `var` (SqrtBackward0)."""
    return _var(input, dim, unbiased, keepdim, dtype, mask, root=True)


def norm(
    input: Tensor, ord: Any = 2.0, dim: Any = None, *, keepdim: bool = False, dtype: Any = None,
    mask: Any = None,
) -> Tensor:  # fmt: skip
    """The vector norm of the kept elements (masked-out ones count as 0; as inf for ord -inf)."""
    if mask is not None:
        fill = "min" if ord == -math.inf else "sum"
        if fill == "min":
            input = _torch.where(_input_mask(input, mask), input, _identity("min", input))
        else:
            input = _combine("sum", input, mask)
    dims = _canonical_dim(dim, input.ndim)
    return linalg.vector_norm(input, ord, dims, bool(keepdim), dtype=dtype)


def logsumexp(
    input: Tensor, dim: Any = None, *, keepdim: bool = False, dtype: Any = None, mask: Any = None
) -> Tensor:
    """log(sum(exp)) of the kept elements (-inf where nothing is kept)."""
    masked = _combine("max", input, mask)
    result = _torch.logsumexp(masked, _canonical_dim(dim, input.ndim), keepdim=bool(keepdim))
    return _in_dtype(result, input, dtype)


def softmax(input: Tensor, dim: int, *, dtype: Any = None, mask: Any = None) -> Tensor:
    """Softmax over the kept elements (masked-out ones get 0)."""
    masked = _combine("max", input, mask)
    return functional.softmax(masked, _canonical_dim(dim, input.ndim)[0], dtype=dtype)


def log_softmax(input: Tensor, dim: int, *, dtype: Any = None, mask: Any = None) -> Tensor:
    """Log-softmax over the kept elements (masked-out ones get -inf)."""
    masked = _combine("max", input, mask)
    return functional.log_softmax(masked, _canonical_dim(dim, input.ndim)[0], dtype=dtype)


def softmin(input: Tensor, dim: int, *, dtype: Any = None, mask: Any = None) -> Tensor:
    """Softmin over the kept elements (masked-out ones get 0)."""
    masked = _combine("min", input, mask)
    return functional.softmin(masked, _canonical_dim(dim, input.ndim)[0], dtype=dtype)


def cumsum(input: Tensor, dim: int, *, dtype: Any = None, mask: Any = None) -> Tensor:
    """Running sum along `dim`, masked-out elements counting as 0."""
    masked = _combine("sum", input, mask)
    dtype = input.dtype if dtype is None else dtype
    return _torch.cumsum(masked, _canonical_dim(dim, input.ndim)[0], dtype=dtype).to(dtype=dtype)


def cumprod(input: Tensor, dim: int, *, dtype: Any = None, mask: Any = None) -> Tensor:
    """Running product along `dim`, masked-out elements counting as 1."""
    masked = _combine("prod", input, mask)
    dtype = input.dtype if dtype is None else dtype
    return _torch.cumprod(masked, _canonical_dim(dim, input.ndim)[0], dtype=dtype).to(dtype=dtype)


from .masked_tensor import MaskedTensor, as_masked_tensor, masked_tensor  # noqa: E402
