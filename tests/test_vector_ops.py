"""torch.cross / torch.linalg.cross and torch.logcumsumexp: values, gradients (at ±inf and
NaN for logcumsumexp), second derivatives, grad_fn names, dims and PyTorch's refusals. Every
literal was recorded from PyTorch 2.13 (CPU)."""

from __future__ import annotations

import math
import warnings

import pytest
from close_values import assert_close as _close

import autodiff_cli.engine as E
from autodiff_cli.engine.ops import vector_ops

nan, inf = math.nan, math.inf
F64 = E.float64


def test_cross_values_gradients_and_saved_dim() -> None:
    a = E.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    b = E.tensor([[0.0, 1.0, -1.0], [2.0, 0.5, 1.0]], requires_grad=True)
    y = E.cross(a, b, dim=1)
    assert y.tolist() == [[-5.0, 1.0, 1.0], [2.0, 8.0, -8.0]]
    assert y.grad_fn.name() == "LinalgCrossBackward0" and y.grad_fn._saved_dim == 1
    ga, gb = E.autograd.grad(y.sum(), [a, b], create_graph=True)
    assert ga.tolist() == [[2.0, -1.0, -1.0], [-0.5, -1.0, 1.5]]
    assert gb.tolist() == [[1.0, -2.0, 1.0], [1.0, -2.0, 1.0]]
    assert ga.grad_fn.name() == gb.grad_fn.name() == "LinalgCrossBackward0"
    assert E.linalg.cross(a, b).grad_fn._saved_dim == 2**64 - 1  # -1, shown unsigned
    assert a.cross(b, dim=-1).tolist() == y.tolist()
    ints = E.linalg.cross(E.tensor([1, 2, 3]), E.tensor([0, 1, 0]))
    assert ints.tolist() == [-3, 0, 1] and ints.dtype == E.int64
    bcast = E.cross(E.tensor([[1.0, 0.0, 0.0]]), E.eye(3), dim=1)
    assert bcast.tolist() == [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]]


