"""Views, indexing and in-place writes through views (CopySlices), checked against finite
differences in float64 and against the behaviour PyTorch documents (node names, errors)."""

from __future__ import annotations

import numpy as np
import pytest

import autodiff_cli.engine as torch

RNG = np.random.RandomState(7)
X0 = RNG.uniform(-2.0, 2.0, (3, 4))
W0 = RNG.uniform(-1.0, 1.0, (4,))


def _numeric_grad(f, arrays: list[np.ndarray], k: int, eps: float = 1e-6) -> np.ndarray:
    out = np.zeros_like(arrays[k])
    for i in np.ndindex(arrays[k].shape):
        plus = [a.copy() for a in arrays]
        minus = [a.copy() for a in arrays]
        plus[k][i] += eps
        minus[k][i] -= eps
        out[i] = (f(*plus) - f(*minus)) / (2 * eps)
    return out


def _value(fn, *arrays: np.ndarray) -> float:
    with torch.no_grad():
        return fn(*[torch.tensor(a.tolist(), dtype=torch.float64) for a in arrays]).item()


def _check_gradients(fn, *arrays: np.ndarray) -> None:
    """The gradient of the scalar `fn(*inputs)` matches central differences, on both backends."""
    inputs = [torch.tensor(a.tolist(), dtype=torch.float64, requires_grad=True) for a in arrays]
    plain = torch.autograd.grad(fn(*inputs), inputs)
    graph = torch.autograd.grad(fn(*inputs), inputs, create_graph=True)
    for k, (g, h) in enumerate(zip(plain, graph)):
        expected = _numeric_grad(lambda *a: _value(fn, *a), list(arrays), k)
        np.testing.assert_allclose(g.numpy(), expected, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(h.detach().numpy(), expected, rtol=1e-6, atol=1e-6)


def _write_row(x, w):
    y = x * x
    y[1] = w * 3
    return (y * y).sum()


def _mul_through_view(x, w):
    y = x.sin()
    y[:, 1:].mul_(w[:3])
    return (y * y).sum()


def _transpose_add(x, w):
    y = x * 2
    y.t()[2].add_(w[:3])
    return (y.exp()).sum()


def _flat_view_write(x, w):
    y = x * 1
    y.view(-1)[::5] = w[:3]
    return (y * y * y).sum()


def _index_put(x, w):
    y = x * 1
    y[[0, 2], 1:] = w[:3] * w[:3]
    y[y > 1.5] = 0.0
    return (y * y).sum()


def _regenerated_view(x, w):
    y = x * 1
    first, rest = y[0], y[1:]
    rest.mul_(w)
    return (first * first).sum() + (y * y).sum()


def _masked_fill_tensor(x, w):
    return (x.masked_fill(x > 0.5, w[0]) ** 2).sum()


def _scatter_gather(x, w):
    index = torch.tensor([[0, 1, 0, 3], [2, 2, 1, 0]])
    s = x[:2].scatter_add(1, index, x[1:] * w)
    return (s.gather(1, index) ** 2).sum() + x.index_select(0, torch.tensor([2, 2])).pow(3).sum()


CASES = [
    _write_row,
    _mul_through_view,
    _transpose_add,
    _flat_view_write,
    _index_put,
    _regenerated_view,
    _masked_fill_tensor,
    _scatter_gather,
]


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__.strip("_"))
def test_gradient_through_in_place_writes_matches_finite_differences(fn):
    _check_gradients(fn, X0, W0)


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__.strip("_"))
def test_second_derivative_matches_finite_differences_of_the_first(fn):
    x = torch.tensor(X0.tolist(), dtype=torch.float64, requires_grad=True)
    w = torch.tensor(W0.tolist(), dtype=torch.float64, requires_grad=True)
    (gx,) = torch.autograd.grad(fn(x, w), x, create_graph=True)
    (hw,) = torch.autograd.grad(gx.sum(), w, allow_unused=True, materialize_grads=True)

    def first_sum(x_arr, w_arr):
        xt = torch.tensor(x_arr.tolist(), dtype=torch.float64, requires_grad=True)
        wt = torch.tensor(w_arr.tolist(), dtype=torch.float64)
        return torch.autograd.grad(fn(xt, wt), xt)[0].sum().item()

    expected = _numeric_grad(first_sum, [X0, W0], 1)
    np.testing.assert_allclose(hw.numpy(), expected, rtol=1e-5, atol=1e-5)


def test_in_place_on_a_view_rewrites_the_base_and_the_views():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    y = x * 1
    head, tail = y[:2], y[2:]
    tail.mul_(3)
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    assert type(y.grad_fn).__name__ == "CopySlices"
    assert type(head.grad_fn).__name__ == "AsStridedBackward0"
    assert type(tail.grad_fn).__name__ == "AsStridedBackward0"
    assert y._version == head._version == tail._version == 1
    assert y.tolist() == [1.0, 2.0, 9.0, 12.0]
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 3.0, 3.0]


