"""numpy keyword spellings, range indexing, the in-place forms and einsum/solve/multi_dot added
for issue 30: values against numpy, gradients against finite differences (float64)."""

from __future__ import annotations

import numpy as np
import pytest

import autodiff_cli.engine as torch
from autodiff_cli.engine.autograd import gradcheck


def _rand(*shape: int) -> torch.Tensor:
    rng = np.random.default_rng(sum(shape))
    return torch.tensor(rng.standard_normal(shape), dtype=torch.float64, requires_grad=True)


def test_axis_and_keepdims_are_dim_and_keepdim() -> None:
    x = torch.arange(6.0).reshape(2, 3)
    assert torch.sum(x, axis=0, keepdims=True).tolist() == [[3.0, 5.0, 7.0]]
    assert x.mean(axis=1).tolist() == [1.0, 4.0]
    assert torch.argmax(x, axis=1).tolist() == [2, 2]
    assert torch.cat((x, x), axis=1).shape == (2, 6)


@pytest.mark.parametrize(
    ("call", "word"),
    [
        (lambda x: torch.sum(x, dim=0, axis=0), "axis"),
        (lambda x: torch.sum(x, 0, axis=0), "axis"),
        (lambda x: x.sum(0, keepdim=True, keepdims=True), "keepdims"),
    ],
)
def test_both_spellings_is_pytorchs_error(call, word) -> None:  # noqa: ANN001
    with pytest.raises(TypeError, match=f"sum\\(\\) got an unexpected keyword argument '{word}'"):
        call(torch.ones(2, 3))


def test_python_level_functions_refuse_axis() -> None:
    with pytest.raises(TypeError, match="axis"):
        torch.split(torch.ones(2, 3), 1, axis=0)


def test_size_keyword() -> None:
    assert torch.zeros(size=(2, 3)).shape == (2, 3)
    assert torch.ones(2, 3).view(size=(3, 2)).shape == (3, 2)
    with pytest.raises(TypeError, match="multiple values for argument 'size'"):
        torch.zeros(2, size=(2,))


def test_range_index_reads_and_writes_with_gradients() -> None:
    w = _rand(3, 4)
    y = torch.tensor([1, 0, 3])
    assert gradcheck(lambda t: t[range(3), y], (w,))
    assert gradcheck(lambda t: t[[range(2), [1, 2]]] * 2, (w,))
    m = torch.zeros(3, 3)
    m[range(3), range(3)] = 1.0
    assert np.array_equal(m.numpy(), np.eye(3))


def test_inplace_views_keep_the_gradient() -> None:
    w = _rand(2, 3)
    assert gradcheck(lambda t: (t * 1).t_() * torch.arange(6.0).double().reshape(3, 2), (w,))
    assert gradcheck(lambda t: (t * 1).unsqueeze_(0).transpose_(0, 2) * 3, (w,))
    a = w * 1
    a.unsqueeze_(1)
    assert a.grad_fn.name() == "UnsqueezeBackward1" and a.shape == (2, 1, 3)


@pytest.mark.parametrize(
    ("equation", "shapes"),
    [
        ("ij,jk->ik", ((2, 3), (3, 4))),
        ("bij,bjk->bik", ((2, 2, 3), (2, 3, 4))),
        ("i,i->", ((3,), (3,))),
        ("ii->i", ((3, 3),)),
        ("ij->", ((2, 3),)),
        ("i,j->ij", ((2,), (3,))),
        ("...j,jk->...k", ((2, 2, 3), (3, 2))),
        ("ij,jk,kl->il", ((2, 3), (3, 2), (2, 2))),
    ],
)
def test_einsum_values_and_gradients(equation: str, shapes: tuple) -> None:
    ops = [_rand(*s) for s in shapes]
    expected = np.einsum(equation, *[o.detach().numpy() for o in ops])
    assert np.allclose(torch.einsum(equation, *ops).detach().numpy(), expected)
    assert gradcheck(lambda *t: torch.einsum(equation, *t), tuple(ops))


def test_solve_and_multi_dot_gradients() -> None:
    a = torch.tensor([[3.0, 1.0], [1.0, 2.0]], dtype=torch.float64, requires_grad=True)
    assert gradcheck(torch.linalg.solve, (a, _rand(2)))
    assert gradcheck(torch.linalg.solve, (a, _rand(2, 3)))
    assert gradcheck(lambda *t: torch.linalg.multi_dot(t), (_rand(2), _rand(2, 3), _rand(3, 4)))


def test_index_put_accumulate_xlogy_fill_diagonal_gradients() -> None:
    idx = (torch.tensor([0, 0, 1]), torch.tensor([2, 2, 0]))
    assert gradcheck(
        lambda t, v: (t * 1).index_put_(idx, v, accumulate=True), (_rand(2, 3), _rand(3))
    )
    positive = torch.tensor([0.5, 1.5, 2.0], dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda t, p: (t * 1).xlogy_(p), (_rand(3), positive))
    assert gradcheck(lambda t: (t * 1).fill_diagonal_(2.0) * 3, (_rand(4, 3),))


def test_comparison_inplace_keeps_dtype() -> None:
    a = torch.arange(3)
    assert a.gt_(1.5).tolist() == [0, 0, 1] and a.dtype == torch.int64
    assert torch.arange(3.0).eq_(1.0).tolist() == [0.0, 1.0, 0.0]


def test_top_level_inplace_functions() -> None:
    x = torch.tensor([-1.0, 2.0])
    assert torch.relu_(x) is x and x.tolist() == [0.0, 2.0]
    with pytest.raises(TypeError, match="relu_\\(\\): argument 'input' \\(position 1\\) must be"):
        torch.relu_(1)
