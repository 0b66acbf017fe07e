"""The `torch.nn.functional` functions that are ops of their own or compose ops: hardtanh/relu6,
softmin, normalize, kl_div, one_hot, pad, and the re-exports of `embedding`, `layer_norm`
(ops/nn_layers.py), `batch_norm` (ops/batch_norm.py) and the distances (ops/distances.py).

Where PyTorch has a node of its own (HardtanhBackward0, XlogyBackward0, ConstantPadNdBackward0,
ReflectionPad1DBackward0, ...) the function calls that op's entry (declared in
ops/nn_functional_ops.py and ops/padding.py); where it composes other ops (normalize,
cosine_similarity, softmin, kl_div) the same ops are composed, so the graphs print the same.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core import limits
from ..core.apply import _type_word, apply_inplace, apply_op, as_default_float
from ..core.inference import mark_new
from ..core.tensor import Tensor, _dims_text, _wrap
from ..ops import unary
from ..ops.batch_norm import batch_norm
from ..ops.distances import cosine_similarity, pairwise_distance, pdist
from ..ops.nn_functional_ops import (  # noqa: F401  (declared in ops/)
    HARDTANH,
    XLOGY,
    XLOGY_SCALAR_OTHER,
    XLOGY_SCALAR_SELF,
)
from ..ops.nn_layers import embedding, layer_norm
from ..ops.padding import (  # noqa: F401  (declared in ops/)
    CONSTANT_PAD_ND,
    PAD_MODES,
    PAD_OPS,
)
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
    "pairwise_distance",
    "pdist",
    "relu6",
    "softmin",
]

# --------------------------------------------------------------------------------------------
# hardtanh, relu6
# --------------------------------------------------------------------------------------------


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
# softmin, normalize (cosine_similarity, pairwise_distance, pdist: ops/distances.py)
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


# --------------------------------------------------------------------------------------------
# kl_div (xlogy)
# --------------------------------------------------------------------------------------------


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
