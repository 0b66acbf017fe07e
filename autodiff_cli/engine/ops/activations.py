"""More activations: hardswish, hardsigmoid, mish, celu, glu, threshold (each one `defop`, its
in-place variant where PyTorch records another node) and the backward ops PyTorch gives them
(hardswish_backward, hardsigmoid_backward, glu_backward). `torch.celu`, `torch.threshold` and
their in-place forms are here; `torch.nn.functional` re-exports the rest.

Values at the kinks and at NaN are PyTorch 2.13's: hardswish's slope is 0 at -3 and 1 at 3 and
at NaN; hardsigmoid's is 1/6 strictly inside (-3, 3), 0 elsewhere and at NaN; threshold's is 0
where `x <= threshold` (the threshold cast to the tensor's dtype), 1 elsewhere and at NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_inplace, apply_op
from ..core.optable import defop
from ..core.saved_hooks import shows_saved
from ..core.tensor import Tensor, _norm_dim
from .formula_ops import div_scalar, not_implemented_formula, run
from .nn_backward import ELU_BACKWARD
from .unary import THRESHOLD_BACKWARD
from .views import CAT, SLICE

__all__ = ["celu", "celu_", "threshold", "threshold_"]

# --------------------------------------------------------------------------------------------
# hardswish, hardsigmoid
# --------------------------------------------------------------------------------------------


def _number(value: float, like: Any) -> Any:
    """`value` as a 0-d array of `like`'s dtype (no promotion of float32)."""
    return np.asarray(value, np.asarray(like).dtype)


def _hardsigmoid(a: np.ndarray) -> np.ndarray:
    return np.asarray(np.clip(a + _number(3, a), 0, 6) / _number(6, a), a.dtype)


def _hardswish(a: np.ndarray) -> np.ndarray:
    return np.asarray(a * np.clip(a + _number(3, a), 0, 6) / _number(6, a), a.dtype)


def _hardswish_backward(g: Any, x: Any) -> Any:
    """0 for x <= -3, x/3 + 1/2 inside (-3, 3), 1 from 3 on (and at NaN)."""
    inside = np.asarray(g * (x / _number(3, x) + _number(0.5, x)), x.dtype)
    return np.where(x <= -3, _number(0, inside), np.where(x < 3, inside, g)).astype(x.dtype)


def _hardswish_self_grad(B: Any, gg: Any, grad_output: Any, self: Any) -> Any:
    """d/dself of hardswish_backward: grad_output / 3 strictly inside (-3, 3), else 0."""
    inside = B.const(np.asarray((B.array_of(self) > -3) & (B.array_of(self) < 3)))
    return B.where(inside, div_scalar(B, gg * grad_output, 3), 0.0)


HARDSWISH_BACKWARD = defop(
    "hardswish_backward",
    "HardswishBackwardBackward0",
    _hardswish_backward,
    lambda B, gg, grad_output, self: run(B, HARDSWISH_BACKWARD, gg, self),
    _hardswish_self_grad,
    arg_names=("grad_output", "self"),
    rules=("hardswish'(self)", "grad_output / 3 inside (-3, 3), else 0"),
)
HARDSWISH = defop(
    "hardswish",
    "HardswishBackward0",
    _hardswish,
    lambda B, g, self: run(B, HARDSWISH_BACKWARD, g, self),
    rules=("0 if self <= -3, self / 3 + 1/2 if self < 3, else 1",),
)


SIXTH_FLOAT32 = float(np.float32(1.0 / 6.0))  # PyTorch's slope, in float64 too


def _hardsigmoid_backward(g: Any, x: Any) -> Any:
    inside = (x > -3) & (x < 3)
    return np.where(inside, g * _number(SIXTH_FLOAT32, x), _number(0, x)).astype(x.dtype)


# PyTorch has no derivative for hardsigmoid_backward: its node is NotImplemented (the formulas
# are real only for forward-mode AD's double vjp, which PyTorch does with a forward formula)
HARDSIGMOID_BACKWARD = defop(
    "hardsigmoid_backward",
    "NotImplemented",
    _hardsigmoid_backward,
    not_implemented_formula(
        "hardsigmoid_backward",
        lambda B, gg, grad_output, self: run(B, HARDSIGMOID_BACKWARD, gg, self),
    ),
    not_implemented_formula(
        "hardsigmoid_backward", lambda B, gg, grad_output, self: B.zeros_like(gg)
    ),
    saves=(0, 1),
    arg_names=("grad_output", "self"),
    rules=("not differentiable", "not differentiable"),
)
HARDSIGMOID_BACKWARD.node_cls.name = lambda self: "torch::autograd::NotImplemented"
HARDSIGMOID = defop(
    "hardsigmoid",
    "HardsigmoidBackward0",
    _hardsigmoid,
    lambda B, g, self: run(B, HARDSIGMOID_BACKWARD, g, self),
    rules=("1/6 inside (-3, 3), else 0",),
)

