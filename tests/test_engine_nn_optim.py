"""`torch.nn` modules, `torch.nn.init`, `torch.optim` and custom `autograd.Function`s.

The optimizer tests check every variant against an independent float64 reference written from the
update rules in PyTorch's documentation; the tests at the end compare against PyTorch itself
(float32, within float rounding) and are skipped when torch is absent.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from cli_runner import autodiff

import autodiff_cli.engine as E
from autodiff_cli.engine.core.graph import accumulator

nn = E.nn


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(2, 3)
        self.body = nn.Sequential(nn.Linear(3, 3), nn.Tanh())
        self.scale = nn.Parameter(E.tensor(2.0))
        self.register_buffer("running", E.zeros(3))

    def forward(self, x: E.Tensor) -> E.Tensor:
        return self.body(self.fc(x)) * self.scale + self.running


# -- modules --------------------------------------------------------------------------------------


def test_registration_and_traversal_order() -> None:
    net = Net()
    assert [n for n, _ in net.named_modules()] == ["", "fc", "body", "body.0", "body.1"]
    assert [n for n, _ in net.named_parameters()] == [
        "scale", "fc.weight", "fc.bias", "body.0.weight", "body.0.bias",
    ]  # fmt: skip
    assert list(net.state_dict()) == [
        "scale", "running", "fc.weight", "fc.bias", "body.0.weight", "body.0.bias",
    ]  # fmt: skip
    assert [type(m).__name__ for m in net.children()] == ["Linear", "Sequential"]
    shared = nn.Sequential(net.fc, net.fc)
    assert len(list(shared.parameters())) == 2


def test_assignment_rules() -> None:
    net = Net()
    with pytest.raises(TypeError, match="cannot assign 'torch.FloatTensor' as parameter 'scale'"):
        net.scale = E.tensor(1.0)
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'nope'"):
        net.nope  # noqa: B018
    net.fc = None
    assert "fc.weight" not in dict(net.named_parameters())

    class Early(nn.Module):
        def __init__(self) -> None:
            self.w = nn.Parameter(E.ones(1))

    with pytest.raises(AttributeError, match="before Module.__init__"):
        Early()


def test_forward_train_eval_and_zero_grad() -> None:
    net = Net()
    out = net(E.ones(4, 2))
    assert out.shape == (4, 3)
    out.sum().backward()
    assert net.fc.weight.grad is not None
    net.zero_grad(set_to_none=False)
    assert net.fc.weight.grad.abs().sum().item() == 0
    net.zero_grad()
    assert net.fc.weight.grad is None
    assert net.eval() is net and not net.body[0].training
    assert net.train().body[1].training


def test_state_dict_round_trip_and_errors() -> None:
    a, b = Net(), Net()
    state = a.state_dict()
    assert not state["fc.weight"].requires_grad
    assert repr(b.load_state_dict(state)) == "<All keys matched successfully>"
    assert E.equal(b.fc.weight, a.fc.weight)
    assert b.fc.weight.requires_grad
    del state["fc.bias"]
    state["extra"] = E.zeros(1)
    with pytest.raises(RuntimeError) as info:
        b.load_state_dict(state)
    assert str(info.value) == (
        'Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "fc.bias". '
        '\n\tUnexpected key(s) in state_dict: "extra". '
    )
    keys = b.load_state_dict(state, strict=False)
    assert keys.missing_keys == ["fc.bias"] and keys.unexpected_keys == ["extra"]
    state = a.state_dict()
    state["fc.weight"] = E.zeros(2, 2)
    with pytest.raises(RuntimeError, match=r"size mismatch for fc.weight: copying a param with "):
        b.load_state_dict(state)


def test_repr_nesting_and_containers() -> None:
    assert repr(Net()) == (
        "Net(\n  (fc): Linear(in_features=2, out_features=3, bias=True)\n  (body): Sequential(\n"
        "    (0): Linear(in_features=3, out_features=3, bias=True)\n    (1): Tanh()\n  )\n)"
    )
    assert repr(nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.Tanh()])) == (
        "ModuleList(\n  (0-1): 2 x ReLU()\n  (2): Tanh()\n)"
    )
    assert repr(nn.Softmax()) == "Softmax(dim=None)" and repr(nn.ReLU(True)) == "ReLU(inplace=True)"
    seq = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())
    assert len(seq) == 3 and isinstance(seq[-1], nn.Sigmoid)
    assert [type(m).__name__ for m in seq[1:]] == ["Tanh", "Sigmoid"]
    with pytest.raises(IndexError, match="index 3 is out of range"):
        seq[3]
    assert repr(nn.Parameter(E.tensor([1.0]))).startswith("Parameter containing:\ntensor([1.]")


def test_linear_init_is_seeded_and_bounded() -> None:
    E.manual_seed(7)
    first = nn.Linear(9, 4)
    E.manual_seed(7)
    second = nn.Linear(9, 4)
    assert E.equal(first.weight, second.weight) and E.equal(first.bias, second.bias)
    assert first.weight.abs().max().item() <= 1 / 3 and first.bias.abs().max().item() <= 1 / 3
    assert not E.equal(first.weight, nn.Linear(9, 4).weight)


def test_init_functions() -> None:
    w = E.empty(30, 20)
    assert nn.init.constant_(w, 0.5) is w and w.sum().item() == 300
    nn.init.xavier_uniform_(w)
    assert w.abs().max().item() <= math.sqrt(6 / 50)
    nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
    assert abs(w.std().item() - math.sqrt(2 / 30)) < 0.03
    assert nn.init.calculate_gain("leaky_relu", 0.2) == math.sqrt(2 / 1.04)
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        nn.init.xavier_normal_(E.empty(3))


# PyTorch's home of each class (`type(x)` prints it): the layers by kind under torch.nn.modules,
# each optimizer in its own module, the schedulers in lr_scheduler.
PYTORCH_MODULES = {
    "Linear": "torch.nn.modules.linear", "LazyLinear": "torch.nn.modules.linear",
    "Identity": "torch.nn.modules.linear", "Conv2d": "torch.nn.modules.conv",
    "ConvTranspose1d": "torch.nn.modules.conv", "MaxPool2d": "torch.nn.modules.pooling",
    "AdaptiveAvgPool1d": "torch.nn.modules.pooling", "Upsample": "torch.nn.modules.upsampling",
    "Unflatten": "torch.nn.modules.flatten", "Fold": "torch.nn.modules.fold",
    "Embedding": "torch.nn.modules.sparse", "LayerNorm": "torch.nn.modules.normalization",
    "BatchNorm2d": "torch.nn.modules.batchnorm", "ReLU6": "torch.nn.modules.activation",
    "Threshold": "torch.nn.modules.activation", "Softmax": "torch.nn.modules.activation",
    "Dropout2d": "torch.nn.modules.dropout", "ModuleDict": "torch.nn.modules.container",
    "LSTM": "torch.nn.modules.rnn", "HuberLoss": "torch.nn.modules.loss",
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(PYTORCH_MODULES))
def test_layer_classes_name_their_pytorch_module(name: str) -> None:
    assert getattr(nn, name).__module__ == PYTORCH_MODULES[name]


def test_every_layer_optimizer_and_scheduler_names_a_pytorch_module() -> None:
    classes = [getattr(nn, n) for n in nn.__all__] + [getattr(E.optim, n) for n in E.optim.__all__]
    classes += [getattr(E.optim.lr_scheduler, n) for n in E.optim.lr_scheduler.__all__]
    classes = [c for c in classes if isinstance(c, type)]
    assert len(classes) > 90
    assert [c for c in classes if not c.__module__.startswith(("torch.nn.", "torch.optim."))] == []
    optimizers = {c.__name__: c.__module__ for c in (E.optim.AdamW, E.optim.RMSprop, E.optim.LBFGS)}
    assert optimizers == {
        "AdamW": "torch.optim.adamw", "RMSprop": "torch.optim.rmsprop", "LBFGS": "torch.optim.lbfgs",
    }  # fmt: skip


def test_a_script_prints_the_pytorch_classes(tmp_path) -> None:
    script = tmp_path / "types.py"
    script.write_text(
        "import torch\n"
        "from torch import nn\n"
        "p = nn.Parameter(torch.ones(2))\n"
        "print(type(nn.Conv2d(1, 2, 3)), type(nn.MaxPool2d(2)), type(nn.Fold((4, 4), 2)))\n"
        "print(type(torch.optim.Adagrad([p])), type(nn.ReLU6()))\n"
    )
    result = autodiff("run", str(script))
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "<class 'torch.nn.modules.conv.Conv2d'> <class 'torch.nn.modules.pooling.MaxPool2d'> "
        "<class 'torch.nn.modules.fold.Fold'>\n"
        "<class 'torch.optim.adagrad.Adagrad'> <class 'torch.nn.modules.activation.ReLU6'>\n"
    )


# -- optimizers against a float64 reference -------------------------------------------------------


def reference_step(name: str, opts: dict, p: np.ndarray, g: np.ndarray, st: dict, t: int):
    """One update, written from the algorithms in PyTorch's documentation."""
    lr = opts.get("lr", {"SGD": 1e-3, "Adam": 1e-3, "AdamW": 1e-3, "RMSprop": 1e-2}[name])
    wd = opts.get("weight_decay", 1e-2 if name == "AdamW" else 0.0)
    g = -g if opts.get("maximize") else g
    if name == "SGD":
        g = g + wd * p
        mom = opts.get("momentum", 0.0)
        if mom:
            damp = opts.get("dampening", 0.0)
            st["b"] = g.copy() if t == 1 else mom * st["b"] + (1 - damp) * g
            g = g + mom * st["b"] if opts.get("nesterov") else st["b"]
        return p - lr * g
    if name in ("Adam", "AdamW"):
        b1, b2 = opts.get("betas", (0.9, 0.999))
        eps = opts.get("eps", 1e-8)
        if name == "AdamW":
            p = p * (1 - lr * wd)
        else:
            g = g + wd * p
        st["m"] = b1 * st.get("m", 0) + (1 - b1) * g
        st["v"] = b2 * st.get("v", 0) + (1 - b2) * g * g
        v = st["v"]
        if opts.get("amsgrad"):
            v = st["vmax"] = np.maximum(st.get("vmax", 0), v)
        denom = np.sqrt(v) / math.sqrt(1 - b2**t) + eps
        return p - lr / (1 - b1**t) * st["m"] / denom
    alpha, eps, mom = opts.get("alpha", 0.99), opts.get("eps", 1e-8), opts.get("momentum", 0)
    g = g + wd * p
    st["v"] = alpha * st.get("v", 0) + (1 - alpha) * g * g
    v = st["v"]
    if opts.get("centered"):
        st["gm"] = alpha * st.get("gm", 0) + (1 - alpha) * g
        v = v - st["gm"] ** 2
    step = g / (np.sqrt(v) + eps)
    if mom:
        st["b"] = mom * st.get("b", 0) + step
        step = st["b"]
    return p - lr * step


