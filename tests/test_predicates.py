"""Predicates and index-producing ops (ops/predicates.py, ops/searching.py): values, dtypes,
shapes, nodes and errors, with the literals PyTorch 2.13 gives for the same calls."""

from __future__ import annotations

import math

import pytest

import autodiff_cli.engine as E

INF, NAN = math.inf, math.nan


def same(t: E.Tensor, values: list | int | float | bool, dtype: E.dtype) -> None:
    """`t` holds exactly `values` (NaN matching NaN) with `dtype`, and records no graph."""
    assert t.dtype == dtype
    assert _nan_safe(t.tolist()) == _nan_safe(values)
    assert t.grad_fn is None and not t.requires_grad


def _nan_safe(value: object) -> object:
    if isinstance(value, list):
        return [_nan_safe(v) for v in value]
    return "nan" if isinstance(value, float) and math.isnan(value) else value


def special() -> E.Tensor:
    return E.tensor([1.0, INF, -INF, NAN, 0.0], requires_grad=True)


# --------------------------------------------------------------------------------------------
# isfinite, isinf, isposinf, isneginf, isreal
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, expected",
    [
        ("isfinite", [True, False, False, False, True]),
        ("isinf", [False, True, True, False, False]),
        ("isposinf", [False, True, False, False, False]),
        ("isneginf", [False, False, True, False, False]),
        ("isreal", [True, True, True, True, True]),
    ],
)
def test_float_predicates(name, expected):
    x = special()
    same(getattr(E, name)(x), expected, E.bool)
    same(getattr(x, name)(), expected, E.bool)


@pytest.mark.parametrize(
    "name, on_ints", [("isfinite", True), ("isinf", False), ("isposinf", False), ("isreal", True)]
)
def test_integer_bool_scalar_and_empty_inputs(name, on_ints):
    fn = getattr(E, name)
    same(fn(E.tensor([1, 2, 3])), [on_ints] * 3, E.bool)
    same(fn(E.tensor([True, False])), [on_ints] * 2, E.bool)
    same(fn(E.tensor(2.0)), name in ("isfinite", "isreal"), E.bool)
    empty = fn(E.zeros(0, 3))
    assert empty.shape == (0, 3) and empty.dtype == E.bool


def test_predicate_out_and_refusals():
    out = E.empty(5, dtype=E.bool)
    assert E.isposinf(special(), out=out) is out
    same(out, [False, True, False, False, False], E.bool)
    with pytest.raises(RuntimeError, match="^isneginf does not support non-boolean outputs.$"):
        E.isneginf(special(), out=E.empty(5))
    with pytest.raises(TypeError, match="unexpected keyword argument 'out'"):
        E.isfinite(special(), out=E.empty(5, dtype=E.bool))
    with pytest.raises(
        TypeError, match=r"^isinf\(\): argument 'input' \(position 1\) must be Tensor, not float$"
    ):
        E.isinf(3.0)


# --------------------------------------------------------------------------------------------
# nonzero, argwhere
# --------------------------------------------------------------------------------------------


def test_nonzero_and_argwhere():
    x = E.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]], requires_grad=True)
    for found in (E.nonzero(x), x.nonzero(), E.argwhere(x), x.argwhere()):
        same(found, [[0, 1], [1, 0], [1, 2]], E.int64)
    rows, cols = E.nonzero(x, as_tuple=True)
    same(rows, [0, 1, 1], E.int64)
    same(cols, [1, 0, 2], E.int64)
    same(E.nonzero(E.tensor([NAN, 0.0, True])), [[0], [2]], E.int64)


def test_nonzero_of_zero_dim_and_empty_inputs():
    assert E.nonzero(E.tensor(3.0)).shape == (1, 0)
    assert E.argwhere(E.tensor(0.0)).shape == (0, 0)
    (only,) = E.nonzero(E.tensor(3.0), as_tuple=True)
    same(only, [0], E.int64)
    assert E.nonzero(E.zeros(0, 3)).shape == (0, 2)
    assert [t.shape for t in E.nonzero(E.zeros(0, 3), as_tuple=True)] == [(0,), (0,)]


