"""The ops layer's short ways (`a @ b` of two matrices without `matmul`'s dispatch, the mm
formulas, the generated unary functions) give what the general path gives: values, dtypes,
grad_fns, gradients and PyTorch's errors."""

from __future__ import annotations

import numpy as np
import pytest

import autodiff_cli.engine as E


def _pair(dtype_a=np.float32, dtype_b=np.float32) -> tuple:
    rng = np.random.default_rng(3)
    a = E.tensor(rng.standard_normal((3, 4)).astype(dtype_a), requires_grad=True)
    b = E.tensor(rng.standard_normal((4, 2)).astype(dtype_b), requires_grad=True)
    return a, b


def _run(product) -> tuple:
    a, b = _pair()
    out = product(a, b)
    (out * out).sum().backward()
    return (
        out.tolist(),
        str(out.dtype),
        type(out.grad_fn).__name__,
        a.grad.tolist(),
        b.grad.tolist(),
    )


def test_matmul_operator_equals_mm_and_matmul() -> None:
    fast = _run(lambda a, b: a @ b)
    assert fast == _run(E.mm) == _run(E.matmul)
    assert fast[2] == "MmBackward0"
    a, b = _pair(np.float64, np.float64)
    expected = a._data @ b._data
    np.testing.assert_allclose((a @ b)._data, expected)


@pytest.mark.parametrize(
    "a, b, message",
    [
        ((2, 3), (4, 2), r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x2\)"),
        ((2, 3), (2, 3), r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 2x3\)"),
    ],
)
def test_matmul_operator_shape_errors(a: tuple, b: tuple, message: str) -> None:
    for call in (lambda: E.ones(*a) @ E.ones(*b), lambda: E.mm(E.ones(*a), E.ones(*b))):
        with pytest.raises(RuntimeError, match=message):
            call()


def test_matmul_operator_dtype_error() -> None:
    message = "expected m1 and m2 to have the same dtype, but got: float != double"
    with pytest.raises(RuntimeError, match=message):
        E.ones(2, 3) @ E.ones(3, 2, dtype=E.float64)
    with pytest.raises(RuntimeError, match=message):
        E.mm(E.ones(2, 3), E.ones(3, 2, dtype=E.float64))


def test_mm_gradients_under_create_graph_record_t_as_pytorch() -> None:
    # PyTorch: grad of a is MmBackward0(None, TBackward0); grad of b is MmBackward0(TBackward0, None)
    a, b = _pair(np.float64, np.float64)
    ga, gb = E.autograd.grad((a @ b).sum(), (a, b), create_graph=True)
    names = [
        [type(n).__name__ if n is not None else None for n, _ in g.grad_fn.next_functions]
        for g in (ga, gb)
    ]
    assert [type(g.grad_fn).__name__ for g in (ga, gb)] == ["MmBackward0", "MmBackward0"]
    assert names == [[None, "TBackward0"], ["TBackward0", None]]
    np.testing.assert_allclose(ga._data, np.ones((3, 2)) @ b._data.T)
    np.testing.assert_allclose(gb._data, a._data.T @ np.ones((3, 2)))


def _view_calls() -> list:
    from autodiff_cli.engine.ops import views as V

    return [
        (V.SQUEEZE_DIM, (4, 1, 3), {"dim": 1, "source": (4, 1, 3)}),
        (V.SQUEEZE_DIM, (4, 2, 3), {"dim": 1, "source": (4, 2, 3)}),
        (V.SQUEEZE, (1, 4, 1), {"source": (1, 4, 1)}),
        (V.UNSQUEEZE, (4, 3), {"dim": 0}),
        (V.TRANSPOSE, (4, 3, 2), {"dim0": 0, "dim1": 2}),
        (V.PERMUTE, (4, 3, 2), {"dims": (2, 0, 1)}),
        (V.T, (4, 3), None),
        (V.ALIAS, (2, 3), None),
    ]


def _viewed(apply, op, shape: tuple, params, requires_grad: bool) -> tuple:
    rng = np.random.default_rng(5)
    base = E.tensor(rng.standard_normal(shape), requires_grad=requires_grad) * 1.0
    v = apply(op, base, params)
    base.mul_(2.0) if not requires_grad else None  # the view shares the version counter
    described = (
        v.tolist(),
        str(v.dtype),
        v._base is base,
        v._version == base._version,
        type(v.grad_fn).__name__ if v.grad_fn is not None else None,
        base._views is not None and any(ref() is v for ref in base._views),
    )
    if not requires_grad:
        return described
    node = v.grad_fn
    base.retain_grad()
    (v * v).sum().backward()
    grad = base.grad.tolist()
    return (*described, node._params, node._meta, grad, node.next_functions[0][0] is base.grad_fn)


@pytest.mark.parametrize("requires_grad", [True, False])
def test_apply_view_equals_the_general_path(requires_grad: bool) -> None:
    from autodiff_cli.engine.core import apply as core_apply

    def general(op, x, params):
        x._array()
        return core_apply.apply_op(op, (x,), params)

    for op, shape, params in _view_calls():
        fast = _viewed(core_apply.apply_view, op, shape, params, requires_grad)
        assert fast == _viewed(general, op, shape, params, requires_grad), op.name
        assert fast[2:4] == (True, True) and fast[-1] is True


def _with_number(apply, op, dtype, requires_grad: bool) -> tuple:
    x = E.tensor(np.array([[1.5, -2.0], [0.25, 3.0]], dtype=dtype), requires_grad=requires_grad)
    y = apply(op, x * 1 if requires_grad else x, 0.75)
    described = (y.tolist(), str(y.dtype), type(y.grad_fn).__name__ if y.grad_fn else None)
    if not requires_grad:
        return described
    saved = y.grad_fn._saved
    (y * y).sum().backward()
    return (*described, saved, y.grad_fn.next_functions[1], x.grad.tolist())


@pytest.mark.parametrize("name", ["ADD", "SUB", "MUL", "DIV"])
@pytest.mark.parametrize(
    ("dtype", "requires_grad"),
    [(np.float32, True), (np.float64, True), (np.float32, False), (np.int64, False)],
)
def test_apply_number_equals_the_general_path(name: str, dtype, requires_grad: bool) -> None:
    from autodiff_cli.engine.core import apply as core_apply
    from autodiff_cli.engine.ops import arithmetic

    op = getattr(arithmetic, name)
    fast = _with_number(core_apply.apply_number, op, dtype, requires_grad)
    general = _with_number(lambda o, a, b: core_apply.apply_op(o, (a, b)), op, dtype, requires_grad)
    assert fast == general
