"""The two backends a backward formula runs on.

Each formula in the op table is written once against a backend `B`: with `create_graph=False` the
gradients are numpy arrays and `B` is `NumpyBackend`; with `create_graph=True` they are Tensors and
`B` is `TensorBackend`, so the backward pass itself is recorded and can be differentiated again.
Python operators (`g * x`, `-g`, `g / y`) work on both; everything else is a `B.` function.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from . import kernels
from .dtypes import BY_NUMPY
from .tensor import Tensor, _wrap

_add_reduce = np.add.reduce


def _sum_to_axes(shape: tuple, target: tuple) -> tuple[int, ...]:
    lead = len(shape) - len(target)
    axes = list(range(lead))
    for i, size in enumerate(target):
        if size == 1 and shape[lead + i] != 1:
            axes.append(lead + i)
    return tuple(axes)


class NumpyBackend:
    """Formulas on plain numpy arrays: the fast path of an ordinary backward pass."""

    creates_graph = False

    @staticmethod
    def unpack(value: Any, node: Any) -> Any:
        data = getattr(value, "_data", None)
        return value if data is None else data

    @staticmethod
    def wrap(g: Any) -> Any:
        return _wrap(g)

    @staticmethod
    def unwrap(t: Any) -> Any:
        return t._data

    array_of = staticmethod(np.asarray)  # the numpy data of a value (for dtypes, masks, tests)

    @staticmethod
    def zeros(shape: tuple, dtype: Any) -> np.ndarray:
        return np.zeros(shape, dtype)

    @staticmethod
    def conform(g: Any, shape: tuple | None, dtype: Any) -> Any:
        """Sums a broadcast gradient back to its input's shape and casts it to its dtype."""
        if shape is None:
            return g
        g_shape = g.shape  # (read once: an array's `shape` is a new tuple each time)
        if g_shape != shape:
            if g_shape[1:] == shape:  # the common case of a bias: sum over the first axis
                # numpy's reduction, as `Tensor.sum(0)` computes it: a bias gradient written by
                # hand (`dlogits.sum(0)`) has autograd's bits whatever the BLAS kernel
                g = _add_reduce(g, 0)
                if g.dtype is dtype or g.dtype == dtype or dtype.kind != "f":
                    return g
                return g.astype(dtype)
            axes = _sum_to_axes(g_shape, shape)
            if axes:
                g = _add_reduce(g, axes, None, None, True)
            g = np.reshape(g, shape)
        if g.dtype != dtype and dtype.kind == "f":
            g = g.astype(dtype)
        return g

    @staticmethod
    def expand(g: Any, shape: tuple) -> np.ndarray:
        """`g` broadcast to `shape`: a read-only view. A 0-d array (the gradient of a full sum
        or mean) is viewed with every stride 0 directly, as np.broadcast_to would make it
        (whose Python-level checks cost 3.3 µs against 0.65)."""
        if g.__class__ is np.ndarray and g.ndim == 0:
            out = np.ndarray(shape, g.dtype, g, 0, (0,) * len(shape))
            out.flags.writeable = False
            return out
        return np.broadcast_to(g, shape)

    @staticmethod
    def const(array: Any) -> Any:
        """A constant the formula uses (a weight): as is."""
        return array

    softplus_neg = staticmethod(kernels.softplus_neg)

    @staticmethod
    def reshape(g: Any, shape: tuple) -> np.ndarray:
        return np.reshape(g, shape)

    @staticmethod
    def unsqueeze_dims(g: Any, dims: tuple | None, keepdim: bool, ndim: int) -> Any:
        """Re-inserts the reduced dimensions of a reduction's gradient so it broadcasts."""
        if dims is None or keepdim:
            return g
        return np.expand_dims(g, tuple(d % ndim for d in dims))

    @staticmethod
    def sum_dims(g: Any, dims: tuple, keepdim: bool) -> Any:
        return _add_reduce(g, dims, None, None, keepdim)

    matmul = staticmethod(np.matmul)
    mm = staticmethod(kernels.dot)  # a matrix times a matrix or a vector
    t = staticmethod(operator.attrgetter("T"))  # (formulas call it on matrices only)
    outer = staticmethod(np.outer)
    where = staticmethod(np.where)
    exp = staticmethod(np.exp)
    log = staticmethod(np.log)
    sin = staticmethod(np.sin)
    cos = staticmethod(np.cos)
    tanh = staticmethod(np.tanh)
    sqrt = staticmethod(np.sqrt)
    sign = staticmethod(kernels.sign)  # (0 at NaN, as PyTorch's)
    abs = staticmethod(np.abs)
    cosh = staticmethod(np.cosh)
    sinh = staticmethod(np.sinh)
    log1p = staticmethod(np.log1p)
    expm1 = staticmethod(np.expm1)
    isnan = staticmethod(np.isnan)
    floor = staticmethod(np.floor)
    trunc = staticmethod(np.trunc)

    sigmoid = staticmethod(kernels.sigmoid)

    @staticmethod
    def transpose(g: Any, d0: int = 0, d1: int = 1) -> Any:
        if g.__class__ is np.ndarray:
            return g.swapaxes(d0, d1) if g.ndim >= 2 else g
        return np.swapaxes(g, d0, d1) if np.ndim(g) >= 2 else g

    @staticmethod
    def zeros_like(x: Any) -> Any:
        return np.zeros_like(x)

    @staticmethod
    def eq(a: Any, b: Any) -> Any:
        return a == b

    @staticmethod
    def astype_like(mask: Any, like: Any) -> Any:
        return np.asarray(mask).astype(np.asarray(like).dtype)

    @staticmethod
    def count(x: Any) -> int:
        return np.count_nonzero(x)

    @staticmethod
    def at_least(x: Any, low: float) -> Any:
        """`x` raised to `low` where below, with no node of its own (PyTorch clamps some
        formulas' denominators so, unrecorded); `x` is a fresh value of the formula's."""
        return np.maximum(x, low)


