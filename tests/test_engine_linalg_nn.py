"""Linear algebra (matrix.py, linalg.py) and torch.nn.functional: gradients against finite
differences in float64 (first order for every op, second order through `create_graph=True` for
the smooth ones), the graph nodes matmul builds, and PyTorch's errors."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import autodiff_cli.engine as E

F = E.nn.functional
EPS = 1e-6
TOL = 1e-5


def _tensor(array: np.ndarray, requires_grad: bool = True) -> E.Tensor:
    return E.tensor(array.tolist(), dtype=E.float64, requires_grad=requires_grad)


def _scalar_fn(fn: Callable, weights_seed: int = 7) -> Callable:
    """sum(w · fn(inputs)) with fixed random w: a scalar whose gradient checks every output."""
    cache: dict = {}

    def f(*inputs: E.Tensor) -> E.Tensor:
        out = fn(*inputs)
        if "w" not in cache:
            rng = np.random.RandomState(weights_seed)
            cache["w"] = rng.uniform(-1.0, 1.0, tuple(out.shape))
        return (out * _tensor(cache["w"], False)).sum()

    return f


def _numeric_grad(f: Callable, arrays: list[np.ndarray], i: int) -> np.ndarray:
    grad = np.zeros_like(arrays[i])
    for idx in np.ndindex(*arrays[i].shape):
        values = []
        for step in (EPS, -EPS):
            shifted = [a.copy() for a in arrays]
            shifted[i][idx] += step
            values.append(f(*[_tensor(a, False) for a in shifted]).item())
        grad[idx] = (values[0] - values[1]) / (2 * EPS)
    return grad


def _check_first_order(fn: Callable, arrays: list[np.ndarray]) -> None:
    f = _scalar_fn(fn)
    inputs = [_tensor(a) for a in arrays]
    grads = E.autograd.grad(f(*inputs), inputs)
    for i, g in enumerate(grads):
        np.testing.assert_allclose(g._data, _numeric_grad(f, arrays, i), rtol=TOL, atol=TOL)


def _check_second_order(fn: Callable, arrays: list[np.ndarray]) -> None:
    """d/dx of sum(v · d f / d x), against finite differences of the analytic gradient."""
    f = _scalar_fn(fn)
    v = np.random.RandomState(3).uniform(-1.0, 1.0, arrays[0].shape)

    def grad_dot_v(*inputs: E.Tensor) -> E.Tensor:
        leaves = [x if x.requires_grad else x.detach().requires_grad_() for x in inputs]
        (g,) = E.autograd.grad(f(*leaves), leaves[0], create_graph=True)
        return (g * _tensor(v, False)).sum()

    inputs = [_tensor(a) for a in arrays]
    (h,) = E.autograd.grad(grad_dot_v(*inputs), inputs[0])
    np.testing.assert_allclose(h._data, _numeric_grad(grad_dot_v, arrays, 0), rtol=1e-4, atol=1e-4)


def _rand(*shape: int, seed: int = 0, low: float = -2.0, high: float = 2.0) -> np.ndarray:
    return np.random.RandomState(seed + sum(shape)).uniform(low, high, shape)


def _invertible(*shape: int) -> np.ndarray:
    return _rand(*shape, low=-0.5, high=0.5) + 2.0 * np.eye(shape[-1])


TARGET = E.tensor([2, 0, 1])
FIRST_ORDER = {
    "mm": (lambda a, b: E.mm(a, b), [_rand(2, 3), _rand(3, 4, seed=1)]),
    "mm-self": (lambda a: E.mm(a, a.t()), [_rand(2, 3)]),
    "bmm-self": (lambda a: E.bmm(a, a.transpose(1, 2)), [_rand(2, 2, 3)]),
    "matmul-self-3d-2d": (lambda a: a @ a[0].t(), [_rand(2, 2, 3)]),
    "diagonal-squared": (lambda a: a.diagonal() ** 2 + (E.diag(a, 1) ** 2).sum(), [_rand(3, 3)]),
    "mv": (lambda a, b: E.mv(a, b), [_rand(2, 3), _rand(3, seed=1)]),
    "bmm": (lambda a, b: E.bmm(a, b), [_rand(2, 2, 3), _rand(2, 3, 4, seed=1)]),
    "dot": (lambda a, b: E.dot(a, b), [_rand(4), _rand(4, seed=1)]),
    "outer": (lambda a, b: E.outer(a, b), [_rand(3), _rand(2, seed=1)]),
    "inner": (lambda a, b: E.inner(a, b), [_rand(2, 3), _rand(4, 3, seed=1)]),
    "matmul-3d-2d": (lambda a, b: a @ b, [_rand(2, 2, 3), _rand(3, 4, seed=1)]),
    "matmul-2d-3d": (lambda a, b: a @ b, [_rand(2, 3), _rand(2, 3, 4, seed=1)]),
    "matmul-1d-3d": (lambda a, b: a @ b, [_rand(3), _rand(2, 3, 4, seed=1)]),
    "matmul-4d-vec": (lambda a, b: a @ b, [_rand(2, 2, 2, 3), _rand(3, seed=1)]),
    "matmul-broadcast": (lambda a, b: a @ b, [_rand(2, 1, 2, 3), _rand(3, 3, 2, seed=1)]),
    "addmm": (lambda c, a, b: E.addmm(c, a, b), [_rand(4), _rand(2, 3), _rand(3, 4, seed=1)]),
    "trace": (lambda a: E.trace(a), [_rand(3, 4)]),
    "diag-2d": (lambda a: E.diag(a, 1), [_rand(3, 4)]),
    "diag-1d": (lambda a: E.diag(a, -1), [_rand(3)]),
    "diagonal": (lambda a: a.diagonal(0, 1, 2), [_rand(2, 3, 3)]),
    "tril": (lambda a: E.tril(a, -1), [_rand(3, 4)]),
    "triu": (lambda a: a.triu(1), [_rand(2, 3, 3)]),
    "det": (lambda a: E.det(a), [_rand(3, 3)]),
    "det-batch": (lambda a: E.linalg.det(a), [_rand(2, 2, 2)]),
    "inverse": (lambda a: E.inverse(a), [_invertible(3, 3)]),
    "linalg.norm": (lambda a: E.linalg.norm(a), [_rand(2, 3)]),
    "linalg.norm-dim": (lambda a: E.linalg.norm(a, dim=1), [_rand(2, 3)]),
    "vector_norm-3": (lambda a: E.linalg.vector_norm(a, 3), [_rand(4, low=0.5)]),
    "matrix_norm-fro": (lambda a: E.linalg.matrix_norm(a), [_rand(3, 3)]),
    "relu": (lambda a: F.relu(a), [_rand(5, low=0.1)]),
    "leaky_relu": (lambda a: F.leaky_relu(a, 0.1), [_rand(2, 3) + 0.05]),
    "gelu": (lambda a: F.gelu(a), [_rand(2, 3)]),
    "gelu-tanh": (lambda a: F.gelu(a, approximate="tanh"), [_rand(2, 3)]),
    "elu": (lambda a: F.elu(a, alpha=0.7), [_rand(2, 3) + 0.05]),
    "selu": (lambda a: F.selu(a), [_rand(2, 3) + 0.05]),
    "silu": (lambda a: F.silu(a), [_rand(2, 3)]),
    "logsigmoid": (lambda a: F.logsigmoid(a), [_rand(2, 3)]),
    "softmax": (lambda a: F.softmax(a, dim=1), [_rand(2, 3)]),
    "log_softmax": (lambda a: E.log_softmax(a, 0), [_rand(2, 3)]),
    "mse_loss": (lambda a, b: F.mse_loss(a, b), [_rand(2, 3), _rand(2, 3, seed=1)]),
    "l1_loss": (lambda a, b: F.l1_loss(a, b, reduction="sum"), [_rand(4), _rand(4, seed=9)]),
    "smooth_l1_loss": (
        lambda a, b: F.smooth_l1_loss(a, b, beta=0.5),
        [_rand(6), _rand(6, seed=5)],
    ),
    "huber_loss": (lambda a, b: F.huber_loss(a, b, delta=0.5), [_rand(6), _rand(6, seed=5)]),
    "binary_cross_entropy": (
        lambda p, t: F.binary_cross_entropy(p, t, reduction="none"),
        [_rand(2, 3, low=0.1, high=0.9), _rand(2, 3, seed=1, low=0.0, high=1.0)],
    ),
    "nll_loss": (lambda a: F.nll_loss(a, TARGET), [_rand(3, 4)]),
    "cross_entropy": (lambda a: F.cross_entropy(a, TARGET), [_rand(3, 4)]),
    "cross_entropy-smoothing": (
        lambda a: F.cross_entropy(a, TARGET, label_smoothing=0.2),
        [_rand(3, 4)],
    ),
    "cross_entropy-probabilities": (
        lambda a, p: F.cross_entropy(a, p),
        [_rand(3, 4), _rand(3, 4, seed=2, low=0.0, high=1.0)],
    ),
    "linear": (lambda x, w, b: F.linear(x, w, b), [_rand(2, 3), _rand(4, 3), _rand(4)]),
    "linear-3d": (lambda x, w, b: F.linear(x, w, b), [_rand(2, 2, 3), _rand(4, 3), _rand(4)]),
}


@pytest.mark.parametrize("name", sorted(FIRST_ORDER))
def test_gradient_matches_finite_differences(name: str) -> None:
    fn, arrays = FIRST_ORDER[name]
    _check_first_order(fn, arrays)


SECOND_ORDER = [
    "mm-self",
    "bmm-self",
    "matmul-self-3d-2d",
    "det",
    "inverse",
    "diagonal-squared",
    "gelu",
    "gelu-tanh",
    "silu",
    "logsigmoid",
    "elu",
    "softmax",
    "log_softmax",
    "mse_loss",
    "binary_cross_entropy",
    "cross_entropy",
]


@pytest.mark.parametrize("name", SECOND_ORDER)
def test_second_derivative_matches_finite_differences(name: str) -> None:
    fn, arrays = FIRST_ORDER[name]
    _check_second_order(fn, arrays)


def _chain(t: E.Tensor) -> list[str]:
    fn = t.grad_fn
    names = [n.name() if n is not None else "None" for n, _ in fn.next_functions]
    return [fn.name()] + [n.removeprefix("torch::autograd::") for n in names]


@pytest.mark.parametrize(
    "shapes, chain",
    [
        (((2, 3), (3, 4)), ["MmBackward0", "AccumulateGrad", "AccumulateGrad"]),
        (((2, 2, 3), (3, 4)), ["UnsafeViewBackward0", "MmBackward0"]),
        (((2, 3), (2, 3, 4)), ["CloneBackward0", "TransposeBackward0"]),
        (((2, 2, 3), (2, 3, 4)), ["UnsafeViewBackward0", "BmmBackward0"]),
        (((1, 2, 3), (4, 3, 2)), ["CloneBackward0", "TransposeBackward0"]),
        (((3,), (3, 2)), ["SqueezeBackward4", "MmBackward0"]),
        (((2, 3), (3,)), ["MvBackward0", "AccumulateGrad", "AccumulateGrad"]),
    ],
)
def test_matmul_builds_pytorchs_nodes(shapes: tuple, chain: list[str]) -> None:
    a, b = (E.ones(*s, requires_grad=True) for s in shapes)
    assert _chain(a @ b)[: len(chain)] == chain


def test_batched_matmul_with_a_constant_expands_and_bmm() -> None:
    a = E.ones(2, 2, 3, requires_grad=True)
    out = a @ E.ones(2, 3, 4)
    bmm = out.grad_fn.next_functions[0][0]
    assert _chain(out) == ["UnsafeViewBackward0", "BmmBackward0"]
    assert [n.name() if n else "None" for n, _ in bmm.next_functions] == ["ViewBackward0", "None"]


def test_small_float32_products_stay_float32() -> None:
    m = E.tensor([[4.0, 7.0], [2.0, 6.0]])
    product = m @ E.inverse(m)
    assert product.dtype == E.float32
    np.testing.assert_allclose(product._data, np.eye(2), atol=1e-6)
    assert E.det(m).item() == pytest.approx(10.0, rel=1e-6)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (
            lambda: E.mm(E.ones(2, 3), E.ones(2, 3)),
            RuntimeError,
            r"shapes cannot be multiplied \(2x3 and 2x3\)",
        ),
        (lambda: E.mm(E.ones(3), E.ones(3, 2)), RuntimeError, "self must be a matrix"),
        (lambda: E.mv(E.ones(2, 3), E.ones(2)), RuntimeError, r"size mismatch, got input \(2\)"),
        (lambda: E.bmm(E.ones(2, 3), E.ones(2, 3, 1)), RuntimeError, "batch1 must be a 3D tensor"),
        (lambda: E.dot(E.ones(2, 2), E.ones(2)), RuntimeError, "1D tensors expected"),
        (lambda: E.outer(E.ones(2, 2), E.ones(2)), RuntimeError, "Expected 1-D argument self"),
        (lambda: E.matmul(E.tensor(1.0), E.ones(2)), RuntimeError, "at least 1D"),
        (lambda: E.ones(3, 2, 3) @ E.ones(4, 3, 5), RuntimeError, "must match the size"),
        (lambda: E.trace(E.ones(3)), RuntimeError, "expected a matrix"),
        (lambda: E.tril(E.ones(3)), RuntimeError, "at least 2 dimensions"),
        (lambda: E.det(E.ones(2, 3)), RuntimeError, "batches of square matrices"),
        (lambda: E.inverse(E.zeros(2, 2)), E.linalg.LinAlgError, "diagonal element 1 is zero"),
        (lambda: E.linalg.norm(E.ones(2, 2, 2), 1), RuntimeError, "must be 1D or 2D"),
        (lambda: F.gelu(E.ones(2), approximate="x"), RuntimeError, "either none or tanh"),
        (lambda: F.mse_loss(E.ones(2), E.ones(2), reduction="x"), ValueError, "not a valid"),
        (
            lambda: F.binary_cross_entropy(E.tensor([2.0]), E.ones(1)),
            RuntimeError,
            "between 0 and 1",
        ),
        (lambda: F.cross_entropy(E.ones(2, 3), E.tensor([0, 3])), IndexError, "Target 3 is out"),
        (lambda: F.nll_loss(E.ones(2, 3), E.ones(2)), RuntimeError, "Long or Byte"),
        (lambda: F.dropout(E.ones(2), p=2.0), ValueError, "between 0 and 1, but got 2.0"),
        (lambda: F.leaky_relu(E.tensor([1, 2])), NotImplementedError, "leaky_relu_cpu"),
    ],
)
def test_errors_are_pytorchs(call: Callable, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        call()


def test_dropout_returns_its_input_when_not_training_and_masks_when_training() -> None:
    x = E.ones(1000, requires_grad=True)
    assert F.dropout(x, 0.5, training=False) is x
    assert F.dropout(x, 0.0) is x
    out = F.dropout(x, 0.25)
    values = set(np.unique(out._data).tolist())
    assert values == {0.0, float(np.float32(1.0 / 0.75))}
    assert out.grad_fn.name() == "MulBackward0"


def test_softmax_is_stable_and_sums_to_one() -> None:
    x = E.tensor([[1000.0, 0.0, -1000.0], [1.0, 2.0, 3.0]])
    assert E.log_softmax(x, 1)._data[0].tolist() == [0.0, -1000.0, -2000.0]
    np.testing.assert_allclose(x.softmax(1).sum(1)._data, [1.0, 1.0], rtol=1e-6)
