"""Shape and view ops: reshape/view, transpose/permute, squeeze/unsqueeze, expand, select/slice,
split/chunk/unbind/narrow (views of their input), and the copying shape ops (clone, contiguous,
repeat, flip, cat, stack).

A view op's output shares its input's numpy memory and version counter (`view=True` in the table);
`apply_view` also registers it with `inplace`, which rewrites the views' histories after an in-place
write to their base, as PyTorch does.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core.apply import apply_op
from ..core.fast_paths import apply_view
from ..core.numpy_names import varargs_keyword
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.out_arg import OutRule, write_out
from ..core.tensor import Size, Tensor, _dims_text, _norm_dim, _wrap, broadcast_error
from .formula_ops import run

__all__ = [
    "permute",
    "movedim",
    "moveaxis",
    "t",
    "transpose",
    "swapaxes",
    "swapdims",
    "unsqueeze",
    "squeeze",
    "reshape",
    "flatten",
    "clone",
    "select",
    "unbind",
    "stack",
    "cat",
    "concat",
    "concatenate",
    "split",
    "chunk",
    "narrow",
    "repeat",
    "flip",
    "broadcast_shapes",
    "broadcast_tensors",
    "Size",
]

VIEW_STRIDE_MESSAGE = (
    "view size is not compatible with input tensor's size and stride (at least one dimension "
    "spans across two contiguous subspaces). Use .reshape(...) instead."
)


# --------------------------------------------------------------------------------------------
# numpy forwards and backward helpers
# --------------------------------------------------------------------------------------------


def _select(a: Any, dim: int, index: int, shape: Any = None) -> Any:
    return a[(slice(None),) * dim + (index, Ellipsis)]  # a view, even when 0-d


def _slice_index(dim: int, start: int, stop: int, step: int) -> tuple:
    return (slice(None),) * dim + (slice(start, stop, step),)


def _slice(a: Any, dim: int, start: int, stop: int, step: int, shape: Any = None) -> Any:
    return a[_slice_index(dim, start, stop, step)]


def _unbind(a: Any, dim: int = 0) -> tuple:
    lead = (slice(None),) * dim
    return tuple(a[lead + (i, Ellipsis)] for i in range(a.shape[dim]))


def _split(a: Any, dim: int, sizes: tuple) -> tuple:
    bounds = np.cumsum((0,) + sizes)
    return tuple(_slice(a, dim, int(s), int(e), 1) for s, e in zip(bounds[:-1], bounds[1:]))


def _embed(g: Any, shape: tuple, index: tuple) -> np.ndarray:
    """Zeros of `shape` with `g` written at a basic `index` (select/slice backward)."""
    out = np.zeros(shape, dtype=np.asarray(g).dtype)
    out[index] = g
    return out


def _select_any(B: Any, g: Any, dim: int, i: int) -> Any:
    return run(B, SELECT, g, dim=dim, index=i, shape=tuple(g.shape))


def _slice_grad(B: Any, g: Any, dim: int, start: int, stop: int, step: int, shape: tuple) -> Any:
    return run(B, SLICE_BACKWARD, g, dim=dim, start=start, stop=stop, step=step, shape=shape)


def _slice_any(B: Any, g: Any, dim: int, start: int, stop: int) -> Any:
    return run(B, SLICE, g, dim=dim, start=start, stop=stop, step=1, shape=tuple(g.shape))


def _concat_grads(B: Any, grads: list, dim: int) -> Any:
    return run(B, CAT, *grads, dim=dim, shapes=tuple(tuple(g.shape) for g in grads))


def _cat_grad(B: Any, g: Any, i: int, dim: int, shapes: tuple) -> Any:
    shape = shapes[i]
    if shape == (0,):  # legacy empty input, skipped by cat
        return B.zeros(shape, B.array_of(g).dtype)
    start = sum(s[dim] for s in shapes[:i] if s != (0,))
    return _slice_any(B, g, dim, start, start + shape[dim])


def _repeat_forward(a: Any, repeats: tuple) -> np.ndarray:
    padded = (1,) * (len(repeats) - a.ndim) + a.shape
    return np.tile(np.reshape(a, padded), repeats)


def _repeat_grad(B: Any, g: Any, repeats: tuple, shape: tuple) -> Any:
    padded = (1,) * (len(repeats) - len(shape)) + tuple(shape)
    interleaved = tuple(x for pair in zip(repeats, padded) for x in pair)
    summed = B.sum_dims(B.reshape(g, interleaved), tuple(range(0, 2 * len(padded), 2)), False)
    return B.reshape(summed, shape)


def _flip_any(B: Any, g: Any, dims: tuple) -> Any:
    return run(B, FLIP, g, dims=dims)


def _inverse_permute(B: Any, g: Any, dims: tuple) -> Any:
    inverse = tuple(int(i) for i in np.argsort(dims))
    return run(B, PERMUTE, g, dims=inverse)


def _view_forward(a: Any, shape: tuple, source: tuple) -> Any:
    try:
        return np.reshape(a, shape, copy=False)
    except ValueError:
        raise RuntimeError(VIEW_STRIDE_MESSAGE) from None


def _can_view(a: Any, shape: tuple) -> bool:
    try:
        np.reshape(a, shape, copy=False)
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------------

T = defop(
    "t", "TBackward0", lambda a: a.T, lambda B, g: B.transpose(g), rules=("transpose",), view=True
)
TRANSPOSE = defop(
    "transpose",
    "TransposeBackward0",
    lambda a, dim0, dim1: np.swapaxes(a, dim0, dim1),
    lambda B, g, dim0, dim1: B.transpose(g, dim0, dim1),
    rules=("transpose",),
    view=True,
)
PERMUTE = defop(
    "permute",
    "PermuteBackward0",
    lambda a, dims: np.transpose(a, dims),
    lambda B, g, dims: _inverse_permute(B, g, dims),
    rules=("permute back",),
    view=True,
)
VIEW = defop(
    "view",
    "ViewBackward0",
    _view_forward,
    lambda B, g, shape, source: B.reshape(g, source),
    rules=("reshape back",),
    view=True,
)
UNSAFE_VIEW = defop(
    "_unsafe_view",
    "UnsafeViewBackward0",
    lambda a, shape, source: np.reshape(a, shape),
    lambda B, g, shape, source: B.reshape(g, source),
    rules=("reshape back",),
)
ALIAS = defop("alias", "AliasBackward0", lambda a: a[...], lambda B, g: g, rules=("1",), view=True)
UNSQUEEZE = defop(
    "unsqueeze",
    "UnsqueezeBackward0",
    lambda a, dim: np.expand_dims(a, dim),
    lambda B, g, dim: g.squeeze(dim),  # arrays and Tensors alike (SqueezeBackward1)
    rules=("squeeze back",),
    view=True,
)
SQUEEZE = defop(
    "squeeze",
    "SqueezeBackward0",
    lambda a, source: np.reshape(a, [s for s in a.shape if s != 1]),
    lambda B, g, source: B.reshape(g, source),
    rules=("unsqueeze back",),
    view=True,
)
SQUEEZE_DIM = defop(
    "squeeze_dim",
    "SqueezeBackward1",
    lambda a, dim, source: (
        a.reshape(source[:dim] + source[dim + 1 :]) if source[dim : dim + 1] == (1,) else a[...]
    ),
    lambda B, g, dim, source: B.reshape(g, source),
    rules=("unsqueeze back",),
    view=True,
    aten="squeeze",
)


def _squeeze_listed(a: Any, dims: tuple, source: tuple) -> Any:
    return np.squeeze(a, tuple(d for d in dims if source[d : d + 1] == (1,)))


def _unsqueeze_back(B: Any, g: Any, dims: tuple, source: tuple) -> Any:
    return B.reshape(g, source)


SQUEEZE_DIMS = defop(
    "squeeze_dims",
    "SqueezeBackward2",
    _squeeze_listed,
    _unsqueeze_back,
    rules=("unsqueeze back",),
    view=True,
    aten="squeeze",
)
# the in-place `squeeze_(dim)` matmul applies to its own fresh result (vector @ matrix)
SQUEEZE_DIM_ = defop(
    "squeeze_dim_",
    "SqueezeBackward4",
    _squeeze_listed,
    _unsqueeze_back,
    rules=("unsqueeze back",),
    view=True,
    aten="squeeze_",
)
EXPAND = defop(
    "expand",
    "ExpandBackward0",
    lambda a, shape: np.broadcast_to(a, shape),
    lambda B, g, shape: g,
    rules=("sum over the expanded dimensions",),
    view=True,
)


def _clone_forward(a: Any, memory_format: str = "preserve") -> np.ndarray:
    """A copy; `Tensor.contiguous` is PyTorch's `clone(memory_format=contiguous_format)`."""
    return np.array(a, order="C" if memory_format == "contiguous" else "K", copy=True)