def test_nonzero_out():
    out = E.empty(0, dtype=E.long)
    assert E.nonzero(E.tensor([0, 3, 4]), out=out) is out
    same(out, [[1], [2]], E.int64)
    with pytest.raises(
        RuntimeError,
        match="^nonzero: Expected out tensor to have scalar type Long but got scalar typeInt$",
    ):
        E.nonzero(E.tensor([1]), out=E.empty(0, dtype=E.int32))
    with pytest.raises(TypeError, match="must be Tensor, not int"):
        E.nonzero(3)


# --------------------------------------------------------------------------------------------
# isin
# --------------------------------------------------------------------------------------------


def test_isin_values_invert_and_numbers():
    a = E.tensor([[1, 2], [3, 4]])
    same(E.isin(a, E.tensor([2, 3])), [[False, True], [True, False]], E.bool)
    same(E.isin(a, E.tensor([2, 3]), invert=True), [[True, False], [False, True]], E.bool)
    same(
        E.isin(a, E.tensor([[2], [4]]), assume_unique=True), [[False, True], [False, True]], E.bool
    )
    same(E.isin(a, 2), [[False, True], [False, False]], E.bool)
    same(E.isin(a, 2.5), [[False, False], [False, False]], E.bool)
    same(E.isin(3, a), True, E.bool)
    same(E.isin(element=3.0, test_elements=a), True, E.bool)
    same(E.isin(elements=a, test_element=4), [[False, False], [False, True]], E.bool)
    f = E.tensor([1.0, 2.5, NAN], requires_grad=True)
    same(E.isin(f, E.tensor([2.5, NAN])), [False, True, False], E.bool)
    same(E.isin(E.tensor([0.1]), 0.1), [True], E.bool)  # the number in the tensor's float32
    same(E.isin(E.tensor([0.1]), E.tensor([0.1], dtype=E.float64)), [False], E.bool)
    assert E.isin(E.zeros(0, 2), a).shape == (0, 2)


def test_isin_refusals_and_out():
    a = E.tensor([1, 2])
    with pytest.raises(
        RuntimeError, match="^Unsupported input type encountered for isin\\(\\): Bool$"
    ):
        E.isin(a, E.tensor([True]))
    with pytest.raises(RuntimeError, match="Bool$"):
        E.isin(a, True)
    with pytest.raises(
        TypeError,
        match=r"^isin\(\) received an invalid combination of arguments - got \(Tensor, list\)",
    ):
        E.isin(a, [2, 3])
    with pytest.raises(TypeError, match=r"got \(int, int\)"):
        E.isin(3, 4)
    with pytest.raises(
        RuntimeError, match="^Expected out tensor to have dtype bool, but got float instead$"
    ):
        E.isin(a, E.tensor([2]), out=E.empty(2))
    out = E.empty(2, dtype=E.bool)
    E.isin(a, E.tensor([2]), out=out)
    same(out, [False, True], E.bool)
    assert not hasattr(a, "isin")


# --------------------------------------------------------------------------------------------
# searchsorted, bucketize
# --------------------------------------------------------------------------------------------

SEQ = [1, 3, 5, 7, 9]


