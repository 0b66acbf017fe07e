"""Batch normalisation: F.batch_norm, torch.batch_norm, nn.BatchNorm1d/2d/3d.

The literal values, reprs and messages below were recorded from PyTorch 2.13 (CPU); the tests
that compare with PyTorch live are skipped where torch is not importable."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from close_values import assert_close

import autodiff_cli.engine as torch
from autodiff_cli.engine import nn
from autodiff_cli.engine.nn import functional as F

HAS_TORCH = importlib.util.find_spec("torch") is not None
needs_torch = pytest.mark.skipif(not HAS_TORCH, reason="torch is not importable")

X = [[0.5, -1.0, 2.0], [1.5, 0.0, -0.5], [-2.0, 3.0, 1.0], [0.25, 0.75, -1.25]]
W = [2.0, -1.0, 0.5]
B = [0.1, 0.0, -0.2]
RM = [0.2, -0.1, 0.3]
RV = [1.5, 0.5, 2.0]


def _inputs(T=torch):
    f64 = T.float64
    x = T.tensor(X, dtype=f64, requires_grad=True)
    w = T.tensor(W, dtype=f64, requires_grad=True)
    b = T.tensor(B, dtype=f64, requires_grad=True)
    return x, w, b, T.tensor(RM, dtype=f64), T.tensor(RV, dtype=f64)


def _close(t, expected, tol=1e-12):
    assert_close(t, expected, rtol=tol, atol=tol)


# --------------------------------------------------------------------------------------------
# values and gradients (recorded from PyTorch)
# --------------------------------------------------------------------------------------------


def test_training_uses_batch_statistics_and_moves_running_ones():
    x, w, b, rm, rv = _inputs()
    y = F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.25)
    _close(y, [
        [0.7839426668762426, 1.1460835287240023, 0.46590381809262665],
        [2.347240191164797, 0.4669229191097787, -0.5206203568594129],
        [-3.124301143845144, -1.5705589097328918, 0.07129414811181084],
        [0.39311828580410396, -0.04244753810088897, -0.8165776093450248],
    ])  # fmt: skip
    _close(rm, [0.165625, 0.096875, 0.303125])
    _close(rv, [1.6705729166666665, 1.09765625, 2.03515625])  # unbiased variance
    assert rm._version == 0 and rv._version == 0  # as PyTorch's kernel: no version bump
    (y * torch.arange(12.0, dtype=torch.float64).reshape(4, 3)).sum().backward()
    _close(x.grad, [
        [-6.368855796842966, 1.420738116401366, -0.4925499894783057],
        [-0.15671622407894772, 0.3524323627365561, -1.2097484246252888],
        [-0.7946881508575236, 1.2224787594274673, 1.114697052370817],
        [7.320260171779437, -2.99564923856539, 0.5876013617327772],
    ])  # fmt: skip
    _close(w.grad, [-4.9830108586697675, 8.404612543976016, -9.766589332025191])
    _close(b.grad, [18.0, 22.0, 26.0])


def test_evaluation_uses_running_statistics():
    x, w, b, rm, rv = _inputs()
    y = F.batch_norm(x, rm, rv, w, b)
    _close(y, [
        [0.5898963155716387, 1.27277947840464, 0.4010392614122901],
        [2.2228840341437675, -0.14141994204496, -0.4828420053704895],
        [-3.4925729808586836, -4.38401820339376, 0.04748675469917829],
        [0.18164938592860644, -1.2020695073821601, -0.7480063854053234],
    ])  # fmt: skip
    _close(rm, RM)
    _close(rv, RV)
    (y * torch.arange(12.0, dtype=torch.float64).reshape(4, 3)).sum().backward()
    _close(x.grad[1], [4.898963155716387, -5.6567976817984, 1.7677625335655591])
    _close(w.grad, [-7.225970654681672, 42.00172278735312, -8.520615411785995])
    _close(b.grad, [18.0, 22.0, 26.0])


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
def test_grad_fn_and_edges(training, affine):
    x, w, b, rm, rv = _inputs()
    y = F.batch_norm(x, rm, rv, w if affine else None, b if affine else None, training=training)
    assert y.grad_fn.name() == "NativeBatchNormBackward0"
    edges = [n.name() if n is not None else None for n, _ in y.grad_fn.next_functions]
    acc = "torch::autograd::AccumulateGrad"
    assert edges == ([acc] * 3 if affine else [acc, None, None])
    g = torch.autograd.grad(y, x, torch.ones_like(y), create_graph=True)[0]
    assert g.grad_fn.name() == "NativeBatchNormBackwardBackward0"
    assert len(g.grad_fn.next_functions) == 5


def test_torch_batch_norm_argument_order():
    x, w, b, rm, rv = _inputs()
    y = torch.batch_norm(x, w, b, rm, rv, False, 0.1, 1e-5, False)
    _close(y, F.batch_norm(x, rm, rv, w, b).tolist())
    with pytest.raises(TypeError):
        torch.batch_norm(x, w, b, rm, rv, False, 0.1, 1e-5)  # cudnn_enabled is required


def test_module_steps_eval_and_dtype():
    m = nn.BatchNorm1d(3)
    xf = torch.tensor(X)
    for k in range(3):
        m(xf * (k + 1) + k)
    _close(m.running_mean, [0.32506251335144043, 0.6756874918937683, 0.46531254053115845], 1e-6)
    _close(m.running_var, [3.6554529666900635, 4.60532808303833, 3.5995779037475586], 1e-6)
    assert m.num_batches_tracked.item() == 3 and m.num_batches_tracked.dtype == torch.int64
    m.eval()
    out = m(xf)
    assert out.dtype == torch.float32
    assert m.num_batches_tracked.item() == 3
    assert repr(out) == (
        "tensor([[ 0.0915, -0.7808,  0.8089],\n"
        "        [ 0.6145, -0.3149, -0.5088],\n"
        "        [-1.2161,  1.0831,  0.2818],\n"
        "        [-0.0393,  0.0346, -0.9041]], grad_fn=<NativeBatchNormBackward0>)"
    )


def test_batchnorm2d_without_affine():
    x4 = torch.arange(24, dtype=torch.float32).reshape(2, 3, 2, 2).sin()
    m = nn.BatchNorm2d(3, affine=False)
    assert list(m.parameters()) == []
    out = m(x4)
    _close(out[:, 1], [
        [[-0.6645297408103943, -1.0394712686538696], [0.2210364192724228, 1.9580882787704468]],
        [[0.2052912712097168, -1.044059157371521], [-0.653742253780365, 1.0173863172531128]],
    ], 1e-6)  # fmt: skip
    _close(m.running_var, [0.9280640482902527, 0.933210551738739, 0.9660507440567017], 1e-6)


def test_momentum_none_is_a_cumulative_average():
    m = nn.BatchNorm1d(2, momentum=None)
    x = torch.tensor([[1.0, 2.0], [3.0, 5.0], [0.0, -1.0]])
    seen = []
    for k in range(3):
        m(x * (k + 1))
        seen.append((m.running_mean.tolist(), m.running_var.tolist()))
    np.testing.assert_allclose(seen[0][0], [1.3333333, 2.0], rtol=1e-6)
    np.testing.assert_allclose(seen[1][1], [5.8333333, 22.5], rtol=1e-6)
    np.testing.assert_allclose(seen[2][0], [2.6666667, 4.0], rtol=1e-6)
    np.testing.assert_allclose(seen[2][1], [10.888889, 42.0], rtol=1e-6)
    m.reset_running_stats()
    assert m.running_mean.tolist() == [0.0, 0.0] and m.running_var.tolist() == [1.0, 1.0]
    assert m.num_batches_tracked.item() == 0


def test_track_running_stats_false_always_uses_batch_statistics():
    m = nn.BatchNorm1d(2, track_running_stats=False)
    assert m.running_mean is None and m.running_var is None and m.num_batches_tracked is None
    assert list(m.state_dict()) == ["weight", "bias"]
    m.eval()
    out = m(torch.tensor([[1.0, 2.0], [3.0, 5.0], [0.0, -1.0]]))
    _close(out, [[-0.2673, 0.0], [1.3363, 1.2247], [-1.0690, -1.2247]], 1e-4)


# --------------------------------------------------------------------------------------------
# reprs, state_dict
# --------------------------------------------------------------------------------------------


def test_reprs():
    assert repr(nn.BatchNorm1d(16)) == (
        "BatchNorm1d(16, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)"
    )
    assert repr(nn.BatchNorm2d(3, momentum=None, affine=False)) == (
        "BatchNorm2d(3, eps=1e-05, momentum=None, affine=False, bias=False, "
        "track_running_stats=True)"
    )
    assert repr(nn.BatchNorm3d(3, eps=1e-3, track_running_stats=False)) == (
        "BatchNorm3d(3, eps=0.001, momentum=0.1, affine=True, bias=True, track_running_stats=False)"
    )
    no_bias = repr(nn.BatchNorm1d(3, bias=False))
    assert no_bias.endswith("affine=True, bias=False, track_running_stats=True)")
    assert type(nn.BatchNorm1d(3)).__module__ == "torch.nn.modules.batchnorm"


def test_state_dict_keys_and_round_trip():
    m = nn.BatchNorm1d(3)
    keys = ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    assert list(m.state_dict()) == keys
    assert list(nn.BatchNorm1d(3, bias=False).state_dict()) == [k for k in keys if k != "bias"]
    assert list(nn.BatchNorm2d(3, affine=False).state_dict()) == keys[2:]
    m(torch.tensor(X))
    other = nn.BatchNorm1d(3)
    other.load_state_dict(m.state_dict())
    assert other.running_mean.tolist() == m.running_mean.tolist()
    assert other.num_batches_tracked.item() == 1
    assert m.weight.tolist() == [1.0, 1.0, 1.0] and m.bias.tolist() == [0.0, 0.0, 0.0]
    assert nn.BatchNorm1d(2, dtype=torch.float64).running_var.dtype == torch.float64


# --------------------------------------------------------------------------------------------
# errors (PyTorch's types and words)
# --------------------------------------------------------------------------------------------

ERRORS = [
    (
        lambda: F.batch_norm(torch.ones(1, 4), torch.zeros(4), torch.ones(4), training=True),
        ValueError,
        "Expected more than 1 value per channel when training, got input size torch.Size([1, 4])",
    ),
    (
        lambda: F.batch_norm(torch.ones(3, 4), torch.zeros(5), torch.ones(4), training=True),
        RuntimeError,
        "running_mean should contain 4 elements not 5",
    ),
    (
        lambda: F.batch_norm(torch.ones(3, 4), torch.zeros(4), torch.ones(5)),
        RuntimeError,
        "running_var should contain 4 elements not 5",
    ),
    (
        lambda: F.batch_norm(torch.ones(3, 4), torch.zeros(5), torch.ones(4), torch.ones(3)),
        RuntimeError,
        "running_mean should contain 4 elements not 5",
    ),
    (
        lambda: F.batch_norm(torch.ones(3, 4), None, None, None, torch.ones(3), training=True),
        RuntimeError,
        "bias should contain 4 elements not 3",
    ),
    (
        lambda: F.batch_norm(torch.ones(3, 4), None, None),
        RuntimeError,
        "running_mean must be defined in evaluation mode",
    ),
    (
        lambda: F.batch_norm(torch.ones(3, 4), torch.zeros(4), None),
        RuntimeError,
        "running_var must be defined in evaluation mode",
    ),
    (
        lambda: F.batch_norm(torch.ones(4), torch.zeros(4), torch.ones(4)),
        RuntimeError,
        "running_mean should contain 0 elements not 4",
    ),
    (
        lambda: F.batch_norm(torch.ones(3, 4).long(), torch.zeros(4), torch.ones(4)),
        NotImplementedError,
        "\"batch_norm\" not implemented for 'Long'",
    ),
    (
        lambda: F.batch_norm(torch.ones(3, 4).bool(), torch.zeros(4), torch.ones(4)),
        NotImplementedError,
        "\"batch_norm\" not implemented for 'Bool'",
    ),
    (
        lambda: F.batch_norm(torch.ones(3, 4).double(), torch.zeros(4), torch.ones(4)),
        RuntimeError,
        "mixed dtype (CPU): all inputs must share same datatype.",
    ),
    (
        lambda: F.batch_norm(torch.ones(3, 4), torch.zeros(4).double(), torch.ones(4)),
        RuntimeError,
        "mixed dtype (CPU): expect parameter to have scalar type of Float",
    ),
    (
        lambda: F.batch_norm(torch.ones(3, 4), torch.zeros(4, requires_grad=True), torch.ones(4)),
        RuntimeError,
        "The function 'native_batch_norm' is not differentiable with respect to argument "
        "'running_mean'. This input cannot have requires_grad True.",
    ),
    (
        lambda: F.batch_norm(torch.ones(3, 4), None, None, training=True, eps=-1.0),
        ValueError,
        "batch_norm eps must be positive during training, but got -1.0",
    ),
    (
        lambda: F.batch_norm(torch.ones(3, 4), None, None, training=True, momentum=None),
        TypeError,
        "batch_norm(): argument 'momentum' (position 7) must be float, not NoneType",
    ),
    (
        lambda: nn.BatchNorm1d(3)(torch.ones(2, 3, 4, 5)),
        ValueError,
        "expected 2D or 3D input (got 4D input)",
    ),
    (
        lambda: nn.BatchNorm1d(3)(torch.ones(3)),
        ValueError,
        "expected 2D or 3D input (got 1D input)",
    ),
    (
        lambda: nn.BatchNorm2d(3)(torch.ones(2, 3, 4)),
        ValueError,
        "expected 4D input (got 3D input)",
    ),
    (
        lambda: nn.BatchNorm3d(3)(torch.ones(2, 3, 4, 5)),
        ValueError,
        "expected 5D input (got 4D input)",
    ),
    (
        lambda: nn.BatchNorm1d(3)(torch.ones(1, 3)),
        ValueError,
        "Expected more than 1 value per channel when training, got input size torch.Size([1, 3])",
    ),
    (
        lambda: nn.BatchNorm1d(3)(torch.ones(2, 4)),
        RuntimeError,
        "running_mean should contain 4 elements not 3",
    ),
]


@pytest.mark.parametrize("index", range(len(ERRORS)))
def test_errors_as_pytorch_words_them(index):
    fn, kind, message = ERRORS[index]
    with pytest.raises(kind) as info:
        fn()
    assert str(info.value) == message


def test_one_value_per_channel_allowed_in_evaluation_and_by_torch_batch_norm():
    m = nn.BatchNorm1d(3).eval()
    assert tuple(m(torch.ones(1, 3)).shape) == (1, 3)
    out = torch.batch_norm(torch.ones(1, 4), None, None, None, None, True, 0.1, 1e-5, False)
    assert out.tolist() == [[0.0, 0.0, 0.0, 0.0]]


# --------------------------------------------------------------------------------------------
# second derivatives: finite differences always, PyTorch when importable
# --------------------------------------------------------------------------------------------


def _second(T, training, x_data, w_data, v_data, u_data):
    """d/d(x, w) of <u, grad_x> + sum(grad_w) where grads are those of <v, batch_norm(x)>."""
    x = T.tensor(x_data, dtype=T.float64, requires_grad=True)
    w = T.tensor(w_data, dtype=T.float64, requires_grad=True)
    rm = T.tensor([0.2, -0.1, 0.3], dtype=T.float64)
    rv = T.tensor([1.5, 0.5, 2.0], dtype=T.float64)
    y = T.nn.functional.batch_norm(x, rm, rv, w, None, training=training)
    v = T.tensor(v_data, dtype=T.float64)
    gx, gw = T.autograd.grad((y * v).sum(), (x, w), create_graph=True)
    u = T.tensor(u_data, dtype=T.float64)
    total = (gx * u).sum() + (gw * gw).sum()
    hx, hw = T.autograd.grad(total, (x, w))
    return float(total.item()), np.asarray(hx.tolist()), np.asarray(hw.tolist())


def _data(shape=(2, 3, 4), seed=0):
    rng = np.random.RandomState(seed)
    return (
        rng.uniform(-2, 2, shape),
        rng.uniform(0.5, 2, (3,)),
        rng.uniform(-1, 1, shape),
        rng.uniform(-1, 1, shape),
    )


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("shape", [(5, 3), (2, 3, 4), (2, 3, 2, 2)])
def test_double_backward_matches_finite_differences(training, shape):
    x, w, v, u = _data(shape)
    _, hx, hw = _second(torch, training, x, w, v, u)
    h = 1e-6
    for arr, grad in ((x, hx), (w, hw)):
        numeric = np.zeros_like(arr)
        for i in np.ndindex(arr.shape):
            saved = arr[i]
            arr[i] = saved + h
            plus = _second(torch, training, x, w, v, u)[0]
            arr[i] = saved - h
            minus = _second(torch, training, x, w, v, u)[0]
            arr[i] = saved
            numeric[i] = (plus - minus) / (2 * h)
        np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-6)


@needs_torch
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("shape", [(5, 3), (2, 3, 2, 2)])
def test_double_backward_matches_torch(training, shape):
    import torch as real

    x, w, v, u = _data(shape, seed=1)
    ours = _second(torch, training, x, w, v, u)
    theirs = _second(real, training, x, w, v, u)
    assert ours[0] == pytest.approx(theirs[0], rel=1e-12)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-10, atol=1e-12)


@needs_torch
def test_module_training_matches_torch():
    import torch as real

    rng = np.random.RandomState(3)
    batches = [rng.uniform(-2, 2, (4, 3, 5)).tolist() for _ in range(4)]
    results = []
    for T in (torch, real):
        m = T.nn.BatchNorm1d(3, momentum=0.3).double()
        for data in batches:
            out = m(T.tensor(data, dtype=T.float64))
        m.eval()
        results.append((m.running_mean.tolist(), m.running_var.tolist(), out.tolist()))
    np.testing.assert_allclose(np.asarray(results[0][0]), np.asarray(results[1][0]), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(results[0][1]), np.asarray(results[1][1]), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(results[0][2]), np.asarray(results[1][2]), rtol=1e-12)
