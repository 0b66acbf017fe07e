"""The Tensor class and the op machinery every op goes through.

`_wrap` is the one way a Tensor is made (and `graph.new_node` a node). `apply_op` handles what
is common to all ops: unwrapping inputs, dtype promotion, the grad-mode check, building the graph
node (edges, saved values and their versions, the shapes/dtypes needed to reduce broadcast
gradients) and wrapping outputs; `apply_binary` and `apply_unary` are its common cases taken
directly by the operators (same results: the general path is their fallback), `apply_inplace`
writes into the target. The ops themselves are declared in `engine/ops/`.

Long because: the class and the machinery share the hot paths (slots read
directly, no calls across modules on the way of an op); splitting them is planned once the ops
import the machinery from one place (`core/apply.py`)."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes, formula_backends, graph, limits, modes, provided
from .devices import CPU
from .dtypes import NP_BOOL, NP_FLOAT32, NP_INT64
from .grad_mode import (
    NO_VERSION,
    REQUIRES_GRAD_INFERENCE_MESSAGE,
    SAVE_INFERENCE_MESSAGE,
    VERSION_INFERENCE_MESSAGE,
    GradMode,
    InferenceMode,
)
from .graph import NO_EDGE, AccumulateGrad, Node, NodeExtra, RemovableHandle, new_node
from .limits import _Cap
from .printing import format_tensor

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
SCALAR_MESSAGE = "only one element tensors can be converted to Python scalars"
_new = object.__new__
_refcount = sys.getrefcount
_ndarray = np.ndarray
# ops whose in-place form, recording nothing, is one ufunc writing into the target (`out=`)
_INPLACE_UFUNCS = {"add": np.add, "sub": np.subtract, "mul": np.multiply}
_generic = np.generic


class Size(tuple):
    """`torch.Size`: a tuple printed as `torch.Size([2, 3])`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"torch.Size([{', '.join(str(s) for s in self)}])"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item: Any) -> Any:
        out = tuple.__getitem__(self, item)
        return Size(out) if isinstance(item, slice) else out

    def __add__(self, other: tuple) -> Size:
        return Size(tuple(self) + tuple(other))


class TensorHooks:
    """The state few tensors have: a retained gradient, leaf hooks, post-accumulate hooks."""

    __slots__ = ("retains_grad", "leaf", "post_accumulate")

    def __init__(self) -> None:
        self.retains_grad = False
        self.leaf: dict | None = None
        self.post_accumulate: dict | None = None


