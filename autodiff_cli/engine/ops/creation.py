"""Tensor creation: `tensor`, `ones`, `zeros`, `arange`, `linspace`, ... (random ones: random.py)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtypes, limits, script_data
from ..core.devices import check_device, on_device
from ..core.grad_mode import InferenceMode
from ..core.inference import mark_new
from ..core.numpy_names import size_keyword
from ..core.out_arg import OutRule, declare_out, write_out
from ..core.tensor import Tensor, _wrap, require_grad_new
from .range_values import arange_values, linspace_values, logspace_values
from .views import shape_arg


def _finish(data: np.ndarray, requires_grad: bool) -> Tensor:
    """Every factory's result (an inference tensor while inference mode is on)."""
    t = _wrap(data)
    if InferenceMode.enabled:
        mark_new(t)
    return require_grad_new(t) if requires_grad else t


def _infer_dtype(value: Any) -> np.dtype:
    """The dtype `torch.tensor` infers: any float -> default float, else int64, all bools -> bool."""
    kinds = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, Tensor):
            kinds.add(v._data.dtype.kind if v._data.dtype.kind != "f" else "f")
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        elif isinstance(v, bool) or isinstance(v, np.bool_):
            kinds.add("b")
        elif isinstance(v, (int, np.integer)):
            kinds.add("i")
        elif isinstance(v, (float, np.floating)):
            kinds.add("f")
        elif isinstance(v, complex):
            raise TypeError("complex tensors are not supported")
        else:
            raise TypeError(f"new(): invalid data type '{type(v).__name__}'")
    if "f" in kinds:
        return dtypes.get_default_dtype().np
    if "i" in kinds or "u" in kinds:
        return dtypes.NP_INT64
    if "b" in kinds:
        return dtypes.NP_BOOL
    return dtypes.get_default_dtype().np


def _to_nested(value: Any) -> Any:
    """Plain nested lists of numbers (the one conversion of outside data: `script_data`)."""
    return script_data.nested(value, data=True)


def _check_ragged(value: Any) -> None:
    if isinstance(value, (list, tuple)) and value:
        lengths = {len(v) if isinstance(v, (list, tuple)) else -1 for v in value}
        if len(lengths) > 1:
            first = value[0]
            n = len(first) if isinstance(first, (list, tuple)) else 0
            bad = next(
                i
                for i, v in enumerate(value)
                if (len(v) if isinstance(v, (list, tuple)) else -1)
                != (len(first) if isinstance(first, (list, tuple)) else -1)
            )
            got = len(value[bad]) if isinstance(value[bad], (list, tuple)) else 0
            raise ValueError(f"expected sequence of length {n} at dim 1 (got {got})")
        for v in value:
            _check_ragged(v)


