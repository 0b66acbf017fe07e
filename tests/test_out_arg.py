"""`out=` wherever PyTorch accepts it (core/out_arg.py): the result written into out (the same
object returned, its version bumped), out's dtype when the result can be cast and PyTorch's error
when not, a wrong-shaped out resized with PyTorch's warning (silently when empty), the refusal of
autograd, tuple outs for (values, indices). Each case runs on the engine and, when importable, on
PyTorch (the `T` fixture). Printed outputs against PyTorch: conformance scripts 1380-1399."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

M = [[0.5, -1.25, 2.0], [3.5, 0.25, -0.75], [1.0, 2.5, -2.0]]
V = [0.5, -1.5, 2.25]

# name -> the function's arguments, built from (T, m, v) where m is 3x3 and v has 3 elements
CASES = {
    "add": lambda T, m, v: (m, v),
    "sub": lambda T, m, v: (m, 2.0),
    "mul": lambda T, m, v: (m, v),
    "div": lambda T, m, v: (m, m.abs() + 1),
    "pow": lambda T, m, v: (m.abs(), 1.5),
    "atan2": lambda T, m, v: (m, v),
    "fmod": lambda T, m, v: (m, 0.75),
    "maximum": lambda T, m, v: (m, v),
    "minimum": lambda T, m, v: (m, v),
    "addcmul": lambda T, m, v: (m, m, v),
    "addcdiv": lambda T, m, v: (m, m, m.abs() + 1),
    "exp": lambda T, m, v: (m,),
    "tanh": lambda T, m, v: (m,),
    "sin": lambda T, m, v: (m,),
    "sigmoid": lambda T, m, v: (m,),
    "log": lambda T, m, v: (m.abs() + 0.5,),
    "sqrt": lambda T, m, v: (m.abs(),),
    "abs": lambda T, m, v: (m,),
    "neg": lambda T, m, v: (m,),
    "floor": lambda T, m, v: (m,),
    "square": lambda T, m, v: (m,),
    "clamp": lambda T, m, v: (m, -0.5, 1.0),
    "round": lambda T, m, v: (m,),
    "sign": lambda T, m, v: (m,),
    "eq": lambda T, m, v: (m, m),
    "lt": lambda T, m, v: (m, v),
    "where": lambda T, m, v: (m > 0, m, v),
    "sum": lambda T, m, v: (m, 0),
    "mean": lambda T, m, v: (m, 1),
    "prod": lambda T, m, v: (m, 0),
    "amax": lambda T, m, v: (m, 0),
    "argmax": lambda T, m, v: (m, 1),
    "std": lambda T, m, v: (m, 0),
    "logsumexp": lambda T, m, v: (m, 1),
    "cumsum": lambda T, m, v: (m, 1),
    "cumprod": lambda T, m, v: (m, 0),
    "all": lambda T, m, v: (m > 0, 1),
    "norm": lambda T, m, v: (m,),
    "softmax": lambda T, m, v: (m, 1),
    "matmul": lambda T, m, v: (m, v),
    "mm": lambda T, m, v: (m, m),
    "bmm": lambda T, m, v: (m[None], m[None]),
    "addmm": lambda T, m, v: (m, m, m),
    "mv": lambda T, m, v: (m, v),
    "dot": lambda T, m, v: (v, v),
    "outer": lambda T, m, v: (v, v),
    "tril": lambda T, m, v: (m,),
    "cat": lambda T, m, v: ([m, m], 1),
    "stack": lambda T, m, v: ([v, v],),
    "index_select": lambda T, m, v: (m, 1, T.tensor([2, 0])),
    "gather": lambda T, m, v: (m, 1, T.tensor([[0, 2], [1, 1], [2, 0]])),
    "arange": lambda T, m, v: (0, 3, 0.5),
    "linspace": lambda T, m, v: (0, 1, 5),
    "zeros": lambda T, m, v: (2, 3),
    "ones": lambda T, m, v: ((4,),),
    "full": lambda T, m, v: ((2,), 1.5),
    "eye": lambda T, m, v: (3,),
}
FACTORIES = {"arange", "linspace", "zeros", "ones", "full", "eye"}
# (PyTorch's softmax with out= records a NotImplemented grad_fn; the engine refuses it)
DIFFERENTIABLE = sorted(set(CASES) - FACTORIES - {"eq", "lt", "argmax", "all", "softmax"})
WARNING = (
    "An output with one or more elements was resized since it had shape [7], which does not match "
    "the required output shape [{}]. This behavior is deprecated, and in a future PyTorch release "
    "outputs will not be resized unless they have zero elements. You can explicitly reuse an out "
    "tensor t by resizing it, inplace, to zero elements with t.resize_(0)."
)


def _args(T, name: str) -> tuple:
    return CASES[name](T, T.tensor(M), T.tensor(V))


def _values(t) -> np.ndarray:
    return np.array(t.tolist())


@pytest.mark.parametrize("name", sorted(CASES))
def test_out_receives_the_result(T, name: str) -> None:
    fn = getattr(T, name)
    expected = fn(*_args(T, name))
    out = T.empty(0, dtype=expected.dtype)
    before = out._version
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an empty out is resized silently
        result = fn(*_args(T, name), out=out)
    assert result is out
    assert out.shape == expected.shape and out.dtype == expected.dtype
    assert np.array_equal(_values(out), _values(expected))
    assert out._version > before
    assert not out.requires_grad and out.grad_fn is None


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_shape_out_is_written_in_place(T, name: str) -> None:
    fn = getattr(T, name)
    expected = fn(*_args(T, name))
    out = T.full(tuple(expected.shape), 7, dtype=expected.dtype)
    alias = out.view(-1)  # shares out's memory: the values land there too
    fn(*_args(T, name), out=out)
    assert np.array_equal(_values(alias), _values(expected).reshape(-1))


@pytest.mark.parametrize("name", sorted(CASES))
def test_wrong_shaped_out_is_resized_with_the_warning(T, name: str) -> None:
    fn = getattr(T, name)
    expected = fn(*_args(T, name))
    out = T.zeros(7, dtype=expected.dtype)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*_args(T, name), out=out)
    assert out.shape == expected.shape
    assert np.array_equal(_values(out), _values(expected))
    messages = [str(w.message).split(" (Triggered internally")[0] for w in caught]
    if name == "arange":  # its own words
        assert messages == [
            "The number of elements in the out tensor of shape [7] is 7 which does not match the "
            "computed number of elements 6. Note that this may occur as a result of rounding "
            "error. The out tensor will be resized to a tensor of shape (6,)."
        ]
    elif name in FACTORIES:  # the others resize their out silently
        assert messages == []
    else:
        shape = ", ".join(map(str, expected.shape))
        assert messages == [WARNING.format(shape)]
        assert all(w.category is UserWarning for w in caught)


@pytest.mark.parametrize("name", ["add", "exp", "mul", "sin", "eq", "mean", "std", "cat", "outer"])
def test_result_into_a_wider_out_is_cast(T, name: str) -> None:
    fn = getattr(T, name)
    expected = fn(*_args(T, name))
    out = T.empty(0, dtype=T.float64)
    assert fn(*_args(T, name), out=out) is out
    assert out.dtype == T.float64 and out.shape == expected.shape
    np.testing.assert_allclose(_values(out), _values(expected).astype(float), rtol=1e-6)


DTYPE_ERRORS = [
    ("add", "long", RuntimeError, "result type Float can't be cast to the desired output type Long"),
    ("exp", "bool", RuntimeError, "result type Float can't be cast to the desired output type Bool"),
    ("mean", "long", RuntimeError, "result type Float can't be cast to the desired output type Long"),
    ("mm", "float64", RuntimeError, "Expected out tensor to have dtype float, but got double instead"),
    ("matmul", "long", RuntimeError, "Expected out tensor to have dtype float, but got long int instead"),
    ("gather", "float64", RuntimeError, "Expected out tensor to have dtype float, but got double instead"),
    ("argmax", "int32", RuntimeError, "Expected out tensor to have dtype long int, but got int instead"),
    ("floor", "float64", RuntimeError, "Found dtype Double but expected Float"),
    ("clamp", "long", RuntimeError, "Found dtype Long but expected Float"),
    ("cat", "long", TypeError, "torch.cat(): input types can't be cast to the desired output type Long"),
    ("amax", "float64", RuntimeError, "Expected the dtype for input and out to match, but got Float for input's dtype and Double for out's dtype."),
    ("where", "float64", RuntimeError, "Expected out type to be Float but got Double"),
    ("dot", "float64", RuntimeError, "result dtype Double does not match input dtype Float"),
    ("index_select", "float64", RuntimeError, "index_select(): self and result must have the same scalar type"),
    ("logsumexp", "long", RuntimeError, "logsumexp(): Expected floating point type for result tensor, but got: Long"),
    ("all", "float32", RuntimeError, "all only supports bool tensor for result, got: Float"),
    ("arange", "bool", NotImplementedError, "\"arange_cpu\" not implemented for 'Bool'"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "dtype", "error", "message"), DTYPE_ERRORS)
def test_out_dtype_errors(T, name: str, dtype: str, error: type, message: str) -> None:
    out = T.zeros(2, dtype=getattr(T, dtype))
    with pytest.raises(error) as caught:
        getattr(T, name)(*_args(T, name), out=out)
    assert str(caught.value) == message


def test_computed_in_outs_dtype(T) -> None:
    """sum/cumsum/prod and the factories compute in out's dtype: the inputs are cast first."""
    x = T.tensor([0.6, 0.6, 2.5])
    assert T.sum(x, 0, out=T.empty(0, dtype=T.long)).item() == 2
    assert T.cumsum(x, 0, out=T.empty(0, dtype=T.long)).tolist() == [0, 0, 2]
    assert T.full((2,), 1.7, out=T.empty(0, dtype=T.long)).tolist() == [1, 1]
    assert T.arange(0, 3, 1.5, out=T.empty(0, dtype=T.long)).tolist() == [0, 1, 2]
    assert T.add(x, x, out=T.empty(0, dtype=T.float64)).dtype == T.float64


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_autograd_is_refused_with_an_input_requiring_grad(T, name: str) -> None:
    args = tuple(
        a.detach().requires_grad_() if hasattr(a, "dtype") and a.dtype == T.float32 else a
        for a in _args(T, name)
    )
    if name in ("cat", "stack"):
        args = ([t.detach().requires_grad_() for t in args[0]], *args[1:])
    canonical = {"square": "pow", "outer": "mul", "norm": "linalg_vector_norm"}.get(name, name)
    out = T.empty(0)
    with pytest.raises(RuntimeError) as caught:
        getattr(T, name)(*args, out=out)
    assert str(caught.value) == (
        f"{canonical}(): functions with out=... arguments don't support automatic "
        "differentiation, but one of the arguments requires grad."
    )
    assert out.shape == (0,)
    with T.no_grad():  # allowed without grad mode; out stays a plain tensor
        result = getattr(T, name)(*args, out=out)
    assert result is out and out.grad_fn is None and not out.requires_grad


