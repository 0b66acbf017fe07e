"""`import numpy as np` in a script: a vetted subset of numpy over safe wrappers.

Array creation, dtypes, elementwise functions, reductions, joining, comparisons and numpy's own
random numbers (`np.random.*` and `default_rng`, a fresh state per script). No file, buffer,
memory, object-array or process access exists here: every function converts its arguments with
`numpy_types.to_raw`/`dtype_of`/`shape_of` and wraps what numpy returns (see `numpy_types`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from autodiff_cli.lang.pylib.numpy_random import random_module
from autodiff_cli.lang.sandbox import capabilities
from autodiff_cli.lang.sandbox import numpy_sizes as sizes
from autodiff_cli.lang.sandbox import numpy_types as nt
from autodiff_cli.lang.sandbox.numpy_types import NdArray, boundary, to_raw, wrap

# ---- creation --------------------------------------------------------------------------------


@boundary
def array(obj: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> NdArray:
    raw = to_raw(obj)
    result = np.array(raw, dtype=nt.dtype_of(dtype), copy=True if copy else None)
    if ndmin:
        result = np.array(result, ndmin=nt.index(ndmin), copy=False)
    return wrap(nt.checked_array(result))


@boundary
def asarray(obj: Any, dtype: Any = None) -> NdArray:
    if type(obj) is NdArray and dtype is None:
        return obj
    return wrap(nt.checked_array(np.asarray(to_raw(obj), dtype=nt.dtype_of(dtype))))


def _filled(fill: Callable[..., np.ndarray]) -> Callable[..., NdArray]:
    @boundary
    def make(shape: Any, dtype: Any = None) -> NdArray:
        return NdArray(fill(nt.shape_of(shape), dtype=nt.dtype_of(dtype) or np.float64))

    make.__name__ = fill.__name__
    return make


zeros = _filled(np.zeros)
ones = _filled(np.ones)
empty = _filled(np.zeros)  # as np.empty, but never uninitialised memory
empty.__name__ = "empty"


@boundary
def full(shape: Any, fill_value: Any, dtype: Any = None) -> NdArray:
    return wrap(np.full(nt.shape_of(shape), to_raw(fill_value), dtype=nt.dtype_of(dtype)))


def _like(value: int) -> Callable[..., NdArray]:
    @boundary
    def make(a: Any, dtype: Any = None) -> NdArray:
        raw = np.asarray(to_raw(a))
        return NdArray(np.full(raw.shape, value, dtype=nt.dtype_of(dtype) or raw.dtype))

    return make


zeros_like = _like(0)
ones_like = _like(1)
empty_like = _like(0)


@boundary
def full_like(a: Any, fill_value: Any, dtype: Any = None) -> NdArray:
    raw = np.asarray(to_raw(a))
    return NdArray(np.full(raw.shape, to_raw(fill_value), dtype=nt.dtype_of(dtype) or raw.dtype))


@boundary
def arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None) -> NdArray:
    args = [nt.number(v) for v in (start, stop, step) if v is not None]
    if stop is None and step is not None:
        args = [0, *args]
    first, last, stride = (*([0] if len(args) == 1 else []), *args, *([1] * (3 - len(args))))[:3]
    if stride == 0:
        raise ZeroDivisionError("division by zero")
    count = max(0, math.ceil((float(last) - float(first)) / float(stride)))
    nt.check_count(count, (count,))
    return wrap(np.arange(*args, dtype=nt.dtype_of(dtype)))


@boundary
def linspace(
    start: Any, stop: Any, num: Any = 50, endpoint: bool = True, dtype: Any = None
) -> NdArray:
    count = nt.index(num)
    low, high = to_raw(start), to_raw(stop)
    sizes.check_linspace(count, low, high)
    return wrap(np.linspace(low, high, count, endpoint=bool(endpoint), dtype=nt.dtype_of(dtype)))


@boundary
def eye(N: Any, M: Any = None, k: Any = 0, dtype: Any = None) -> NdArray:  # noqa: N803
    n = nt.index(N)
    m = n if M is None else nt.index(M)
    nt.check_count(n * m, (n, m))
    return wrap(np.eye(n, m, nt.index(k), dtype=nt.dtype_of(dtype) or np.float64))


@boundary
def identity(n: Any, dtype: Any = None) -> NdArray:
    return eye(n, dtype=dtype)


# ---- elementwise ---------------------------------------------------------------------------


def _out(out: Any) -> Any:
    if type(out) is not NdArray:
        raise TypeError("out= takes a numpy array in scripts")
    return out._held


def _unary(ufunc: Any) -> Callable[[Any], Any]:
    @boundary
    def apply(x: Any, out: Any = None) -> Any:
        if out is not None:
            ufunc(to_raw(x), out=_out(out))
            return out
        return wrap(ufunc(to_raw(x)))

    apply.__name__ = apply.__qualname__ = ufunc.__name__
    return apply


def _binary(ufunc: Any) -> Callable[[Any, Any], Any]:
    @boundary
    def apply(x1: Any, x2: Any, out: Any = None) -> Any:
        a, b = to_raw(x1), to_raw(x2)
        nt.check_broadcast(np.shape(a), np.shape(b))
        if out is not None:
            ufunc(a, b, out=_out(out))
            return out
        return wrap(ufunc(a, b))

    apply.__name__ = apply.__qualname__ = ufunc.__name__
    return apply


_UNARY = (
    "exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh tanh "
    "arcsinh arccosh arctanh sqrt cbrt square abs absolute fabs sign floor ceil trunc rint "
    "negative positive reciprocal isnan isinf isfinite logical_not signbit deg2rad rad2deg "
    "degrees radians"
)
_BINARY = (
    "add subtract multiply divide true_divide floor_divide power mod remainder fmod maximum "
    "minimum fmax fmin arctan2 hypot logical_and logical_or logical_xor equal not_equal less "
    "less_equal greater greater_equal"
)
_FUNCTIONS: dict[str, Any] = {name: _unary(getattr(np, name)) for name in _UNARY.split()}
_FUNCTIONS |= {name: _binary(getattr(np, name)) for name in _BINARY.split()}


@boundary
def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    cond = to_raw(condition)
    if x is None and y is None:
        sizes.check_nonzero(np.asarray(cond))
        return wrap(np.where(cond))
    a, b = to_raw(x), to_raw(y)
    nt.check_broadcast(np.shape(cond), np.shape(a), np.shape(b))
    return wrap(np.where(cond, a, b))


@boundary
def clip(a: Any, a_min: Any = None, a_max: Any = None) -> Any:
    low = None if a_min is None else to_raw(a_min)
    high = None if a_max is None else to_raw(a_max)
    raw = to_raw(a)
    nt.check_broadcast(np.shape(raw), np.shape(low), np.shape(high))
    return wrap(np.clip(raw, low, high))


@boundary
def round_(a: Any, decimals: Any = 0) -> Any:
    return wrap(np.round(to_raw(a), nt.index(decimals)))


# ---- reductions ------------------------------------------------------------------------------


def _reduction(name: str) -> Callable[..., Any]:
    method = getattr(NdArray, name)

    def reduce(a: Any, axis: Any = None, **options: Any) -> Any:
        return method(asarray(a), axis, **options)

    reduce.__name__ = reduce.__qualname__ = name
    return reduce


for _name in "sum mean prod std var max min all any argmax argmin".split():
    _FUNCTIONS[_name] = _reduction(_name)
_FUNCTIONS["amax"], _FUNCTIONS["amin"] = _FUNCTIONS["max"], _FUNCTIONS["min"]


@boundary
def cumsum(a: Any, axis: Any = None) -> Any:
    return asarray(a).cumsum(axis)


# ---- shapes, joining, linear algebra ------------------------------------------------------------


@boundary
def reshape(a: Any, shape: Any) -> NdArray:
    return asarray(a).reshape(shape)


@boundary
def transpose(a: Any, axes: Any = None) -> NdArray:
    return asarray(a).transpose(*(() if axes is None else axes))


@boundary
def squeeze(a: Any, axis: Any = None) -> NdArray:
    return asarray(a).squeeze(axis)


@boundary
def expand_dims(a: Any, axis: Any) -> NdArray:
    return wrap(np.expand_dims(to_raw(a), nt.axis_of(axis)))


def _joined(join: Callable[..., np.ndarray], with_axis: bool = True) -> Callable[..., NdArray]:
    @boundary
    def apply(arrays: Any, axis: Any = 0) -> NdArray:
        if not isinstance(arrays, (list, tuple)):
            raise TypeError(f"{join.__name__}() expects a sequence of arrays")
        raws = [np.asarray(to_raw(a)) for a in arrays]
        nt.check_count(sum(r.size for r in raws))
        return wrap(join(raws, axis=nt.axis_of(axis)) if with_axis else join(raws))

    @boundary
    def apply_without_axis(arrays: Any) -> NdArray:
        return apply(arrays)

    chosen = apply if with_axis else apply_without_axis
    chosen.__name__ = chosen.__qualname__ = join.__name__
    return chosen


concatenate = _joined(np.concatenate)
stack = _joined(np.stack)
vstack = _joined(np.vstack, with_axis=False)
hstack = _joined(np.hstack, with_axis=False)


@boundary
def dot(a: Any, b: Any) -> Any:
    return asarray(a).dot(b)


@boundary
def matmul(a: Any, b: Any) -> Any:
    return asarray(a) @ asarray(b)


@boundary
def outer(a: Any, b: Any) -> NdArray:
    x, y = np.asarray(to_raw(a)), np.asarray(to_raw(b))
    nt.check_count(x.size * y.size, (x.size, y.size))
    return wrap(np.outer(x, y))


@boundary
def allclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> bool:
    x, y = to_raw(a), to_raw(b)
    nt.check_broadcast(np.shape(x), np.shape(y))
    return bool(np.allclose(x, y, nt.number(rtol), nt.number(atol), bool(equal_nan)))


@boundary
def isclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> Any:
    x, y = to_raw(a), to_raw(b)
    nt.check_broadcast(np.shape(x), np.shape(y))
    return wrap(np.isclose(x, y, nt.number(rtol), nt.number(atol), bool(equal_nan)))


@boundary
def array_equal(a1: Any, a2: Any) -> bool:
    return bool(np.array_equal(to_raw(a1), to_raw(a2)))


@boundary
def sort(a: Any, axis: Any = -1) -> NdArray:
    return wrap(np.sort(to_raw(a), axis=nt.axis_of(axis), kind="stable"))


@boundary
def argsort(a: Any, axis: Any = -1) -> NdArray:
    return wrap(np.argsort(to_raw(a), axis=nt.axis_of(axis), kind="stable"))


@boundary
def shape(a: Any) -> tuple:
    return np.shape(to_raw(a))


@boundary
def ndim(a: Any) -> int:
    return np.ndim(to_raw(a))


@boundary
def size(a: Any) -> int:
    return np.size(to_raw(a))


@boundary
def dtype(obj: Any) -> nt.DType:
    return nt.DTYPES[nt.dtype_of(obj).name]


@boundary
def isscalar(element: Any) -> bool:
    return isinstance(element, (int, float, bool, nt.Scalar))


# ---- more array functions ---------------------------------------------------------------------


def _same_size(function: Callable[..., Any]) -> Callable[..., Any]:
    """A numpy function whose result is no larger than its input (axis as the only option)."""

    @boundary
    def apply(a: Any, axis: Any = None) -> Any:
        return wrap(function(to_raw(a), axis=nt.axis_of(axis)))

    apply.__name__ = apply.__qualname__ = function.__name__
    return apply


for _function in (np.cumprod, np.flip):
    _FUNCTIONS[_function.__name__] = _same_size(_function)


@boundary
def count_nonzero(a: Any, axis: Any = None) -> Any:
    raw, axis = np.asarray(to_raw(a)), nt.axis_of(axis)
    sizes.check_reduction(raw.shape, axis)
    return wrap(np.count_nonzero(raw, axis=axis))


_FUNCTIONS["count_nonzero"] = count_nonzero


@boundary
def diff(a: Any, n: Any = 1, axis: Any = -1) -> Any:
    return wrap(np.diff(to_raw(a), nt.index(n), axis=nt.index(axis)))


@boundary
def nonzero(a: Any) -> Any:
    raw = np.asarray(to_raw(a))
    sizes.check_nonzero(raw)
    return wrap(np.nonzero(raw))


@boundary
def diag(v: Any, k: Any = 0) -> Any:
    raw = np.asarray(to_raw(v))
    side = raw.size + abs(nt.index(k)) if raw.ndim == 1 else 0
    nt.check_count(side * side, (side, side))
    return wrap(np.diag(raw, nt.index(k)))


@boundary
def trace(a: Any) -> Any:
    raw = np.asarray(to_raw(a))
    if raw.ndim >= 2:  # the diagonal's sum for each index of the dims after the first two
        sizes.check_reduction(raw.shape, (0, 1))
    return wrap(np.trace(raw))


@boundary
def tile(a: Any, reps: Any) -> Any:
    raw = np.asarray(to_raw(a))
    counts = nt.shape_of(reps)
    nt.check_count(raw.size * math.prod(counts))
    return wrap(np.tile(raw, counts))


@boundary
def repeat(a: Any, repeats: Any, axis: Any = None) -> Any:
    raw = np.asarray(to_raw(a))
    count = nt.index(repeats)
    nt.check_count(raw.size * max(count, 0))
    return wrap(np.repeat(raw, count, axis=nt.axis_of(axis)))


# ---- np.linalg -----------------------------------------------------------------------------


@boundary
def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Any:  # noqa: A002
    order = ord if ord is None or type(ord) is str else nt.number(ord)
    if type(order) is str and order not in ("fro", "nuc"):
        raise ValueError(f"Invalid norm order '{order}' for matrices")
    raw, axis = np.asarray(to_raw(x)), nt.axis_of(axis)
    if axis is not None:
        sizes.check_reduction(raw.shape, axis, bool(keepdims))
    return wrap(np.linalg.norm(raw, order, axis, bool(keepdims)))


def _square(function: Callable[[Any], Any], per_matrix: bool = False) -> Callable[[Any], Any]:
    """A function of (stacks of) matrices; `per_matrix`: one number per matrix (det, rank),
    so a stack of empty matrices gives as many numbers as it has matrices."""

    @boundary
    def apply(a: Any) -> Any:
        raw = np.asarray(to_raw(a))
        if per_matrix and raw.ndim >= 2:
            sizes.check_reduction(raw.shape, (-2, -1))
        return wrap(function(raw))

    apply.__name__ = apply.__qualname__ = function.__name__
    return apply


@boundary
def solve(a: Any, b: Any) -> Any:
    left, right = to_raw(a), to_raw(b)
    sizes.check_solve(left, right)
    return wrap(np.linalg.solve(left, right))


def _linalg() -> capabilities.ModuleProxy:
    functions = {"norm": norm, "solve": solve}
    for function in (np.linalg.inv, np.linalg.pinv):
        functions[function.__name__] = _square(function)
    for function in (np.linalg.det, np.linalg.matrix_rank):
        functions[function.__name__] = _square(function, per_matrix=True)
    return capabilities.ModuleProxy("numpy.linalg", functions)


# ---- the module --------------------------------------------------------------------------------

_CONSTANTS = {"pi": math.pi, "e": math.e, "inf": math.inf, "nan": math.nan, "newaxis": None}


def _public_functions() -> dict[str, Any]:
    names = (
        "array asarray zeros ones empty full zeros_like ones_like empty_like full_like arange "
        "linspace eye identity where clip cumsum reshape transpose squeeze expand_dims "
        "concatenate stack vstack hstack dot matmul outer allclose isclose array_equal sort "
        "argsort shape ndim size dtype isscalar diff nonzero diag trace tile repeat"
    )
    table = {name: globals()[name] for name in names.split()}
    table["round"] = table["around"] = round_
    return table | _FUNCTIONS


_SHARED: dict[str, Any] = {}


def _shared() -> dict[str, Any]:
    """The names every script's numpy has (built once; all immutable)."""
    if not _SHARED:
        _SHARED.update(_public_functions())
        _SHARED.update(_CONSTANTS)
        for name, kind in nt.SCALAR_TYPES.items():
            _SHARED[name] = kind
            capabilities.share(kind)
        _SHARED["bool_"] = nt.SCALAR_TYPES["bool"]
        _SHARED["ndarray"] = capabilities.typeview.stand_in(NdArray)
        _SHARED["__version__"] = np.__version__
    return _SHARED


