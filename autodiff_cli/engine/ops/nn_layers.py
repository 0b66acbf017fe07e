"""`F.embedding` and `F.layer_norm`: their op-table entries and their backward ops.

PyTorch's `embedding` records EmbeddingBackward0 (an edge to the weight only) and its backward is
the op `embedding_dense_backward` (EmbeddingDenseBackwardBackward0 under create_graph): repeated
indices accumulate, the `padding_idx` row gets zero. `layer_norm` is `native_layer_norm`
(NativeLayerNormBackward0, edges to input, weight and bias) whose backward is the op
`native_layer_norm_backward` (NativeLayerNormBackwardBackward0), with its own derivatives
(PyTorch's layer_norm_double_backward). That op has three outputs (grad_input, grad_weight,
grad_bias) and, under create_graph, the three formulas of one NativeLayerNormBackward0 node share
one NativeLayerNormBackwardBackward0 node, as in PyTorch: its derivatives then return one tensor
per input (ViewBackward0 at the top), not a sum of several nodes' contributions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_op
from ..core.optable import defop
from ..core.saved_hooks import shows_saved
from ..core.tensor import Tensor, _dims_text
from .formula_ops import div_scalar, mul_scalar, run

# --------------------------------------------------------------------------------------------
# embedding
# --------------------------------------------------------------------------------------------


def _embedding(w: np.ndarray, indices: np.ndarray, num_weights: int, padding_idx: int) -> Any:
    return np.asarray(w[indices], w.dtype)


def _embedding_dense_backward(
    g: np.ndarray, indices: np.ndarray, num_weights: int, padding_idx: int
) -> np.ndarray:
    """Rows of `g` added into a (num_weights, D) zero matrix at their indices, in order."""
    width = g.shape[-1]
    out = np.zeros((num_weights, width), g.dtype)
    np.add.at(out, indices.reshape(-1), np.reshape(g, (-1, width)))
    if padding_idx >= 0:
        out[padding_idx] = 0
    return out


def _dtype(x: Any) -> np.dtype:
    return x._data.dtype if isinstance(x, Tensor) else np.asarray(x).dtype


def _embedding_double(B: Any, gg: Any, indices: Any, **params: Any) -> Any:
    """d/d grad of embedding_dense_backward: `gg[indices]`, zero where index == padding_idx."""
    picked = run(B, EMBEDDING, gg, indices=indices, **params)
    padding_idx = params["padding_idx"]
    if padding_idx >= 0 and np.any(indices == padding_idx):
        keep = (indices != padding_idx)[..., None].astype(_dtype(gg))
        picked = picked * B.const(keep)
    return picked


EMBEDDING = defop(
    "embedding",
    "EmbeddingBackward0",
    _embedding,
    lambda B, g, **params: run(B, EMBEDDING_DENSE_BACKWARD, g, **params),
    promotes=False,
    arg_names=("weight",),
    rules=("1 at each looked-up row (summed over repeats; 0 for padding_idx)",),
)
EMBEDDING_DENSE_BACKWARD = defop(
    "embedding_dense_backward",
    "EmbeddingDenseBackwardBackward0",
    _embedding_dense_backward,
    _embedding_double,
    promotes=False,
    arg_names=("grad_output",),
    rules=("the rows of grad at the indices",),
)


@shows_saved(indices="input")
def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """Rows of `weight` picked by the integer `input`: shape `input.shape + (D,)`."""
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError(
            "embedding: max_norm, scale_grad_by_freq and sparse are not supported"
        )
    num_weights = weight.shape[0]
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < num_weights, "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -num_weights, "Padding_idx must be within num_embeddings"
            padding_idx = num_weights + padding_idx
    else:
        padding_idx = -1
    if not isinstance(input, Tensor) or input._data.dtype.kind not in "iu":
        word = dtypes.scalar_name(input._data.dtype) if isinstance(input, Tensor) else "?"
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            f"types: Long, Int; but got torch.{word}Tensor instead (while checking arguments "
            "for embedding)"
        )
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    indices = np.asarray(input._data, np.int64)
    if indices.size and (indices.min() < 0 or indices.max() >= num_weights):
        raise IndexError("index out of range in self")
    params = {"indices": indices, "num_weights": num_weights, "padding_idx": int(padding_idx)}
    return apply_op(EMBEDDING, (weight,), params)


# --------------------------------------------------------------------------------------------
# layer_norm
# --------------------------------------------------------------------------------------------


def _axes(ndim: int, normalized_shape: tuple) -> tuple[int, ...]:
    return tuple(range(ndim - len(normalized_shape), ndim))


def _np_stats(x: np.ndarray, axes: tuple, eps: float) -> tuple[np.ndarray, np.ndarray]:
    """(x - mean) · rstd and rstd, per row, in float64."""
    x64 = np.asarray(x, np.float64)
    mean = x64.mean(axis=axes, keepdims=True)
    centred = x64 - mean
    var = (centred * centred).mean(axis=axes, keepdims=True)
    rstd = 1.0 / np.sqrt(var + eps)
    return centred * rstd, rstd


def _layer_norm(x: Any, w: Any, b: Any, normalized_shape: tuple, eps: float) -> np.ndarray:
    xhat, _ = _np_stats(x, _axes(x.ndim, normalized_shape), eps)
    if w is not None:
        xhat = xhat * np.asarray(w, np.float64)
    if b is not None:
        xhat = xhat + np.asarray(b, np.float64)
    return np.asarray(xhat, x.dtype)


def _layer_norm_backward(
    g: Any, x: Any, w: Any, output: str, normalized_shape: tuple, eps: float
) -> np.ndarray:
    axes = _axes(x.ndim, normalized_shape)
    lead = tuple(range(x.ndim - len(normalized_shape)))
    g64 = np.asarray(g, np.float64)
    if output == "bias":
        return np.asarray(g64.sum(axis=lead) if lead else g64, g.dtype)
    xhat, rstd = _np_stats(x, axes, eps)
    if output == "weight":
        prod = g64 * xhat
        return np.asarray(prod.sum(axis=lead) if lead else prod, g.dtype)
    gy = g64 if w is None else g64 * np.asarray(w, np.float64)
    mean_gy = gy.mean(axis=axes, keepdims=True)
    mean_gyx = (gy * xhat).mean(axis=axes, keepdims=True)
    return np.asarray(rstd * (gy - mean_gy - xhat * mean_gyx), g.dtype)


def _data(v: Any) -> np.ndarray:
    return v._data if isinstance(v, Tensor) else np.asarray(v)


def _defined(v: Any) -> bool:
    """Whether an incoming gradient is one PyTorch would have: the engine fills the outputs
    nothing reached with constant zeros, which PyTorch leaves undefined."""
    if v is None:
        return False
    if isinstance(v, Tensor):
        return v.requires_grad or bool(np.any(v._data))
    return bool(np.any(v))


class _Rows:
    """PyTorch's layer_norm_double_backward's view of its inputs: (M, N) rows, the saved mean and
    rstd as they are (constants: the higher derivatives do not see them move with the input)."""

    def __init__(self, B: Any, gO: Any, x: Any, w: Any, normalized_shape: tuple, eps: float):
        self.B = B
        data = _data(x)
        k = data.ndim - len(normalized_shape)
        self.shape = tuple(data.shape)
        self.M = int(np.prod(data.shape[:k], dtype=np.int64))
        self.N = int(np.prod(data.shape[k:], dtype=np.int64))
        rows = (self.M, self.N)
        self.input = B.reshape(x, rows)
        self.gO = B.reshape(gO, rows)
        x64 = np.asarray(data, np.float64).reshape(rows)
        mean = x64.mean(axis=1, keepdims=True)
        var = ((x64 - mean) ** 2).mean(axis=1, keepdims=True)
        rstd = (1.0 / np.sqrt(var + eps)).astype(data.dtype)
        self.sub_mu = self.input - B.const(mean.astype(data.dtype))
        self.s = B.const(rstd)
        self.s2 = B.const(rstd * rstd)
        self.s3 = B.const(rstd * rstd * rstd)
        self.affine = w is not None
        self.w_shape = tuple(_data(w).shape) if self.affine else None
        self.gamma = B.reshape(w, (1, self.N)) if self.affine else B.const(np.ones(1, data.dtype))
        self.dtype = data.dtype

    def sum1(self, v: Any) -> Any:
        return self.B.sum_dims(v, (1,), True)

    def div(self, v: Any, n: float) -> Any:
        return div_scalar(self.B, v, n)

    def first_backward(self, g: Any, gamma: Any) -> Any:
        """The first backward's grad_input for an incoming `g` (first_bwd_fn_grad_input)."""
        n, ism = self.N, self.sub_mu
        h0 = self.div(gamma * self.s, n)
        h1 = mul_scalar(self.B, g, n) - self.sum1(g) - (ism * self.s2) * self.sum1(g * ism)
        return h0 * h1