def test_autograd_is_refused_for_an_out_requiring_grad(T) -> None:
    out = T.zeros(3, requires_grad=True)
    message = "functions with out=... arguments don't support automatic differentiation"
    with pytest.raises(RuntimeError, match=f"^exp\\(\\): {message}"):
        T.exp(T.tensor(V), out=out)
    with pytest.raises(RuntimeError, match=f"^aten::zeros\\(\\): {message}"):
        T.zeros(3, out=out)
    with pytest.raises(RuntimeError, match=f"^aten::rand\\(\\): {message}"):
        T.rand(3, out=out)
    with T.no_grad():
        T.exp(T.tensor([0.0, 1.0, 2.0]), out=out)
    assert out.is_leaf and out.requires_grad
    np.testing.assert_allclose(_values(out.detach()), np.exp([0.0, 1.0, 2.0]), rtol=1e-6)


@pytest.mark.parametrize(
    ("name", "args", "kind"),
    [
        ("max", (1,), "max_out"),
        ("min", (0,), "min_out"),
        ("median", (1,), "median_out"),
        ("sort", (), "sort_out"),
        ("topk", (2,), "topk_out"),
        ("kthvalue", (2,), "kthvalue_out"),
    ],
)
def test_values_and_indices_into_a_tuple(T, name: str, args: tuple, kind: str) -> None:
    m = T.tensor(M)
    expected = getattr(T, name)(m, *args)
    values, indices = T.empty(0), T.empty(0, dtype=T.long)
    result = getattr(T, name)(m, *args, out=(values, indices))
    assert type(result).__name__ == kind
    assert result.values is values and result.indices is indices
    assert result[0] is values and result[1] is indices
    assert values.tolist() == expected.values.tolist()
    assert indices.tolist() == expected.indices.tolist()
    assert f"torch.return_types.{kind}(\nvalues=" in repr(result)
    with pytest.raises(TypeError, match="^expected tuple of 2 elements but got 1$"):
        getattr(T, name)(m, *args, out=(T.empty(0),))
    with pytest.raises(RuntimeError, match="long int, but got float instead|indices|Long"):
        getattr(T, name)(m, *args, out=(T.empty(0), T.empty(0)))