class TensorBackend:
    """Formulas on Tensors: every step is an op, so the gradient has a graph of its own."""

    creates_graph = True

    @staticmethod
    def unpack(value: Any, node: Any) -> Any:
        if isinstance(value, np.ndarray | np.generic) and not isinstance(value, Tensor):
            return _wrap(value, True, node, 0)  # a saved result: reconnect it to its node
        return value

    @staticmethod
    def wrap(g: Any) -> Any:
        return g

    @staticmethod
    def unwrap(t: Any) -> Any:
        return t

    @staticmethod
    def array_of(x: Any) -> np.ndarray:
        """The numpy data of a value (a Tensor's, not recorded): for dtypes, masks and tests."""
        return x._data if isinstance(x, Tensor) else np.asarray(x)

    @staticmethod
    def zeros(shape: tuple, dtype: Any) -> Any:
        return _wrap(np.zeros(shape, dtype))

    @staticmethod
    def conform(g: Any, shape: tuple | None, dtype: Any) -> Any:
        """PyTorch's sum_to: a 0-d target takes `g.sum()` (SumBackward0), others sum with
        keepdim then view off the leading dimensions."""
        if shape is None:
            return g
        if shape == () and g.ndim:
            g = g.sum()
        elif tuple(g.shape) != shape:
            axes = _sum_to_axes(tuple(g.shape), shape)
            if axes:
                g = g.sum(axes, keepdim=True)
            if tuple(g.shape) != shape:
                g = g.reshape(shape)
        if g._data.dtype != dtype and dtype.kind == "f":
            g = g.to(BY_NUMPY[dtype])
        return g

    @staticmethod
    def expand(g: Any, shape: tuple) -> Any:
        return g.expand(shape)

    @staticmethod
    def const(array: Any) -> Any:
        return _wrap(array)

    @staticmethod
    def softplus_neg(x: Any) -> Any:
        return (-x).softplus()

    @staticmethod
    def reshape(g: Any, shape: tuple) -> Any:
        return g.reshape(shape)

    @staticmethod
    def unsqueeze_dims(g: Any, dims: tuple | None, keepdim: bool, ndim: int) -> Any:
        if dims is None or keepdim:
            return g
        for d in sorted(d % ndim for d in dims):
            g = g.unsqueeze(d)
        return g

    @staticmethod
    def sum_dims(g: Any, dims: tuple, keepdim: bool) -> Any:
        return g.sum(dims, keepdim=keepdim)

    @staticmethod
    def matmul(a: Any, b: Any) -> Any:
        return a @ b

    mm = matmul

    @staticmethod
    def t(g: Any) -> Any:
        return g.t()

    @staticmethod
    def outer(a: Any, b: Any) -> Any:
        return a.outer(b)

    @staticmethod
    def where(condition: Any, a: Any, b: Any) -> Any:
        """`torch.where(condition, a, b)`: the condition's `_where` (ops/arithmetic.py attaches
        it to Tensor, as every op's method is attached)."""
        if not isinstance(condition, Tensor):
            condition = _wrap(np.asarray(condition))
        return condition._where(a, b)

    @staticmethod
    def transpose(g: Any, d0: int | None = None, d1: int | None = None) -> Any:
        """`transpose(g)` of a matrix is PyTorch's `g.t()` (TBackward0), as in the mm
        formulas; explicit dims are `g.transpose(d0, d1)` (TransposeBackward0)."""
        if g.ndim < 2:
            return g
        if d0 is None:
            return g.t() if g.ndim == 2 else g.transpose(0, 1)
        return g.transpose(d0, d1)

    @staticmethod
    def zeros_like(x: Any) -> Any:
        return _wrap(np.zeros_like(x._data))

    @staticmethod
    def eq(a: Any, b: Any) -> Any:
        return a == b

    @staticmethod
    def astype_like(mask: Any, like: Any) -> Any:
        return mask.to(like.dtype)

    @staticmethod
    def count(x: Any) -> int:
        return int(x.sum().item())

    @staticmethod
    def at_least(x: Any, low: float) -> Any:
        x._data = np.maximum(x._array(), low)  # x keeps its node: the clamp is not recorded
        return x


def tensor_fn(name: str) -> staticmethod:
    """`B.exp(x)` on Tensors: the Tensor method, the op's torch function (an op declared with
    `defop(backend=True)` is bound so)."""

    def fn(x: Any) -> Any:
        return getattr(x, name)()

    fn.__name__ = name
    return staticmethod(fn)
