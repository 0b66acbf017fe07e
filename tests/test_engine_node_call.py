"""Calling a grad_fn node as PyTorch 2.13 allows (`y.grad_fn(g)`, a custom Function node's
`.apply`); the expected values were printed by PyTorch for the same code."""

from __future__ import annotations

import numpy as np
import pytest
from script_runner import run_dedented as run

import autodiff_cli.engine as torch
from autodiff_cli.engine.core.saved_values import FREED_MESSAGE
from autodiff_cli.lang import ScriptError


def test_one_input_gives_a_tensor_two_give_an_unreduced_tuple() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor(2.0, requires_grad=True)
    y = x * w
    total = y.grad_fn(torch.ones(3))
    assert isinstance(total, tuple) and len(total) == 2
    gx, gw = total
    assert gx.tolist() == [2.0, 2.0, 2.0] and gx.grad_fn.name() == "MulBackward0"
    assert gw.tolist() == [1.0, 2.0, 3.0]  # the broadcast is summed by backward, not the node
    assert y.sum().grad_fn(torch.tensor(1.0)).tolist() == [1.0, 1.0, 1.0]
    assert y.grad_fn(None) == (None, None)


def test_results_follow_grad_mode_and_the_gradient_dtype() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    with torch.no_grad():
        plain = y.grad_fn(torch.ones(2))
    assert plain.grad_fn is None
    double = y.grad_fn(torch.ones(2, dtype=torch.float64))
    assert double.dtype == torch.float64 and double.grad_fn is not None
    np.testing.assert_allclose(double.detach().numpy(), np.exp([1.0, 2.0]))


def test_multi_output_nodes_fill_missing_gradients_with_zeros() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    first = x.unbind(0)[0]
    grad = first.grad_fn(torch.tensor(1.0), None, torch.tensor(3.0))
    assert grad.tolist() == [1.0, 0.0, 3.0]


def test_errors_as_pytorch_gives_them() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    with pytest.raises(TypeError, match="^expected 1 arguments, got 2 instead$"):
        y.grad_fn(torch.ones(3), torch.ones(3))
    with pytest.raises(TypeError, match="^argument 0 is not a Variable$"):
        y.grad_fn(3)
    with pytest.raises(TypeError, match="^keyword arguments are not supported$"):
        y.grad_fn(grad=torch.ones(3))
    with pytest.raises(TypeError, match="expected 3 arguments, got 1 instead"):
        x.unbind(0)[0].grad_fn(torch.tensor(1.0))
    y.sum().backward()
    with pytest.raises(RuntimeError) as info:
        y.grad_fn(torch.ones(3))
    assert str(info.value) == FREED_MESSAGE


def test_accumulate_grad_node_adds_into_the_leaf() -> None:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    acc = (x * 2).grad_fn.next_functions[0][0]
    assert acc(torch.ones(3)) == ()
    assert acc(torch.ones(3)) == ()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(RuntimeError, match=r"must match the size of tensor b \(2\)"):
        acc(torch.ones(2))


def test_inplace_broadcast_past_the_target_is_pytorchs_error() -> None:
    with pytest.raises(RuntimeError, match=r"^output with shape \[1\] doesn't match the broad"):
        torch.zeros(1).add_(torch.ones(3))


def test_custom_function_node_apply_calls_the_scripts_backward() -> None:
    out = run(
        """
        import torch
        class MyExp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, i):
                r = i.exp()
                ctx.save_for_backward(r)
                return r
            @staticmethod
            def backward(ctx, g):
                r, = ctx.saved_tensors
                return g * r
        x = torch.tensor([0., 1.], requires_grad=True)
        y = MyExp.apply(x)
        print(callable(y.grad_fn), callable(y.exp().grad_fn))
        print(y.grad_fn.apply(torch.ones(2)))
        y.sum().backward()
        try:
            y.grad_fn.apply(torch.ones(2))
        except RuntimeError as error:
            print(str(error)[:40])
        try:
            y.grad_fn(torch.ones(2))
        except TypeError as error:
            print(error)
        """
    )
    assert out == (
        "False True\n"
        "tensor([1.0000, 2.7183], grad_fn=<MulBackward0>)\n"
        "Trying to backward through the graph a s\n"
        "'MyExpBackward' object is not callable\n"
    )


def test_a_script_cannot_reach_the_pass_apply() -> None:
    with pytest.raises(
        ScriptError, match="attribute .apply. of .*objects is not available in scripts"
    ):
        run("import torch\ny = torch.ones(2, requires_grad=True).exp()\ny.grad_fn.apply\n")
