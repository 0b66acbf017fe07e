"""The Tensor class: numpy data, the autograd slots (grad_fn, grad, version counter, base of a
view), its properties and conversions. `_wrap` is the one way a Tensor is made (and
`graph.new_node` a node); the op machinery is `core/apply.py`. The graph (`core/graph.py`)
imports this module, never the other way: the autograd methods the engine attaches above it
(`backward` by `core/backward.py`, the ops' methods by `defop`) go through `tensor_methods`."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes
from .devices import MetaArray
from .dtypes import NP_BOOL, NP_FLOAT32, NP_INT64
from .grad_mode import (
    NO_VERSION,
    REQUIRES_GRAD_INFERENCE_MESSAGE,
    VERSION_INFERENCE_MESSAGE,
    InferenceMode,
)
from .handles import RemovableHandle
from .tensor_values import META_COPY_MESSAGE as META_COPY_MESSAGE
from .tensor_values import Size, TensorValues
from .tensor_values import _norm_dim as _norm_dim

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)
LEAF_INPLACE_MESSAGE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_MESSAGE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)
FLOAT_ONLY_MESSAGE = "only Tensors of floating point dtype can require gradients"
# PyTorch words the same refusal three ways: `requires_grad_()` above, the setter, the factories
SETTER_FLOAT_ONLY_MESSAGE = "only Tensors of floating point and complex dtype can require gradients"
FACTORY_FLOAT_ONLY_MESSAGE = (
    "Only Tensors of floating point and complex dtype can require gradients"
)
OVERLAP_MESSAGE = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)
NON_LEAF_FLAG_MESSAGE = "you can only change requires_grad flags of leaf variables."
_new = object.__new__
_ndarray = np.ndarray
_generic = np.generic


class TensorHooks:
    """The state few tensors have: a retained gradient, leaf hooks, post-accumulate hooks."""

    __slots__ = ("retains_grad", "leaf", "post_accumulate")

    def __init__(self) -> None:
        self.retains_grad = False
        self.leaf: dict | None = None
        self.post_accumulate: dict | None = None


class _TensorMeta(type):
    """Tensor's metaclass (PyTorch's is `torch._C._TensorMeta`): `isinstance(x, Tensor)` goes
    by `type(x)` alone. Python's default also believes `x.__class__`, which an object can fake
    (a property, a `__getattr__`); every engine check `isinstance(x, Tensor)` then reads `x._data`
    as its own array. Exact Tensors take CPython's fast path and never call this."""

    def __instancecheck__(cls, instance: Any) -> bool:
        return type.__subclasscheck__(cls, type(instance))

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        """`torch.Tensor(...)` is the legacy constructor (`ops/legacy_types.py`: it may return
        an alias of a tensor given, so it is not `__init__`); subclasses construct as usual."""
        if cls is Tensor:
            return cls._legacy_new(None, "base", args, kwargs)  # (ops/legacy_types.py attaches it)
        return type.__call__(cls, *args, **kwargs)


_TensorMeta.__module__ = "torch._C"


