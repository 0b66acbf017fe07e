"""The `torch.nn.functional` functions that are ops of their own or compose ops: hardtanh/relu6, softmin, normalize, cosine_similarity, kl_div,
one_hot, pad, and the re-exports of `embedding`, `layer_norm` (ops/nn_layers.py) and
`batch_norm` (ops/batch_norm.py).

Where PyTorch has a node of its own (HardtanhBackward0, XlogyBackward0, ConstantPadNdBackward0,
ReflectionPad1DBackward0, ...) the op is an entry here; where it composes other ops (normalize,
cosine_similarity, softmin, kl_div) the same ops are composed, so the graphs print the same.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core import dtypes, limits, script_data
from ..core.apply import _type_word, apply_inplace, apply_op, as_default_float
from ..core.grad_mode import no_grad
from ..core.inference import mark_new
from ..core.optable import defop
from ..core.tensor import Tensor, _dims_text, _wrap, broadcast_shape
from ..ops import arithmetic, indexing, unary
from ..ops.batch_norm import batch_norm
from ..ops.formula_ops import run
from ..ops.nn_layers import embedding, layer_norm
from ._reduction import legacy_reduction

__all__ = [
    "batch_norm",
    "cosine_similarity",
    "embedding",
    "hardtanh",
    "kl_div",
    "layer_norm",
    "normalize",
    "one_hot",
    "pad",
    "relu6",
    "softmin",
]

# --------------------------------------------------------------------------------------------
# hardtanh, relu6
# --------------------------------------------------------------------------------------------


def _hardtanh_backward(g: Any, x: Any, min_val: float, max_val: float) -> Any:
    inside = (x > min_val) & (x < max_val)
    return np.where(inside, g, np.zeros((), np.asarray(g).dtype))


HARDTANH_BACKWARD = defop(
    "hardtanh_backward",
    "HardtanhBackwardBackward0",
    _hardtanh_backward,
    lambda B, gg, grad_output, self, **params: run(B, HARDTANH_BACKWARD, gg, self, **params),
    lambda B, gg, grad_output, self, **params: B.zeros_like(gg),
    arg_names=("grad_output", "self"),
    rules=("1 inside (min_val, max_val), else 0", "0"),
)
HARDTANH = defop(
    "hardtanh",
    "HardtanhBackward0",
    lambda a, min_val, max_val: np.asarray(np.clip(a, min_val, max_val), a.dtype),
    lambda B, g, self, **params: run(B, HARDTANH_BACKWARD, g, self, **params),
    rules=("1 inside (min_val, max_val), else 0",),
)


def hardtanh(
    input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False
) -> Tensor:
    """`input` clamped to [min_val, max_val] (HardtanhBackward0)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    params = {"min_val": min_val, "max_val": max_val}
    if inplace:  # (HardtanhBackward0 too: PyTorch's hardtanh_ keeps the name)
        return apply_inplace(HARDTANH, input, (), params)
    return apply_op(HARDTANH, (input,), params)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """`hardtanh(input, 0, 6)`, as PyTorch computes it."""
    return hardtanh(input, 0.0, 6.0, inplace)


# --------------------------------------------------------------------------------------------
# softmin, normalize, cosine_similarity
# --------------------------------------------------------------------------------------------