def test_out_argument_types(T) -> None:
    x = T.tensor(V)
    with pytest.raises(TypeError, match="^exp\\(\\): argument 'out' must be Tensor, not list$"):
        T.exp(x, out=[T.empty(0)])
    with pytest.raises(TypeError, match="^topk\\(\\): argument 'out' must be tuple of Tensors"):
        T.topk(x, 2, out=T.empty(0))
    with pytest.raises(TypeError, match="^add\\(\\): argument 'out' must be Tensor, not str$"):
        T.add(x, x, out="x")


def test_out_may_be_an_input(T) -> None:
    x = T.tensor(V)
    assert T.mul(x, x, out=x) is x
    assert x.tolist() == [0.25, 2.25, 5.0625]
    m = T.tensor(M)
    T.cumsum(m, 1, out=m)
    assert np.allclose(_values(m), np.cumsum(M, axis=1))


def test_random_draws_into_out_match_fresh_draws(T) -> None:
    T.manual_seed(3)
    fresh = T.rand(4)
    T.manual_seed(3)
    out = T.zeros(4, dtype=T.float64)
    assert T.rand(4, out=out) is out and out.dtype == T.float64
    T.manual_seed(3)
    assert T.rand(4, dtype=T.float64).tolist() == out.tolist()
    T.manual_seed(3)
    drawn = T.randint(0, 10, (5,), out=T.empty(0, dtype=T.long))
    T.manual_seed(3)
    assert drawn.tolist() == T.randint(0, 10, (5,)).tolist()
    assert fresh.shape == (4,)