def test_searchsorted_sides():
    s, v = E.tensor(SEQ), E.tensor([3, 6, 9])
    same(E.searchsorted(s, v), [1, 3, 4], E.int64)
    same(E.searchsorted(s, v, right=True), [2, 3, 5], E.int64)
    same(E.searchsorted(s, v, side="right"), [2, 3, 5], E.int64)
    same(E.searchsorted(s, v, side="right", right=False), [2, 3, 5], E.int64)
    same(E.searchsorted(s, v, out_int32=True), [1, 3, 4], E.int32)
    same(E.searchsorted(s, 4), 2, E.int64)
    same(E.searchsorted(s, 4.5), 2, E.int64)
    same(E.searchsorted(s, E.tensor([4.5, 1.0], requires_grad=True)), [2, 0], E.int64)
    same(E.searchsorted(s, E.tensor([[3, 6, 9], [3, 6, 9]])), [[1, 3, 4], [1, 3, 4]], E.int64)
    same(E.searchsorted(E.tensor([]), E.tensor([3, 6])), [0, 0], E.int64)
    same(E.searchsorted(sorted_sequence=s, input=E.tensor([4])), [2], E.int64)
    # compared in the promoted dtype: float32 for a number, or for int64 beside float32
    same(E.searchsorted(E.tensor([0.1, 0.2]), 0.1, right=True), 1, E.int64)
    same(E.searchsorted(E.tensor([16777217]), E.tensor([16777216.0]), right=True), [1], E.int64)


def test_searchsorted_batched_nan_and_sorter():
    rows = E.tensor([[1, 3, 5, 7, 9], [2, 4, 6, 8, 10]])
    v = E.tensor([[3, 6, 9], [3, 6, 9]])
    same(E.searchsorted(rows, v), [[1, 3, 4], [1, 2, 4]], E.int64)
    same(E.searchsorted(rows, v, right=True, out_int32=True), [[2, 3, 5], [1, 3, 4]], E.int32)
    same(E.searchsorted(E.tensor([1.0, NAN]), E.tensor([NAN, 2.0])), [2, 2], E.int64)
    unsorted, order = E.tensor([3, 1, 2]), E.tensor([1, 2, 0])
    same(E.searchsorted(unsorted, E.tensor([2]), sorter=order), [1], E.int64)
    same(
        E.searchsorted(unsorted, E.tensor([2, 4, 0]), sorter=order, right=True), [2, 3, 0], E.int64
    )


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda s: E.searchsorted(s, E.tensor([3]), side="left", right=True), RuntimeError,
         "torch.searchsorted(): side and right can't be set to opposites, got side of left while "
         "right was True"),
        (lambda s: E.searchsorted(s, E.tensor([3]), side="middle"), RuntimeError,
         "torch.searchsorted(): side can only be 'left' or 'right' but got middle"),
        (lambda s: E.searchsorted(E.tensor(3), E.tensor([3])), RuntimeError,
         "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
         "dimension"),
        (lambda s: E.searchsorted(E.stack([s, s]), E.tensor([3, 6])), RuntimeError,
         "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
         "dimensions of boundaries tensor and input value tensor must match, but we got "
         "boundaries tensor [2, 5] and input value tensor [2]"),
        (lambda s: E.searchsorted(E.stack([s, s]), 4), RuntimeError,
         "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension "
         "is 1, but we got boundaries tensor dim(2) and input value's dim(0) numel(1)"),
        (lambda s: E.searchsorted(s, E.tensor([2]), sorter=E.tensor([1, 2])), RuntimeError,
         "torch.searchsorted(): boundary and sorter must have the same size, but got boundary "
         "tensor [5]and got sorter tensor [2]"),
        (lambda s: E.searchsorted(s, E.tensor([2]), sorter=E.tensor([1, 2, 0, 3, 5])),
         RuntimeError, "torch.searchsorted(): sorter index out of range"),
        (lambda s: E.searchsorted(s, E.tensor([2]), sorter=E.tensor([1.0, 2, 0, 3, 4])),
         RuntimeError,
         "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype Float"),
        (lambda s: E.searchsorted(E.tensor([True, False]), E.tensor([True])),
         NotImplementedError, "\"searchsorted_out_cpu\" not implemented for 'Bool'"),
        (lambda s: E.searchsorted(s, E.tensor([4]), out=E.empty(1, dtype=E.int32)), RuntimeError,
         "torch.searchsorted(): output tensor's dtype is wrong, it can only be Int(int32) or "
         "Long(int64) depending on whether out_int32 flag is True, but we got output tensor's "
         "dtype Int and out_int32 flag is False"),
    ],
)  # fmt: skip
def test_searchsorted_refusals(call, error, message):
    with pytest.raises(error) as caught:
        call(E.tensor(SEQ))
    assert str(caught.value) == message