def _ln_gI(B: Any, grads: Any, gO: Any, x: Any, w: Any, **params: Any) -> Any:
    """gI of layer_norm_double_backward: from ggI, plus the ggG term."""
    ggI, ggG = grads[0], grads[1]
    use_i, use_g = _defined(ggI), w is not None and _defined(ggG)
    if not (use_i or use_g):
        return None
    r = _Rows(B, gO, x, w, params["normalized_shape"], params["eps"])
    n, ism, sum1, div = r.N, r.sub_mu, r.sum1, r.div
    ism_s3 = ism * r.s3
    gI = None
    if use_i:
        ggI = B.reshape(ggI, (r.M, n))
        gxhat = r.gO * r.gamma
        gxhat_mu_sum = sum1(gxhat * ism)
        gxhat_sum = sum1(gxhat)
        ggI_sum = sum1(ggI)
        ggI_mu_sum = sum1(ggI * ism)
        all_sub = (
            div(ggI_sum * gxhat_sum, n)
            - sum1(ggI * gxhat)
            + mul_scalar(B, r.s2 * gxhat_mu_sum * ggI_mu_sum, 3.0 / n)
        )
        t0 = div(ism_s3 * all_sub, n)
        t1 = div(ggI_mu_sum * r.s3, n) * (div(gxhat_sum, n) - gxhat)
        t2 = div(gxhat_mu_sum * r.s3, n) * (div(ggI_sum, n) - ggI)
        gI = t0 + t1 + t2
    if use_g:
        ggG = B.reshape(ggG, (1, n))
        t0 = r.gO * ggG * r.s
        t1 = div(r.s * sum1(r.gO * ggG), -n)
        t2 = div(ism_s3 * sum1(r.gO * ggG * ism), -n)
        term = t0 + t1 + t2
        gI = term if gI is None else gI + term
    return B.reshape(gI, r.shape)


