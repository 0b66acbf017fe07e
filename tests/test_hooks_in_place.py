"""A hook that changes its gradient in place and returns None: the gradient is the tensor the hook
received, as in PyTorch, so the change reaches `.grad` and everything upstream (tensor hooks on
leaves and non-leaves, retain_grad, node pre- and post-hooks, module backward hooks, 0-d
gradients included); in scripts `grad *= 100` is that in-place change (`__imul__`)."""

from __future__ import annotations

import pytest
from script_runner import error_of, run

import autodiff_cli.engine as E


def _times_100(g: E.Tensor) -> None:
    g.mul_(100)


def _plus_1(g: E.Tensor) -> None:
    g.add_(1)


def _first_times_2(grads: tuple) -> None:
    grads[0].mul_(2)


def _first_plus_1(grad_inputs: tuple, grad_outputs: tuple) -> None:
    grad_inputs[0].add_(1)


def _times_7(g: E.Tensor) -> None:
    g.mul_(7)


@pytest.mark.parametrize("shape", [(), (2,)])
def test_a_leaf_hook_changes_what_is_accumulated(shape: tuple) -> None:
    d = E.ones(shape, requires_grad=True)
    d.register_hook(_times_100)
    (d * 2).sum().backward()
    assert (d.grad == 200).all()
    (d * 3).sum().backward()
    assert (d.grad == 500).all()


@pytest.mark.parametrize("shape", [(), (2,)])
def test_a_non_leaf_hook_changes_every_gradient_upstream(shape: tuple) -> None:
    x = E.full(shape, 2.0, requires_grad=True)
    y = x * 3
    y.retain_grad()
    y.register_hook(_plus_1)
    (y * y).sum().backward()
    assert (y.grad == 13).all()  # 2 * 6 + 1: retain_grad stores after the tensor hooks
    assert (x.grad == 39).all()


def test_node_hooks_changing_gradients_in_place() -> None:
    x = E.tensor([1.0, 2.0], requires_grad=True)
    y = x * 5
    y.grad_fn.register_prehook(_first_times_2)
    y.grad_fn.register_hook(_first_plus_1)
    y.backward(E.ones(2))
    assert x.grad.tolist() == [11.0, 11.0]


def test_a_0_d_gradient_changed_in_place_by_a_node_prehook() -> None:
    x = E.tensor(1.5, requires_grad=True)
    y = x.exp()
    y.grad_fn.register_prehook(_first_times_2)
    y.backward()
    assert x.grad.item() == pytest.approx(2 * 4.4816890703380645)


def _resized(g: E.Tensor) -> None:
    g.data = E.ones(2)


def test_a_hook_changing_the_size_in_place_is_refused() -> None:
    """(PyTorch stores a `.grad` of the wrong size; here the hook is named in a clear error.)"""
    x = E.tensor(1.0, requires_grad=True)
    x.register_hook(_resized)
    with pytest.raises(RuntimeError, match="has changed the size of value"):
        (x * 2).backward()


def test_the_gradient_given_to_backward_is_the_one_a_hook_changes() -> None:
    a = E.tensor([1.0, 2.0], requires_grad=True)
    c = a * 1
    c.register_hook(_times_7)
    given = E.tensor([1.0, 2.0])
    c.backward(given)
    assert a.grad.tolist() == [7.0, 14.0]
    assert given.tolist() == [7.0, 14.0]  # as in PyTorch


def test_a_hook_on_an_expanded_gradient_cannot_write_it() -> None:
    y = E.tensor([1.0, 2.0], requires_grad=True).exp()
    y.register_hook(lambda g: g.mul_(2))
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        y.sum().backward()


def test_scripts_hooks_with_augmented_assignment() -> None:
    out = run(
        "import torch\n"
        "d = torch.tensor(1., requires_grad=True)\n"
        "def h(g):\n"
        "    g *= 100\n"
        "d.register_hook(h)\n"
        "(d * 2).backward()\n"
        "print(d.grad)\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\n"
        "y = x * 3\n"
        "y.register_hook(lambda g: g.mul_(10))\n"
        "(y * y).sum().backward()\n"
        "print(x.grad)\n"
    )
    assert out == "tensor(200.)\ntensor([180., 360.])\n"


def test_scripts_augmented_assignment_is_in_place_where_python_is() -> None:
    out = run(
        "import torch\n"
        "t = torch.ones(2)\n"
        "u = t\n"
        "u *= 3\n"
        "u %= 2\n"
        "print(t, u is t)\n"
        "class C:\n"
        "    def __init__(self):\n"
        "        self.v = 2\n"
        "    def __imul__(self, k):\n"
        "        self.v *= k\n"
        "        return self\n"
        "c = C()\n"
        "c2 = c\n"
        "c2 *= 4\n"
        "print(c.v, c is c2)\n"
        "s = t2 = (1,)\n"
        "s *= 2\n"
        "n = 3\n"
        "n *= 5\n"
        "print(s, t2, n, '%d!' % 4)\n"
    )
    assert out == "tensor([1., 1.]) True\n8 True\n(1, 1) (1,) 15 4!\n"


@pytest.mark.parametrize(
    "source, message",
    [
        ("x = [1]\nx *= 10 ** 12\n", "'list' repetition of 1000000000000 items is larger"),
        ("x = 3 ** 600000\nx *= x\n", "integer result too large"),
        ("import torch\nx = torch.ones(2)\nx *= torch.ones(3)\n", "The size of tensor a (2)"),
    ],
)
def test_scripts_multiplying_in_place_keeps_the_checks(source: str, message: str) -> None:
    assert message in str(error_of(source))
