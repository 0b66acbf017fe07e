"""The op table as test cases: one or more rows per differentiable op of `engine.core.optable.OPS`.

A row is a function of a torch-like module `T` (the engine or real PyTorch) and input tensors, so
the same table drives the finite-difference gradient checks (`test_engine_gradients.py`) and the
comparison with PyTorch (`test_engine_torch.py`). Each input names a domain on which the op is
smooth (positive for log, |x| < 1 for asin, away from kinks for abs and relu, ...).
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# --------------------------------------------------------------------------------------------
# Input domains
# --------------------------------------------------------------------------------------------


def _real(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    return rng.uniform(-2.0, 2.0, shape)


def _positive(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    return rng.uniform(0.5, 2.5, shape)


def _unit(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    return rng.uniform(-0.9, 0.9, shape)


def _nonzero(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    """Away from 0, the kink of abs/relu/sign."""
    return rng.choice([-1.0, 1.0], shape) * rng.uniform(0.2, 2.0, shape)


def _off_grid(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    """Away from integers and half-integers, the jumps of floor/ceil/round/trunc."""
    return rng.randint(-3, 4, shape) + rng.uniform(0.1, 0.4, shape)


def _distinct(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    """Values at least 0.2 apart in absolute value (no ties for max/min/inf-norm), none near 0."""
    n = int(np.prod(shape, dtype=np.int64))
    magnitudes = (rng.permutation(n) + 1) * 0.3 + rng.uniform(0.0, 0.05, n)
    return (rng.choice([-1.0, 1.0], n) * magnitudes).reshape(shape)


def _probability(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    return rng.uniform(0.1, 0.9, shape)


Domain = Callable[[np.random.RandomState, tuple], np.ndarray]


def _uniform(low: float, high: float) -> Domain:
    return lambda rng, shape: rng.uniform(low, high, shape)


def _off_tenths(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    """Away from the jumps of round(x, decimals=1)."""
    return rng.randint(-20, 21, shape) * 0.1 + rng.uniform(0.01, 0.04, shape)


@dataclass(frozen=True)
class In:
    """One tensor input of a case: its shape, its domain and whether its gradient is checked."""

    shape: tuple
    domain: Domain = _real
    diff: bool = True
    dtype: str = "float64"


@dataclass(frozen=True)
class Case:
    """`fn(T, *inputs)` exercises op-table entry `op`; its output (or each output of a tuple) has
    the grad_fn of that entry."""

    id: str
    op: str
    fn: Callable[..., Any]
    inputs: tuple[In, ...]
    eps: float = 1e-6
    second_order: bool = True
    notes: str = field(default="", compare=False)

    def arrays(self) -> list[np.ndarray]:
        """The case's input values: random, fixed per case id."""
        rng = seeded(self.id)
        return [np.asarray(s.domain(rng, s.shape), dtype=s.dtype) for s in self.inputs]


_GENERATOR = np.random.RandomState()


def seeded(text: str) -> np.random.RandomState:
    """numpy's legacy generator at the start of the stream of `RandomState(crc32(text))`: one
    generator re-seeded (a new one costs 100 times more), so each caller draws from it before
    the next call."""
    _GENERATOR.seed(zlib.crc32(text.encode()))
    return _GENERATOR


def to_tensor(T: Any, array: np.ndarray, requires_grad: bool = False) -> Any:
    """A `T` tensor holding a copy of a numpy array, with its dtype (both modules take the array
    itself: the same values as through lists, without a walk over every number)."""
    return T.tensor(array, dtype=_dtype_in(T, array.dtype), requires_grad=requires_grad)


@functools.cache
def _dtype_in(T: Any, dtype: np.dtype) -> Any:
    return getattr(T, dtype.name)


def make_inputs(T: Any, case: Case) -> list[Any]:
    """The case's inputs as `T` tensors; the differentiable ones require grad."""
    return [to_tensor(T, a, spec.diff) for a, spec in zip(case.arrays(), case.inputs)]


def outputs_of(result: Any) -> tuple:
    """A case result as a tuple of tensors (ops like unbind return several)."""
    return tuple(result) if isinstance(result, (tuple, list)) else (result,)


def _mask(T: Any, shape: tuple) -> Any:
    """A fixed boolean condition of `shape` with both values present."""
    pattern = (np.arange(int(np.prod(shape))) % 3 != 1).reshape(shape)
    return T.tensor(pattern.tolist(), dtype=T.bool)


def _grad_of_select(T: Any, v: Any) -> Any:
    """The create_graph gradient of `x.select(1, 2)` for a grad output `v`:
    SelectBackwardBackward0, differentiable in `v`."""
    x = T.zeros(3, 4, dtype=T.float64, requires_grad=True)
    return T.autograd.grad(x.select(1, 2), x, grad_outputs=v, create_graph=True)[0]


def _grad_of_index(T: Any, v: Any) -> Any:
    """The create_graph gradient of `x[[0, 2, 0]]` (repeated index) for a grad output `v`."""
    x = T.zeros(3, 4, dtype=T.float64, requires_grad=True)
    return T.autograd.grad(x[[0, 2, 0]], x, grad_outputs=v, create_graph=True)[0]


def _grad_of_diagonal(T: Any, v: Any) -> Any:
    """The create_graph gradient of `x.diagonal()` for a grad output `v`:
    DiagonalBackwardBackward0, differentiable in `v`."""
    x = T.zeros(3, 3, dtype=T.float64, requires_grad=True)
    return T.autograd.grad(x.diagonal(), x, grad_outputs=v, create_graph=True)[0]


def _mul_scalar(T: Any, a: Any, value: float) -> Any:
    """`aten::mul.Scalar` (MulBackward1): Python's `a * 0.8` wraps the number in a tensor instead."""
    if hasattr(T, "ops") and hasattr(T.ops, "aten"):
        return T.ops.aten.mul.Scalar(a, value)
    return T.nn.functional._mul_scalar(a, value)


def _scalar_op(T: Any, name: str, a: Any, value: float) -> Any:
    """`aten::add.Scalar` / `aten::sub.Scalar` (AddBackward1, SubBackward1), which PyTorch's
    backward formulas call: Python's `a + 1.5` wraps the number in a tensor instead."""
    if hasattr(T, "ops") and hasattr(T.ops, "aten"):
        return getattr(T.ops.aten, name).Scalar(a, value)
    from autodiff_cli.engine.core.apply import apply_op
    from autodiff_cli.engine.ops import formula_ops

    op = {"add": formula_ops.ADD_SCALAR, "sub": formula_ops.SUB_SCALAR}[name]
    return apply_op(op, (a,), {"other": value})