# --------------------------------------------------------------------------------------------
# mish
# --------------------------------------------------------------------------------------------


def _mish(a: np.ndarray) -> np.ndarray:
    return np.asarray(a * np.tanh(np.logaddexp(_number(0, a), a)), a.dtype)


def _mish_grad(B: Any, g: Any, self: Any) -> Any:
    """`tanh(softplus(x)) + x · sigmoid(x) · (1 - tanh²(softplus(x)))` (composed: MulBackward0
    under create_graph, as PyTorch's)."""
    t = B.tanh(B.softplus_neg(-self))
    return g * (t + self * B.sigmoid(self) * (1 - t * t))


MISH = defop(
    "mish",
    "MishBackward0",
    _mish,
    _mish_grad,
    rules=("tanh(softplus(x)) + x · sigmoid(x) · (1 - tanh²(softplus(x)))",),
)

# --------------------------------------------------------------------------------------------
# celu: elu with scale 1 and input_scale 1/alpha
# --------------------------------------------------------------------------------------------


def _celu(a: np.ndarray, alpha: float) -> np.ndarray:
    negative = alpha * np.expm1(np.where(a > 0, 0, a) * (1.0 / alpha))  # (-0. stays -0.)
    return np.asarray(np.where(a > 0, a, negative), a.dtype)


def _input_scale(alpha: float) -> float:
    """1 / alpha as PyTorch's celu backward takes it: alpha rounded to float32 first."""
    return 1.0 / float(np.float32(alpha))


def _celu_result_grad(B: Any, g: Any, result: Any, alpha: float) -> Any:
    """celu_'s gradient from its result: (result + alpha) / alpha where result <= 0, else 1."""
    if alpha < 0:
        raise RuntimeError(
            "In-place elu backward calculation is triggered with a negative slope which is not "
            "supported. This is caused by calling in-place forward function with a negative "
            "slope, please call out-of-place version instead."
        )
    return B.where(result <= 0, g * ((result + alpha) * _input_scale(alpha)), g)


CELU = defop(
    "celu",
    "CeluBackward0",
    _celu,
    lambda B, g, self, alpha: run(
        B, ELU_BACKWARD, g, self, alpha=alpha, scale=1.0, input_scale=_input_scale(alpha)
    ),
    rules=("1 if self > 0 else exp(self / alpha)",),
)
CELU_ = defop(
    "celu_",
    "CeluBackward1",
    _celu,
    _celu_result_grad,
    rules=("1 if result > 0 else (result + alpha) / alpha",),
)

# --------------------------------------------------------------------------------------------
# glu: the first half times the sigmoid of the second, along `dim`
# --------------------------------------------------------------------------------------------


def _halves(B: Any, x: Any, dim: int) -> tuple[Any, Any]:
    n = x.shape[dim] // 2
    shape = tuple(x.shape)
    first = run(B, SLICE, x, dim=dim, start=0, stop=n, step=1, shape=shape)
    second = run(B, SLICE, x, dim=dim, start=n, stop=2 * n, step=1, shape=shape)
    return first, second


def _glu(a: np.ndarray, dim: int) -> np.ndarray:
    first, second = np.split(a, 2, axis=dim)
    return np.asarray(first / (1 + np.exp(-second)), a.dtype)


def _glu_backward(g: Any, x: Any, dim: int) -> np.ndarray:
    first, second = np.split(x, 2, axis=dim)
    s = np.asarray(1 / (1 + np.exp(-second)), x.dtype)
    parts = (g * s, g * first * s * (1 - s))
    return np.concatenate([np.asarray(p, x.dtype) for p in parts], axis=dim)


def _cat(B: Any, first: Any, second: Any, dim: int) -> Any:
    return run(B, CAT, first, second, dim=dim, shapes=(tuple(first.shape), tuple(second.shape)))


def _glu_grad_output_grad(B: Any, gg: Any, grad_output: Any, self: Any, dim: int) -> Any:
    """d glu_backward / d grad_output applied to gg: glu's directional derivative along gg."""
    a, b = _halves(B, self, dim)
    ga, gb = _halves(B, gg, dim)
    s = B.sigmoid(b)
    return ga * s + gb * a * s * (1 - s)


