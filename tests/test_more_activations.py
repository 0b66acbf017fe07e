"""hardswish, hardsigmoid, mish, celu, glu and threshold (functions, in-place forms, modules):
values, gradients at the kinks, at 0, ±inf and NaN, second derivatives, dtypes, errors and
reprs. Every literal was recorded from PyTorch 2.13 (CPU), float32 unless said."""

from __future__ import annotations

import math

import numpy as np
import pytest
from close_values import assert_close as _close

import autodiff_cli.engine as E

F = E.nn.functional
nan, inf = math.nan, math.inf

# the points: kinks of the hard activations at ±3, 0, -0., ±inf and NaN
POINTS = [-4.0, -3.0, -1.0, 0.0, 1.0, 3.0, 4.0, nan, inf, -inf, -0.0, 2.5, -2.5]

RECORDED = {
    "hardswish": (
        F.hardswish,
        "HardswishBackward0",
        [-0.0, -0.0, -1 / 3, 0.0, 2 / 3, 3.0, 4.0, nan, inf, nan, -0.0, 2.2916667461395264,
         -0.2083333283662796],
        [0.0, 0.0, 0.1666666567325592, 0.5, 0.8333333730697632, 1.0, 1.0, 1.0, 1.0, 0.0, 0.5,
         1.3333332538604736, -0.3333333134651184],
        "HardswishBackwardBackward0",
        [0.0, 0.0, 1 / 3, 1 / 3, 1 / 3, 0.0, 0.0, 0.0, 0.0, 0.0, 1 / 3, 1 / 3, 1 / 3],
    ),
    "hardsigmoid": (
        F.hardsigmoid,
        "HardsigmoidBackward0",
        [0.0, 0.0, 1 / 3, 0.5, 2 / 3, 1.0, 1.0, nan, 1.0, 0.0, 0.5, 0.9166666865348816,
         0.0833333358168602],
        [0.0, 0.0, 1 / 6, 1 / 6, 1 / 6, 0.0, 0.0, 0.0, 0.0, 0.0, 1 / 6, 1 / 6, 1 / 6],
        "torch::autograd::NotImplemented",
        None,
    ),
    "mish": (
        F.mish,
        "MishBackward0",
        [-0.07259175181388855, -0.14564746618270874, -0.3034014403820038, 0.0,
         0.8650983572006226, 2.98653507232666, 3.997412919998169, nan, inf, nan, -0.0,
         2.4713923931121826, -0.19681619107723236],
        [-0.05377320200204849, -0.09339312463998795, 0.05921675264835358, 0.6000000238418579,
         1.0490362644195557, 1.0211069583892822, 1.0044326782226562, nan, nan, nan,
         0.6000000238418579, 1.041129469871521, -0.10974355041980743],
        "MulBackward0",
        [-0.034620024263858795, -0.039928704500198364, 0.34970569610595703, 0.6399999856948853,
         0.1846858412027359, -0.03026661090552807, -0.007338645868003368, nan, nan, nan,
         0.6399999856948853, -0.0500110387802124, -0.02114589512348175],
    ),
    "celu": (
        lambda t: F.celu(t, 2.0),
        "CeluBackward0",
        [-1.7293294668197632, -1.5537396669387817, -0.7869386672973633, 0.0, 1.0, 3.0, 4.0, nan,
         inf, -2.0, -0.0, 2.5, -1.4269903898239136],
        [0.1353352814912796, 0.22313016653060913, 0.6065306663513184, 1.0, 1.0, 1.0, 1.0, 1.0,
         1.0, 0.0, 1.0, 1.0, 0.2865048050880432],
        "EluBackwardBackward0",
        [0.0676676407456398, 0.11156508326530457, 0.3032653331756592, 0.0, 0.0, 0.0, 0.0, 0.0,
         0.0, 0.0, 0.0, 0.0, 0.1432524025440216],
    ),
    "threshold": (
        lambda t: F.threshold(t, 1.0, -5.0),
        "ThresholdBackward0",
        [-5.0, -5.0, -5.0, -5.0, -5.0, 3.0, 4.0, nan, inf, -5.0, -5.0, 2.5, -5.0],
        [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0],
        "ThresholdBackwardBackward0",
        [0.0] * 13,
    ),
}  # fmt: skip


def _signs(values: list) -> list:
    return [math.copysign(1.0, v) for v in values if not math.isnan(v)]


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_values_and_gradients_at_special_points(name: str) -> None:
    fn, grad_fn, values, grads, second_fn, seconds = RECORDED[name]
    x = E.tensor(POINTS, requires_grad=True)
    y = fn(x)
    assert y.grad_fn.name() == grad_fn and y.dtype == E.float32
    _close(y.tolist(), values)
    assert _signs(y.tolist()) == _signs(values)  # -0. where PyTorch gives -0.
    (g,) = E.autograd.grad(y.sum(), x, create_graph=True)
    _close(g.tolist(), grads)
    assert g.grad_fn.name() == second_fn
    if seconds is None:
        with pytest.raises(RuntimeError, match="^derivative for aten::hardsigmoid_backward is not"):
            g.sum().backward()
    else:
        (gg,) = E.autograd.grad(g.sum(), x)
        _close(gg.tolist(), seconds, rtol=1e-4)  # (float32 cancellation in mish's)


