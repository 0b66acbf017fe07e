"""The language driving the engine: the seed tutorials' code, hooks, in-place ops, proxies."""

from __future__ import annotations

import pytest
from script_runner import run

from autodiff_cli.lang import ScriptError, Session

torch = pytest.importorskip("autodiff_cli.engine")


def test_seed_backward_example() -> None:
    source = """
import torch
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
y = w * x + b
loss = (y - 5)**2 # target 5
loss.backward()
print(x.grad)
print(w.grad)
print(b.grad)
"""
    assert run(source) == "tensor(12.)\ntensor(8.)\ntensor(4.)\n"


def test_seed_dynamic_graph_with_variable_alias() -> None:
    source = """
import torch as t
from torch.autograd import Variable as V
def f(x):
    result = 1
    for i in x:
        if i.data > 0:
            result = i * result
    return result
x = V(t.arange(-2, 4, dtype=t.float), requires_grad=True)
y = f(x)
y.backward()
print(x.grad)
"""
    assert run(source) == "tensor([0., 0., 0., 6., 3., 2.])\n"


def test_seed_no_grad_detach_and_caught_engine_error() -> None:
    source = """
import torch
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
with torch.no_grad():
    y_nograd = w * x + 1
print(y_nograd.requires_grad, y_nograd.grad_fn)
y_detached = (w * x + 1).detach()
try:
    y_detached.backward()
except RuntimeError as e:
    print(f"RuntimeError: {e}")
"""
    assert run(source) == (
        "False None\n"
        "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n"
    )


def test_uncaught_engine_error_is_located() -> None:
    source = "import torch\nx = torch.ones(2)\ny = x * 2\ny.sum().backward()\n"
    with pytest.raises(ScriptError) as info:
        run(source)
    error = info.value
    assert (error.line, error.type_name) == (4, "RuntimeError")
    assert error.message == (
        "element 0 of tensors does not require grad and does not have a grad_fn"
    )


def test_hook_defined_in_script_is_called_by_engine() -> None:
    source = """
import torch
def variable_hook(grad):
    print(f'y grad: {grad}')
x = torch.ones(3, requires_grad=True)
y = x * 2
handle = y.register_hook(variable_hook)
y.sum().backward()
handle.remove()
"""
    assert run(source) == "y grad: tensor([1., 1., 1.])\n"


def test_augmented_assignment_modifies_tensor_in_place() -> None:
    source = """
import torch
a = torch.zeros(2)
b = a
v = a._version
a += 1
print(b, a is b, a._version > v)
"""
    assert run(source) == "tensor([1., 1.]) True True\n"


def test_import_forms() -> None:
    source = """
import torch
import torch.nn.functional as F
import torch.nn as nn
from torch import nn as nn2
from torch.autograd import grad
print(type(F.relu).__name__ != '', nn is nn2, torch.nn is nn)
"""
    assert run(source) == "True True True\n"


def test_torch_proxy_is_per_script() -> None:
    run("import torch\ntorch.tensor = None\n")
    assert run("import torch\nprint(torch.tensor(1.0))\n") == "tensor(1.)\n"
    assert torch.tensor is not None


def test_torch_private_names_are_not_reachable() -> None:
    with pytest.raises(ScriptError, match="AttributeError"):
        run("import torch\nx = torch.ones(1)\nx._data\n")


def test_bare_torch_session() -> None:
    session = Session(bare_torch=True)
    session.namespace["x"] = torch.tensor(2.0, requires_grad=True)
    result = session.execute("y = sin(x) * exp(x) + pi; y")
    assert isinstance(result, torch.Tensor)
    assert session.execute("e") == pytest.approx(2.718281828459045)
