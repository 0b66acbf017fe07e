"""The core's functions given from above (`core/provided.py`) are all given once the engine loads."""

from __future__ import annotations

import pytest

import autodiff_cli.engine as torch
from autodiff_cli.engine.core import provided
from autodiff_cli.engine.ops import fills, inplace, legacy_types


def test_every_name_is_given_by_its_module():
    expected = {
        "legacy_new": legacy_types.legacy_new,
        "note_no_grad_view": inplace.note_no_grad_view,
        "inplace_on_view": inplace.inplace_on_view,
        "after_inplace": inplace.after_inplace,
        "copy_of_gradient": fills.copy_of_gradient,
    }
    assert set(expected) == set(provided.NAMES)
    for name, fn in expected.items():
        assert getattr(provided, name) is fn, name


def test_an_unknown_name_is_refused():
    with pytest.raises(ValueError, match="unknown name 'nope'"):
        provided.provide(nope=len)


def test_the_given_functions_run_through_the_core():
    x = torch.Tensor([1.0, 2.0])  # legacy_new
    x.requires_grad_()
    y = (x * x).sum()
    torch.autograd.backward(y, [torch.tensor(2.0)], create_graph=True)
    assert x.grad.tolist() == [4.0, 8.0]
    assert x.grad.grad_fn is not None  # copy_of_gradient kept the graph
    base = torch.zeros(3)
    view = base[1:]  # a view (its base keeps a weak reference to it)
    view.add_(torch.ones(2, requires_grad=True))  # inplace_on_view
    assert type(base.grad_fn).__name__ == "CopySlices"
    assert type(view.grad_fn).__name__ == "AsStridedBackward0"  # as PyTorch


def test_backward_and_node_calls_need_no_provided_name():
    """`Tensor.backward` is attached by core/backward.py through `tensor_methods`, and graph
    nodes call `node_call.call_node` directly (core/graph.py imports it)."""
    assert torch.Tensor.backward.__qualname__ == "Tensor.backward"
    x = torch.ones(2, requires_grad=True)
    y = (x * 3.0).sum()
    assert y.grad_fn(torch.tensor(1.0)).tolist() == [1.0, 1.0]
    assert not hasattr(provided, "backward") and not hasattr(provided, "call_node")


@pytest.mark.parametrize("call", ["backward", "grad"])
def test_a_gradient_that_is_not_a_tensor_is_refused_as_pytorch_refuses_it(call):
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    with pytest.raises(TypeError, match="^gradients can be either Tensors or None, but got float$"):
        if call == "backward":
            torch.autograd.backward(y, [2.0])
        else:
            torch.autograd.grad(y, x, grad_outputs=[2.0])
