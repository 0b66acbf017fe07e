"""Group and instance normalisation, pixel/channel shuffles, the padding layers and adaptive max
pooling: values against numpy references, gradients of the compositions against finite
differences (float64), and the reprs, grad_fn chains and messages recorded from PyTorch 2.13.

The ops' own gradients (native_group_norm, pixel_shuffle, channel_shuffle, adaptive_max_pool2d
and its backward) are rows of engine_cases.py, checked by test_engine_gradients.py."""

from __future__ import annotations

import math

import numpy as np
import pytest
from cli_runner import autodiff

import autodiff_cli.engine as torch
from autodiff_cli.engine import nn
from autodiff_cli.engine.nn import functional as F

RNG = np.random.RandomState(7)
X = RNG.uniform(-2.0, 2.0, (2, 4, 3, 3))


def _t(array, grad=False):
    return torch.tensor(np.asarray(array).tolist(), dtype=torch.float64, requires_grad=grad)


def _chain(t):
    """The grad_fn names from `t` down its first edges."""
    names, fn = [], t.grad_fn
    while fn is not None:
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


def _finite_difference(f, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    out = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[k] += eps
        minus[k] -= eps
        out[k] = (f(plus) - f(minus)) / (2 * eps)
    return out


def _plane_norm(x: np.ndarray, groups: int, eps: float = 1e-5) -> np.ndarray:
    rows = x.reshape(x.shape[0], groups, -1)
    mean = rows.mean(-1, keepdims=True)
    var = rows.var(-1, keepdims=True)
    return ((rows - mean) / np.sqrt(var + eps)).reshape(x.shape)


# ---- reprs ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "module, text",
    [
        (lambda: nn.GroupNorm(2, 4), "GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)"),
        (lambda: nn.GroupNorm(2, 4, bias=False), "GroupNorm(2, 4, eps=1e-05, affine=True, bias=False)"),
        (lambda: nn.GroupNorm(1, 3, eps=1e-3, affine=False), "GroupNorm(1, 3, eps=0.001, affine=False, bias=False)"),
        (lambda: nn.InstanceNorm1d(4), "InstanceNorm1d(4, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)"),
        (lambda: nn.InstanceNorm2d(4, affine=True), "InstanceNorm2d(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=False)"),
        (lambda: nn.InstanceNorm2d(4, track_running_stats=True), "InstanceNorm2d(4, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=True)"),
        (lambda: nn.ZeroPad1d(2), "ZeroPad1d((2, 2))"),
        (lambda: nn.ZeroPad2d(1), "ZeroPad2d((1, 1, 1, 1))"),
        (lambda: nn.ZeroPad2d([1, 2, 3, 4]), "ZeroPad2d((1, 2, 3, 4))"),
        (lambda: nn.ConstantPad1d(2, 3.5), "ConstantPad1d(padding=(2, 2), value=3.5)"),
        (lambda: nn.ConstantPad2d(2, -1.0), "ConstantPad2d(padding=(2, 2, 2, 2), value=-1.0)"),
        (lambda: nn.ConstantPad3d(1, 2), "ConstantPad3d(padding=(1, 1, 1, 1, 1, 1), value=2)"),
        (lambda: nn.ReflectionPad1d([1, 2]), "ReflectionPad1d((1, 2))"),
        (lambda: nn.ReflectionPad2d(1), "ReflectionPad2d((1, 1, 1, 1))"),
        (lambda: nn.ReplicationPad1d((1, 2)), "ReplicationPad1d((1, 2))"),
        (lambda: nn.ReplicationPad2d(2), "ReplicationPad2d((2, 2, 2, 2))"),
        (lambda: nn.PixelShuffle(2), "PixelShuffle(upscale_factor=2)"),
        (lambda: nn.PixelUnshuffle(2), "PixelUnshuffle(downscale_factor=2)"),
        (lambda: nn.ChannelShuffle(2), "ChannelShuffle(groups=2)"),
        (lambda: nn.AdaptiveMaxPool1d(3), "AdaptiveMaxPool1d(output_size=3)"),
        (lambda: nn.AdaptiveMaxPool2d((2, None)), "AdaptiveMaxPool2d(output_size=(2, None))"),
    ],
)  # fmt: skip
def test_repr_is_pytorchs(module, text):
    assert repr(module()) == text


