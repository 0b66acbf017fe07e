"""Convolution, pooling, interpolate and unfold/fold: values against direct (loop) definitions,
gradients and gradients of gradients against finite differences in float64 over many
geometries, and the messages of bad shapes as a user sees them (exit status 1)."""

from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pytest

import autodiff_cli.engine as torch
from autodiff_cli.engine import nn
from autodiff_cli.engine.autograd import gradcheck, gradgradcheck
from autodiff_cli.engine.nn import functional as F

RNG = np.random.default_rng(0)


def _t(*shape: int) -> torch.Tensor:
    return torch.tensor(RNG.standard_normal(shape), dtype=torch.float64, requires_grad=True)


def _direct_conv2d(x, w, b, stride, padding, dilation, groups):
    """Cross-correlation by its definition, one output element at a time."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    oh = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    og = o // groups
    for b_, oc, i, j in itertools.product(range(n), range(o), range(oh), range(ow)):
        g = oc // og
        for ci, p, q in itertools.product(range(cg), range(kh), range(kw)):
            out[b_, oc, i, j] += (
                xp[
                    b_,
                    g * cg + ci,
                    i * stride[0] + p * dilation[0],
                    j * stride[1] + q * dilation[1],
                ]
                * w[oc, ci, p, q]
            )
    return out + (0 if b is None else b.reshape(1, -1, 1, 1))


CONV_CASES = [
    dict(stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1),
    dict(stride=(2, 1), padding=(1, 0), dilation=(1, 1), groups=1),
    dict(stride=(1, 2), padding=(2, 1), dilation=(2, 1), groups=2),
    dict(stride=(3, 3), padding=(1, 1), dilation=(1, 2), groups=4),
]


@pytest.mark.parametrize("case", CONV_CASES)
def test_conv2d_values_match_the_definition(case):
    x, w, b = _t(2, 4, 7, 8), _t(8, 4 // case["groups"], 3, 2), _t(8)
    y = F.conv2d(x, w, b, **case)
    expected = _direct_conv2d(x._data, w._data, b._data, **case)
    np.testing.assert_allclose(y._data, expected, rtol=1e-12, atol=1e-12)
    assert type(y.grad_fn).__name__ == "ConvolutionBackward0"


@pytest.mark.parametrize("case", CONV_CASES)
@pytest.mark.parametrize("with_bias", [True, False])
def test_conv2d_gradients_and_second_derivatives(case, with_bias):
    x, w = _t(2, 4, 6, 5), _t(8, 4 // case["groups"], 2, 3)
    b = _t(8) if with_bias else None
    inputs = (x, w, b) if with_bias else (x, w)

    def f(*args):
        return F.conv2d(args[0], args[1], args[2] if with_bias else None, **case)

    assert gradcheck(f, inputs)
    assert gradgradcheck(f, inputs)


def test_conv_backward_nodes_under_create_graph():
    x, w = _t(1, 2, 5, 5), _t(3, 2, 3, 3)
    (gx,) = torch.autograd.grad(F.conv2d(x, w).pow(2).sum(), x, create_graph=True)
    assert type(gx.grad_fn).__name__ == "ConvolutionBackwardBackward0"


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"stride": 2, "padding": 1, "output_padding": 1}, {"stride": 2, "dilation": 2},
     {"stride": (1, 2), "groups": 2}],
)  # fmt: skip
def test_conv_transpose2d_is_the_adjoint_of_conv2d(kwargs):
    groups = kwargs.get("groups", 1)
    x, w, b = _t(2, 4, 4, 5), _t(4, 6 // groups, 3, 2), _t(6)
    y = F.conv_transpose2d(x, w, b, **kwargs)
    # <conv_transpose(x, w), u> == <x, conv(u, w)> for any u of y's shape (no bias)
    u = _t(*y.shape)
    plain = F.conv_transpose2d(x, w, None, **kwargs)
    conv_kwargs = {k: v for k, v in kwargs.items() if k != "output_padding"}
    back = F.conv2d(u, w, None, **conv_kwargs)
    np.testing.assert_allclose((plain * u).sum().item(), (x * back).sum().item(), rtol=1e-10)
    f = lambda x, w, b: F.conv_transpose2d(x, w, b, **kwargs)  # noqa: E731
    assert gradcheck(f, (x, w, b)) and gradgradcheck(f, (x, w, b))


def test_conv1d_same_padding_and_unbatched_input():
    x, w = _t(3, 9), _t(2, 3, 4)
    with pytest.warns(UserWarning):
        y = F.conv1d(x, w, padding="same")
    assert tuple(y.shape) == (2, 9) and type(y.grad_fn).__name__ == "SqueezeBackward1"
    # PyTorch puts the odd extra padding after: total 3 = 1 before, 2 after
    expected = F.conv1d(F.pad(x.unsqueeze(0), (1, 2)), w).squeeze(0)
    np.testing.assert_allclose(y._data, expected._data, rtol=1e-12)
    assert gradcheck(lambda x, w: F.conv1d(x, w, padding="same", dilation=2), (x, w))


def _direct_max_pool(x, k, s, p):
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), constant_values=-np.inf)
    oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    out = np.empty((n, c, oh, ow))
    for i, j in itertools.product(range(oh), range(ow)):
        out[:, :, i, j] = xp[:, :, i * s : i * s + k, j * s : j * s + k].max(axis=(2, 3))
    return out


@pytest.mark.parametrize("k,s,p", [(2, 2, 0), (3, 2, 1), (3, 1, 1), (2, 1, 0)])
def test_max_pool2d_values_indices_and_gradients(k, s, p):
    x = _t(2, 3, 7, 6)
    y, idx = F.max_pool2d(x, k, s, p, return_indices=True)
    np.testing.assert_array_equal(y._data, _direct_max_pool(x._data, k, s, p))
    flat = x._data.reshape(2, 3, -1)
    np.testing.assert_array_equal(
        np.take_along_axis(flat, idx._data.reshape(2, 3, -1), -1).reshape(y.shape), y._data
    )
    assert type(y.grad_fn).__name__ == "MaxPool2DWithIndicesBackward0"
    f = lambda x: F.max_pool2d(x, k, s, p)  # noqa: E731
    assert gradcheck(f, (x,)) and gradgradcheck(f, (x,))


def test_max_pool_ceil_mode_sizes_and_ties_take_the_first_maximum():
    x = torch.zeros(1, 1, 5, 5, requires_grad=True)
    y, idx = F.max_pool2d(x, 2, ceil_mode=True, return_indices=True)
    assert tuple(y.shape) == (1, 1, 3, 3)
    assert idx[0, 0].tolist() == [[0, 2, 4], [10, 12, 14], [20, 22, 24]]
    y.sum().backward()
    assert x.grad.sum().item() == 9.0


@pytest.mark.parametrize(
    "kwargs",
    [{"kernel_size": 2}, {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True},
     {"kernel_size": 3, "padding": 1, "count_include_pad": False, "stride": 1},
     {"kernel_size": (2, 3), "divisor_override": 5}],
)  # fmt: skip
def test_avg_pool2d_gradients(kwargs):
    x = _t(2, 2, 7, 6)
    f = lambda x: F.avg_pool2d(x, **kwargs)  # noqa: E731
    assert type(f(x).grad_fn).__name__ == "AvgPool2DBackward0"
    assert gradcheck(f, (x,)) and gradgradcheck(f, (x,))


def test_avg_pool_count_include_pad_divisors():
    x = torch.ones(1, 1, 3, 3)
    with_pad = F.avg_pool2d(x, 3, 1, 1)
    without = F.avg_pool2d(x, 3, 1, 1, count_include_pad=False)
    assert with_pad[0, 0, 0].tolist() == pytest.approx([4 / 9, 6 / 9, 4 / 9])
    assert without[0, 0].tolist() == [[1.0] * 3] * 3


@pytest.mark.parametrize("size", [(3, 4), (2, None), (5, 5), (7, 1)])
def test_adaptive_avg_pool2d_windows_and_gradients(size):
    x = _t(2, 3, 7, 6)
    y = F.adaptive_avg_pool2d(x, size)
    out = tuple(s if o is None else o for o, s in zip(size, (7, 6)))
    for i, j in itertools.product(range(out[0]), range(out[1])):
        h0, h1 = (i * 7) // out[0], -(-(i + 1) * 7 // out[0])
        w0, w1 = (j * 6) // out[1], -(-(j + 1) * 6 // out[1])
        expected = x._data[:, :, h0:h1, w0:w1].mean(axis=(2, 3))
        np.testing.assert_allclose(y._data[:, :, i, j], expected, rtol=1e-12)
    f = lambda x: F.adaptive_avg_pool2d(x, size)  # noqa: E731
    assert gradcheck(f, (x,)) and gradgradcheck(f, (x,))


def test_adaptive_avg_pool_to_one_is_a_mean():
    y = F.adaptive_avg_pool2d(_t(2, 3, 4, 4), 1)
    assert type(y.grad_fn).__name__ == "MeanBackward1" and tuple(y.shape) == (2, 3, 1, 1)


@pytest.mark.parametrize(
    "kwargs,grad_fn",
    [({"scale_factor": 2}, "UpsampleNearest2DBackward0"),
     ({"size": (5, 9)}, "UpsampleNearest2DBackward0"),
     ({"scale_factor": 2, "mode": "bilinear"}, "UpsampleBilinear2DBackward0"),
     ({"size": (4, 11), "mode": "bilinear", "align_corners": True}, "UpsampleBilinear2DBackward0"),
     ({"scale_factor": 1.7, "mode": "bilinear"}, "UpsampleBilinear2DBackward0"),
     ({"size": (3, 5), "mode": "nearest-exact"}, "UpsampleNearestExact2DBackward0")],
)  # fmt: skip
def test_interpolate_gradients(kwargs, grad_fn):
    x = _t(1, 2, 4, 5)
    f = lambda x: F.interpolate(x, **kwargs)  # noqa: E731
    assert type(f(x).grad_fn).__name__ == grad_fn
    assert gradcheck(f, (x,)) and gradgradcheck(f, (x,))


def test_bilinear_values_recorded_from_pytorch():
    x = torch.arange(6.0).reshape(1, 1, 2, 3)
    y = F.interpolate(x, scale_factor=2, mode="bilinear")
    assert y[0, 0, 1].tolist() == [0.75, 1.0, 1.5, 2.0, 2.5, 2.75]  # PyTorch 2.13
    z = F.interpolate(x, size=(3, 4), mode="bilinear", align_corners=True)
    assert z[0, 0, 1].tolist() == pytest.approx([1.5, 2.1666667, 2.8333333, 3.5])


def test_unfold_fold_round_trip_and_gradients():
    x = _t(2, 3, 6, 5)
    cols = F.unfold(x, (2, 3), padding=1, stride=(2, 1))
    assert type(cols.grad_fn).__name__ == "Im2ColBackward0"
    w = _t(4, 3, 2, 3)
    via_matmul = (w.reshape(4, -1) @ cols).reshape(2, 4, 4, 5)
    np.testing.assert_allclose(
        via_matmul._data, F.conv2d(x, w, padding=1, stride=(2, 1))._data, rtol=1e-12
    )
    back = F.fold(cols, (6, 5), (2, 3), padding=1, stride=(2, 1))
    assert type(back.grad_fn).__name__ == "Col2ImBackward0"
    f = lambda x: F.fold(F.unfold(x, 2, stride=1), (6, 5), 2)  # noqa: E731
    assert gradcheck(f, (x,)) and gradgradcheck(f, (x,))


def test_lenet_weights_follow_pytorchs_initialisation():
    torch.manual_seed(0)
    conv = nn.Conv2d(1, 6, 5)
    assert repr(conv) == "Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))"
    assert tuple(conv.weight.shape) == (6, 1, 5, 5) and tuple(conv.bias.shape) == (6,)
    # recorded from PyTorch 2.13 under torch.manual_seed(0)
    assert conv.weight[0, 0, 0].tolist() == pytest.approx(
        [-0.0015, 0.1073, -0.1646, -0.1472, -0.0770], abs=1e-4
    )


def test_module_reprs():
    assert repr(nn.MaxPool2d(3, 2, 1, ceil_mode=True)) == (
        "MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=True)"
    )
    assert repr(nn.ConvTranspose2d(3, 6, 3, stride=2, padding=1, output_padding=1)) == (
        "ConvTranspose2d(3, 6, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), "
        "output_padding=(1, 1))"
    )
    assert repr(nn.AvgPool1d(2)) == "AvgPool1d(kernel_size=(2,), stride=(2,), padding=(0,))"
    assert repr(nn.Unflatten(1, (2, 3))) == "Unflatten(dim=1, unflattened_size=(2, 3))"
    assert repr(nn.Conv2d(1, 6, 5, padding="same")) == (
        "Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1), padding=same)"
    )


@pytest.mark.parametrize(
    "code,message",
    [("nn.Conv2d(1, 6, 5)(torch.randn(2, 3, 28, 28))",
      "Given groups=1, weight of size [6, 1, 5, 5], expected input[2, 3, 28, 28] to have 1 "
      "channels, but got 3 channels instead"),
     ("F.conv2d(torch.randn(8, 8), torch.randn(4, 3, 3, 3))",
      "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [8, 8]"),
     ("F.max_pool2d(torch.randn(2, 3, 8, 8), 9)",
      "Given input size: (3x8x8). Calculated output size: (3x0x0). Output size is too small"),
     ("F.conv2d(torch.randn(1, 3, 8, 8), torch.randn(4, 3, 3, 3), stride=2, padding='same')",
      "padding='same' is not supported for strided convolutions")],
)  # fmt: skip
def test_bad_shapes_end_in_one_located_error(tmp_path, code, message):
    script = tmp_path / "bad.py"
    script.write_text(
        f"import torch\nfrom torch import nn\nimport torch.nn.functional as F\n{code}\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", str(script)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    assert message in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_the_one_liner_engine_does_not_load_convolution():
    code = (
        "import sys, autodiff_cli.engine\n"
        "print(any(m.endswith(('ops.convolution', 'ops.pooling')) for m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