class Tensor(TensorValues, metaclass=_TensorMeta):
    """A numpy-backed tensor that records the operations applied to it."""

    __slots__ = (
        "_data",
        "_requires_grad",
        "_grad_fn",
        "_output_nr",
        "_grad",
        "_vbox",
        "_acc",
        "_th",
        "_base",
        "_views",
        "__weakref__",
    )
    __array_priority__ = 1000
    is_cuda = False
    is_sparse = False

    @property
    def is_leaf(self) -> bool:
        return self._grad_fn is None

    @property
    def grad_fn(self) -> Any:
        return self._grad_fn

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if value.__class__ is not bool:
            raise RuntimeError("requires_grad must be a bool")
        self._set_requires_grad(value, SETTER_FLOAT_ONLY_MESSAGE)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if requires_grad.__class__ is not bool:
            raise TypeError(
                "requires_grad_(): argument 'requires_grad' (position 1) must be bool, not "
                f"{type(requires_grad).__name__}"
            )
        if self._grad_fn is not None and requires_grad:
            return self  # a non-leaf already requires grad: PyTorch accepts the no-op
        self._set_requires_grad(requires_grad, FLOAT_ONLY_MESSAGE)
        return self

    def _set_requires_grad(self, value: bool, float_only_message: str) -> None:
        if self._grad_fn is not None:
            if not value:
                raise RuntimeError(
                    f"{NON_LEAF_FLAG_MESSAGE} If you want to use a computed variable in a "
                    "subgraph that doesn't require differentiation use var_no_grad = var.detach()."
                )
            raise RuntimeError(NON_LEAF_FLAG_MESSAGE)
        if value and self._vbox is NO_VERSION and not InferenceMode.enabled:
            raise RuntimeError(REQUIRES_GRAD_INFERENCE_MESSAGE)
        if value and self._data.dtype.kind != "f":
            raise RuntimeError(float_only_message)
        self._requires_grad = value

    @property
    def _version(self) -> int:
        box = self._vbox
        if box is NO_VERSION:
            raise RuntimeError(VERSION_INFERENCE_MESSAGE)
        return box[0] if box is not None else 0

    def _version_box(self) -> list:
        box = self._vbox
        if box is None:
            box = self._vbox = [0]
        return box

    def _bump_version(self) -> None:
        box = self._vbox
        if box is None:
            self._vbox = [1]
        else:
            box[0] += 1

    def _array(self) -> np.ndarray:
        """The data as an ndarray, materialised in place so that aliases share it."""
        data = self._data
        if type(data) is not _ndarray and type(data) is not MetaArray:
            data = self._data = np.array(data)
        return data

    # -- gradients ---------------------------------------------------------------------------
    @property
    def grad(self) -> Tensor | None:
        grad = self._grad
        if grad is None and self._grad_fn is not None and not self._retains_grad:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None and not isinstance(value, Tensor):
            raise TypeError(
                "assigned grad expected to be a Tensor or None but got grad of type "
                f"{type(value).__name__}"
            )
        if value is not None:
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{_dims_text(value._data.shape)}' to "
                    f"a tensor of size '{_dims_text(self._data.shape)}'. Please ensure that the "
                    "gradient and the tensor are the same size"
                )
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{dtypes.cpp_name(value._data.dtype)}' "
                    f"to a tensor with grad_dtype '{_type_word(self._data.dtype)}'. The gradient "
                    "must match the tensor's grad_dtype (defaults to the tensor's dtype). You can "
                    "set the tensor's grad_dtype attribute with a specific dtype, or None to allow "
                    "any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and "
                    "its gradient may break downstream systems that assume they match."
                )
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Keeps the gradient of this non-leaf in `.grad`. The request belongs to the tensor,
        not to its current history: `_set_history` moves it when an in-place op gives the tensor
        a new grad_fn, so `.grad` is always the gradient of the value the tensor now holds."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is None or self._retains_grad:
            return
        self._retains_grad = True
        self._grad_fn.retain_output(self._output_nr, self)

    def _set_history(self, node: Any, output_nr: int = 0) -> None:
        """Makes `node` this tensor's grad_fn (after an in-place op, or a view's regenerated
        history); a retained gradient follows it, tensor hooks stay on the old node."""
        old = self._grad_fn
        if self._retains_grad and old is not node:
            if old is not None:
                old.forget_output(self._output_nr, self)
            node.retain_output(output_nr, self)
        self._grad_fn = node
        self._output_nr = output_nr
        self._requires_grad = True

    def register_hook(self, hook: Callable) -> RemovableHandle:
        """`hook(grad)` runs when the gradient of this tensor is computed; it may return a
        replacement gradient."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            return self._grad_fn.add_tensor_hook(self._output_nr, hook)
        th = self._extra_state()
        if th.leaf is None:
            th.leaf = {}
        handle = RemovableHandle(th.leaf)
        th.leaf[handle._key] = hook
        if self._acc is not None:
            self._acc.extra()  # marks the node: its leaf has hooks
        return handle

    def register_post_accumulate_grad_hook(self, hook: Callable) -> RemovableHandle:
        """`hook(tensor)` runs on a leaf after backward has accumulated its `.grad`."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._grad_fn is not None:
            raise RuntimeError(
                "post accumulate grad hooks cannot be registered on non-leaf tensors"
            )
        th = self._extra_state()
        if th.post_accumulate is None:
            th.post_accumulate = {}
        handle = RemovableHandle(th.post_accumulate)
        th.post_accumulate[handle._key] = hook
        if self._acc is not None:
            self._acc.extra()  # marks the node: its leaf has hooks
        return handle

    # -- rarely used state, kept apart (`TensorHooks`) -----------------------------------------
    def _extra_state(self) -> TensorHooks:
        th = self._th
        if th is None:
            th = self._th = TensorHooks()
        return th

    @property
    def _retains_grad(self) -> bool:
        th = self._th
        return th is not None and th.retains_grad

    @_retains_grad.setter
    def _retains_grad(self, value: bool) -> None:
        if value or self._th is not None:
            self._extra_state().retains_grad = value

    @property
    def _leaf_hooks(self) -> dict | None:
        th = self._th
        return None if th is None else th.leaf

    @property
    def _post_accumulate_hooks(self) -> dict | None:
        th = self._th
        return None if th is None else th.post_accumulate

    # -- data access -------------------------------------------------------------------------
    def detach(self) -> Tensor:
        out = _wrap(self._array())
        out._vbox = self._version_box()
        return out

    def detach_(self) -> Tensor:
        self._grad_fn = None
        self._output_nr = 0
        self._requires_grad = False
        return self

    @property
    def data(self) -> Tensor:
        return _wrap(self._array())

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"data must be a Tensor, not {type(value).__name__}")
        self._data = value._array()

    def __deepcopy__(self, memo: dict) -> Tensor:
        data = np.array(self._data, copy=True, subok=type(self._data) is MetaArray)
        out = _wrap(data, self._requires_grad and self.is_leaf)
        memo[id(self)] = out
        return out


