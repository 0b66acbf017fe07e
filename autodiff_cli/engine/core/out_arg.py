"""`out=`: a function's result written into a given tensor, as PyTorch's out= variants do.

A function that accepts `out=` tests `if out is not None` once and hands itself and its
arguments to `write_out`, which (in PyTorch's order) refuses autograd when grad mode is on and an
argument requires grad, computes the result without a graph, checks out's dtype against the
result's by the op's rule (`CHECKS`: cast, exact, or the op's own message), resizes a wrong-shaped
`out` (with PyTorch's UserWarning unless it was empty), writes the values in place and bumps out's
version. Multi-output functions take a tuple (`out=(values, indices)`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes
from .grad_mode import GradMode, no_grad
from .tensor import Tensor

_AUTOGRAD = (
    "{}(): functions with out=... arguments don't support automatic differentiation, "
    "but one of the arguments requires grad."
)
_RESIZED = (
    "An output with one or more elements was resized since it had shape {}, which does not match "
    "the required output shape {}. This behavior is deprecated, and in a future PyTorch release "
    "outputs will not be resized unless they have zero elements. You can explicitly reuse an out "
    "tensor t by resizing it, inplace, to zero elements with t.resize_(0)."
)
_OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)
_INPUT_OVERLAP = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to "
    "a single memory location. Please clone() the tensor before performing the operation."
)
# ops that refuse an out sharing memory with an input (element-wise ones allow it)
_NO_OVERLAP = frozenset(("cat", "stack", "index_select", "gather"))
_ARANGE = (
    "The number of elements in the out tensor of shape {0} is {1} which does not match the "
    "computed number of elements {2}. Note that this may occur as a result of rounding error. "
    "The out tensor will be resized to a tensor of shape ({2},)."
)
# the op's name in PyTorch's messages where the function is an alias or composite
_NAMES = {
    "outer": "mul",
    "square": "pow",
    "absolute": "abs",
    "clip": "clamp",
    "concat": "cat",
    "norm": "linalg_vector_norm",
    "linalg_det": "_linalg_det",
    "linalg_inv": "linalg_inv_ex",
}
# composite ops: the result is computed with its graph and copied into out (CopyBackwards)
_COMPOSITE = frozenset(("linalg_norm", "linalg_matrix_norm"))
# ops computed in out's dtype (the `dtype=` of the function is out's)
IN_OUT_DTYPE = frozenset(
    "sum prod cumsum cumprod nansum arange linspace logspace zeros ones full eye empty randint "
    "randperm".split()
)
# factories resize their out silently
_SILENT = IN_OUT_DTYPE - {"sum", "prod", "cumsum", "cumprod", "nansum"}
# element-wise ops that cast their result to out's dtype through a copy, which warns again
_CAST_COPY = frozenset(
    "add sub mul div pow rpow eq ne lt le gt ge bitwise_and bitwise_or bitwise_xor atan2 fmod "
    "remainder maximum minimum addcmul addcdiv acos asin atan cos cosh erf erfc exp exp2 expm1 log "
    "log10 log1p log2 reciprocal rsqrt sigmoid sin sinh sqrt tan tanh".split()
)
# out dtypes an op has no kernel for (NotImplementedError before anything is computed)
_NO_KERNEL = {
    "arange": "b",
    "linspace": "b",
    "logspace": "b",
    "nansum": "biu",
    "nanmean": "biu",
}


def _s(dt: Any) -> str:
    return dtypes.scalar_name(dt)


def _can_cast(src: np.dtype, dst: np.dtype) -> bool:
    """PyTorch's canCast: no float to integral/bool, no integral to bool, no complex to real."""
    order = "biufc"
    a, b = order.index(src.kind), order.index(dst.kind)
    return not (a > b and (b <= 2 or a == 4))


def _cast(name: str, res: np.dtype, out: np.dtype) -> str | None:
    if _can_cast(res, out):
        return None
    return f"result type {_s(res)} can't be cast to the desired output type {_s(out)}"


def _exact(name: str, res: np.dtype, out: np.dtype) -> str | None:
    if res == out:
        return None
    return (
        f"Expected out tensor to have dtype {dtypes.cpp_name(res)}, "
        f"but got {dtypes.cpp_name(out)} instead"
    )


def _found(name: str, res: np.dtype, out: np.dtype) -> str | None:
    return None if res == out else f"Found dtype {_s(out)} but expected {_s(res)}"