def _ln_gG(B: Any, grads: Any, gO: Any, x: Any, w: Any, **params: Any) -> Any:
    """gG of layer_norm_double_backward: only ggI reaches the weight."""
    if w is None or not _defined(grads[0]):
        return None
    r = _Rows(B, gO, x, w, params["normalized_shape"], params["eps"])
    ggI = B.reshape(grads[0], (r.M, r.N))
    gG = r.first_backward(ggI, B.const(np.ones((), r.dtype)))
    return B.reshape(B.sum_dims(r.gO * gG, (0,), False), r.w_shape)


def _ln_ggO(B: Any, grads: Any, gO: Any, x: Any, w: Any, **params: Any) -> Any:
    """ggO of layer_norm_double_backward: the ggI, ggG and ggB terms."""
    ggI, ggG, ggB = grads
    use_i = _defined(ggI)
    use_g = w is not None and _defined(ggG)
    use_b = w is not None and _defined(ggB)
    if not (use_i or use_g or use_b):
        return None
    r = _Rows(B, gO, x, w, params["normalized_shape"], params["eps"])
    ggO = None
    if use_i:
        ggO = r.first_backward(B.reshape(ggI, (r.M, r.N)), r.gamma)
    if use_g:
        term = B.reshape(ggG, (1, r.N)) * r.sub_mu * r.s
        ggO = term if ggO is None else ggO + term
    if use_b:
        term = B.reshape(ggB, (1, r.N))
        ggO = term if ggO is None else ggO + term
    return B.reshape(B.expand(ggO, (r.M, r.N)), r.shape)


def _no_grad(*_: Any, **__: Any) -> None:
    """mean and rstd are not differentiable inputs; the bias does not enter the backward."""
    return None


def _layer_norm_backward_all(g: Any, x: Any, mean: Any, rstd: Any, w: Any, b: Any, **params: Any):
    """The three outputs (grad_input, grad_weight, grad_bias); zeros for an absent weight."""
    if w is None:
        zeros = np.zeros(params["normalized_shape"], np.asarray(g).dtype)
        return _layer_norm_backward(g, x, w, "input", **params), zeros, zeros.copy()
    return tuple(_layer_norm_backward(g, x, w, out, **params) for out in _OUTPUTS)


