"""Predicates and index-producing ops, none of them differentiable: `isfinite`, `isinf`,
`isposinf`, `isneginf`, `isreal`, `isin`, `nonzero`/`argwhere`, `tril_indices`/`triu_indices`
and `unravel_index` (the searching ops, `unique` and the histograms are in ops/searching.py).

Their results are constants (bool or int64): no node is recorded even when the input requires
grad, as in PyTorch."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes, limits
from ..core.devices import check_device
from ..core.optable import tensor_methods
from ..core.out_arg import write_out
from ..core.tensor import FACTORY_FLOAT_ONLY_MESSAGE, Tensor
from .creation import _finish

__all__ = [
    "isfinite",
    "isinf",
    "isposinf",
    "isneginf",
    "isreal",
    "isin",
    "nonzero",
    "argwhere",
    "tril_indices",
    "triu_indices",
    "unravel_index",
]


def require_tensor(name: str, value: Any, arg: str = "input", position: int = 1) -> None:
    """PyTorch's argument-parser refusal of a non-Tensor where a Tensor is expected."""
    if not isinstance(value, Tensor):
        raise TypeError(
            f"{name}(): argument '{arg}' (position {position}) must be Tensor, not "
            f"{type(value).__name__}"
        )


def constant(data: Any) -> Tensor:
    """A result that records no graph (an inference tensor in inference mode)."""
    return _finish(np.asarray(data), False)


def write_constant_out(fn: Any, out: Any, *args: Any, **kwargs: Any) -> Any:
    """`out=` for an op without a derivative: PyTorch writes it even when an input requires grad,
    so the inputs reach `write_out` detached."""
    args = tuple(a.detach() if isinstance(a, Tensor) else a for a in args)
    return write_out(fn, out, *args, **kwargs)


def _bool_out(name: str, out: Any, fn: Any, input: Tensor) -> Tensor:
    if isinstance(out, Tensor) and out._data.dtype != np.bool_:
        raise RuntimeError(f"{name} does not support non-boolean outputs.")
    return write_constant_out(fn, out, input)


def _floating(a: np.ndarray) -> bool:
    return a.dtype.kind == "f"


def isfinite(input: Tensor) -> Tensor:
    require_tensor("isfinite", input)
    a = input._data
    return constant(np.isfinite(a) if _floating(a) else np.ones(a.shape, np.bool_))


def isinf(input: Tensor) -> Tensor:
    require_tensor("isinf", input)
    a = input._data
    return constant(np.isinf(a) if _floating(a) else np.zeros(a.shape, np.bool_))


def isposinf(input: Tensor, *, out: Any = None) -> Tensor:
    require_tensor("isposinf", input)
    if out is not None:
        return _bool_out("isposinf", out, isposinf, input)
    a = input._data
    return constant(a == np.inf if _floating(a) else np.zeros(a.shape, np.bool_))


def isneginf(input: Tensor, *, out: Any = None) -> Tensor:
    require_tensor("isneginf", input)
    if out is not None:
        return _bool_out("isneginf", out, isneginf, input)
    a = input._data
    return constant(a == -np.inf if _floating(a) else np.zeros(a.shape, np.bool_))


def isreal(input: Tensor) -> Tensor:
    """True everywhere: the engine's dtypes are all real."""
    require_tensor("isreal", input)
    return constant(np.ones(input._data.shape, np.bool_))


# --------------------------------------------------------------------------------------------
# isin
# --------------------------------------------------------------------------------------------


def common_dtype(*operands: Any) -> np.dtype:
    """The dtype PyTorch compares operands in: their promoted dtype (a Python number or a 0-d
    tensor takes the other's dtype within its category)."""
    dims: list = []
    zero_dims: list = []
    scalars: list = []
    for x in operands:
        if isinstance(x, Tensor):
            (dims if x.ndim else zero_dims).append(x._data.dtype)
        else:
            scalars.append(dtypes.scalar_np_dtype(x))
    return dtypes.result_type(dims, zero_dims, scalars)