Tensor.__module__ = "torch"  # printed as <class 'torch.Tensor'>


_FIELDS = tuple(name for name in Tensor.__slots__ if name != "__weakref__")


def _init(t: Tensor, data: Any, requires_grad: bool, grad_fn: Any, output_nr: int) -> None:
    """Sets every slot of a Tensor made by `object.__new__` (a Parameter)
    as `_wrap` sets a new one's: `_wrap` is where a Tensor's fields start."""
    model = _wrap(data, requires_grad, grad_fn, output_nr)
    for name in _FIELDS:
        setattr(t, name, getattr(model, name))


def _wrap(
    data: Any, requires_grad: bool = False, grad_fn: Any = None, output_nr: int = 0
) -> Tensor:
    """A Tensor around numpy data, without copying or checks (the one internal constructor)."""
    t = _new(Tensor)
    t._data = data
    t._requires_grad = requires_grad
    t._grad_fn = grad_fn
    t._output_nr = output_nr
    t._grad = None
    t._vbox = None
    t._acc = None
    t._th = None
    t._base = None
    t._views = None
    return t


def require_grad_new(t: Tensor) -> Tensor:
    """`requires_grad=True` given to a factory function (its own wording of the dtype refusal)."""
    if t._data.dtype.kind != "f":
        raise RuntimeError(FACTORY_FLOAT_ONLY_MESSAGE)
    t._requires_grad = True
    return t


def _dims_text(shape: tuple) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"


def broadcast_error(shapes: list) -> RuntimeError:
    """PyTorch's message for operands whose shapes do not broadcast."""
    a, b = shapes[0], shapes[1] if len(shapes) > 1 else ()
    n = max(len(a), len(b))
    pa, pb = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    for i in range(n - 1, -1, -1):
        if pa[i] != pb[i] and pa[i] != 1 and pb[i] != 1:
            return RuntimeError(
                f"The size of tensor a ({pa[i]}) must match the size of tensor b ({pb[i]}) at "
                f"non-singleton dimension {i}"
            )
    return RuntimeError(f"shapes {list(a)} and {list(b)} cannot be broadcast together")


def broadcast_shape(*shapes: tuple) -> tuple:
    """The shape `shapes` broadcast to, or PyTorch's RuntimeError for the first pair that does
    not broadcast (numpy's ValueError is not what a script should see)."""
    shape = tuple(shapes[0])
    for other in shapes[1:]:
        try:
            shape = tuple(np.broadcast_shapes(shape, other))
        except ValueError:
            raise broadcast_error([shape, tuple(other)]) from None
    return shape


# --------------------------------------------------------------------------------------------
# The op machinery
# --------------------------------------------------------------------------------------------


def _type_word(dt: np.dtype) -> str:
    return dtypes.scalar_name(dt)


__all__ = ["Tensor", "Size", "NP_FLOAT32", "NP_INT64", "NP_BOOL"]
