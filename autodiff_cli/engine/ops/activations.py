"""More activations: hardswish, hardsigmoid, mish, celu, glu, threshold, hardshrink, softshrink,
prelu (`_prelu_kernel`) and rrelu (`rrelu_with_noise`) (each one `defop`, its in-place variant
where PyTorch records another node) and the backward ops PyTorch gives them (hardswish_backward,
hardsigmoid_backward, glu_backward, hardshrink_backward, softshrink_backward,
rrelu_with_noise_backward). `torch.celu`, `torch.threshold`, `torch.hardshrink`, `torch.prelu`,
`torch.rrelu`, `torch.selu` and their in-place forms are here; `torch.nn.functional` re-exports
the rest.

Values at the kinks and at NaN are PyTorch 2.13's: hardswish's slope is 0 at -3 and 1 at 3 and
at NaN; hardsigmoid's is 1/6 strictly inside (-3, 3), 0 elsewhere and at NaN; threshold's is 0
where `x <= threshold` (the threshold cast to the tensor's dtype), 1 elsewhere and at NaN;
hardshrink's and softshrink's are 0 on [-lambd, lambd], 1 elsewhere and at NaN; prelu's is the
weight at 0 and NaN. rrelu's training slopes are PyTorch's draws: one float64 uniform in
[lower, upper) per element <= 0, in order, from the generator's stream.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_inplace, apply_op
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.saved_hooks import also_shows, shows_saved
from ..core.tensor import Tensor, _norm_dim, _wrap
from . import random as _random
from .formula_ops import div_scalar, not_implemented_formula, run
from .nn_backward import ELU_BACKWARD
from .nn_functional_ops import ELU
from .unary import THRESHOLD_BACKWARD
from .views import CAT, SLICE

__all__ = [
    "celu", "celu_", "hardshrink", "prelu", "rrelu", "rrelu_", "selu", "threshold", "threshold_",
]  # fmt: skip

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
HARDSIGMOID_BACKWARD.node_class().name = lambda self: "torch::autograd::NotImplemented"
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
# hardshrink, softshrink: 0 on [-lambd, lambd]
# --------------------------------------------------------------------------------------------


def _dead_zone(x: Any, lambd: float) -> Any:
    """Where `x` is within [-lambd, lambd] (lambd in x's dtype, as PyTorch's kernels compare)."""
    bound = _number(lambd, x)
    return (x >= -bound) & (x <= bound)


def _shrink_backward(g: Any, x: Any, lambd: float) -> np.ndarray:
    """0 on [-lambd, lambd], the gradient elsewhere and at NaN (PyTorch's shrink_backward)."""
    return np.where(_dead_zone(x, lambd), _number(0, g), g).astype(np.result_type(g))


def _hardshrink(a: np.ndarray, lambd: float) -> np.ndarray:
    return np.where(_dead_zone(a, lambd), _number(0, a), a).astype(a.dtype)


def _softshrink(a: np.ndarray, lambd: float) -> np.ndarray:
    """`a - lambd` above lambd, `a + lambd` below -lambd, `a * 0` between (so -0. and NaN stay)."""
    bound = _number(lambd, a)
    return np.where(a > bound, a - bound, np.where(a < -bound, a + bound, a * _number(0, a)))


def _shrink_ops(name: str, grad_fn: str, forward: Any, rule: str) -> tuple[Any, Any]:
    """The shrink op and its backward op (whose own derivative is itself in grad_out, 0 in self,
    as derivatives.yaml gives it)."""
    backward = defop(
        f"{name}_backward",
        f"{grad_fn[: -len('Backward0')]}BackwardBackward0",
        _shrink_backward,
        lambda B, gg, grad_out, self, lambd: run(B, backward, gg, self, lambd=lambd),
        lambda B, gg, grad_out, self, lambd: B.zeros_like(gg),
        arg_names=("grad_out", "self"),
        rules=(rule, "0"),
    )
    op = defop(
        name,
        grad_fn,
        forward,
        lambda B, g, self, lambd: run(B, backward, g, self, lambd=lambd),
        rules=(rule,),
    )
    return op, backward


_SHRINK_RULE = "0 if -lambd <= self <= lambd else 1"
HARDSHRINK, HARDSHRINK_BACKWARD = _shrink_ops(
    "hardshrink", "HardshrinkBackward0", _hardshrink, _SHRINK_RULE
)
SOFTSHRINK, SOFTSHRINK_BACKWARD = _shrink_ops(
    "softshrink", "SoftshrinkBackward0", _softshrink, _SHRINK_RULE
)

# --------------------------------------------------------------------------------------------
# prelu: x where x > 0, weight · x elsewhere (the weight broadcast over dim 1)
# --------------------------------------------------------------------------------------------


def _prelu(a: np.ndarray, weight: np.ndarray) -> np.ndarray:
    return np.where(a > 0, a, weight * a).astype(a.dtype)


def _prelu_backward(g: Any, x: Any, weight: Any) -> tuple:
    """(grad_self, grad_weight), the weight's in `x`'s shape: autograd sums it to the weight's
    (SumBackward1 under create_graph, as PyTorch's engine does)."""
    positive = x > 0
    dtype = np.result_type(g)
    grad_self = np.where(positive, g, weight * g).astype(dtype)
    return grad_self, np.where(positive, _number(0, g), x * g).astype(dtype)


def _prelu_backward_grad_output(B: Any, grads: list, grad_output: Any, self: Any, weight: Any):
    """derivatives.yaml's formulas of _prelu_kernel_backward (`self >= 0` there, where the
    kernels test `self > 0`)."""
    ga, gb = grads
    kept = self >= 0
    if ga is None:
        return B.where(kept, 0.0, gb * self)
    return B.where(kept, ga, ga * weight if gb is None else ga * weight + gb * self)


def _prelu_backward_self(B: Any, grads: list, grad_output: Any, self: Any, weight: Any) -> Any:
    gb = grads[1]
    return B.zeros_like(self) if gb is None else B.where(self >= 0, 0.0, grad_output * gb)


def _prelu_backward_weight(B: Any, grads: list, grad_output: Any, self: Any, weight: Any):
    ga = grads[0]
    return B.zeros_like(self) if ga is None else B.where(self >= 0, 0.0, grad_output * ga)


PRELU_KERNEL_BACKWARD = defop(
    "_prelu_kernel_backward",
    "PreluKernelBackwardBackward0",
    _prelu_backward,
    _prelu_backward_grad_output,
    _prelu_backward_self,
    _prelu_backward_weight,
    n_outputs=2,
    promotes=False,
    arg_names=("grad_output", "self", "weight"),
    rules=(
        "grad_self' + grad_weight' · self where self < 0",
        "grad_output · grad_weight' where self < 0",
        "grad_output · grad_self' where self < 0",
    ),
)


class _PreluPair:
    """The one PreluKernelBackwardBackward0 node both gradients of a prelu node come from under
    create_graph (PyTorch computes the two in one call): the node's two formulas run one after
    the other with the same gradient and saved values."""

    key: tuple = ()
    outputs: tuple = ()
    taken: set = set()


def _prelu_grad(index: int) -> Any:
    """The formula of gradient `index` (0 self, 1 weight): on arrays that output alone; under
    create_graph an output of the node `_PreluPair` shares between the two formulas."""

    def formula(B: Any, g: Any, self: Any, weight: Any) -> Any:
        if not B.creates_graph:
            positive = self > 0
            if index == 0:
                return np.where(positive, g, weight * g).astype(np.result_type(g))
            return np.where(positive, _number(0, g), self * g).astype(np.result_type(g))
        pair = _PreluPair
        key = (g, self, weight)
        same = len(pair.key) == 3 and all(a is k for a, k in zip(pair.key, key))
        if not same or index in pair.taken:
            pair.outputs = run(B, PRELU_KERNEL_BACKWARD, g, self, weight)
            pair.key, pair.taken = key, set()
        pair.taken.add(index)
        out = pair.outputs[index]
        wanted = {
            i for i, t in enumerate((self, weight)) if isinstance(t, Tensor) and t.requires_grad
        }
        if pair.taken >= wanted:
            pair.key, pair.outputs, pair.taken = (), (), set()
        return out

    return formula


PRELU_KERNEL = defop(
    "_prelu_kernel",
    "PreluKernelBackward0",
    _prelu,
    _prelu_grad(0),
    _prelu_grad(1),
    saves=(0, 1),
    arg_names=("self", "weight"),
    promotes=False,
    rules=("1 if self > 0 else weight", "0 if self > 0 else self"),
)
PRELU_KERNEL.needs = (frozenset({0, 1}),) * 2  # PyTorch's node keeps both, whichever needs grad

# --------------------------------------------------------------------------------------------
# rrelu: leaky_relu with a random slope per element in training, (lower + upper) / 2 otherwise
# --------------------------------------------------------------------------------------------


def _uses_noise(lower: float, upper: float, training: bool) -> bool:
    """PyTorch's backward reads the drawn slopes only in training with upper - lower > 1e-6."""
    return training and upper - lower > 1e-6


def _rrelu(a: np.ndarray, noise: np.ndarray, lower: float, upper: float, training: bool) -> Any:
    if training:
        return np.asarray(a * noise, a.dtype)
    return np.where(a > 0, a, a * _number((lower + upper) / 2, a)).astype(a.dtype)


def _rrelu_backward(
    g: Any, x: Any, noise: Any, lower: float, upper: float, training: bool
) -> np.ndarray:
    """The drawn slopes, or leaky_relu's backward with slope (lower + upper) / 2."""
    if _uses_noise(lower, upper, training):
        return np.asarray(g * noise, np.result_type(g))
    slope = _number((lower + upper) / 2, g)
    return np.where(x > 0, g, g * slope).astype(np.result_type(g))


def _rrelu_formula(B: Any, g: Any, x: Any, **params: Any) -> Any:
    return run(B, RRELU_WITH_NOISE_BACKWARD, g, x, **params)


# (the noise is a parameter, shown as `grad_fn._saved_noise`: PyTorch's node lists no edge for it)
RRELU_WITH_NOISE_BACKWARD = defop(
    "rrelu_with_noise_backward",
    "RreluWithNoiseBackwardBackward0",
    _rrelu_backward,
    lambda B, gg, grad_output, self, **params: _rrelu_formula(B, gg, self, **params),
    lambda B, gg, grad_output, self, **params: B.zeros_like(gg),
    arg_names=("grad_output", "self"),
    rules=("rrelu'(self)", "0"),
)
RRELU_WITH_NOISE = defop(
    "rrelu_with_noise",
    "RreluWithNoiseBackward0",
    _rrelu,
    lambda B, g, self, **params: _rrelu_formula(B, g, self, **params),
    promotes=False,
    rules=("noise (training) or 1 if self > 0 else (lower + upper) / 2",),
)
RRELU_WITH_NOISE_ = defop(
    "rrelu_with_noise_",
    "RreluWithNoiseBackward1",
    _rrelu,
    lambda B, g, result, **params: _rrelu_formula(B, g, result, **params),
    promotes=False,
    rules=("noise (training) or 1 if result > 0 else (lower + upper) / 2",),
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


# -- hardshrink, softshrink, prelu, rrelu, selu -------------------------------------------------


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """`input` where |input| > lambd, else 0 (HardshrinkBackward0)."""
    dtypes.require_floating(input._data.dtype, "hardshrink_cpu")
    return apply_op(HARDSHRINK, (input,), {"lambd": lambd})


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """`input` moved lambd toward 0, 0 on [-lambd, lambd] (SoftshrinkBackward0)."""
    dtype = input._data.dtype
    dtypes.require_floating(dtype, "softshrink_check")
    largest = float(np.finfo(dtype).max)
    if not 0 <= lambd <= largest:
        raise RuntimeError(
            f"lambda must be in range [0, {largest:g}] for input dtype "
            f"{dtypes.scalar_name(dtype)}, but found {lambd:g}"
        )
    return apply_op(SOFTSHRINK, (input,), {"lambd": lambd})


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """`max(0, x) + weight · min(0, x)`, one weight or one per channel (dim 1): the weight viewed
    to broadcast over `input` (ViewBackward0), then `_prelu_kernel` (PreluKernelBackward0)."""
    if not isinstance(weight, Tensor):
        raise TypeError(
            f"prelu(): argument 'weight' (position 2) must be Tensor, not {type(weight).__name__}"
        )
    dtype, weight_dtype = input._data.dtype, weight._data.dtype
    if dtype != weight_dtype:
        raise RuntimeError(
            f"prelu: Type promoting not supported. Got {dtypes.scalar_name(dtype)} and "
            f"{dtypes.scalar_name(weight_dtype)}"
        )
    n = weight._data.size
    if n != 1:
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim > 1 else 1
        if channels != n:
            raise RuntimeError(
                "Mismatch of parameter numbers and input channel size. Found parameter numbers "
                f"= {n} and channel size = {channels}."
            )
    if weight.ndim > 1:
        raise RuntimeError(
            f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.ndim}"
        )
    if input.ndim != weight.ndim:
        shape = [1] * input.ndim
        if input.ndim > 1:
            shape[1] = n
        weight = weight.reshape(shape)
    dtypes.require_floating(dtype, "prelu_cpu")
    return apply_op(PRELU_KERNEL, (input, weight))


def _rrelu_call(
    input: Tensor, lower: float, upper: float, training: bool, generator: Any, inplace: bool
) -> Tensor:
    """rrelu_with_noise: in training one slope per element <= 0 drawn from U(lower, upper)
    (PyTorch's stream), 1 elsewhere; otherwise leaky_relu with slope (lower + upper) / 2."""
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    data = np.asarray(input._data)
    dtypes.require_floating(data.dtype, "rrelu_with_noise_out_cpu")
    noise = np.zeros(data.shape, data.dtype)
    if training:
        gen = _random._generator(generator, "rrelu_with_noise")
        flat = np.ascontiguousarray(data).reshape(-1)
        drawn = flat <= 0
        slopes = np.ones(flat.shape, np.float64)
        u = _random.stream.uniform01(gen, int(drawn.sum()), np.dtype(np.float64))
        slopes[drawn] = u * (upper - lower) + lower  # (PyTorch's uniform_real_distribution)
        noise = slopes.astype(data.dtype).reshape(data.shape)
    params = {"noise": noise, "lower": lower, "upper": upper, "training": training}
    if inplace:
        out = apply_inplace(RRELU_WITH_NOISE_, input, (), params)
    else:
        out = apply_op(RRELU_WITH_NOISE, (input,), params)
    also_shows(out, noise=_wrap(noise.copy()))
    return out


def rrelu(
    input: Tensor,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    generator: Any = None,
) -> Tensor:
    """`torch.rrelu`: the randomized leaky ReLU (RreluWithNoiseBackward0)."""
    return _rrelu_call(input, lower, upper, training, generator, False)


def rrelu_(
    input: Tensor,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    generator: Any = None,
) -> Tensor:
    """`torch.rrelu_`: rrelu written into `input` (RreluWithNoiseBackward1, from the result)."""
    return _rrelu_call(input, lower, upper, training, generator, True)


SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def selu(input: Tensor) -> Tensor:
    """`torch.selu`: `scale · elu(x, alpha)` with SELU's constants (EluBackward0);
    nn.functional's `selu` adds `inplace=`."""
    dtypes.require_floating(input._data.dtype, "elu_cpu")
    params = {"alpha": SELU_ALPHA, "scale": SELU_SCALE, "input_scale": 1.0}
    return apply_op(ELU, (input,), params)


declare_forms(HARDSHRINK, hardshrink, method=True)
tensor_methods("ops.activations", {"prelu": prelu})