def _isin_args(elements: Any, test_elements: Any) -> None:
    """The overloads PyTorch accepts: two Tensors, or a Tensor and a Python number."""
    tensors = [isinstance(x, Tensor) for x in (elements, test_elements)]
    numbers = [isinstance(x, (bool, int, float)) for x in (elements, test_elements)]
    if any(tensors) and all(t or n for t, n in zip(tensors, numbers)):
        return
    got = ", ".join(type(x).__name__ for x in (elements, test_elements))
    raise TypeError(
        f"isin() received an invalid combination of arguments - got ({got}), but expected one of:"
        "\n * (Tensor elements, Tensor test_elements, *, bool assume_unique = False, bool invert "
        "= False, Tensor out = None)\n * (Number element, Tensor test_elements, *, bool "
        "assume_unique = False, bool invert = False, Tensor out = None)\n * (Tensor elements, "
        "Number test_element, *, bool assume_unique = False, bool invert = False, Tensor out = "
        "None)\n"
    )


def isin(
    elements: Any = None,
    test_elements: Any = None,
    *,
    assume_unique: bool = False,
    invert: bool = False,
    out: Any = None,
    element: Any = None,
    test_element: Any = None,
) -> Tensor:
    """Whether each element of `elements` is in `test_elements`, compared in their promoted
    dtype; either may be a Python number (`element=`, `test_element=`)."""
    elements = element if elements is None else elements
    test_elements = test_element if test_elements is None else test_elements
    _isin_args(elements, test_elements)
    if out is not None:
        if isinstance(out, Tensor) and out._data.dtype != np.bool_:
            have = dtypes.scalar_name(out._data.dtype).lower()
            raise RuntimeError(f"Expected out tensor to have dtype bool, but got {have} instead")
        return write_constant_out(isin, out, elements, test_elements, invert=invert)
    for value in (elements, test_elements):
        found = value._data.dtype if isinstance(value, Tensor) else dtypes.scalar_np_dtype(value)
        if found == np.bool_:
            raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    common = common_dtype(elements, test_elements)
    a, b = (
        np.asarray(x._data if isinstance(x, Tensor) else x).astype(common)
        for x in (elements, test_elements)
    )
    return constant(np.isin(a, b.ravel(), invert=bool(invert)))


# --------------------------------------------------------------------------------------------
# nonzero, argwhere
# --------------------------------------------------------------------------------------------


_META_NONZERO_MESSAGE = (
    "The register_meta function for torch.nonzero() raises unimplemented by default, as a "
    "correct data-independent implementation does not exist. This implementation returns a fake "
    "value, assuming all elements of the tensor are non-zero. To enable this registration, "
    "please set 'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True."
)


def nonzero(input: Tensor, *, out: Any = None, as_tuple: bool = False) -> Any:
    """The indices of the nonzero elements: an (n, ndim) int64 tensor, or with `as_tuple` one
    1-d tensor per dimension (one for a 0-d input)."""
    require_tensor("nonzero", input)
    if input.is_meta:  # how many there are depends on values a meta tensor does not have
        raise NotImplementedError(_META_NONZERO_MESSAGE)
    if not isinstance(as_tuple, bool):
        raise TypeError(
            f"nonzero(): argument 'as_tuple' must be bool, not {type(as_tuple).__name__}"
        )
    if out is not None and not as_tuple:
        if isinstance(out, Tensor) and out._data.dtype != np.int64:
            have = dtypes.scalar_name(out._data.dtype)
            raise RuntimeError(
                f"nonzero: Expected out tensor to have scalar type Long but got scalar type{have}"
            )
        return write_constant_out(nonzero, out, input)
    a = input._data
    if as_tuple:
        found = np.nonzero(np.atleast_1d(a))
        return tuple(constant(ix.astype(np.int64)) for ix in found)
    if a.ndim == 0:
        return constant(np.zeros((1 if a != 0 else 0, 0), np.int64))
    return constant(np.argwhere(a).astype(np.int64))


def argwhere(input: Tensor) -> Tensor:
    """`nonzero(input)`."""
    require_tensor("argwhere", input)
    return nonzero(input)