def tensor(
    data: Any,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """`torch.tensor`: always copies `data`; infers the dtype as PyTorch does."""
    check_device(device)
    if isinstance(data, Tensor):
        np_dtype = dtypes.to_numpy(dtype) or data._data.dtype
        out = np.array(data._data, dtype=np_dtype, copy=True)
    elif type(data) is np.ndarray or (
        isinstance(data, np.generic) and type(data).__module__ == "numpy"
    ):  # raw numpy data: only the engine and the language's numpy bridge hold it
        out = np.array(data, dtype=dtypes.to_numpy(dtype) or data.dtype, copy=True)
        dtypes.from_numpy(out.dtype)  # unsupported numpy types raise here
    else:
        nested = _to_nested(data)
        np_dtype = dtypes.to_numpy(dtype) or _infer_dtype(nested)
        out = _array_of(nested, np_dtype)
    if requires_grad and out.dtype.kind != "f":
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    return _finish(out, requires_grad)


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    check_device(device)
    if isinstance(data, Tensor) and (dtype is None or dtypes.to_numpy(dtype) == data._data.dtype):
        return data
    return tensor(data, dtype=dtype)


def array_from_data(data: Any, np_dtype: np.dtype) -> np.ndarray:
    """Nested lists of numbers (and tensors, numpy data) as an array of `np_dtype`: the
    conversion `torch.tensor(data, dtype=...)` and the legacy constructors share."""
    return _array_of(_to_nested(data), np_dtype)


def _array_of(nested: Any, np_dtype: np.dtype) -> np.ndarray:
    """`np.array` of checked nested data, with PyTorch's refusals: a ragged list, a Python int
    beyond 64 bits for an integer dtype, a value out of an integer dtype's range (NaN too)."""
    _check_ragged(nested)
    overflow = f"value cannot be converted to type {np_dtype} without overflow"
    try:
        return np.array(nested, dtype=np_dtype)
    except OverflowError:
        if np_dtype.kind in "iub" and _holds_huge_int(nested):
            raise ValueError("Overflow when unpacking long long") from None
        if np_dtype.kind == "u":  # PyTorch wraps negative ints down to -max (two's complement)
            try:
                return np.array(_wrapped_negatives(nested, np_dtype), dtype=np_dtype)
            except OverflowError:
                pass
        raise RuntimeError(overflow) from None
    except ValueError as error:  # NaN to an integer dtype
        if np_dtype.kind in "iu" and "NaN" in str(error):
            raise RuntimeError(overflow) from None
        raise


def _wrapped_negatives(nested: Any, np_dtype: np.dtype) -> Any:
    """The data with each int in [-max, -1] of the unsigned `np_dtype` taken modulo 2**bits."""
    if type(nested) is list:
        return [_wrapped_negatives(item, np_dtype) for item in nested]
    top = np.iinfo(np_dtype).max
    if type(nested) is int and -top <= nested < 0:
        return nested + top + 1
    return nested


def _holds_huge_int(nested: Any) -> bool:
    """Whether a Python int outside int64's range is among the (checked, plain) data."""
    stack = [nested]
    while stack:
        value = stack.pop()
        if type(value) is list:
            stack.extend(value)
        elif type(value) is int and not -(2**63) <= value < 2**63:
            return True
    return False


def _shape_and_dtype(size: tuple, dtype: Any) -> tuple[tuple, np.dtype]:
    return shape_arg(size), dtypes.to_numpy(dtype) or dtypes.get_default_dtype().np


def _check_size(shape: tuple) -> None:
    limits.check_shape(shape)
    for s in shape:
        if s < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {s}: [{', '.join(map(str, shape))}]"
            )


@size_keyword
def ones(
    *size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False, out: Any = None
) -> Tensor:
    if out is not None:
        return write_out(ones, out, *size, dtype=dtype, device=device, requires_grad=requires_grad)
    check_device(device)
    shape, np_dtype = _shape_and_dtype(size, dtype)
    _check_size(shape)
    return _finish(np.ones(shape, np_dtype), requires_grad)


declare_out("ones", OutRule("free", in_out_dtype=True, silent=True))


@size_keyword
def zeros(
    *size: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False, out: Any = None
) -> Tensor:
    if out is not None:
        return write_out(zeros, out, *size, dtype=dtype, device=device, requires_grad=requires_grad)
    check_device(device)
    shape, np_dtype = _shape_and_dtype(size, dtype)
    _check_size(shape)
    return _finish(np.zeros(shape, np_dtype), requires_grad)


declare_out("zeros", OutRule("free", in_out_dtype=True, silent=True))


def full(
    size: Any,
    fill_value: Any,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    *,
    out: Any = None,
) -> Tensor:
    if out is not None:
        return write_out(
            full, out, size, fill_value, dtype=dtype, device=device, requires_grad=requires_grad
        )
    check_device(device)
    shape = shape_arg((size,) if not isinstance(size, (tuple, list)) else (tuple(size),))
    _check_size(shape)
    np_dtype = dtypes.to_numpy(dtype) or (
        dtypes.NP_BOOL
        if isinstance(fill_value, bool)
        else dtypes.NP_INT64
        if isinstance(fill_value, int)
        else dtypes.get_default_dtype().np
    )
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    fill_value = script_data.number(fill_value, "full(): fill_value")
    return _finish(np.full(shape, fill_value, np_dtype), requires_grad)


declare_out("full", OutRule("free", in_out_dtype=True, silent=True))


def _like(t: Tensor, dtype: Any) -> tuple[tuple, np.dtype]:
    if not isinstance(t, Tensor):
        raise TypeError(f"argument 'input' must be Tensor, not {type(t).__name__}")
    return t._data.shape, dtypes.to_numpy(dtype) or t._data.dtype


def ones_like(
    input: Tensor,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
) -> Tensor:
    check_device(device)
    shape, np_dtype = _like(input, dtype)
    return _finish(np.ones(shape, np_dtype), requires_grad)


def zeros_like(
    input: Tensor,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    memory_format: Any = None,
) -> Tensor:
    check_device(device)
    shape, np_dtype = _like(input, dtype)
    return _finish(np.zeros(shape, np_dtype), requires_grad)