CLONE = defop("clone", "CloneBackward0", _clone_forward, lambda B, g, **_: g, rules=("1",))
_CONTIGUOUS = {"memory_format": "contiguous"}
SELECT = defop(
    "select",
    "SelectBackward0",
    _select,
    lambda B, g, dim, index, shape: run(B, SELECT_BACKWARD, g, shape=shape, dim=dim, index=index),
    rules=("1 at the selected index",),
    view=True,
)
SLICE = defop(
    "slice",
    "SliceBackward0",
    _slice,
    lambda B, g, dim, start, stop, step, shape: _slice_grad(B, g, dim, start, stop, step, shape),
    rules=("1 at the sliced positions",),
    view=True,
)
INDEX = defop(
    "index",
    "IndexBackward0",
    lambda a, index, shape: a[index],
    lambda B, g, index, shape: index_backward_any(B, g, shape, index),
    rules=("1 at the indexed positions (summed where repeated)",),
)
UNBIND = defop(
    "unbind",
    "UnbindBackward0",
    _unbind,
    lambda B, grads, dim=0: run(B, STACK, *grads, dim=dim),
    n_outputs=-1,
    rules=("1 at each row",),
    view=True,
)
SPLIT = defop(
    "split",
    "SplitBackward0",
    _split,
    lambda B, grads, dim, sizes: _concat_grads(B, grads, dim),
    n_outputs=-1,
    rules=("1 at each piece",),
    view=True,
)
SPLIT_WITH_SIZES = defop(
    "split_with_sizes",
    "SplitWithSizesBackward0",
    _split,
    lambda B, grads, dim, sizes: _concat_grads(B, grads, dim),
    n_outputs=-1,
    rules=("1 at each piece",),
    view=True,
)
STACK = defop(
    "stack",
    "StackBackward0",
    lambda *arrays, dim=0: np.stack(arrays, axis=dim),
    lambda B, g, i, dim=0: _select_any(B, g, dim, i),
    variadic=True,
    rules=("1 at its slice",),
    out=OutRule("cat", no_overlap=True),
)
CAT = defop(
    "cat",
    "CatBackward0",
    lambda *arrays, dim, shapes: np.concatenate([a for a in arrays if a.shape != (0,)], axis=dim),
    lambda B, g, i, dim, shapes: _cat_grad(B, g, i, dim, shapes),
    variadic=True,
    rules=("1 at its slice",),
    out=OutRule("cat", no_overlap=True),
)
REPEAT = defop(
    "repeat",
    "RepeatBackward0",
    lambda a, repeats, shape: _repeat_forward(a, repeats),
    lambda B, g, repeats, shape: _repeat_grad(B, g, repeats, shape),
    rules=("sum over the repeated copies",),
)
FLIP = defop(
    "flip",
    "FlipBackward0",
    lambda a, dims: np.flip(a, dims).copy(),
    lambda B, g, dims: _flip_any(B, g, dims),
    rules=("flip back",),
)
SELECT_BACKWARD = defop(
    "select_backward",
    "SelectBackwardBackward0",
    lambda g, shape, dim, index: _embed(g, shape, (slice(None),) * dim + (index,)),
    lambda B, g, shape, dim, index: _select_any(B, g, dim, index),
    rules=("select",),
)
SLICE_BACKWARD = defop(
    "slice_backward",
    "SliceBackwardBackward0",
    lambda g, dim, start, stop, step, shape: _embed(g, shape, _slice_index(dim, start, stop, step)),
    lambda B, g, dim, start, stop, step, shape: run(
        B, SLICE, g, dim=dim, start=start, stop=stop, step=step, shape=tuple(g.shape)
    ),
    rules=("slice",),
)


