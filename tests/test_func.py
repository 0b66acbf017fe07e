"""torch.func (grad, vjp, jvp, jacrev, jacfwd, hessian, vmap, functional_call) and
torch.autograd.functional's products: values against central finite differences in float64,
structure and errors as PyTorch gives them, and the transforms reached from a script through the
sandbox and the locked-down child.

Tests taking the `T` fixture use only the public torch API, so they also run against PyTorch when
it is importable (which checks the expectations themselves).
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

RNG = np.random.RandomState(16)
STEP = 1e-6


def _tensor(T, values):
    return T.tensor(np.asarray(values, dtype=np.float64).tolist(), dtype=T.float64)


def _numbers(t) -> np.ndarray:
    return np.asarray(t.detach().tolist(), dtype=np.float64)


def _fd_jacobian(f, x: np.ndarray) -> np.ndarray:
    """d f(x) / d x by central differences: shape f(x).shape + x.shape."""
    base = np.asarray(f(x))
    jac = np.zeros(base.shape + x.shape)
    for index in np.ndindex(*x.shape):
        up, down = x.copy(), x.copy()
        up[index] += STEP
        down[index] -= STEP
        jac[(...,) + index] = (np.asarray(f(up)) - np.asarray(f(down))) / (2 * STEP)
    return jac


def _through(T, fn):
    """`fn` on tensors, as a numpy function for finite differences (no graph)."""

    def f(values: np.ndarray) -> np.ndarray:
        with T.no_grad():
            return _numbers(fn(_tensor(T, values)))

    return f


SCALAR_FUNCTIONS = {
    "sin_sum": lambda t: t.sin().sum(),
    "cubic_exp": lambda t: (t**3 * t.exp()).sum(),
    "logsumexp": lambda t: t.exp().sum().log(),
    "product": lambda t: t.prod() + (t[0] * t[-1]).tanh(),
}


@pytest.mark.parametrize("name", sorted(SCALAR_FUNCTIONS))
def test_grad_matches_finite_differences(T, name):
    f = SCALAR_FUNCTIONS[name]
    x = RNG.uniform(0.2, 1.5, size=4)
    got = _numbers(T.func.grad(f)(_tensor(T, x)))
    np.testing.assert_allclose(got, _fd_jacobian(_through(T, f), x), rtol=1e-6, atol=1e-8)


def test_grad_of_grad_is_the_second_derivative(T):
    x = 0.7
    second = T.func.grad(T.func.grad(lambda t: t.sin() * t**2))(_tensor(T, x))
    first = lambda v: float(T.func.grad(lambda t: t.sin() * t**2)(_tensor(T, v)))  # noqa: E731
    expected = (first(x + STEP) - first(x - STEP)) / (2 * STEP)
    assert float(second) == pytest.approx(expected, rel=1e-6)


def test_grad_argnums_and_trees(T):
    w, b = RNG.normal(size=3), RNG.normal()
    inputs = RNG.normal(size=(5, 3))

    def loss(p, data):
        return ((data @ p["w"] + p["b"]).tanh() ** 2).sum()

    data = _tensor(T, inputs)
    g = T.func.grad(loss)({"w": _tensor(T, w), "b": _tensor(T, b)}, data)
    assert sorted(g) == ["b", "w"]
    fd_w = _fd_jacobian(lambda v: _numbers(loss({"w": _tensor(T, v), "b": _tensor(T, b)}, data)), w)
    np.testing.assert_allclose(_numbers(g["w"]), fd_w, rtol=1e-6, atol=1e-8)
    gd, gp = T.func.grad(lambda d, p: loss(p, d), argnums=(0, 1))(
        data, {"w": _tensor(T, w), "b": _tensor(T, b)}
    )
    np.testing.assert_allclose(_numbers(gp["b"]), _numbers(g["b"]))
    assert tuple(gd.shape) == (5, 3)


def test_grad_has_aux_and_grad_and_value(T):
    x = _tensor(T, [1.0, 2.0])
    g, aux = T.func.grad(lambda t: ((t**2).sum(), t * 10), has_aux=True)(x)
    np.testing.assert_allclose(_numbers(g), [2.0, 4.0])
    np.testing.assert_allclose(_numbers(aux), [10.0, 20.0])
    g, value = T.func.grad_and_value(lambda t: (t**2).sum())(x)
    assert float(value) == 5.0 and not value.requires_grad and not g.requires_grad


def test_vjp_and_jvp_match_the_jacobian(T):
    x = RNG.uniform(0.5, 1.5, size=3)

    def f(t):
        return T.stack([t[0] * t[1], t.sin().sum(), (t[2] / t[0]).log()])

    jac = _fd_jacobian(_through(T, f), x)
    u, v = RNG.normal(size=3), RNG.normal(size=3)
    out, vjp_fn = T.func.vjp(f, _tensor(T, x))
    np.testing.assert_allclose(_numbers(out), _through(T, f)(x))
    (got,) = vjp_fn(_tensor(T, u))
    np.testing.assert_allclose(_numbers(got), u @ jac, rtol=1e-6, atol=1e-8)
    out, tangent = T.func.jvp(f, (_tensor(T, x),), (_tensor(T, v),))
    np.testing.assert_allclose(_numbers(tangent), jac @ v, rtol=1e-6, atol=1e-8)


def test_linearize_pushes_tangents_through_the_jacobian(T):
    x = RNG.uniform(0.5, 1.5, size=3)

    def f(t):
        return (t * t.flip(0)).exp() / t.sum()

    jac = _fd_jacobian(_through(T, f), x)
    out, jvp_fn = T.func.linearize(f, _tensor(T, x))
    np.testing.assert_allclose(_numbers(out), _through(T, f)(x))
    for _ in range(3):
        v = RNG.normal(size=3)
        np.testing.assert_allclose(_numbers(jvp_fn(_tensor(T, v))), jac @ v, rtol=1e-6, atol=1e-8)


def test_jacrev_jacfwd_and_hessian_match_finite_differences(T):
    m = RNG.normal(size=(2, 2))

    def f(t):
        return (t @ t).tanh() * t.sum()

    jac = _fd_jacobian(_through(T, f), m)
    rev = _numbers(T.func.jacrev(f)(_tensor(T, m)))
    fwd = _numbers(T.func.jacfwd(f)(_tensor(T, m)))
    assert rev.shape == fwd.shape == (2, 2, 2, 2)
    np.testing.assert_allclose(rev, jac, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(fwd, jac, rtol=1e-6, atol=1e-8)

    def g(t):
        return (t.sin() * t.sum() ** 2).sum()

    x = RNG.normal(size=3)
    hess = _numbers(T.func.hessian(g)(_tensor(T, x)))
    grad_fn = lambda v: _numbers(T.func.grad(g)(_tensor(T, v)))  # noqa: E731
    np.testing.assert_allclose(hess, _fd_jacobian(grad_fn, x), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(hess, hess.T, rtol=1e-12, atol=1e-12)


def test_jacobians_nest_outputs_then_arguments(T):
    x = _tensor(T, [1.0, 2.0])
    jac = T.func.jacrev(lambda a, b: (a * b, (a + b).sum()), argnums=(0, 1))(x, x)
    assert [tuple(j.shape) for j in jac[0]] == [(2, 2), (2, 2)]
    assert [tuple(j.shape) for j in jac[1]] == [(2,), (2,)]
    hess = T.func.hessian(lambda a, b: (a**2 * b).sum(), argnums=(0, 1))(x, x)
    np.testing.assert_allclose(_numbers(hess[0][1]), np.diag([2.0, 4.0]))
    np.testing.assert_allclose(_numbers(hess[1][1]), np.zeros((2, 2)))


def test_vmap_equals_a_loop(T):
    x = _tensor(T, RNG.normal(size=(4, 3)))
    y = _tensor(T, RNG.normal(size=(3, 4)))
    got = T.func.vmap(lambda a, b: (a * b).sum(), in_dims=(0, 1))(x, y)
    loop = T.stack([(x[i] * y[:, i]).sum() for i in range(4)])
    np.testing.assert_allclose(_numbers(got), _numbers(loop))
    moved = T.func.vmap(lambda a: a.exp(), out_dims=1)(x)
    np.testing.assert_allclose(_numbers(moved), _numbers(x.exp().t()))
    pairs = T.func.vmap(T.func.vmap(T.dot, in_dims=(0, None)), in_dims=(None, 0))(x, x)
    np.testing.assert_allclose(_numbers(pairs), _numbers(x @ x.t()))
    tree = T.func.vmap(lambda d: d["a"] - d["b"], in_dims=({"a": 0, "b": None},))(
        {"a": x, "b": x[0]}
    )
    np.testing.assert_allclose(_numbers(tree), _numbers(x - x[0]))


def test_vmap_of_grad_gives_per_sample_gradients(T):
    w = _tensor(T, RNG.normal(size=3))
    data = _tensor(T, RNG.normal(size=(5, 3)))
    targets = _tensor(T, RNG.normal(size=5))

    def loss(weights, sample, target):
        return ((sample @ weights).tanh() - target) ** 2

    per_sample = T.func.vmap(T.func.grad(loss), in_dims=(None, 0, 0))(w, data, targets)
    for i in range(5):
        wi = w.detach().requires_grad_()
        (expected,) = T.autograd.grad(loss(wi, data[i], targets[i]), wi)
        np.testing.assert_allclose(_numbers(per_sample[i]), _numbers(expected), rtol=1e-12)


def test_results_stay_connected_to_inputs_that_require_grad(T):
    x = _tensor(T, [0.3, 0.9]).requires_grad_()
    g = T.func.grad(lambda t: (t.sin() * t).sum())(x)
    assert g.requires_grad
    g.sum().backward()
    second = _fd_jacobian(
        lambda v: _numbers(T.func.grad(lambda t: (t.sin() * t).sum())(_tensor(T, v))), _numbers(x)
    )
    np.testing.assert_allclose(_numbers(x.grad), second.sum(0), rtol=1e-6)
    plain = T.func.grad(lambda t: (t**3).sum())(_tensor(T, [1.0, 2.0]))
    assert not plain.requires_grad and plain.grad_fn is None


def test_functional_call_swaps_and_restores(T):
    lin = T.nn.Linear(2, 1).double()
    original = lin.weight
    x = _tensor(T, [[1.0, 2.0]])
    out = T.func.functional_call(lin, {"weight": _tensor(T, [[3.0, 4.0]])}, (x,))
    assert float(out) == pytest.approx(11.0 + float(lin.bias))
    assert lin.weight is original
    with pytest.raises(RuntimeError):
        T.func.functional_call(lin, {"weight": _tensor(T, [[1.0, 2.0, 3.0]])}, (x,))
    assert lin.weight is original
    with pytest.raises(RuntimeError, match="Missing key\\(s\\): 'bias'"):
        T.func.functional_call(lin, {"weight": lin.weight}, (x,), strict=True)


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [
        (
            lambda T, x: T.func.grad(lambda t: t * 2)(x),
            RuntimeError,
            "Expected f(*args) to return a scalar Tensor, got tensor with 1 dims",
        ),
        (lambda T, x: T.func.grad(lambda t: t.sum(), argnums=1)(x), RuntimeError, "Got argnum=1"),
        (lambda T, x: T.func.grad(lambda t: t.sum())(2.0), ValueError, "must be Tensor"),
        (
            lambda T, x: T.func.vjp(torch_sin, x)[1]((x,)),
            RuntimeError,
            "cotangents: (*,), primal output: *",
        ),
        (lambda T, x: T.func.jvp(torch_sin, x, x), RuntimeError, "Expected primals to be a tuple"),
        (
            lambda T, x: T.func.vmap(lambda a, b: a + b)(x, T.ones(2, dtype=T.float64)),
            ValueError,
            "got sizes [3, 2] for the mapped dimension",
        ),
        (lambda T, x: T.func.vmap(lambda a: 1.0)(x), ValueError, "must only return Tensors"),
        (
            lambda T, x: T.autograd.functional.hvp(lambda t: t, x, x),
            RuntimeError,
            "function given to hvp should contain a single element",
        ),
    ],
)
def test_misuse_errors(T, call, kind, message):
    x = _tensor(T, [1.0, 2.0, 3.0])
    with pytest.raises(kind) as info:
        call(T, x)
    assert message in str(info.value)


def torch_sin(t):
    return t.sin()


def test_autograd_functional_products(T):
    x = RNG.uniform(0.5, 1.5, size=3)
    v = RNG.normal(size=3)

    def f(t):
        return (t**3).sum() + t[0] * t[1] * t[2]

    def g(t):
        return t.sin() * t.sum()

    grad_f = lambda a: _numbers(T.func.grad(f)(_tensor(T, a)))  # noqa: E731
    hess = _fd_jacobian(grad_f, x)
    jac = _fd_jacobian(_through(T, g), x)
    functional = T.autograd.functional
    _, hv = functional.hvp(f, _tensor(T, x), _tensor(T, v))
    _, vh = functional.vhp(f, _tensor(T, x), _tensor(T, v))
    _, jv = functional.jvp(g, _tensor(T, x), _tensor(T, v))
    np.testing.assert_allclose(_numbers(hv), hess @ v, rtol=1e-6)
    np.testing.assert_allclose(_numbers(vh), v @ hess, rtol=1e-6)
    np.testing.assert_allclose(_numbers(jv), jac @ v, rtol=1e-6)
    out, jv = functional.jvp(g, _tensor(T, x).requires_grad_(), _tensor(T, v), create_graph=True)
    assert jv.requires_grad


SCRIPT = """\
import torch
from torch.func import grad, vmap, vjp, jacrev, functional_call
x = torch.tensor([1.0, 2.0, 3.0])
print(grad(lambda t: (t ** 2).sum())(x))
out, fn = vjp(torch.sin, x)
print(fn(torch.ones(3))[0])
print(vmap(grad(lambda t: t.sin().sum()))(x.reshape(3, 1)))
print(jacrev(lambda t: t * 2)(x).shape)
lin = torch.nn.Linear(3, 1)
print(functional_call(lin, {"weight": torch.ones(1, 3), "bias": torch.zeros(1)}, (x,)))
print(type(fn).__name__)
"""


def test_transforms_run_in_a_sandboxed_script(script):
    path = script("func.py", SCRIPT)
    result = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", path], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "tensor([2., 4., 6.])"
    assert lines[1] == "tensor([ 0.5403, -0.4161, -0.9900])"
    assert lines[2:5] == ["tensor([[ 0.5403],", "        [-0.4161],", "        [-0.9900]])"]
    assert lines[5] == "torch.Size([3, 3])"
    assert lines[6] == "tensor([6.])"
    assert lines[7] == "function"


def test_returned_functions_do_not_open_the_sandbox(script):
    source = "from torch.func import grad\nf = grad(lambda t: t.sum())\nprint(f.__globals__)\n"
    result = subprocess.run(
        [sys.executable, "-m", "autodiff_cli", "run", script("g.py", source)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "__globals__" in result.stderr and "is not available in scripts" in result.stderr


def test_aux_and_returned_inputs_are_the_callers_tensors(T):
    """PyTorch unwraps what a transform returns: an input given back is the caller's tensor
    (jvp's is an alias of it), an outside tensor is untouched, a computed one keeps only the
    outer graph (issue 30: grad's aux was a CloneBackward0 copy)."""
    x = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = T.tensor([0.5, -1.0, 2.0])
    _, aux = T.func.grad(lambda a: ((a**2).sum(), a), has_aux=True)(x)
    assert aux is x
    _, aux = T.func.grad(lambda a: ((a**2).sum(), y), has_aux=True)(x)
    assert aux is y
    _, aux = T.func.grad(lambda a: ((a**2).sum(), a * 2), has_aux=True)(y)
    assert aux.grad_fn is None and not aux.requires_grad
    _, aux = T.func.grad(lambda a: ((a**2).sum(), a * x), has_aux=True)(y)
    assert type(aux.grad_fn).__name__ == "MulBackward0"
    assert T.func.vjp(lambda a: a, x)[0] is x
    assert T.func.jacrev(lambda a: (a.sin(), a), has_aux=True)(x)[1] is x
    out = T.func.jvp(lambda a: a, (x,), (T.ones(3),))[0]
    assert out is not x and type(out.grad_fn).__name__ == "AliasBackward0"
    aux = T.func.jacfwd(lambda a: (a.sin(), a), has_aux=True)(x)[1]
    assert type(aux.grad_fn).__name__ == "SelectBackward0" and T.equal(aux, x)
    assert T.func.vmap(lambda a: a)(y) is y
    assert T.func.vmap(lambda a: a, in_dims=1, out_dims=-1)(y.reshape(1, 3)).shape == (1, 3)