def full_like(
    input: Tensor,
    fill_value: Any,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    check_device(device)
    shape, np_dtype = _like(input, dtype)
    return _finish(np.full(shape, fill_value, np_dtype), requires_grad)


def arange(
    start: Any,
    end: Any = None,
    step: Any = 1,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    *,
    out: Any = None,
) -> Tensor:
    if out is not None:
        return write_out(
            arange, out, start, end, step, dtype=dtype, device=device, requires_grad=requires_grad
        )
    check_device(device)
    if end is None:
        start, end = 0, start
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if step == 0:
        raise RuntimeError("step must be nonzero")
    np_dtype = dtypes.to_numpy(dtype)
    if np_dtype is None:
        np_dtype = (
            dtypes.NP_INT64
            if all(isinstance(v, int) for v in values)
            else dtypes.get_default_dtype().np
        )
    s, e, st = values
    if np_dtype.kind in "iu":  # integral values count from the truncated start by the truncated
        ints = [int(v) for v in values]  # step; an int64 range's length too comes from them
        if ints[2] == 0 and np_dtype == dtypes.NP_INT64:  # (PyTorch: the other integer dtypes
            raise ValueError("step must be nonzero")  # repeat the start, the float count long)
        if np_dtype == dtypes.NP_INT64:
            s, e, st = ints
    if (e - s) / st < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    n = math.ceil((e - s) / st)
    limits.check_elements(n)
    if np_dtype.kind == "f":
        data = arange_values(s, st, n, np_dtype)
    elif np_dtype.kind in "iu":
        data = ints[0] + ints[2] * np.arange(n, dtype=np.int64)
    else:
        data = np.arange(s, e, st)
    return _finish(data.astype(np_dtype), requires_grad)


declare_out("arange", OutRule("free", in_out_dtype=True, silent=True, no_kernel="b"))


def linspace(
    start: float,
    end: float,
    steps: int,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    *,
    out: Any = None,
) -> Tensor:
    if out is not None:
        return write_out(
            linspace,
            out,
            start,
            end,
            steps,
            dtype=dtype,
            device=device,
            requires_grad=requires_grad,
        )
    check_device(device)
    np_dtype = dtypes.to_numpy(dtype) or dtypes.get_default_dtype().np
    steps = int(steps)
    limits.check_elements(steps)
    if np_dtype.kind in "fiu" and steps > 0:
        return _finish(linspace_values(start, end, steps, np_dtype), requires_grad)
    return _finish(np.linspace(start, end, steps).astype(np_dtype), requires_grad)


declare_out("linspace", OutRule("free", in_out_dtype=True, silent=True, no_kernel="b"))


def logspace(
    start: float,
    end: float,
    steps: int,
    base: float = 10.0,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    *,
    out: Any = None,
) -> Tensor:
    if out is not None:
        return write_out(
            logspace,
            out,
            start,
            end,
            steps,
            base,
            dtype=dtype,
            device=device,
            requires_grad=requires_grad,
        )
    check_device(device)
    np_dtype = dtypes.to_numpy(dtype) or dtypes.get_default_dtype().np
    steps = int(steps)
    limits.check_elements(steps)
    if np_dtype.kind == "f" and steps > 0:
        return _finish(logspace_values(start, end, steps, base, np_dtype), requires_grad)
    return _finish(np.logspace(start, end, steps, base=base).astype(np_dtype), requires_grad)


declare_out("logspace", OutRule("free", in_out_dtype=True, silent=True, no_kernel="b"))


def eye(
    n: int,
    m: int | None = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    *,
    out: Any = None,
) -> Tensor:
    if out is not None:
        return write_out(eye, out, n, m, dtype=dtype, device=device, requires_grad=requires_grad)
    check_device(device)
    np_dtype = dtypes.to_numpy(dtype) or dtypes.get_default_dtype().np
    limits.check_elements(int(n) * int(m if m is not None else n))
    return _finish(np.eye(int(n), int(m) if m is not None else None, dtype=np_dtype), requires_grad)


declare_out("eye", OutRule("free", in_out_dtype=True, silent=True))


# Factories follow `device=` (and the default device; the `_like` ones their input's device).
tensor = on_device(tensor)
ones, zeros, full = on_device(ones), on_device(zeros), on_device(full)
arange, linspace, logspace, eye = map(on_device, (arange, linspace, logspace, eye))
ones_like, zeros_like, full_like = (
    on_device(f, like=True) for f in (ones_like, zeros_like, full_like)
)
empty, empty_like = zeros, zeros_like


def from_numpy(array: np.ndarray) -> Tensor:
    return mark_new(_wrap(array))
