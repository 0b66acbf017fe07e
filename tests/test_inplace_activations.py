"""`inplace=True` activations write into their input, as PyTorch's do: the same tensor comes
back with its version bumped and the in-place op's grad_fn (LeakyReluBackward1 and
EluBackward1 read the result, the input being overwritten). Names, gradients and messages as
PyTorch 2.13 prints them for x = [-1, 0.5, 2], h = x * 1, f(h).sum().backward()."""

from __future__ import annotations

import numpy as np
import pytest

import autodiff_cli.engine as E

F = E.nn.functional

CASES = {
    "relu": (lambda h: F.relu(h, inplace=True), "ReluBackward0", [0.0, 1.0, 1.0]),
    "leaky_relu": (
        lambda h: F.leaky_relu(h, 0.1, inplace=True),
        "LeakyReluBackward1",
        [0.10000000149011612, 1.0, 1.0],
    ),
    "elu": (lambda h: F.elu(h, inplace=True), "EluBackward1", [0.3678794503211975, 1.0, 1.0]),
    "selu": (
        lambda h: F.selu(h, inplace=True),
        "EluBackward1",
        [0.6467685699462891, 1.0507010221481323, 1.0507010221481323],
    ),
    "silu": (
        lambda h: F.silu(h, inplace=True),
        "SiluBackward0",
        [0.07232948392629623, 0.7399612069129944, 1.0907843112945557],
    ),
    "hardtanh": (lambda h: F.hardtanh(h, inplace=True), "HardtanhBackward0", [0.0, 1.0, 0.0]),
    "relu6": (lambda h: F.relu6(h, inplace=True), "HardtanhBackward0", [0.0, 1.0, 1.0]),
    "nn.ReLU": (lambda h: E.nn.ReLU(inplace=True)(h), "ReluBackward0", [0.0, 1.0, 1.0]),
    "nn.LeakyReLU": (
        lambda h: E.nn.LeakyReLU(0.1, inplace=True)(h),
        "LeakyReluBackward1",
        [0.10000000149011612, 1.0, 1.0],
    ),
    "nn.ELU": (lambda h: E.nn.ELU(inplace=True)(h), "EluBackward1", [0.3678794503211975, 1.0, 1.0]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_inplace_activation_writes_into_its_input(name: str) -> None:
    activation, grad_fn, expected = CASES[name]
    x = E.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    h = x * 1
    out = activation(h)
    assert out is h and h._version == 1
    assert out.grad_fn.name() == grad_fn
    assert [n.name() for n, _ in out.grad_fn.next_functions] == ["MulBackward0"]
    out.sum().backward()
    np.testing.assert_allclose(x.grad.tolist(), expected, rtol=1e-6)


def test_out_of_place_activations_leave_their_input() -> None:
    x = E.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    h = x * 1
    for out in (F.relu(h), F.leaky_relu(h, 0.1), F.elu(h), E.nn.ReLU()(h)):
        assert out is not h
    assert h._version == 0 and h.tolist() == [-1.0, 0.5, 2.0]
    assert F.leaky_relu(h, 0.1).grad_fn.name() == "LeakyReluBackward0"
    assert F.elu(h).grad_fn.name() == "EluBackward0"


def test_inplace_dropout_multiplies_its_input() -> None:
    x = E.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    h = x * 1
    out = F.dropout(h, 0.5, True, inplace=True)
    assert out is h and h._version == 1 and out.grad_fn.name() == "MulBackward0"
    assert set(out.tolist()) <= {-2.0, 1.0, 4.0, 0.0}


def test_inplace_on_a_leaf_that_requires_grad_is_refused() -> None:
    x = E.tensor([-1.0, 0.5], requires_grad=True)
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being used"):
        F.relu(x, inplace=True)
    with E.no_grad():
        F.relu(x, inplace=True)  # allowed without grad mode: the values only
    assert x.tolist() == [0.0, 0.5]


def test_inplace_activation_invalidates_what_was_saved() -> None:
    x = E.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    h = x.sigmoid()  # saves its result
    F.relu(h, inplace=True)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        h.sum().backward()


@pytest.mark.parametrize(
    "activation,message",
    [
        (
            lambda h: F.leaky_relu(h, -0.1, inplace=True),
            "In-place leakyReLu backward calculation is triggered with a negative slope",
        ),
        (
            lambda h: F.elu(h, -0.5, inplace=True),
            "In-place elu backward calculation is triggered with a negative slope",
        ),
    ],
)
def test_negative_slopes_in_place_are_refused_in_the_backward(activation, message) -> None:
    x = E.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    out = activation(x * 1)  # the forward runs, as PyTorch's
    assert out.tolist()[1:] == [0.5, 2.0]
    with pytest.raises(RuntimeError, match=f"^{message}"):
        out.sum().backward()


def test_elu_in_place_saves_its_result() -> None:
    x = E.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    out = F.elu(x * 1, 0.7, inplace=True)
    assert out.grad_fn._saved_alpha == 0.7
    np.testing.assert_allclose(out.grad_fn._saved_result.tolist(), [-0.4425, 0.0, 2.0], atol=1e-4)
    zero_alpha = F.elu(x * 1, 0.0, inplace=True)
    zero_alpha.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 1.0]  # PyTorch's: 0 where the result is <= 0
