"""What the core calls that the layers above it define is attached to Tensor through
`tensor_methods`, as every op's methods are (no module global is written from above): each name
is there, owned by the module that defines it, once the engine loads; and it runs."""

from __future__ import annotations

import pytest

import autodiff_cli.engine as torch
from autodiff_cli.engine.core import optable

ATTACHED = {
    "backward": "core.backward_api",
    "_legacy_new": "ops.legacy_types",
    "_note_no_grad_views": "ops.inplace",
    "_inplace_on_view": "ops.inplace",
    "_refresh_views": "ops.inplace",
    "_copy_as_gradient_of": "ops.fills",
    "_where": "ops.arithmetic",
}


@pytest.mark.parametrize(("name", "owner"), sorted(ATTACHED.items()))
def test_every_name_is_attached_by_its_module(name: str, owner: str) -> None:
    assert hasattr(torch.Tensor, name)
    assert optable._METHOD_OWNERS[name].startswith(owner)


def test_the_attached_functions_run_through_the_core() -> None:
    x = torch.Tensor([1.0, 2.0])  # _legacy_new
    x.requires_grad_()
    y = (x * x).sum()
    torch.autograd.backward(y, [torch.tensor(2.0)], create_graph=True)  # backward
    assert x.grad.tolist() == [4.0, 8.0]
    assert type(x.grad.grad_fn).__name__ == "CopyBackwards"  # _copy_as_gradient_of
    base = torch.zeros(3)
    view = base[1:]
    view.add_(torch.ones(2, requires_grad=True))  # _inplace_on_view
    assert type(base.grad_fn).__name__ == "CopySlices"
    assert type(view.grad_fn).__name__ == "AsStridedBackward0"  # as PyTorch
    w = torch.ones(3, requires_grad=True)
    (g,) = torch.autograd.grad(w.relu().sum(), w, create_graph=True)  # B.where: _where
    assert g.tolist() == [1.0, 1.0, 1.0] and g.requires_grad


def test_backward_and_node_calls_need_no_late_bound_name() -> None:
    """`Tensor.backward` is attached by core/backward_api.py, and graph nodes call
    `node_call.call_node` directly (core/graph.py imports it)."""
    assert torch.Tensor.backward.__qualname__ == "Tensor.backward"
    x = torch.ones(2, requires_grad=True)
    y = (x * 3.0).sum()
    assert y.grad_fn(torch.tensor(1.0)).tolist() == [1.0, 1.0]


@pytest.mark.parametrize("call", ["backward", "grad"])
def test_a_gradient_that_is_not_a_tensor_is_refused_as_pytorch_refuses_it(call: str) -> None:
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    with pytest.raises(TypeError, match="^gradients can be either Tensors or None, but got float$"):
        if call == "backward":
            torch.autograd.backward(y, [2.0])
        else:
            torch.autograd.grad(y, x, grad_outputs=[2.0])