def test_index_chains_are_pytorchs():
    x = torch.arange(12.0).reshape(3, 4).requires_grad_()

    def chain(t):
        names, fn = [], t.grad_fn
        while fn is not None and type(fn).__name__ != "AccumulateGrad":
            names.append(type(fn).__name__)
            fn = fn.next_functions[0][0]
        return names

    assert chain(x[0, 1]) == ["SelectBackward0", "SelectBackward0"]
    assert chain(x[:]) == ["SliceBackward0"]
    assert chain(x[:, :]) == ["AliasBackward0"]
    assert chain(x[...]) == ["AliasBackward0"]
    assert chain(x[:, 1]) == ["SelectBackward0"]
    assert chain(x[1:2, None, 0]) == ["SelectBackward0", "UnsqueezeBackward0", "SliceBackward0"]
    assert chain(x[0, [0, 1]]) == ["IndexBackward0", "SelectBackward0"]
    assert chain(x.t().reshape(12)) == ["UnsafeViewBackward0", "CloneBackward0", "TBackward0"]


def test_views_share_memory_and_copies_do_not():
    x = torch.arange(6.0).reshape(2, 3)
    x.t()[0, 1] = 100.0
    x[1:].mul_(2)
    assert x.tolist() == [[0.0, 1.0, 2.0], [200.0, 8.0, 10.0]]
    copy = x.t().reshape(6)
    copy[0] = -1.0
    assert x[0, 0].item() == 0.0
    assert x.t().contiguous().is_contiguous() and not x.t().is_contiguous()


@pytest.mark.parametrize(
    ("expression", "error", "message"),
    [
        ("x.t().view(6)", RuntimeError, "view size is not compatible with input tensor's size"),
        ("x.view(4)", RuntimeError, r"shape '\[4\]' is invalid for input of size 6"),
        ("x[2]", IndexError, "index 2 is out of bounds for dimension 0 with size 2"),
        ("x[0, 3]", IndexError, "index 3 is out of bounds for dimension 1 with size 3"),
        ("x[::-1]", ValueError, "step must be greater than zero"),
        ("x[0, 0, 0]", IndexError, "too many indices for tensor of dimension 2"),
        ("x.narrow(1, 2, 2)", RuntimeError, r"start \(2\) \+ length \(2\) exceeds"),
        ("x.chunk(0)", RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0"),
        ("torch.cat([x, x[0]])", RuntimeError, "Tensors must have same number of dimensions"),
        ("x.repeat(2)", RuntimeError, "Number of dimensions of repeat dims"),
        ("x.gather(1, torch.tensor([[3]]))", RuntimeError, "index 3 is out of bounds"),
    ],
)
def test_errors_have_pytorchs_type_and_message(expression, error, message):
    x = torch.arange(6.0).reshape(2, 3)
    with pytest.raises(error, match=message):
        eval(expression, {"x": x, "torch": torch})


def test_in_place_on_a_view_of_a_leaf_is_refused_unless_no_grad():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^a view of a leaf Variable that requires grad"):
        x[:2].add_(1)
    with pytest.raises(RuntimeError, match="^a view of a leaf Variable that requires grad"):
        x[0] = 5.0
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad"):
        x[x > 1] = 0.0
    with torch.no_grad():
        x[0] = 5.0
        view = x[1:]
    assert x.tolist() == [5.0, 2.0, 3.0] and x.is_leaf
    with pytest.raises(RuntimeError, match="^A view was created in no_grad mode"):
        view.mul_(2)


def test_expanded_views_cannot_be_written():
    e = torch.ones(3).expand(2, 3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        e.add_(1)


def test_backward_through_copyslices_twice_needs_retain_graph():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y[0:1].mul_(x[1:])
    y.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.sum().backward()


@pytest.mark.parametrize(
    ("squeeze", "name"),
    [
        (lambda z: z.squeeze(0), "SqueezeBackward1"),
        (lambda z: z.squeeze(-1), "SqueezeBackward1"),
        (lambda z: z.squeeze((0,)), "SqueezeBackward2"),
        (lambda z: torch.squeeze(z, 0), "SqueezeBackward1"),
        (lambda z: z.squeeze(), "SqueezeBackward0"),
    ],
)
def test_squeezing_a_0_d_tensor_is_a_view_of_it(squeeze, name):
    # as PyTorch 2.13: dim 0 (or -1) of a 0-d tensor may be squeezed, which changes nothing
    z = torch.tensor(2.0, requires_grad=True)
    y = squeeze(z)
    assert (y.shape, y._base is z, type(y.grad_fn).__name__) == ((), True, name)
    y.backward()
    assert z.grad.item() == 1.0
    with pytest.raises(IndexError, match=r"expected to be in range of \[-1, 0\], but got 1"):
        z.squeeze(1)


def test_a_base_keeps_its_live_views_only():
    base = torch.zeros(200)
    kept = [base[i : i + 1] for i in range(3)]
    for i in range(300):  # dead views are dropped as the list grows
        base[i % 200 : i % 200 + 1]
    assert len(base._views) < 128
    base.add_(torch.ones(200, requires_grad=True))
    assert [type(v.grad_fn).__name__ for v in kept] == ["AsStridedBackward0"] * 3
