"""`out=`: a function's result written into a given tensor, as PyTorch's out= variants do.

A function that accepts `out=` tests `if out is not None` once and hands itself and its
arguments to `write_out`, which (in PyTorch's order) refuses autograd when grad mode is on and an
argument requires grad, computes the result without a graph, checks out's dtype against the
result's by the function's rule (`OutRule`, declared with the function: `defop(out=)` or
`declare_out`; cast when none is declared), resizes a wrong-shaped
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
_ARANGE = (
    "The number of elements in the out tensor of shape {0} is {1} which does not match the "
    "computed number of elements {2}. Note that this may occur as a result of rounding error. "
    "The out tensor will be resized to a tensor of shape ({2},)."
)


class OutRule:
    """How a function writes its result into `out=`, declared with the function (`defop(out=)`
    or `declare_out`): `check` the dtype rule (a name in `_CHECKS`, or a pair of them for a
    (values, indices) result), `named` the op's name in PyTorch's messages where the function is
    an alias or composite (`outer` writes as `mul`), `message` the words of a `same_as_input`
    check. Flags: `cast_copy` an element-wise op casting to out's dtype through a copy (which
    warns twice), `no_overlap` refuses an out sharing memory with an input, `in_out_dtype`
    computes in out's dtype (its `dtype=` is out's), `silent` resizes out without a warning,
    `no_kernel` the dtype kinds out may not have, `composite` computes with its graph and copies
    (CopyBackwards), `refused` takes no out= at all, `needs_dim` only with a dim, `compares` also
    writes its inputs' common dtype without a cast, `resizes_first` resizes out before refusing
    autograd (`randn`, `empty`)."""

    __slots__ = (
        "check",
        "named",
        "message",
        "cast_copy",
        "no_overlap",
        "in_out_dtype",
        "silent",
        "no_kernel",
        "composite",
        "refused",
        "needs_dim",
        "compares",
        "resizes_first",
    )

    def __init__(
        self,
        check: str | tuple = "cast",
        *,
        named: str | None = None,
        message: str | None = None,
        cast_copy: bool = False,
        no_overlap: bool = False,
        in_out_dtype: bool = False,
        silent: bool = False,
        no_kernel: str = "",
        composite: bool = False,
        refused: bool = False,
        needs_dim: bool = False,
        compares: bool = False,
        resizes_first: bool = False,
    ) -> None:
        for name in check if isinstance(check, tuple) else (check,):
            if name not in _CHECKS:
                raise ValueError(f"out= rule: unknown check {name!r}")
        if (check == "same_as_input") != (message is not None):
            raise ValueError("out= rule: a same_as_input check, and only it, has a message")
        self.check = check
        self.named = named
        self.message = message
        self.cast_copy = cast_copy
        self.no_overlap = no_overlap
        self.in_out_dtype = in_out_dtype
        self.silent = silent
        self.no_kernel = no_kernel
        self.composite = composite
        self.refused = refused
        self.needs_dim = needs_dim
        self.compares = compares
        self.resizes_first = resizes_first

    def __repr__(self) -> str:
        return f"OutRule({self.check!r})"


# function name -> its rule, filled by the declarations (`defop(out=)`, `declare_out`)
OUT_RULES: dict[str, OutRule] = {}


def declare_out(name: str, rule: OutRule) -> None:
    """`rule` is how the function named `name` writes `out=` (declared once, where it is)."""
    if name in OUT_RULES and OUT_RULES[name] is not rule:
        raise RuntimeError(f"the out= rule of {name!r} is declared twice")
    OUT_RULES[name] = rule


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


_CHECKS: dict[str, Callable[[str, np.dtype, np.dtype], str | None]] = {
    "cast": _cast,
    "exact": _exact,
    "found": _found,
    "free": _free,
    "cat": _cat,
    "same_as_input": _exact,  # (with the rule's own message: `_checker`)
    "floating": _floating,
    "boolean": _boolean,
    "diag": _diag,
    "median_values": _median_values,
    "median_indices": _median_indices,
    "kth_values": _kth_values,
    "kth_indices": _kth_indices,
}
_CAST = OutRule()  # a function that declares no rule: the result cast to out's dtype


def _checker(rule: OutRule) -> Callable[[str, np.dtype, np.dtype], str | None]:
    if isinstance(rule.check, tuple):  # (values, indices): `_write_many` checks each
        return _exact
    if rule.message is None:
        return _CHECKS[rule.check]
    message = rule.message

    def check(name: str, res: np.dtype, out: np.dtype) -> str | None:
        return None if res == out else message.format(_s(res), _s(out))

    return check


def rule_of(fn: Callable, args: tuple) -> tuple[str, OutRule]:
    """The name PyTorch's messages give the call and its out= rule (`torch.max(a, b)` is
    `maximum`)."""
    name = fn.__name__
    if name in ("max", "min") and len(args) > 1 and isinstance(args[1], Tensor):
        name = "maximum" if name == "max" else "minimum"
    rule = OUT_RULES.get(name, _CAST)
    return rule.named or name, rule


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
    name, rule = rule_of(fn, args)
    if rule.refused:  # op-table functions PyTorch declares without out=
        raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
    many = isinstance(out, (tuple, list))
    if not many and not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if rule.needs_dim:
        _check_dim_given(name, args)
    if rule.composite:
        return _copy_into(name, out, fn(*args, **kwargs))
    outs = tuple(out) if many else (out,)
    if GradMode.enabled:
        _refuse_autograd(name, outs, args, tuple(kwargs.values()))
    if not many:
        _check_kernel(name, rule, np.asarray(out._data).dtype)
        if kwargs.get("dtype") is not None:
            check_requested_dtype(name, kwargs["dtype"], out)
        elif rule.in_out_dtype:
            kwargs["dtype"] = dtypes.BY_NUMPY[np.asarray(out._data).dtype]
    if rule.no_overlap and not many:
        _check_no_overlap(out, args)
    with no_grad():
        result = fn(*args, **kwargs)
    if isinstance(result, tuple):
        return _write_many(name, rule, outs if many else out, result)
    if many:
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if rule is _CAST:  # (an op declared on its first call: torch.softmax's)
        rule = OUT_RULES.get(name, _CAST)
    compute = _compute_dtype(rule, args, result)
    _write(name, _checker(rule), out, result, compute=compute, silent=rule.silent, rule=rule)
    return out


def check_requested_dtype(name: str, dtype: Any, out: Tensor) -> None:
    """A `dtype=` given with `out=` must be out's: a factory says so in its words, a reduction
    as an exact-dtype check."""
    wanted = dtypes.to_numpy(dtype)
    have = np.asarray(out._data).dtype
    if wanted is None or wanted == have:
        return
    if OUT_RULES.get(name, _CAST).silent:
        raise RuntimeError(f"dtype {_s(wanted)} does not match dtype of out parameter ({_s(have)})")
    raise RuntimeError(_exact(name, wanted, have))


def _compute_dtype(rule: OutRule, args: tuple, result: Any) -> tuple:
    """The out dtypes an op writes without a cast: its result's; for a comparison, also its
    inputs' common dtype (a Python float with integral tensors: the default dtype)."""
    res = np.asarray(result._data).dtype
    if not rule.compares:
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
    if OUT_RULES.get(name, _CAST).resizes_first:
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
    _write(name, _free, out, result, silent=not warn, rule=_CAST)
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