OPTIMIZER_CASES = [
    ("SGD", {"lr": 0.1}),
    ("SGD", {"lr": 0.05, "momentum": 0.9, "dampening": 0.2, "weight_decay": 0.1}),
    ("SGD", {"lr": 0.05, "momentum": 0.8, "nesterov": True, "maximize": True}),
    ("Adam", {}),
    ("Adam", {"lr": 0.05, "betas": (0.8, 0.9), "weight_decay": 0.3, "amsgrad": True}),
    ("AdamW", {"lr": 0.05, "weight_decay": 0.5, "eps": 1e-3}),
    ("RMSprop", {}),
    ("RMSprop", {"lr": 0.01, "momentum": 0.9, "centered": True, "weight_decay": 0.1}),
    ("RMSprop", {"lr": 0.01, "alpha": 0.9, "maximize": True}),
]


def gradients(steps: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(3)
    return rng.standard_normal((steps, n)) * rng.choice([1e-2, 1.0, 20.0], (steps, n))


@pytest.mark.parametrize(("name", "opts"), OPTIMIZER_CASES)
def test_optimizer_matches_reference(name: str, opts: dict) -> None:
    start = np.linspace(-1.5, 2.0, 7)
    grads = gradients(8, 7)
    param = nn.Parameter(E.tensor(start.tolist(), dtype=E.float64))
    opt = getattr(E.optim, name)([param], **opts)
    expected, state = start.copy(), {}
    for t, g in enumerate(grads, 1):
        param.grad = E.tensor(g.tolist(), dtype=E.float64)
        opt.step()
        expected = reference_step(name, opts, expected, g, state, t)
        np.testing.assert_allclose(param.detach().numpy(), expected, rtol=1e-9, atol=1e-12)


def test_optimizer_groups_state_and_errors() -> None:
    a, b = nn.Parameter(E.ones(2)), nn.Parameter(E.ones(1))
    opt = E.optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5}], lr=0.1, momentum=0.9)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    assert list(opt.param_groups[0]) == [
        "params", "lr", "momentum", "dampening", "weight_decay", "nesterov", "maximize",
        "foreach", "differentiable", "fused",
    ]  # fmt: skip
    (a.sum() + 3 * b.sum()).backward()
    opt.step()
    assert a.tolist() == pytest.approx([0.9, 0.9]) and b.tolist() == pytest.approx([-0.5])
    assert opt.state[b]["momentum_buffer"].tolist() == [3.0]
    assert opt.state_dict()["param_groups"][1]["params"] == [1]
    opt.zero_grad()
    assert a.grad is None
    assert repr(opt).startswith("SGD (\nParameter Group 0\n    dampening: 0\n")
    with pytest.raises(ValueError, match="Nesterov momentum requires a momentum"):
        E.optim.SGD([a], lr=0.1, nesterov=True)
    with pytest.raises(ValueError, match="Invalid beta parameter at index 1: 1.0"):
        E.optim.Adam([a], betas=(0.9, 1.0))
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        E.optim.Adam([a * 2])
    with pytest.raises(ValueError, match="empty parameter list"):
        E.optim.RMSprop([])