def test_cross_without_dim_takes_the_first_of_size_3_and_warns_once() -> None:
    vector_ops._Warned.default_dim = False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = E.cross(E.ones(3, 3), E.eye(3))
        E.cross(E.ones(3), E.ones(3))
    assert y.tolist() == [[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]]
    assert len(caught) == 1 and caught[0].category is UserWarning
    assert str(caught[0].message).startswith(
        "Using torch.cross without specifying the dim arg is deprecated.\n"
    )


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [
        (lambda: E.linalg.cross(E.ones(2, 4), E.ones(2, 4)), RuntimeError,
         "linalg.cross: inputs dimension -1 must have length 3. Got 4 and 4"),
        (lambda: E.cross(E.ones(2, 3), E.ones(2, 3), dim=0), RuntimeError,
         "linalg.cross: inputs dimension 0 must have length 3. Got 2 and 2"),
        (lambda: E.linalg.cross(E.ones(3), E.ones(2, 3)), RuntimeError,
         "linalg.cross: inputs must have the same number of dimensions."),
        (lambda: E.linalg.cross(E.ones(2, 3), E.ones(2, 3), dim=2), IndexError,
         "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
        (lambda: E.linalg.cross(E.tensor([1, 2, 3]), E.tensor([0.0, 1, 0])), RuntimeError,
         "expected scalar type Long but found Float"),
        (lambda: E.linalg.cross(E.ones(3), E.ones(3, dtype=F64)), RuntimeError,
         "expected scalar type Float but found Double"),
        (lambda: E.linalg.cross(E.tensor(1.0), E.tensor(2.0)), IndexError,
         "Dimension specified as -1 but tensor has no dimensions"),
        (lambda: E.linalg.cross(E.tensor([True, False, True]), E.tensor([True, True, False])),
         NotImplementedError, "\"cross\" not implemented for 'Bool'"),
        (lambda: E.logcumsumexp(E.tensor([1, 2, 3]), 0), NotImplementedError,
         "\"logcumsumexp_out_cpu\" not implemented for 'Long'"),
        (lambda: E.logcumsumexp(E.tensor([True]), 0), NotImplementedError,
         "\"logcumsumexp_out_cpu\" not implemented for 'Bool'"),
        (lambda: E.logcumsumexp(E.tensor([1.0, 2.0])), TypeError,
         'logcumsumexp() missing 1 required positional arguments: "dim"'),
        (lambda: E.ones(2).logcumsumexp(), TypeError,
         'logcumsumexp() missing 1 required positional arguments: "dim"'),
        (lambda: E.logcumsumexp(E.ones(2), "a"), TypeError,
         "logcumsumexp(): argument 'dim' (position 2) must be int, not str"),
        (lambda: E.logcumsumexp(E.ones(2), 1), IndexError,
         "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    ],
)  # fmt: skip
def test_errors(call, kind, message) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(kind) as info:
            call()
    assert str(info.value) == message


def test_logcumsumexp_values_and_gradients_at_infinities() -> None:
    x = E.tensor([[0.5, -1.0, 2.0, -inf], [1.0, 1.0, inf, 0.0]], requires_grad=True)
    y = E.logcumsumexp(x, 1)
    assert y.grad_fn.name() == "LogcumsumexpBackward0" and y.grad_fn._saved_dim == 1
    _close(
        y.tolist(),
        [
            [0.5, 0.7014132738113403, 2.2413113117218018, 2.2413113117218018],
            [1.0, 1.6931471824645996, inf, inf],
        ],
    )
    (g,) = E.autograd.grad(y.sum(), x, create_graph=True)
    assert g.grad_fn.name() == "SubBackward0"
    _close(
        g.tolist(),
        [[2.1681551933288574, 0.2606506645679474, 1.571194052696228, 0.0], [1.5, 0.5, nan, 0.0]],
    )
    x3 = E.tensor([-inf, -inf, 0.0, nan, 1.0], requires_grad=True)
    E.logcumsumexp(x3, 0).sum().backward()
    assert all(math.isnan(v) for v in x3.grad.tolist())
    x4 = E.tensor([inf, 1.0, inf], requires_grad=True)
    E.logcumsumexp(x4, 0).sum().backward()
    _close(x4.grad.tolist(), [nan, 0.0, nan])
    x5 = E.tensor([-inf, -1.0, -inf], dtype=F64, requires_grad=True)
    (g,) = E.autograd.grad(E.logcumsumexp(x5, 0), x5, E.tensor([1.0, 0.0, -2.0], dtype=F64))
    _close(g.tolist(), [nan, -2.0, 0.0])


def test_logcumsumexp_second_derivative_and_corners() -> None:
    x = E.tensor([0.3, -0.5, 1.2], dtype=F64, requires_grad=True)
    w = E.tensor([1.0, 2.0, 0.5], dtype=F64)
    (g,) = E.autograd.grad((E.logcumsumexp(x, 0) * w).sum(), x, create_graph=True)
    _close(g.tolist(), [2.5078611363149212, 0.6775256824130003, 0.31461318127207855], 1e-12)
    (h,) = E.autograd.grad(g[0], x)
    _close(h.tolist(), [0.5230085185549289, -0.44252280654623133, -0.08048571200869788], 1e-12)
    _close(
        E.logcumsumexp(E.tensor([1000.0, 1000.0, -1000.0]), 0).tolist(),
        [1000.0, 1000.6931762695312, 1000.6931762695312],
    )
    assert E.logcumsumexp(E.tensor(1.5), 0).tolist() == 1.5
    assert E.logcumsumexp(E.ones(0, 2), 0).shape == (0, 2)
    assert E.logcumsumexp(E.tensor([1.0, 2.0], dtype=F64), 0).dtype == F64
    assert not hasattr(E.Tensor, "logcumsumexp_")