def test_searchsorted_out():
    out = E.empty(1, dtype=E.long)
    assert E.searchsorted(E.tensor(SEQ), E.tensor([4]), out=out) is out
    same(out, [2], E.int64)


def test_bucketize():
    b = E.tensor(SEQ)
    v = E.tensor([[3, 6, 9], [3, 6, 9]])
    same(E.bucketize(v, b), [[1, 3, 4], [1, 3, 4]], E.int64)
    same(E.bucketize(v, b, right=True), [[2, 3, 5], [2, 3, 5]], E.int64)
    same(E.bucketize(E.tensor([3.5]), b, out_int32=True), [2], E.int32)
    same(E.bucketize(4, b), 2, E.int64)
    same(E.bucketize(E.tensor(4), b), 2, E.int64)
    same(E.bucketize(input=E.tensor([4]), boundaries=b), [2], E.int64)
    same(E.bucketize(E.tensor([4]), E.tensor([True])), [1], E.int64)
    same(E.bucketize(E.tensor([4.0]), E.tensor([1.0, NAN])), [2], E.int64)
    out = E.empty(1, dtype=E.int32)
    E.bucketize(E.tensor([4]), b, out_int32=True, out=out)
    same(out, [2], E.int32)
    with pytest.raises(
        RuntimeError, match=r"^boundaries tensor must be 1 dimension, but got dim\(2\)$"
    ):
        E.bucketize(E.tensor([4]), E.tensor([[1, 2]]))
    with pytest.raises(RuntimeError, match="out_int32 flag is False$"):
        E.bucketize(E.tensor([4]), b, out=E.empty(1, dtype=E.int32))
    assert not hasattr(b, "bucketize") and not hasattr(b, "searchsorted")


# --------------------------------------------------------------------------------------------
# histc, bincount
# --------------------------------------------------------------------------------------------