def test_classes_live_where_pytorch_puts_them():
    assert nn.GroupNorm.__module__ == "torch.nn.modules.normalization"
    assert nn.InstanceNorm2d.__module__ == "torch.nn.modules.instancenorm"
    assert nn.ZeroPad2d.__module__ == "torch.nn.modules.padding"
    assert nn.PixelShuffle.__module__ == "torch.nn.modules.pixelshuffle"
    assert nn.ChannelShuffle.__module__ == "torch.nn.modules.channelshuffle"
    assert nn.AdaptiveMaxPool2d.__module__ == "torch.nn.modules.pooling"


# ---- group norm ---------------------------------------------------------------------------------


def test_group_norm_normalises_each_group_then_scales_per_channel():
    w, b = np.array([1.5, -0.5, 2.0, 0.25]), np.array([0.1, 0.2, -0.3, 0.0])
    y = F.group_norm(_t(X), 2, _t(w), _t(b))
    expected = _plane_norm(X, 2) * w.reshape(1, 4, 1, 1) + b.reshape(1, 4, 1, 1)
    np.testing.assert_allclose(y._data, expected, rtol=1e-12, atol=1e-12)
    assert torch.group_norm(_t(X), 2)._data.shape == X.shape


def test_group_norm_module_grad_fn_edges_and_parameters():
    gn = nn.GroupNorm(2, 4)
    y = gn(_t(X, grad=True).float())
    assert type(y.grad_fn).__name__ == "NativeGroupNormBackward0"
    edges = [type(n).__name__ for n, _ in y.grad_fn.next_functions]
    assert edges == ["ToCopyBackward0", "AccumulateGrad", "AccumulateGrad"]
    assert [name for name, _ in gn.named_parameters()] == ["weight", "bias"]
    plain = nn.GroupNorm(2, 4, affine=False)(_t(X, grad=True))
    assert [n is None for n, _ in plain.grad_fn.next_functions] == [False, True, True]


def test_group_norm_of_a_constant_gradient_is_zero_up_to_rounding():
    """The terms of PyTorch's kernel cancel (to a few float32 ulps, as PyTorch's do)."""
    x = _t(X, grad=True).float().detach().requires_grad_()
    F.group_norm(x, 2).sum().backward()
    assert np.abs(x.grad._data).max() < 1e-6


def test_group_norm_second_derivative_in_the_input_matches_finite_differences():
    v = RNG.uniform(-1.0, 1.0, X.shape)

    def gradient_dot_v(a: np.ndarray) -> float:
        x = _t(a, grad=True)
        y = F.group_norm(x, 2)
        (g,) = torch.autograd.grad((y * y * y).sum(), x, create_graph=True)
        return float((g * _t(v)).sum().item())

    x = _t(X, grad=True)
    (g,) = torch.autograd.grad((F.group_norm(x, 2) ** 3).sum(), x, create_graph=True)
    (h,) = torch.autograd.grad((g * _t(v)).sum(), x)
    np.testing.assert_allclose(h._data, _finite_difference(gradient_dot_v, X), atol=1e-5)


@pytest.mark.parametrize(
    "call, kind, message",
    [
        (lambda: nn.GroupNorm(4, 6), ValueError, "num_channels (6) must be divisible by num_groups (4)"),
        (lambda: nn.GroupNorm(2, 4)(torch.randn(2, 6, 3, 3)), RuntimeError,
         "Expected weight to be a vector of size equal to the number of channels in input, but "
         "got weight of shape [4] and input of shape [2, 6, 3, 3]"),
        (lambda: F.group_norm(torch.randn(2, 6, 3, 3), 4), RuntimeError,
         "Expected number of channels in input to be divisible by num_groups, but got input of "
         "shape [2, 6, 3, 3] and num_groups=4"),
        (lambda: F.group_norm(torch.randn(6), 2), RuntimeError,
         "Expected at least 2 dimensions for input tensor but received 1"),
        (lambda: F.group_norm(torch.randn(1, 6, 1), 6), ValueError,
         "Expected more than 1 value per channel when training, got input size [1, 6, 1]"),
        (lambda: F.group_norm(torch.arange(12).view(2, 6), 3), NotImplementedError,
         "\"GroupNormKernelImpl\" not implemented for 'Long'"),
    ],
)  # fmt: skip
def test_group_norm_errors_are_pytorchs(call, kind, message):
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == message