_OUTPUTS = ("input", "weight", "bias")
LAYER_NORM_BACKWARD = defop(
    "native_layer_norm_backward",
    "NativeLayerNormBackwardBackward0",
    _layer_norm_backward_all,
    _ln_ggO,
    _ln_gI,
    _no_grad,
    _no_grad,
    _ln_gG,
    _no_grad,
    saves=(0, 1, 4),
    promotes=False,
    n_outputs=3,
    arg_names=("grad_out", "input", "mean", "rstd", "weight", "bias"),
    rules=(
        "layer_norm_double_backward (ggO)",
        "layer_norm_double_backward (gI)",
        "-",
        "-",
        "layer_norm_double_backward (gG)",
        "0",
    ),
)


class _Shared:
    """The one backward-op node (NativeLayerNormBackwardBackward0, NativeBatchNormBackwardBackward0)
    a norm node's three formulas share under create_graph (PyTorch computes the three gradients
    in one call): the formulas of one node run one after the other with the same gradient and
    saved values."""

    key: tuple = ()
    outputs: tuple = ()
    taken: set = set()


def shared_grad(index: int, plain: Any, combined: Any) -> Any:
    """The formula of gradient `index` (input, weight, bias) of a norm node whose backward op
    gives the three at once: `plain(index, g, x, w, **params)` on arrays (that output alone);
    under create_graph, the three outputs of `combined(B, g, x, w, b, **params)`, one node for
    the node's formulas."""

    def formula(B: Any, g: Any, x: Any, w: Any, b: Any, **params: Any) -> Any:
        if not B.creates_graph:  # arrays: this output alone; the shared node is a graph's
            return plain(index, g, x, w, **params)
        key = (g, x, w, b, *params.values())
        same = len(_Shared.key) == len(key) and all(a is k for a, k in zip(_Shared.key, key))
        if not same or index in _Shared.taken:
            _Shared.outputs = combined(B, g, x, w, b, **params)
            _Shared.key, _Shared.taken = key, set()
        _Shared.taken.add(index)
        out = _Shared.outputs[index]
        wanted = {i for i, t in enumerate((x, w, b)) if isinstance(t, Tensor) and t.requires_grad}
        if _Shared.taken >= wanted:
            _Shared.key, _Shared.outputs, _Shared.taken = (), (), set()
        return out

    return formula


def _ln_plain(index: int, g: Any, x: Any, w: Any, **params: Any) -> np.ndarray:
    return _layer_norm_backward(g, x, w, _OUTPUTS[index], **params)


def _ln_combined(B: Any, g: Any, x: Any, w: Any, b: Any, **params: Any) -> Any:
    return run(B, LAYER_NORM_BACKWARD, g, x, None, None, w, b, **params)


def _ln_grad(output: str) -> Any:
    return shared_grad(_OUTPUTS.index(output), _ln_plain, _ln_combined)


LAYER_NORM = defop(
    "native_layer_norm",
    "NativeLayerNormBackward0",
    _layer_norm,
    _ln_grad("input"),
    _ln_grad("weight"),
    _ln_grad("bias"),
    saves=(0, 1, 2),
    promotes=False,
    arg_names=("input", "weight", "bias"),
    rules=("rstd · (γ·grad - mean(γ·grad) - x̂ · mean(γ·grad · x̂))", "Σ grad · x̂", "Σ grad"),
)


def layer_norm(
    input: Tensor,
    normalized_shape: Any,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalises over the trailing `normalized_shape` dims (biased variance), then
    `· weight + bias`."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    normalized_shape = tuple(int(s) for s in normalized_shape)
    k = len(normalized_shape)
    shape = tuple(input.shape)
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and tuple(p.shape) != normalized_shape:
            raise RuntimeError(
                f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                f"shape {_dims_text(tuple(p.shape))} and normalized_shape = "
                f"{_dims_text(normalized_shape)}"
            )
    if k == 0 or len(shape) < k or shape[len(shape) - k :] != normalized_shape:
        raise RuntimeError(
            f"Given normalized_shape={_dims_text(normalized_shape)}, expected input with shape "
            f"[*, {', '.join(str(s) for s in normalized_shape)}], but got input of size"
            f"{_dims_text(shape)}"
        )
    dtypes.require_floating(input._data.dtype, "LayerNormKernelImpl")
    params = {"normalized_shape": normalized_shape, "eps": float(eps)}
    return apply_op(LAYER_NORM, (input, weight, bias), params)