# -- custom autograd.Function ---------------------------------------------------------------------


class Cube(E.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.save_for_backward(x)
        ctx.k = k
        return k * x**3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * ctx.k * x**2, None


def test_function_gradients_and_node() -> None:
    x = E.tensor([0.5, -1.0, 2.0], dtype=E.float64, requires_grad=True)
    y = Cube.apply(x, 2.0)
    assert type(y.grad_fn).__name__ == "CubeBackward" and y.grad_fn.k == 2.0
    assert y.grad_fn.needs_input_grad == (True, False)
    assert y.grad_fn.next_functions[0][0] is accumulator(x)
    (g,) = E.autograd.grad(y.sum(), x, create_graph=True)
    assert g.tolist() == pytest.approx([6 * v * v for v in (0.5, -1.0, 2.0)])
    (gg,) = E.autograd.grad(g.sum(), x)
    assert gg.tolist() == pytest.approx([12 * v for v in (0.5, -1.0, 2.0)])
    assert E.autograd.gradcheck(lambda t: Cube.apply(t, 1.5), (x,))
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.sum().backward()
        y.sum().backward()


def test_function_checks_what_backward_returns() -> None:
    def function(backward):
        return type("Custom", (E.autograd.Function,), {
            "forward": staticmethod(lambda ctx, a, k: a * k),
            "backward": staticmethod(backward),
        })  # fmt: skip

    x = E.tensor([1.0, 2.0], requires_grad=True)
    cases = [
        (lambda ctx, g: g, r"returned an incorrect number of gradients \(expected 2, got 1\)"),
        (lambda ctx, g: (g, g), "gradient different than None at position 2"),
        (lambda ctx, g: (E.ones(3), None), r"got \[3\] but expected shape compatible with \[2\]"),
    ]
    for backward, message in cases:
        with pytest.raises(RuntimeError, match=message):
            function(backward).apply(x, 2.0).sum().backward()
    function(lambda ctx, g: (g.expand(4, 2), None, None)).apply(x, 2.0).sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]