# ---- instance norm --------------------------------------------------------------------------------


def test_instance_norm_normalises_each_plane_and_its_chain_is_pytorchs():
    w, b = np.array([1.5, -0.5, 2.0, 0.25]), np.array([0.1, 0.2, -0.3, 0.0])
    m = nn.InstanceNorm2d(4, affine=True)
    with torch.no_grad():
        m.weight.copy_(_t(w))
        m.bias.copy_(_t(b))
    y = m(_t(X, grad=True).float())
    expected = _plane_norm(X, 4) * w.reshape(1, 4, 1, 1) + b.reshape(1, 4, 1, 1)
    np.testing.assert_allclose(y._data, expected, rtol=1e-5, atol=1e-5)
    assert _chain(y)[:3] == ["ViewBackward0", "NativeBatchNormBackward0", "ViewBackward0"]
    edges = [type(n).__name__ for n, _ in y.grad_fn.next_functions[0][0].next_functions]
    assert edges == ["ViewBackward0", "RepeatBackward0", "RepeatBackward0"]


@pytest.mark.parametrize("affine", [False, True])
def test_instance_norm_gradients_match_finite_differences(affine):
    w = np.array([1.5, -0.5, 2.0, 0.25])
    probe = RNG.uniform(-1.0, 1.0, X.shape)

    def loss(a: np.ndarray, weight: np.ndarray = w) -> float:
        y = F.instance_norm(_t(a), weight=_t(weight) if affine else None)
        return float(((y * _t(probe)) ** 2).sum().item())

    x = _t(X, grad=True)
    weight = _t(w, grad=True) if affine else None
    ((F.instance_norm(x, weight=weight) * _t(probe)) ** 2).sum().backward()
    np.testing.assert_allclose(x.grad._data, _finite_difference(loss, X), atol=1e-5)
    if affine:
        expected = _finite_difference(lambda ww: loss(X, ww), w)
        np.testing.assert_allclose(weight.grad._data, expected, atol=1e-5)


def test_instance_norm_running_statistics_move_and_are_used_in_eval():
    m = nn.InstanceNorm2d(4, momentum=0.25, track_running_stats=True).double()
    m(_t(X))
    planes = X.reshape(2, 4, -1)
    mean = 0.25 * planes.mean(-1).mean(0)
    var = 0.75 + 0.25 * planes.var(-1, ddof=1).mean(0)
    np.testing.assert_allclose(m.running_mean._data, mean, rtol=1e-12)
    np.testing.assert_allclose(m.running_var._data, var, rtol=1e-12)
    assert m.num_batches_tracked.item() == 0  # (PyTorch's InstanceNorm does not count)
    m.eval()
    y = m(_t(X))
    expected = (X - mean.reshape(1, 4, 1, 1)) / np.sqrt(var.reshape(1, 4, 1, 1) + 1e-5)
    np.testing.assert_allclose(y._data, expected, rtol=1e-12)


def test_instance_norm_takes_an_unbatched_input():
    y = nn.InstanceNorm2d(4)(_t(X[0]))
    np.testing.assert_allclose(y._data, _plane_norm(X[:1], 4)[0], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "call, kind, message",
    [
        (lambda: nn.InstanceNorm2d(4, affine=True)(torch.randn(2, 6, 3, 3)), ValueError,
         "expected input's size at dim=1 to match num_features (4), but got: 6."),
        (lambda: nn.InstanceNorm2d(6)(torch.randn(3, 3)), ValueError,
         "expected 3D or 4D input (got 2D input)"),
        (lambda: nn.InstanceNorm1d(6)(torch.randn(2, 6, 3, 3)), ValueError,
         "expected 2D or 3D input (got 4D input)"),
        (lambda: nn.InstanceNorm1d(6)(torch.randn(2, 6, 1)), ValueError,
         "Expected more than 1 spatial element when training, got input size "
         "torch.Size([2, 6, 1])"),
        (lambda: F.instance_norm(torch.randn(2, 6, 3, 3), weight=torch.ones(4)), RuntimeError,
         "weight should contain 12 elements not 8"),
        (lambda: F.instance_norm(torch.randn(2, 6, 3, 3), torch.zeros(6)), ValueError,
         "running_mean and running_var must either both be None or neither be None"),
    ],
)  # fmt: skip
def test_instance_norm_errors_are_pytorchs(call, kind, message):
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == message