# --------------------------------------------------------------------------------------------
# tril_indices, triu_indices, unravel_index
# --------------------------------------------------------------------------------------------


def _triangle_indices(
    name: str, row: int, col: int, options: tuple, first: Any, stop: Any
) -> Tensor:
    """The (2, n) coordinates, row by row, of the columns `first(i)` to `stop(i)` (exclusive,
    both clipped to the matrix) of each row i: no row x col matrix is made."""
    dtype, device, requires_grad = options
    for arg, position, value in (("row", 1, row), ("col", 2, col)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(
                f"{name}(): argument '{arg}' (position {position}) must be int, not "
                f"{type(value).__name__}"
            )
    check_device(device)
    target = dtypes.to_numpy(dtype) or np.dtype(np.int64)
    if target not in (np.int64, np.int32):
        raise NotImplementedError(f"\"{name}\" not implemented for '{dtypes.scalar_name(target)}'")
    for arg, value in (("row", row), ("col", col)):
        if value < 0:
            raise RuntimeError(f"{arg} must be non-negative, got{value}")
    if requires_grad:
        raise RuntimeError(FACTORY_FLOAT_ONLY_MESSAGE)
    if row == 0 or col == 0:
        return constant(np.zeros((2, 0), target))
    limits.check_elements(row, (row,))
    i = np.arange(row, dtype=np.int64)
    lo = np.clip(first(i) + 0 * i, 0, col)  # (a number for every row)
    counts = np.maximum(np.clip(stop(i), 0, col) - lo, 0)
    total = int(counts.sum())
    limits.check_elements(2 * total, (2, total))
    rows = np.repeat(i, counts)
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    cols = np.repeat(lo, counts) + np.arange(total, dtype=np.int64) - starts
    return constant(np.stack([rows, cols]).astype(target))


def tril_indices(
    row: int,
    col: int,
    offset: int = 0,
    *,
    dtype: Any = None,
    device: Any = None,
    layout: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """The (2, n) coordinates of the lower triangle of a row x col matrix (row by row), below
    the `offset`-th diagonal."""
    options = (dtype, device, requires_grad)
    return _triangle_indices(
        "tril_indices", row, col, options, lambda i: 0, lambda i: i + offset + 1
    )


def triu_indices(
    row: int,
    col: int,
    offset: int = 0,
    *,
    dtype: Any = None,
    device: Any = None,
    layout: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """The (2, n) coordinates of the upper triangle of a row x col matrix (row by row), above
    the `offset`-th diagonal."""
    options = (dtype, device, requires_grad)
    return _triangle_indices("triu_indices", row, col, options, lambda i: i + offset, lambda i: col)


def _unravel_shape(shape: Any) -> tuple:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    shape = tuple(shape)
    for size in shape:
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(size)}")
    if any(size < 0 for size in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    return shape


def unravel_index(indices: Tensor, shape: Any) -> tuple:
    """The coordinates in `shape` of flat `indices`, one int64 tensor per dimension; an index
    outside the shape wraps around (negative ones count from the end), as in PyTorch."""
    if not isinstance(indices, Tensor):
        raise AttributeError(f"'{type(indices).__name__}' object has no attribute 'is_complex'")
    if indices._data.dtype.kind not in "iu":
        raise TypeError(
            f"expected 'indices' to be integer dtype, but got {dtypes.BY_NUMPY[indices._data.dtype]}"
        )
    shape = _unravel_shape(shape)
    if 0 in shape:
        raise RuntimeError("ZeroDivisionError")
    flat = indices._data.astype(np.int64)
    coords = []
    for size in reversed(shape):
        coords.append(np.mod(flat, size))
        flat = np.floor_divide(flat, size)
    return tuple(constant(c) for c in reversed(coords))


tensor_methods(
    "ops.predicates",
    {
        "isfinite": isfinite,
        "isinf": isinf,
        "isposinf": isposinf,
        "isneginf": isneginf,
        "isreal": isreal,
        "nonzero": nonzero,
        "argwhere": argwhere,
    },
)
