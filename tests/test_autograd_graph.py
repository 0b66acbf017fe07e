"""torch.autograd.graph: saved-tensor hooks (pack/unpack order and counts as recorded from
PyTorch 2.13), nested hooks, save_on_cpu, disable_saved_tensors_hooks, _raw_saved_* objects,
multi-grad hooks (all/any), GradientEdge as inputs=, allow_mutation_on_saved_tensors, and how
scripts reach them (through the sandbox, in a locked-down child)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from script_runner import error_of, run

import autodiff_cli.engine as torch
from autodiff_cli.engine.autograd import graph as G
from autodiff_cli.engine.core import modes

# What PyTorch 2.13 packs (forward) and unpacks (backward) for each case, in order: the
# inputs x, y, w by name, a saved result by its node's name.
PACK_FACTS = {
    "mul": (lambda x, y, w: x * y, ["y", "x"], ["y", "x"]),
    "mul_number": (lambda x, y, w: x * 2, [], []),
    "mul_detached": (lambda x, y, w: x * y.detach(), ["other"], ["other"]),
    "div_number": (lambda x, y, w: x / 2, [], []),
    "pow2": (lambda x, y, w: x.pow(2), ["x"], ["x"]),
    "exp": (lambda x, y, w: x.exp(), ["ExpBackward0"], ["ExpBackward0"]),
    "tanh": (lambda x, y, w: x.tanh(), ["TanhBackward0"], ["TanhBackward0"]),
    "add": (lambda x, y, w: x + y, [], []),
    "addcmul": (lambda x, y, w: torch.addcmul(x, y, w), ["y", "w"], ["y", "w"]),
    "atan2": (lambda x, y, w: torch.atan2(x, y), ["y", "x"], ["y", "x"]),
    "mse": (lambda x, y, w: torch.nn.functional.mse_loss(x, y), ["x", "y"], ["x", "y"]),
    "max": (lambda x, y, w: x.max(), ["x", "MaxBackward1"], ["x", "MaxBackward1"]),
    "twice": (lambda x, y, w: x * x, ["x", "x"], ["x", "x"]),
    "chain": (
        lambda x, y, w: (x * y).exp().sin(),
        ["y", "x", "ExpBackward0", "ExpBackward0"],
        ["ExpBackward0", "ExpBackward0", "y", "x"],
    ),
}


def _inputs() -> tuple:
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    w = torch.tensor([0.25, 0.5, 0.75], requires_grad=True)
    return x, y, w


def _recording(log: list, x, y, w) -> tuple:
    def label(t):
        for name, v in (("x", x), ("y", y), ("w", w)):
            if t is v:
                return name
        return t.grad_fn.name() if t.grad_fn is not None else "other"

    def pack(t):
        log.append(label(t))
        return (label(t), t)

    def unpack(packed):
        log.append(packed[0])
        return packed[1]

    return pack, unpack


@pytest.mark.parametrize("case", sorted(PACK_FACTS))
def test_pack_and_unpack_order_as_pytorch(case):
    f, packs, unpacks = PACK_FACTS[case]
    x, y, w = _inputs()
    log: list = []
    with G.saved_tensors_hooks(*_recording(log, x, y, w)):
        out = f(x, y, w)
    assert log == packs
    log.clear()
    out.sum().backward()
    assert log == unpacks
    assert not modes.active()


def test_packed_graph_gives_the_gradients_of_the_plain_one():
    def f(x, y):
        return ((x * y).exp().sin() + x.pow(3) / y).sum()

    x64 = torch.tensor([0.3, -0.2, 0.5], dtype=torch.float64, requires_grad=True)
    y64 = torch.tensor([1.5, 0.7, -2.0], dtype=torch.float64, requires_grad=True)
    store: list = []
    with G.saved_tensors_hooks(lambda t: store.append(t) or len(store) - 1, store.__getitem__):
        out = f(x64, y64)
    gx, gy = torch.autograd.grad(out, (x64, y64))
    plain = torch.autograd.grad(f(x64, y64), (x64, y64))
    assert np.allclose(gx.numpy(), plain[0].numpy()) and np.allclose(gy.numpy(), plain[1].numpy())
    # and both agree with central differences
    eps = 1e-6
    for i in range(3):
        d = np.zeros(3)
        d[i] = eps
        up = f(torch.tensor(x64.detach().numpy() + d), y64.detach()).item()
        down = f(torch.tensor(x64.detach().numpy() - d), y64.detach()).item()
        assert abs((up - down) / (2 * eps) - gx[i].item()) < 1e-6


def test_unpack_runs_on_every_read_and_nested_hooks_use_the_innermost():
    x, _, _ = _inputs()
    log: list = []
    with G.saved_tensors_hooks(lambda t: log.append("outer") or t, lambda t: t):
        with G.saved_tensors_hooks(
            lambda t: log.append("inner") or t, lambda t: log.append("u") or t
        ):
            a = x.sin()
        b = x.cos()
    assert log == ["inner", "outer"]
    log.clear()
    a.sum().backward(retain_graph=True)
    a.sum().backward(retain_graph=True)
    saved = a.grad_fn._saved_self
    assert log == ["u", "u", "u"]
    assert (
        saved is not x
        and saved.requires_grad
        and np.array_equal(saved.detach().numpy(), x.detach().numpy())
    )
    b.sum().backward()
    assert not modes.active()


def test_unpack_must_give_a_tensor_and_pack_errors_propagate():
    x, _, _ = _inputs()
    with G.saved_tensors_hooks(lambda t: t, lambda t: "no"):
        y = x.sin()
    with pytest.raises(
        TypeError, match="unpack_hook expected to be a Tensor but got result of type str"
    ):
        y.sum().backward()

    def bad(t):
        raise ValueError("boom")

    with G.saved_tensors_hooks(bad, lambda t: t):
        with pytest.raises(ValueError, match="boom"):
            x.exp()
        z = x * 2  # saves nothing that needs packing: fine
    assert z.grad_fn.name() == "MulBackward0"


def test_version_check_is_skipped_for_packed_values_only():
    x, _, _ = _inputs()
    u = x * 1
    with G.saved_tensors_hooks(lambda t: t, lambda t: t):
        v = u * u
    u.add_(1)
    v.sum().backward()  # PyTorch checks no version of a packed value
    assert x.grad.tolist() == [4.0, 6.0, 8.0]  # 2 * (x + 1): the unpacked tensor is u now
    u = x * 1
    v = u * u
    u.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        v.sum().backward()


def test_disable_saved_tensors_hooks_messages():
    with G.disable_saved_tensors_hooks("off here"):
        with pytest.raises(RuntimeError, match="^off here$"):
            G.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
    with G.saved_tensors_hooks(lambda t: t, lambda t: t):
        with pytest.raises(RuntimeError, match="^m3$"):
            G.disable_saved_tensors_hooks("m3").__enter__()
    with G.saved_tensors_hooks(lambda t: t, lambda t: t):
        pass
    assert not modes.active()


def test_raw_saved_register_hooks():
    x, _, _ = _inputs()
    y = x.pow(2)
    raw = y.grad_fn._raw_saved_self
    assert type(raw).__name__ == "SavedTensor" and "torch._C._autograd.SavedTensor" in repr(raw)
    got: list = []
    raw.register_hooks(lambda t: got.append(t.requires_grad) or t * 2, lambda t: t)
    assert got == [False]  # PyTorch packs the data here
    y.sum().backward()
    assert x.grad.tolist() == [4.0, 8.0, 12.0]  # 2 * (2x)
    with pytest.raises(RuntimeError, match="Calling register_hooks on a saved tensor after it has"):
        raw.register_hooks(lambda t: t, lambda t: t)
    raw = x.sin().grad_fn._raw_saved_self
    raw.register_hooks(lambda t: t, lambda t: t)
    with pytest.raises(RuntimeError, match="whose hooks have already been set"):
        raw.register_hooks(lambda t: t, lambda t: t)
    with pytest.raises(AttributeError, match="_raw_saved_other"):
        getattr(x.sin().grad_fn, "_raw_saved_other")  # noqa: B009
    e = x.exp()
    assert e.grad_fn._saved_result is not e  # as PyTorch 2.13
    assert e.grad_fn._saved_result.grad_fn is e.grad_fn


def test_node_is_the_base_of_every_grad_fn():
    x, _, _ = _inputs()
    y = (x * 2).sum()
    assert isinstance(y.grad_fn, G.Node)
    assert isinstance(y.grad_fn.next_functions[0][0].next_functions[0][0], G.Node)
    assert not isinstance(x, G.Node) and not issubclass(int, G.Node)
    with pytest.raises(TypeError, match="Can't instantiate abstract class Node"):
        G.Node()
    assert repr(G.Node) == "<class 'torch.autograd.graph.Node'>"


def test_multi_grad_hook_all_and_any():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    c = torch.tensor([5.0, 6.0], requires_grad=True)
    calls: list = []
    h = G.register_multi_grad_hook(
        (a, b, c), lambda gs: calls.append([None if g is None else g.tolist() for g in gs])
    )
    (a * b).sum().backward()
    (a * b * c).sum().backward()
    h.remove()
    (a * b).sum().backward()
    assert calls == [[[3.0, 4.0], [1.0, 2.0], None], [[15.0, 24.0], [5.0, 12.0], [3.0, 8.0]]]
    firsts: list = []
    h = G.register_multi_grad_hook((a, b), lambda g: firsts.append(g.tolist()), mode="any")
    (a * b).sum().backward()
    (b * 3).sum().backward()
    h.remove()
    assert firsts == [[3.0, 4.0], [3.0, 3.0]]
    with pytest.raises(ValueError, match=r"Expects mode to be one of \('all', 'any'\) but got x"):
        G.register_multi_grad_hook((a,), print, mode="x")


def test_gradient_edges_as_inputs():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = a * 2
    edge = G.get_gradient_edge(y)
    assert edge.node is y.grad_fn and edge.output_nr == 0 and edge.ownership_token is None
    z = y.exp().sum()
    (g,) = torch.autograd.grad(z, edge, retain_graph=True)
    assert np.allclose(g.numpy(), np.exp([2.0, 4.0]))
    ga, gy = torch.autograd.grad(z, [G.get_gradient_edge(a), y])
    assert np.allclose(ga.numpy(), 2 * gy.numpy())
    out = (a * a).sum()
    out.backward(inputs=[G.get_gradient_edge(a)])
    assert a.grad.tolist() == [2.0, 4.0]
    with pytest.raises(RuntimeError, match="not possible to get the gradient edge"):
        G.get_gradient_edge(torch.tensor([1.0]))
    with pytest.raises(
        RuntimeError, match="all inputs have to be Tensors or GradientEdges, but got int"
    ):
        torch.autograd.grad(a.sum(), [1])


def test_allow_mutation_on_saved_tensors():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with G.allow_mutation_on_saved_tensors():
        w = x * 1
        s = w.sin()
        w.mul_(2)
        s.sum().backward()
        assert np.allclose(x.grad.numpy(), np.cos([1.0, 2.0, 3.0]))
        assert w.tolist() == [2.0, 4.0, 6.0]
        with pytest.raises(RuntimeError, match="cannot be nested"):
            G.allow_mutation_on_saved_tensors().__enter__()
        kept = x * 1
        later = kept.sin()
    assert not modes.active()
    with pytest.raises(
        AssertionError, match="outside of the 'allow_mutation_on_saved_tensors' con"
    ):
        later.sum().backward()
    w = x * 1
    s = w.sin()
    w.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        s.sum().backward()


def test_custom_function_saves_go_through_the_hooks():
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensors
            return g * b, g * a

    x, y, _ = _inputs()
    log: list = []
    with G.saved_tensors_hooks(
        lambda t: log.append("pack") or ("p", t), lambda p: log.append("unpack") or p[1]
    ):
        z = F.apply(x, y)
    assert log == ["pack", "pack"]
    z.sum().backward()
    assert log == ["pack", "pack", "unpack", "unpack"]
    assert x.grad.tolist() == y.detach().tolist()


# -- through scripts --------------------------------------------------------------------------


def test_scripts_reach_the_module_and_hooks_get_tensors():
    out = run(
        "import torch\n"
        "from torch.autograd.graph import saved_tensors_hooks, Node\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "kinds = []\n"
        "def pack(t):\n"
        "    kinds.append(type(t).__name__)\n"
        "    return {'t': t}\n"
        "def unpack(p):\n"
        "    kinds.append(type(p).__name__)\n"
        "    return p['t']\n"
        "with saved_tensors_hooks(pack, unpack):\n"
        "    y = x.exp() * x\n"
        "y.sum().backward()\n"
        "print(kinds, x.grad, isinstance(y.grad_fn, Node))\n"
        "print(y.grad_fn.next_functions[0][0]._raw_saved_result)\n"
    )
    assert out.startswith(
        "['Tensor', 'Tensor', 'Tensor', 'dict', 'dict', 'dict'] tensor([ 5.4366, 22.1672]) True"
    )
    assert "<torch._C._autograd.SavedTensor object at 0x" in out


def test_scripts_cannot_reach_the_internals():
    assert "private" in str(
        error_of(
            "import torch\n"
            "x = torch.tensor([1.0], requires_grad=True)\n"
            "r = x.exp().grad_fn._raw_saved_result\n"
            "r._node\n"
        )
    )
    err = error_of(
        "import torch\n"
        "from torch.autograd.graph import allow_mutation_on_saved_tensors\n"
        "with allow_mutation_on_saved_tensors() as ctx:\n"
        "    ctx._saved\n"
    )
    assert "private" in str(err)


def test_autodiff_run_in_a_locked_down_child(tmp_path):
    path = tmp_path / "g.py"
    path.write_text(
        "import torch\n"
        "from torch.autograd.graph import save_on_cpu, register_multi_grad_hook, get_gradient_edge\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "h = register_multi_grad_hook((x,), lambda gs: print('all', gs[0]))\n"
        "with save_on_cpu():\n"
        "    y = (x * x).sum()\n"
        "print(torch.autograd.grad(y, get_gradient_edge(x)))\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "all tensor([2., 4.])\n(tensor([2., 4.]),)\n"