def _free(name: str, res: np.dtype, out: np.dtype) -> str | None:
    return None


def _cat(name: str, res: np.dtype, out: np.dtype) -> str | None:
    if _can_cast(res, out):
        return None
    raise TypeError(f"torch.cat(): input types can't be cast to the desired output type {_s(out)}")


def _same_as_input(name: str, res: np.dtype, out: np.dtype) -> str | None:
    if res == out:
        return None
    return {
        "amax": "Expected the dtype for input and out to match, but got {} for input's dtype and "
        "{} for out's dtype.",
        "where": "Expected out type to be {0} but got {1}",
        "dot": "result dtype {1} does not match input dtype {0}",
        "inner": "tensordot: Expected the output tensor to have dtype {}, but got an output tensor "
        "with dtype {}",
        "index_select": "index_select(): self and result must have the same scalar type",
    }[_MESSAGE_OF.get(name, name)].format(_s(res), _s(out))


def _floating(name: str, res: np.dtype, out: np.dtype) -> str | None:
    if out.kind == "f":
        return None
    return f"logsumexp(): Expected floating point type for result tensor, but got: {_s(out)}"


def _boolean(name: str, res: np.dtype, out: np.dtype) -> str | None:
    if out.kind == "b":
        return None
    return f"{name} only supports bool tensor for result, got: {_s(out)}"


def _diag(name: str, res: np.dtype, out: np.dtype) -> str | None:
    if not _can_cast(res, out):
        return f"diag: result type {_s(res)} can't be cast to the desired out= type {_s(out)}"
    return _exact(name, res, out)


def _legacy(dt: np.dtype) -> str:
    return "CPUBoolType" if dt.kind == "b" else f"torch.{_s(dt)}Tensor"


def _median_values(name: str, res: np.dtype, out: np.dtype) -> str | None:
    if res == out:
        return None
    return (
        "Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; "
        f"but type {_legacy(out)} does not equal {_legacy(res)} (while checking arguments for "
        "median)"
    )


def _median_indices(name: str, res: np.dtype, out: np.dtype) -> str | None:
    if res == out:
        return None
    return (
        "Expected tensor for argument #1 'indices' to have scalar type Long; but got "
        f"{_legacy(out)} instead (while checking arguments for median)"
    )


def _kth_values(name: str, res: np.dtype, out: np.dtype) -> str | None:
    return None if res == out else "output values must be of same type as input"


def _kth_indices(name: str, res: np.dtype, out: np.dtype) -> str | None:
    return None if res == out else "output indices must be of scalar type Long"


_MANY_CHECKS = {
    "median": (_median_values, _median_indices),
    "kthvalue": (_kth_values, _kth_indices),
}
_MESSAGE_OF = {"amin": "amax", "vdot": "dot"}
_EXACT = (
    "mm matmul mv addmm bmm gather linalg_vector_norm _linalg_det linalg_inv_ex softmax "
    "log_softmax tril triu argmax argmin inverse index_add index_copy index_reduce scatter "
    "scatter_add scatter_reduce msort"
)
_FOUND = "abs ceil floor frac neg round sgn sign trunc bitwise_not clamp clamp_min clamp_max"
CHECKS: dict[str, Callable[[str, np.dtype, np.dtype], str | None]] = {
    **dict.fromkeys(_EXACT.split(), _exact),
    **dict.fromkeys(_FOUND.split(), _found),
    **dict.fromkeys(IN_OUT_DTYPE, _free),
    **dict.fromkeys(("cat", "stack"), _cat),
    **dict.fromkeys(
        ("amax", "amin", "where", "dot", "vdot", "inner", "index_select"), _same_as_input
    ),
    "logsumexp": _floating,
    "all": _boolean,
    "any": _boolean,
    "diag": _diag,
}


def _name(fn: Callable, args: tuple) -> str:
    name = fn.__name__
    if name in ("max", "min") and len(args) > 1 and isinstance(args[1], Tensor):
        return "maximum" if name == "max" else "minimum"
    return _NAMES.get(name, name)


def _requires_grad(values: Any) -> bool:
    for value in values:
        if isinstance(value, Tensor):
            if value.requires_grad:
                return True
        elif isinstance(value, (tuple, list)) and _requires_grad(value):
            return True
    return False