def test_instance_norm_warns_on_a_channel_count_it_does_not_use():
    with pytest.warns(UserWarning, match="input's size at dim=1 does not match num_features"):
        nn.InstanceNorm2d(4)(torch.randn(2, 6, 3, 3))


# ---- shuffles --------------------------------------------------------------------------------------


def test_pixel_shuffle_moves_channel_blocks_to_pixels_and_unshuffle_inverts_it():
    x = torch.arange(2 * 8 * 2 * 3, dtype=torch.float64).reshape(2, 8, 2, 3)
    y = nn.PixelShuffle(2)(x)
    a = x._data.reshape(2, 2, 2, 2, 2, 3).transpose(0, 1, 4, 2, 5, 3).reshape(2, 2, 4, 6)
    np.testing.assert_array_equal(y._data, a)
    assert torch.pixel_unshuffle(y, 2).equal(x)
    assert type(nn.PixelShuffle(2)(x.requires_grad_()).grad_fn).__name__ == "PixelShuffleBackward0"


def test_channel_shuffle_interleaves_the_groups():
    x = torch.arange(6.0).reshape(1, 6, 1)
    assert nn.ChannelShuffle(2)(x).reshape(-1).tolist() == [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    assert torch.channel_shuffle(x, 3).reshape(-1).tolist() == [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: F.pixel_shuffle(torch.randn(2, 6, 3, 3), 4),
         "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
         "upscale_factor, but input.size(-3)=6 is not divisible by 16"),
        (lambda: F.pixel_shuffle(torch.randn(4, 4), 2),
         "pixel_shuffle expects input to have at least 3 dimensions, but got input with 2 "
         "dimension(s)"),
        (lambda: F.pixel_unshuffle(torch.randn(2, 6, 3, 3), 2),
         "pixel_unshuffle expects height to be divisible by downscale_factor, but "
         "input.size(-2)=3 is not divisible by 2"),
        (lambda: F.pixel_shuffle(torch.randn(2, 4, 3, 3), 0),
         "pixel_shuffle expects a positive upscale_factor, but got 0"),
        (lambda: nn.ChannelShuffle(4)(torch.randn(2, 6, 3, 3)),
         "Number of channels must be divisible by groups. Got 6 channels and 4 groups."),
        (lambda: nn.ChannelShuffle(3)(torch.randn(2, 6)),
         "channel_shuffle expects input with > 2 dims, but got input with sizes [2, 6]"),
    ],
)  # fmt: skip
def test_shuffle_errors_are_pytorchs(call, message):
    with pytest.raises(RuntimeError) as caught:
        call()
    assert str(caught.value) == message


# ---- padding layers ---------------------------------------------------------------------------------