def test_threshold_compares_in_the_tensors_dtype() -> None:
    # float32(0.1) <= 0.1 once 0.1 is float32 too: replaced
    assert F.threshold(E.tensor([0.1, 0.2]), 0.1, 9.0).tolist() == [9.0, pytest.approx(0.2)]
    t = E.tensor([0.5, 0.5000001, 0.4999999], dtype=E.float64, requires_grad=True)
    F.threshold(t, 0.5, 9.0).sum().backward()
    assert t.grad.tolist() == [0.0, 1.0, 0.0]  # 0 at the threshold itself
    ints = F.threshold(E.tensor([1, 2, -3, 4]), 1.5, 0.5)
    assert ints.tolist() == [0, 2, 0, 4] and ints.dtype == E.int64
    assert E.threshold(E.tensor([1.0, 2, -3, 4]), 1.5, 0.5).tolist() == [0.5, 2.0, 0.5, 4.0]


def test_glu_values_and_gradients() -> None:
    x = E.tensor([[1.0, -2.0, inf, -inf], [nan, 1.0, 0.0, inf]], requires_grad=True)
    y = F.glu(x)
    assert y.grad_fn.name() == "GluBackward0"
    y.sum().backward()
    _close(y.tolist(), [[1.0, -0.0], [nan, 1.0]])
    _close(x.grad.tolist(), [[1.0, 0.0, 0.0, -0.0], [0.5, 1.0, nan, 0.0]])
    z = E.tensor([[1.0, -2.0, 0.5, 3.0]], requires_grad=True)
    (g,) = E.autograd.grad(F.glu(z).sum(), z, create_graph=True)
    assert g.grad_fn.name() == "GluBackwardBackward0"
    _close(g.tolist(), [[0.6224593520164490, 0.9525741338729858, 0.2350037, -0.0903533]], 1e-5)
    assert F.glu(E.ones(2, 4, 6), 1).shape == (2, 2, 6)
    assert F.glu(E.ones(0, 2)).shape == (0, 1)
    _close(F.glu(E.tensor([1.0, 2.0, 3.0, 4.0])).tolist(), [0.9526, 1.9640], 1e-4)


def test_celu_is_elu_with_input_scale_one_over_alpha() -> None:
    _close(E.celu(E.tensor([1.0, 2, -3, 4]), 1.5).tolist(), [1.0, 2.0, -1.2970, 4.0], 1e-4)
    # float64: PyTorch's backward scales by 1 / float32(alpha)
    x = E.tensor([-1.3, -0.2, -2.5], dtype=E.float64, requires_grad=True)
    F.celu(x, 0.7).sum().backward()
    np.testing.assert_allclose(
        x.grad.tolist(),
        [0.1561180430371072, 0.7514773022164161, 0.028115658517754476],
        rtol=1e-13,
    )