def test_function_outputs_and_setup_context() -> None:
    class Split(E.autograd.Function):
        @staticmethod
        def forward(a):
            return a * 2, a.argmax()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.mark_non_differentiable(output[1])

        @staticmethod
        def backward(ctx, g_values, g_index):
            assert g_index.tolist() == 0
            return g_values * 2

    x = E.tensor([1.0, 3.0], requires_grad=True)
    values, index = Split.apply(x)
    assert not index.requires_grad and values.grad_fn.name() == "SplitBackward"
    values.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    with E.no_grad():
        assert Split.apply(x)[0].grad_fn is None


# -- against PyTorch ------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "opts"), OPTIMIZER_CASES)
def test_optimizer_float32_matches_torch(name: str, opts: dict) -> None:
    torch = pytest.importorskip("torch")
    start = np.linspace(-1.5, 2.0, 37, dtype=np.float32)
    grads = gradients(10, 37).astype(np.float32)
    results = []
    for lib in (torch, E):
        param = lib.nn.Parameter(lib.tensor(start.tolist()))
        opt = getattr(lib.optim, name)([param], **opts)
        for g in grads:
            param.grad = lib.tensor(g.tolist())
            opt.step()
        results.append(np.array(param.detach().tolist(), np.float32))
    np.testing.assert_allclose(results[1], results[0], rtol=1e-5, atol=1e-6)