def test_padding_layers_pad_as_f_pad_with_pytorchs_grad_fns():
    x = _t(X, grad=True)
    cases = [
        (nn.ZeroPad2d((1, 0, 2, 1)), "constant", 0.0, "ConstantPadNdBackward0"),
        (nn.ConstantPad1d(2, 3.5), "constant", 3.5, "ConstantPadNdBackward0"),
        (nn.ReflectionPad2d(1), "reflect", None, "ReflectionPad2DBackward0"),
        (nn.ReplicationPad2d((2, 1, 0, 1)), "replicate", None, "ReplicationPad2DBackward0"),
    ]
    for layer, mode, value, grad_fn in cases:
        y = layer(x)
        widths = [(0, 0)] * (4 - len(layer.padding) // 2) + [
            (layer.padding[2 * k], layer.padding[2 * k + 1])
            for k in reversed(range(len(layer.padding) // 2))
        ]
        kwargs = {"constant_values": value} if mode == "constant" else {}
        numpy_mode = {"replicate": "edge"}.get(mode, mode)
        np.testing.assert_array_equal(y._data, np.pad(X, widths, mode=numpy_mode, **kwargs))
        assert type(y.grad_fn).__name__ == grad_fn


def test_reflection_pad_wider_than_the_input_is_pytorchs_error():
    with pytest.raises(RuntimeError) as caught:
        nn.ReflectionPad2d(3)(torch.randn(2, 6, 3, 3))
    assert str(caught.value) == (
        "Argument #4: Padding size should be less than the corresponding input dimension, but "
        "got: padding (3, 3) at dimension 3 of input [2, 6, 3, 3]"
    )


# ---- adaptive max pooling ---------------------------------------------------------------------------


def test_adaptive_max_pool2d_values_and_indices_are_pytorchs():
    nan = math.nan
    x = torch.tensor([[[1.0, 5.0, 2.0, 5.0, 0.0], [3.0, 1.0, 4.0, 1.0, 5.0],
                       [9.0, 2.0, 6.0, 5.0, 3.0], [nan, 8.0, 9.0, 7.0, 9.0]]])  # fmt: skip
    out, indices = nn.AdaptiveMaxPool2d((2, 3), return_indices=True)(x)
    assert indices.tolist() == [[[1, 1, 3], [15, 17, 19]]]  # first maximum; a NaN wins
    assert out[0, 0].tolist() == [5.0, 5.0, 5.0] and math.isnan(out[0, 1, 0].item())


def test_adaptive_max_pool1d_keeps_the_last_nan_and_squeezes():
    x = torch.tensor([[1.0, 3.0, 3.0, 2.0, math.nan, 0.0, math.nan]], requires_grad=True)
    out, indices = F.adaptive_max_pool1d(x, 3, return_indices=True)
    assert indices.tolist() == [[1, 4, 6]]
    assert type(out.grad_fn).__name__ == "SqueezeBackward1"
    assert _chain(out)[:2] == ["SqueezeBackward1", "AdaptiveMaxPool2DBackward0"]
    values, where = torch.adaptive_max_pool1d(x, 3)  # (always both, as PyTorch's)
    assert where.tolist() == [[1, 4, 6]] and where.dtype == torch.int64


def test_adaptive_max_pool_gradient_goes_to_each_maximum():
    x = torch.tensor([[[1.0, 4.0, 2.0], [3.0, 0.0, 5.0]]], requires_grad=True)
    F.adaptive_max_pool2d(x, (1, 2)).sum().backward()
    assert x.grad.tolist() == [[[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: F.adaptive_max_pool2d(torch.randn(3, 3), 2),
         "adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [3, 3]"),
        (lambda: F.adaptive_max_pool2d(torch.randn(2, 3, 3), (2, 3, 4)),
         "adaptive_max_pool2d(): internal error: output_size.size() must be 2"),
        (lambda: F.adaptive_max_pool1d(torch.randn(2, 6, 3, 3), 2),
         "Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self' "
         "(while checking arguments for adaptive_max_pool1d)"),
    ],
)  # fmt: skip
def test_adaptive_max_pool_errors_are_pytorchs(call, message):
    with pytest.raises(RuntimeError) as caught:
        call()
    assert str(caught.value) == message


# ---- as a user runs it ------------------------------------------------------------------------------


def test_a_script_with_a_wrong_group_count_fails_with_one_located_error(tmp_path):
    script = tmp_path / "gn.py"
    script.write_text(
        "import torch\nimport torch.nn as nn\nx = torch.randn(2, 6, 4, 4)\n"
        "print(nn.GroupNorm(3, 6)(x).shape)\nblock = nn.GroupNorm(4, 6)\n"
    )
    result = autodiff("run", str(script))
    assert result.returncode == 1
    assert "torch.Size([2, 6, 4, 4])" in result.stdout
    assert "gn.py:5" in result.stderr
    assert "ValueError: num_channels (6) must be divisible by num_groups (4)" in result.stderr
    assert "Traceback" not in result.stderr