INPLACE = {
    "hardswish": (lambda h: F.hardswish(h, inplace=True), "HardswishBackward0",
                  [0.0, 0.0, 0.1666666567325592, 0.5, 0.8333333730697632, 1.0, 1.0, 1.0,
                   1.3333332538604736]),
    "hardsigmoid": (lambda h: F.hardsigmoid(h, inplace=True), "HardsigmoidBackward0",
                    [0.0, 0.0, 1 / 6, 1 / 6, 1 / 6, 0.0, 0.0, 0.0, 1 / 6]),
    "mish": (lambda h: F.mish(h, inplace=True), "MishBackward0",
             [-0.05377320572733879, -0.09339312463998795, 0.059216730296611786,
              0.6000000238418579, 1.0490362644195557, 1.0211069583892822, 1.0044326782226562,
              nan, 1.0411295890808105]),
    "celu": (lambda h: F.celu(h, 2.0, inplace=True), "CeluBackward1",
             [0.1353352665901184, 0.22313016653060913, 0.6065306663513184, 1.0, 1.0, 1.0, 1.0,
              1.0, 1.0]),
    "celu_": (lambda h: E.celu_(h), "CeluBackward1",
              [0.018315613269805908, 0.049787044525146484, 0.3678794503211975, 1.0, 1.0, 1.0,
               1.0, 1.0, 1.0]),
    "threshold": (lambda h: F.threshold(h, 1.0, -5.0, inplace=True), "ThresholdBackward1",
                  [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]),
    "threshold_": (lambda h: E.threshold_(h, 1.0, 2.0), "ThresholdBackward1",
                   [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]),
    "nn.Mish": (lambda h: E.nn.Mish(inplace=True)(h), "MishBackward0", None),
    "nn.Threshold": (lambda h: E.nn.Threshold(0.5, 7.0, True)(h), "ThresholdBackward1", None),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_forms_write_into_their_input(name: str) -> None:
    activation, grad_fn, grads = INPLACE[name]
    x = E.tensor([-4.0, -3.0, -1.0, 0.0, 1.0, 3.0, 4.0, nan, 2.5], requires_grad=True)
    h = x * 1
    out = activation(h)
    assert out is h and h._version == 1 and out.grad_fn.name() == grad_fn
    assert [n.name() for n, _ in out.grad_fn.next_functions] == ["MulBackward0"]
    out.sum().backward()
    if grads is not None:
        _close(x.grad.tolist(), grads)


def test_inplace_refusals() -> None:
    x = E.tensor([1.0, 2.0], requires_grad=True)
    for fn in (F.hardswish, F.hardsigmoid, F.mish, F.celu):
        with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad"):
            fn(x, inplace=True)
    out = F.celu(E.tensor([-1.0, 0.5], requires_grad=True) * 1, -2.0, inplace=True)
    with pytest.raises(RuntimeError, match="^In-place elu backward calculation is triggered"):
        out.sum().backward()


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [
        (lambda: F.hardswish(E.tensor([1, 2])), NotImplementedError,
         "\"hardswish_cpu\" not implemented for 'Long'"),
        (lambda: F.hardsigmoid(E.tensor([True])), NotImplementedError,
         "\"hardsigmoid_cpu\" not implemented for 'Bool'"),
        (lambda: F.mish(E.tensor([1, 2])), NotImplementedError,
         "\"mish_cpu\" not implemented for 'Long'"),
        (lambda: F.celu(E.tensor([1, 2])), NotImplementedError,
         "\"elu_cpu\" not implemented for 'Long'"),
        (lambda: F.glu(E.tensor([1, 2])), NotImplementedError,
         "\"glu_cpu\" not implemented for 'Long'"),
        (lambda: F.threshold(E.tensor([True]), 0, 0), NotImplementedError,
         "\"threshold_cpu\" not implemented for 'Bool'"),
        (lambda: F.celu(E.tensor([1.0]), 0.0), RuntimeError,
         "ZeroDivisionError: alpha cannot be 0 for CELU"),
        (lambda: F.glu(E.ones(2, 3)), RuntimeError,
         "Halving dimension must be even, but dimension 1 is size 3"),
        (lambda: F.glu(E.ones(3, dtype=E.int64)), RuntimeError,
         "Halving dimension must be even, but dimension 0 is size 3"),
        (lambda: F.glu(E.tensor(1.0)), RuntimeError,
         "glu does not support scalars because halving size must be even"),
        (lambda: F.glu(E.ones(4, 3), dim=-3), IndexError,
         "Dimension out of range (expected to be in range of [-2, 1], but got -3)"),
    ],
)  # fmt: skip
def test_errors(call, kind, message) -> None:
    with pytest.raises(kind) as info:
        call()
    assert str(info.value) == message


def test_dtypes_follow_the_input() -> None:
    for fn in (F.hardswish, F.hardsigmoid, F.mish, F.celu, F.glu):
        assert fn(E.tensor([1.0, 2.0])).dtype == E.float32
        assert fn(E.tensor([1.0, 2.0], dtype=E.float64)).dtype == E.float64
    half = E.tensor([1.0, 2.0, -3.0, 4.0], dtype=E.float16)
    _close(F.hardswish(half).tolist(), [0.6665, 1.6670, -0.0, 4.0], 1e-3)
    _close(F.mish(half).tolist(), [0.8652, 1.9443, -0.1456, 3.9980], 1e-3)


def test_namespaces() -> None:
    for name in ("celu", "celu_", "threshold", "threshold_"):
        assert hasattr(E, name) and hasattr(F, name)
    for name in ("hardswish", "hardsigmoid", "mish", "glu"):
        assert hasattr(F, name) and not hasattr(E, name) and not hasattr(E.Tensor, name)


def test_module_reprs() -> None:
    nn = E.nn
    reprs = [
        (nn.Hardswish(), "Hardswish()"),
        (nn.Hardswish(inplace=True), "Hardswish()"),
        (nn.Hardsigmoid(True), "Hardsigmoid()"),
        (nn.Mish(), "Mish()"),
        (nn.Mish(inplace=True), "Mish(inplace=True)"),
        (nn.CELU(), "CELU(alpha=1.0)"),
        (nn.CELU(2, inplace=True), "CELU(alpha=2, inplace=True)"),
        (nn.GLU(), "GLU(dim=-1)"),
        (nn.GLU(0), "GLU(dim=0)"),
        (nn.Threshold(0.1, 20), "Threshold(threshold=0.1, value=20)"),
        (nn.Threshold(1, 2.5, inplace=True), "Threshold(threshold=1, value=2.5, inplace=True)"),
    ]
    for module, text in reprs:
        assert repr(module) == text
    with pytest.raises(TypeError, match="missing 2 required positional arguments"):
        nn.Threshold()