# -- the other optimizers, against float64 references from PyTorch's documented algorithms ------


def other_reference(name: str, opts: dict, p: np.ndarray, g: np.ndarray, st: dict, t: int):
    """One update of ASGD, Adadelta, Adamax, NAdam, RAdam or Rprop, written from the algorithm
    boxes of PyTorch's documentation (float64 throughout)."""
    g = -g if opts.get("maximize") else g
    wd = opts.get("weight_decay", 0.0)
    if name == "Adadelta":
        lr, rho, eps = opts.get("lr", 1.0), opts.get("rho", 0.9), opts.get("eps", 1e-6)
        g = g + wd * p
        st["v"] = st.get("v", 0) * rho + g * g * (1 - rho)
        delta = np.sqrt(st.get("u", 0) + eps) / np.sqrt(st["v"] + eps) * g
        st["u"] = st.get("u", 0) * rho + delta * delta * (1 - rho)
        return p - lr * delta
    if name == "Adamax":
        lr, (b1, b2), eps = opts.get("lr", 2e-3), opts.get("betas", (0.9, 0.999)), 1e-8
        g = g + wd * p
        st["m"] = b1 * st.get("m", 0) + (1 - b1) * g
        st["u"] = np.maximum(b2 * st.get("u", 0), np.abs(g) + eps)
        return p - lr / (1 - b1**t) * st["m"] / st["u"]
    if name in ("NAdam", "RAdam"):
        lr = opts.get("lr", 2e-3 if name == "NAdam" else 1e-3)
        (b1, b2), eps = opts.get("betas", (0.9, 0.999)), 1e-8
        if opts.get("decoupled_weight_decay"):
            p = p * (1 - lr * wd)
        else:
            g = g + wd * p
        st["m"] = b1 * st.get("m", 0) + (1 - b1) * g
        st["v"] = b2 * st.get("v", 0) + (1 - b2) * g * g
        if name == "NAdam":
            psi = opts.get("momentum_decay", 4e-3)
            mu = b1 * (1 - 0.5 * 0.96 ** (t * psi))
            mu_next = b1 * (1 - 0.5 * 0.96 ** ((t + 1) * psi))
            # (PyTorch keeps the product in a float32 tensor, the default dtype's, whatever the
            # parameter's dtype: so does the reference)
            st["prod"] = float(np.float32(st.get("prod", 1.0)) * np.float32(mu))
            denom = np.sqrt(st["v"] / (1 - b2**t)) + eps
            step = mu_next * st["m"] / (1 - st["prod"] * mu_next) + (1 - mu) * g / (1 - st["prod"])
            return p - lr * step / denom
        m_hat = st["m"] / (1 - b1**t)
        rho_inf = 2 / (1 - b2) - 1
        rho_t = rho_inf - 2 * t * b2**t / (1 - b2**t)
        if rho_t <= 5:
            return p - lr * m_hat
        rect = math.sqrt(
            (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
        )
        adaptive = math.sqrt(1 - b2**t) / (np.sqrt(st["v"]) + eps)
        return p - lr * m_hat * adaptive * rect
    if name == "Rprop":
        lr, (eta_minus, eta_plus) = opts.get("lr", 1e-2), opts.get("etas", (0.5, 1.2))
        low, high = opts.get("step_sizes", (1e-6, 50))
        prev, size = st.get("prev", np.zeros_like(p)), st.get("size", np.full_like(p, lr))
        product = g * prev
        factor = np.where(product > 0, eta_plus, np.where(product < 0, eta_minus, 1.0))
        size = np.clip(size * factor, low, high)
        g = np.where(product < 0, 0.0, g)
        st["prev"], st["size"] = g, size
        return p - np.sign(g) * size
    lr, lambd, alpha, t0 = opts.get("lr", 1e-2), opts.get("lambd", 1e-4), 0.75, opts.get("t0", 1e6)
    eta, mu = st.get("eta", float(np.float32(lr))), st.get("mu", 1.0)  # (float32 tensors)
    g = g + wd * p
    p = p * (1 - lambd * eta) - eta * g
    st["ax"] = p.copy() if mu == 1 else st["ax"] + (p - st["ax"]) * mu
    st["eta"] = float(np.float32(lr / (1 + lambd * lr * t) ** alpha))
    st["mu"] = float(np.float32(1 / max(1, t - t0)))
    return p


OTHER_CASES = [
    ("Adadelta", {}),
    ("Adadelta", {"lr": 0.5, "rho": 0.8, "weight_decay": 0.1, "maximize": True}),
    ("Adamax", {}),
    ("Adamax", {"lr": 0.05, "betas": (0.8, 0.9), "weight_decay": 0.2}),
    ("NAdam", {}),
    ("NAdam", {"lr": 0.05, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("NAdam", {"lr": 0.05, "momentum_decay": 0.01, "weight_decay": 0.1}),
    ("RAdam", {}),
    ("RAdam", {"lr": 0.05, "betas": (0.5, 0.7), "weight_decay": 0.1}),
    ("RAdam", {"lr": 0.05, "weight_decay": 0.1, "decoupled_weight_decay": True}),
    ("Rprop", {}),
    ("Rprop", {"lr": 0.1, "etas": (0.3, 1.5), "step_sizes": (1e-3, 0.2), "maximize": True}),
    ("ASGD", {}),
    ("ASGD", {"lr": 0.05, "t0": 3, "weight_decay": 0.1}),
]


@pytest.mark.parametrize(("name", "opts"), OTHER_CASES)
def test_other_optimizers_match_reference(name: str, opts: dict) -> None:
    start = np.linspace(-1.5, 2.0, 7)
    grads = gradients(12, 7)
    grads[3] = -grads[2]  # a sign change everywhere (Rprop's backtracking)
    param = nn.Parameter(E.tensor(start.tolist(), dtype=E.float64))
    opt = getattr(E.optim, name)([param], **opts)
    expected, state = start.copy(), {}
    for t, g in enumerate(grads, 1):
        param.grad = E.tensor(g.tolist(), dtype=E.float64)
        opt.step()
        expected = other_reference(name, opts, expected, g, state, t)
        np.testing.assert_allclose(param.detach().numpy(), expected, rtol=1e-9, atol=1e-12)
    if name == "ASGD":
        np.testing.assert_allclose(opt.state[param]["ax"].numpy(), state["ax"], rtol=1e-9)


def test_lbfgs_solves_least_squares_and_keeps_its_state() -> None:
    """On a convex quadratic L-BFGS reaches the least-squares solution; its state holds the
    curvature pairs; a closure is required; one parameter group only."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((20, 3))
    b = rng.standard_normal(20)
    x = nn.Parameter(E.zeros(3, dtype=E.float64))
    A, B = E.tensor(a.tolist(), dtype=E.float64), E.tensor(b.tolist(), dtype=E.float64)  # noqa: N806
    for line_search in (None, "strong_wolfe"):
        with E.no_grad():
            x.zero_()
        opt = E.optim.LBFGS([x], history_size=4, line_search_fn=line_search)
        calls = []

        def closure(opt: E.optim.LBFGS = opt, calls: list = calls) -> E.Tensor:
            opt.zero_grad()
            loss = ((A @ x - B) ** 2).sum()
            loss.backward()
            calls.append(loss.item())
            return loss

        first = opt.step(closure)
        assert first.item() == calls[0]
        opt.step(closure)
        solution = np.linalg.lstsq(a, b, rcond=None)[0]
        np.testing.assert_allclose(x.detach().numpy(), solution, atol=1e-6)
        state = opt.state[x]
        assert state["func_evals"] == len(calls)
        assert len(state["old_dirs"]) <= 4
    with pytest.raises(TypeError):
        opt.step()
    with pytest.raises(ValueError, match="parameter groups"):
        E.optim.LBFGS([{"params": [x]}, {"params": [nn.Parameter(E.ones(1))]}])


@pytest.mark.parametrize(("name", "opts"), OTHER_CASES)
def test_other_optimizers_float32_match_torch(name: str, opts: dict) -> None:
    torch = pytest.importorskip("torch")
    start = np.linspace(-1.5, 2.0, 37, dtype=np.float32)
    grads = gradients(10, 37).astype(np.float32)
    results = []
    for lib in (torch, E):
        param = lib.nn.Parameter(lib.tensor(start.tolist()))
        opt = getattr(lib.optim, name)([param], **opts)
        for g in grads:
            param.grad = lib.tensor(g.tolist())
            opt.step()
        results.append(np.array(param.detach().tolist(), np.float32))
    np.testing.assert_allclose(results[1], results[0], rtol=1e-5, atol=1e-6)
