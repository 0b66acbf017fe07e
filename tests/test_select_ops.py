"""copysign, signbit, masked_select and take: values, gradients (at 0, -0., inf and NaN), grad_fn
names under create_graph, dtypes and PyTorch's refusals. Every literal was recorded from
PyTorch 2.13 (CPU)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import autodiff_cli.engine as E

nan, inf = math.nan, math.inf


def _same(actual: list, expected: list) -> None:
    np.testing.assert_array_equal(np.array(actual), np.array(expected))
    signs = [math.copysign(1, v) for v in actual if not math.isnan(v)]
    assert signs == [math.copysign(1, v) for v in expected if not math.isnan(v)]


def test_copysign_with_a_tensor() -> None:
    a = E.tensor([-2.0, 0.0, -0.0, 3.0, nan, inf, 1.5], requires_grad=True)
    b = E.tensor([1.0, -1.0, 2.0, -0.0, -3.0, -1.0, 0.0], requires_grad=True)
    y = E.copysign(a, b)
    assert y.grad_fn.name() == "CopysignBackward0"
    _same(y.tolist(), [2.0, -0.0, 0.0, -3.0, nan, -inf, 1.5])
    ga, gb = E.autograd.grad(y.sum(), [a, b], create_graph=True)
    _same(ga.tolist(), [-1.0, 0.0, 0.0, -1.0, nan, nan, 1.0])
    assert gb.tolist() == [0.0] * 7
    assert ga.grad_fn.name() == "MulBackward0" and gb.grad_fn is None
    assert a.copysign(b).grad_fn.name() == "CopysignBackward0"


def test_copysign_with_a_number() -> None:
    a = E.tensor([-2.0, 0.0, -0.0, 3.0, nan, inf, 1.5], requires_grad=True)
    y = E.copysign(a, -1.0)
    assert y.grad_fn.name() == "CopysignBackward1"
    _same(y.tolist(), [-2.0, -0.0, -0.0, -3.0, nan, -inf, -1.5])
    (g,) = E.autograd.grad(y.sum(), a, create_graph=True)
    _same(g.tolist(), [1.0, 0.0, 0.0, -1.0, nan, nan, -1.0])
    assert g.grad_fn.name() == "MulBackward0"
    (g,) = E.autograd.grad(E.copysign(a, 0.0).sum(), a)
    _same(g.tolist(), [-1.0, 0.0, 0.0, 1.0, nan, nan, 1.0])


def test_copysign_dtypes_and_in_place() -> None:
    ints = E.copysign(E.tensor([1, -2, 3]), E.tensor([-1, 1, -1]))
    assert ints.dtype == E.float32 and ints.tolist() == [-1.0, 2.0, -3.0]
    assert E.copysign(E.tensor([1, -2, 3]), -1).tolist() == [-1.0, -2.0, -3.0]
    assert E.copysign(E.tensor([True, False]), E.tensor([True, False])).tolist() == [1.0, 0.0]
    wide = E.copysign(E.tensor([1.0, -2.0], dtype=E.float64), E.tensor([-1.0, 1.0]))
    assert wide.dtype == E.float64
    assert E.copysign(E.ones(2, 1), E.tensor([-1.0, 1.0, -0.0])).tolist() == [[-1.0, 1.0, -1.0]] * 2
    h = E.tensor([1.0, 2.0], requires_grad=True) * 1
    assert h.copysign_(-1.0) is h and h.grad_fn.name() == "CopysignBackward1"
    h = E.tensor([1.0, 2.0], requires_grad=True) * 1
    h.copysign_(E.tensor([-1.0, 1.0]))
    assert h.tolist() == [-1.0, 2.0] and h.grad_fn.name() == "CopysignBackward0"
    for other in (-1.0, E.tensor([1.0, -1.0])):
        with pytest.raises(RuntimeError) as info:
            E.tensor([1, 2]).copysign_(other)
        assert str(info.value) == "result type Float can't be cast to the desired output type Long"


def test_copysign_refuses_a_number_first() -> None:
    with pytest.raises(TypeError) as info:
        E.copysign(2.0, E.tensor([1.0]))
    assert str(info.value) == (
        "copysign() received an invalid combination of arguments - got (float, Tensor), but "
        "expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n"
        " * (Tensor input, Number other, *, Tensor out = None)\n"
    )


def test_signbit() -> None:
    x = E.tensor([-2.0, 0.0, -0.0, 3.0, nan, -nan, -inf], requires_grad=True)
    out = E.signbit(x)
    assert out.tolist() == [True, False, True, False, False, True, True]
    assert out.dtype == E.bool and not out.requires_grad and out.grad_fn is None
    assert E.signbit(E.tensor([-2, 0, 3])).tolist() == [True, False, False]
    assert E.tensor([True, False]).signbit().tolist() == [False, False]
    assert not hasattr(E.Tensor, "signbit_")


def test_masked_select_values_and_gradients() -> None:
    x = E.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    m = E.tensor([[True, False, True], [False, False, True]])
    y = E.masked_select(x, m)
    assert y.tolist() == [1.0, 3.0, 6.0] and y.grad_fn.name() == "MaskedSelectBackward0"
    assert y.grad_fn._saved_mask.tolist() == m.tolist()
    v = E.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (g,) = E.autograd.grad(y, x, v, create_graph=True)
    assert g.tolist() == [[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]
    assert g.grad_fn.name() == "MaskedScatterBackward0"
    assert x.masked_select(E.tensor([True, False, True])).tolist() == [1.0, 3.0, 4.0, 6.0]
    small = E.tensor([1.0, 2.0, 3.0], requires_grad=True)  # broadcast to the mask's shape
    picked = E.masked_select(small, E.tensor([[True, False, True], [True, True, False]]))
    assert picked.tolist() == [1.0, 3.0, 1.0, 2.0]
    picked.sum().backward()
    assert small.grad.tolist() == [2.0, 1.0, 1.0]
    assert E.masked_select(E.tensor(2.0), E.tensor(True)).shape == (1,)
    assert E.masked_select(x, E.zeros(2, 3, dtype=E.bool)).shape == (0,)
    assert E.masked_select(E.tensor([1, 2, 3]), E.tensor([True, False, True])).tolist() == [1, 3]


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [
        (lambda x: E.masked_select(x, E.ones(2, 3, dtype=E.uint8)), RuntimeError,
         "masked_select: expected BoolTensor for mask"),
        (lambda x: E.masked_select(x, E.ones(2, dtype=E.int64)), RuntimeError,
         "masked_select: expected BoolTensor for mask"),
        (lambda x: E.masked_select(x, E.tensor([True, False])), RuntimeError,
         "The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
         "dimension 1"),
        (lambda x: E.masked_select(x, E.ones(4, 1, dtype=E.bool)), RuntimeError,
         "The size of tensor a (4) must match the size of tensor b (2) at non-singleton "
         "dimension 0"),
        (lambda x: E.masked_select(x, True), TypeError,
         "masked_select(): argument 'mask' (position 2) must be Tensor, not bool"),
        (lambda x: x.masked_select([True, False, True]), TypeError,
         "masked_select(): argument 'mask' (position 1) must be Tensor, not list"),
        (lambda x: E.take(x, E.tensor([6])), IndexError,
         "out of range: tried to access index 6 on a tensor of 6 elements."),
        (lambda x: E.take(x, E.tensor([-7])), IndexError,
         "out of range: tried to access index -7 on a tensor of 6 elements."),
        (lambda x: E.take(x, E.tensor([1.0])), RuntimeError,
         "take(): Expected a long tensor for index, but got Float"),
        (lambda x: E.take(x, E.tensor([1], dtype=E.int32)), RuntimeError,
         "take(): Expected a long tensor for index, but got Int"),
        (lambda x: E.take(x, E.tensor([True])), RuntimeError,
         "take(): Expected a long tensor for index, but got Bool"),
        (lambda x: E.take(x, [1, 2]), TypeError,
         "take(): argument 'index' (position 2) must be Tensor, not list"),
        (lambda x: E.take(E.ones(0), E.tensor([0])), IndexError,
         "take(): tried to take from an empty tensor"),
    ],
)  # fmt: skip
def test_errors(call, kind, message) -> None:
    x = E.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    with pytest.raises(kind) as info:
        call(x)
    assert str(info.value) == message


def test_take_values_and_gradients() -> None:
    x = E.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = E.take(x, E.tensor([0, 5, -1, 2, 2]))
    assert y.tolist() == [1.0, 6.0, 6.0, 3.0, 3.0] and y.grad_fn.name() == "TakeBackward0"
    assert y.grad_fn._saved_index.tolist() == [0, 5, -1, 2, 2]
    v = E.ones(5, requires_grad=True)
    (g,) = E.autograd.grad(y, x, v, create_graph=True)
    assert g.tolist() == [[1.0, 0.0, 2.0], [0.0, 0.0, 2.0]]  # repeated indices add up
    assert g.grad_fn.name() == "PutBackward0"
    assert x.take(E.tensor([[0, 1], [4, 4]])).tolist() == [[1.0, 2.0], [5.0, 5.0]]
    assert E.take(E.ones(0), E.tensor([], dtype=E.int64)).shape == (0,)
    assert E.take(E.tensor(3.0), E.tensor(0)).tolist() == 3.0
    ints = E.take(E.tensor([[1, 2], [3, 4]]), E.tensor([3, 0]))
    assert ints.tolist() == [4, 1] and ints.dtype == E.int64