def write_out(fn: Callable, out: Any, *args: Any, **kwargs: Any) -> Any:
    """`fn(*args, **kwargs)` written into `out` (a tensor, or a tuple for several results)."""
    name = _name(fn, args)
    if name in ("relu", "isnan"):  # op-table functions PyTorch declares without out=
        raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
    many = isinstance(out, (tuple, list))
    if not many and not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if name in ("sum", "prod", "median"):
        _check_dim_given(name, args)
    if name in _COMPOSITE:
        return _copy_into(name, out, fn(*args, **kwargs))
    outs = tuple(out) if many else (out,)
    if GradMode.enabled:
        _refuse_autograd(name, outs, args, tuple(kwargs.values()))
    if not many:
        _check_kernel(name, np.asarray(out._data).dtype)
        if kwargs.get("dtype") is not None:
            check_requested_dtype(name, kwargs["dtype"], out)
        elif name in IN_OUT_DTYPE:
            kwargs["dtype"] = dtypes.BY_NUMPY[np.asarray(out._data).dtype]
    if name in _NO_OVERLAP and not many:
        _check_no_overlap(out, args)
    with no_grad():
        result = fn(*args, **kwargs)
    if isinstance(result, tuple):
        return _write_many(name, outs if many else out, result)
    if many:
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    _write(name, CHECKS.get(name, _cast), out, result, compute=_compute_dtype(name, args, result))
    return out


def check_requested_dtype(name: str, dtype: Any, out: Tensor) -> None:
    """A `dtype=` given with `out=` must be out's: a factory says so in its words, a reduction
    as an exact-dtype check."""
    wanted = dtypes.to_numpy(dtype)
    have = np.asarray(out._data).dtype
    if wanted is None or wanted == have:
        return
    if name in _SILENT or name in ("rand", "randn", "normal"):
        raise RuntimeError(f"dtype {_s(wanted)} does not match dtype of out parameter ({_s(have)})")
    raise RuntimeError(_exact(name, wanted, have))


_COMPARISONS = frozenset(("eq", "ne", "lt", "le", "gt", "ge"))


def _compute_dtype(name: str, args: tuple, result: Any) -> tuple:
    """The out dtypes an op writes without a cast: its result's; for a comparison, also its
    inputs' common dtype (a Python float with integral tensors: the default dtype)."""
    res = np.asarray(result._data).dtype
    if name not in _COMPARISONS:
        return (res,)
    found = [np.asarray(x._data).dtype for x in args if isinstance(x, Tensor)]
    common = found[0]
    for other in found[1:]:
        common = dtypes.promote_types(common, other)
    if common.kind in "biu" and any(isinstance(x, float) for x in args):
        common = dtypes.get_default_dtype().np
    return (res, common)


_OVERLOADS = (
    "{0}() received an invalid combination of arguments - got (Tensor, out=Tensor), but expected "
    "one of:\n * (Tensor input, *, torch.dtype dtype = None)\n * (Tensor input, {1} dim, bool "
    "keepdim = False, *, torch.dtype dtype = None, Tensor out = None)\n"
)


def _check_dim_given(name: str, args: tuple) -> None:
    """sum, prod and median take out= only with a dim, as PyTorch's overloads."""
    if len(args) > 1 and args[1] is not None:
        return
    if name == "median":
        raise TypeError('median() missing 1 required positional arguments: "dim"')
    raise TypeError(_OVERLOADS.format(name, "tuple of ints" if name == "sum" else "int"))


def _refuse_autograd(name: str, outs: tuple, args: tuple, kwargs: tuple) -> None:
    """PyTorch's error when an input or out requires grad; a factory (no tensor input) is named
    `aten::<name>()`, and `randn`/`empty` resize out first."""
    if not (_requires_grad(args) or _requires_grad(kwargs) or _requires_grad(outs)):
        return
    if name in ("randn", "empty"):
        raise RuntimeError("cannot resize variables that require grad")
    if not _has_tensor(args) and not _has_tensor(kwargs):
        name = "aten::" + name
    raise RuntimeError(_AUTOGRAD.format(name))


def _check_no_overlap(out: Tensor, args: tuple) -> None:
    target = np.asarray(out._data)
    for value in args:
        items = value if isinstance(value, (tuple, list)) else (value,)
        for item in items:
            if isinstance(item, Tensor) and np.may_share_memory(np.asarray(item._data), target):
                raise RuntimeError(_INPUT_OVERLAP)


def _has_tensor(values: tuple) -> bool:
    return any(
        isinstance(x, Tensor) or (isinstance(x, (tuple, list)) and _has_tensor(tuple(x)))
        for x in values
    )