def _well_conditioned(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    """Matrices near 2·I: invertible, with a modest condition number."""
    return rng.uniform(-0.5, 0.5, shape) + 2.0 * np.eye(shape[-1])


# --------------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------------

M = (2, 3)
BROADCAST_SHAPES = {
    "same": (M, M),
    "col_row": ((3, 1), (1, 4)),
    "matrix_vector": ((2, 3), (3,)),
    "scalar_matrix": ((), (2, 2)),
    "matrix_scalar": ((2, 2), ()),
}

CASES: list[Case] = []


def case(id: str, op: str, fn: Callable[..., Any], *inputs: In, **kw: Any) -> None:
    CASES.append(Case(id, op, fn, tuple(inputs), **kw))


# binary arithmetic, with broadcasting
_BINARY = {
    "add": (lambda T, a, b: a + b, _real),
    "sub": (lambda T, a, b: a - b, _real),
    "mul": (lambda T, a, b: a * b, _real),
    "div": (lambda T, a, b: a / b, _nonzero),
    "pow": (lambda T, a, b: a**b, _real),
}
for _op, (_fn, _second) in _BINARY.items():
    for _name, (_sa, _sb) in BROADCAST_SHAPES.items():
        _first = _positive if _op == "pow" else _real
        case(f"{_op}-{_name}", _op, _fn, In(_sa, _first), In(_sb, _second))
case("add-alpha", "add", lambda T, a, b: T.add(a, b, alpha=2.0), In(M), In(M))
case("sub-alpha", "sub", lambda T, a, b: T.sub(a, b, alpha=2.0), In(M), In(M))
case("add-one-side-const", "add", lambda T, a, b: a + b, In(M), In(M, diff=False))
case("mul-one-side-const", "mul", lambda T, a, b: a * b, In(M, diff=False), In((3,)))
case("mul-self", "mul", lambda T, a: a * a, In(M))
case("div-torch-fn", "div", lambda T, a, b: T.div(a, b), In(M), In(M, _positive))
case("pow-fn", "pow", lambda T, a, b: T.pow(a, b), In(M, _positive), In((), _real))

# Python numbers on either side
case("add-number-right", "add", lambda T, a: a + 2.5, In(M))
case("add-number-left", "add", lambda T, a: 2.5 + a, In(M))
case("add-int-number", "add", lambda T, a: a + 2, In(M))
case("sub-number-right", "sub", lambda T, a: a - 2.5, In(M))
case("rsub-number-left", "rsub", lambda T, a: 2.5 - a, In(M))
case("rsub-int-number", "rsub", lambda T, a: 3 - a, In(M))
case("mul-number-right", "mul", lambda T, a: a * 2.5, In(M))
case("mul-number-left", "mul", lambda T, a: -1.5 * a, In(M))
case("div-number-right", "div", lambda T, a: a / 2.5, In(M))
case("div-number-left", "mul", lambda T, a: 2.5 / a, In(M, _nonzero), notes="reciprocal * 2.5")
case("neg", "neg", lambda T, a: -a, In(M))
case("pow_scalar-float", "pow_scalar", lambda T, a: a**2.5, In(M, _positive))
case("pow_scalar-int", "pow_scalar", lambda T, a: a**3, In(M))
case("pow_scalar-negative", "pow_scalar", lambda T, a: a**-1.5, In(M, _positive))
case("pow_scalar-zero", "pow_scalar", lambda T, a: a**0, In(M))
case("pow_scalar-square", "pow_scalar", lambda T, a: a.square(), In(M))
case("rpow", "rpow", lambda T, a: 2.5**a, In(M))
case("rpow-fn", "rpow", lambda T, a: T.pow(0.5, a), In(M))
case("reciprocal", "reciprocal", lambda T, a: a.reciprocal(), In(M, _nonzero))

# elementwise functions: (op, domain)
_UNARY = {
    "exp": _real,
    "log": _positive,
    "log2": _positive,
    "log10": _positive,
    "log1p": _positive,
    "expm1": _real,
    "sqrt": _positive,
    "rsqrt": _positive,
    "sin": _real,
    "cos": _real,
    "tan": _unit,
    "asin": _unit,
    "acos": _unit,
    "atan": _real,
    "sinh": _real,
    "cosh": _real,
    "tanh": _real,
    "sigmoid": _real,
    "relu": _nonzero,
    "abs": _nonzero,
    "erf": _real,
    "sign": _nonzero,
    "floor": _off_grid,
    "ceil": _off_grid,
    "round": _off_grid,
    "trunc": _off_grid,
}
for _op, _domain in _UNARY.items():
    case(_op, _op, (lambda name: lambda T, a: getattr(T, name)(a))(_op), In(M, _domain))
    case(
        f"{_op}-method-0d",
        _op,
        (lambda name: lambda T, a: getattr(a, name)())(_op),
        In((), _domain),
    )
case("softplus", "softplus", lambda T, a: T.nn.functional.softplus(a), In(M))
case(
    "softplus-beta-threshold",
    "softplus",
    lambda T, a: T.nn.functional.softplus(a, beta=2.0, threshold=1.0),
    In((3, 4), _positive),
    notes="2.5 > x > 0.5: both sides of the threshold (x = 0.5 itself is excluded)",
)

# more elementwise ops
case("erfc", "erfc", lambda T, a: T.erfc(a), In(M))
case("exp2", "exp2", lambda T, a: T.exp2(a), In(M))
case("sgn", "sgn", lambda T, a: T.sgn(a), In(M, _nonzero))
case("frac", "frac", lambda T, a: T.frac(a), In(M, _off_grid))
case("round_decimals", "round_decimals", lambda T, a: T.round(a, decimals=1), In(M, _off_tenths))
case("atan2", "atan2", lambda T, a, b: T.atan2(a, b), In(M), In(M, _nonzero))
case("atan2-bcast", "atan2", lambda T, a, b: T.atan2(a, b), In((3, 1)), In((1, 4), _nonzero))
# a / b in (2.09, 2.8): floor and trunc are 2, away from their jumps
_DIVIDEND, _DIVISOR = _uniform(2.2, 2.8), _uniform(1.0, 1.05)
case("remainder", "remainder", lambda T, a, b: T.remainder(a, b), In(M, _DIVIDEND), In(M, _DIVISOR))
case("remainder-number", "remainder_scalar", lambda T, a: a % 1.5, In(M, _uniform(0.1, 1.4)))
case("fmod", "fmod", lambda T, a, b: T.fmod(a, b), In(M, _DIVIDEND), In((3,), _DIVISOR))
case("fmod-negative", "fmod_scalar", lambda T, a: T.fmod(-a, 1.5), In(M, _uniform(0.1, 1.4)))
case("clamp", "clamp", lambda T, a: a.clamp(-0.5, 0.5), In(M, _distinct))
case("clamp-min-kw", "clamp", lambda T, a: T.clamp(a, min=0.5), In(M, _distinct))
case("clamp_min", "clamp_min", lambda T, a: a.clamp_min(0.5), In(M, _distinct))
case("clamp_max", "clamp_max", lambda T, a: T.clamp_max(a, 0.5), In(M, _distinct))
case(
    "clamp_tensor",
    "clamp_tensor",
    lambda T, a, lo, hi: T.clamp(a, lo, hi),
    In(M, _distinct),
    In(M, _uniform(-0.8, -0.7)),
    In((3,), _uniform(0.7, 0.8)),
)
case("maximum", "maximum", lambda T, a, b: T.maximum(a, b), In(M), In(M))
case("maximum-bcast", "maximum", lambda T, a, b: a.maximum(b), In((3, 1)), In((1, 4)))
case("minimum", "minimum", lambda T, a, b: T.minimum(a, b), In(M), In((3,)))

# reductions
_R = (2, 3, 4)
case("sum", "sum", lambda T, a: a.sum(), In(_R))
case("sum-fn", "sum", lambda T, a: T.sum(a), In(M))
case("sum_dim", "sum_dim", lambda T, a: a.sum(1), In(_R))
case("sum_dim-keepdim", "sum_dim", lambda T, a: a.sum(-1, keepdim=True), In(_R))
case("sum_dim-tuple", "sum_dim", lambda T, a: a.sum((0, 2)), In(_R))
case("sum_dim-0d", "sum_dim", lambda T, a: a.sum(0), In(()))
case("sum_dim-0d-keepdim", "sum_dim", lambda T, a: a.sum(-1, keepdim=True), In(()))
case("mean", "mean", lambda T, a: a.mean(), In(_R))
case("mean_dim-0d", "mean_dim", lambda T, a: a.mean(-1), In(()))
case("mean_dim", "mean_dim", lambda T, a: a.mean(0), In(_R))
case("mean_dim-keepdim", "mean_dim", lambda T, a: a.mean((1, 2), keepdim=True), In(_R))
case("norm", "norm", lambda T, a: a.norm(), In(M))
case("norm-p1", "norm", lambda T, a: a.norm(p=1), In(M, _nonzero))
case("norm-p3", "norm", lambda T, a: a.norm(p=3), In(M, _nonzero))
case("norm-inf", "norm", lambda T, a: a.norm(p=float("inf")), In(M, _distinct))
case("norm-dim", "norm", lambda T, a: a.norm(dim=1), In(M))
case("norm-dim-keepdim", "norm", lambda T, a: T.norm(a, dim=0, keepdim=True), In(M))
case("max", "max", lambda T, a: a.max(), In(M, _distinct))
case("min", "min", lambda T, a: T.min(a), In(M, _distinct))
case("max_dim", "max_dim_values", lambda T, a: a.max(1)[0], In(_R, _distinct))
case(
    "max_dim-keepdim",
    "max_dim_values",
    lambda T, a: T.max(a, dim=0, keepdim=True).values,
    In(M, _distinct),
)
case("min_dim", "min_dim_values", lambda T, a: a.min(-1).values, In(_R, _distinct))


def _one_zero(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    """Nonzero values but for one exact zero (the zero-safe paths of prod and cumprod)."""
    out = _nonzero(rng, shape)
    out.reshape(-1)[rng.randint(out.size)] = 0.0
    return out


def _grad_wrt_leaf(fn: Callable[[Any], Any]) -> Callable[..., Any]:
    """The create_graph gradient of `fn(x)` for a grad output `v`, as a function of `v` only (x is
    a constant leaf that requires grad): the backward of `fn` is an op of its own."""

    def run(T: Any, x: Any, v: Any) -> Any:
        x.requires_grad_()
        return T.autograd.grad(fn(x), x, grad_outputs=v, create_graph=True)[0]

    return run


def _gather_of_max(T: Any, x: Any, v: Any, u: Any) -> Any:
    """Differentiating the scatter in max's backward again: GatherBackward0, a function of u."""
    x.requires_grad_()
    v.requires_grad_()
    (g,) = T.autograd.grad(x.max(1, keepdim=True).values, x, grad_outputs=v, create_graph=True)
    return T.autograd.grad(g, v, grad_outputs=u, create_graph=True)[0]


case("prod", "prod", lambda T, a: a.prod(), In(M, _nonzero))
case("prod-zero", "prod", lambda T, a: T.prod(a), In(M, _one_zero))
case("prod_dim", "prod_dim", lambda T, a: a.prod(1), In(_R, _nonzero))
case("prod_dim-keepdim-zero", "prod_dim", lambda T, a: a.prod(0, keepdim=True), In(M, _one_zero))
case("nansum", "nansum", lambda T, a: a.nansum(1), In(M))
case("amax", "amax", lambda T, a: a.amax(1), In(_R, _distinct))
case("amax-all", "amax", lambda T, a: T.amax(a), In(M, _distinct))
case("amin-tuple-keepdim", "amin", lambda T, a: a.amin((0, 2), keepdim=True), In(_R, _distinct))
case("median", "median", lambda T, a: a.median(), In(M, _distinct))
case("median_dim", "median_dim_values", lambda T, a: a.median(1).values, In(_R, _distinct))
case("var", "var", lambda T, a: a.var(), In(_R))
case("var-dim-keepdim", "var", lambda T, a: a.var(1, keepdim=True, correction=0), In(_R))
case("std", "std", lambda T, a: a.std(), In(M))
case("std-tuple", "std", lambda T, a: T.std(a, (0, 2)), In(_R))
case("logsumexp", "logsumexp", lambda T, a: T.logsumexp(a, 1), In(_R))
case("logsumexp-tuple-keepdim", "logsumexp", lambda T, a: a.logsumexp((0, 1), True), In(_R))
case("cumsum", "cumsum", lambda T, a: a.cumsum(1), In(_R))
case("cumsum-0d", "cumsum", lambda T, a: T.cumsum(a, 0), In(()))
case("cumprod", "cumprod", lambda T, a: a.cumprod(-1), In(_R, _nonzero))
case("div_by_count", "div_scalar", _grad_wrt_leaf(lambda x: x.mean(1)), In(M, diff=False), In((2,)))
case(
    "reversed_scan_flip",
    "flip",
    _grad_wrt_leaf(lambda x: x.cumsum(1)),
    In(M, diff=False),
    In(M),
)
case(
    "scatter_along_dim",
    "scatter",
    _grad_wrt_leaf(lambda x: x.max(1).values),
    In(M, _distinct, diff=False),
    In((2,)),
)
case(
    "gather_along_dim",
    "gather",
    _gather_of_max,
    In(M, _distinct, diff=False),
    In((2, 1), diff=False),
    In(M),
)

# linear algebra
case("mm", "mm", lambda T, a, b: a.mm(b), In((2, 3)), In((3, 4)))
case("mm-matmul", "mm", lambda T, a, b: a @ b, In((2, 3)), In((3, 4)))
case("mm-const-right", "mm", lambda T, a, b: a @ b, In((2, 3)), In((3, 4), diff=False))
case("bmm", "bmm", lambda T, a, b: T.bmm(a, b), In((2, 2, 3)), In((2, 3, 4)))
case("unsafe_view-3d-2d", "_unsafe_view", lambda T, a, b: a @ b, In((2, 2, 3)), In((3, 4)))
case(
    "unsafe_view-3d-3d",
    "_unsafe_view",
    lambda T, a, b: T.matmul(a, b),
    In((2, 2, 3)),
    In((2, 3, 4)),
)
case("unsafe_view-bcast", "_unsafe_view", lambda T, a, b: a @ b, In((2, 1, 2, 3)), In((3, 3, 2)))
case("dot", "dot", lambda T, a, b: T.dot(a, b), In((4,)), In((4,)))
case("dot-matmul", "dot", lambda T, a, b: a @ b, In((4,)), In((4,)))
case("mv", "mv", lambda T, a, b: T.mv(a, b), In((2, 3)), In((3,)))
case("mv-matmul", "mv", lambda T, a, b: a @ b, In((2, 3)), In((3,)))
case("outer", "mul", lambda T, a, b: T.outer(a, b), In((3,)), In((4,)))
case("squeeze_-vec-mat", "squeeze_dim_", lambda T, a, b: a @ b, In((3,)), In((3, 4)))
case("unsafe_view-3d-vec-mv", "_unsafe_view", lambda T, a, b: a @ b, In((2, 2, 3)), In((3,)))

case("unsafe_view-2d-3d", "clone", lambda T, a, b: a @ b, In((2, 3)), In((2, 3, 4)))
case("unsafe_view-3d-vec", "_unsafe_view", lambda T, a, b: a @ b, In((2, 2, 3)), In((3,)))
case(
    "bmm-bcast-const",
    "_unsafe_view",
    lambda T, a, b: a @ b,
    In((2, 2, 3)),
    In((1, 3, 4), diff=False),
)
case(
    "reshape_alias",
    "_reshape_alias",
    lambda T, a: (T.ops.matrix._reshape if T.__name__ == "autodiff_cli.engine" else T.reshape)(
        a.t(), (3, 2, 1)
    ),
    In(M),
    notes="the engine's Tensor.reshape does not yet choose ReshapeAlias; matrix._reshape does",
)
case("addmm", "addmm", lambda T, a, b, c: T.addmm(a, b, c), In((4,)), In((2, 3)), In((3, 4)))
case(
    "addmm-linear",
    "addmm",
    lambda T, x, w, b: T.nn.functional.linear(x, w, b),
    In((2, 3)),
    In((4, 3)),
    In((4,)),
)
case("trace", "trace", lambda T, a: T.trace(a), In((3, 4)))
case("diagonal", "diagonal", lambda T, a: a.diagonal(1), In((3, 4)))
case("diagonal-dims", "diagonal", lambda T, a: T.diagonal(a, -1, 1, 2), In(_R))
case("diag", "diag", lambda T, a: T.diag(a, -1), In((3, 4)))
case("diag_embed", "diag_embed", lambda T, a: T.diag(a, 1), In((3,)))
case("diagonal_backward", "diagonal_backward", lambda T, v: _grad_of_diagonal(T, v), In((3,)))
case("tril", "tril", lambda T, a: T.tril(a), In((3, 4)))
case("triu", "triu", lambda T, a: a.triu(-1), In(_R))
case("linalg_det", "linalg_det", lambda T, a: T.det(a), In((3, 3)))
case("linalg_det-batch", "linalg_det", lambda T, a: T.linalg.det(a), In((2, 2, 2)))
case(
    "linalg_solve_ex",
    "linalg_solve_ex",
    lambda T, a, v: T.autograd.grad(T.linalg.det(a), a, grad_outputs=v, create_graph=True)[0],
    In((3, 3), _well_conditioned),
    In(()),
    notes="aten::linalg_solve_ex, as det's formula calls it under create_graph",
)
case("linalg_inv_ex", "linalg_inv_ex", lambda T, a: T.inverse(a), In((3, 3), _well_conditioned))
case(
    "linalg_inv_ex-batch",
    "linalg_inv_ex",
    lambda T, a: T.linalg.inv(a),
    In((2, 2, 2), _well_conditioned),
)

# torch.nn.functional
case("leaky_relu", "leaky_relu", lambda T, a: T.nn.functional.leaky_relu(a, 0.2), In(M, _nonzero))
case("gelu", "gelu", lambda T, a: T.nn.functional.gelu(a), In(M))
case("gelu-tanh", "gelu", lambda T, a: T.nn.functional.gelu(a, approximate="tanh"), In(M))
case("elu", "elu", lambda T, a: T.nn.functional.elu(a, alpha=1.5), In(M, _nonzero))
case("selu", "elu", lambda T, a: T.nn.functional.selu(a), In(M, _nonzero))
# torch.xlogy with a number on either side
case("xlogy-torch", "xlogy", lambda T, a, b: T.xlogy(a, b), In(M), In(M, _positive))
case("xlogy_scalar_self", "xlogy_scalar_self", lambda T, b: T.xlogy(2.0, b), In(M, _positive))
case("xlogy_scalar_other", "xlogy_scalar_other", lambda T, a: a.xlogy(3.0), In(M))

# ops/arrange.py
case("rot90", "rot90", lambda T, a: T.rot90(a, 1, (0, 1)), In(M))
case("rot90-back", "rot90", lambda T, a: a.rot90(-3, (1, 0)), In((2, 3, 4)))
case("tile", "repeat", lambda T, a: a.tile((2, 1, 2)), In(M))

# in-place methods on a non-leaf (`a * 1`): the op's own node records the old value's history
_INPLACE_UNARY = {
    "log2_": ("log2", _positive), "log10_": ("log10", _positive), "log1p_": ("log1p", _positive),
    "expm1_": ("expm1", _real), "rsqrt_": ("rsqrt", _positive), "tan_": ("tan", _unit),
    "asin_": ("asin", _unit), "arccos_": ("acos", _unit), "arctan_": ("atan", _real),
    "sinh_": ("sinh", _real), "cosh_": ("cosh", _real), "erf_": ("erf", _real),
    "erfc_": ("erfc", _real), "exp2_": ("exp2", _real), "frac_": ("frac", _off_grid),
    "absolute_": ("abs", _nonzero), "square_": ("pow_scalar", _real), "logit_": ("logit", _probability),
}  # fmt: skip
for _method, (_op, _domain) in _INPLACE_UNARY.items():
    case(_method, _op, lambda T, a, m=_method: getattr(a * 1, m)(), In(M, _domain))
case("clamp_min_", "clamp_min", lambda T, a: (a * 1).clamp_min_(0.1), In(M, _off_tenths))
case("clamp_max_", "clamp_max", lambda T, a: (a * 1).clamp_max_(0.1), In(M, _off_tenths))
case("cumsum_", "cumsum", lambda T, a: (a * 1).cumsum_(1), In(M))
case("cumprod_", "cumprod", lambda T, a: (a * 1).cumprod_(0), In(M, _nonzero))
case("tril_", "tril", lambda T, a: (a * 1).tril_(), In((3, 3)))
case("triu_", "triu", lambda T, a: (a * 1).triu_(1), In((3, 3)))
case("divide_", "div", lambda T, a, b: (a * 1).divide_(b), In(M), In(M, _positive))
case("multiply_", "mul", lambda T, a, b: (a * 1).multiply_(b), In(M), In((3,)))
case("subtract_", "sub", lambda T, a, b: (a * 1).subtract_(b, alpha=2), In(M), In(M))
case("fmod_", "fmod_scalar", lambda T, a: (a * 1).fmod_(0.75), In(M, _off_grid))
case(
    "remainder_",
    "remainder",
    lambda T, a, b: (a * 1).remainder_(b),
    In(M, _off_grid),
    In(M, _positive),
)
case("atan2_", "atan2", lambda T, a, b: (a * 1).atan2_(b), In(M), In(M, _positive))
case("hypot_", "hypot", lambda T, a, b: (a * 1).hypot_(b), In(M, _nonzero), In(M, _nonzero))
case("lerp_", "lerp", lambda T, a, b: (a * 1).lerp_(b, 0.3), In(M), In(M))
case("nan_to_num_", "nan_to_num", lambda T, a: (a * 1).nan_to_num_(), In(M))

# ops/blends.py
case("logaddexp", "logaddexp", lambda T, a, b: T.logaddexp(a, b), In(M), In(M))
case("logaddexp-bcast", "logaddexp", lambda T, a, b: a.logaddexp(b), In((3, 1)), In((1, 4)))
case("hypot", "hypot", lambda T, a, b: T.hypot(a, b), In(M, _nonzero), In(M, _nonzero))
case("lerp", "lerp", lambda T, a, b: T.lerp(a, b, 0.3), In(M), In(M))
case("lerp-far", "lerp", lambda T, a, b: a.lerp(b, 0.8), In(M), In((1, 3)))
case("lerp_tensor", "lerp_tensor", lambda T, a, b, w: T.lerp(a, b, w), In(M), In(M), In(M, _unit))
case("logit", "logit", lambda T, a: T.logit(a), In(M, _probability))
case("logit-eps", "logit", lambda T, a: a.logit(0.25), In(M, _probability))
case("nan_to_num", "nan_to_num", lambda T, a: T.nan_to_num(a / a.abs().round()), In(M, _nonzero))

# torch.div with a rounding mode: DivBackward2, a zero gradient for both inputs
case(
    "div_mode-trunc",
    "div_mode",
    lambda T, a, b: T.div(a, b, rounding_mode="trunc"),
    In(M, _off_grid),
    In(M, _positive),
)
case("div_mode-floor", "div_mode", lambda T, a: T.div(a, 0.75, rounding_mode="floor"), In(M))
# in place (on a non-leaf): the variants whose formulas read the result
case(
    "leaky_relu_",
    "leaky_relu_",
    lambda T, a: T.nn.functional.leaky_relu(a * 1, 0.2, inplace=True),
    In(M, _nonzero),
)
case("elu_", "elu_", lambda T, a: T.nn.functional.elu(a * 1, 1.5, inplace=True), In(M, _nonzero))
case("selu_", "elu_", lambda T, a: T.nn.functional.selu(a * 1, inplace=True), In(M, _nonzero))
case("silu", "silu", lambda T, a: T.nn.functional.silu(a), In(M))
case("logsigmoid", "log_sigmoid", lambda T, a: T.nn.functional.logsigmoid(a), In(M))
case("softmax", "softmax", lambda T, a: T.softmax(a, 1), In(_R))
case("softmax-method", "softmax", lambda T, a: a.softmax(0), In(M))
case("log_softmax", "log_softmax", lambda T, a: T.nn.functional.log_softmax(a, dim=-1), In(_R))
case("mse_loss", "mse_loss", lambda T, a, b: T.nn.functional.mse_loss(a, b), In(M), In(M))
case(
    "mse_loss-none",
    "mse_loss",
    lambda T, a, b: T.nn.functional.mse_loss(a, b, reduction="none"),
    In(M),
    In(M, diff=False),
)
case(
    "smooth_l1_loss",
    "smooth_l1_loss",
    lambda T, a, b: T.nn.functional.smooth_l1_loss(a, b, reduction="sum", beta=0.5),
    In((4, 5)),
    In((4, 5)),
    second_order=False,
    notes="piecewise: the second derivative jumps where |input - target| = beta",
)
case(
    "huber_loss",
    "huber_loss",
    lambda T, a, b: T.nn.functional.huber_loss(a, b, delta=0.7),
    In((4, 5)),
    In((4, 5)),
    second_order=False,
    notes="piecewise: the second derivative jumps where |input - target| = delta",
)
case(
    "binary_cross_entropy",
    "binary_cross_entropy",
    lambda T, p, y: T.nn.functional.binary_cross_entropy(p, y),
    In(M, _probability),
    In(M, _probability),
)
case(
    "binary_cross_entropy-weight",
    "binary_cross_entropy",
    lambda T, p, y, w: T.nn.functional.binary_cross_entropy(p, y, weight=w, reduction="none"),
    In(M, _probability),
    In(M, _probability, diff=False),
    In((3,), _positive, diff=False),
)
case(
    "nll_loss",
    "nll_loss",
    lambda T, a: T.nn.functional.nll_loss(a, T.tensor([2, 0, 1, 2])),
    In((4, 3)),
)
case(
    "nll_loss-weight-ignore",
    "nll_loss",
    lambda T, a, w: T.nn.functional.nll_loss(
        a, T.tensor([2, 0, 1, 2]), weight=w, ignore_index=1, reduction="none"
    ),
    In((4, 3)),
    In((3,), _positive, diff=False),
)
case(
    "nll_loss-cross_entropy",
    "nll_loss",
    lambda T, a: T.nn.functional.cross_entropy(a, T.tensor([2, 0, 1, 2])),
    In((4, 3)),
)
case(
    "mul_scalar-label_smoothing",
    "add",
    lambda T, a: T.nn.functional.cross_entropy(a, T.tensor([2, 0, 1]), label_smoothing=0.2),
    In((3, 4)),
)
case(
    "mul_scalar",
    "mul_scalar",
    lambda T, a: _mul_scalar(T, a, 0.8),
    In((3, 4)),
    notes="aten::mul.Scalar, as cross_entropy's label smoothing uses it",
)
case(
    "add_scalar",
    "add_scalar",
    lambda T, a: _scalar_op(T, "add", a, 1.5),
    In((3, 4)),
    notes="aten::add.Scalar, as the asin/acos formulas use it",
)
case(
    "sub_scalar",
    "sub_scalar",
    lambda T, a: _scalar_op(T, "sub", a, 1.5),
    In((3, 4)),
    notes="aten::sub.Scalar, as pow's formula uses it",
)
case(
    "div_scalar-cross_entropy-probabilities",
    "div_scalar",
    lambda T, a, p: T.nn.functional.cross_entropy(a, p),
    In((3, 4)),
    In((3, 4), _probability, diff=False),
)

# shapes and views
case("t", "t", lambda T, a: a.t(), In(M))
case("t-T", "t", lambda T, a: T.t(a), In((3,)))
case("transpose", "transpose", lambda T, a: a.transpose(0, 2), In(_R))
case("transpose-negative", "transpose", lambda T, a: T.transpose(a, -1, -2), In(_R))
case("permute", "permute", lambda T, a: a.permute(2, 0, 1), In(_R))
case("view", "view", lambda T, a: a.view(3, 2), In(M))
case("view-infer", "view", lambda T, a: a.reshape(-1), In(_R))
case("flatten", "view", lambda T, a: a.flatten(1), In(_R))
case("unsqueeze", "unsqueeze", lambda T, a: a.unsqueeze(1), In(M))
case("unsqueeze-negative", "unsqueeze", lambda T, a: T.unsqueeze(a, -1), In(M))
case("squeeze", "squeeze", lambda T, a: a.squeeze(), In((2, 1, 3, 1)))
case("squeeze_dim", "squeeze_dim", lambda T, a: a.squeeze(1), In((2, 1, 3)))
case("squeeze_dims", "squeeze_dims", lambda T, a: a.squeeze((1, 3)), In((2, 1, 3, 1)))
case("expand", "expand", lambda T, a: a.expand(3, 4), In((3, 1)))
case("expand-new-dims", "expand", lambda T, a: a.expand(2, 3, 4), In((4,)))
case("expand_as", "expand", lambda T, a, b: a.expand_as(b), In((1, 3)), In((2, 3), diff=False))
case("clone", "clone", lambda T, a: a.clone(), In(M))
case(
    "to-float64",
    "to",
    lambda T, a: a.to(T.float64),
    In(M, dtype="float32"),
    eps=2.0**-8,
    notes="float32 input: exactly representable steps keep the difference quotient exact",
)
case("select", "select", lambda T, a: a.select(1, 2), In(_R))
case("select-getitem", "select", lambda T, a: a[1], In(M))
case("select-negative", "select", lambda T, a: a[-1], In(M))
case("index-list", "index", lambda T, a: a[[0, 2, 0]], In((3, 4)))
case("index-tensor", "index", lambda T, a: a[T.tensor([1, 1, 0])], In((3, 4)))
case("index-mask", "index", lambda T, a: a[_mask(T, (3, 4))], In((3, 4)))
case("slice", "slice", lambda T, a: a[1:3], In((4, 3)))
case("slice-step", "slice", lambda T, a: a[:, ::2], In((3, 5)))
case("slice-ellipsis", "slice", lambda T, a: a[..., 1:], In(_R))
case("unbind", "unbind", lambda T, a: a.unbind(1), In((2, 3)))
case("unbind-fn", "unbind", lambda T, a: T.unbind(a), In((3, 2)))
case("stack", "stack", lambda T, a, b: T.stack([a, b], 1), In(M), In(M))
case("stack-repeat", "stack", lambda T, a, b: T.stack([a, b, a]), In(M), In(M))
case("stack-const", "stack", lambda T, a, b: T.stack([a, b], -1), In(M, diff=False), In(M))
case("cat", "cat", lambda T, a, b: T.cat([a, b]), In(M), In((1, 3)))
case("cat-dim1-const", "cat", lambda T, a, b: T.cat((a, b, a), 1), In(M), In((2, 1), diff=False))
case("split", "split", lambda T, a: a.split(2, 1), In((2, 5)))
case("chunk", "split", lambda T, a: T.chunk(a, 2), In((3, 2)))
case("split_with_sizes", "split_with_sizes", lambda T, a: a.split([1, 3], 1), In((2, 4)))
case("narrow", "slice", lambda T, a: a.narrow(1, 1, 2), In((2, 4)))
case("repeat", "repeat", lambda T, a: a.repeat(2, 1, 3), In(M))
case("flip", "flip", lambda T, a: a.flip(0, 2), In(_R))
case("alias", "alias", lambda T, a: a[...], In(M))
case("contiguous", "clone", lambda T, a: a.t().contiguous(), In(M))
case("reshape-copy", "_unsafe_view", lambda T, a: a.transpose(0, 1).reshape(-1), In(_R))
case("masked_fill", "masked_fill", lambda T, a: a.masked_fill(_mask(T, (3, 4)), 0.5), In((3, 4)))
case(
    "masked_fill-tensor",
    "masked_fill_tensor",
    lambda T, a, v: a.masked_fill(_mask(T, (4,)), v),
    In((3, 4)),
    In(()),
)
case("index_select", "index_select", lambda T, a: a.index_select(1, T.tensor([2, 0, 2])), In(_R))
case("gather", "gather", lambda T, a: a.gather(1, T.tensor([[2, 0, 2], [1, 1, 0]])), In((2, 4)))
case(
    "scatter_add",
    "scatter_add",
    lambda T, a, b: a.scatter_add(1, T.tensor([[0, 1, 0], [2, 2, 1]]), b),
    In((2, 4)),
    In((2, 3)),
)
case(
    "scatter",
    "scatter",
    lambda T, a, b: a.scatter(0, T.tensor([[1, 0, 1, 0]]), b),
    In((2, 4)),
    In((1, 4)),
)
case("scatter-value", "scatter_value", lambda T, a: a.scatter(1, T.tensor([[2], [0]]), 0.5), In(M))

# index_add / index_copy / index_fill / masked_scatter / scatter_reduce / index_reduce
_ROWS = [0, 2, 0]  # a repeated row: values are reduced together
_SCATTER_AT = [[0, 1, 0, 3], [2, 2, 1, 2]]
case(
    "index_add-alpha",
    "index_add",
    lambda T, a, b: a.index_add(0, T.tensor(_ROWS), b, alpha=-1.5),
    In((3, 4)),
    In((3, 4)),
)
case(
    "index_copy",
    "index_copy",
    lambda T, a, b: T.index_copy(a, 1, T.tensor([3, 0]), b),
    In((2, 4)),
    In((2, 2)),
)
case("index_fill", "index_fill", lambda T, a: a.index_fill(1, T.tensor([2, 0, 2]), -0.5), In(_R))
case(
    "index_fill-tensor",
    "index_fill_tensor",
    lambda T, a, v: a.index_fill(0, T.tensor([1, 1]), v),
    In((3, 4)),
    In(()),
)
case(
    "masked_scatter",
    "masked_scatter",
    lambda T, a, b: a.masked_scatter(_mask(T, (4,)), b),
    In((3, 4)),
    In((3, 3)),
)


def _grad_of_masked_scatter(T: Any, v: Any) -> Any:
    """The create_graph gradient of masked_scatter's source for a grad output `v`:
    MaskedScatterBackwardBackward0, differentiable in `v`."""
    s = T.zeros(3, 4, dtype=T.float64, requires_grad=True)
    y = T.zeros(3, 4, dtype=T.float64).masked_scatter(_mask(T, (4,)), s)
    return T.autograd.grad(y, s, grad_outputs=v, create_graph=True)[0]


case("masked_scatter_backward", "masked_scatter_backward", _grad_of_masked_scatter, In((3, 4)))
for _reduce, _domain in [
    ("sum", _real),
    ("prod", _nonzero),
    ("mean", _real),
    ("amax", _distinct),
    ("amin", _distinct),
]:
    for _incl in (True, False):
        case(
            f"scatter_reduce-{_reduce}-{_incl}",
            "scatter_reduce",
            lambda T, a, b, r=_reduce, i=_incl: a.scatter_reduce(
                1, T.tensor(_SCATTER_AT), b, r, include_self=i
            ),
            In((3, 4), _domain),
            In((2, 4), _domain),
        )
        if _reduce != "sum":
            case(
                f"index_reduce-{_reduce}-{_incl}",
                "index_reduce",
                lambda T, a, b, r=_reduce, i=_incl: a.index_reduce(
                    0, T.tensor(_ROWS), b, r, include_self=i
                ),
                In((3, 4), _domain),
                In((3, 4), _domain),
            )


def _index_put(T: Any, a: Any, v: Any) -> Any:
    y = a * 1
    y[T.tensor([2, 0])] = v
    return y


def _fill_all(T: Any, a: Any, v: Any) -> Any:
    y = a * 1
    y[...] = v
    return y


def _copy_all(T: Any, a: Any, v: Any) -> Any:
    y = a * 1
    y[...] = v
    return y


def _regenerated_view(T: Any, a: Any, b: Any) -> Any:
    """A view of `y` read after an in-place op on another view of `y`: AsStridedBackward0."""
    y = a * 1
    first, second = y[0], y[1:]
    second.mul_(b)
    return first


def _grad_of_slice(T: Any, v: Any) -> Any:
    """The create_graph gradient of `x[1:4:2]` for a grad output `v`: SliceBackwardBackward0."""
    x = T.zeros(5, 3, dtype=T.float64, requires_grad=True)
    return T.autograd.grad(x[1:4:2], x, grad_outputs=v, create_graph=True)[0]


case("index_put", "index_put", _index_put, In((3, 4)), In((4,)))
case("fill", "fill", _fill_all, In((3, 4)), In(()))
case("copy", "copy", _copy_all, In((3, 4)), In((4,)))
case("as_strided", "as_strided", _regenerated_view, In((3, 4)), In((2, 4), diff=False))
case("slice_backward", "slice_backward", _grad_of_slice, In((2, 3)))
case("where", "where", lambda T, a, b: T.where(_mask(T, M), a, b), In(M), In(M))
case("where-bcast", "where", lambda T, a, b: T.where(_mask(T, M), a, b), In(M), In((3,)))
case("where-number", "where", lambda T, a: T.where(_mask(T, M), a, 0.0), In(M))
case("where-number-first", "where", lambda T, a: T.where(_mask(T, M), 1.5, a), In(M))

# addcmul, addcdiv: three inputs, broadcast, a `value`, as functions, methods and in place
case("addcmul", "addcmul", lambda T, a, b, c: T.addcmul(a, b, c), In(M), In(M), In(M))
case(
    "addcmul-broadcast-value",
    "addcmul",
    lambda T, a, b, c: T.addcmul(a, b, c, value=0.5),
    In((3,)),
    In((2, 1)),
    In((2, 3)),
)
case(
    "addcmul-method-const-tensor2",
    "addcmul",
    lambda T, a, b, c: a.addcmul(b, c, value=-2),
    In(M),
    In((3,)),
    In(M, diff=False),
)
case(
    "addcmul_-inplace",
    "addcmul",
    lambda T, a, b, c: (a * 1).addcmul_(b, c, value=1.5),
    In(M),
    In(M),
    In((3,)),
)
case(
    "addcdiv",
    "addcdiv",
    lambda T, a, b, c: T.addcdiv(a, b, c),
    In(M),
    In(M),
    In(M, _nonzero),
)
case(
    "addcdiv-broadcast-value",
    "addcdiv",
    lambda T, a, b, c: T.addcdiv(a, b, c, value=0.5),
    In(()),
    In((2, 1)),
    In((3,), _positive),
)
case(
    "addcdiv-method-const-tensor1",
    "addcdiv",
    lambda T, a, b, c: a.addcdiv(b, c, value=3),
    In(M),
    In(M, diff=False),
    In(M, _nonzero),
)
case(
    "addcdiv_-inplace",
    "addcdiv",
    lambda T, a, b, c: (a * 1).addcdiv_(b, c, value=-0.75),
    In(M),
    In((3,)),
    In(M, _positive),
)

# losses
_bce = "binary_cross_entropy_with_logits"
case(
    "bce_with_logits",
    _bce,
    lambda T, x, t: T.nn.functional.binary_cross_entropy_with_logits(x, t),
    In(M),
    In(M, _probability),
)
case(
    "bce_with_logits-sum",
    _bce,
    lambda T, x, t: T.nn.functional.binary_cross_entropy_with_logits(x, t, reduction="sum"),
    In(M),
    In(M, _probability),
)
case(
    "bce_with_logits-none",
    _bce,
    lambda T, x, t: T.nn.functional.binary_cross_entropy_with_logits(x, t, reduction="none"),
    In(M),
    In(M, _probability, diff=False),
)

# in-place writes on a non-leaf
case("fill_", "fill_", lambda T, a: (a * 1).fill_(0.5), In(M))
case("zero_", "zero_", lambda T, a: (a * 1).zero_(), In(M))
case("copy_", "copy", lambda T, a, b: (a * 1).copy_(b), In(M), In((3,)))


# backward formulas that are ops of their own, reached through create_graph
def _grad_of_nn(fn: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    """`_grad_of` for `fn(T, x)`, which needs the module (`T.nn.functional`)."""
    return lambda T, x, v: T.autograd.grad(fn(T, x), x, grad_outputs=v, create_graph=True)[0]


def _grad_of(fn: Callable[[Any], Any]) -> Callable[..., Any]:
    """The create_graph gradient of `fn(x)` for a grad output `v`: differentiable in x and v."""
    return lambda T, x, v: T.autograd.grad(fn(x), x, grad_outputs=v, create_graph=True)[0]


case("tanh_backward", "tanh_backward", _grad_of(lambda x: x.tanh()), In(M), In(M))
case("sigmoid_backward", "sigmoid_backward", _grad_of(lambda x: x.sigmoid()), In(M), In(M))
_F = "threshold_backward"
case(_F, _F, _grad_of(lambda x: x.relu()), In(M, _nonzero), In(M))
case(_F + "-method-0d", _F, _grad_of(lambda x: x.relu()), In((), _nonzero), In(()))
_F = "softplus_backward"
case(_F, _F, _grad_of_nn(lambda T, x: T.nn.functional.softplus(x)), In(M), In(M))
case(
    _F + "-beta-threshold",
    _F,
    _grad_of_nn(lambda T, x: T.nn.functional.softplus(x, beta=2.0, threshold=1.0)),
    In(M, _uniform(-1.0, 1.5)),
    In(M),
    second_order=False,
    notes="piecewise: the derivative jumps where beta · x = threshold",
)


def _grad_of_loss(name: str, **kwargs: Any) -> Callable[..., Any]:
    """The create_graph gradient in `x` of `F.<name>(x, t, **kwargs)` for a grad output `v`:
    differentiable in x, t and v."""

    def fn(T: Any, x: Any, t: Any, v: Any) -> Any:
        loss = getattr(T.nn.functional, name)(x, t, **kwargs)
        return T.autograd.grad(loss, x, grad_outputs=v, create_graph=True)[0]

    return fn


def _grad_of_nll(T: Any, x: Any, v: Any) -> Any:
    loss = T.nn.functional.nll_loss(x, T.tensor([2, 0, 1]), reduction="sum")
    return T.autograd.grad(loss, x, grad_outputs=v, create_graph=True)[0]


_F = "_softmax_backward_data"
case(_F, _F, _grad_of(lambda x: x.softmax(1)), In(M), In(M))
_F = "_log_softmax_backward_data"
case(_F, _F, _grad_of(lambda x: x.log_softmax(-1)), In(M), In(M))
case(
    "gelu_backward",
    "gelu_backward",
    _grad_of_nn(lambda T, x: T.nn.functional.gelu(x)),
    In(M),
    In(M),
)
case(
    "gelu_backward-tanh",
    "gelu_backward",
    _grad_of_nn(lambda T, x: T.nn.functional.gelu(x, approximate="tanh")),
    In(M),
    In(M),
)
case(
    "elu_backward",
    "elu_backward",
    _grad_of_nn(lambda T, x: T.nn.functional.elu(x, alpha=1.5)),
    In(M, _nonzero),
    In(M),
)
case(
    "log_sigmoid_backward",
    "log_sigmoid_backward",
    _grad_of_nn(lambda T, x: T.nn.functional.logsigmoid(x)),
    In(M),
    In(M),
)
case(
    "leaky_relu_backward",
    "leaky_relu_backward",
    _grad_of_nn(lambda T, x: T.nn.functional.leaky_relu(x, 0.2)),
    In(M, _nonzero),
    In(M),
)
_F = "mse_loss_backward"
case(_F, _F, _grad_of_loss("mse_loss"), In(M), In(M), In(()))
case(_F + "-none", _F, _grad_of_loss("mse_loss", reduction="none"), In(M), In(M), In(M))
_F = "smooth_l1_loss_backward"
case(
    _F,
    _F,
    _grad_of_loss("smooth_l1_loss", beta=0.5),
    In(M),
    In(M),
    In(()),
    second_order=False,
    notes="piecewise: the derivative jumps where |input - target| = beta",
)
_F = "huber_loss_backward"
case(
    _F,
    _F,
    _grad_of_loss("huber_loss", reduction="sum", delta=0.7),
    In(M),
    In(M),
    In(()),
    second_order=False,
    notes="piecewise: the derivative jumps where |input - target| = delta",
)
_F = "binary_cross_entropy_backward"
case(
    _F,
    _F,
    _grad_of_loss("binary_cross_entropy"),
    In(M, _probability),
    In(M, _probability),
    In(()),
)
case(
    _F + "-none",
    _F,
    _grad_of_loss("binary_cross_entropy", reduction="none"),
    In(M, _probability),
    In(M, _probability),
    In(M),
)
case("nll_loss_backward", "nll_loss_backward", _grad_of_nll, In((3, 4)), In(()))

# the backward of select and index, reached through create_graph
case("select_backward", "select_backward", _grad_of_select, In((3,)))
case("index_backward", "index_backward", _grad_of_index, In((3, 4)))

# ops/special_math.py
_PAST_ONE = _uniform(1.2, 3.0)
_BETWEEN_POLES = _uniform(-2.8, -2.2)
# PyTorch's float64 trigamma is ~1e-9 off below 5 (the engine's is exact to rounding): the rows
# whose second derivative (or value) is a trigamma stay above 5, where both agree within 1e-10
_ABOVE_FIVE = _uniform(5.0, 8.0)
case("asinh", "asinh", lambda T, a: T.asinh(a), In(M))
case("acosh", "acosh", lambda T, a: a.arccosh(), In(M, _PAST_ONE))
case("atanh", "atanh", lambda T, a: T.arctanh(a), In(M, _unit))
case("deg2rad", "deg2rad", lambda T, a: T.deg2rad(a), In(M))
case("rad2deg", "rad2deg", lambda T, a: a.rad2deg(), In(M))
case("sinc", "sinc", lambda T, a: T.sinc(a), In(M))
case("lgamma", "lgamma", lambda T, a: T.lgamma(a), In(M, _ABOVE_FIVE))
case("lgamma-negative", "lgamma", lambda T, a: a.lgamma(), In(M, _BETWEEN_POLES))
case("digamma", "digamma", lambda T, a: T.digamma(a), In(M, _ABOVE_FIVE))
case("digamma-negative", "digamma", lambda T, a: a.digamma(), In(M, _BETWEEN_POLES))
case("polygamma", "polygamma", lambda T, a: T.polygamma(1, a), In(M, _ABOVE_FIVE))
case("polygamma-2", "polygamma", lambda T, a: T.polygamma(2, a), In(M, _positive))
case("polygamma-3", "polygamma", lambda T, a: a.polygamma(3), In(M, _BETWEEN_POLES))
case("mvlgamma", "mvlgamma", lambda T, a: T.mvlgamma(a + 1, 3), In(M, _ABOVE_FIVE))
case("erfinv", "erfinv", lambda T, a: T.erfinv(a), In(M, _unit))
case("i0", "i0", lambda T, a: T.i0(a), In(M))
case("special_i1", "special_i1", lambda T, a: T.special.i1(a), In(M))
case("special_entr", "special_entr", lambda T, a: T.special.entr(a), In(M, _positive))
case("special_log_ndtr", "special_log_ndtr", lambda T, a: T.special.log_ndtr(a * 4), In(M))
case("special_ndtri", "special_ndtri", lambda T, a: T.special.ndtri(a), In(M, _probability))
case(
    "special_xlog1py",
    "special_xlog1py",
    lambda T, a, b: T.special.xlog1py(a, b),
    In(M),
    In(M, _positive),
)
case(
    "special_xlog1py-number-self",
    "special_xlog1py_scalar_self",
    lambda T, b: T.special.xlog1py(1.5, b),
    In(M, _positive),
)
case(
    "special_xlog1py-number-other",
    "special_xlog1py_scalar_other",
    lambda T, a: T.special.xlog1py(a, 0.5),
    In(M),
)
case("logaddexp2", "logaddexp2", lambda T, a, b: T.logaddexp2(a, b), In(M), In((1, 3)))
case("fmax", "fmax", lambda T, a, b: T.fmax(a, b), In(M, _distinct), In(M, _distinct))
case("fmin", "fmin", lambda T, a, b: a.fmin(b), In(M, _distinct), In(M, _distinct))
case("ldexp", "ldexp", lambda T, a, b: T.ldexp(a, b), In(M), In(M))
case("frexp", "frexp", lambda T, a: T.frexp(a)[0], In(M, _nonzero))

CASES_BY_ID = {c.id: c for c in CASES}
assert len(CASES_BY_ID) == len(CASES), "duplicate case ids"


# --------------------------------------------------------------------------------------------
# embedding, layer_norm, hardtanh, pad, xlogy (kl_div); their backward ops via create_graph
# --------------------------------------------------------------------------------------------

_IDX = [[0, 2, 0], [4, 3, 2]]


def _embedding(padding_idx: Any = None) -> Callable[..., Any]:
    return lambda T, w: T.nn.functional.embedding(T.tensor(_IDX), w, padding_idx=padding_idx)


def _grad_of_embedding(padding_idx: Any = None) -> Callable[..., Any]:
    """The create_graph gradient of the weight for a grad output `v`: repeated rows summed."""

    def fn(T: Any, v: Any) -> Any:
        w = T.zeros(5, 3, dtype=T.float64, requires_grad=True)
        out = T.nn.functional.embedding(T.tensor(_IDX), w, padding_idx=padding_idx)
        return T.autograd.grad(out, w, grad_outputs=v, create_graph=True)[0]

    return fn


def _grad_of_layer_norm(T: Any, x: Any, w: Any, v: Any) -> Any:
    """The create_graph gradients of input, weight and bias: three NativeLayerNormBackwardBackward0
    outputs, differentiable in x, w and v (the bias's value does not enter them)."""
    b = T.zeros(4, dtype=T.float64, requires_grad=True)
    out = T.nn.functional.layer_norm(x, (4,), w, b)
    return T.autograd.grad(out, (x, w, b), grad_outputs=v, create_graph=True)


def _grad_of_layer_norm_plain(T: Any, x: Any, v: Any) -> Any:
    out = T.nn.functional.layer_norm(x, (2, 3))
    return T.autograd.grad(out, x, grad_outputs=v, create_graph=True)[0]


_LN = (2, 3, 4)
case("embedding", "embedding", _embedding(), In((5, 3)))
case(
    "embedding-padding_idx",
    "embedding",
    _embedding(-4),
    In((5, 3)),
    notes="row 1 (-4) is not looked up: PyTorch's zero padding gradient is no derivative",
)
case("embedding_dense_backward", "embedding_dense_backward", _grad_of_embedding(), In((2, 3, 3)))
_F = "embedding_dense_backward-padding_idx"
case(_F, "embedding_dense_backward", _grad_of_embedding(2), In((2, 3, 3)))
case(
    "layer_norm",
    "native_layer_norm",
    lambda T, x, w, b: T.nn.functional.layer_norm(x, (4,), w, b),
    In(_LN),
    In((4,)),
    In((4,)),
)
case(
    "layer_norm-2d-plain",
    "native_layer_norm",
    lambda T, x: T.nn.functional.layer_norm(x, (3, 4), eps=1e-3),
    In(_LN),
)
case(
    "layer_norm-weight-only",
    "native_layer_norm",
    lambda T, x, w: T.nn.functional.layer_norm(x, [4], w),
    In((3, 4)),
    In((4,)),
)
_F = "native_layer_norm_backward"
_NOTE = (
    "PyTorch's layer_norm_double_backward holds the saved mean and rstd constant, so the "
    "derivative of these gradients in the input (layer_norm's third) is not the true one; "
    "test_engine_torch checks it is PyTorch's"
)
case(_F, _F, _grad_of_layer_norm, In(_LN), In((4,)), In(_LN), second_order=False, notes=_NOTE)
case(
    _F + "-plain",
    _F,
    _grad_of_layer_norm_plain,
    In((2, 2, 3)),
    In((2, 2, 3)),
    second_order=False,
    notes=_NOTE,
)


# batch_norm: training (batch statistics) and evaluation (fixed running statistics)
def _running(T: Any) -> tuple:
    """Running statistics for 3 channels (fresh each call: training updates them in place)."""
    mean = T.tensor([0.3, -0.5, 1.0], dtype=T.float64)
    var = T.tensor([0.8, 1.5, 0.6], dtype=T.float64)
    return mean, var


def _batch_norm(training: bool, affine: bool = True) -> Callable[..., Any]:
    def fn(T: Any, x: Any, *wb: Any) -> Any:
        w, b = wb if affine else (None, None)
        rm, rv = _running(T)
        return T.nn.functional.batch_norm(x, rm, rv, w, b, training=training, momentum=0.2)

    return fn


def _grad_of_batch_norm(training: bool, affine: bool = True) -> Callable[..., Any]:
    """The create_graph gradients of input (and weight, bias): NativeBatchNormBackwardBackward0
    outputs, differentiable in x, w and v."""

    def fn(T: Any, x: Any, *rest: Any) -> Any:
        w, v = rest if affine else (None, rest[0])
        b = T.zeros(3, dtype=T.float64, requires_grad=True) if affine else None
        rm, rv = _running(T)
        out = T.nn.functional.batch_norm(x, rm, rv, w, b, training=training)
        wrt = (x, w, b) if affine else (x,)
        return T.autograd.grad(out, wrt, grad_outputs=v, create_graph=True)

    return fn


_BN_NOTE = (
    "PyTorch's double backward holds the saved mean and invstd constant, so the derivative of "
    "these gradients in the input (batch_norm's third) is not the true one; test_engine_torch "
    "checks it is PyTorch's"
)
_BN3 = (3,)
_F = "native_batch_norm"
case("batch_norm-train-2d", _F, _batch_norm(True), In((5, 3)), In(_BN3), In(_BN3))
case("batch_norm-train-4d", _F, _batch_norm(True), In((2, 3, 2, 2)), In(_BN3), In(_BN3))
case("batch_norm-train-3d-plain", _F, _batch_norm(True, False), In((2, 3, 3)))
case("batch_norm-eval-2d", _F, _batch_norm(False), In((4, 3)), In(_BN3), In(_BN3))
case("batch_norm-eval-3d", _F, _batch_norm(False), In((2, 3, 4)), In(_BN3), In(_BN3))
case("batch_norm-eval-4d-plain", _F, _batch_norm(False, False), In((2, 3, 2, 2)))
_F = "native_batch_norm_backward"
_X = (2, 3, 4)
_G = _grad_of_batch_norm
case(_F + "-train", _F, _G(True), In(_X), In(_BN3), In(_X), second_order=False, notes=_BN_NOTE)
case(_F + "-train-2d", _F, _G(True), In((4, 3)), In(_BN3), In((4, 3)), second_order=False)
case(_F + "-train-plain", _F, _G(True, False), In(_X), In(_X), second_order=False, notes=_BN_NOTE)
case(_F + "-eval", _F, _G(False), In(_X), In(_BN3), In(_X), second_order=False, notes=_BN_NOTE)
case("hardtanh", "hardtanh", lambda T, a: T.nn.functional.hardtanh(a), In(M, _nonzero))
case(
    "hardtanh-relu6",
    "hardtanh",
    lambda T, a: T.nn.functional.relu6(a * 4.0),
    In((3, 4), _distinct),
    notes="4·a in ±(1.2 .. 14.4): both sides of 0 and of 6, none near them",
)
case(
    "hardtanh_backward",
    "hardtanh_backward",
    _grad_of_nn(lambda T, x: T.nn.functional.hardtanh(x, -0.5, 0.5)),
    In((3, 4), _distinct),
    In((3, 4)),
)
case("constant_pad_nd", "constant_pad_nd", lambda T, a: T.nn.functional.pad(a, (1, 2)), In(M))
case(
    "constant_pad_nd-crop-value",
    "constant_pad_nd",
    lambda T, a: T.nn.functional.pad(a, (1, -1, 0, 2, 1, 0), value=1.5),
    In(_LN),
)


def _grad_of_pad(shape: tuple, pad: tuple, mode: str = "constant") -> Callable[..., Any]:
    """The create_graph gradient of `F.pad(x, pad, mode)` for a grad output `v` (x zeros)."""

    def fn(T: Any, v: Any) -> Any:
        x = T.zeros(*shape, dtype=T.float64, requires_grad=True)
        out = T.nn.functional.pad(x, pad, mode=mode)
        return T.autograd.grad(out, x, grad_outputs=v, create_graph=True)[0]

    return fn


case("constant_pad_nd-create_graph", "constant_pad_nd", _grad_of_pad(M, (2, -1)), In((2, 4)))
for _mode in ("reflect", "replicate"):
    _pads = {
        1: ((2, 4, 5), (2, 1)),
        2: ((1, 3, 4), (1, 2, 2, 0)),
        3: ((1, 3, 3, 3), (1, 1, 2, 0, 0, 1)),
    }
    for _dims, (_shape, _pad) in _pads.items():
        _op = f"{'reflection' if _mode == 'reflect' else 'replication'}_pad{_dims}d"
        _fn = (lambda p, m: lambda T, x: T.nn.functional.pad(x, p, mode=m))(_pad, _mode)
        case(_op, _op, _fn, In(_shape))
        _widths = [(0, 0)] * (len(_shape) - _dims)
        _widths += [(_pad[2 * k], _pad[2 * k + 1]) for k in reversed(range(_dims))]
        _grad_shape = tuple(np.pad(np.zeros(_shape), _widths).shape)
        _fn = _grad_of_pad(_shape, _pad, _mode)
        case(_op + "_backward", _op + "_backward", _fn, In(_grad_shape))
case("xlogy", "xlogy", lambda T, a, b: a.xlogy(b), In(M), In(M, _positive))
case("xlogy-bcast", "xlogy", lambda T, a, b: a.xlogy(b), In((3,)), In(M, _positive))
case(
    "xlogy-kl_div",
    "sub",
    lambda T, a, t: T.nn.functional.kl_div(a, t, reduction="none"),
    In(M),
    In(M, _probability),
)
case(
    "xlogy-kl_div-batchmean",
    "div",
    lambda T, a, t: T.nn.functional.kl_div(a.log_softmax(1), t, reduction="batchmean"),
    In((3, 4)),
    In((3, 4), _probability, diff=False),
)
case("normalize-div", "div", lambda T, a: T.nn.functional.normalize(a), In(M))
case(
    "normalize-p1-dim0-div",
    "div",
    lambda T, a: T.nn.functional.normalize(a, p=1, dim=0),
    In(M, _nonzero),
)
case(
    "cosine_similarity-sum_dim",
    "sum_dim",
    lambda T, a, b: T.nn.functional.cosine_similarity(a, b),
    In(M),
    In(M),
)
case(
    "cosine_similarity-bcast-sum_dim",
    "sum_dim",
    lambda T, a, b: T.nn.functional.cosine_similarity(a, b, dim=-1),
    In((1, 3)),
    In((2, 3)),
)
case("softmin-softmax", "softmax", lambda T, a: T.nn.functional.softmin(a, dim=1), In(M))
case(
    "kl_div-log_target-mean",
    "mean",
    lambda T, a, t: T.nn.functional.kl_div(a, t, reduction="mean", log_target=True),
    In(M),
    In(M),
)

CASES_BY_ID = {c.id: c for c in CASES}
assert len(CASES_BY_ID) == len(CASES), "duplicate case ids"


# --------------------------------------------------------------------------------------------
# nll_loss / cross_entropy on (N, C, d1, ...) inputs (nll_loss2d, as PyTorch's nll_loss_nd: a 4-d
# input directly, any other viewed as (N, C, 1, -1)); nll_loss2d_backward via create_graph
# --------------------------------------------------------------------------------------------

_T4 = [[[2, 0], [1, 2]], [[0, 0], [2, 1]]]  # targets of a (2, 3, 2, 2) input
_T3 = [[2, 0, 1, 1], [0, 2, 2, 1]]  # of a (2, 3, 4) input
_T5 = [[[[1, 2]], [[0, 0]]], [[[2, 1]], [[1, 0]]]]  # of a (2, 3, 2, 1, 2) input


def _nll_nd(target: list, name: str = "nll_loss", **kwargs: Any) -> Callable[..., Any]:
    """`F.<name>(x, target, **kwargs)`, or with a class weight `w` when the row has one."""

    def fn(T: Any, x: Any, w: Any = None) -> Any:
        loss = getattr(T.nn.functional, name)
        return loss(x, T.tensor(target), weight=w, **kwargs)

    return fn


def _grad_of_nll_nd(target: list, **kwargs: Any) -> Callable[..., Any]:
    """The create_graph gradient in `x` of `F.nll_loss(x, target, **kwargs)` for a grad output
    `v` (NllLoss2DBackwardBackward0, differentiable in v; a class weight `w` when given)."""

    def fn(T: Any, x: Any, v: Any, w: Any = None) -> Any:
        loss = T.nn.functional.nll_loss(x, T.tensor(target), weight=w, **kwargs)
        return T.autograd.grad(loss, x, grad_outputs=v, create_graph=True)[0]

    return fn


_N4, _N3, _N5 = (2, 3, 2, 2), (2, 3, 4), (2, 3, 2, 1, 2)
_W = In((3,), _positive, diff=False)
case("nll_loss2d", "nll_loss2d", _nll_nd(_T4), In(_N4))
case("nll_loss2d-sum", "nll_loss2d", _nll_nd(_T4, reduction="sum"), In(_N4))
case("nll_loss2d-none", "nll_loss2d", _nll_nd(_T4, reduction="none"), In(_N4))
case("nll_loss2d-weight", "nll_loss2d", _nll_nd(_T4), In(_N4), _W)
case("nll_loss2d-weight-ignore", "nll_loss2d", _nll_nd(_T4, ignore_index=2), In(_N4), _W)
_F = "nll_loss2d-weight-ignore-none"
case(_F, "nll_loss2d", _nll_nd(_T4, ignore_index=0, reduction="none"), In(_N4), _W)
case("nll_loss2d-ignore-sum", "nll_loss2d", _nll_nd(_T4, ignore_index=1, reduction="sum"), In(_N4))
case("nll_loss2d-3d", "nll_loss2d", _nll_nd(_T3), In(_N3))
case("nll_loss2d-3d-none-view", "view", _nll_nd(_T3, reduction="none"), In(_N3))
case("nll_loss2d-5d-sum", "nll_loss2d", _nll_nd(_T5, reduction="sum"), In(_N5), _W)
case("nll_loss2d-5d-none-view", "view", _nll_nd(_T5, reduction="none", ignore_index=1), In(_N5))
case("nll_loss2d-cross_entropy", "nll_loss2d", _nll_nd(_T4, "cross_entropy"), In(_N4))
case("nll_loss2d-cross_entropy-3d", "nll_loss2d", _nll_nd(_T3, "cross_entropy"), In(_N3), _W)
_F = "nll_loss2d-cross_entropy-5d-ignore"
case(_F, "nll_loss2d", _nll_nd(_T5, "cross_entropy", ignore_index=0), In(_N5))
_F = "nll_loss2d-cross_entropy-label_smoothing-add"
case(_F, "add", _nll_nd(_T4, "cross_entropy", label_smoothing=0.2), In(_N4))
_F = "nll_loss2d-cross_entropy-label_smoothing-weight-ignore-add"
_G = _nll_nd(_T3, "cross_entropy", label_smoothing=0.1, ignore_index=1)
case(_F, "add", _G, In(_N3), _W)
_F = "nll_loss2d-cross_entropy-label_smoothing-none-add"
case(_F, "add", _nll_nd(_T5, "cross_entropy", label_smoothing=0.3, reduction="none"), In(_N5))
_F = "nll_loss2d_backward"
case(_F, _F, _grad_of_nll_nd(_T4, reduction="sum"), In(_N4), In(()))
case(_F + "-mean-weight", _F, _grad_of_nll_nd(_T4, ignore_index=2), In(_N4), In(()), _W)
_G = _grad_of_nll_nd(_T4, reduction="none", ignore_index=0)
case(_F + "-none-weight-ignore", _F, _G, In(_N4), In((2, 2, 2)), _W)
case(_F + "-3d-view", "view", _grad_of_nll_nd(_T3), In(_N3), In(()))

CASES_BY_ID = {c.id: c for c in CASES}
assert len(CASES_BY_ID) == len(CASES), "duplicate case ids"


# --------------------------------------------------------------------------------------------
# sorting.py: sort, sort(stable=...), msort, topk, kthvalue; their backward scatters the
# gradient back (ScatterBackward0 under create_graph)
# --------------------------------------------------------------------------------------------

case("sort", "sort", lambda T, a: a.sort(1).values, In(_R, _distinct))
case(
    "sort-descending",
    "sort",
    lambda T, a: T.sort(a, dim=0, descending=True).values,
    In(M, _distinct),
)
case("sort-0d", "sort", lambda T, a: T.sort(a).values, In(()))
case("msort", "sort", lambda T, a: T.msort(a), In(_R, _distinct))
case(
    "sort_stable",
    "sort_stable",
    lambda T, a: T.sort(a, stable=True, dim=-1, descending=True).values,
    In(_R, _distinct),
)
case("topk", "topk", lambda T, a: a.topk(2, 1).values, In(_R, _distinct))
case(
    "topk-smallest-unsorted",
    "topk",
    # k=1: sorted=False leaves the order of several elements unspecified (PyTorch's and ours differ)
    lambda T, a: T.topk(a, 1, dim=-1, largest=False, sorted=False).values,
    In(_R, _distinct),
)
case("kthvalue", "kthvalue", lambda T, a: a.kthvalue(2, 1).values, In(_R, _distinct))
case(
    "kthvalue-keepdim",
    "kthvalue",
    lambda T, a: T.kthvalue(a, 1, dim=0, keepdim=True).values,
    In(M, _distinct),
)
case(
    "scatter_along_dim-sort",
    "scatter",
    _grad_wrt_leaf(lambda x: x.sort(1, descending=True).values),
    In(M, _distinct, diff=False),
    In(M),
)
case(
    "scatter_along_dim-topk",
    "scatter",
    _grad_wrt_leaf(lambda x: x.topk(2).values),
    In(M, _distinct, diff=False),
    In((2, 2)),
)
case(
    "scatter_along_dim-kthvalue",
    "scatter",
    _grad_wrt_leaf(lambda x: x.kthvalue(2, 0).values),
    In(M, _distinct, diff=False),
    In((3,)),
)

CASES_BY_ID = {c.id: c for c in CASES}
assert len(CASES_BY_ID) == len(CASES), "duplicate case ids"

# --------------------------------------------------------------------------------------------
# random draws: each evaluation reseeds, so the draw is a constant and its gradient is zero
# (PyTorch's UniformBackward0 ... pass zeros back)
# --------------------------------------------------------------------------------------------


def _seeded(draw: Callable[..., Any]) -> Callable[..., Any]:
    def fn(T: Any, *inputs: Any) -> Any:
        T.manual_seed(0)
        return draw(T, *inputs)

    return fn


_FILLS = {
    "uniform_": lambda a: a.uniform_(-1.0, 2.0),
    "normal_": lambda a: a.normal_(0.5, 2.0),
    "random_": lambda a: a.random_(0, 10),
    "exponential_": lambda a: a.exponential_(2.0),
    "geometric_": lambda a: a.geometric_(0.3),
    "log_normal_": lambda a: a.log_normal_(),
    "cauchy_": lambda a: a.cauchy_(),
}
for _op, _fill in _FILLS.items():
    case(_op, _op, _seeded(lambda T, a, fill=_fill: fill(a * 1)), In(M), second_order=False)
case("bernoulli", "bernoulli", _seeded(lambda T, p: T.bernoulli(p)), In(M, _probability))
case("bernoulli_", "bernoulli_", _seeded(lambda T, a: (a * 1).bernoulli_(0.3)), In(M))
case(
    "bernoulli_-tensor",
    "bernoulli_tensor_",
    _seeded(lambda T, a, p: (a * 1).bernoulli_(p)),
    In(M),
    In(M, _probability),
    second_order=False,
)

CASES_BY_ID = {c.id: c for c in CASES}
assert len(CASES_BY_ID) == len(CASES), "duplicate case ids"

# --------------------------------------------------------------------------------------------
# ops/activations.py: hardswish, hardsigmoid, mish, celu, glu, threshold (in place too); the
# backward ops of hardswish and glu via create_graph (hardsigmoid_backward has no derivative:
# test_engine_gradients.NOT_IMPLEMENTED)
# --------------------------------------------------------------------------------------------


def _off_hard_kinks(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    """Values on all three pieces of hardswish/hardsigmoid, at least 0.3 from -3 and 3."""
    piece = rng.randint(0, 3, shape)
    return np.choose(
        piece,
        [
            rng.uniform(-5.0, -3.3, shape),
            rng.uniform(-2.7, 2.7, shape),
            rng.uniform(3.3, 5.0, shape),
        ],
    )


_HARD = In((3, 4), _off_hard_kinks)
case("hardswish", "hardswish", lambda T, a: T.nn.functional.hardswish(a), _HARD)
case(
    "hardswish-inplace",
    "hardswish",
    lambda T, a: T.nn.functional.hardswish(a * 1, inplace=True),
    In(M, _off_hard_kinks),
)
case(
    "hardswish_backward",
    "hardswish_backward",
    _grad_of_nn(lambda T, x: T.nn.functional.hardswish(x)),
    _HARD,
    In((3, 4)),
)
case(
    "hardsigmoid",
    "hardsigmoid",
    lambda T, a: T.nn.functional.hardsigmoid(a),
    _HARD,
    second_order=False,
    notes="hardsigmoid_backward has no derivative (NotImplemented, as PyTorch's)",
)
case(
    "hardsigmoid-inplace",
    "hardsigmoid",
    lambda T, a: T.nn.functional.hardsigmoid(a * 1, inplace=True),
    In(M, _off_hard_kinks),
    second_order=False,
    notes="hardsigmoid_backward has no derivative (NotImplemented, as PyTorch's)",
)
case("mish", "mish", lambda T, a: T.nn.functional.mish(a), In((3, 4), _uniform(-4.0, 4.0)))
case("mish-inplace", "mish", lambda T, a: T.nn.functional.mish(a * 1, inplace=True), In(M))
case("celu", "celu", lambda T, a: T.celu(a, 1.5), In((3, 4), _nonzero))
case("celu-F-default", "celu", lambda T, a: T.nn.functional.celu(a), In(M, _nonzero))
case("celu_", "celu_", lambda T, a: T.nn.functional.celu(a * 1, 0.7, inplace=True), In(M, _nonzero))
case("celu_-torch", "celu_", lambda T, a: T.celu_(a * 1, 2.0), In(M, _nonzero))
case(
    "elu_backward-celu",
    "elu_backward",
    _grad_of_nn(lambda T, x: T.nn.functional.celu(x, 0.7)),
    In(M, _nonzero),
    In(M),
)
case("glu", "glu", lambda T, a: T.nn.functional.glu(a), In((3, 4)))
case("glu-dim0", "glu", lambda T, a: T.nn.functional.glu(a, 0), In((2, 3, 2)))
case(
    "glu_backward",
    "glu_backward",
    _grad_of_nn(lambda T, x: T.nn.functional.glu(x, 1)),
    In((2, 4)),
    In((2, 2)),
)
case(
    "glu_backward-dim0",
    "glu_backward",
    _grad_of_nn(lambda T, x: T.nn.functional.glu(x, -3)),
    In((4, 3, 2)),
    In((2, 3, 2)),
)
case("threshold", "threshold", lambda T, a: T.threshold(a, 0.1, -2.0), In((3, 4), _nonzero))
case(
    "threshold-F",
    "threshold",
    lambda T, a: T.nn.functional.threshold(a, -0.1, 3.0),
    In(M, _nonzero),
)
case("threshold_", "threshold_", lambda T, a: T.threshold_(a * 1, 0.1, 5.0), In(M, _nonzero))
case(
    "threshold_-F",
    "threshold_",
    lambda T, a: T.nn.functional.threshold(a * 1, 0.1, 5.0, inplace=True),
    In(M, _nonzero),
)
case(
    "threshold_backward-threshold",
    "threshold_backward",
    _grad_of_nn(lambda T, x: T.nn.functional.threshold(x, 0.1, -2.0)),
    In(M, _nonzero),
    In(M),
)


def _off_shrink_kinks(rng: np.random.RandomState, shape: tuple) -> np.ndarray:
    """Values on the three pieces of hardshrink/softshrink (lambd 0.5), at least 0.2 from ±0.5."""
    piece = rng.randint(0, 3, shape)
    pieces = [rng.uniform(-2.0, -0.7, shape), rng.uniform(-0.3, 0.3, shape)]
    return np.choose(piece, [*pieces, rng.uniform(0.7, 2.0, shape)])


_SHRINK = In((3, 4), _off_shrink_kinks)
case("hardshrink", "hardshrink", lambda T, a: T.nn.functional.hardshrink(a), _SHRINK)
case("hardshrink-method", "hardshrink", lambda T, a: a.hardshrink(0.5), In(M, _off_shrink_kinks))
case(
    "hardshrink_backward",
    "hardshrink_backward",
    _grad_of_nn(lambda T, x: T.hardshrink(x, 0.5)),
    _SHRINK,
    In((3, 4)),
)
case("softshrink", "softshrink", lambda T, a: T.nn.functional.softshrink(a, 0.5), _SHRINK)
case(
    "softshrink_backward",
    "softshrink_backward",
    _grad_of_nn(lambda T, x: T.nn.functional.softshrink(x)),
    _SHRINK,
    In((3, 4)),
)
case(
    "_prelu_kernel",
    "_prelu_kernel",
    lambda T, a, w: T.nn.functional.prelu(a, w),
    In((2, 3, 4), _nonzero),
    In((3,), _uniform(0.1, 0.5)),
)
case(
    "_prelu_kernel-one-weight",
    "_prelu_kernel",
    lambda T, a, w: T.prelu(a, w),
    In((3, 4), _nonzero),
    In((1,), _uniform(0.1, 0.5)),
)
case(
    "_prelu_kernel-method-1d",
    "_prelu_kernel",
    lambda T, a, w: a.prelu(w),
    In((5,), _nonzero),
    In((1,), _uniform(0.1, 0.5)),
)


def _prelu_grads(T: Any, x: Any, w: Any, v: Any, both: bool = True) -> Any:
    """The create_graph gradients of prelu for a grad output `v` (one PreluKernelBackwardBackward0
    node gives both; only the input's when the weight is viewed, whose own is summed to it)."""
    wanted = (x, w) if both else x
    return T.autograd.grad(T.prelu(x, w), wanted, grad_outputs=v, create_graph=True)


case(
    "_prelu_kernel_backward",
    "_prelu_kernel_backward",
    _prelu_grads,
    In((), _nonzero),
    In((), _uniform(0.1, 0.5)),
    In(()),
)
case(
    "_prelu_kernel_backward-channels",
    "_prelu_kernel_backward",
    lambda T, x, w, v: _prelu_grads(T, x, w, v, both=False),
    In((2, 3, 2), _nonzero),
    In((3,), _uniform(0.1, 0.5)),
    In((2, 3, 2)),
)


def _rrelu_training(T: Any, a: Any, inplace: bool = False) -> Any:
    """rrelu in training with the slopes of seed 0 (the same draws at every call)."""
    T.manual_seed(0)
    return T.nn.functional.rrelu(a, 0.1, 0.3, training=True, inplace=inplace)


case("rrelu_with_noise", "rrelu_with_noise", _rrelu_training, In((3, 4), _nonzero))
case("rrelu_with_noise-eval", "rrelu_with_noise", lambda T, a: T.rrelu(a), In(M, _nonzero))
case(
    "rrelu_with_noise_",
    "rrelu_with_noise_",
    lambda T, a: _rrelu_training(T, a * 1, inplace=True),
    In(M, _nonzero),
)
case(
    "rrelu_with_noise_-eval",
    "rrelu_with_noise_",
    lambda T, a: T.rrelu_(a * 1, 0.2, 0.4),
    In(M, _nonzero),
)
case(
    "rrelu_with_noise_backward",
    "rrelu_with_noise_backward",
    _grad_of_nn(_rrelu_training),
    In(M, _nonzero),
    In(M),
)
case(
    "rrelu_with_noise_backward-eval",
    "rrelu_with_noise_backward",
    _grad_of_nn(lambda T, x: T.nn.functional.rrelu(x)),
    In(M, _nonzero),
    In(M),
)

CASES_BY_ID = {c.id: c for c in CASES}
assert len(CASES_BY_ID) == len(CASES), "duplicate case ids"

# --------------------------------------------------------------------------------------------
# ops/recurrent.py: the gate split of GRU/LSTM cells (unsafe_chunk) and a batch_first RNN's
# in-place transpose of its own output (the fused LSTM layer: tests/test_engine_recurrent.py)
# --------------------------------------------------------------------------------------------


def _unsafe_chunk(T: Any, a: Any, chunks: int, dim: int) -> Any:
    if hasattr(T, "unsafe_chunk"):
        return T.unsafe_chunk(a, chunks, dim)
    from autodiff_cli.engine.ops import recurrent

    return recurrent.unsafe_chunk(a, chunks, dim)


def _transpose_result(T: Any, a: Any) -> Any:
    if hasattr(T, "unsafe_chunk"):  # PyTorch: the in-place transpose_ of a fresh result
        return (a * 1).transpose_(0, 1)
    from autodiff_cli.engine.ops import recurrent

    return recurrent.transpose_result(a * 1, 0, 1)


case("unsafe_chunk", "unsafe_split", lambda T, a: _unsafe_chunk(T, a, 3, 1), In((2, 6)))
case("unsafe_chunk-dim0", "unsafe_split", lambda T, a: _unsafe_chunk(T, a, 2, 0), In((4, 3)))
case("transpose_-result", "transpose_", lambda T, a: _transpose_result(T, a), In((2, 3, 2)))

CASES_BY_ID = {c.id: c for c in CASES}
assert len(CASES_BY_ID) == len(CASES), "duplicate case ids"

# --------------------------------------------------------------------------------------------
# ops/select_ops.py: copysign (Tensor or number), masked_select (its gradient a masked_scatter),
# take (its gradient a put with accumulation, PutBackward0 under create_graph)
# --------------------------------------------------------------------------------------------

case("copysign", "copysign", lambda T, a, b: T.copysign(a, b), In(M, _nonzero), In(M, _nonzero))
case(
    "copysign-bcast",
    "copysign",
    lambda T, a, b: a.copysign(b),
    In((3, 1), _nonzero),
    In((1, 4), _nonzero),
)
case("copysign_", "copysign", lambda T, a, b: (a * 1).copysign_(b), In(M, _nonzero), In((3,)))
case("copysign_scalar", "copysign_scalar", lambda T, a: T.copysign(a, -1.5), In(M, _nonzero))
case("copysign_scalar-method", "copysign_scalar", lambda T, a: a.copysign(0.0), In(M, _nonzero))
_SELECT_MASK = [[True, False, True, True], [False, False, True, False], [True, True, False, True]]
case(
    "masked_select",
    "masked_select",
    lambda T, a: T.masked_select(a, T.tensor(_SELECT_MASK)),
    In((3, 4)),
)
case(
    "masked_select-bcast",
    "masked_select",
    lambda T, a: a.masked_select(T.tensor(_SELECT_MASK)),
    In((4,)),
)
case(
    "masked_scatter-masked_select",
    "masked_scatter",
    _grad_wrt_leaf(lambda x: x.masked_select(x.new_tensor(_SELECT_MASK).bool())),
    In((3, 4), diff=False),
    In((7,)),
    notes="the zeros are constant: the gradient is a function of the incoming gradient only",
)
_TAKE_AT = [[0, 5, -1], [2, 2, 7]]
case("take", "take", lambda T, a: T.take(a, T.tensor(_TAKE_AT)), In((3, 4)))
case("take-method", "take", lambda T, a: a.take(T.tensor([1, 1, 3])), In((2, 2)))
case(
    "put",
    "put",
    _grad_wrt_leaf(lambda x: x.take(x.new_tensor(_TAKE_AT).long())),
    In((3, 4), diff=False),
    In((2, 3)),
)

CASES_BY_ID = {c.id: c for c in CASES}
assert len(CASES_BY_ID) == len(CASES), "duplicate case ids"

# --------------------------------------------------------------------------------------------
# ops/vector_ops.py: cross / linalg.cross (their gradients cross products again), logcumsumexp
# --------------------------------------------------------------------------------------------

case("linalg_cross", "linalg_cross", lambda T, a, b: T.linalg.cross(a, b), In((2, 3)), In((2, 3)))
case(
    "linalg_cross-dim0-bcast",
    "linalg_cross",
    lambda T, a, b: T.cross(a, b, dim=0),
    In((3, 1, 2)),
    In((3, 4, 2)),
)
case("linalg_cross-method", "linalg_cross", lambda T, a, b: a.cross(b, dim=-1), In((3,)), In((3,)))
case("logcumsumexp", "logcumsumexp", lambda T, a: T.logcumsumexp(a, 1), In((2, 3, 4)))
case("logcumsumexp-method", "logcumsumexp", lambda T, a: a.logcumsumexp(-1), In((5,)))
case("logcumsumexp-0d", "logcumsumexp", lambda T, a: T.logcumsumexp(a, 0), In(()))
# ops/reshaping.py and ops/combining.py: their own ops, and the compositions whose last op
# gives the grad_fn PyTorch shows
# --------------------------------------------------------------------------------------------

case("roll", "roll", lambda T, a: T.roll(a, (1, -2), (0, 1)), In(M))
case("roll-flat", "roll", lambda T, a: a.roll(4), In(M))
case("diff", "sub", lambda T, a: T.diff(a), In(M))
case("diff-n2-dim0", "sub", lambda T, a: T.diff(a, n=2, dim=0), In((4, 3)))
case(
    "diff-prepend-append",
    "sub",
    lambda T, a, p, q: T.diff(a, dim=1, prepend=p, append=q),
    In(M),
    In((2, 1)),
    In((2, 2)),
)
case("hstack", "cat", lambda T, a, b: T.hstack([a, b]), In(M), In((2, 2)))
case("vstack", "cat", lambda T, a, b: T.vstack([a, b]), In((3,)), In(M))
case("dstack", "cat", lambda T, a, b: T.dstack((a, b)), In(M), In(M))
case("column_stack", "cat", lambda T, a, b: T.column_stack([a, b]), In((2,)), In(M))
case("row_stack", "cat", lambda T, a, b: T.row_stack([a, b]), In(M), In((3,)))
case("ravel", "view", lambda T, a: T.ravel(a.t()), In(M))
case("broadcast_to", "expand", lambda T, a: T.broadcast_to(a, (2, 2, 3)), In((1, 3)))
case("atleast_2d", "unsqueeze", lambda T, a: T.atleast_2d(a), In((3,)))
case("atleast_3d", "unsqueeze", lambda T, a: T.atleast_3d(a), In(M))
case("atleast_1d", "view", lambda T, a: T.atleast_1d(a), In(()))
case("hstack-0d", "cat", lambda T, a, b: T.hstack([a, b]), In(()), In((2,)))
case(
    "take_along_dim-broadcast",
    "gather",
    lambda T, a: T.take_along_dim(a, T.tensor([[0], [2]]), dim=1),
    In((1, 3)),
)
case("meshgrid", "expand", lambda T, a, b: T.meshgrid(a, b, indexing="xy"), In((2,)), In((3,)))
case("tensor_split", "slice", lambda T, a: T.tensor_split(a, 2, dim=1), In(M))
case("tensor_split-indices", "slice", lambda T, a: a.tensor_split([1, 5], dim=1), In((2, 4)))
case("hsplit", "slice", lambda T, a: T.hsplit(a, [1]), In(M))
case("vsplit", "slice", lambda T, a: a.vsplit(2), In((4, 2)))
case("dsplit", "slice", lambda T, a: T.dsplit(a, 2), In((2, 1, 4)))
case("fliplr", "flip", lambda T, a: T.fliplr(a), In(M))
case("flipud", "flip", lambda T, a: a.flipud(), In(M))
case("diagflat", "diag_embed", lambda T, a: T.diagflat(a, -1), In(M))
case("repeat_interleave", "view", lambda T, a: T.repeat_interleave(a, 2, dim=1), In(M))
case(
    "repeat_interleave-tensor",
    "index_select",
    lambda T, a: a.repeat_interleave(T.tensor([2, 0, 1]), dim=1),
    In(M),
)
case(
    "take_along_dim",
    "gather",
    lambda T, a: T.take_along_dim(a, T.tensor([[2, 0, 0]]), dim=1),
    In(M),
)
case("take_along_dim-flat", "gather", lambda T, a: a.take_along_dim(T.tensor([5, 0, 5])), In(M))
case("cummax", "cummax", lambda T, a: T.cummax(a, 1).values, In((3, 4), _distinct))
case("cummin", "cummin", lambda T, a: a.cummin(0).values, In((4, 3), _distinct))
case("block_diag", "block_diag", lambda T, a, b, c: T.block_diag(a, b, c), In(M), In(()), In((3,)))
case("kron", "_unsafe_view", lambda T, a, b: T.kron(a, b), In(M), In((2, 2)))
case("kron-1d", "_unsafe_view", lambda T, a, b: a.kron(b), In((3,)), In(M))
case("tensordot", "view", lambda T, a, b: T.tensordot(a, b, dims=([0], [1])), In(M), In((3, 2)))
case("tensordot-full", "view", lambda T, a, b: T.tensordot(a, b), In(M), In(M))
case(
    "tensordot-sum",
    "view",
    lambda T, a, b: T.tensordot(a, b, dims=([1, 0], [0, 1])),
    In(M),
    In((3, 2)),
)
case("cartesian_prod", "stack", lambda T, a, b: T.cartesian_prod(a, b), In((2,)), In((3,)))
# ops/matrix_functions.py
case(
    "addmv",
    "addmv",
    lambda T, c, m, v: T.addmv(c, m, v, beta=0.5, alpha=2.0),
    In((2,)),
    In((2, 3)),
    In((3,)),
)
case("addmv-bcast", "addmv", lambda T, c, m, v: c.addmv(m, v), In((1,)), In((2, 3)), In((3,)))
case(
    "addr",
    "addr",
    lambda T, c, u, v: T.addr(c, u, v, beta=2.0, alpha=-1.5),
    In((2, 3)),
    In((2,)),
    In((3,)),
)
case("addr-bcast", "addr", lambda T, c, u, v: c.addr(u, v), In((3,)), In((2,)), In((3,)))
case(
    "baddbmm",
    "baddbmm",
    lambda T, c, x, y: T.baddbmm(c, x, y, beta=0.5, alpha=3.0),
    In((2, 2, 4)),
    In((2, 2, 3)),
    In((2, 3, 4)),
)
case(
    "addbmm",
    "addbmm",
    lambda T, c, x, y: T.addbmm(c, x, y, beta=1.5, alpha=0.5),
    In((2, 4)),
    In((3, 2, 3)),
    In((3, 3, 4)),
)
case(
    "addbmm-bcast",
    "addbmm",
    lambda T, c, x, y: c.addbmm(x, y),
    In((4,)),
    In((3, 2, 3)),
    In((3, 3, 4)),
)
case("matrix_exp", "linalg_matrix_exp", lambda T, a: T.matrix_exp(a), In((3, 3)))
case(
    "matrix_exp-batch",
    "linalg_matrix_exp",
    lambda T, a: T.linalg.matrix_exp(a),
    In((2, 2, 2), _uniform(-3.0, 3.0)),
)
case(
    "linalg_slogdet",
    "linalg_slogdet",
    lambda T, a: T.linalg.slogdet(a).logabsdet,
    In((3, 3), _well_conditioned),
)
case(
    "linalg_slogdet-batch",
    "linalg_slogdet",
    lambda T, a: T.slogdet(-a).logabsdet,
    In((2, 3, 3), _well_conditioned),
)
case("logdet", "where", lambda T, a: T.logdet(a), In((3, 3), _well_conditioned))


def _spd_of(T: Any, a: Any) -> Any:
    """A symmetric positive-definite matrix made of `a` (a Cholesky input in every direction)."""
    return a @ a.mT + 2 * T.eye(a.shape[-1], dtype=a.dtype)


# ops/decompositions.py
case("linalg_svd-vals", "linalg_svd", lambda T, a: T.linalg.svdvals(a), In((3, 2), _distinct))
case(
    "linalg_svd-tall",
    "linalg_svd",
    lambda T, a: tuple(T.linalg.svd(a, full_matrices=False)),
    In((5, 2)),
)
case(
    "linalg_svd",
    "linalg_svd",
    lambda T, a: tuple(T.linalg.svd(a, full_matrices=False)),
    In((3, 3), _distinct),
)
case(
    "linalg_svd-wide",
    "linalg_svd",
    lambda T, a: tuple(T.linalg.svd(a, full_matrices=False)),
    In((3, 4)),
)
case("linalg_qr", "linalg_qr", lambda T, a: tuple(T.linalg.qr(a)), In((4, 3)))
case("linalg_qr-wide", "linalg_qr", lambda T, a: tuple(T.linalg.qr(a)), In((2, 4)))
case(
    "linalg_cholesky_ex",
    "linalg_cholesky_ex",
    lambda T, a: T.linalg.cholesky(_spd_of(T, a)),
    In((3, 3)),
)
case(
    "cholesky-upper",
    "cholesky",
    lambda T, a: T.cholesky(_spd_of(T, a), upper=True),
    In((2, 3, 3)),
)
case(
    "linalg_solve_triangular",
    "linalg_solve_triangular",
    lambda T, a, b: T.linalg.solve_triangular(a, b, upper=True),
    In((3, 3), _well_conditioned),
    In((3, 2)),
)
case(
    "linalg_solve_triangular-right",
    "linalg_solve_triangular",
    lambda T, a, b: T.linalg.solve_triangular(a, b, upper=False, left=False, unitriangular=True),
    In((2, 3, 3), _well_conditioned),
    In((2, 4, 3)),
)
case("linalg_pinv", "linalg_pinv", lambda T, a: T.linalg.pinv(a), In((3, 2)))
case("linalg_pinv-wide", "linalg_pinv", lambda T, a: a.pinverse(), In((2, 3)))


# ops/statistics.py (cdist's own rows would make PyTorch raise on their second derivative)
case(
    "_euclidean_dist",
    "_euclidean_dist",
    lambda T, a, b: T.cdist(a, b, compute_mode="use_mm_for_euclid_dist")._base,
    In((3, 2), _distinct),
    In((4, 2), _distinct),
)
case(
    "cdist-mm",
    "view",
    lambda T, a, b: T.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
    In((3, 2), _distinct),
    In((4, 2), _distinct),
)
case("dist", "dist", lambda T, a, b: T.dist(a, b), In(M), In((3,)))
case("dist-p1", "dist", lambda T, a, b: a.dist(b, 1), In(M, _distinct), In(M), second_order=False)
case("dist-p3", "dist", lambda T, a, b: T.dist(a, b, 3), In(M), In(M), second_order=False)


# ops/distances.py: pairwise_distance's old `norm` overload (NormBackward1) and pdist (whose
# backward PyTorch cannot differentiate: first order only; `_pdist_backward` is in
# test_engine_gradients.RAISES_ON_BACKWARD)
case("norm_p_dim", "norm_p_dim", lambda T, a, b: T.pairwise_distance(a, b), In(M), In(M))
case(
    "norm_p_dim-p3-keepdim",
    "norm_p_dim",
    lambda T, a, b: T.nn.functional.pairwise_distance(a, b, p=3, keepdim=True),
    In((3, 4)),
    In((4,)),
)
case("_pdist_forward", "_pdist_forward", lambda T, a: T.pdist(a), In((4, 3)), second_order=False)
case(
    "_pdist_forward-p1",
    "_pdist_forward",
    lambda T, a: T.pdist(a, 1),
    In((3, 2), _distinct),
    second_order=False,
)
case(
    "_pdist_forward-p1.5",
    "_pdist_forward",
    lambda T, a: T.nn.functional.pdist(a, p=1.5),
    In((3, 4), _distinct),
    second_order=False,
)
case(
    "_pdist_forward-inf",
    "_pdist_forward",
    lambda T, a: T.pdist(a, float("inf")),
    In((3, 2), _distinct),
    second_order=False,
)


# ops/margin_losses.py (multi_margin_loss's backward has no derivative: first order only, and
# `multi_margin_loss_backward` is in test_engine_gradients.NOT_IMPLEMENTED)
def _signs(T: Any, shape: tuple) -> Any:
    """A fixed ±1 target of `shape`."""
    return T.tensor(
        np.where(np.arange(int(np.prod(shape))) % 3 == 1, -1.0, 1.0).reshape(shape).tolist(),
        dtype=T.float64,
    )


def _grad_of_soft_margin(T: Any, x: Any, v: Any, reduction: str = "mean") -> Any:
    loss = T.nn.functional.soft_margin_loss(x, _signs(T, M), reduction=reduction)
    return T.autograd.grad(loss, x, grad_outputs=v, create_graph=True)[0]


case(
    "soft_margin_loss",
    "soft_margin_loss",
    lambda T, a: T.nn.functional.soft_margin_loss(a, _signs(T, M)),
    In(M),
)
case(
    "soft_margin_loss-none",
    "soft_margin_loss",
    lambda T, a: T.nn.functional.soft_margin_loss(a, _signs(T, M), reduction="none"),
    In(M),
)
case(
    "soft_margin_loss-sum-bcast",
    "soft_margin_loss",
    lambda T, a: T.nn.functional.soft_margin_loss(a, _signs(T, (3,)), reduction="sum"),
    In(M),
)
_F = "soft_margin_loss_backward"
case(_F, _F, _grad_of_soft_margin, In(M), In(()))
case(
    _F + "-none",
    _F,
    lambda T, x, v: _grad_of_soft_margin(T, x, v, reduction="none"),
    In(M),
    In(M),
)
case(
    "multi_margin_loss",
    "multi_margin_loss",
    lambda T, a: T.nn.functional.multi_margin_loss(a, T.tensor([2, 0, 3])),
    In((3, 4)),
    second_order=False,
)
case(
    "multi_margin_loss-p2-weight-none",
    "multi_margin_loss",
    lambda T, a, w: T.nn.functional.multi_margin_loss(
        a, T.tensor([2, 0, 3]), p=2, margin=0.8, weight=w, reduction="none"
    ),
    In((3, 4)),
    In((4,), _positive, diff=False),
    second_order=False,
)
case(
    "multi_margin_loss-1d-sum",
    "multi_margin_loss",
    lambda T, a: T.nn.functional.multi_margin_loss(a, T.tensor(1), reduction="sum"),
    In((5,)),
    second_order=False,
)
case("trapezoid-dx", "mul_scalar", lambda T, y: T.trapezoid(y, dx=0.5), In((2, 4)))
case(
    "trapezoid-x",
    "div_scalar",
    lambda T, y, x: T.trapezoid(y, x, dim=0),
    In((4, 3)),
    In((4,)),
)
case("trapz", "div_scalar", lambda T, y, x: T.trapz(y, x), In((2, 4)), In((2, 4)))
case(
    "cumulative_trapezoid",
    "cumsum",
    lambda T, y: T.cumulative_trapezoid(y, dx=2.0),
    In((2, 4)),
)
case(
    "cumulative_trapezoid-x",
    "div_scalar",
    lambda T, y, x: T.cumulative_trapezoid(y, x),
    In((3, 4)),
    In((4,)),
)
case("cov", "squeeze", lambda T, a: T.cov(a), In((3, 5)))
case(
    "cov-weights",
    "squeeze",
    lambda T, a: a.cov(
        correction=2,
        fweights=T.tensor([1, 2, 1, 3]),
        aweights=T.tensor([0.5, 1.0, 2.0, 1.0], dtype=T.float64),
    ),
    In((2, 4)),
)
case("corrcoef", "clamp", lambda T, a: T.corrcoef(a), In((3, 5)))
case("quantile", "squeeze_dim_", lambda T, a: T.quantile(a, 0.3), In((3, 4), _distinct))
case(
    "quantile-dim",
    "squeeze_dim_",
    lambda T, a: a.quantile(0.6, dim=0, keepdim=True),
    In((4, 3), _distinct),
)
case(
    "quantile-midpoint",
    "squeeze_dim_",
    lambda T, a: T.quantile(a, 0.4, dim=-1, interpolation="midpoint"),
    In((2, 5), _distinct),
)
case(
    "nanquantile-lower",
    "squeeze_dim_",
    lambda T, a: T.nanquantile(a, 0.4, dim=1, interpolation="lower"),
    In((2, 5), _distinct),
)
case("nanmedian", "nanmedian", lambda T, a: T.nanmedian(a), In(M, _distinct))
case("nanmedian_dim", "nanmedian_dim", lambda T, a: a.nanmedian(1).values, In(_R, _distinct))
case("mode", "mode", lambda T, a: T.mode(a.round(), 0).values, In((4, 3), _off_grid))

CASES_BY_ID = {c.id: c for c in CASES}
assert len(CASES_BY_ID) == len(CASES), "duplicate case ids"

# -- issue 30: in-place views, comparison in place, linalg.solve --------------------------------
case("unsqueeze_", "unsqueeze_", lambda T, a: (a * 1).unsqueeze_(1), In(M))
case("t_", "t_", lambda T, a: (a * 1).t_(), In(M))
case("transpose_", "transpose_", lambda T, a: (a * 1).transpose_(0, -1), In((2, 3, 4)))
case("squeeze_", "squeeze_", lambda T, a: (a * 1).squeeze_(), In((3, 1, 4)))
case("squeeze_dims_", "squeeze_dims_list_", lambda T, a: (a * 1).squeeze_((1,)), In((3, 1, 4)))
for _cmp in ("eq", "ne", "lt", "le", "gt", "ge"):
    case(
        f"{_cmp}_-scalar", f"{_cmp}_scalar_",
        lambda T, a, _cmp=_cmp: getattr(a * 1, _cmp + "_")(0.5), In(M),
    )  # fmt: skip
    case(
        f"{_cmp}_-tensor", f"{_cmp}_tensor_",
        lambda T, a, b, _cmp=_cmp: getattr(a * 1, _cmp + "_")(b), In(M), In((3,)),
    )  # fmt: skip
case(
    "linalg_solve", "linalg_solve_ex", lambda T, a, b: T.linalg.solve(a, b),
    In((3, 3), _well_conditioned), In((3, 2)),
)  # fmt: skip
case(
    "linalg_solve-vector", "linalg_solve_ex", lambda T, a, b: T.linalg.solve(a, b),
    In((3, 3), _well_conditioned), In((3,)),
)  # fmt: skip

# -- convolution, pooling, resampling (nn.functional; their values and many more configurations
# are checked in tests/test_conv_pool.py); a `*_backward` row differentiates the op's gradient
# again (its create_graph node) ----------------------------------------------------------------


def _nn(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A row of `fn(F, *inputs)`, F being `T.nn.functional`."""
    return lambda T, *inputs: fn(T.nn.functional, *inputs)


def _grad_of_f(fn: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    """The create_graph gradient of the linear `fn(F, x)` for a grad output `v`, a function of
    `v` only (it does not depend on x, a constant leaf that requires grad)."""

    def run(T: Any, x: Any, v: Any) -> Any:
        x.requires_grad_()
        return T.autograd.grad(fn(T.nn.functional, x), x, grad_outputs=v, create_graph=True)[0]

    return run


_CONV_ROWS = [
    (
        "convolution",
        "conv2d",
        _nn(lambda F, x, w, b: F.conv2d(x, w, b, stride=2, padding=1)),
        (In((1, 2, 5, 5)), In((3, 2, 3, 3)), In((3,))),
    ),
    (
        "convolution",
        "conv1d-groups-dilation",
        _nn(lambda F, x, w: F.conv1d(x, w, groups=2, dilation=2)),
        (In((2, 4, 7)), In((4, 2, 2))),
    ),
    (
        "convolution",
        "conv_transpose2d",
        _nn(lambda F, x, w: F.conv_transpose2d(x, w, stride=2)),
        (In((1, 2, 3, 3)), In((2, 3, 2, 2))),
    ),
    (
        "max_pool2d_with_indices",
        "max_pool2d",
        _nn(lambda F, x: F.max_pool2d(x, 2)),
        (In((1, 2, 4, 4), _distinct),),
    ),
    ("avg_pool2d", "avg_pool2d", _nn(lambda F, x: F.avg_pool2d(x, 3, 2, 1)), (In((1, 2, 5, 5)),)),
    (
        "adaptive_avg_pool2d",
        "adaptive_avg_pool2d",
        _nn(lambda F, x: F.adaptive_avg_pool2d(x, (2, 3))),
        (In((1, 2, 5, 7)),),
    ),
    ("im2col", "unfold", _nn(lambda F, x: F.unfold(x, 2, padding=1)), (In((1, 2, 3, 3)),)),
    ("col2im", "fold", _nn(lambda F, x: F.fold(x, (3, 3), 2)), (In((1, 8, 4)),)),
]
_RESAMPLE_ROWS = [  # (op, interpolate's arguments, input shape, output shape)
    ("upsample_nearest1d", {"scale_factor": 2}, (1, 2, 3), (1, 2, 6)),
    ("upsample_nearest2d", {"scale_factor": 2}, (1, 1, 2, 3), (1, 1, 4, 6)),
    ("upsample_nearest3d", {"scale_factor": 2}, (1, 1, 2, 2, 2), (1, 1, 4, 4, 4)),
    ("upsample_nearest_exact1d", {"size": 5, "mode": "nearest-exact"}, (1, 2, 3), (1, 2, 5)),
    ("upsample_nearest_exact2d", {"size": (3, 5), "mode": "nearest-exact"}, (1, 1, 2, 3),
     (1, 1, 3, 5)),
    ("upsample_nearest_exact3d", {"size": 3, "mode": "nearest-exact"}, (1, 1, 2, 2, 2),
     (1, 1, 3, 3, 3)),
    ("upsample_linear1d", {"scale_factor": 2, "mode": "linear"}, (1, 2, 3), (1, 2, 6)),
    ("upsample_bilinear2d", {"size": (3, 5), "mode": "bilinear", "align_corners": True},
     (1, 1, 2, 3), (1, 1, 3, 5)),
    ("upsample_trilinear3d", {"scale_factor": 1.5, "mode": "trilinear"}, (1, 1, 2, 2, 2),
     (1, 1, 3, 3, 3)),
]  # fmt: skip
_POOL_BACKWARD_ROWS = [  # (op, the forward, input, its gradient's shape)
    ("adaptive_avg_pool2d_backward", lambda F, x: F.adaptive_avg_pool2d(x, (2, 3)),
     In((1, 2, 5, 7), diff=False), (1, 2, 2, 3)),
    ("avg_pool2d_backward", lambda F, x: F.avg_pool2d(x, 3, 2, 1), In((1, 2, 5, 5), diff=False),
     (1, 2, 3, 3)),
    ("max_pool2d_with_indices_backward", lambda F, x: F.max_pool2d(x, 2),
     In((1, 2, 4, 4), _distinct, diff=False), (1, 2, 2, 2)),
]  # fmt: skip


def _conv_input_gradient(T: Any, x: Any, v: Any) -> Any:
    """The create_graph gradient of a convolution for its input (a fixed weight): a function
    of the grad output `v` only."""
    x.requires_grad_()
    w = T.linspace(-1.0, 1.0, 54, dtype=T.float64).reshape(3, 2, 3, 3)
    y = T.nn.functional.conv2d(x, w, stride=2, padding=1)
    return T.autograd.grad(y, x, grad_outputs=v, create_graph=True)[0]


for _op, _id, _fn, _inputs in _CONV_ROWS:
    case(_id, _op, _fn, *_inputs)
for _op, _kw, _shape, _out in _RESAMPLE_ROWS:
    case(_op, _op, _nn(lambda F, x, _kw=_kw: F.interpolate(x, **_kw)), In(_shape))
    case(
        _op + "_backward", _op + "_backward",
        _grad_of_f(lambda F, x, _kw=_kw: F.interpolate(x, **_kw)), In(_shape, diff=False),
        In(_out),
    )  # fmt: skip
for _op, _forward, _input, _out in _POOL_BACKWARD_ROWS:
    case(_op, _op, _grad_of_f(_forward), _input, In(_out))
case(
    "convolution_backward", "convolution_backward", _conv_input_gradient,
    In((1, 2, 5, 5), diff=False), In((1, 3, 3, 3)),
)  # fmt: skip


# group_norm, the channel shuffles and adaptive max pooling
_GN = (2, 4, 3)
_F = "native_group_norm"
case(_F, _F, _nn(lambda F, x, w, b: F.group_norm(x, 2, w, b)), In(_GN), In((4,)), In((4,)))
case(_F + "-4d-plain", _F, _nn(lambda F, x: F.group_norm(x, 2, eps=1e-3)), In((2, 4, 2, 2)))
case(_F + "-weight-only", _F, _nn(lambda F, x, w: F.group_norm(x, 4, w)), In(_GN), In((4,)))
case("pixel_shuffle", "pixel_shuffle", _nn(lambda F, x: F.pixel_shuffle(x, 2)), In((1, 8, 2, 3)))
case(
    "pixel_unshuffle",
    "pixel_unshuffle",
    _nn(lambda F, x: F.pixel_unshuffle(x, 2)),
    In((2, 1, 2, 4, 6)),
)
case("channel_shuffle", "channel_shuffle", _nn(lambda F, x: F.channel_shuffle(x, 3)), In((2, 6, 2)))
_F = "adaptive_max_pool2d"
case(_F, _F, _nn(lambda F, x: F.adaptive_max_pool2d(x, (2, 3))), In((1, 2, 5, 7), _distinct))
case(
    _F + "_backward",
    _F + "_backward",
    _grad_of_f(lambda F, x: F.adaptive_max_pool2d(x, (2, 3))),
    In((1, 2, 5, 7), _distinct, diff=False),
    In((1, 2, 2, 3)),
)


# attention (nn/functional_attention.py, ops/attention.py)
def _safe_softmax(T: Any, a: Any) -> Any:
    """`torch._safe_softmax(a, -1)`: the engine has it only as a step of
    scaled_dot_product_attention, so its row reaches it there."""
    if hasattr(T, "_safe_softmax"):
        return T._safe_softmax(a, -1)
    return T.nn.functional_attention._safe_softmax(a, -1)


_SDPA = "_scaled_dot_product_flash_attention_for_cpu"
case("_safe_softmax", "_safe_softmax", _safe_softmax, In((3, 4)))
case(
    "sdpa-flash", _SDPA, _nn(lambda F, q, k, v: F.scaled_dot_product_attention(q, k, v)),
    In((1, 2, 3, 4)), In((1, 2, 5, 4)), In((1, 2, 5, 4)),
)  # fmt: skip
case(
    "sdpa-flash-causal-scale", _SDPA,
    _nn(lambda F, q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.7)),
    In((2, 1, 4, 3)), In((2, 1, 4, 3)), In((2, 1, 4, 3)),
)  # fmt: skip


# LU, triangular solves and least squares (ops/lu_factor.py, ops/decompositions.py,
# ops/least_squares.py)
def _pivots_of(T: Any, a: Any) -> Any:
    """lu_factor's pivots of `a` (constant: LAPACK's row interchanges)."""
    with T.no_grad():
        return T.linalg.lu_factor(a).pivots


_LU = "linalg_lu_factor_ex"
case(_LU, _LU, lambda T, a: T.linalg.lu_factor(a).LU, In((3, 3), _well_conditioned))
case(_LU + "-batch", _LU, lambda T, a: T.linalg.lu_factor_ex(a)[0], In((2, 3, 3)))
case(_LU + "-wide", _LU, lambda T, a: T.linalg.lu_factor(a).LU, In((2, 4)))
case(_LU + "-tall", _LU, lambda T, a: T.linalg.lu_factor_ex(a)[0], In((4, 2)))
case("linalg_lu", "linalg_lu", lambda T, a: tuple(T.linalg.lu(a))[1:], In((3, 3)))
case("linalg_lu-wide", "linalg_lu", lambda T, a: tuple(T.linalg.lu(a))[1:], In((2, 3, 5)))
case("linalg_lu-tall", "linalg_lu", lambda T, a: tuple(T.linalg.lu(a))[1:], In((4, 3)))
case(
    "lu_unpack",
    "lu_unpack",
    lambda T, a: tuple(T.lu_unpack(a, _pivots_of(T, a)))[1:],
    In((3, 3)),
)
case(
    "lu_unpack-wide",
    "lu_unpack",
    lambda T, a: tuple(T.lu_unpack(a, _pivots_of(T, a)))[1:],
    In((2, 4)),
)
case(
    "lu_unpack-tall",
    "lu_unpack",
    lambda T, a: tuple(T.lu_unpack(a, _pivots_of(T, a)))[1:],
    In((4, 2)),
)
case(
    "linalg_lu_solve",
    "linalg_lu_solve",
    lambda T, a, b: T.linalg.lu_solve(a, _pivots_of(T, a), b),
    In((3, 3), _well_conditioned),
    In((3, 2)),
)
case(
    "linalg_lu_solve-adjoint",
    "linalg_lu_solve",
    lambda T, a, b: T.linalg.lu_solve(a, _pivots_of(T, a), b, adjoint=True),
    In((2, 3, 3), _well_conditioned),
    In((2, 3, 2)),
)
case(
    "linalg_lu_solve-right",
    "linalg_lu_solve",
    lambda T, a, b: T.linalg.lu_solve(a, _pivots_of(T, a), b, left=False),
    In((3, 3), _well_conditioned),
    In((2, 3)),
)
case(
    "linalg_lu_solve-right-adjoint",
    "linalg_lu_solve",
    lambda T, a, b: T.linalg.lu_solve(a, _pivots_of(T, a), b, left=False, adjoint=True),
    In((3, 3), _well_conditioned),
    In((2, 3)),
)
case(
    "triangular_solve",
    "triangular_solve",
    lambda T, b, a: tuple(T.triangular_solve(b, a)),
    In((3, 2)),
    In((3, 3), _well_conditioned),
)
case(
    "triangular_solve-lower-transpose-unit",
    "triangular_solve",
    lambda T, b, a: tuple(T.triangular_solve(b, a, False, True, True)),
    In((2, 3, 2)),
    In((2, 3, 3), _well_conditioned),
)
case(
    "linalg_lstsq",
    "linalg_lstsq",
    lambda T, a, b: tuple(T.linalg.lstsq(a, b, driver="gelsd"))[:2],
    In((4, 2)),
    In((4, 3)),
)
case(
    "linalg_lstsq-vector",
    "linalg_lstsq",
    lambda T, a, b: T.linalg.lstsq(a, b).solution,
    In((5, 3)),
    In((5,)),
)
case(
    "linalg_lstsq-wide-batch",
    "linalg_lstsq",
    lambda T, a, b: T.linalg.lstsq(a, b).solution,
    In((2, 2, 3)),
    In((2, 2, 1)),
)

# the incomplete gamma functions (ops/incomplete_gamma.py): only `other` is differentiable
case(
    "igamma",
    "igamma",
    lambda T, a, x: T.igamma(a, x),
    In(M, _positive, diff=False),
    In(M, _positive),
)
case(
    "igammac",
    "igammac",
    lambda T, a, x: T.special.gammaincc(a, x),
    In((3,), _uniform(3.0, 6.0), diff=False),
    In((2, 3), _uniform(4.0, 9.0)),
)
case("linalg_eigh", "linalg_eigh", lambda T, a: tuple(T.linalg.eigh(a + a.mT)), In((3, 3)))
case(
    "linalg_eigh-upper-batch",
    "linalg_eigh",
    lambda T, a: T.linalg.eigvalsh(a + a.mT, UPLO="U"),
    In((2, 4, 4)),
)
case(
    "cholesky_solve",
    "cholesky_solve",
    lambda T, b, a: T.cholesky_solve(b, T.linalg.cholesky(_spd_of(T, a))),
    In((3, 2)),
    In((3, 3)),
)
case(
    "cholesky_solve-upper",
    "cholesky_solve",
    lambda T, b, a: b.cholesky_solve(a.triu(), upper=True),
    In((2, 3, 2)),
    In((2, 3, 3), _well_conditioned),
)
case(
    "cholesky_inverse",
    "cholesky_inverse",
    lambda T, a: T.cholesky_inverse(a.tril()),
    In((3, 3), _well_conditioned),
)
case(
    "cholesky_inverse-upper",
    "cholesky_inverse",
    lambda T, a: a.triu().cholesky_inverse(upper=True),
    In((2, 3, 3), _well_conditioned),
)

# the Hurwitz zeta function (ops/hurwitz_zeta.py): only q is differentiable
case(
    "special_zeta",
    "special_zeta",
    lambda T, x, q: T.special.zeta(x, q),
    In(M, _uniform(1.5, 4.0), diff=False),
    In(M, _positive),
)
case(
    "special_zeta-number-x",
    "special_zeta_self_scalar",
    lambda T, q: T.special.zeta(2.5, q),
    In((3,), _positive),
)


# affine_grid and grid_sample (ops/grid_sampling.py) and, via create_graph, the sampler's backward
# op (whose grid-gradient derivatives are constants: no third order)
def _sample(**kw: Any) -> Callable[..., Any]:
    return _nn(lambda F, x, grid: F.grid_sample(x, grid, **kw))


def _grad_of_sample(**kw: Any) -> Callable[..., Any]:
    """The create_graph gradients of input and grid for a grad output `v`: two
    GridSampler<k>DBackwardBackward0 outputs."""

    def fn(T: Any, x: Any, grid: Any, v: Any) -> Any:
        out = T.nn.functional.grid_sample(x, grid, **kw)
        wrt = tuple(t for t in (x, grid) if t.requires_grad)  # (a nearest row's grid: constant)
        return T.autograd.grad(out, wrt, grad_outputs=v, create_graph=True)

    return fn


_F = "affine_grid_generator"
case(_F, _F, _nn(lambda F, t: F.affine_grid(t, (2, 1, 3, 4), align_corners=False)), In((2, 2, 3)))
case(_F + "-align", _F, _nn(lambda F, t: F.affine_grid(t, [1, 2, 1, 3], True)), In((1, 2, 3)))
case(
    _F + "-3d", _F,
    _nn(lambda F, t: F.affine_grid(t, (1, 1, 2, 2, 3), align_corners=False)), In((1, 3, 4)),
)  # fmt: skip
_NOTE = "the grid gradient's derivatives are constants under create_graph (no third order)"
_SAMPLER_ROWS = (  # (spatial input shape, grid's points shape, keywords)
    ((2, 3, 4, 5), (2, 3, 2), {"align_corners": True}),
    ((2, 3, 4, 5), (2, 3, 2), {"align_corners": False, "padding_mode": "border"}),
    ((2, 3, 4, 5), (2, 3, 2), {"align_corners": False, "padding_mode": "reflection"}),
    ((2, 3, 4, 5), (2, 3, 2), {"align_corners": True, "padding_mode": "reflection"}),
    ((1, 2, 3, 4), (1, 3, 2), {"mode": "nearest", "align_corners": False}),
    ((1, 2, 2, 3, 3), (1, 2, 1, 2), {"align_corners": True}),
    ((1, 2, 2, 3, 3), (1, 2, 1, 2), {"align_corners": False, "padding_mode": "reflection"}),
    ((1, 1, 2, 2, 3), (1, 1, 2, 2), {"mode": "nearest", "padding_mode": "border"}),
)
for _shape, _points, _kw in _SAMPLER_ROWS:
    _F = f"grid_sampler_{len(_shape) - 2}d"
    _id = "-".join([_F, *(str(v) for v in _kw.values())])
    _grid = (*_points, len(_shape) - 2)
    _kw.setdefault("align_corners", True)
    _near = _kw.get("mode") == "nearest"
    _g = In(_grid, _unit, diff=False) if _near else In(_grid, _uniform(-1.3, 1.3))
    case(_id, _F, _sample(**_kw), In(_shape), _g)
    _out = (_shape[0], _shape[1], *_points[1:])
    _b = _F + "_backward"
    _g = In(_grid, _unit, diff=False) if _near else In(_grid, _uniform(-1.3, 1.3))
    case(
        _id.replace(_F, _b), _b, _grad_of_sample(**_kw), In(_shape), _g, In(_out),
        second_order=False, notes=_NOTE,
    )  # fmt: skip


# bilinear (ops/bilinear_forms.py): `_trilinear` on flattened (batch, features) inputs
def _trilinear(T: Any, a: Any, w: Any, b: Any) -> Any:
    """`torch._trilinear` as `F.bilinear` calls it (whose output is its reshape, ViewBackward0)."""
    if hasattr(T, "_trilinear"):
        return T._trilinear(a, w, b, [1, 3], [0], [1, 2], [2, 3])
    from autodiff_cli.engine.core.apply import apply_op
    from autodiff_cli.engine.ops.bilinear_forms import BILINEAR_SPEC, TRILINEAR

    return apply_op(TRILINEAR, (a, w, b), {"spec": BILINEAR_SPEC})


case("_trilinear", "_trilinear", _trilinear, In((3, 2)), In((4, 2, 3)), In((3, 3)))
case(
    "_trilinear-one-input",
    "_trilinear",
    _trilinear,
    In((2, 2), diff=False),
    In((3, 2, 1)),
    In((2, 1)),
)

# embedding_bag (ops/embedding_bags.py): PyTorch gives its backward ops no derivative
# (`_embedding_bag_backward` raises, test_nn_spatial_bilinear_bags.py; the per_sample_weights
# gradient is a NotImplemented node, test_engine_gradients.NOT_IMPLEMENTED): first order only
_BAG = [1, 2, 4, 0, 4, 3]


def _bag(offsets: Any = (0, 2, 2), **kw: Any) -> Callable[..., Any]:
    def fn(T: Any, w: Any, *sample_weights: Any) -> Any:
        return T.nn.functional.embedding_bag(
            T.tensor(_BAG),
            w,
            T.tensor(list(offsets)),
            per_sample_weights=sample_weights[0] if sample_weights else None,
            **kw,
        )

    return fn


_NOTE = "the per_sample_weights gradient has no derivative (NotImplemented, as PyTorch's)"
for _kw in ({"mode": "sum"}, {"mode": "mean", "padding_idx": 4}, {"mode": "max"}):
    _id = "_embedding_bag-" + "-".join(str(v) for v in _kw.values())
    case(_id, "_embedding_bag", _bag(**_kw), In((5, 3), _distinct), second_order=False, notes=_NOTE)
case(
    "_embedding_bag-per_sample_weights", "_embedding_bag",
    _bag((0, 3, 4, 6), mode="sum", include_last_offset=True, padding_idx=3), In((5, 3)), In((6,)),
    second_order=False, notes=_NOTE,
)  # fmt: skip

# the volumetric forms: a 5-D affine_grid and grid_sampler_3d
case(
    "affine_grid_generator-3d", "affine_grid_generator",
    _nn(lambda F, t: F.affine_grid(t, (1, 1, 2, 2, 3), align_corners=False)), In((1, 3, 4)),
)  # fmt: skip
for _kw in ({"align_corners": True}, {"align_corners": False, "padding_mode": "reflection"}):
    _id = "grid_sampler_3d-" + "-".join(str(v) for v in _kw.values())
    _grid = In((1, 2, 1, 2, 3), _uniform(-1.3, 1.3))
    case(
        _id,
        "grid_sampler_3d",
        _sample(**_kw),
        In((1, 2, 2, 3, 3)),
        _grid,
        second_order=False,
        notes=_NOTE,
    )
case(
    "grid_sampler_3d-nearest", "grid_sampler_3d",
    _sample(mode="nearest", padding_mode="border", align_corners=True), In((1, 1, 2, 2, 3)),
    In((1, 1, 2, 2, 3), _unit, diff=False), second_order=False, notes=_NOTE,
)  # fmt: skip


# h5: torch-level functions (ops/tensor_functions.py, summaries.py, scatters.py, poisson.py)
case("rsub-tensor", "rsub_tensor", lambda T, a, b: T.rsub(a, b), In(M), In(M))
case("rsub-tensor-alpha", "rsub_tensor", lambda T, a, b: T.rsub(a, b, alpha=2.5), In(M), In((3,)))
case("rsub-alpha", "rsub", lambda T, a: T.rsub(a, 1.5, alpha=3), In(M))
case("aminmax", "aminmax", lambda T, a: tuple(T.aminmax(a)), In(M, _distinct))
case("aminmax-dim", "aminmax", lambda T, a: tuple(T.aminmax(a, dim=1)), In(M, _distinct))
case(
    "aminmax-keepdim", "aminmax", lambda T, a: tuple(a.aminmax(dim=-1, keepdim=True)),
    In((2, 3, 4), _distinct),
)  # fmt: skip
for _p in (2, 1, 3, 0.5):
    case(
        f"renorm-p{_p}", "renorm", lambda T, a, p=_p: T.renorm(a, p, 0, 1.5),
        In((3, 4), _nonzero),
    )  # fmt: skip
case(
    "renorm-inf-dim1", "renorm", lambda T, a: a.renorm(float("inf"), 1, 1.0), In((3, 4), _distinct)
)
case(
    "select_scatter",
    "select_scatter",
    lambda T, a, s: T.select_scatter(a, s, 1, -1),
    In(M),
    In((2,)),
)
case(
    "slice_scatter", "slice_scatter",
    lambda T, a, s: T.slice_scatter(a, s, dim=1, start=1, end=None, step=2), In((2, 5)), In((2, 2)),
)  # fmt: skip
case(
    "diagonal_scatter", "diagonal_scatter",
    lambda T, a, s: T.diagonal_scatter(a, s, 1), In((3, 4)), In((3,)),
)  # fmt: skip
case(
    "diagonal_scatter-batched", "diagonal_scatter",
    lambda T, a, s: a.diagonal_scatter(s, 0, 1, 2), In((2, 3, 3)), In((2, 3)),
)  # fmt: skip
case(
    "put-method", "put",
    lambda T, a, s: a.put(T.tensor([5, 0, -1]), s, accumulate=True), In((2, 3)), In((3,)),
)  # fmt: skip
case("poisson", "poisson", _seeded(lambda T, r: T.poisson(r)), In(M, _positive), second_order=False)