def test_an_expanded_out_is_refused(T) -> None:
    base = T.ones(1)
    with pytest.raises(RuntimeError) as caught:
        T.add(T.ones(3), 1, out=base.expand(3))
    assert str(caught.value) == (
        "unsupported operation: more than one element of the written-to tensor refers to a "
        "single memory location. Please clone() the tensor before performing the operation."
    )
    assert base.tolist() == [1.0]


def test_sum_prod_median_take_out_only_with_a_dim(T) -> None:
    m = T.ones(2, 2)
    with pytest.raises(TypeError, match=r"^sum\(\) received an invalid combination of arguments"):
        T.sum(m, out=T.empty(0))
    with pytest.raises(TypeError, match=r"^prod\(\) received an invalid combination"):
        T.prod(m, out=T.empty(0))
    with pytest.raises(
        TypeError, match='^median\\(\\) missing 1 required positional arguments: "dim"$'
    ):
        T.median(m, out=T.empty(0))
    assert T.mean(m, out=T.empty(0)).item() == 1.0  # these have an all-elements out= overload
    assert T.max(m, out=T.empty(0)).item() == 1.0


def test_composite_linalg_norm_copies_into_out_with_a_graph(T) -> None:
    """linalg.norm/matrix_norm are composites: out receives a copy that carries CopyBackwards
    (the gradient flows); vector_norm, det and inv refuse autograd as the other functions."""
    x = T.tensor([[3.0, 0.0], [0.0, 4.0]], requires_grad=True)
    out = T.empty(0)
    result = T.linalg.norm(x, out=out)
    assert (
        result is out and out.grad_fn.name() == "torch::autograd::CopyBackwards" and not out.is_leaf
    )
    out.backward()
    np.testing.assert_allclose(_values(x.grad), [[0.6, 0.0], [0.0, 0.8]], rtol=1e-6)
    with pytest.raises(RuntimeError, match="^linalg.norm expected out tensor dtype Float but got"):
        T.linalg.norm(x.detach(), out=T.empty(0, dtype=T.float64))
    for fn, name in [(T.linalg.vector_norm, "linalg_vector_norm"), (T.linalg.det, "_linalg_det")]:
        with pytest.raises(RuntimeError, match=f"^{name}\\(\\): functions with out="):
            fn(x, out=T.empty(0))
    inverse = T.linalg.inv(x.detach(), out=T.empty(0))
    np.testing.assert_allclose(_values(inverse), [[1 / 3, 0.0], [0.0, 0.25]], rtol=1e-6)