def index_backward_any(B: Any, g: Any, shape: tuple, index: Any) -> Any:
    """Zeros of `shape` with `g` added at `index` (IndexPutImplBackward0 under create_graph)."""
    zeros = B.zeros(shape, getattr(g, "_data", g).dtype)
    return run(B, INDEX_BACKWARD, zeros, g, index=index)


def _index_backward_np(zeros: Any, g: Any, index: Any) -> Any:
    out = np.array(zeros, dtype=g.dtype)
    np.add.at(out, index, g)
    return out


INDEX_BACKWARD = defop(
    "index_backward",
    "IndexPutImplBackward0",
    _index_backward_np,
    lambda B, g, index: g,
    lambda B, g, index: run(B, INDEX, g, index=index, shape=tuple(g.shape)),
    arg_names=("self", "values"),
    rules=("1", "index"),
)


# --------------------------------------------------------------------------------------------
# Functions
# --------------------------------------------------------------------------------------------


def shape_arg(args: tuple) -> tuple:
    """`f(2, 3)`, `f((2, 3))`, `f([2, 3])` and `f(torch.Size([2, 3]))` all mean shape (2, 3)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    out = []
    for a in args:
        if isinstance(a, Tensor):
            a = a.__index__()
        if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
            raise TypeError(f"an integer is required for each dimension (got {type(a).__name__})")
        out.append(int(a))
    return tuple(out)


def _infer_shape(shape: tuple, numel: int) -> tuple:
    shape = tuple(int(s) for s in shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            if s < 0:
                raise RuntimeError(f"invalid shape dimension {s}")
            known *= s
    if -1 in shape:
        if known == 0:
            if numel == 0:
                raise RuntimeError(
                    f"cannot reshape tensor of 0 elements into shape {_dims_text(shape)} because "
                    "the unspecified dimension size -1 can be any value and is ambiguous"
                )
            raise RuntimeError(f"shape '{_dims_text(shape)}' is invalid for input of size {numel}")
        if numel % known:
            raise RuntimeError(f"shape '{_dims_text(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise RuntimeError(f"shape '{_dims_text(shape)}' is invalid for input of size {numel}")
    return shape


@varargs_keyword("size", fixed=1)
def view(input: Tensor, *shape: Any) -> Tensor:
    """A view with a new shape; an error when the strides do not allow one."""
    target = _infer_shape(shape_arg(shape), input._data.size)
    return apply_view(VIEW, input, {"shape": target, "source": input._data.shape})


@varargs_keyword("shape", fixed=1)
def reshape(input: Tensor, *shape: Any) -> Tensor:
    """A view when the strides allow one, else a contiguous copy (UnsafeViewBackward0)."""
    target = _infer_shape(shape_arg(shape), input._data.size)
    source = input._data.shape
    if _can_view(input._array(), target):
        return apply_view(VIEW, input, {"shape": target, "source": source})
    copy = apply_op(CLONE, (input,), _CONTIGUOUS)
    return apply_op(UNSAFE_VIEW, (copy,), {"shape": target, "source": source})


def view_as(input: Tensor, other: Tensor) -> Tensor:
    return view(input, other._data.shape)


def reshape_as(input: Tensor, other: Tensor) -> Tensor:
    return reshape(input, other._data.shape)


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    shape = input._data.shape
    if not shape:
        return reshape(input, 1)
    s, e = _norm_dim(start_dim, len(shape)), _norm_dim(end_dim, len(shape))
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    return reshape(input, shape[:s] + (math.prod(shape[s : e + 1]),) + shape[e + 1 :])


def contiguous(input: Tensor, memory_format: Any = None) -> Tensor:
    data = input._data
    if not isinstance(data, np.ndarray) or data.flags.c_contiguous:
        return input
    return apply_op(CLONE, (input,), _CONTIGUOUS)


def clone(input: Tensor, *, memory_format: Any = None) -> Tensor:
    return apply_op(CLONE, (input,))


def t(input: Tensor) -> Tensor:
    if input.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.ndim}D")
    return apply_view(T, input)


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    nd = input.ndim
    params = {"dim0": _norm_dim(dim0, nd), "dim1": _norm_dim(dim1, nd)}
    return apply_view(TRANSPOSE, input, params)


swapaxes = swapdims = transpose


@varargs_keyword("dims", fixed=1)
def permute(input: Tensor, *dims: Any) -> Tensor:
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    nd = input.ndim
    if len(dims) != nd:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {nd} is not equal to "
            f"len(dims) = {len(dims)}"
        )
    dims = tuple(_norm_dim(d, nd) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return apply_view(PERMUTE, input, {"dims": dims})


def movedim(input: Tensor, source: Any, destination: Any) -> Tensor:
    """Moves the `source` dims to the `destination` positions, the others keep their order:
    a permute (PermuteBackward0), as in PyTorch."""
    nd = input.ndim
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({src} dims) should contain "
            f"the same number of dims as destination ({dst} dims)"
        )
    src = [_norm_dim(d, nd) for d in src]
    dst = [_norm_dim(d, nd) for d in dst]
    for name, dims in (("source", src), ("destination", dst)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({dims})")
    order = [d for d in range(nd) if d not in src]
    for to, frm in sorted(zip(dst, src)):
        order.insert(to, frm)
    return permute(input, tuple(order))


moveaxis = movedim


def _permute_all(input: Tensor) -> Tensor:
    return permute(input, tuple(range(input.ndim - 1, -1, -1)))


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    return apply_view(UNSQUEEZE, input, {"dim": _norm_dim(dim, input.ndim + 1)})


def squeeze(input: Tensor, dim: Any = None) -> Tensor:
    source = input._data.shape
    if dim is None:
        return apply_view(SQUEEZE, input, {"source": source})
    if isinstance(dim, (tuple, list)):
        dims = tuple(_norm_dim(d, input.ndim) for d in dim)
        return apply_view(SQUEEZE_DIMS, input, {"dims": dims, "source": source})
    return apply_view(SQUEEZE_DIM, input, {"dim": _norm_dim(dim, input.ndim), "source": source})


def squeeze_dims(input: Tensor, dims: tuple) -> Tensor:
    """matmul's in-place `squeeze_(dim)` of its own result (SqueezeBackward4); `x.squeeze(dims)`
    is `squeeze`."""
    nd = input.ndim
    dims = tuple(_norm_dim(d, nd) for d in dims)
    return apply_view(SQUEEZE_DIM_, input, {"dims": dims, "source": input._data.shape})


@varargs_keyword("size", fixed=1)
def expand(input: Tensor, *sizes: Any) -> Tensor:
    target = list(shape_arg(sizes))
    shape = input._data.shape
    if len(target) < len(shape):
        raise RuntimeError(
            f"expand(torch.FloatTensor{{{_dims_text(shape)}}}, size={_dims_text(target)}): the "
            f"number of sizes provided ({len(target)}) must be greater or equal to the number of "
            f"dimensions in the tensor ({len(shape)})"
        )
    lead = len(target) - len(shape)
    for i, s in reversed(list(enumerate(shape))):
        if target[lead + i] == -1:
            target[lead + i] = s
        elif s != 1 and target[lead + i] != s:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[lead + i]}) must match the existing size "
                f"({s}) at non-singleton dimension {lead + i}.  Target sizes: "
                f"{_dims_text(target)}.  Tensor sizes: {_dims_text(shape)}"
            )
    return apply_view(EXPAND, input, {"shape": tuple(target)})


def _shape_of(shape: Any) -> tuple:
    """One argument of `broadcast_shapes`: an int, or a sequence of ints."""
    if isinstance(shape, int):
        shape = (shape,)
    elif not isinstance(shape, (tuple, list)):
        raise RuntimeError(
            "Input shapes should be of type ints, a tuple of ints, or a list of ints, got "
            f"{shape!r}"
        )
    for i, size in enumerate(shape):
        if not isinstance(size, int):
            raise TypeError(
                f"torch.Size() takes an iterable of 'int' (item {i} is '{type(size).__name__}')"
            )
    return tuple(int(size) for size in shape)


def broadcast_shapes(*shapes: Any) -> Size:
    """The shape tensors of these shapes broadcast to, without making any tensor."""
    shapes = [_shape_of(shape) for shape in shapes if shape is not None]
    result = [1] * max((len(shape) for shape in shapes), default=0)
    for k, shape in enumerate(shapes):
        for i in range(-1, -len(shape) - 1, -1):
            size = shape[i]
            if size == 1 or size == result[i]:
                continue
            if result[i] != 1:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {size} at {i}! Mismatching "
                    f"argument at index {k} had {shape}; but expected shape should be "
                    f"broadcastable to {result}"
                )
            if size < 0:
                raise ValueError("Attempting to broadcast a dimension with negative length!")
            result[i] = size
    return Size(result)


def broadcast_tensors(*tensors: Any) -> tuple:
    """The tensors expanded to their common shape (ExpandBackward0 views); a tensor that already
    has it is returned as it is."""
    shape: tuple = ()
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(
                f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}"
            )
        try:
            shape = np.broadcast_shapes(shape, t._data.shape)
        except ValueError:
            raise broadcast_error([shape, t._data.shape]) from None
    return tuple(t if t._data.shape == shape else expand(t, shape) for t in tensors)


def expand_as(input: Tensor, other: Tensor) -> Tensor:
    return expand(input, other._data.shape)


def select(input: Tensor, dim: int, index: int) -> Tensor:
    nd = input.ndim
    if nd == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _norm_dim(dim, nd)
    shape = input._data.shape
    size = shape[dim]
    index = int(index)
    if not -size <= index < size:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size {_dims_text(shape)} at "
            f"dimension {dim}"
        )
    return apply_view(SELECT, input, {"dim": dim, "index": index % size, "shape": shape})


def slice_dim(input: Tensor, dim: int, start: int, stop: int, step: int = 1) -> Tensor:
    """`input[..., start:stop:step]` along `dim` (bounds already clamped): SliceBackward0."""
    params = {"dim": dim, "start": start, "stop": stop, "step": step, "shape": input._data.shape}
    return apply_view(SLICE, input, params)


def narrow(input: Tensor, dim: int, start: Any, length: int) -> Tensor:
    if input.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = _norm_dim(dim, input.ndim)
    size = input._data.shape[dim]
    start, length = int(start), int(length)
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if not -size <= start <= size:
        raise IndexError(
            f"start out of range (expected to be in range of [{-size}, {size}], but got {start})"
        )
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return slice_dim(input, dim, start, start + length)


def unbind(input: Tensor, dim: int = 0) -> tuple:
    if input.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    return apply_view(UNBIND, input, {"dim": _norm_dim(dim, input.ndim)})


def split(tensor: Tensor, split_size_or_sections: Any, dim: int = 0) -> tuple:
    if tensor.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    dim = _norm_dim(dim, tensor.ndim)
    size = tensor._data.shape[dim]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = tuple(int(s) for s in split_size_or_sections)
        if any(s < 0 for s in sizes) or sum(sizes) != size:
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's "
                f"size at dimension {dim}), but got split_sizes={_dims_text(sizes)}"
            )
        return apply_view(SPLIT_WITH_SIZES, tensor, {"dim": dim, "sizes": sizes})
    step = int(split_size_or_sections)
    if step < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={step}")
    if step == 0:
        if size != 0:
            raise RuntimeError(
                f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}"
            )
        sizes = (0,)
    else:
        sizes = tuple(min(step, size - s) for s in range(0, size, step)) or (0,)
    return apply_view(SPLIT, tensor, {"dim": dim, "sizes": sizes})


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple:
    if input.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    size = input._data.shape[_norm_dim(dim, input.ndim)]
    return split(input, -(-size // chunks) if size else 0, dim)


def _tensor_list(tensors: Any, name: str) -> list:
    if isinstance(tensors, Tensor):
        raise TypeError(
            f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"
        )
    return list(tensors)


def stack(tensors: Any, dim: int = 0, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(stack, out, tensors, dim)
    tensors = _tensor_list(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0]._data.shape
    for i, t_ in enumerate(tensors):
        if t_._data.shape != first:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {_dims_text(first)} at "
                f"entry 0 and {_dims_text(t_._data.shape)} at entry {i}"
            )
    return apply_op(STACK, tuple(tensors), {"dim": _norm_dim(dim, len(first) + 1)})


def cat(tensors: Any, dim: int = 0, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(cat, out, tensors, dim)
    tensors = _tensor_list(tensors, "cat")
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t_ in enumerate(tensors):
        if t_.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    shapes = tuple(t_._data.shape for t_ in tensors)
    kept = [(i, s) for i, s in enumerate(shapes) if s != (0,)]
    ref_i, ref = kept[0] if kept else (0, shapes[0])
    dim = _norm_dim(dim, len(ref))
    for i, s in kept:
        if len(s) != len(ref):
            raise RuntimeError(
                f"Tensors must have same number of dimensions: got {len(ref)} and {len(s)}"
            )
        for d in range(len(ref)):
            if d != dim and s[d] != ref[d]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {dim}. Expected size "
                    f"{ref[d]} but got size {s[d]} for tensor number {i} in the list."
                )
    if not kept:
        return apply_op(CLONE, (tensors[0],))
    return apply_op(CAT, tuple(tensors), {"dim": dim, "shapes": shapes})


concat = concatenate = cat


@varargs_keyword("repeats", fixed=1)
def repeat(input: Tensor, *sizes: Any) -> Tensor:
    repeats = shape_arg(sizes)
    shape = input._data.shape
    if len(repeats) < len(shape):
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of "
            "tensor"
        )
    padded = (1,) * (len(repeats) - len(shape)) + shape
    out_shape = [r * s for r, s in zip(repeats, padded)]
    if any(r < 0 for r in repeats):
        raise RuntimeError(
            f"Trying to create tensor with negative dimension {min(out_shape)}: "
            f"{_dims_text(out_shape)}"
        )
    return apply_op(REPEAT, (input,), {"repeats": repeats, "shape": shape})


def flip(input: Tensor, *dims: Any) -> Tensor:
    if not dims:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    dims = shape_arg(dims)
    nd = input.ndim
    normed = tuple(_norm_dim(d, nd) for d in dims)
    for d in normed:
        if normed.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return apply_op(FLIP, (input,), {"dims": normed})


def select_backward(g: Tensor, shape: tuple, dim: int, index: int) -> Tensor:
    return apply_op(SELECT_BACKWARD, (g,), {"shape": shape, "dim": dim, "index": index})


def index_backward(g: Tensor, shape: tuple, index: Any) -> Tensor:
    """PyTorch's `_index_put_impl_(zeros, index, g, accumulate=True)`: IndexPutImplBackward0,
    whose first edge (the zeros) is empty."""
    zeros = _wrap(np.zeros(shape, g._data.dtype))
    return apply_op(INDEX_BACKWARD, (zeros, g), {"index": index})


def index_plain(input: Tensor, index: tuple) -> Tensor:
    """Advanced indexing with a ready numpy index (IndexBackward0)."""
    return apply_op(INDEX, (input,), {"index": index, "shape": input._data.shape})


tensor_methods(
    "ops.views",
    {
        "swapaxes": transpose,
        "swapdims": transpose,
        "movedim": movedim,
        "moveaxis": movedim,
        "reshape": reshape,
        "view_as": view_as,
        "reshape_as": reshape_as,
        "flatten": flatten,
        "expand_as": expand_as,
        "contiguous": contiguous,
        "narrow": narrow,
        "chunk": chunk,
        "_index_plain": index_plain,
        "T": property(lambda self: self if self.ndim < 2 else _permute_all(self)),
    },
)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(CLONE, clone, method=True)
declare_forms(EXPAND, expand, method=True)
declare_forms(FLIP, flip, method=True)
declare_forms(PERMUTE, permute, method=True)
declare_forms(REPEAT, repeat, method=True)
declare_forms(SELECT, select, method=True)
declare_forms(SPLIT, split, method=True)
declare_forms(SQUEEZE, squeeze, method=True)
declare_forms(T, t, method=True)
declare_forms(TRANSPOSE, transpose, method=True)
declare_forms(UNBIND, unbind, method=True)
declare_forms(UNSQUEEZE, unsqueeze, method=True)
declare_forms(VIEW, view, method=True)
