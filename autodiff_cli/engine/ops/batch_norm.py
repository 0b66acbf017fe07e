"""`batch_norm`: its op-table entry `native_batch_norm` and its backward op.

Batch normalisation normalises an (N, C, *) input per channel (dim 1) over every other dim: in
training with the batch's mean and biased variance (the running statistics, when given, move
towards the batch's mean and unbiased variance by `momentum`, in place), in evaluation with the
running statistics. The node is NativeBatchNormBackward0 (edges to input, weight and bias, in
both modes); its backward is the op `native_batch_norm_backward`
(NativeBatchNormBackwardBackward0 under create_graph: one node for the three gradients, with
edges to grad_output, input, weight and the two running statistics), whose own derivatives are
written below with backend operations, so that they record a graph in turn. As in PyTorch, those
derivatives hold the per-channel mean and inverse standard deviation constant (only `x - mean`
moves with the input): second derivatives are exact, third ones are PyTorch's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_op
from ..core.optable import defop
from ..core.tensor import Tensor
from .formula_ops import div_scalar, mul_scalar, run
from .nn_layers import _defined, _no_grad, shared_grad

__all__ = ["batch_norm"]


def _axes(ndim: int) -> tuple[int, ...]:
    """Every dim but the channel dim 1."""
    return (0,) + tuple(range(2, ndim))


def _per_channel(v: Any, ndim: int) -> np.ndarray:
    """A (C,) vector shaped to broadcast against an (N, C, *) input."""
    return np.reshape(np.asarray(v, np.float64), (1, -1) + (1,) * (ndim - 2))


def _stats(x: np.ndarray, running_mean: Any, running_var: Any, training: bool, eps: float):
    """(mean, invstd) per channel in float64, broadcastable against `x`: the batch's (biased
    variance) in training, else the running statistics."""
    if training:
        x64 = np.asarray(x, np.float64)
        axes = _axes(x.ndim)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = x64.sum(axis=axes, keepdims=True) / max(_count(x.shape), 1)
            centred = x64 - mean
            var = (centred * centred).sum(axis=axes, keepdims=True) / max(_count(x.shape), 1)
    else:
        mean, var = _per_channel(running_mean, x.ndim), _per_channel(running_var, x.ndim)
    with np.errstate(invalid="ignore", divide="ignore"):
        return mean, 1.0 / np.sqrt(var + eps)


def _count(shape: tuple) -> int:
    """How many values each channel holds."""
    channels = shape[1] if len(shape) > 1 else 1
    return int(np.prod(shape, dtype=np.int64)) // max(channels, 1)


def _batch_norm(x: Any, w: Any, b: Any, **params: Any) -> np.ndarray:
    mean, invstd = _stats(x, **params)
    y = (np.asarray(x, np.float64) - mean) * invstd
    if w is not None:
        y = y * _per_channel(w, x.ndim)
    if b is not None:
        y = y + _per_channel(b, x.ndim)
    return np.asarray(y, x.dtype)


def _bn_backward(index: int, g: Any, x: Any, w: Any, **params: Any) -> np.ndarray:
    """One of the three gradients (0 input, 1 weight, 2 bias) on numpy arrays."""
    g = np.asarray(g)
    axes = _axes(x.ndim)
    g64 = np.asarray(g, np.float64)
    if index == 2:
        return np.asarray(g64.sum(axis=axes), g.dtype)
    mean, invstd = _stats(x, **params)
    xhat = (np.asarray(x, np.float64) - mean) * invstd
    if index == 1:
        return np.asarray((g64 * xhat).sum(axis=axes), g.dtype)
    gy = g64 if w is None else g64 * _per_channel(w, x.ndim)
    if not params["training"]:
        return np.asarray(gy * invstd, g.dtype)
    n = max(_count(x.shape), 1)
    mean_gy = gy.sum(axis=axes, keepdims=True) / n
    mean_gyx = (gy * xhat).sum(axis=axes, keepdims=True) / n
    return np.asarray(invstd * (gy - mean_gy - xhat * mean_gyx), g.dtype)


def _bn_backward_all(g: Any, x: Any, w: Any, _rm: Any, _rv: Any, **params: Any) -> tuple:
    """The three outputs (grad_input, grad_weight, grad_bias); zeros for an absent weight."""
    if w is None:
        zeros = np.zeros(x.shape[1:2], np.asarray(g).dtype)
        return _bn_backward(0, g, x, w, **params), zeros, zeros.copy()
    return tuple(_bn_backward(i, g, x, w, **params) for i in range(3))


class _Channels:
    """The double backward's view of its inputs: the saved per-channel mean and invstd as
    constants, the input centred on that mean, sums over every dim but 1."""

    def __init__(self, B: Any, gO: Any, x: Any, w: Any, params: dict) -> None:
        self.B = B
        data = B.array_of(x)
        self.ndim, self.shape, self.dtype = data.ndim, tuple(data.shape), data.dtype
        self.axes = _axes(data.ndim)
        self.n = max(_count(data.shape), 1)
        self.training = params["training"]
        mean, invstd = _stats(data, **params)
        self.centred = x - B.const(mean.astype(data.dtype))
        self.s = B.const(invstd.astype(data.dtype))
        self.xhat = self.centred * self.s
        self.g = gO
        self.w = None if w is None else self.channel(w)

    def channel(self, v: Any) -> Any:
        """A (C,) value shaped to broadcast against the input."""
        return self.B.reshape(v, (1, -1) + (1,) * (self.ndim - 2))

    def sum(self, v: Any) -> Any:
        return self.B.sum_dims(v, self.axes, True)

    def mean(self, v: Any) -> Any:
        return div_scalar(self.B, self.sum(v), self.n)

    def project(self, v: Any) -> Any:
        """`v` less its channel means and its component along x̂ (the training backward's map,
        up to the factor w · invstd)."""
        return v - self.mean(v) - self.xhat * self.mean(v * self.xhat)

    def scaled(self, v: Any) -> Any:
        """`v · invstd`, times the weight when there is one."""
        return v * (self.s if self.w is None else self.w * self.s)


def _add(total: Any, term: Any) -> Any:
    return term if total is None else total + term


def _bn_ggO(B: Any, grads: Any, gO: Any, x: Any, w: Any, **params: Any) -> Any:
    """d/d grad_output: the first backward applied to ggI, plus ggW · x̂ and ggB."""
    ggI, ggW, ggB = grads
    use_i = _defined(ggI)
    use_w = w is not None and _defined(ggW)
    use_b = w is not None and _defined(ggB)
    if not (use_i or use_w or use_b):
        return None
    c = _Channels(B, gO, x, w, params)
    out = None
    if use_i:
        out = c.scaled(c.project(ggI) if c.training else ggI)
    if use_w:
        out = _add(out, c.channel(ggW) * c.xhat)
    if use_b:
        out = _add(out, c.channel(ggB)) if out is not None else B.expand(c.channel(ggB), c.shape)
    return out


def _bn_gI(B: Any, grads: Any, gO: Any, x: Any, w: Any, **params: Any) -> Any:
    """d/d input. In training x̂ moves with the input by invstd · P (P: `_Channels.project`)
    and invstd by -invstd² · x̂ / n, which gives, per channel,
    -w·invstd²/n · (q·x̂ + Σ(x̂·g)·P(ggI) + Σ(x̂·ggI)·P(g)) + ggW·invstd·P(g), with
    q = Σ ggI·g - Σ ggI · Σ g / n - Σ x̂·ggI · Σ x̂·g / n. In evaluation only ggW reaches it."""
    ggI, ggW = grads[0], grads[1]
    use_i, use_w = _defined(ggI) and params["training"], w is not None and _defined(ggW)
    if not (use_i or use_w):
        return None
    c = _Channels(B, gO, x, w, params)
    out = None
    if use_i:
        n, g = c.n, c.g
        sum_xg, sum_xi = c.sum(c.xhat * g), c.sum(c.xhat * ggI)
        q = (
            c.sum(ggI * g)
            - div_scalar(B, c.sum(ggI) * c.sum(g), n)
            - div_scalar(B, sum_xi * sum_xg, n)
        )
        coef = mul_scalar(B, c.s * c.s, -1.0 / n)
        if c.w is not None:
            coef = coef * c.w
        out = coef * (q * c.xhat + sum_xg * c.project(ggI) + sum_xi * c.project(c.g))
    if use_w:
        ggw_s = c.channel(ggW) * c.s
        out = _add(out, ggw_s * (c.project(c.g) if c.training else c.g))
    return out


def _bn_gW(B: Any, grads: Any, gO: Any, x: Any, w: Any, **params: Any) -> Any:
    """d/d weight: only ggI reaches it."""
    if w is None or not _defined(grads[0]):
        return None
    c = _Channels(B, gO, x, w, params)
    g = c.project(c.g) if c.training else c.g
    return B.sum_dims(grads[0] * c.s * g, c.axes, False)


BATCH_NORM_BACKWARD = defop(
    "native_batch_norm_backward",
    "NativeBatchNormBackwardBackward0",
    _bn_backward_all,
    _bn_ggO,
    _bn_gI,
    _bn_gW,
    _no_grad,
    _no_grad,
    saves=(0, 1, 2),
    promotes=False,
    n_outputs=3,
    arg_names=("grad_out", "input", "weight", "running_mean_", "running_var_"),
    rules=(
        "the first backward applied to ggI, + ggW · x̂ + ggB",
        "training: how x̂ and invstd move with the input; evaluation: ggW · invstd · grad",
        "Σ ggI · invstd · (grad projected as in the first backward)",
        "-",
        "-",
    ),
)


def _bn_combined(B: Any, g: Any, x: Any, w: Any, b: Any, **params: Any) -> Any:
    return run(B, BATCH_NORM_BACKWARD, g, x, w, None, None, **params)


BATCH_NORM = defop(
    "native_batch_norm",
    "NativeBatchNormBackward0",
    _batch_norm,
    shared_grad(0, _bn_backward, _bn_combined),
    shared_grad(1, _bn_backward, _bn_combined),
    shared_grad(2, _bn_backward, _bn_combined),
    saves=(0, 1, 2),
    promotes=False,
    arg_names=("input", "weight", "bias"),
    rules=(
        "training: w · invstd · (grad - mean(grad) - x̂ · mean(grad · x̂)); eval: w · invstd · grad",
        "Σ grad · x̂",
        "Σ grad",
    ),
)


def _check_sizes(channels: int, named: tuple) -> None:
    for name, t in named:
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")


def _check_dtypes(dtype: np.dtype, named: tuple) -> None:
    """PyTorch's CPU rule: parameters in the input's dtype, or float32 beside a half input."""
    dtypes.require_floating(dtype, "batch_norm")
    kinds = {t._data.dtype for _, t in named if t is not None}
    if not kinds or kinds == {dtype}:
        return
    if dtype == np.float64:
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    if dtype == np.float32:
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
    if len(kinds) > 1:
        first = dtypes.scalar_name(dtype)
        other = dtypes.scalar_name(next(k for k in kinds if k != dtype))
        raise RuntimeError(f"expected scalar type {first} but found {other}")
    if kinds != {np.dtype(np.float32)}:
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")


def _update_running(x: np.ndarray, running_mean: Any, running_var: Any, momentum: float) -> None:
    """Moves the running statistics towards the batch's mean and unbiased variance, in place
    (as PyTorch's kernel: no version bump)."""
    if running_mean is None and running_var is None:
        return
    n = _count(x.shape)
    axes = _axes(x.ndim)
    x64 = np.asarray(x, np.float64)
    if n == 0:
        return
    mean = x64.mean(axis=axes)
    with np.errstate(invalid="ignore", divide="ignore"):
        var = ((x64 - mean.reshape((1, -1) + (1,) * (x.ndim - 2))) ** 2).sum(axis=axes) / (n - 1)
    for stat, batch in ((running_mean, mean), (running_var, var)):
        if stat is not None:
            moved = (1.0 - momentum) * np.asarray(stat._data, np.float64) + momentum * batch
            np.copyto(stat._array(), moved.astype(stat._data.dtype), casting="unsafe")


def batch_norm(
    input: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """`torch.nn.functional.batch_norm`: normalises an (N, C, *) input per channel."""
    shape = tuple(input.shape)
    if training:
        if int(np.prod(shape[:1] + shape[2:], dtype=np.int64)) == 1:
            raise ValueError(
                "Expected more than 1 value per channel when training, got input size "
                f"torch.Size({list(shape)})"
            )
        if eps <= 0.0:
            raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if momentum is None:
        raise TypeError(
            "batch_norm(): argument 'momentum' (position 7) must be float, not NoneType"
        )
    return native_batch_norm(
        input, weight, bias, running_mean, running_var, training, momentum, eps
    )


def native_batch_norm(
    input: Tensor,
    weight: Tensor | None,
    bias: Tensor | None,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    training: bool,
    momentum: float,
    eps: float,
) -> Tensor:
    """The op behind `torch.batch_norm`: checks, the running statistics' update, the node."""
    shape = tuple(input.shape)
    if not training:
        for name, t in (("running_mean", running_mean), ("running_var", running_var)):
            if t is None:
                raise RuntimeError(f"{name} must be defined in evaluation mode")
    named = (
        ("running_mean", running_mean),
        ("running_var", running_var),
        ("weight", weight),
        ("bias", bias),
    )
    _check_sizes(shape[1] if len(shape) > 1 else 0, named)
    for name, t in named[:2]:
        if t is not None and t.requires_grad:
            raise RuntimeError(
                f"The function 'native_batch_norm' is not differentiable with respect to "
                f"argument '{name}'. This input cannot have requires_grad True."
            )
    _check_dtypes(input._data.dtype, named)
    x = input._array()
    stats = {"running_mean": None, "running_var": None}
    if not training:
        stats = {"running_mean": running_mean._data.copy(), "running_var": running_var._data.copy()}
    params = {**stats, "training": bool(training), "eps": float(eps)}
    out = apply_op(BATCH_NORM, (input, weight, bias), params)
    if training:
        _update_running(x, running_mean, running_var, float(momentum))
    return out


def torch_batch_norm(
    input: Tensor,
    weight: Tensor | None,
    bias: Tensor | None,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    training: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool,
) -> Tensor:
    """`torch.batch_norm` (PyTorch's argument order; no batch-size check)."""
    return native_batch_norm(
        input, weight, bias, running_mean, running_var, training, momentum, eps
    )
