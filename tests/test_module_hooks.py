"""nn.Module backward hooks: register_full_backward_hook, register_full_backward_pre_hook and the
deprecated register_backward_hook — when they run, what they receive, what their return values
do, the grad_fn they give the outputs, removal and the errors PyTorch raises.

Tests take the `T` fixture and use only the public torch API, so they also run against PyTorch
when it is importable (which checks the expectations themselves).
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

MIXED = "Cannot use both regular backward hooks and full backward hooks on a single Module"


def _values(grads: tuple) -> list:
    return [None if g is None else g.tolist() for g in grads]


def _linear(T):
    lin = T.nn.Linear(3, 2)
    with T.no_grad():
        lin.weight.copy_(T.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
        lin.bias.copy_(T.tensor([0.01, -0.02]))
    return lin


def _pair(T):
    class Pair(T.nn.Module):
        def forward(self, a, b):
            return a * b, a + b

    return Pair()


def test_full_hook_receives_the_module_gradients(T):
    lin = _linear(T)
    calls = []
    lin.register_full_backward_hook(lambda m, gi, go: calls.append((m, gi, go)))
    x = T.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    y = lin(x)
    assert y.grad_fn.name() == "BackwardHookFunctionBackward"
    assert y.grad_fn.next_functions[0][0].name() == "AddmmBackward0"
    weights = T.tensor([[2.0, -1.0]])
    (y * weights).sum().backward()
    ((module, grad_input, grad_output),) = calls
    assert module is lin and type(grad_input) is tuple and type(grad_output) is tuple
    np.testing.assert_allclose(grad_output[0].tolist(), weights.tolist())
    np.testing.assert_allclose(grad_input[0].tolist(), x.grad.tolist())
    np.testing.assert_allclose(x.grad.tolist(), (weights @ lin.weight).tolist(), rtol=1e-6)


def test_inputs_without_grad_and_non_tensor_arguments(T):
    class Mixed(T.nn.Module):
        def forward(self, x, scale, extra):
            return x * scale + extra[0]

    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0, 4.0], requires_grad=True)
    seen = []
    m = Mixed()
    m.register_full_backward_hook(lambda mod, gi, go: seen.append(_values(gi)))
    m(a, 3.0, [b]).sum().backward()
    assert seen == [[[3.0, 3.0], None, None]]

    pair = _pair(T)
    pair.register_full_backward_hook(lambda mod, gi, go: seen.append((_values(gi), _values(go))))
    first, _ = pair(a, T.tensor([5.0, 6.0]))
    first.sum().backward()
    # a tensor input that does not require grad gets zeros; an unused output gets None
    assert seen[1] == ([[5.0, 6.0], [0.0, 0.0]], [[1.0, 1.0], None])

    lin = _linear(T)
    lin.register_full_backward_hook(lambda mod, gi, go: seen.append(_values(gi)))
    lin(T.ones(1, 3)).sum().backward()
    assert seen[2] == [None]


def test_hooks_run_in_pytorch_order(T):
    order = []
    net = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.Tanh())
    for i, layer in enumerate(net):
        layer.register_full_backward_pre_hook(lambda m, go, i=i: order.append(f"pre{i}"))
        layer.register_full_backward_hook(lambda m, gi, go, i=i: order.append(f"hook{i}"))
    net.register_full_backward_pre_hook(lambda m, go: order.append("net-pre"))
    net.register_full_backward_hook(lambda m, gi, go: order.append("net-hook"))
    x = T.ones(1, 2, requires_grad=True)
    out = net(x)
    out.register_hook(lambda g: order.append("output-tensor"))
    x.register_hook(lambda g: order.append("input-tensor"))
    out.sum().backward()
    assert order == [
        "output-tensor",
        "net-pre",
        "pre1",
        "hook1",
        "pre0",
        "hook0",
        "net-hook",
        "input-tensor",
    ]


def test_returned_gradients_replace_them(T):
    a = T.tensor([1.0, 2.0], requires_grad=True)
    b = T.tensor([3.0, 4.0])
    pair = _pair(T)
    pair.register_full_backward_pre_hook(lambda m, go: (go[0] * 100, go[1]))
    seen = []
    pair.register_full_backward_hook(lambda m, gi, go: seen.append(_values(go)))
    pair(a, b)[0].sum().backward()
    assert a.grad.tolist() == [300.0, 400.0]
    assert seen == [[[100.0, 100.0], None]]

    clip = _pair(T)
    clip.register_full_backward_hook(lambda m, gi, go: (gi[0].clamp(-1, 1), None))
    a.grad = None
    clip(a, b)[0].sum().backward()
    assert a.grad.tolist() == [1.0, 1.0]


@pytest.mark.parametrize(
    ("kind", "hook", "error", "message"),
    [
        (
            "full",
            lambda m, gi, go: (gi[0],),
            RuntimeError,
            "Backward hook returned an invalid number of grad_input, got 1, but expected 2",
        ),
        (
            "full",
            lambda m, gi, go: (gi[0][:1], None),
            RuntimeError,
            "hook 'hook' has changed the size of value",
        ),
        ("full", lambda m, gi, go: 5, TypeError, "object of type 'int' has no len()"),
        (
            "pre",
            lambda m, go: (go[0], go[0], go[0]),
            RuntimeError,
            "Backward pre hook returned an invalid number of grad_output, got 3, but expected 2",
        ),
    ],
)
def test_bad_return_values(T, kind, hook, error, message):
    pair = _pair(T)
    if kind == "full":
        pair.register_full_backward_hook(hook)
    else:
        pair.register_full_backward_pre_hook(hook)
    a = T.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(error) as info:
        pair(a, a * 2)[0].sum().backward()
    assert message in str(info.value)


def test_remove_and_prepend(T):
    order = []
    m = T.nn.Identity()
    first = m.register_full_backward_hook(lambda mod, gi, go: order.append("first"))
    m.register_full_backward_hook(lambda mod, gi, go: order.append("second"))
    m.register_full_backward_hook(lambda mod, gi, go: order.append("front"), prepend=True)
    x = T.ones(2, requires_grad=True)
    m(x).sum().backward()
    first.remove()
    m(x).sum().backward()
    assert order == ["front", "first", "second", "front", "second"]


def test_no_hooks_no_wrapping(T):
    lin = _linear(T)
    handle = lin.register_full_backward_pre_hook(lambda m, go: None)
    x = T.ones(1, 3, requires_grad=True)
    assert lin(x).grad_fn.name() == "BackwardHookFunctionBackward"
    handle.remove()
    assert lin(x).grad_fn.name() == "AddmmBackward0"
    with T.no_grad():
        lin.register_full_backward_hook(lambda m, gi, go: None)
        assert lin(x).grad_fn is None


def test_legacy_hook_sees_the_last_node(T):
    lin = _linear(T)
    seen = []
    lin.register_backward_hook(
        lambda m, gi, go: seen.append([None if g is None else tuple(g.shape) for g in gi])
    )
    lin(T.ones(4, 3, requires_grad=True)).sum().backward()
    lin(T.ones(4, 3)).sum().backward()
    assert seen == [[(2,), (4, 3), (3, 2)], [(2,), None, (3, 2)]]

    l2 = T.nn.Linear(2, 2)
    l2.register_backward_hook(
        lambda m, gi, go: tuple(None if g is None else T.full_like(g, 7.0) for g in gi)
    )
    w = T.ones(1, 2, requires_grad=True)
    l2(w).sum().backward()
    assert w.grad.tolist() == [[7.0, 7.0]] and l2.bias.grad.tolist() == [7.0, 7.0]


def test_mixing_hook_kinds(T):
    legacy = T.nn.Linear(2, 2)
    handle = legacy.register_backward_hook(lambda m, gi, go: None)
    legacy.register_full_backward_pre_hook(lambda m, go: None)  # allowed
    with pytest.raises(RuntimeError, match=MIXED):
        legacy.register_full_backward_hook(lambda m, gi, go: None)
    handle.remove()
    with pytest.raises(RuntimeError, match=MIXED):
        legacy.register_full_backward_hook(lambda m, gi, go: None)
    full = T.nn.Linear(2, 2)
    full.register_full_backward_hook(lambda m, gi, go: None).remove()
    with pytest.raises(RuntimeError, match=MIXED):
        full.register_backward_hook(lambda m, gi, go: None)


SCRIPT = """\
import torch
import torch.nn as nn
lin = nn.Linear(2, 1)
h = lin.register_full_backward_hook(lambda m, gi, go: print("hook", type(gi).__name__, len(gi)))
lin.register_full_backward_pre_hook(lambda m, go: print("pre", go[0].shape))
y = lin(torch.ones(3, 2, requires_grad=True))
print(y.grad_fn.name(), type(h).__name__)
y.sum().backward()
h.remove()
lin(torch.ones(3, 2, requires_grad=True)).sum().backward()
"""


def test_hooks_in_a_sandboxed_script(script):
    result = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", script("hooks.py", SCRIPT)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "BackwardHookFunctionBackward RemovableHandle",
        "pre torch.Size([3, 1])",
        "hook tuple 1",
        "pre torch.Size([3, 1])",
    ]