def test_dtype_given_with_out_must_be_outs(T) -> None:
    m = T.ones(2, 2)
    with pytest.raises(RuntimeError, match="^dtype Double does not match dtype of out parameter"):
        T.zeros(2, dtype=T.float64, out=T.empty(0))
    with pytest.raises(RuntimeError, match="^Expected out tensor to have dtype double, but got"):
        T.sum(m, 0, dtype=T.float64, out=T.empty(0))
    assert T.sum(m, 0, dtype=T.float64, out=T.empty(0, dtype=T.float64)).tolist() == [2.0, 2.0]


def test_normal_with_a_tensor_mean_spreads_over_out(T) -> None:
    T.manual_seed(5)
    out = T.empty(2, 4)
    assert T.normal(T.zeros(4), 2.0, out=out) is out and out.shape == (2, 4)
    T.manual_seed(5)
    assert out.tolist() == T.normal(T.zeros(2, 4), 2.0).tolist()
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(4\) must match"):
        T.normal(T.zeros(4), 1.0, out=T.empty(0))


@pytest.mark.parametrize("name", ["cat", "stack", "index_select", "gather"])
def test_an_out_that_is_an_input_is_refused_where_pytorch_refuses(T, name: str) -> None:
    t = T.tensor([1.0, 2.0])
    calls = {
        "cat": lambda: T.cat([t, t], out=t),
        "stack": lambda: T.stack([t, t], out=t),
        "index_select": lambda: T.index_select(t, 0, T.tensor([1, 0]), out=t),
        "gather": lambda: T.gather(t, 0, T.tensor([1, 0]), out=t),
    }
    with pytest.raises(RuntimeError, match="^unsupported operation: some elements of the input"):
        calls[name]()


def test_resize_as_the_warning_advises(T) -> None:
    """`t.resize_(0)` before reusing t as out: no warning; resize_ keeps the first elements and,
    growing back within the tensor's own memory, its old values."""
    values, doubled = T.ones(5), T.ones(5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        T.linspace(0, 1, 3, out=values.resize_(0))
        T.mul(values, 2, out=doubled.resize_(0))
    assert doubled.tolist() == [0.0, 1.0, 2.0]
    x = T.arange(6.0)
    before = x._version
    assert x.resize_(2, 2) is x and x.tolist() == [[0.0, 1.0], [2.0, 3.0]]
    assert x._version == before + 1
    x.resize_(2).add_(10)
    assert x.resize_(4).tolist() == [10.0, 11.0, 2.0, 3.0]
    assert T.arange(4.0).resize_as_(T.ones(1, 3)).tolist() == [[0.0, 1.0, 2.0]]
    with pytest.raises(RuntimeError, match="^cannot resize variables that require grad$"):
        T.ones(2, requires_grad=True).resize_(3)
    with pytest.raises(TypeError, match="must be tuple of ints, not float$"):
        T.ones(2).resize_(2.5)


def test_resize_never_reaches_past_the_tensors_own_memory() -> None:
    """A view grown past its end gets new zeros, not the rest of the array it was cut from (the
    sandbox's rule: a tensor exposes only its own memory); a huge size hits the element cap."""
    import autodiff_cli.engine as E

    big = E.arange(10.0)
    view = big[:3]
    view.resize_(6)
    assert view.tolist() == [0.0, 1.0, 2.0, 0.0, 0.0, 0.0]
    view.fill_(-1.0)
    assert big.tolist() == list(map(float, range(10)))
    with pytest.raises(RuntimeError):
        E.ones(2).resize_(10**12)
