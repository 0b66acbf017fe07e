"""Numeric choices of the engine's kernels, checked against plain numpy and values recorded from
PyTorch 2.13: a broadcast bias's gradient is the sum of the rows as `Tensor.sum(0)` computes
it; tanh's backward rounds `1 - y²` once (PyTorch's fused kernel); binary_cross_entropy_with_logits is PyTorch's
`(1 - t)·x - log_sigmoid(x)`, so its infinities come out as PyTorch's; matrix products are
numpy's dot (`kernels.dot`), equal to matmul's; the fast paths, which tell a floating
tensor by its dtype's identity, leave every other tensor to the general path; a full sum's
gradient is expanded as np.broadcast_to would; and nll_loss picks each row's target entry, so
a masked (-inf) logit elsewhere leaves cross_entropy finite, as in PyTorch."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import autodiff_cli.engine as E
from autodiff_cli.engine.core.formula_backends import NumpyBackend


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("rows,cols", [(100, 16), (1, 5), (0, 3), (4096, 3), (7, 1), (32, 27)])
def test_bias_gradient_is_the_sum_of_the_rows_bit_for_bit(
    dtype: type, rows: int, cols: int
) -> None:
    """The bias gradient is `g.sum(0)` as the engine's sum computes it (not a BLAS product with
    ones, whose order depends on the kernel), so a hand-written `dlogits.sum(0)` equals it."""
    g = np.random.default_rng(rows + cols).standard_normal((rows, cols)).astype(dtype)
    out = NumpyBackend.conform(g, (cols,), np.dtype(dtype))
    assert out.shape == (cols,) and out.dtype == dtype
    assert np.array_equal(out, E.tensor(g).sum(0).numpy())


def test_bias_gradient_propagates_nan_and_infinities() -> None:
    g = np.ones((4, 4), np.float32)
    g[1, 0] = np.nan
    g[2, 1] = np.inf
    g[0, 2], g[3, 2] = np.inf, -np.inf
    out = NumpyBackend.conform(g, (4,), np.dtype(np.float32))
    assert math.isnan(out[0]) and out[1] == np.inf and math.isnan(out[2]) and out[3] == 4.0


@pytest.mark.parametrize(
    "g,shape",
    [
        (np.arange(12, dtype=np.float16).reshape(4, 3), (3,)),  # no BLAS for float16
        (np.arange(24, dtype=np.float32).reshape(2, 3, 4), (3, 4)),  # not a matrix
        (np.arange(12, dtype=np.float64).reshape(4, 3)[:, ::2], (2,)),  # strided
    ],
)
def test_other_bias_gradients_sum_as_numpy_does(g: np.ndarray, shape: tuple) -> None:
    out = NumpyBackend.conform(g, shape, g.dtype)
    np.testing.assert_array_equal(out, g.sum(0))
    assert out.dtype == g.dtype


def test_bias_gradient_through_a_layer() -> None:
    rng = np.random.default_rng(3)
    x = E.tensor(rng.standard_normal((50, 3)).astype(np.float32))
    w = E.tensor(rng.standard_normal((3, 4)).astype(np.float32), requires_grad=True)
    b = E.tensor(np.zeros(4, np.float32), requires_grad=True)
    weights = rng.standard_normal((50, 4)).astype(np.float32)
    ((x @ w + b) * E.tensor(weights)).sum().backward()
    np.testing.assert_allclose(b.grad.numpy(), weights.sum(0), rtol=1e-5, atol=1e-5)
    assert b.grad.dtype == E.float32


# recorded from PyTorch 2.13 (F.binary_cross_entropy_with_logits(x, t, reduction="none"))
_LOGITS = [-100.0, -3.0, -0.5, 0.0, 0.5, 3.0, 100.0, math.inf, -math.inf]
_TARGETS = [0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0]
_TORCH_LOSS = [0.0, 3.0486, 0.47408, 0.69315, 0.47408, 3.0486, 3.9236e-44, math.inf, math.nan]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_bce_with_logits_at_the_extremes_is_pytorchs(dtype: str) -> None:
    x = E.tensor(_LOGITS, dtype=getattr(E, dtype))
    t = E.tensor(_TARGETS, dtype=getattr(E, dtype))
    loss = E.nn.functional.binary_cross_entropy_with_logits(x, t, reduction="none").numpy()
    np.testing.assert_allclose(loss, _TORCH_LOSS, rtol=1e-4, atol=1e-40)  # nan == nan here
    assert loss[0] == 0.0  # PyTorch: -100 + log(1 + e^100) is exactly 0 in floating point


# the same with pos_weight=2 (recorded from PyTorch 2.13), and the gradient of the sum
_TORCH_LOSS_POS = [0.0, 6.0972, 0.47408, 1.3863, 0.94815, 3.0486, 7.8473e-44, math.inf, math.nan]
_TORCH_GRAD_POS = [0.0, -1.9051, 0.3775, -1.0, -0.7551, 0.9526, 0.0, 1.0, -2.0]


def test_bce_with_logits_and_pos_weight_at_the_extremes_is_pytorchs() -> None:
    x = E.tensor(_LOGITS, requires_grad=True)
    t = E.tensor(_TARGETS)
    F = E.nn.functional
    loss = F.binary_cross_entropy_with_logits(x, t, reduction="none", pos_weight=E.full((9,), 2.0))
    np.testing.assert_allclose(loss.detach().numpy(), _TORCH_LOSS_POS, rtol=1e-4, atol=1e-40)
    loss.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), _TORCH_GRAD_POS, rtol=0, atol=1e-4)  # (as printed)


# -- products: numpy's dot (kernels.dot) ----------------------------------------------------


def _layouts(a: np.ndarray, b: np.ndarray) -> list:
    """The same product with contiguous, Fortran-ordered, transposed and reversed operands."""
    return [
        (a, b),
        (np.asfortranarray(a), np.asfortranarray(b)),
        (np.ascontiguousarray(a.T).T, b),
        (a[::-1], b[:, ::-1]),
    ]


@pytest.mark.parametrize(
    "dtype", [np.float16, np.float32, np.float64, np.int32, np.int64, np.uint8]
)
@pytest.mark.parametrize(
    "n,k,m", [(100, 2, 16), (100, 16, 1), (1, 16, 100), (7, 33, 65), (3, 0, 4)]
)
def test_mm_equals_numpy_matmul(dtype: type, n: int, k: int, m: int) -> None:
    """`@` of two matrices computes with numpy's dot (less overhead than matmul on small
    matrices): integers come out exact, floats within their rounding, in every layout."""
    rng = np.random.default_rng(n * 100 + k * 10 + m)
    a = (rng.standard_normal((n, k)) * 3).astype(dtype)
    b = (rng.standard_normal((k, m)) * 3).astype(dtype)
    for x, y in _layouts(a, b):
        out = (E.from_numpy(x) @ E.from_numpy(y)).numpy()
        with np.errstate(all="ignore"):
            want = np.matmul(x, y)
        assert out.dtype == want.dtype and out.shape == want.shape
        if np.dtype(dtype).kind == "f":
            tol = {np.float16: 1e-2, np.float32: 1e-5, np.float64: 1e-12}[dtype]
            np.testing.assert_allclose(out, want, rtol=tol, atol=tol * max(k, 1) * 9)
        else:
            np.testing.assert_array_equal(out, want)


def test_mm_gradients_equal_matmul_products() -> None:
    rng = np.random.default_rng(5)
    a_np, b_np = rng.standard_normal((5, 3)), rng.standard_normal((3, 4))
    g_np = rng.standard_normal((5, 4))
    a, b = E.tensor(a_np, requires_grad=True), E.tensor(b_np, requires_grad=True)
    (a @ b).backward(E.tensor(g_np))
    np.testing.assert_allclose(a.grad.numpy(), g_np @ b_np.T, rtol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), a_np.T @ g_np, rtol=1e-12)


def test_kernels_dot_is_numpy_dot_without_its_dispatch() -> None:
    from autodiff_cli.engine.core import kernels

    a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(kernels.dot(a, b), np.dot(a, b))
    assert kernels.dot is getattr(np.dot, "_implementation", np.dot)


# -- the fast paths tell a floating tensor by its dtype (dtypes.FLOAT_DTYPES) ----------------


def test_integer_tensors_leave_the_fast_paths_and_compute_in_the_default_dtype() -> None:
    ints = E.arange(3)
    product = ints * 0.5  # apply_number: numpy alone would give float64
    assert product.dtype == E.float32 and product.tolist() == [0.0, 0.5, 1.0]
    tanh = E.tanh(ints)  # a unary op's forward: computed in the default dtype
    assert tanh.dtype == E.float32
    np.testing.assert_allclose(tanh.numpy(), np.tanh([0.0, 1.0, 2.0]), rtol=1e-6)
    message = "result type Float can't be cast to the desired output type Long"
    with E.no_grad(), pytest.raises(RuntimeError, match=message):
        ints -= 1.5  # in place: PyTorch refuses to cast a float result into an integer tensor
    assert ints.tolist() == [0, 1, 2]


@pytest.mark.parametrize("dtype", [E.float16, E.float32, E.float64])
def test_each_floating_dtype_takes_the_fast_paths(dtype: object) -> None:
    x = E.tensor([0.5, 2.0], dtype=dtype, requires_grad=True)
    y = E.tanh(x * 2.0 + x) * x
    assert y.dtype == dtype and type(y.grad_fn).__name__ == "MulBackward0"
    y.sum().backward()
    assert x.grad.dtype == dtype


@pytest.mark.parametrize("other", ["tensor", "float", "scalar"])
def test_comparisons_of_tensors_that_require_grad_record_nothing(other: str) -> None:
    x = E.tensor([0.5, 2.0], requires_grad=True)
    y = {"tensor": E.tensor([1.0, 1.0]), "float": 1.0, "scalar": E.tensor(1.0)}[other]
    for result in (x > y, x <= y, x == y):
        assert result.dtype == E.bool and result.grad_fn is None and not result.requires_grad
    s = E.tensor(2.0, requires_grad=True)  # two 0-d tensors: numpy scalars of one class
    assert (s > E.tensor(1.0)).grad_fn is None and (s * E.tensor(3.0)).grad_fn is not None


def test_a_byte_swapped_float_tensor_takes_the_general_path() -> None:
    """`dtypes.FLOAT_DTYPES` finds native dtypes by identity; a big-endian float array is not
    among them and is computed by the general path, with the same values and gradients."""
    native = np.array([0.25, -1.5, 2.0], np.float32)
    swapped = native.astype(">f4")
    grads = []
    for data in (native, swapped):
        x = E.from_numpy(data.copy()).requires_grad_(True)
        y = ((x * 2.0 + x).tanh() * 0.5).sum()
        y.backward()
        grads.append(x.grad.numpy().astype(np.float64))
        with E.no_grad():
            x -= 0.1 * x.grad
        np.testing.assert_allclose(
            x.detach().numpy().astype(np.float64), native - 0.1 * grads[-1], rtol=1e-6
        )
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int64])
@pytest.mark.parametrize("shape", [(), (1,), (64, 16), (0, 3), (2, 1, 3)])
def test_expanding_a_zero_d_gradient_is_numpys_broadcast(dtype: type, shape: tuple) -> None:
    """A full sum's or mean's gradient is viewed with every stride 0, as np.broadcast_to does."""
    g = np.array(1.5, dtype)
    out = NumpyBackend.expand(g, shape)
    reference = np.broadcast_to(g, shape)
    assert out.shape == reference.shape and out.dtype == reference.dtype
    assert out.strides == reference.strides and np.shares_memory(out, g) == (out.size > 0)
    np.testing.assert_array_equal(out, reference)
    assert not out.flags.writeable  # an expanded gradient is refused in-place writes
    with pytest.raises(ValueError):
        out[...] = 0
    assert NumpyBackend.expand(np.float32(2.0), (2, 2)).tolist() == [[2.0, 2.0], [2.0, 2.0]]


def test_sum_and_mean_gradients_through_the_zero_d_view() -> None:
    x = E.tensor(np.arange(6, dtype=np.float32).reshape(2, 3), requires_grad=True)
    x.sum().backward()
    x.mean().backward()
    np.testing.assert_array_equal(x.grad._data, np.full((2, 3), 1 + 1 / 6, np.float32))
    assert x.grad._data.flags.writeable and x.grad.dtype == E.float32
    seen = []
    y = E.tensor([1.0, 2.0], requires_grad=True)
    z = y * 1.0
    z.register_hook(lambda g: seen.append(g))
    z.sum().backward()
    with pytest.raises(RuntimeError, match="unsupported operation"):
        seen[0].add_(1.0)  # PyTorch refuses writing into an expanded gradient too


# cross_entropy of logits with -inf (masked classes), as PyTorch 2.13 prints them: the loss of a
# row comes from its target's log-probability alone (0 · -inf elsewhere is not NaN)
_MASKED_LOGITS = [[0.0, -math.inf, 1.0], [2.0, 0.5, -math.inf], [-1.0, 3.0, 0.0]]
_MASKED_CASES = [
    ({}, 0.2573375105857849, [[0.13447071611881256, 0.0, -0.13447070121765137],
                              [-0.09121277928352356, 0.09121274948120117, 0.0], [0.0, 0.0, 0.0]]),
    ({"weight": [0.5, 2.0, 1.5]}, 0.2852995991706848,
     [[0.20170608162879944, 0.0, -0.20170605182647705],
      [-0.04560638964176178, 0.045606374740600586, 0.0], [0.0, 0.0, 0.0]]),
    ({"reduction": "sum"}, 0.5146750211715698,
     [[0.2689414322376251, 0.0, -0.26894140243530273],
      [-0.18242555856704712, 0.18242549896240234, 0.0], [0.0, 0.0, 0.0]]),
    ({"reduction": "none"}, [0.31326165795326233, 0.2014133334159851, 0.0],
     [[0.2689414322376251, 0.0, -0.26894140243530273],
      [-0.18242555856704712, 0.18242549896240234, 0.0], [0.0, 0.0, 0.0]]),
]  # fmt: skip


@pytest.mark.parametrize("options,loss,grad", _MASKED_CASES)
def test_cross_entropy_with_masked_logits_is_pytorchs(options: dict, loss, grad) -> None:
    x = E.tensor(_MASKED_LOGITS, requires_grad=True)
    kwargs = dict(options)
    if "weight" in kwargs:
        kwargs["weight"] = E.tensor(kwargs["weight"])
    out = E.nn.functional.cross_entropy(x, E.tensor([2, 0, -100]), **kwargs)
    out.sum().backward()
    np.testing.assert_allclose(out.tolist(), loss, rtol=1e-6)
    np.testing.assert_allclose(x.grad.tolist(), grad, rtol=1e-6, atol=1e-7)


def test_nll_loss_picks_the_target_and_reports_the_first_bad_target() -> None:
    F = E.nn.functional
    assert F.nll_loss(E.tensor([[-math.inf, -1.0]]), E.tensor([1])).item() == 1.0
    with pytest.raises(IndexError, match="^Target 7 is out of bounds.$"):  # (-100 is ignored)
        F.nll_loss(E.tensor([[0.5, -1.0], [1.0, 2.0], [1.0, 2.0]]), E.tensor([-100, 7, -3]))


# sign at NaN is 0 in PyTorch (its kernel is `(0 < x) - (x < 0)`), and so are the gradients built
# on it; elu's gradient takes its positive slope at NaN (`x <= 0 ? negative : positive`).
# Values printed by PyTorch 2.13 for x = [nan, 0, -0, 2, -3, inf, -inf]:
_SIGN_INPUT = [math.nan, 0.0, -0.0, 2.0, -3.0, math.inf, -math.inf]
_SIGNS = [0.0, 0.0, 0.0, 1.0, -1.0, 1.0, -1.0]
_NAN_GRADIENTS = {
    "abs": (lambda x: x.abs().sum(), _SIGNS),
    "l1_loss": (lambda x: E.nn.functional.l1_loss(x, E.zeros(7), reduction="sum"), _SIGNS),
    "norm1": (lambda x: x.norm(p=1), _SIGNS),
    "elu": (lambda x: E.nn.functional.elu(x).sum(),
            [1.0, 1.0, 1.0, 1.0, 0.049787066876888275, 1.0, 0.0]),
    "elu_alpha": (lambda x: E.nn.functional.elu(x, alpha=0.5).sum(),
                  [1.0, 0.5, 0.5, 1.0, 0.024893533438444138, 1.0, 0.0]),
    "selu": (lambda x: E.nn.functional.selu(x).sum(),
             [1.0507010221481323, 1.7580993175506592, 1.7580993175506592, 1.0507010221481323,
              0.08753060549497604, 1.0507010221481323, 0.0]),
}  # fmt: skip


def test_sign_is_zero_at_nan() -> None:
    x = E.tensor(_SIGN_INPUT)
    assert E.sign(x).tolist() == _SIGNS and E.sgn(x).tolist() == _SIGNS
    assert x.sign().tolist() == _SIGNS
    assert repr(E.sign(E.tensor(math.nan))) == "tensor(0.)"  # a 0-d tensor's numpy scalar
    assert E.sign(E.tensor([math.nan], dtype=E.float64)).dtype == E.float64
    assert E.sign(E.tensor([3, -2, 0])).tolist() == [1, -1, 0]  # integers as before
    y = E.tensor([math.nan, 1.0])
    y.sign_()
    assert y.tolist() == [0.0, 1.0]


@pytest.mark.parametrize("name", sorted(_NAN_GRADIENTS))
def test_gradients_at_nan_and_infinities_are_pytorchs(name: str) -> None:
    loss, expected = _NAN_GRADIENTS[name]
    x = E.tensor(_SIGN_INPUT, requires_grad=True)
    loss(x).backward()
    np.testing.assert_allclose(x.grad.tolist(), expected, rtol=1e-6)


@pytest.mark.parametrize(
    "name,x_grad,other_grad",
    [
        ("maximum", [[0.0, 1.0, 1.0], [0.5, 1.0, 1.0]], [1.5, 2.0, 1.0]),
        ("minimum", [[1.0, 1.0, 1.0], [0.5, 1.0, 0.0]], [0.5, 2.0, 2.0]),
    ],
)
def test_maximum_and_minimum_give_nan_pairs_the_whole_gradient(name, x_grad, other_grad) -> None:
    """PyTorch's `where(self == other, grad / 2, grad)` zeroed where an input loses: with a NaN
    neither loses (values printed by PyTorch 2.13; a tie halves, broadcasting sums)."""
    x = E.tensor([[0.3, 0.6, math.nan], [0.5, 0.9, 2.0]], requires_grad=True)
    other = E.tensor([0.5, math.nan, 1.0], requires_grad=True)
    getattr(E, name)(x, other).sum().backward()
    assert x.grad.tolist() == x_grad and other.grad.tolist() == other_grad


def test_binary_cross_entropy_refuses_nan_probabilities() -> None:
    F = E.nn.functional
    with pytest.raises(RuntimeError, match="^all elements of input should be between 0 and 1$"):
        F.binary_cross_entropy(E.tensor([0.5, math.nan]), E.tensor([0.5, 0.5]))
    assert F.binary_cross_entropy(E.tensor([0.0, 1.0]), E.tensor([0.5, 0.5])).item() == 50.0


_MISMATCH = "^The size of tensor a \\(2\\) must match the size of tensor b \\(3\\) at non-singleton dimension 0$"


@pytest.mark.parametrize(
    "call",
    [
        lambda F: F.mse_loss(E.ones(2, requires_grad=True), E.ones(3)),
        lambda F: F.smooth_l1_loss(E.ones(2), E.ones(3)),
        lambda F: F.huber_loss(E.ones(2), E.ones(3)),
        lambda F: F.l1_loss(E.ones(2), E.ones(3)),
        lambda F: F.cosine_similarity(E.ones(2, 4), E.ones(3, 4)),
        lambda F: E.normal(E.ones(2), E.ones(3)),
    ],
)
def test_shapes_that_do_not_broadcast_give_pytorchs_error(call) -> None:
    """PyTorch's RuntimeError (as PyTorch 2.13 words it), never numpy's ValueError; the losses
    warn about the target's size first, as PyTorch's do."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(RuntimeError, match=_MISMATCH):
            call(E.nn.functional)
    names = call.__code__.co_names
    warned = any("Using a target size" in str(w.message) for w in caught)
    assert warned == any(name.endswith("_loss") for name in names)