class Tensor:
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
        "__weakref__",
    )
    __array_priority__ = 1000
    is_cuda = False
    is_sparse = False
    device = CPU

    def __init__(
        self, *args: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False
    ):
        """The legacy constructor: `torch.Tensor([1, 2])` (float32) or `torch.Tensor(2, 3)`."""
        _init(self, provided.legacy_tensor_data(args, dtype), False, None, 0)
        if requires_grad:
            require_grad_new(self)

    # -- basic attributes --------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_norm_dim(dim, self._data.ndim)]

    @property
    def dtype(self) -> dtypes.dtype:
        return dtypes.BY_NUMPY[self._data.dtype]

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    def element_size(self) -> int:
        return self._data.dtype.itemsize

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    @property
    def is_leaf(self) -> bool:
        return self._grad_fn is None

    @property
    def grad_fn(self) -> Node | None:
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
        if type(data) is not _ndarray:
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

    def _set_history(self, node: Node, output_nr: int = 0) -> None:
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

    def _accumulator(self) -> AccumulateGrad:
        """The leaf's AccumulateGrad node, made once. PyTorch makes a new one when no graph
        holds the old one any more, which only shows as the old one's hooks being gone: so a
        node with hooks that nothing else holds is replaced."""
        acc = self._acc
        if acc is None or (acc._x is not None and acc._x.hooks and _refcount(acc) <= 3):
            acc = self._acc = AccumulateGrad(self)
            if self._th is not None:
                acc.extra()  # marks the node: its leaf has hooks (or had them)
        return acc

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

    def backward(
        self,
        gradient: Tensor | None = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Any = None,
    ) -> None:
        provided.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

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

    def item(self) -> Any:
        data = self._data
        if data.size != 1:
            raise RuntimeError(f"a Tensor with {data.size} elements cannot be converted to Scalar")
        return data.item() if data.ndim == 0 else data.reshape(()).item()

    def tolist(self) -> Any:
        return self._data.tolist()

    def numpy(self) -> np.ndarray:
        if self._requires_grad:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                "instead."
            )
        return self._array()

    def __bool__(self) -> bool:
        data = self._data
        if data.size != 1:
            if data.size == 0:
                raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(data.reshape(()) if data.ndim else data)

    def _scalar(self, kind: type) -> Any:
        if self._data.size != 1:
            raise ValueError(SCALAR_MESSAGE)
        return kind(self._data.reshape(()).item())

    def __float__(self) -> float:
        return self._scalar(float)

    def __int__(self) -> int:
        return self._scalar(int)

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.reshape(()).item())

    def __complex__(self) -> complex:
        return self._scalar(complex)

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return format_tensor(
            np.asarray(self._data),
            suffixes=self._repr_suffixes(),
            default_dtype=dtypes.get_default_dtype().name,
        )

    def _repr_suffixes(self) -> list[str]:
        if self._grad_fn is not None:
            items = [f"grad_fn=<{type(self._grad_fn).__name__}>"]
        elif self._requires_grad:
            items = ["requires_grad=True"]
        else:
            items = []
        if _OBSERVED:  # a mode's own items (forward AD's `tangent=...`)
            items += modes.repr_suffixes(self)
        return items

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:  # as PyTorch: a 0-d tensor formats as its Python number
            return format(self._data.item(), spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise TypeError("cannot pickle 'Tensor' object")

    def __deepcopy__(self, memo: dict) -> Tensor:
        out = _wrap(np.array(self._data, copy=True), self._requires_grad and self.is_leaf)
        memo[id(self)] = out
        return out


Tensor.__module__ = Size.__module__ = "torch"  # printed as <class 'torch.Tensor'>


def _init(t: Tensor, data: Any, requires_grad: bool, grad_fn: Node | None, output_nr: int) -> None:
    """Sets every slot of a Tensor made by `object.__new__` (`_wrap` and the legacy
    constructor)."""
    t._data = data
    t._requires_grad = requires_grad
    t._grad_fn = grad_fn
    t._output_nr = output_nr
    t._grad = None
    t._vbox = None
    t._acc = None
    t._th = None
    t._base = None


def _wrap(
    data: Any, requires_grad: bool = False, grad_fn: Node | None = None, output_nr: int = 0
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


def _forward(op: Any, datas: list, params: dict | None) -> Any:
    """Runs a forward; numpy's broadcasting ValueError becomes PyTorch's RuntimeError."""
    try:
        return op.forward(*datas, **params) if params else op.forward(*datas)
    except ValueError as e:
        if "broadcast" in str(e):
            raise broadcast_error([getattr(d, "shape", ()) for d in datas]) from None
        raise


def _norm_dim(dim: int, ndim: int) -> int:
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim + n if dim < 0 else dim


# --------------------------------------------------------------------------------------------
# The op machinery
# --------------------------------------------------------------------------------------------


def promote(datas: list, inputs: tuple) -> tuple[list, np.dtype]:
    """Casts the operands of an op to PyTorch's result type; returns them and that dtype."""
    first = None
    same = True
    for x in inputs:
        if isinstance(x, Tensor):
            dt = x._data.dtype
            if first is None:
                first = dt
            elif dt != first:
                same = False
                break
    if first is None:
        return datas, dtypes.get_default_dtype().np
    if same:
        # only Python numbers can still promote: a float number with an integer/bool tensor
        kind = first.kind
        for x in inputs:
            if not isinstance(x, Tensor) and x is not None:
                if kind == "f":
                    continue
                sdt = dtypes.scalar_np_dtype(x)
                if sdt.kind == "f" or (kind == "b" and sdt != NP_BOOL):
                    same = False
                    break
        if same:
            return datas, first
    dims, zeros, scalars = [], [], []
    for x in inputs:
        if isinstance(x, Tensor):
            (dims if x._data.ndim else zeros).append(x._data.dtype)
        elif x is not None:
            scalars.append(dtypes.scalar_np_dtype(x))
    target = dtypes.result_type(dims, zeros, scalars)
    out = []
    for d in datas:
        if isinstance(d, (_ndarray, _generic)) and d.dtype != target:
            d = d.astype(target)
        out.append(d)
    return out, target


def _edge(x: Tensor) -> tuple:
    """`x`'s edge as a `(node, output_nr)` pair (NO_EDGE when it needs no gradient)."""
    fn = x._grad_fn
    if fn is not None:
        return (fn, x._output_nr)
    if x._requires_grad:
        return (x._accumulator(), 0)
    return NO_EDGE


def grad_node(x: Tensor) -> Node | None:
    """The node `x`'s gradient flows to: its grad_fn, its AccumulateGrad, or None."""
    fn = x._grad_fn
    if fn is not None:
        return fn
    if x._requires_grad:
        acc = x._acc
        return acc if acc is not None and acc._x is None else x._accumulator()
    return None


def _acc_of(x: Tensor) -> Node:
    """`grad_node` of a Tensor that requires grad."""
    fn = x._grad_fn
    if fn is not None:
        return fn
    acc = x._acc
    return acc if acc is not None and acc._x is None else x._accumulator()


def _new_node(op: Any, edges: tuple) -> Node:
    """A node of `op` with `(node, output_nr)` edges."""
    node = new_node(op.node_cls, ())
    node.next_functions = edges
    return node


def _node_for(op: Any, inputs: tuple) -> Node:
    """A node of `op` whose edges lead from each Tensor of `inputs` (None for the others)."""
    nodes = []
    nrs = None
    for i, x in enumerate(inputs):
        if isinstance(x, Tensor):
            nodes.append(grad_node(x))
            if x._output_nr and x._grad_fn is not None:
                nrs = nrs or [0] * len(inputs)
                nrs[i] = x._output_nr
        else:
            nodes.append(None)
    return new_node(op.node_cls, tuple(nodes), None if nrs is None else tuple(nrs))


# the last `(None, number)` a product by a number saved: a loop's constant keeps one tuple
_last_scalar_saves: list = [None, (None, None)]


def apply_binary(op: Any, a: Tensor, b: Any) -> Tensor:
    """The common case of `apply_op`, taken by the operators: a Tensor with a Tensor of the
    same dtype or a Python float (with a floating Tensor). Element-wise ops, and `mm` (an
    `exact_grads` op, whose shapes the caller checked)."""
    if _OBSERVED:
        return apply_op(op, (a, b))
    ad = a._data
    cls = b.__class__
    if cls is Tensor:
        bd = b._data
        if ad.dtype is not bd.dtype and ad.dtype != bd.dtype:
            return apply_op(op, (a, b))
        b_grad = b._requires_grad
        if ad.shape != bd.shape:  # the product of the sizes bounds the output's
            n, m = ad.size, bd.size
            if not (n and m and n * m <= _Cap.max_elements):
                if op.exact_grads:  # mm: its shapes were checked by the caller
                    limits.check_matmul(op, ad, bd)
                else:
                    limits.check_broadcast_arrays(ad, bd)
    elif cls is float and ad.dtype.kind == "f":
        bd = b
        b_grad = False
    else:
        return apply_op(op, (a, b))
    try:
        out = op.binary(ad, bd)
    except ValueError:
        out = _forward(op, [ad, bd], None)
    if not ((a._requires_grad or b_grad) and GradMode.enabled):
        return _wrap(out)
    if cls is Tensor and out.dtype.kind != "f":  # (a floating tensor and a float stay floating)
        return _wrap(out)
    na = a._grad_fn  # `_acc_of` inlined: the node each input's gradient flows to
    if na is None and a._requires_grad:
        na = a._acc
        if na is None or na._x is not None:
            na = a._accumulator()
    nb = None
    if b_grad:
        nb = b._grad_fn
        if nb is None:
            nb = b._acc
            if nb is None or nb._x is not None:
                nb = b._accumulator()
    node = new_node(
        op.node_cls,
        (na, nb),
        None if not (a._output_nr or (b_grad and b._output_nr)) else _binary_nrs(a, b),
    )
    result = _wrap(out, True, node)
    # broadcast inputs keep their shapes for the backward (mm's formulas give them already; a
    # float does not change the shape)
    if cls is Tensor and not op.exact_grads and (ad.shape != out.shape or bd.shape != out.shape):
        node._x = NodeExtra((((ad.shape, ad.dtype), (bd.shape, bd.dtype)), None))
    if op.cross_saves:  # mul, mm: each input is saved only for the other's gradient
        if cls is not Tensor:  # a number: only the tensor `a` needs a gradient, and `b` for it
            last = _last_scalar_saves  # `(None, b)`, the same tuple while `b` is the same object
            if last[0] is not b:
                last[0] = b
                last[1] = (None, b)
            node._saved = last[1]
            return result
        _save_crossed(node, a, b, b_grad)
    elif op.saves:
        _save(node, op, (a, b), result)
    return result


def _save_crossed(node: Node, a: Tensor, b: Tensor, b_grad: bool) -> None:
    """mul, mm of two Tensors: each is saved, with its version, only for the other's gradient."""
    va = vb = None
    if b_grad:
        va = a._vbox
        if va is None:
            va = a._vbox = [0]
        elif va is NO_VERSION:
            raise RuntimeError(SAVE_INFERENCE_MESSAGE)
    if a._requires_grad:
        vb = b._vbox
        if vb is None:
            vb = b._vbox = [0]
        elif vb is NO_VERSION:
            raise RuntimeError(SAVE_INFERENCE_MESSAGE)
    if vb is None:
        node._saved = (a._data, None)
        node._versions = ((0, va, va[0], a),)
    elif va is None:
        node._saved = (None, b._data)
        node._versions = ((1, vb, vb[0], b),)
    else:
        node._saved = (a._data, b._data)
        node._versions = ((0, va, va[0], a), (1, vb, vb[0], b))


def _binary_nrs(a: Tensor, b: Any) -> tuple:
    """The output numbers of a binary op's edges, when one leads to a multi-output node."""
    nr_b = b._output_nr if b.__class__ is Tensor and b._grad_fn is not None else 0
    return (a._output_nr if a._grad_fn is not None else 0, nr_b)


def apply_unary(op: Any, x: Tensor) -> Tensor:
    """The common case of `apply_op` for a one-input, one-output op without parameters."""
    if _OBSERVED:
        return apply_op(op, (x,))
    data = x._data
    out = op.forward(data)
    if not (x._requires_grad and GradMode.enabled) or out.dtype.kind != "f" or op.view:
        return apply_op(op, (x,)) if op.view else _wrap(out)
    fn = x._grad_fn
    node = new_node(
        op.node_cls,
        (fn if fn is not None else _acc_of(x),),
        (x._output_nr,) if fn is not None and x._output_nr else None,
    )
    result = _wrap(out, True, node)
    if data.shape != out.shape or data.dtype != out.dtype:
        node.extra().meta = (((data.shape, data.dtype),), None)
    saves = op.saves
    if saves == _RESULT_ONLY:  # tanh, sigmoid, exp, ...: the output and its version
        box = result._vbox = [0]
        node._saved = (out,)
        node._versions = ((0, box, 0, None),)
    elif saves:
        _save(node, op, (x,), result)
    return result


def apply_op(op: Any, inputs: tuple, params: dict | None = None, _watched: bool = False) -> Any:
    """Runs `op` forward on `inputs` (Tensors or Python numbers) and records it in the graph."""
    if _OBSERVED and not _watched:
        return modes.observe(op, inputs, params, None, lambda: apply_op(op, inputs, params, True))
    datas = []
    needs_grad = False
    first_dtype = None
    uniform = True  # every input a Tensor of one dtype: nothing to promote
    for x in inputs:
        if isinstance(x, Tensor):
            d = x._data
            datas.append(d)
            if x._requires_grad:
                needs_grad = True
            if first_dtype is None:
                first_dtype = d.dtype
            elif uniform and d.dtype != first_dtype:
                uniform = False
        else:
            datas.append(x)
            uniform = False
    if op.promotes and not uniform and len(inputs) > 1:
        datas, _ = promote(datas, inputs)
    if params or len(datas) > 1:
        limits.check_op_output(op, datas, params)
    out = _forward(op, datas, params)
    if not (needs_grad and GradMode.enabled and op.grads is not None) or not _floating(out):
        result = _wrap(out) if op.n_outputs == 1 else tuple(_wrap(o) for o in out)
        if op.view:
            mark_view(result, inputs[0])
        return result
    node = _node_for(op, inputs)
    if params and op.keeps_params:
        node.extra().params = params
    if op.n_outputs == 1:
        result = _wrap(out, True, node, 0)
        out_shape, out_dtype = out.shape, out.dtype
        out_meta = None
    else:
        result = tuple(_wrap(o, True, node, i) for i, o in enumerate(out))
        out_shape = out_dtype = None
        out_meta = tuple((o.shape, o.dtype) for o in out)
    in_meta = None
    for x in () if op.exact_grads else inputs:
        if isinstance(x, Tensor) and (x._data.shape != out_shape or x._data.dtype != out_dtype):
            in_meta = tuple(
                (x._data.shape, x._data.dtype) if isinstance(x, Tensor) else (None, None)
                for x in inputs
            )
            break
    if in_meta is not None or out_meta is not None:
        node.extra().meta = (in_meta, out_meta)
    if op.saves:
        _save(node, op, inputs, result)
    if op.view:
        mark_view(result, inputs[0])
    return result


def _floating(out: Any) -> bool:
    if isinstance(out, tuple):
        return any(o.dtype.kind == "f" for o in out)
    return out.dtype.kind == "f"


def mark_view(result: Any, source: Tensor) -> None:
    """Outputs of a view op share their base's data and version counter, as in PyTorch."""
    base = source._base if source._base is not None else source
    box = source._version_box()
    for out in result if isinstance(result, tuple) else (result,):
        out._base = base
        out._vbox = box
    provided.track_view(result)


def _saved_tensor(x: Tensor, i: int, versions: list) -> Any:
    """Saves input `x` as saved value number `i`: its array for the formulas, and `x` itself
    with its version in `versions` (for the version check, `_saved_self`, create_graph)."""
    box = x._vbox
    if box is None:
        box = x._vbox = [0]
    elif box is NO_VERSION:
        raise RuntimeError(SAVE_INFERENCE_MESSAGE)
    versions.append((i, box, box[0], x))
    return x._data


_RESULT_ONLY = ("result",)


def _save(node: Node, op: Any, inputs: tuple, result: Any) -> None:
    """Saves what the formulas of the inputs that require grad read, with the version each
    saved tensor had (the others' saved values are None, as PyTorch leaves them unsaved)."""
    if op.saves == _RESULT_ONLY:  # tanh, sigmoid, exp, ...: the output and its version
        box = result._vbox = [0]
        node._saved = (result._data,)
        node._versions = ((0, box, 0, None),)
        return
    versions: list = []
    saved = []
    skip = _unneeded(op, inputs)
    for i, what in enumerate(op.saves):
        if i in skip:
            saved.append(None)
        elif what == "result":
            box = result._vbox = [0]
            saved.append(result._data)
            versions.append((i, box, 0, None))
        else:
            x = inputs[what]
            saved.append(_saved_tensor(x, i, versions) if isinstance(x, Tensor) else x)
    node._saved = tuple(saved)
    node._versions = tuple(versions) if versions else None


def _unneeded(op: Any, inputs: tuple) -> Any:
    """The saved values no gradient of this call reads (nothing when every input needs one)."""
    needs = op.needs if op.needs is not None else op.formula_reads()
    if not needs:
        return ()
    wanted: set = set()
    every = True
    for reads, x in zip(needs, inputs):
        if isinstance(x, Tensor) and x._requires_grad:
            wanted |= reads
        else:
            every = False
    return () if every else set(range(len(op.saves))) - wanted


def leaf_inplace_error(target: Tensor) -> RuntimeError:
    """PyTorch's error for modifying a leaf that requires grad in place (worded for a view)."""
    return RuntimeError(VIEW_OF_LEAF_MESSAGE if target._base is not None else LEAF_INPLACE_MESSAGE)


def overlaps(data: np.ndarray) -> bool:
    """True when several elements of `data` share memory (an expanded tensor)."""
    return any(s == 0 and n > 1 for s, n in zip(data.strides, data.shape))


def apply_inplace(
    op: Any, target: Tensor, inputs: tuple, params: dict | None = None, _watched: bool = False
) -> Tensor:
    """Runs `op` with `target` as its first input and writes the result into `target`."""
    if _OBSERVED and not _watched:
        return modes.observe(
            op,
            (target, *inputs),
            params,
            target,
            lambda: apply_inplace(op, target, inputs, params, True),
        )
    recording = GradMode.enabled
    if recording:
        if target._requires_grad and target._grad_fn is None:
            raise leaf_inplace_error(target)
        data = target._data
        if data.__class__ is _ndarray and not data.flags.writeable and overlaps(data):
            raise RuntimeError(OVERLAP_MESSAGE)  # e.g. the expanded gradient a hook receives
        if target._base is not None:
            return provided.inplace_on_view(op, target, inputs, params)
        recording = target._requires_grad or any(
            isinstance(x, Tensor) and x._requires_grad for x in inputs
        )
    if not recording:
        ufunc = _INPLACE_UFUNCS.get(op.name)
        if ufunc is not None and not params and len(inputs) == 1:
            # one ufunc writes straight into the target's array when nothing needs promoting
            array, other = target._data, inputs[0]
            if other.__class__ is Tensor:
                other = other._data
                same_kind = other.dtype == array.dtype
            else:
                same_kind = other.__class__ is float and array.dtype.kind == "f"
            if same_kind and array.__class__ is _ndarray:
                try:
                    ufunc(array, other, out=array)
                except (ValueError, TypeError):
                    pass  # read-only, or a shape that does not fit: the general path reports it
                else:
                    box = target._vbox
                    if box is None:
                        target._vbox = [1]
                    else:
                        box[0] += 1
                    return target
        return _inplace_without_graph(op, target, inputs, params)
    before = _wrap(target._data, target._requires_grad, target._grad_fn, target._output_nr)
    result = apply_op(op, (before, *inputs), params)
    data = result._data
    if data.dtype != target._data.dtype:
        if not np.can_cast(data.dtype, target._data.dtype, casting="same_kind"):
            raise RuntimeError(
                f"result type {_type_word(data.dtype)} can't be cast to the desired output type "
                f"{_type_word(target._data.dtype)}"
            )
        data = data.astype(target._data.dtype)
    array = target._array()
    # `before` keeps the old array if a backward formula saved it; copy it out first
    node = result._grad_fn
    if node is not None and node._versions is not None:
        _snapshot(node, before)
    np.copyto(array, data)
    target._bump_version()
    if node is not None:
        target._set_history(node)
        if node._versions is not None and "result" in op.saves:
            i = op.saves.index("result")
            node._saved = node._saved[:i] + (array,) + node._saved[i + 1 :]
            now = (i, target._version_box(), target._version, None)
            node._versions = tuple(now if e[0] == i else e for e in node._versions)
        if target._base is None:
            provided.after_inplace(target)  # views of target now read a new history
    return target


def _inplace_without_graph(op: Any, target: Tensor, inputs: tuple, params: dict | None) -> Tensor:
    """An in-place op that records nothing (no_grad, or no input requires grad): compute, check
    the dtype can be kept, write into the existing array, bump the version."""
    data = target._data
    if data.__class__ is _ndarray and not data.flags.writeable and overlaps(data):
        raise RuntimeError(OVERLAP_MESSAGE)  # e.g. the expanded gradient a hook receives
    datas = [target._data] + [x._data if isinstance(x, Tensor) else x for x in inputs]
    if op.promotes and len(datas) > 1:
        datas, _ = promote(datas, (target, *inputs))
    if params or len(datas) > 1:
        limits.check_op_output(op, datas, params)
    data = _forward(op, datas, params)
    array = target._array()
    if data.dtype != array.dtype and not np.can_cast(data.dtype, array.dtype, casting="same_kind"):
        raise RuntimeError(
            f"result type {_type_word(data.dtype)} can't be cast to the desired output type "
            f"{_type_word(array.dtype)}"
        )
    np.copyto(array, data, casting="unsafe")
    target._bump_version()
    return target


def fill_without_graph(target: Tensor, value: Any) -> bool:
    """`zero_`/`fill_` when nothing can be recorded or refused (no grad mode, or a tensor that
    neither requires grad nor is a view): the value written straight into the array. False
    when the general path must run (it records the write, or reports why it is refused)."""
    data = target._data
    if (
        _OBSERVED
        or data.__class__ is not _ndarray
        or (GradMode.enabled and (target._requires_grad or target._base is not None))
    ):
        return False
    try:
        data.fill(value)
    except (ValueError, TypeError, OverflowError):
        return False
    box = target._vbox
    if box is None:
        target._vbox = [1]
    else:
        box[0] += 1
    return True


def _snapshot(node: Node, before: Tensor) -> None:
    """Where `node` saved `before` (the tensor about to be overwritten), it keeps a copy."""
    saved = list(node._saved)
    versions = []
    for entry in node._versions:
        i, box, expected, tensor = entry
        if tensor is before:
            saved[i] = np.array(saved[i], copy=True)
            tensor = _wrap(saved[i], before._requires_grad, before._grad_fn, before._output_nr)
            entry = (i, box, expected, tensor)
        versions.append(entry)
    node._saved = tuple(saved)
    node._versions = tuple(versions)


def _type_word(dt: np.dtype) -> str:
    return dtypes.scalar_name(dt)


def as_tensor_operand(x: Any) -> Any:
    """Python numbers stay numbers (PyTorch's wrapped scalars); anything else must be a Tensor."""
    if isinstance(x, (Tensor, int, float, bool)):
        return x
    raise TypeError(f"unsupported operand type: '{type(x).__name__}'")


__all__ = ["Tensor", "Size", "apply_op", "apply_inplace", "NP_FLOAT32", "NP_INT64", "NP_BOOL"]

_OBSERVED = False  # True while a mode watches every op call (core/modes.py)


def _set_observed(on: bool) -> None:
    global _OBSERVED
    _OBSERVED = on


modes.on_change(_set_observed)

# the modules below this one reach the class and the constructor through these (no import back)
graph._Tensor = formula_backends._Tensor = Tensor
graph._wrap = formula_backends._wrap = _wrap