def write_result(name: str, out: Any, result: Tensor, *inputs: Any, warn: bool = False) -> Tensor:
    """For a function that draws its result itself (random draws, in out's dtype): `result`
    written into `out`, after the checks write_out makes (type, autograd); resized silently
    unless `warn`."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if GradMode.enabled:
        _refuse_autograd(name, (out,), inputs, ())
    _write(name, _free, out, result, silent=not warn)
    return out


def _copy_into(name: str, out: Tensor, result: Tensor) -> Tensor:
    """A composite op's out=: out resized (with the warning), then `out.copy_(result)`, which
    records CopyBackwards when the result has a graph."""
    res, target = np.asarray(result._data).dtype, np.asarray(out._data).dtype
    if res != target:
        op = name.replace("_", ".", 1)
        raise RuntimeError(f"{op} expected out tensor dtype {_s(res)} but got: {_s(target)}")
    old_shape = np.shape(out._data)
    if old_shape != np.shape(result._data):
        if 0 not in old_shape:
            message = _RESIZED.format(_shape(old_shape), _shape(np.shape(result._data)))
            warnings.warn(message, UserWarning, stacklevel=4)
        out._data = np.empty(np.shape(result._data), dtype=target)
    return out.copy_(result)


def _write_many(name: str, outs: Any, results: tuple) -> Any:
    if isinstance(outs, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not Tensor")
    if len(outs) != len(results):
        raise TypeError(f"expected tuple of {len(results)} elements but got {len(outs)}")
    for out in outs:
        if not isinstance(out, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors")
    checks = _MANY_CHECKS.get(name, (_exact, _exact))
    for check, out, result in zip(checks, outs, results):
        _check_dtype(name, check, out, result)
    for out, result in zip(outs, results):
        _write(name, _exact, out, result, 5)
    kind = type(results)
    return _out_type(kind)(*outs) if hasattr(kind, "values") and kind is not tuple else outs


_OUT_TYPES: dict[type, type] = {}


def _out_type(kind: type) -> type:
    """`torch.return_types.max_out` for `torch.return_types.max`: the same named pair."""
    made = _OUT_TYPES.get(kind)
    if made is None:
        made = type(kind.__name__ + "_out", (kind,), {"__slots__": ()})
        made.__module__ = kind.__module__
        made.__qualname__ = made.__name__
        _OUT_TYPES[kind] = made
    return made


def _shape(shape: tuple) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


def _check_kernel(name: str, target: np.dtype) -> None:
    kinds = _NO_KERNEL.get(name)
    if kinds is not None and target.kind in kinds:
        kernel = "nansum" if name == "nanmean" else name
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{_s(target)}'")


def _check_dtype(name: str, check: Callable, out: Tensor, result: Any) -> None:
    res = np.asarray(result._data if isinstance(result, Tensor) else result).dtype
    message = check(name, res, np.asarray(out._data).dtype)
    if message is not None:
        raise RuntimeError(message)


def _write(
    name: str,
    check: Callable,
    out: Tensor,
    result: Any,
    depth: int = 4,
    compute: Any = None,
    silent: bool | None = None,
) -> None:
    """Checks out's dtype, resizes it if needed (warning at the caller `depth` frames up; twice
    when an element-wise op computing in another dtype than out's copies through a temporary)."""
    _check_dtype(name, check, out, result)
    data = np.asarray(result._data if isinstance(result, Tensor) else result)
    target = np.asarray(out._data).dtype
    old_shape = np.shape(out._data)
    if old_shape == data.shape:
        array = out._array()
        if not array.flags.writeable:  # an expanded view: elements share memory
            raise RuntimeError(_OVERLAP)
        np.copyto(array, data, casting="unsafe")
    else:
        if name == "arange" and 0 not in old_shape and math.prod(old_shape) != data.size:
            message = _ARANGE.format(_shape(old_shape), math.prod(old_shape), data.size)
            warnings.warn(message, UserWarning, stacklevel=depth)
        elif 0 not in old_shape and not (name in _SILENT if silent is None else silent):
            message = _RESIZED.format(_shape(old_shape), _shape(data.shape))
            warnings.warn(message, UserWarning, stacklevel=depth)
            if name in _CAST_COPY and target not in (compute or (data.dtype,)):
                warnings.warn(message, UserWarning, stacklevel=depth)
        out._data = np.array(data, dtype=target)
    out._bump_version()