def _one_minus_square_exact(values: np.ndarray) -> np.ndarray:
    """`1 - r·r` rounded once to `values`' dtype, by exact rational arithmetic."""
    from fractions import Fraction

    exact = [float(1 - Fraction(float(v)) ** 2) for v in values.tolist()]
    if values.dtype == np.float64:
        return np.array(exact)
    # float64 first would round twice: round the exact value to float32 directly
    out = []
    for v in values.tolist():
        x = 1 - Fraction(float(v)) ** 2
        low = np.float32(float(x))
        candidates = [np.nextafter(low, np.float32(-2)), low, np.nextafter(low, np.float32(2))]
        best = min(
            candidates, key=lambda c: (abs(Fraction(float(c)) - x), int(c.view(np.int32)) & 1)
        )
        out.append(best)
    return np.array(out, np.float32)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_tanh_backward_rounds_one_minus_square_once(dtype: type) -> None:
    """PyTorch's vectorised tanh_backward computes `1 - y²` with a fused multiply-add: one
    rounding (so the textbook `(1 - y**2) * g` differs in the last bit, there as here)."""
    from autodiff_cli.engine.core import kernels

    rng = np.random.RandomState(11)
    r = np.tanh(rng.randn(3000) * np.repeat([3.0, 0.05, 1e-4], 1000)).astype(dtype)
    r[:6] = [0.0, 1.0, -1.0, 0.125, -0.124999, 2.0**-27 + 2.0**-50]
    want = _one_minus_square_exact(r)
    assert np.array_equal(kernels.one_minus_square(r), want)
    assert [kernels.one_minus_square(v) for v in r[:300]] == list(want[:300])
    g = rng.randn(3000).astype(dtype)
    assert np.array_equal(kernels.tanh_backward(g, r), g * want)
    assert not np.array_equal(kernels.tanh_backward(g, r), (1 - r**2) * g)


@pytest.mark.slow
def test_float32_one_minus_square_never_rounds_twice() -> None:
    """Over every positive float32 below 1 (negatives are symmetric): float64's `1 - r·r` is
    exact from 1/8 up, and below it never lies on a float32 halfway point, so one cast to
    float32 rounds as an fma does (kernels.one_minus_square relies on it)."""
    step = 1 << 22
    low, high = int(np.float32(2.0**-14).view(np.int32)), int(np.float32(1.0).view(np.int32))
    for start in range(low, high + 1, step):  # below 2**-14, 1 - r·r is above 1 - 2**-28
        r = np.arange(start, min(start + step, high + 1), dtype=np.int32).view(np.float32)
        r64 = r.astype(np.float64)
        square = r64 * r64
        rest = 1.0 - square
        inexact = (1.0 - rest) - square != 0
        assert not inexact[r >= 0.125].any()
        halfway = (rest.view(np.int64) & 0x1FFFFFFF) == 0x10000000
        assert not (halfway & inexact).any()