def softmin(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    """`(-input).softmax(dim)`: SoftmaxBackward0 over NegBackward0."""
    if dim is None:
        warnings.warn(
            "Implicit dimension choice for softmin has been deprecated. Change the call to "
            "include dim=X as an argument.",
            UserWarning,
            stacklevel=2,
        )
        dim = 0 if input.ndim in (0, 1, 3) else 1
    return (-input).softmax(dim, dtype=dtype)


def normalize(
    input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Any = None
) -> Tensor:
    """`input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)`."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


def _clamp_min_without_graph(x: Tensor, eps: float) -> None:
    """`x.clamp_min_(eps)` under no_grad: the values change, the graph does not."""
    with no_grad():
        array = x._array()
        np.maximum(array, np.asarray(script_data.number(eps, "eps"), array.dtype), out=array)
        x._bump_version()


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """ATen's composition: each input over its (cloned, eps-clamped) 2-norm, then
    `(x1 / n1 * (x2 / n2)).sum(dim)`."""
    common = np.result_type(x1._data.dtype, x2._data.dtype)
    if common.kind != "f":
        raise RuntimeError(
            "expected common dtype to be floating point, yet common dtype is "
            + dtypes.scalar_name(common)
        )
    if x1._data.shape != x2._data.shape:
        shape = broadcast_shape(x1._data.shape, x2._data.shape)
        x1, x2 = arithmetic.expand(x1, shape), arithmetic.expand(x2, shape)
    ndim = max(x1.ndim, 1)
    if not -ndim <= dim < ndim:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got "
            f"{dim})"
        )
    n1 = x1.norm(2, dim, keepdim=True).clone()
    n2 = x2.norm(2, dim, keepdim=True).clone()
    _clamp_min_without_graph(n1, eps)
    _clamp_min_without_graph(n2, eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


# --------------------------------------------------------------------------------------------
# kl_div (xlogy)
# --------------------------------------------------------------------------------------------


def _xlogy(x: Any, y: Any) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(x == 0, 0, x * np.log(y))
    out = np.where(np.isnan(y), np.nan, out)
    return np.asarray(out, np.result_type(x, y))


def _xlogy_self_grad(B: Any, g: Any, x: Any, y: Any) -> Any:
    """PyTorch's `xlogy(grad, other).masked_fill((self == 0) & (other <= 0), 0)`."""
    out = run(B, XLOGY, g, y)
    mask = np.asarray((B.array_of(x) == 0) & (B.array_of(y) <= 0))
    return run(B, indexing.MASKED_FILL, out, mask=mask, value=0.0)


XLOGY = defop(
    "xlogy",
    "XlogyBackward0",
    _xlogy,
    _xlogy_self_grad,
    lambda B, g, x, y: g * x / y,
    saves=(0, 1),
    rules=("log(other) (0 where self == 0 and other <= 0)", "self / other"),
)


XLOGY_SCALAR_SELF = defop(
    "xlogy_scalar_self", "XlogyBackward1", lambda y, self: _xlogy(np.asarray(self, y.dtype), y),
    lambda B, g, other, self: g * self / other,
    arg_names=("other",), rules=("self / other",),
)  # fmt: skip
XLOGY_SCALAR_OTHER = defop(
    "xlogy_scalar_other", "XlogyBackward2", lambda x, other: _xlogy(x, np.asarray(other, x.dtype)),
    lambda B, g, self, other: _xlogy_self_grad(
        B, g, self, B.const(np.asarray(other, B.array_of(g).dtype))
    ),
    rules=("log(other) (0 where self == 0 and other <= 0)",),
)  # fmt: skip


def xlogy_(self: Tensor, other: Any) -> Tensor:
    """`Tensor.xlogy_` (not in this module's `__all__`: nn.functional has no `xlogy_`)."""
    if self._data.dtype.kind in "biu":  # (xlogy's result is floating)
        raise RuntimeError(
            "result type Float can't be cast to the desired output type "
            f"{_type_word(self._data.dtype)}"
        )
    if isinstance(other, Tensor):
        return apply_inplace(XLOGY, self, (other,))
    return apply_inplace(XLOGY_SCALAR_OTHER, self, (), {"other": other})


def xlogy(input: Any, other: Any) -> Tensor:
    """`input · log(other)`, 0 where input is 0: XlogyBackward0 for two tensors, XlogyBackward1
    for a number `input`, XlogyBackward2 for a number `other`; integers give the default float
    dtype."""
    if not isinstance(input, Tensor):
        return apply_op(XLOGY_SCALAR_SELF, (as_default_float(other),), {"self": input})
    if not isinstance(other, Tensor):
        return apply_op(XLOGY_SCALAR_OTHER, (as_default_float(input),), {"other": other})
    if input._data.dtype.kind in "biu" and other._data.dtype.kind in "biu":
        input = as_default_float(input)
    return apply_op(XLOGY, (input, other))


def kl_div(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    """`xlogy(t, t) - t · input` (or `exp(t) · (t - input)` with log_target), reduced;
    'batchmean' is the sum over the batch size (DivBackward0)."""
    if size_average is not None or reduce is not None:
        kind = legacy_reduction(size_average, reduce, reduction)
    else:
        if reduction == "mean":
            warnings.warn(
                "reduction: 'mean' divides the total loss by both the batch size and the "
                "support size.'batchmean' divides only by the batch size, and aligns with the KL "
                "div math definition.'mean' will be changed to behave the same as 'batchmean' in "
                "the next major release.",
                UserWarning,
                stacklevel=2,
            )
        kind = "sum" if reduction == "batchmean" else reduction
        if kind not in ("none", "mean", "sum"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
    if log_target:
        loss = unary.exp(target) * (target - input)
    else:
        loss = xlogy(target, target) - target * input
    if kind == "mean":
        loss = loss.mean()
    elif kind == "sum":
        loss = loss.sum()
    if reduction == "batchmean" and input.ndim != 0:
        loss = loss / input.shape[0]
    return loss


# --------------------------------------------------------------------------------------------
# one_hot
# --------------------------------------------------------------------------------------------


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """int64 indicators of shape `tensor.shape + (num_classes,)`; -1 infers max + 1."""
    if tensor._data.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    values = np.asarray(tensor._data)
    if values.size == 0 and num_classes == -1:
        raise RuntimeError("Can not infer total number of classes from empty tensor.")
    if values.size and values.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(values.max()) + 1
    elif values.size and values.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    limits.check_shape(values.shape + (int(num_classes),))
    out = np.zeros(values.shape + (int(num_classes),), np.int64)
    if values.size:
        np.put_along_axis(out, values[..., None], 1, axis=-1)
    return mark_new(_wrap(out))


# --------------------------------------------------------------------------------------------
# pad: constant (any number of dims), reflect and replicate
# --------------------------------------------------------------------------------------------


def _constant_pad(a: np.ndarray, pad: tuple, value: float) -> np.ndarray:
    """`pad` lists (before, after) from the last dim backwards; negative values crop."""
    out = a
    widths = [(0, 0)] * a.ndim
    for k in range(len(pad) // 2):
        d = a.ndim - 1 - k
        before, after = pad[2 * k], pad[2 * k + 1]
        size = out.shape[d]
        index = [slice(None)] * a.ndim
        index[d] = slice(max(-before, 0), size - max(-after, 0))
        out = out[tuple(index)]
        widths[d] = (max(before, 0), max(after, 0))
    fill = np.asarray(value).astype(a.dtype)
    return np.pad(out, widths, mode="constant", constant_values=fill)


CONSTANT_PAD_ND = defop(
    "constant_pad_nd",
    "ConstantPadNdBackward0",
    lambda a, pad, value: _constant_pad(a, pad, value),
    lambda B, g, pad, value: run(B, CONSTANT_PAD_ND, g, pad=tuple(-p for p in pad), value=0),
    promotes=False,
    rules=("1 inside the input, 0 on the padding (the gradient cropped)",),
)


def _source_index(size: int, before: int, after: int, mode: str) -> np.ndarray:
    """For each output position along one dim, the input position it copies."""
    return np.pad(np.arange(size), (before, after), mode="reflect" if mode == "reflect" else "edge")


def _index_pad(a: np.ndarray, pad: tuple, mode: str) -> np.ndarray:
    out = a
    for k in range(len(pad) // 2):
        d = a.ndim - 1 - k
        out = np.take(out, _source_index(a.shape[d], pad[2 * k], pad[2 * k + 1], mode), axis=d)
    return out


def _index_pad_backward(g: np.ndarray, in_shape: tuple, pad: tuple, mode: str) -> np.ndarray:
    """Each output position's gradient added to the input position it copies, in the order of
    the output positions (PyTorch's loop: the float32 sums round the same way)."""
    g = np.asarray(g)
    dims = len(pad) // 2
    lead = len(in_shape) - dims
    sources = [
        _source_index(in_shape[lead + j], pad[2 * k], pad[2 * k + 1], mode)
        for j, k in enumerate(reversed(range(dims)))
    ]
    inner = tuple(in_shape[lead:])
    flat = np.ravel_multi_index(np.ix_(*sources), inner).reshape(-1)
    rows = int(np.prod(in_shape[:lead], dtype=np.int64))
    acc = np.zeros((rows, int(np.prod(inner, dtype=np.int64))), g.dtype)
    moved = g.reshape(rows, -1)
    for r in range(rows):
        np.add.at(acc[r], flat, moved[r])
    return acc.reshape(in_shape)


def _pad_ops(mode: str, dims: int) -> tuple:
    kind = "Reflection" if mode == "reflect" else "Replication"
    name = f"{kind.lower()}_pad{dims}d"

    def backward_op_grad(B: Any, gg: Any, pad: tuple, mode: str) -> Any:
        return run(B, forward_op, gg, pad=pad, mode=mode)

    backward_op = defop(
        name + "_backward",
        f"{kind}Pad{dims}DBackwardBackward0",
        lambda g, x, pad, mode: _index_pad_backward(g, x.shape, pad, mode),
        backward_op_grad,
        lambda B, gg, pad, mode: None,
        promotes=False,
        arg_names=("grad_output", "self"),
        rules=("the padding of the incoming gradient", "0"),
    )

    def forward_grad(B: Any, g: Any, x: Any, pad: tuple, mode: str) -> Any:
        return run(B, backward_op, g, x, pad=pad, mode=mode)

    forward_op = defop(
        name,
        f"{kind}Pad{dims}DBackward0",
        lambda a, pad, mode: _index_pad(a, pad, mode),
        forward_grad,
        saves=(0,),
        promotes=False,
        rules=("the gradient of each padded position added to the input position it copies",),
    )
    return forward_op, backward_op


PAD_OPS = {
    (mode, dims): _pad_ops(mode, dims) for mode in ("reflect", "replicate") for dims in (1, 2, 3)
}
PAD_MODES = ("constant", "reflect", "replicate", "circular")


def pad(input: Tensor, pad: Any, mode: str = "constant", value: float | None = None) -> Tensor:
    """Pads (or, with negative sizes, crops) the last `len(pad) // 2` dims."""
    pad = tuple(int(p) for p in pad)
    if mode not in PAD_MODES:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if mode == "constant":
        if len(pad) % 2:
            raise RuntimeError("Padding length must be divisible by 2")
        if len(pad) // 2 > input.ndim:
            raise RuntimeError(
                "Padding length should be less than or equal to two times the input dimension "
                f"but got padding length {len(pad)} and input of dimension {input.ndim}"
            )
        for d in range(input.ndim - len(pad) // 2, input.ndim):
            k = input.ndim - 1 - d
            size = input.shape[d]
            for side in (pad[2 * k], pad[2 * k + 1]):
                size += min(side, 0)  # PyTorch narrows the negative sides first
                if size < 0:
                    raise RuntimeError("narrow(): length must be non-negative.")
        fill = 0.0 if value is None else value
        return apply_op(CONSTANT_PAD_ND, (input,), {"pad": pad, "value": fill})
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    dims = len(pad) // 2
    if len(pad) % 2 or dims not in (1, 2, 3) or input.ndim not in (dims + 1, dims + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.ndim}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
        )
    if mode == "circular":
        raise NotImplementedError("pad: mode='circular' is not supported")
    for k in range(dims):
        d = input.ndim - 1 - k
        size = input.shape[d]
        if mode == "reflect" and (pad[2 * k] >= size or pad[2 * k + 1] >= size):
            raise RuntimeError(
                "Argument #4: Padding size should be less than the corresponding input "
                f"dimension, but got: padding ({pad[2 * k]}, {pad[2 * k + 1]}) at dimension {d} "
                f"of input {_dims_text(tuple(input.shape))}"
            )
        if min(pad[2 * k], pad[2 * k + 1]) < 0:
            raise NotImplementedError("pad: negative sizes are only supported in constant mode")
    return apply_op(PAD_OPS[(mode, dims)][0], (input,), {"pad": pad, "mode": mode})