def _glu_self_grad(B: Any, gg: Any, grad_output: Any, self: Any, dim: int) -> Any:
    """The second derivatives of glu contracted with grad_output and gg."""
    a, b = _halves(B, self, dim)
    ga, gb = _halves(B, gg, dim)
    s = B.sigmoid(b)
    ds = s * (1 - s)
    first = grad_output * ds * gb
    second = grad_output * ds * (ga + a * (1 - 2 * s) * gb)
    return _cat(B, first, second, dim)


GLU_BACKWARD = defop(
    "glu_backward",
    "GluBackwardBackward0",
    _glu_backward,
    _glu_grad_output_grad,
    _glu_self_grad,
    arg_names=("grad_output", "self"),
    rules=("glu'(self)", "grad_output · glu''(self)"),
)
GLU = defop(
    "glu",
    "GluBackward0",
    _glu,
    lambda B, g, self, dim: run(B, GLU_BACKWARD, g, self, dim=dim),
    rules=("sigmoid(b) for the first half a, a · sigmoid(b) · (1 - sigmoid(b)) for b",),
)

# --------------------------------------------------------------------------------------------
# threshold
# --------------------------------------------------------------------------------------------


def _threshold(a: np.ndarray, threshold: float, value: float) -> np.ndarray:
    dead = a <= np.asarray(threshold).astype(a.dtype)
    return np.where(dead, np.asarray(value).astype(a.dtype), a)


THRESHOLD = defop(
    "threshold",
    "ThresholdBackward0",
    _threshold,
    lambda B, g, self, threshold, value: run(B, THRESHOLD_BACKWARD, g, self, threshold=threshold),
    rules=("0 if self <= threshold else 1",),
)
THRESHOLD_ = defop(
    "threshold_",
    "ThresholdBackward1",
    _threshold,
    lambda B, g, self, threshold, value: run(B, THRESHOLD_BACKWARD, g, self, threshold=threshold),
    rules=("0 if self <= threshold else 1",),
)

# --------------------------------------------------------------------------------------------
# The functions (nn.functional re-exports them with its `inplace=` arguments)
# --------------------------------------------------------------------------------------------


def _activation(op: Any, inplace_op: Any, input: Tensor, inplace: bool, params: Any) -> Tensor:
    if inplace:
        return apply_inplace(inplace_op, input, (), params)
    return apply_op(op, (input,), params)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """`x · relu6(x + 3) / 6` (HardswishBackward0, in place too)."""
    dtypes.require_floating(input._data.dtype, "hardswish_cpu")
    return _activation(HARDSWISH, HARDSWISH, input, inplace, None)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """`relu6(x + 3) / 6` (HardsigmoidBackward0, in place too)."""
    dtypes.require_floating(input._data.dtype, "hardsigmoid_cpu")
    return _activation(HARDSIGMOID, HARDSIGMOID, input, inplace, None)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """`x · tanh(softplus(x))` (MishBackward0, in place too)."""
    dtypes.require_floating(input._data.dtype, "mish_cpu")
    return _activation(MISH, MISH, input, inplace, None)


def _celu_params(input: Tensor, alpha: float) -> dict:
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    dtypes.require_floating(input._data.dtype, "elu_cpu")
    return {"alpha": alpha}


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """`max(0, x) + min(0, alpha · (exp(x / alpha) - 1))` (CeluBackward0; CeluBackward1 in
    place, from the result)."""
    return _activation(CELU, CELU_, input, inplace, _celu_params(input, alpha))


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """`celu(input, alpha, inplace=True)`."""
    return apply_inplace(CELU_, input, (), _celu_params(input, alpha))


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """The first half of `input` along `dim` times the sigmoid of the second (GluBackward0)."""
    return _glu_call(input, dim)


@shows_saved(dim="dim")  # (the dim as given: PyTorch shows -1 unsigned)
def _glu_call(input: Tensor, dim: int) -> Tensor:
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = _norm_dim(dim, input.ndim)
    size = input.shape[d]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {size}")
    dtypes.require_floating(input._data.dtype, "glu_cpu")
    return apply_op(GLU, (input,), {"dim": d})


def _threshold_check(input: Tensor) -> None:
    if input._data.dtype.kind == "b":
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """`value` where `input <= threshold`, else `input` (ThresholdBackward0; ThresholdBackward1
    in place)."""
    _threshold_check(input)
    params = {"threshold": threshold, "value": value}
    return _activation(THRESHOLD, THRESHOLD_, input, inplace, params)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """`threshold(input, threshold, value, inplace=True)`."""
    _threshold_check(input)
    return apply_inplace(THRESHOLD_, input, (), {"threshold": threshold, "value": value})