def _write_many(name: str, rule: OutRule, outs: Any, results: tuple) -> Any:
    if isinstance(outs, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not Tensor")
    if len(outs) != len(results):
        raise TypeError(f"expected tuple of {len(results)} elements but got {len(outs)}")
    for out in outs:
        if not isinstance(out, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors")
    pair = rule.check if isinstance(rule.check, tuple) else ("exact", "exact")
    checks = (_CHECKS[pair[0]], _CHECKS[pair[1]])
    for check, out, result in zip(checks, outs, results):
        _check_dtype(name, check, out, result)
    for out, result in zip(outs, results):
        _write(name, _exact, out, result, 5, silent=rule.silent, rule=rule)
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


def _check_kernel(name: str, rule: OutRule, target: np.dtype) -> None:
    kinds = rule.no_kernel
    if kinds and target.kind in kinds:
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
    silent: bool = False,
    rule: OutRule = _CAST,
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
        elif 0 not in old_shape and not silent:
            message = _RESIZED.format(_shape(old_shape), _shape(data.shape))
            warnings.warn(message, UserWarning, stacklevel=depth)
            if rule.cast_copy and target not in (compute or (data.dtype,)):
                warnings.warn(message, UserWarning, stacklevel=depth)
        out._data = np.array(data, dtype=target)
    out._bump_version()