@boundary
def set_printoptions(**options: Any) -> None:
    nt.set_printoptions(**options)


@boundary
def get_printoptions() -> dict[str, Any]:
    return {name: np.get_printoptions()[name] for name in nt._OPTION_KINDS} | nt.PRINT_OPTIONS


def make_module() -> capabilities.ModuleProxy:
    """A script's own `numpy` module (its `np.random` state is its own; print options reset)."""
    nt.reset_printoptions()
    attributes = dict(_shared())
    attributes["set_printoptions"] = set_printoptions
    attributes["get_printoptions"] = get_printoptions
    version = attributes.pop("__version__")
    proxy = capabilities.ModuleProxy("numpy", attributes)
    proxy.random = random_module()
    proxy.linalg = _linalg()
    object.__setattr__(proxy, "__version__", version)
    return proxy


def _warm_up() -> None:
    """Call the functions whose numpy code imports modules on first use, so that a locked-down
    child (which cannot open files) finds them loaded. (np.median, percentile and unique are
    left out: they load numpy.ma, ~40 ms more for every run.)"""
    sample = NdArray(np.array([[1.0, 2.0], [3.0, 5.0]]))
    for name in "diff nonzero diag trace tile repeat cumprod".split():
        function = _FUNCTIONS.get(name) or globals()[name]
        function(sample, *([1] if name in ("tile", "repeat") else []))
    linalg = _linalg()
    for name in ("norm", "inv", "det", "pinv", "matrix_rank"):
        getattr(linalg, name)(sample)
    linalg.solve(sample, sample)
    repr(sample), str(nt.SCALAR_CLASSES["float32"](np.float32(1.5)))


_warm_up()
