"""prelu, rrelu, hardshrink, softshrink, tanhshrink, softsign, softmin and torch.selu (functions,
Tensor methods, modules): values and gradients at the kinks, at ±0, ±inf and NaN, grad_fn names,
rrelu's random slopes under manual_seed, errors and reprs. Every literal was recorded from
PyTorch 2.13 (CPU), float32 unless said."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
from close_values import assert_close as _close

import autodiff_cli.engine as E

F = E.nn.functional
nn = E.nn
nan, inf = math.nan, math.inf

POINTS = [-1.0, -0.5, -0.3, 0.0, -0.0, 0.3, 0.5, 1.0, nan, inf, -inf]

RECORDED = {
    "hardshrink": (
        lambda t: F.hardshrink(t),
        "HardshrinkBackward0",
        [-1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, nan, inf, -inf],
        [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0],
    ),
    "softshrink": (
        lambda t: F.softshrink(t, 0.3),
        "SoftshrinkBackward0",
        [-0.699999988079071, -0.19999998807907104, -0.0, 0.0, -0.0, 0.0, 0.19999998807907104,
         0.699999988079071, nan, inf, -inf],
        [1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0],
    ),
    "tanhshrink": (
        F.tanhshrink,
        "SubBackward0",
        [-0.23840582370758057, -0.037882834672927856, -0.008687376976013184, 0.0, 0.0,
         0.008687376976013184, 0.037882834672927856, 0.23840582370758057, nan, inf, -inf],
        [0.5800256729125977, 0.2135522961616516, 0.08486306667327881, 0.0, 0.0,
         0.08486306667327881, 0.2135522961616516, 0.5800256729125977, nan, 1.0, 1.0],
    ),
    "softsign": (
        F.softsign,
        "DivBackward0",
        [-0.5, -0.3333333432674408, -0.23076924681663513, 0.0, -0.0, 0.23076924681663513,
         0.3333333432674408, 0.5, nan, nan, nan],
        [0.25, 0.444444477558136, 0.5917159914970398, 1.0, 1.0, 0.5917159914970398,
         0.444444477558136, 0.25, nan, nan, nan],
    ),
    "prelu": (
        lambda t: F.prelu(t, E.tensor([0.2])),
        "PreluKernelBackward0",
        [-0.20000000298023224, -0.10000000149011612, -0.06000000238418579, 0.0, -0.0,
         0.30000001192092896, 0.5, 1.0, nan, inf, -inf],
        [0.20000000298023224, 0.20000000298023224, 0.20000000298023224, 0.20000000298023224,
         0.20000000298023224, 1.0, 1.0, 1.0, 0.20000000298023224, 1.0, 0.20000000298023224],
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_values_and_gradients_at_special_points(name: str) -> None:
    fn, grad_fn, values, grads = RECORDED[name]
    x = E.tensor(POINTS, requires_grad=True)
    y = fn(x)
    assert y.grad_fn.name() == grad_fn
    y.sum().backward()
    _close(y.tolist(), values)
    _close(x.grad.tolist(), grads)
    signs = [math.copysign(1.0, v) for v in y.tolist() if not math.isnan(v)]
    assert signs == [math.copysign(1.0, v) for v in values if not math.isnan(v)]  # (-0.)


def test_composite_graphs_are_pytorchs() -> None:
    x = E.tensor([1.0, -2.0], requires_grad=True)
    softsign = F.softsign(x)
    add = softsign.grad_fn.next_functions[1][0]
    assert add.name() == "AddBackward0"
    assert add.next_functions[0][0].name() == "AbsBackward0"
    assert F.tanhshrink(x).grad_fn.next_functions[1][0].name() == "TanhBackward0"
    softmin = nn.Softmin(dim=0)(x)
    assert softmin.grad_fn.name() == "SoftmaxBackward0"
    assert softmin.grad_fn.next_functions[0][0].name() == "NegBackward0"


def test_second_order_nodes() -> None:
    x = E.tensor([-1.0, 0.2, 2.0], dtype=E.float64, requires_grad=True)
    for fn, name in (
        (lambda t: F.hardshrink(t, 0.5), "HardshrinkBackwardBackward0"),
        (lambda t: F.softshrink(t, 0.5), "SoftshrinkBackwardBackward0"),
        (lambda t: F.rrelu(t), "RreluWithNoiseBackwardBackward0"),
    ):
        (g,) = E.autograd.grad((fn(x) ** 2).sum(), x, create_graph=True)
        assert g.grad_fn.name() == name
    (g,) = E.autograd.grad((F.softshrink(x, 0.5) ** 2).sum(), x, create_graph=True)
    (gg,) = E.autograd.grad(g.sum(), x)
    assert gg.tolist() == [2.0, 0.0, 2.0]


def test_prelu_weight_is_viewed_per_channel() -> None:
    x = E.arange(-8.0, 8.0).reshape(1, 2, 2, 4)
    slopes = E.tensor([0.1, 0.5], requires_grad=True)
    y = E.prelu(x, slopes)
    view = y.grad_fn.next_functions[1][0]
    assert view.name() == "ViewBackward0"
    assert tuple(y.grad_fn._saved_weight.shape) == (1, 2, 1, 1)
    (y * y).sum().backward()
    _close(slopes.grad.tolist(), [40.80000305175781, 0.0])
    one_d = E.tensor([-1.0, 2.0]).prelu(E.tensor([0.3]))
    assert one_d.grad_fn is None and one_d.tolist() == pytest.approx([-0.3, 2.0])


def test_rrelu_draws_pytorchs_slopes() -> None:
    x = E.tensor([[-1.0, 2.0, -3.0], [0.0, -0.5, 4.0]], requires_grad=True)
    E.manual_seed(0)
    y = F.rrelu(x, training=True)
    _close(
        y.tolist(),
        [[-0.3270943760871887, 2.0, -0.8173874616622925], [0.0, -0.15841121971607208, 4.0]],
    )
    assert y.grad_fn.name() == "RreluWithNoiseBackward0"
    assert len(y.grad_fn.next_functions) == 1
    noise = y.grad_fn._saved_noise
    y.sum().backward()
    assert x.grad.tolist() == noise.tolist()
    assert (y.grad_fn._saved_lower, y.grad_fn._saved_training) == (0.125, True)
    _close(E.rand(1).tolist(), [0.455627977848053])  # four draws, one per element <= 0
    E.manual_seed(0)
    wide = F.rrelu(x.detach().double(), 0.1, 0.9, training=True)
    _close(
        wide.tolist(),
        [[-0.8760424014452425, 2.0, -1.998767674559491], [0.0, -0.4182990736487841, 4.0]],
    )


def test_rrelu_eval_and_in_place() -> None:
    x = E.tensor([-1.0, 2.0, -3.0], requires_grad=True)
    y = nn.RReLU(0.1, 0.3).eval()(x)
    _close(y.tolist(), [-0.20000000298023224, 2.0, -0.6000000238418579])
    y.sum().backward()
    _close(x.grad.tolist(), [0.20000000298023224, 1.0, 0.20000000298023224])
    w = x * 1
    out = E.rrelu_(w)
    assert out is w and w.grad_fn.name() == "RreluWithNoiseBackward1"
    z = x.detach().clone()
    assert F.rrelu(z, inplace=True) is z


def test_prelu_module_parameters() -> None:
    p = nn.PReLU()
    assert [name for name, _ in p.named_parameters()] == ["weight"]
    assert p.weight.tolist() == [0.25] and p.weight.dtype == E.float32
    assert (p.num_parameters, p.init) == (1, 0.25)
    per_channel = nn.PReLU(3, init=0.1, dtype=E.float64)
    assert per_channel.weight.dtype == E.float64 and per_channel.weight.shape == (3,)
    assert list(per_channel.state_dict()) == ["weight"]
    out = per_channel(E.ones(2, 3, dtype=E.float64) * -1)
    out.sum().backward()
    assert per_channel.weight.grad.tolist() == [-2.0, -2.0, -2.0]


def test_module_reprs() -> None:
    assert repr(nn.PReLU()) == "PReLU(num_parameters=1)"
    assert repr(nn.PReLU(3, 0.1)) == "PReLU(num_parameters=3)"
    assert repr(nn.RReLU()) == "RReLU(lower=0.125, upper=0.3333333333333333)"
    assert repr(nn.RReLU(0.1, 0.3, True)) == "RReLU(lower=0.1, upper=0.3, inplace=True)"
    assert repr(nn.Hardshrink()) == "Hardshrink(0.5)"
    assert repr(nn.Softshrink(0.3)) == "Softshrink(0.3)"
    assert repr(nn.Softsign()) == "Softsign()"
    assert repr(nn.Tanhshrink()) == "Tanhshrink()"
    assert repr(nn.Softmin(1)) == "Softmin(dim=1)"
    assert repr(nn.Softmin()) == "Softmin(dim=None)"
    assert not isinstance(nn.Softmin(1), nn.Softmax)


def test_torch_level_names() -> None:
    x = E.tensor([-1.0, 1.0])
    _close(E.selu(x).tolist(), [-1.1113307476043701, 1.0507010221481323])
    assert E.selu(x.requires_grad_()).grad_fn.name() == "EluBackward0"
    assert E.hardshrink(E.tensor([0.3, 1.0]), 0.5).tolist() == [0.0, 1.0]
    assert E.tensor([0.3, -1.0]).hardshrink().tolist() == [0.0, -1.0]
    assert not hasattr(E, "softshrink") and not hasattr(E.Tensor, "rrelu")


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [
        (lambda: F.softshrink(E.ones(2, dtype=E.float64), -0.5), RuntimeError,
         "lambda must be in range [0, 1.79769e+308] for input dtype Double, but found -0.5"),
        (lambda: F.softshrink(E.ones(2), 1e39), RuntimeError,
         "lambda must be in range [0, 3.40282e+38] for input dtype Float, but found 1e+39"),
        (lambda: F.softshrink(E.ones(2), nan), RuntimeError,
         "lambda must be in range [0, 3.40282e+38] for input dtype Float, but found nan"),
        (lambda: F.softshrink(E.arange(3)), NotImplementedError,
         "\"softshrink_check\" not implemented for 'Long'"),
        (lambda: F.hardshrink(E.arange(3)), NotImplementedError,
         "\"hardshrink_cpu\" not implemented for 'Long'"),
        (lambda: F.rrelu(E.arange(3), training=True), NotImplementedError,
         "\"rrelu_with_noise_out_cpu\" not implemented for 'Long'"),
        (lambda: F.rrelu(E.ones(2), 0.5, 0.1), RuntimeError,
         "Lower bound should be less than or equal to the upper bound"),
        (lambda: F.prelu(E.arange(3), E.tensor([1])), NotImplementedError,
         "\"prelu_cpu\" not implemented for 'Long'"),
        (lambda: F.prelu(E.ones(2, dtype=E.float64), E.tensor([0.1])), RuntimeError,
         "prelu: Type promoting not supported. Got Double and Float"),
        (lambda: F.prelu(E.ones(2), E.tensor([[0.1]])), RuntimeError,
         "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = 2"),
        (lambda: F.prelu(E.ones(5), E.tensor([0.1, 0.2])), RuntimeError,
         "Mismatch of parameter numbers and input channel size. Found parameter numbers = 2 and "
         "channel size = 1."),
        (lambda: F.prelu(E.tensor(2.0), E.tensor([0.1, 0.2])), RuntimeError,
         "Not allow zero-dim input tensor."),
        (lambda: F.prelu(E.ones(2), 0.1), TypeError,
         "prelu(): argument 'weight' (position 2) must be Tensor, not float"),
    ],
)  # fmt: skip
def test_errors(call, kind, message) -> None:
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == message


def test_dtypes_follow_the_input() -> None:
    assert F.softsign(E.tensor([1, 2])).dtype == E.float32  # (true division)
    x = E.tensor([-1.0, 0.7], dtype=E.float64)
    for fn in (F.hardshrink, F.softshrink, F.tanhshrink, lambda t: F.rrelu(t, training=True)):
        assert fn(x).dtype == E.float64
    assert np.asarray(F.prelu(x, E.tensor([0.5], dtype=E.float64))._data).dtype == np.float64


def test_a_script_using_them_runs_and_a_bad_call_is_a_located_error(tmp_path) -> None:
    ok = tmp_path / "ok.py"
    ok.write_text(
        "import torch\nimport torch.nn as nn\n"
        "m = nn.Sequential(nn.Linear(2, 3), nn.PReLU(3), nn.Softshrink(0.1), nn.Softmin(1))\n"
        "print(m)\nprint(m(torch.ones(1, 2)).sum().grad_fn)\n"
    )
    bad = tmp_path / "bad.py"
    bad.write_text("import torch\nimport torch.nn.functional as F\nF.prelu(torch.ones(2), 0.5)\n")
    run = [sys.executable, "-m", "autodiff_cli", "run"]
    done = subprocess.run([*run, str(ok)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "(1): PReLU(num_parameters=3)" in done.stdout
    assert "(2): Softshrink(0.1)" in done.stdout and "(3): Softmin(dim=1)" in done.stdout
    assert "<SumBackward0 object at" in done.stdout
    failed = subprocess.run([*run, str(bad)], capture_output=True, text=True, timeout=120)
    assert failed.returncode == 1
    assert "bad.py:3:1: error" in failed.stderr
    assert "TypeError: prelu(): argument 'weight' (position 2) must be Tensor, not float" in (
        failed.stderr
    )
    assert "Traceback" not in failed.stderr
