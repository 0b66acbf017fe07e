"""index_add, index_copy, index_fill, masked_scatter, scatter_reduce, index_reduce: gradients at
the points the engine cases avoid (zeros in prod, ties in amax/amin), in-place forms and errors.
Values against PyTorch are in conformance scripts 1120-1123 and 1126 (prod under create_graph)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import autodiff_cli.engine as E

INDEX = [[0, 1, 0, 3], [2, 2, 1, 2], [3, 3, 3, 0]]
SELF = np.array([[1.0, 0.0, 3.0, 2.0], [0.0, 2.0, 2.0, 5.0], [4.0, 4.0, 0.0, 1.5]])
SRC = np.array([[0.0, 2.0, 3.0, 0.0], [2.0, 2.5, 0.0, 5.0], [4.0, 1.0, 0.5, -1.0]])
WEIGHTS = np.linspace(-1.0, 2.0, 12).reshape(3, 4)


def _reduce(kind: str, a, b, reduce: str, include_self: bool):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind == "scatter":
            return a.scatter_reduce(1, E.tensor(INDEX), b, reduce, include_self=include_self)
        return a.index_reduce(0, E.tensor([0, 0, 2]), b, reduce, include_self=include_self)


def _loss(kind: str, a: np.ndarray, b: np.ndarray, reduce: str, include_self: bool) -> float:
    y = _reduce(kind, E.tensor(a), E.tensor(b), reduce, include_self)
    return float((y * E.tensor(WEIGHTS)).sum().item())


def _numeric(kind: str, reduce: str, include_self: bool, eps: float = 1e-6) -> list:
    grads = []
    for which in (0, 1):
        arrays = [SELF.copy(), SRC.copy()]
        grad = np.zeros_like(arrays[which])
        for pos in np.ndindex(grad.shape):
            up, down = [a.copy() for a in arrays], [a.copy() for a in arrays]
            up[which][pos] += eps
            down[which][pos] -= eps
            grad[pos] = (
                _loss(kind, *up, reduce, include_self) - _loss(kind, *down, reduce, include_self)
            ) / (2 * eps)
        grads.append(grad)
    return grads


@pytest.mark.parametrize("kind", ["scatter", "index"])
@pytest.mark.parametrize("include_self", [True, False])
def test_prod_gradient_with_zeros_matches_finite_differences(kind, include_self):
    """Single and double zeros in a group: the exact product of the other values."""
    a = E.tensor(SELF, requires_grad=True)
    b = E.tensor(SRC, requires_grad=True)
    y = _reduce(kind, a, b, "prod", include_self)
    (y * E.tensor(WEIGHTS)).sum().backward()
    expected = _numeric(kind, "prod", include_self)
    np.testing.assert_allclose(a.grad.numpy(), expected[0], atol=1e-6)
    np.testing.assert_allclose(b.grad.numpy(), expected[1], atol=1e-6)


def _first_derivatives(kind: str, a: np.ndarray, b: np.ndarray, include_self: bool) -> tuple:
    """prod's gradients (plain backward) at (a, b)."""
    ta, tb = E.tensor(a, requires_grad=True), E.tensor(b, requires_grad=True)
    y = _reduce(kind, ta, tb, "prod", include_self)
    (y * E.tensor(WEIGHTS)).sum().backward()
    return ta.grad.numpy(), tb.grad.numpy()


SECOND_WEIGHTS = (
    np.linspace(1.5, -0.5, 12).reshape(3, 4),
    np.linspace(-2.0, 1.0, 12).reshape(3, 4),
)
GRAD_FNS = {  # the create_graph gradients' grad_fn (self, source), as PyTorch records them
    ("scatter", True): ("DivBackward0", "WhereBackward0"),
    ("scatter", False): ("ScatterBackward1", "WhereBackward0"),
    ("index", True): ("DivBackward0", "WhereBackward0"),
    ("index", False): ("IndexFillBackward0", "WhereBackward0"),
}


@pytest.mark.parametrize("kind", ["scatter", "index"])
@pytest.mark.parametrize("include_self", [True, False])
def test_prod_second_derivatives_with_zeros_match_finite_differences(kind, include_self):
    """create_graph: the gradients are in a graph (with zeros in self and at most one zero of
    the source per group) and their derivatives are the finite differences of the first ones."""
    a = E.tensor(SELF, requires_grad=True)
    b = E.tensor(SRC, requires_grad=True)
    y = _reduce(kind, a, b, "prod", include_self)
    ga, gb = E.autograd.grad((y * E.tensor(WEIGHTS)).sum(), (a, b), create_graph=True)
    assert (ga.grad_fn.name(), gb.grad_fn.name()) == GRAD_FNS[kind, include_self]
    plain = _first_derivatives(kind, SELF, SRC, include_self)
    np.testing.assert_allclose(ga.detach().numpy(), plain[0], rtol=1e-12)
    np.testing.assert_allclose(gb.detach().numpy(), plain[1], rtol=1e-12)
    wa, wb = (E.tensor(w) for w in SECOND_WEIGHTS)
    second = E.autograd.grad((ga * wa).sum() + (gb * wb).sum(), (a, b))

    def weighted(arrays: list) -> float:
        da, db = _first_derivatives(kind, *arrays, include_self)
        return float((da * SECOND_WEIGHTS[0]).sum() + (db * SECOND_WEIGHTS[1]).sum())

    eps = 1e-6
    for which in (0, 1):
        expected = np.zeros((3, 4))
        for pos in np.ndindex(3, 4):
            up, down = [SELF.copy(), SRC.copy()], [SELF.copy(), SRC.copy()]
            up[which][pos] += eps
            down[which][pos] -= eps
            expected[pos] = (weighted(up) - weighted(down)) / (2 * eps)
        np.testing.assert_allclose(second[which].numpy(), expected, atol=1e-6)


