"""Forward-mode AD (`torch.autograd.forward_ad`): every op row of `engine_cases.CASES` has its
JVP checked against central finite differences in float64, and the API's behaviour and errors
are PyTorch's (recorded in tests/conformance/12NN_forward_ad_*.py too)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from engine_cases import CASES, Case, outputs_of, to_tensor

import autodiff_cli.engine as E
import autodiff_cli.engine.nn.functional  # noqa: F401  (registers its ops)
from autodiff_cli.engine.autograd import forward_ad as fwAD
from autodiff_cli.engine.autograd.forward_rules import Level
from autodiff_cli.engine.core.optable import OPS

RTOL = 1e-6
ATOL = 1e-6


@pytest.fixture(autouse=True)
def _no_level_left():
    """Each test starts and ends outside a dual level."""
    assert Level.current is None
    yield
    if Level.current is not None:
        fwAD.exit_dual_level()
        pytest.fail("a test left a dual level active")


def _tangent_arrays(case: Case, arrays: list[np.ndarray]) -> list[np.ndarray | None]:
    rng = np.random.RandomState(zlib.crc32(f"{case.id}/tangent".encode()))
    return [
        rng.uniform(-1.0, 1.0, a.shape).astype(a.dtype) if spec.diff else None
        for a, spec in zip(arrays, case.inputs)
    ]


def _outputs_at(case: Case, arrays: list[np.ndarray]) -> list[np.ndarray]:
    inputs = [to_tensor(E, a, spec.diff) for a, spec in zip(arrays, case.inputs)]
    return [o.detach()._data for o in outputs_of(case.fn(E, *inputs))]


def _finite_difference(case: Case, arrays: list, tangents: list) -> list[np.ndarray]:
    """(f(x + eps t) - f(x - eps t)) / (2 eps) for each output."""
    eps = case.eps
    plus = [a if t is None else a + eps * t for a, t in zip(arrays, tangents)]
    minus = [a if t is None else a - eps * t for a, t in zip(arrays, tangents)]
    return [
        (np.asarray(p, np.float64) - np.asarray(m, np.float64)) / (2 * eps)
        for p, m in zip(_outputs_at(case, plus), _outputs_at(case, minus))
    ]


def _dual_outputs(case: Case, arrays: list, tangents: list) -> list:
    """(primal, tangent) of each output, the inputs made dual with their tangents."""
    with fwAD.dual_level():
        inputs = []
        for a, spec, t in zip(arrays, case.inputs, tangents):
            x = to_tensor(E, a, spec.diff)
            inputs.append(x if t is None else fwAD.make_dual(x, to_tensor(E, t)))
        return [tuple(fwAD.unpack_dual(o)) for o in outputs_of(case.fn(E, *inputs))]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_jvp_matches_finite_differences(case: Case):
    arrays = case.arrays()
    tangents = _tangent_arrays(case, arrays)
    if not OPS[case.op].forward_ad:  # PyTorch has no forward formula: its error, as PyTorch's
        with pytest.raises(NotImplementedError, match="because it has not been implemented yet"):
            _dual_outputs(case, arrays, tangents)
        assert Level.current is None
        return
    expected = _finite_difference(case, arrays, tangents)
    found = _dual_outputs(case, arrays, tangents)
    plain = _outputs_at(case, arrays)
    assert len(found) == len(expected)
    for k, ((primal, tangent), numeric, value) in enumerate(zip(found, expected, plain)):
        np.testing.assert_allclose(primal._data, value, rtol=1e-12, atol=1e-12)
        assert tangent is not None, f"output {k} has no tangent"
        assert tuple(tangent.shape) == tuple(primal.shape)
        assert tangent.dtype == primal.dtype
        # float32 inputs: x ± eps t is rounded to float32 (eps is 2**-8 there), so the
        # differences are good to about 1e-4 only
        tol = RTOL if all(spec.dtype == "float64" for spec in case.inputs) else 1e-4
        np.testing.assert_allclose(
            tangent._data, numeric, rtol=tol, atol=tol, err_msg=f"J t of output {k}"
        )


# --------------------------------------------------------------------------------------------
# The API: levels, make_dual, unpack_dual, errors (PyTorch 2.13's messages)
# --------------------------------------------------------------------------------------------


def _vec(*values: float) -> E.Tensor:
    return E.tensor(list(values), dtype=E.float64)


def test_dual_level_enters_and_exits():
    from autodiff_cli.engine.core import modes

    assert not modes.active()
    with fwAD.dual_level() as level:
        assert level == 0
        assert modes.active()
    assert not modes.active()
    assert fwAD.enter_dual_level() == 0
    fwAD.exit_dual_level()
    assert Level.current is None


@pytest.mark.parametrize(
    "call, kind, message",
    [
        (lambda: fwAD.make_dual(_vec(1.0), _vec(1.0)), RuntimeError, "no level exists"),
        (lambda: fwAD.exit_dual_level(), RuntimeError, "Dual level must be a positive number."),
        (lambda: fwAD.exit_dual_level(level=3), RuntimeError, "not the last one"),
    ],
)
def test_errors_outside_a_level(call, kind, message):
    with pytest.raises(kind, match=message):
        call()


def test_unpack_dual_outside_a_level_gives_the_tensor_whatever_the_level():
    x = _vec(1.0)
    for level in (None, 0, 5):
        primal, tangent = fwAD.unpack_dual(x, level=level)
        assert primal is x and tangent is None


def test_errors_inside_a_level():
    x = _vec(1.0, 2.0, 3.0)
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match="^Nested forward mode AD is not supported"):
            fwAD.enter_dual_level()
        with pytest.raises(RuntimeError, match=r"different size .* size \[3\] .* size \[2\]\.$"):
            fwAD.make_dual(x, _vec(1.0, 2.0))
        with pytest.raises(ValueError, match="primal to be floating point .*: torch.int64$"):
            fwAD.make_dual(E.tensor([1, 2]), E.tensor([1.0, 2.0]))
        with pytest.raises(ValueError, match="tangent to be floating point .*: torch.int64$"):
            fwAD.make_dual(x, E.tensor([1, 2, 3]))
        with pytest.raises(RuntimeError, match="^Invalid level given to _make_dual$"):
            fwAD.make_dual(x, x, level=1)
        with pytest.raises(RuntimeError, match="no level exists"):
            fwAD.make_dual(x, x, level=-1)
        d = fwAD.make_dual(x, x)
        with pytest.raises(
            RuntimeError, match="already has a forward gradient at the same level 0"
        ):
            fwAD.make_dual(d, x)
        with pytest.raises(RuntimeError, match="^Invalid level given to _fw_primal$"):
            fwAD.unpack_dual(d, level=2)
        with pytest.raises(TypeError, match="must be Tensor, not float$"):
            fwAD.unpack_dual(3.0)
        with pytest.raises(RuntimeError, match="not the last one"):
            fwAD.exit_dual_level(level=1)


def test_make_dual_is_a_view_carrying_the_tangent():
    x, t = _vec(1.0, 2.0), _vec(0.5, -1.0)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        assert d is not x and d._base is x and d.is_leaf and not d.requires_grad
        primal, tangent = fwAD.unpack_dual(d)
        assert tangent is t
        assert primal is not d and primal._base is x and fwAD.unpack_dual(primal).tangent is None
        unpacked = fwAD.unpack_dual(d)
        assert unpacked.primal is unpacked[0] and unpacked.tangent is unpacked[1]
        assert type(unpacked).__name__ == "UnpackedDualTensor" and unpacked._fields == (
            "primal",
            "tangent",
        )
        assert fwAD.unpack_dual(x).tangent is None
    assert fwAD.unpack_dual(x).primal is x
    assert fwAD.unpack_dual(d).tangent is None  # leaving the level dropped every tangent


def test_a_tangent_in_another_layout_is_copied_into_the_primals():
    with fwAD.dual_level():
        t = E.ones(3, 2, dtype=E.float64).t()
        d = fwAD.make_dual(E.zeros(2, 3, dtype=E.float64), t)
        tangent = fwAD.unpack_dual(d).tangent
        assert tangent is not t and tangent.is_contiguous()
        np.testing.assert_array_equal(tangent._data, t._data)


def test_repr_shows_the_tangent_as_pytorch():
    with fwAD.dual_level():
        s = fwAD.make_dual(E.tensor(2.0), E.tensor(1.5))
        assert repr(s) == "tensor(2., tangent=1.5)"
        assert repr(s * s) == "tensor(4., tangent=6.0)"
        r = fwAD.make_dual(E.tensor([2.0, 3.0], requires_grad=True), E.tensor([1.25, 1e-5]))
        assert repr(r) == (
            "tensor([2., 3.], grad_fn=<ViewBackward0>,\n"
            "       tangent=tensor([1.2500e+00, 1.0000e-05]))"
        )
        m = fwAD.make_dual(E.ones(2, 3), E.ones(2, 3))
        assert repr(m) == (
            "tensor([[1., 1., 1.],\n        [1., 1., 1.]], tangent=tensor([[1., 1., 1.],\n"
            "        [1., 1., 1.]]))"
        )
    assert repr(s) == "tensor(2.)"


def test_ops_without_a_derivative_and_integer_results():
    with fwAD.dual_level():
        d = fwAD.make_dual(_vec(1.5, -2.5), _vec(1.0, 1.0))
        assert fwAD.unpack_dual(d.argmax()).tangent is None
        assert fwAD.unpack_dual(d > 0).tangent is None
        np.testing.assert_array_equal(fwAD.unpack_dual(d.floor()).tangent._data, [0.0, 0.0])
        values, indices = d.max(0)
        assert fwAD.unpack_dual(values).tangent.item() == 1.0
        assert fwAD.unpack_dual(indices).tangent is None


def test_detach_and_data_drop_the_tangent_clone_and_no_grad_keep_it():
    with fwAD.dual_level():
        d = fwAD.make_dual(_vec(1.0, 2.0), _vec(3.0, 4.0))
        assert fwAD.unpack_dual(d.detach()).tangent is None
        assert fwAD.unpack_dual(d.data).tangent is None
        np.testing.assert_array_equal(fwAD.unpack_dual(d.clone()).tangent._data, [3.0, 4.0])
        with E.no_grad():
            y = d * 3
        np.testing.assert_array_equal(fwAD.unpack_dual(y).tangent._data, [9.0, 12.0])


# --------------------------------------------------------------------------------------------
# In-place ops and views
# --------------------------------------------------------------------------------------------


def test_inplace_op_updates_the_tangent_in_place():
    x, t = _vec(1.0, 2.0, 3.0), _vec(1.0, 1.0, 1.0)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        d.mul_(2)
        np.testing.assert_array_equal(t._data, [2.0, 2.0, 2.0])  # the given tangent itself
        np.testing.assert_array_equal(x._data, [2.0, 4.0, 6.0])
        d[0] = 5.0
        np.testing.assert_array_equal(t._data, [0.0, 2.0, 2.0])
        d.sin_()
        np.testing.assert_allclose(
            fwAD.unpack_dual(d).tangent._data, np.cos([5.0, 4.0, 6.0]) * [0, 2, 2]
        )


def test_inplace_through_a_view_reaches_the_base_tangent():
    with fwAD.dual_level():
        d = fwAD.make_dual(_vec(1.0, 2.0, 3.0), _vec(1.0, 0.0, 0.5))
        base = fwAD.make_dual(E.zeros(3, dtype=E.float64), E.zeros(3, dtype=E.float64))
        base[1:].add_(d[:2])
        np.testing.assert_array_equal(fwAD.unpack_dual(base).tangent._data, [0.0, 1.0, 0.0])
        plain = E.zeros(4, dtype=E.float64)
        plain[:3].copy_(d)  # a view of a tensor without tangent: the base gets one
        np.testing.assert_array_equal(fwAD.unpack_dual(plain).tangent._data, [1.0, 0.0, 0.5, 0.0])
        q = E.ones(3, dtype=E.float64)
        q += d
        np.testing.assert_array_equal(fwAD.unpack_dual(q).tangent._data, [1.0, 0.0, 0.5])
        v = d.view(3, 1)
        v.mul_(4)
        np.testing.assert_array_equal(fwAD.unpack_dual(d).tangent._data, [4.0, 0.0, 2.0])


# --------------------------------------------------------------------------------------------
# Custom Functions, modules, torch.func, tangents that require grad
# --------------------------------------------------------------------------------------------


class _Scale(E.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, k):
        ctx.save_for_forward(a, b)
        ctx.k = k
        return a * b * k

    @staticmethod
    def backward(ctx, g):
        return None, None, None

    @staticmethod
    def jvp(ctx, ta, tb, tk):
        assert tk is None
        a, b = ctx.saved_tensors
        return (ta * b + tb * a) * ctx.k


class _NoJvp(E.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a.exp()

    @staticmethod
    def backward(ctx, g):
        return g


class _TwoTangents(E.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a.exp()

    @staticmethod
    def jvp(ctx, ta):
        return ta, ta


def test_custom_function_jvp():
    with fwAD.dual_level():
        d = fwAD.make_dual(_vec(1.0, 2.0), _vec(0.5, 1.0))
        y = _Scale.apply(d, _vec(3.0, 4.0), 2.0)  # the other input's tangent: zeros
        np.testing.assert_array_equal(fwAD.unpack_dual(y).tangent._data, [3.0, 8.0])
        y = _Scale.apply(d, d, 2.0)
        np.testing.assert_array_equal(fwAD.unpack_dual(y).tangent._data, [2.0, 8.0])
        assert fwAD.unpack_dual(_Scale.apply(_vec(1.0, 2.0), _vec(3.0, 4.0), 2.0)).tangent is None
        with pytest.raises(NotImplementedError, match="must implement the jvp function"):
            _NoJvp.apply(d)
        with pytest.raises(
            RuntimeError, match=r"invalid number of forward gradients \(expected 1 but got 2\)"
        ):
            _TwoTangents.apply(d)


def test_linear_layer_jvp_equals_the_matrix_product():
    layer = E.nn.Linear(3, 2).double()
    x = E.tensor([[0.5, -1.0, 2.0]], dtype=E.float64)
    t = E.tensor([[1.0, 0.25, -0.5]], dtype=E.float64)
    with fwAD.dual_level():
        out = E.tanh(layer(fwAD.make_dual(x, t)))
        primal, tangent = fwAD.unpack_dual(out)
    w = layer.weight.detach()._data
    expected = (1 - primal.detach()._data ** 2) * (t._data @ w.T)
    np.testing.assert_allclose(tangent.detach()._data, expected, rtol=1e-12)


def test_forward_ad_agrees_with_func_jvp():
    def f(a):
        return (a.sin() * a).sum(0) / a.norm()

    x = E.tensor([[0.3, -1.2], [2.0, 0.7]], dtype=E.float64)
    t = E.tensor([[1.0, 0.5], [-0.25, 2.0]], dtype=E.float64)
    _, expected = E.func.jvp(f, (x,), (t,))
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(f(fwAD.make_dual(x, t))).tangent
    np.testing.assert_allclose(tangent._data, expected._data, rtol=1e-12)


def test_a_tangent_that_requires_grad_gives_a_differentiable_tangent():
    x = _vec(0.5, 1.5)
    t = E.tensor([1.0, 2.0], dtype=E.float64, requires_grad=True)
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(fwAD.make_dual(x, t).exp()).tangent
        assert tangent.requires_grad
        (g,) = E.autograd.grad(tangent.sum(), t)
    np.testing.assert_allclose(g._data, np.exp([0.5, 1.5]), rtol=1e-12)


def test_forward_over_reverse_gives_the_hessian_vector_product():
    x = E.tensor([0.5, 1.5, -1.0], dtype=E.float64, requires_grad=True)
    v = E.tensor([1.0, 0.5, 2.0], dtype=E.float64)

    def f(a):
        return (a.sin() * a.exp()).sum() + (a**3).prod()

    with fwAD.dual_level():
        xd = fwAD.make_dual(x, v)
        (g,) = E.autograd.grad(f(xd), xd, create_graph=True)
        primal, hv = fwAD.unpack_dual(g)
    (plain,) = E.autograd.grad(f(x), x)
    np.testing.assert_allclose(primal._data, plain._data, rtol=1e-12)
    _, expected = E.autograd.functional.hvp(f, x.detach(), v)
    np.testing.assert_allclose(hv._data, expected._data, rtol=1e-10)


# --------------------------------------------------------------------------------------------
# autograd.functional.jacobian(strategy="forward-mode")
# --------------------------------------------------------------------------------------------


def test_forward_mode_jacobian_equals_reverse_mode():
    def f(a, b):
        return (a.exp() * b, (a * b).sum(), a.outer(b))

    x, y = _vec(0.5, 1.0, 1.5), _vec(2.0, 3.0, 0.5)
    jac = E.autograd.functional.jacobian
    forward = jac(f, (x, y), strategy="forward-mode", vectorize=True)
    reverse = jac(f, (x, y))
    assert isinstance(forward, list) and all(isinstance(row, list) for row in forward)
    for fr, rr in zip(forward, reverse):
        for a, b in zip(fr, rr):
            assert tuple(a.shape) == tuple(b.shape)
            np.testing.assert_allclose(a._data, b._data, rtol=1e-12)
    single = jac(lambda a: a.tanh(), x, strategy="forward-mode", vectorize=True)
    np.testing.assert_allclose(single._data, np.diag(1 - np.tanh(x._data) ** 2), rtol=1e-12)


@pytest.mark.parametrize(
    "kw, kind, message",
    [
        (
            {"strategy": "forward-mode"},
            NotImplementedError,
            "only implemented for `vectorize=True`",
        ),
        ({"strategy": "up"}, AssertionError, 'either "forward-mode" or "reverse-mode". Hint'),
        (
            {"strategy": "forward-mode", "vectorize": True, "create_graph": True},
            NotImplementedError,
            "`create_graph=True` and",
        ),
        ({"strategy": "forward-mode", "vectorize": True, "strict": True}, RuntimeError, "strict"),
    ],
)
def test_jacobian_strategy_checks(kw, kind, message):
    with pytest.raises(kind, match=message):
        E.autograd.functional.jacobian(lambda a: a * 2, _vec(1.0), **kw)


def test_tangent_dtypes():
    with fwAD.dual_level():
        d = fwAD.make_dual(E.tensor([1.0, 2.0]), E.ones(2, dtype=E.float64))
        assert fwAD.unpack_dual(d * 2).tangent.dtype == E.float64  # a wider tangent stays wide
        assert fwAD.unpack_dual(d.sin()).primal.dtype == E.float32
        h = fwAD.make_dual(E.ones(2, dtype=E.float64), _vec(0.5, 0.25))
        assert fwAD.unpack_dual(h.float()).tangent.dtype == E.float32  # `to` converts it


class _Same(E.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a

    @staticmethod
    def jvp(ctx, ta):
        return ta


class _Alias(E.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a

    @staticmethod
    def jvp(ctx, ta):
        return ta.view_as(ta)


def test_custom_function_returning_its_input():
    with fwAD.dual_level():
        t = _vec(1.0, -1.0)
        e = fwAD.make_dual(_vec(3.0, 4.0), t)
        with pytest.raises(RuntimeError, match="returning a view .* jvp is not returning a view"):
            _Same.apply(e)
        y = _Alias.apply(e)
        assert y is not e and fwAD.unpack_dual(e).tangent is t
        np.testing.assert_array_equal(fwAD.unpack_dual(y).tangent._data, [1.0, -1.0])


def test_an_op_without_derivative_refuses_forward_ad():
    with fwAD.dual_level():
        d = fwAD.make_dual(_vec(1.5, 2.5), _vec(1.0, 1.0))
        with pytest.raises(
            NotImplementedError, match="^Trying to use forward AD with aten::floor_divide"
        ):
            d // 0.75
        np.testing.assert_array_equal((d.detach() // 0.75)._data, [2.0, 3.0])


def test_inference_mode_computes_no_tangent():
    with fwAD.dual_level():
        d = fwAD.make_dual(_vec(1.5, 2.5), _vec(1.0, 1.0))
        with E.inference_mode():
            y = d.sin()
        assert fwAD.unpack_dual(y).tangent is None
        np.testing.assert_allclose(fwAD.unpack_dual(d.sin()).tangent._data, np.cos([1.5, 2.5]))


def test_reverse_over_forward_differentiates_the_tangent_through_the_primals():
    x = E.tensor([0.5, 1.5, -1.0], dtype=E.float64, requires_grad=True)
    v = E.tensor([1.0, 0.5, 2.0], dtype=E.float64)

    def f(a):
        return (a.sin() * a.exp()).sum() + (a**3).prod()

    with fwAD.dual_level():
        jv = fwAD.unpack_dual(f(fwAD.make_dual(x, v))).tangent
        assert jv.requires_grad
        (hv,) = E.autograd.grad(jv, x)
    _, expected = E.autograd.functional.hvp(f, x.detach(), v)
    np.testing.assert_allclose(hv._data, expected._data, rtol=1e-10)
    with E.no_grad(), fwAD.dual_level():  # no graph under no_grad
        assert not fwAD.unpack_dual(f(fwAD.make_dual(x, v))).tangent.requires_grad