def test_histc():
    x = E.tensor([1.0, 2.0, 1.0, 4.0, 2.5, 3.0], requires_grad=True)
    same(E.histc(x, bins=4, min=0, max=3), [0.0, 2.0, 1.0, 2.0], E.float32)
    same(E.histc(x, bins=4), [2.0, 1.0, 2.0, 1.0], E.float32)
    same(x.histc(3), [2.0, 2.0, 2.0], E.float32)
    assert E.histc(x).shape == (100,)
    same(E.histc(E.tensor([2.0, 2.0]), bins=3), [0.0, 2.0, 0.0], E.float32)
    same(E.histc(E.tensor([]), bins=3), [0.0, 0.0, 0.0], E.float32)
    same(E.histc(E.tensor([1.0, 2.0], dtype=E.float64), bins=3), [1.0, 0.0, 1.0], E.float64)
    same(E.histc(E.tensor([[1.0, 2.0], [0.5, 3.0]]), bins=3), [2.0, 1.0, 1.0], E.float32)
    same(E.histc(E.tensor([0.3, 0.6, 0.9]), bins=3, min=0, max=0.9), [0.0, 1.0, 2.0], E.float32)
    same(
        E.histc(E.tensor([0.1, 0.2, 0.3, 0.7, 0.9, 1.0]), bins=10, min=0, max=1),
        [0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 2.0],
        E.float32,
    )
    same(E.histc(E.tensor(1.5), bins=2), [0.0, 1.0], E.float32)
    out = E.empty(2)
    assert E.histc(x, bins=2, out=out) is out
    same(out, [3.0, 3.0], E.float32)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: E.histc(E.tensor([1, 2]), bins=3), NotImplementedError,
         "\"histogram_cpu\" not implemented for 'Long'"),
        (lambda: E.histc(E.tensor([1.0, NAN]), bins=3), RuntimeError,
         "torch.histc: range of [-nan, -nan] is not finite"),
        (lambda: E.histc(E.tensor([1.0, INF]), bins=3), RuntimeError,
         "torch.histc: range of [1, inf] is not finite"),
        (lambda: E.histc(E.tensor([1.0]), bins=3, min=NAN, max=1), RuntimeError,
         "torch.histc: range of [nan, 1] is not finite"),
        (lambda: E.histc(E.tensor([1.0]), bins=0), RuntimeError,
         "torch.histogram(): bins must be > 0, but got 0 for dimension 0"),
        (lambda: E.histc(E.tensor([1.0]), bins=3, min=3, max=1), RuntimeError,
         "torch.histc: max must be larger than min"),
        (lambda: E.histc(E.tensor([1.0]), bins=2, out=E.empty(2, dtype=E.float64)), RuntimeError,
         "torch.histogram: input tensor and hist tensor should have the same dtype, but got "
         "input float and hist double"),
    ],
)  # fmt: skip
def test_histc_refusals(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == message


def test_bincount():
    i = E.tensor([0, 1, 1, 3])
    same(E.bincount(i), [1, 2, 0, 1], E.int64)
    same(i.bincount(minlength=6), [1, 2, 0, 1, 0, 0], E.int64)
    same(E.bincount(i, None, 2), [1, 2, 0, 1], E.int64)
    same(E.bincount(i, weights=E.tensor([0.5, 1.0, 2.0, 3.0])), [0.5, 3.0, 0.0, 3.0], E.float32)
    w64 = E.tensor([0.5, 1.0, 2.0, 3.0], dtype=E.float64)
    same(E.bincount(i, weights=w64), [0.5, 3.0, 0.0, 3.0], E.float64)
    same(E.bincount(i, weights=E.tensor([5, 1, 2, 3])), [5.0, 3.0, 0.0, 3.0], E.float64)
    bools = E.tensor([True, False, True, True])
    same(E.bincount(i, weights=bools), [1.0, 1.0, 0.0, 1.0], E.float64)
    same(E.bincount(E.tensor([1, 2], dtype=E.uint8)), [0, 1, 1], E.int64)
    same(E.bincount(E.tensor([], dtype=E.long)), [], E.int64)
    empty = E.tensor([], dtype=E.long)
    same(E.bincount(empty, weights=E.tensor([]), minlength=2), [0, 0], E.int64)


def test_counts_must_be_ints():
    with pytest.raises(TypeError, match=r"^histc\(\): argument 'bins' must be int, not float$"):
        E.histc(E.tensor([1.0, 2.0]), bins=2.5)
    with pytest.raises(
        TypeError, match=r"^bincount\(\): argument 'minlength' must be int, not float$"
    ):
        E.bincount(E.tensor([1]), minlength=2.0)


def test_histc_where_the_bin_position_overflows_float32():
    x = E.tensor([0.5, 1e38, -1e38, 3e37, -2e37, 0.0, 5e37])
    same(E.histc(x, bins=3, min=-1e38, max=1e38), [4.0, 3.0, 0.0], E.float32)
    same(E.histc(x, bins=4, min=-1e38, max=1e38), [6.0, 1.0, 0.0, 0.0], E.float32)
    same(E.histc(x, bins=2, min=-3e38, max=3e38), [0.0, 0.0], E.float32)  # the width is inf


def test_integer_arguments_may_be_zero_dim_tensors():
    weighted = E.bincount(E.tensor([1, 2]), E.tensor([0.5, 0.5]), E.tensor(3))
    same(weighted, [0.0, 0.5, 0.5], E.float32)
    with pytest.raises(
        TypeError, match=r"^nonzero\(\): argument 'as_tuple' must be bool, not int$"
    ):
        E.nonzero(E.tensor([1, 2]), as_tuple=1)


def test_bincount_with_weights_that_require_grad():
    w = E.tensor([0.5, 1.0, 2.0, 3.0], requires_grad=True)
    counts = E.bincount(E.tensor([0, 1, 1, 3]), weights=w)
    assert counts.requires_grad and type(counts.grad_fn).__name__ == "NotImplemented"
    assert counts.grad_fn.name() == "torch::autograd::NotImplemented"
    assert type(counts.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"
    with pytest.raises(RuntimeError, match="^derivative for aten::bincount is not implemented$"):
        counts.sum().backward()
    with E.no_grad():
        assert E.bincount(E.tensor([0]), weights=w[:1]).grad_fn is None


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: E.bincount(E.tensor([0, -1])), RuntimeError,
         "bincount only supports 1-d non-negative integral inputs."),
        (lambda: E.bincount(E.tensor([[0, 1]])), RuntimeError,
         "bincount only supports 1-d non-negative integral inputs."),
        (lambda: E.bincount(E.tensor(1)), RuntimeError,
         "bincount only supports 1-d non-negative integral inputs."),
        (lambda: E.bincount(E.tensor([0.0, 1.0])), NotImplementedError,
         "\"bincount_cpu\" not implemented for 'Float'"),
        (lambda: E.bincount(E.tensor([True])), NotImplementedError,
         "\"bincount_cpu\" not implemented for 'Bool'"),
        (lambda: E.bincount(E.tensor([1]), minlength=-1), RuntimeError,
         "minlength should be >= 0"),
        (lambda: E.bincount(E.tensor([0, 1]), weights=E.tensor([0.5])), RuntimeError,
         "weights should be 1-d and have the same length as input"),
    ],
)  # fmt: skip
def test_bincount_refusals(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == message


# --------------------------------------------------------------------------------------------
# unique, unique_consecutive
# --------------------------------------------------------------------------------------------


def test_unique_flat():
    x = E.tensor([3.0, 1.0, 2.0, 3.0, 1.0], requires_grad=True)
    values, inverse, counts = E.unique(x, return_inverse=True, return_counts=True)
    assert values.tolist() == [1.0, 2.0, 3.0]
    assert type(values.grad_fn).__name__ == "Unique2Backward0"
    same(inverse, [2, 0, 1, 2, 0], E.int64)
    same(counts, [2, 1, 2], E.int64)
    assert isinstance(E.unique(x, return_counts=True), tuple)
    with pytest.raises(
        NotImplementedError, match="^the derivative for '_unique2' is not implemented.$"
    ):
        values.sum().backward()
    with E.no_grad():
        assert E.unique(x).grad_fn is None
    same(E.unique(x.detach(), sorted=False), [1.0, 2.0, 3.0], E.float32)


def test_unique_nan_zero_dim_bool_and_ints():
    same(E.unique(E.tensor([NAN, 1.0, NAN])), [1.0, NAN, NAN], E.float32)
    same(E.unique(E.tensor([0.0, -0.0])), [0.0], E.float32)
    values, inverse, counts = E.unique(E.tensor(5), return_inverse=True, return_counts=True)
    same(values, [5], E.int64)
    same(inverse, 0, E.int64)
    same(counts, [1], E.int64)
    values, counts = E.unique(E.tensor([True, False, True]), return_counts=True)
    same(values, [False, True], E.bool)
    same(counts, [1, 2], E.int64)
    values, inverse = E.unique(E.tensor([2, 1], dtype=E.int32), return_inverse=True)
    same(values, [1, 2], E.int32)
    same(inverse, [1, 0], E.int64)
    a = E.tensor([[1, 3], [2, 3], [1, 3], [0, 5]])
    values, inverse = E.unique(a, return_inverse=True)
    same(values, [0, 1, 2, 3, 5], E.int64)
    same(inverse, [[1, 3], [2, 3], [1, 3], [0, 4]], E.int64)


def test_unique_dim():
    a = E.tensor([[1, 3], [2, 3], [1, 3], [0, 5]])
    values, inverse, counts = E.unique(a, dim=0, return_inverse=True, return_counts=True)
    same(values, [[0, 5], [1, 3], [2, 3]], E.int64)
    same(inverse, [1, 2, 1, 0], E.int64)
    same(counts, [1, 2, 1], E.int64)
    values, inverse, counts = a.unique(True, True, True, -1)
    same(values, [[1, 3], [2, 3], [1, 3], [0, 5]], E.int64)
    same(inverse, [0, 1], E.int64)
    x = E.tensor([3.0, 1.0, 3.0], requires_grad=True)
    assert type(E.unique(x, dim=0).grad_fn).__name__ == "UniqueDimBackward0"
    empty = E.unique(E.zeros(0, 3), dim=0, return_inverse=True, return_counts=True)
    assert [t.shape for t in empty] == [(0, 3), (0,), (0,)]
    assert E.unique(E.zeros(2, 0, 3), dim=1).shape == (2, 0, 3)
    with pytest.raises(
        IndexError,
        match=r"^Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)$",
    ):
        E.unique(a, dim=2)
    with pytest.raises(IndexError, match="^Dimension specified as 0 but tensor has no dimensions$"):
        E.unique(E.tensor(5), dim=0)
    with pytest.raises(
        RuntimeError,
        match="^There are 0 sized dimensions, and they aren't selected, so unique cannot be applied$",
    ):
        E.unique(E.zeros(0, 3), dim=1)


def test_unique_consecutive():
    t = E.tensor([1, 1, 2, 2, 3, 1, 1, 2])
    same(E.unique_consecutive(t), [1, 2, 3, 1, 2], E.int64)
    values, inverse, counts = E.unique_consecutive(t, return_inverse=True, return_counts=True)
    same(inverse, [0, 0, 1, 1, 2, 3, 3, 4], E.int64)
    same(counts, [2, 2, 1, 2, 1], E.int64)
    values, counts = E.tensor([1, 1, 2]).unique_consecutive(return_counts=True)
    same(counts, [2, 1], E.int64)
    a = E.tensor([[1, 3], [1, 3], [2, 3], [1, 3]])
    values, inverse, counts = E.unique_consecutive(
        a, return_inverse=True, return_counts=True, dim=0
    )
    same(values, [[1, 3], [2, 3], [1, 3]], E.int64)
    same(inverse, [0, 0, 1, 2], E.int64)
    same(counts, [2, 1, 1], E.int64)
    x = E.tensor([3.0, 3.0, NAN, NAN], requires_grad=True)
    out = E.unique_consecutive(x)
    assert _nan_safe(out.tolist()) == [3.0, "nan", "nan"]
    assert type(out.grad_fn).__name__ == "UniqueConsecutiveBackward0"
    with pytest.raises(NotImplementedError, match="'unique_consecutive' is not implemented.$"):
        out.sum().backward()


def test_unique_consecutive_flags_by_position_as_pytorch_returns_them():
    """torch.unique_consecutive reads positional flags in swapped places to choose its results
    (the one not computed is empty); Tensor.unique_consecutive does not."""
    t = E.tensor([1, 1, 2])
    values, second = E.unique_consecutive(t, True)
    same(values, [1, 2], E.int64)
    same(second, [], E.int64)
    same(E.unique_consecutive(t, False, True)[1], [], E.int64)
    same(E.unique_consecutive(t, True, return_counts=True)[1], [2, 1], E.int64)
    assert [r.tolist() for r in E.unique_consecutive(t, True, True)] == [[1, 2], [0, 0, 1], [2, 1]]
    m = E.tensor([[1, 1], [1, 1], [2, 0]])
    same(E.unique_consecutive(m, True, False, 0)[1], [2, 1], E.int64)
    same(E.unique_consecutive(m, False, True, 0)[1], [0, 0, 1], E.int64)
    same(t.unique_consecutive(True)[1], [0, 0, 1], E.int64)
    same(E.unique_consecutive(t, False), [1, 2], E.int64)


# --------------------------------------------------------------------------------------------
# tril_indices, triu_indices, unravel_index
# --------------------------------------------------------------------------------------------


def test_triangle_indices():
    same(E.tril_indices(3, 3), [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]], E.int64)
    same(E.tril_indices(3, 4, -1), [[1, 2, 2], [0, 0, 1]], E.int64)
    same(E.tril_indices(row=2, col=2, dtype=E.int32), [[0, 1, 1], [0, 0, 1]], E.int32)
    assert E.tril_indices(4, 3, offset=-5).shape == (2, 0)
    assert E.tril_indices(0, 3).shape == (2, 0)
    same(E.triu_indices(3, 4, 1), [[0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3]], E.int64)
    same(E.triu_indices(2, 2, -1), [[0, 0, 1, 1], [0, 1, 0, 1]], E.int64)
    assert E.triu_indices(4, 3, offset=10).shape == (2, 0)
    with pytest.raises(NotImplementedError, match="^\"tril_indices\" not implemented for 'Float'$"):
        E.tril_indices(3, 3, dtype=E.float32)
    with pytest.raises(RuntimeError, match="^row must be non-negative, got-1$"):
        E.triu_indices(-1, 3)
    with pytest.raises(RuntimeError, match="^col must be non-negative, got-2$"):
        E.tril_indices(3, -2)
    with pytest.raises(
        TypeError, match=r"^tril_indices\(\): argument 'row' \(position 1\) must be int, not float$"
    ):
        E.tril_indices(2.0, 2)
    with pytest.raises(
        RuntimeError,
        match="^Only Tensors of floating point and complex dtype can require gradients$",
    ):
        E.tril_indices(2, 2, requires_grad=True)