@pytest.mark.parametrize(
    "kind, name, arg", [("scatter", "scatter_reduce", "src"), ("index", "index_reduce", "source")]
)
def test_prod_double_backward_with_two_source_zeros_in_a_group_raises(kind, name, arg):
    """Two zeros of the source reduced into one position: the first derivatives are exact (0
    for every value of that group) but, as in PyTorch, the source's gradient is an Error node
    whose backward raises."""
    src = SRC.copy()
    src[1, 0] = src[1, 3] = 0.0  # two zeros reduced into one position
    a = E.tensor(SELF, requires_grad=True)
    b = E.tensor(src, requires_grad=True)
    y = _reduce(kind, a, b, "prod", True)
    ga, gb = E.autograd.grad((y * E.tensor(WEIGHTS)).sum(), (a, b), create_graph=True)
    assert gb.grad_fn.name() == "torch::autograd::Error"
    assert "grad_fn=<Error>" in repr(gb)
    np.testing.assert_allclose(gb.detach().numpy(), _first_derivatives(kind, SELF, src, True)[1])
    message = (
        f"^{name}\\(\\): Double backward is unsupported for {arg} when >1 zeros in {arg} are "
        "scattered to the same position in self$"
    )
    with pytest.raises(RuntimeError, match=message):
        E.autograd.grad(gb.sum(), (a, b))
    assert E.autograd.grad(ga.sum(), b)[0] is not None  # self's gradient differentiates


@pytest.mark.parametrize("kind", ["scatter", "index"])
@pytest.mark.parametrize("reduce", ["amax", "amin"])
def test_extreme_ties_share_the_gradient_evenly(kind, reduce):
    """Tied values (here all equal) each get grad / number of ties; with self included the
    gradient reaching a written position is conserved."""
    a = E.full((3, 4), 2.0, dtype=E.float64, requires_grad=True)
    b = E.full((3, 4), 2.0, dtype=E.float64, requires_grad=True)
    y = _reduce(kind, a, b, reduce, True)
    (y * E.tensor(WEIGHTS)).sum().backward()
    total = a.grad.numpy().sum() + b.grad.numpy().sum()
    assert total == pytest.approx(WEIGHTS.sum())
    counts = np.ones((3, 4))
    if kind == "scatter":
        for row in range(3):
            for col in INDEX[row]:
                counts[row, col] += 1
    else:
        counts[0] += 2
        counts[2] += 1
    np.testing.assert_allclose(a.grad.numpy(), WEIGHTS / counts)


def test_index_ops_values_and_gradients():
    x = E.arange(12.0, dtype=E.float64).reshape(3, 4).requires_grad_()
    s = E.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]], dtype=E.float64, requires_grad=True)
    y = x.index_add(0, E.tensor([2, 2]), s, alpha=0.5)
    assert type(y.grad_fn).__name__ == "IndexAddBackward0"
    np.testing.assert_allclose(y.detach().numpy()[2], [11.0, 13.0, 15.0, 17.0])
    y.sum().backward()
    np.testing.assert_allclose(s.grad.numpy(), np.full((2, 4), 0.5))
    z = E.index_copy(x, 1, E.tensor([3, 0]), s.t()[:3])
    assert type(z.grad_fn).__name__ == "IndexCopyBackward0"
    np.testing.assert_allclose(z.detach().numpy()[:, 3], [1.0, 2.0, 3.0])
    v = E.tensor(-1.0, dtype=E.float64, requires_grad=True)
    f = x.index_fill(1, E.tensor([1, 1]), v)
    assert type(f.grad_fn).__name__ == "IndexFillBackward1"
    f.sum().backward()
    assert v.grad.item() == 3.0
    m = x.masked_scatter(E.tensor([False, True, False, True]), s)
    assert type(m.grad_fn).__name__ == "MaskedScatterBackward0"
    np.testing.assert_allclose(m.detach().numpy()[1], [4.0, 3.0, 6.0, 4.0])


def test_inplace_forms_return_self_and_record_the_op():
    x = E.ones(2, 3, dtype=E.float64, requires_grad=True)
    y = x * 1
    assert y.index_fill_(1, E.tensor([0]), 5.0) is y
    assert type(y.grad_fn).__name__ == "IndexFillBackward0"
    assert y.scatter_reduce_(1, E.tensor([[2], [2]]), y * 2, "sum") is y
    assert type(y.grad_fn).__name__ == "ScatterReduceBackward0"
    np.testing.assert_allclose(y.detach().numpy(), [[5.0, 1.0, 11.0], [5.0, 1.0, 11.0]])
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        x.index_add_(0, E.tensor([0]), E.ones(1, 3, dtype=E.float64))


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda x: x.index_add(0, E.tensor([0.0]), x[:1]), RuntimeError, "int32/int64 for index"),
        (lambda x: x.index_copy(0, E.tensor([4]), x[:1]), IndexError, "index 4 is out of bounds"),
        (lambda x: x.index_fill(0, E.tensor([0], dtype=E.int32), 1.0), IndexError, "int64"),
        (lambda x: x.masked_scatter(x > 0, x[:1]), RuntimeError, "number of ones in mask"),
        (lambda x: x.scatter_reduce(0, E.tensor([[0]]), x, "max2"), RuntimeError, "got max2"),
        (lambda x: x.index_reduce(0, E.tensor([0]), x[:1], "sum"), RuntimeError, "but got sum"),
        (lambda x: x.index_reduce(0, E.tensor([3]), x[:1], "mean"), IndexError, "out of range"),
    ],
)
def test_errors_are_pytorchs(call, error, message):
    x = E.arange(6.0, dtype=E.float64).reshape(3, 2) + 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error, match=message):
            call(x)