def test_unravel_index():
    rows, cols = E.unravel_index(E.tensor([4, 1]), (3, 2))
    same(rows, [2, 0], E.int64)
    same(cols, [0, 1], E.int64)
    rows, cols = E.unravel_index(E.tensor(4), E.Size([3, 2]))
    same(rows, 2, E.int64)
    same(cols, 0, E.int64)
    rows, cols = E.unravel_index(E.tensor([-1, -6, 6, -7]), [3, 2])
    same(rows, [2, 0, 0, 2], E.int64)
    same(cols, [1, 0, 0, 1], E.int64)
    (flat,) = E.unravel_index(E.tensor([4, 1], dtype=E.int32), 6)
    same(flat, [4, 1], E.int64)
    assert E.unravel_index(E.tensor([1]), ()) == ()
    with pytest.raises(
        TypeError, match="^expected 'indices' to be integer dtype, but got torch.float32$"
    ):
        E.unravel_index(E.tensor([1.0]), (3, 2))
    with pytest.raises(
        ValueError, match=r"^'shape' cannot have negative values, but got \(3, -2\)$"
    ):
        E.unravel_index(E.tensor([1]), (3, -2))
    with pytest.raises(
        TypeError, match="^expected 'shape' sequence to only contain ints, but got <class 'float'>$"
    ):
        E.unravel_index(E.tensor([1]), (3.0, 2))
    with pytest.raises(RuntimeError, match="^ZeroDivisionError$"):
        E.unravel_index(E.tensor([1]), (3, 0))


def test_large_results_are_refused_before_allocating():
    """The engine's element cap (not PyTorch's behaviour): checked before any array is made."""
    for call in (
        lambda: E.tril_indices(100_000, 100_000),
        lambda: E.triu_indices(100_000, 100_000, 5),
        lambda: E.bincount(E.tensor([10**12])),
        lambda: E.histc(E.tensor([1.0]), bins=10**12),
    ):
        with pytest.raises(RuntimeError, match="^refusing to allocate a tensor of shape"):
            call()
    assert E.tril_indices(10**12, 0).shape == (2, 0)
