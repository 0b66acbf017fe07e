"""torch.roll, diff, the stacks and splits, meshgrid, repeat_interleave, take_along_dim,
cummax/cummin, kron, tensordot, cartesian_prod and block_diag (ops/reshaping.py,
ops/combining.py): values, dtypes, shapes, grad_fn graphs, gradients and errors, every expected
literal recorded from PyTorch 2.13."""

from __future__ import annotations

import math
import warnings
from typing import Any

import pytest

import autodiff_cli.engine as torch
from autodiff_cli.engine.ops import reshaping


def _names() -> dict:
    """The names the recorded expressions use (fresh tensors for each)."""
    return {
        "torch": torch,
        "x": torch.arange(12.0).reshape(3, 4),
        "v": torch.tensor([3, 1, 2]),
        "s": torch.tensor(5.0),
    }


def _nan_as_text(values: Any) -> Any:
    """NaN as "nan", so that recorded NaNs compare equal."""
    if isinstance(values, list):
        return [_nan_as_text(v) for v in values]
    return "nan" if isinstance(values, float) and math.isnan(values) else values


def _encode(result: Any) -> Any:
    """A result as recorded: ("T", values, dtype, shape) for a tensor, (kind, [...]) for a tuple."""
    if isinstance(result, torch.Tensor):
        values = _nan_as_text(result.tolist())
        return ("T", values, str(result.dtype).replace("torch.", ""), list(result.shape))
    kind = "tuple" if type(result) is tuple else type(result).__name__
    return (kind, [_encode(t) for t in result])


# (expression, what PyTorch gives)
VALUES = [
    (
        "torch.roll(x, 1)",
        (
            "T",
            [[11.0, 0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0]],
            "float32",
            [3, 4],
        ),
    ),
    (
        "torch.roll(x, (1, -1), (0, 1))",
        (
            "T",
            [[9.0, 10.0, 11.0, 8.0], [1.0, 2.0, 3.0, 0.0], [5.0, 6.0, 7.0, 4.0]],
            "float32",
            [3, 4],
        ),
    ),
    (
        "x.roll(shifts=-1, dims=0)",
        (
            "T",
            [[4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0], [0.0, 1.0, 2.0, 3.0]],
            "float32",
            [3, 4],
        ),
    ),
    ("torch.roll(v, 5)", ("T", [1, 2, 3], "int64", [3])),
    ("torch.roll(torch.tensor(5.), 3)", ("T", 5.0, "float32", [])),
    ("torch.roll(torch.zeros(0, 2), 1, 0)", ("T", [], "float32", [0, 2])),
    (
        "torch.diff(x)",
        ("T", [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]], "float32", [3, 3]),
    ),
    ("torch.diff(x, n=2, dim=0)", ("T", [[0.0, 0.0, 0.0, 0.0]], "float32", [1, 4])),
    (
        "torch.diff(v, prepend=torch.tensor([0]), append=torch.tensor([10]))",
        ("T", [3, -2, 1, 8], "int64", [4]),
    ),
    ("torch.diff(v, prepend=torch.tensor([0.5]))", ("T", [2.5, -2.0, 1.0], "float32", [3])),
    (
        "torch.diff(torch.tensor([True, False, False, True]))",
        ("T", [True, False, True], "bool", [3]),
    ),
    ("torch.diff(v, n=4)", ("T", [], "int64", [0])),
    (
        "torch.diff(x, n=0)",
        (
            "T",
            [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]],
            "float32",
            [3, 4],
        ),
    ),
    (
        "torch.hstack([x, x[:, :1]])",
        (
            "T",
            [[0.0, 1.0, 2.0, 3.0, 0.0], [4.0, 5.0, 6.0, 7.0, 4.0], [8.0, 9.0, 10.0, 11.0, 8.0]],
            "float32",
            [3, 5],
        ),
    ),
    ("torch.hstack((v, v))", ("T", [3, 1, 2, 3, 1, 2], "int64", [6])),
    ("torch.hstack([torch.tensor(1), torch.tensor([2.5])])", ("T", [1.0, 2.5], "float32", [2])),
    ("torch.vstack([v, v])", ("T", [[3, 1, 2], [3, 1, 2]], "int64", [2, 3])),
    (
        "torch.row_stack([torch.tensor(1.), torch.tensor(2.)])",
        ("T", [[1.0], [2.0]], "float32", [2, 1]),
    ),
    ("torch.dstack([v, v])", ("T", [[[3, 3], [1, 1], [2, 2]]], "int64", [1, 3, 2])),
    (
        "torch.dstack([x[:2, :2], x[:2, :2]])",
        ("T", [[[0.0, 0.0], [1.0, 1.0]], [[4.0, 4.0], [5.0, 5.0]]], "float32", [2, 2, 2]),
    ),
    (
        "torch.column_stack([v, torch.tensor([[7, 8], [9, 10], [11, 12]])])",
        ("T", [[3, 7, 8], [1, 9, 10], [2, 11, 12]], "int64", [3, 3]),
    ),
    ("torch.column_stack([torch.tensor(1), torch.tensor(2)])", ("T", [[1, 2]], "int64", [1, 2])),
    (
        "torch.ravel(x.t())",
        ("T", [0.0, 4.0, 8.0, 1.0, 5.0, 9.0, 2.0, 6.0, 10.0, 3.0, 7.0, 11.0], "float32", [12]),
    ),
    (
        "x.ravel()",
        ("T", [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0], "float32", [12]),
    ),
    ("torch.broadcast_to(v, (2, 3))", ("T", [[3, 1, 2], [3, 1, 2]], "int64", [2, 3])),
    ("v.broadcast_to((2, -1))", ("T", [[3, 1, 2], [3, 1, 2]], "int64", [2, 3])),
    ("torch.atleast_1d(torch.tensor(4))", ("T", [4], "int64", [1])),
    ("torch.atleast_2d(v)", ("T", [[3, 1, 2]], "int64", [1, 3])),
    ("torch.atleast_3d(v)", ("T", [[[3], [1], [2]]], "int64", [1, 3, 1])),
    ("torch.atleast_3d(x[:2, :2])", ("T", [[[0.0], [1.0]], [[4.0], [5.0]]], "float32", [2, 2, 1])),
    ("torch.atleast_3d(torch.tensor(2.))", ("T", [[[2.0]]], "float32", [1, 1, 1])),
    (
        "torch.atleast_2d(torch.tensor(1), v)",
        ("tuple", [("T", [[1]], "int64", [1, 1]), ("T", [[3, 1, 2]], "int64", [1, 3])]),
    ),
    (
        "torch.atleast_1d([torch.tensor(1), v])",
        ("tuple", [("T", [1], "int64", [1]), ("T", [3, 1, 2], "int64", [3])]),
    ),
    ("torch.atleast_3d()", ("tuple", [])),
    (
        "torch.meshgrid(v, torch.tensor([4, 5]), indexing='ij')",
        (
            "tuple",
            [
                ("T", [[3, 3], [1, 1], [2, 2]], "int64", [3, 2]),
                ("T", [[4, 5], [4, 5], [4, 5]], "int64", [3, 2]),
            ],
        ),
    ),
    (
        "torch.meshgrid([v, torch.tensor([4, 5])], indexing='xy')",
        (
            "tuple",
            [
                ("T", [[3, 1, 2], [3, 1, 2]], "int64", [2, 3]),
                ("T", [[4, 4, 4], [5, 5, 5]], "int64", [2, 3]),
            ],
        ),
    ),
    (
        "torch.meshgrid(torch.tensor(1), v, indexing='ij')",
        ("tuple", [("T", [[1, 1, 1]], "int64", [1, 3]), ("T", [[3, 1, 2]], "int64", [1, 3])]),
    ),
    ("torch.meshgrid(v, indexing='xy')", ("tuple", [("T", [3, 1, 2], "int64", [3])])),
    (
        "torch.tensor_split(torch.arange(7), 3)",
        (
            "tuple",
            [
                ("T", [0, 1, 2], "int64", [3]),
                ("T", [3, 4], "int64", [2]),
                ("T", [5, 6], "int64", [2]),
            ],
        ),
    ),
    (
        "torch.tensor_split(torch.arange(7), [1, 5, 3, -1, 9])",
        (
            "tuple",
            [
                ("T", [0], "int64", [1]),
                ("T", [1, 2, 3, 4], "int64", [4]),
                ("T", [], "int64", [0]),
                ("T", [3, 4, 5], "int64", [3]),
                ("T", [6], "int64", [1]),
                ("T", [], "int64", [0]),
            ],
        ),
    ),
    (
        "torch.tensor_split(x, torch.tensor(3), dim=1)",
        (
            "tuple",
            [
                ("T", [[0.0, 1.0], [4.0, 5.0], [8.0, 9.0]], "float32", [3, 2]),
                ("T", [[2.0], [6.0], [10.0]], "float32", [3, 1]),
                ("T", [[3.0], [7.0], [11.0]], "float32", [3, 1]),
            ],
        ),
    ),
    (
        "torch.tensor_split(x, torch.tensor([1, 2]), dim=-1)",
        (
            "tuple",
            [
                ("T", [[0.0], [4.0], [8.0]], "float32", [3, 1]),
                ("T", [[1.0], [5.0], [9.0]], "float32", [3, 1]),
                ("T", [[2.0, 3.0], [6.0, 7.0], [10.0, 11.0]], "float32", [3, 2]),
            ],
        ),
    ),
    (
        "x.tensor_split(indices=[2], dim=0)",
        (
            "tuple",
            [
                ("T", [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]], "float32", [2, 4]),
                ("T", [[8.0, 9.0, 10.0, 11.0]], "float32", [1, 4]),
            ],
        ),
    ),
    (
        "torch.tensor_split(torch.arange(3), 5)",
        (
            "tuple",
            [
                ("T", [0], "int64", [1]),
                ("T", [1], "int64", [1]),
                ("T", [2], "int64", [1]),
                ("T", [], "int64", [0]),
                ("T", [], "int64", [0]),
            ],
        ),
    ),
    (
        "torch.hsplit(x, 2)",
        (
            "tuple",
            [
                ("T", [[0.0, 1.0], [4.0, 5.0], [8.0, 9.0]], "float32", [3, 2]),
                ("T", [[2.0, 3.0], [6.0, 7.0], [10.0, 11.0]], "float32", [3, 2]),
            ],
        ),
    ),
    (
        "torch.hsplit(torch.arange(6), [2])",
        ("tuple", [("T", [0, 1], "int64", [2]), ("T", [2, 3, 4, 5], "int64", [4])]),
    ),
    (
        "x.vsplit([1, 2])",
        (
            "tuple",
            [
                ("T", [[0.0, 1.0, 2.0, 3.0]], "float32", [1, 4]),
                ("T", [[4.0, 5.0, 6.0, 7.0]], "float32", [1, 4]),
                ("T", [[8.0, 9.0, 10.0, 11.0]], "float32", [1, 4]),
            ],
        ),
    ),
    (
        "torch.dsplit(torch.arange(8).reshape(1, 2, 4), 2)",
        (
            "tuple",
            [
                ("T", [[[0, 1], [4, 5]]], "int64", [1, 2, 2]),
                ("T", [[[2, 3], [6, 7]]], "int64", [1, 2, 2]),
            ],
        ),
    ),
    (
        "torch.fliplr(x)",
        (
            "T",
            [[3.0, 2.0, 1.0, 0.0], [7.0, 6.0, 5.0, 4.0], [11.0, 10.0, 9.0, 8.0]],
            "float32",
            [3, 4],
        ),
    ),
    ("torch.flipud(v)", ("T", [2, 1, 3], "int64", [3])),
    (
        "torch.diagflat(torch.tensor([[1, 2], [3, 4]]))",
        ("T", [[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 3, 0], [0, 0, 0, 4]], "int64", [4, 4]),
    ),
    (
        "torch.diagflat(v, 1)",
        ("T", [[0, 3, 0, 0], [0, 0, 1, 0], [0, 0, 0, 2], [0, 0, 0, 0]], "int64", [4, 4]),
    ),
    ("torch.diagflat(torch.tensor(5.), -1)", ("T", [[0.0, 0.0], [5.0, 0.0]], "float32", [2, 2])),
    (
        "torch.repeat_interleave(x[:2, :2], 2)",
        ("T", [0.0, 0.0, 1.0, 1.0, 4.0, 4.0, 5.0, 5.0], "float32", [8]),
    ),
    (
        "torch.repeat_interleave(x[:2, :2], 2, dim=1)",
        ("T", [[0.0, 0.0, 1.0, 1.0], [4.0, 4.0, 5.0, 5.0]], "float32", [2, 4]),
    ),
    ("v.repeat_interleave(torch.tensor([1, 0, 2]))", ("T", [3, 2, 2], "int64", [3])),
    (
        "torch.repeat_interleave(x[:2], torch.tensor([2]), dim=0)",
        (
            "T",
            [
                [0.0, 1.0, 2.0, 3.0],
                [0.0, 1.0, 2.0, 3.0],
                [4.0, 5.0, 6.0, 7.0],
                [4.0, 5.0, 6.0, 7.0],
            ],
            "float32",
            [4, 4],
        ),
    ),
    ("torch.repeat_interleave(torch.tensor([2, 0, 3]))", ("T", [0, 0, 2, 2, 2], "int64", [5])),
    ("torch.repeat_interleave(torch.tensor(7.), 3)", ("T", [7.0, 7.0, 7.0], "float32", [3])),
    ("torch.repeat_interleave(v, 0)", ("T", [], "int64", [0])),
    (
        "torch.take_along_dim(x, torch.tensor([[0], [3], [1]]), dim=1)",
        ("T", [[0.0], [7.0], [9.0]], "float32", [3, 1]),
    ),
    (
        "torch.take_along_dim(x, torch.tensor([[2, 0, 1, 1]]), dim=0)",
        ("T", [[8.0, 1.0, 6.0, 7.0]], "float32", [1, 4]),
    ),
    (
        "torch.take_along_dim(x, torch.tensor([[11, 0], [5, 5]]))",
        ("T", [11.0, 0.0, 5.0, 5.0], "float32", [4]),
    ),
    (
        "torch.take_along_dim(x, torch.tensor([[-1]]), dim=1)",
        ("T", [[3.0], [7.0], [11.0]], "float32", [3, 1]),
    ),
    (
        "torch.take_along_dim(x, torch.argsort(x, dim=1, descending=True), dim=1)",
        (
            "T",
            [[3.0, 2.0, 1.0, 0.0], [7.0, 6.0, 5.0, 4.0], [11.0, 10.0, 9.0, 8.0]],
            "float32",
            [3, 4],
        ),
    ),
    (
        "torch.cummax(torch.tensor([1., 3., 2., 3., 5.]), 0)",
        (
            "cummax",
            [
                ("T", [1.0, 3.0, 3.0, 3.0, 5.0], "float32", [5]),
                ("T", [0, 1, 1, 3, 4], "int64", [5]),
            ],
        ),
    ),
    (
        "torch.cummin(torch.tensor([[4, 2], [1, 2], [3, 0]]), dim=0)",
        (
            "cummin",
            [
                ("T", [[4, 2], [1, 2], [1, 0]], "int64", [3, 2]),
                ("T", [[0, 0], [1, 1], [1, 2]], "int64", [3, 2]),
            ],
        ),
    ),
    (
        "torch.cummax(torch.tensor([1., float('nan'), 2., float('nan'), 7.]), 0)",
        (
            "cummax",
            [
                ("T", [1.0, "nan", "nan", "nan", "nan"], "float32", [5]),
                ("T", [0, 1, 1, 3, 3], "int64", [5]),
            ],
        ),
    ),
    (
        "torch.cummin(torch.tensor([2., 1., float('nan'), 0.]), -1)",
        (
            "cummin",
            [("T", [2.0, 1.0, "nan", "nan"], "float32", [4]), ("T", [0, 1, 2, 2], "int64", [4])],
        ),
    ),
    (
        "torch.cummax(torch.tensor([False, True, False]), 0)",
        ("cummax", [("T", [False, True, True], "bool", [3]), ("T", [0, 1, 1], "int64", [3])]),
    ),
    (
        "torch.cummax(torch.tensor(3.), 0)",
        ("cummax", [("T", 3.0, "float32", []), ("T", 0, "int64", [])]),
    ),
    (
        "torch.cummin(torch.zeros(0, 2), 0)",
        ("cummin", [("T", [], "float32", [0, 2]), ("T", [], "int64", [0, 2])]),
    ),
    (
        "torch.kron(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[0, 1], [1, 0]]))",
        ("T", [[0, 1, 0, 2], [1, 0, 2, 0], [0, 3, 0, 4], [3, 0, 4, 0]], "int64", [4, 4]),
    ),
    (
        "torch.kron(v, torch.tensor([1., 10.]))",
        ("T", [3.0, 30.0, 1.0, 10.0, 2.0, 20.0], "float32", [6]),
    ),
    ("torch.kron(torch.tensor(2), v)", ("T", [6, 2, 4], "int64", [3])),
    (
        "torch.kron(torch.tensor([1, 2]), torch.tensor([[1], [2]]))",
        ("T", [[1, 2], [2, 4]], "int64", [2, 2]),
    ),
    (
        "torch.tensordot(x, x, dims=([1], [1]))",
        ("T", [[14.0, 38.0, 62.0], [38.0, 126.0, 214.0], [62.0, 214.0, 366.0]], "float32", [3, 3]),
    ),
    ("torch.tensordot(x, x)", ("T", 506.0, "float32", [])),
    (
        "torch.tensordot(torch.arange(6.).reshape(1, 2, 3), torch.arange(6.).reshape(2, 3), dims=2)",
        ("T", [55.0], "float32", [1]),
    ),
    (
        "torch.tensordot(v, torch.tensor([1, 2]), dims=0)",
        ("T", [[3, 6], [1, 2], [2, 4]], "int64", [3, 2]),
    ),
    (
        "torch.tensordot(x, torch.ones(4, 2), dims=torch.tensor(1))",
        ("T", [[6.0, 6.0], [22.0, 22.0], [38.0, 38.0]], "float32", [3, 2]),
    ),
    (
        "torch.tensordot(x, torch.ones(3), dims=([0], [0]))",
        ("T", [12.0, 15.0, 18.0, 21.0], "float32", [4]),
    ),
    (
        "torch.cartesian_prod(v, torch.tensor([7, 8]))",
        ("T", [[3, 7], [3, 8], [1, 7], [1, 8], [2, 7], [2, 8]], "int64", [6, 2]),
    ),
    (
        "torch.cartesian_prod(torch.tensor([1., 2.]), torch.tensor([3., 4.]), torch.tensor([5.]))",
        (
            "T",
            [[1.0, 3.0, 5.0], [1.0, 4.0, 5.0], [2.0, 3.0, 5.0], [2.0, 4.0, 5.0]],
            "float32",
            [4, 3],
        ),
    ),
    ("torch.cartesian_prod(v)", ("T", [3, 1, 2], "int64", [3])),
    (
        "torch.block_diag(torch.tensor([[1, 2]]), torch.tensor(3), torch.tensor([4, 5]))",
        ("T", [[1, 2, 0, 0, 0], [0, 0, 3, 0, 0], [0, 0, 0, 4, 5]], "int64", [3, 5]),
    ),
    (
        "torch.block_diag(torch.tensor([[1]]), torch.tensor([[2.5]]))",
        ("T", [[1.0, 0.0], [0.0, 2.5]], "float32", [2, 2]),
    ),
    (
        "torch.block_diag(torch.tensor([[1]]), torch.tensor([[True]]))",
        ("T", [[1, 0], [0, 1]], "int64", [2, 2]),
    ),
    (
        "torch.block_diag(torch.zeros(0, 2), torch.ones(1, 1))",
        ("T", [[0.0, 0.0, 1.0]], "float32", [1, 3]),
    ),
    (
        "torch.block_diag(torch.zeros(0), torch.ones(1, 1))",
        ("T", [[0.0], [1.0]], "float32", [2, 1]),
    ),
    ("torch.block_diag()", ("T", [[]], "float32", [1, 0])),
]


@pytest.mark.parametrize(("expr", "expected"), VALUES, ids=[v[0] for v in VALUES])
def test_values_dtypes_and_shapes(expr: str, expected: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _encode(eval(expr, _names())) == expected


# (expression, exception type, PyTorch's message)
ERRORS = [
    (
        "torch.roll(x, (1, 2), 0)",
        RuntimeError,
        "shifts and dimensions must align. shifts: 2, dims:1",
    ),
    ("torch.roll(x, (1, 2))", RuntimeError, "shifts and dimensions must align. shifts: 2, dims:0"),
    (
        "torch.roll(x, 1, 2)",
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    ("torch.roll(s, 1, 0)", IndexError, "Dimension specified as 0 but tensor has no dimensions"),
    ("torch.diff(s)", RuntimeError, "diff expects input to be at least one-dimensional"),
    ("torch.diff(x, n=-1)", RuntimeError, "order must be non-negative but got -1"),
    (
        "torch.diff(x, prepend=v)",
        RuntimeError,
        "diff expects prepend or append to be the same dimension as input",
    ),
    (
        "torch.diff(x, dim=2)",
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    ("torch.hstack([])", RuntimeError, "hstack expects a non-empty TensorList"),
    (
        "torch.hstack(x)",
        TypeError,
        "hstack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor",
    ),
    (
        "torch.vstack([x, torch.zeros(3)])",
        RuntimeError,
        "Sizes of tensors must match except in dimension 0. Expected size 4 but got size 3 for tensor number 1 in the list.",
    ),
    (
        "torch.dstack([x, v])",
        RuntimeError,
        "Sizes of tensors must match except in dimension 2. Expected size 3 but got size 1 for tensor number 1 in the list.",
    ),
    ("torch.column_stack([])", RuntimeError, "column_stack expects a non-empty TensorList"),
    (
        "torch.hstack([x, v])",
        RuntimeError,
        "Tensors must have same number of dimensions: got 2 and 1",
    ),
    (
        "torch.broadcast_to(v, (3, 5))",
        RuntimeError,
        "The expanded size of the tensor (5) must match the existing size (3) at non-singleton dimension 1.  Target sizes: [3, 5].  Tensor sizes: [3]",
    ),
    (
        "torch.atleast_1d(3)",
        TypeError,
        "atleast_1d() received an invalid combination of arguments - got (int), but expected one of:\n * (Tensor input)\n      didn't match because some of the arguments have invalid types: (!int!)\n * (tuple of Tensors tensors)\n      didn't match because some of the arguments have invalid types: (!int!)\n",
    ),
    (
        "torch.meshgrid(v, v, indexing='foo')",
        RuntimeError,
        'torch.meshgrid: indexing must be one of "xy" or "ij", but received: foo',
    ),
    (
        "torch.meshgrid(v, torch.arange(3.), indexing='ij')",
        RuntimeError,
        "meshgrid expects all tensors to have the same dtype",
    ),
    ("torch.meshgrid(indexing='ij')", RuntimeError, "meshgrid expects a non-empty TensorList"),
    ("torch.tensor_split(x, 0)", RuntimeError, "number of sections must be larger than 0, got 0"),
    (
        "torch.tensor_split(s, 2)",
        RuntimeError,
        "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims",
    ),
    (
        "torch.tensor_split(v, torch.tensor([1.]))",
        RuntimeError,
        "tensor_split expected tensor_indices_or_sections to have dtype of long, but got Float",
    ),
    (
        "torch.tensor_split(v, torch.tensor([[1]]))",
        RuntimeError,
        "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional tensor, but got a tensor with 2 dims",
    ),
    (
        "torch.hsplit(s, 2)",
        RuntimeError,
        "torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 dimensions!",
    ),
    (
        "torch.hsplit(x, 3)",
        RuntimeError,
        "torch.hsplit attempted to split along dimension 1, but the size of the dimension 4 is not divisible by the split_size 3!",
    ),
    (
        "torch.vsplit(v, 1)",
        RuntimeError,
        "torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!",
    ),
    (
        "torch.vsplit(x, 2)",
        RuntimeError,
        "torch.vsplit attempted to split along dimension 0, but the size of the dimension 3 is not divisible by the split_size 2!",
    ),
    (
        "torch.dsplit(x, 2)",
        RuntimeError,
        "torch.dsplit requires a tensor with at least 3 dimension, but got a tensor with 2 dimensions!",
    ),
    (
        "torch.dsplit(torch.zeros(2, 2, 3), 2)",
        RuntimeError,
        "torch.dsplit attempted to split along dimension 2, but the size of the dimension 3 is not divisible by the split_size 2!",
    ),
    ("torch.fliplr(v)", RuntimeError, "Input must be >= 2-d."),
    ("torch.flipud(s)", RuntimeError, "Input must be >= 1-d."),
    ("torch.repeat_interleave(v, -1)", RuntimeError, "Repeats must be non-negative"),
    (
        "torch.repeat_interleave(torch.tensor([[1, 2]]))",
        RuntimeError,
        "repeat_interleave only accept 1D vector as repeat",
    ),
    (
        "torch.repeat_interleave(v, torch.tensor([1., 2., 3.]))",
        NotImplementedError,
        "\"repeat_interleave_cpu\" not implemented for 'Float'",
    ),
    (
        "torch.repeat_interleave(v, torch.tensor([1, 2]))",
        RuntimeError,
        "repeats must have the same size as input along dim, but got repeats.size(0) = 2 and input.size(0) = 3",
    ),
    (
        "torch.repeat_interleave(v, torch.tensor([1, -2, 1]))",
        RuntimeError,
        "repeats can not be negative",
    ),
    (
        "torch.repeat_interleave(x, 2, dim=2)",
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    (
        "torch.take_along_dim(x, torch.tensor([[0.]]), dim=1)",
        RuntimeError,
        "torch.take_along_dim(): dtype of indices should be Long but got Float",
    ),
    (
        "torch.take_along_dim(x, torch.tensor([[1]], dtype=torch.int32), dim=1)",
        RuntimeError,
        "torch.take_along_dim(): dtype of indices should be Long but got Int",
    ),
    (
        "torch.take_along_dim(x, torch.tensor([0]), dim=1)",
        RuntimeError,
        "torch.take_along_dim(): input and indices should have the same number of dimensions, but got 2 dimensions for input, and 1 dimensions for indices",
    ),
    (
        "torch.take_along_dim(x, torch.tensor([[0], [1]]), dim=1)",
        RuntimeError,
        "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0",
    ),
    ("torch.cummax(v)", TypeError, 'cummax() missing 1 required positional arguments: "dim"'),
    (
        "torch.cummin(v, 1)",
        IndexError,
        "Dimension out of range (expected to be in range of [-1, 0], but got 1)",
    ),
    (
        "torch.tensordot(x, x, dims=1)",
        RuntimeError,
        "contracted dimensions need to match, but first has size 4 in dim -1 and second has size 3 in dim 0",
    ),
    (
        "torch.tensordot(x, x, dims=-1)",
        RuntimeError,
        "tensordot expects dims >= 0, but got dims=-1",
    ),
    (
        "torch.tensordot(x, x, dims=3)",
        RuntimeError,
        "tensordot expects dims < ndim_a or ndim_b, but got dims=3",
    ),
    (
        "torch.tensordot(x, torch.ones(4, 2, dtype=torch.long), dims=1)",
        RuntimeError,
        "both inputs should have same dtype",
    ),
    (
        "torch.tensordot(x, x, dims=([0, 1], [0]))",
        RuntimeError,
        "both dimension lists should have same length",
    ),
    (
        "torch.tensordot(x, torch.zeros(2, 3, 5), dims=2)",
        RuntimeError,
        "contracted dimensions need to match, but first has size 3 in dim -2 and second has size 2 in dim 0",
    ),
    (
        "torch.tensordot(x, torch.zeros(2, 3, 5), dims=([1], [2]))",
        RuntimeError,
        "contracted dimensions need to match, but first has size 4 in dim 1 and second has size 5 in dim 2",
    ),
    ("torch.cartesian_prod(x, v)", RuntimeError, "Expect a 1D vector, but got shape [3, 4]"),
    ("torch.cartesian_prod()", RuntimeError, "meshgrid expects a non-empty TensorList"),
    (
        "torch.cartesian_prod(v, torch.arange(2.))",
        RuntimeError,
        "meshgrid expects all tensors to have the same dtype",
    ),
    (
        "torch.block_diag(torch.zeros(2, 2, 2))",
        RuntimeError,
        "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 0 has 3 dimensions",
    ),
]


@pytest.mark.parametrize(("expr", "kind", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(expr: str, kind: type, message: str) -> None:
    with pytest.raises(kind) as caught:
        eval(expr, _names())
    assert str(caught.value) == message


def _leaf() -> Any:
    return torch.arange(6.0, dtype=torch.float64).reshape(2, 3).requires_grad_()


def _weights(shape: Any) -> Any:
    return torch.arange(1.0, 1 + shape.numel(), dtype=torch.float64).reshape(shape)


# (expression of a leaf `a`, a.grad after backward with weights 1, 2, 3, ...)
GRADIENTS = [
    ("torch.roll(a, (1, 2), (0, 1))", [[6.0, 4.0, 5.0], [3.0, 1.0, 2.0]]),
    (
        "torch.cummax(a * torch.tensor([[1., -1., 1.], [-1., 1., 1.]], dtype=torch.float64), 1).values",
        [[3.0, -0.0, 3.0], [-4.0, 5.0, 6.0]],
    ),
    ("torch.cummin(a.flip(1), 1).values", [[3.0, 2.0, 1.0], [6.0, 5.0, 4.0]]),
    ("torch.block_diag(a, a[0, :2], a[1, 1])", [[17.0, 19.0, 3.0], [7.0, 32.0, 9.0]]),
    (
        "torch.repeat_interleave(a, torch.tensor([0, 2, 3]), dim=1)",
        [[0.0, 3.0, 12.0], [0.0, 13.0, 27.0]],
    ),
    ("torch.repeat_interleave(a, 2)", [[3.0, 7.0, 11.0], [15.0, 19.0, 23.0]]),
    (
        "torch.take_along_dim(a, torch.tensor([[2, 2, 0]]), dim=1)",
        [[3.0, 0.0, 3.0], [6.0, 0.0, 9.0]],
    ),
    ("torch.kron(a, a[:, :2])", [[252.0, 283.0, 87.0], [438.0, 469.0, 183.0]]),
    ("torch.diff(a, n=2, dim=1, prepend=a[:, :1])", [[1.0, -3.0, 2.0], [1.0, -5.0, 4.0]]),
    ("torch.tensordot(a, a, dims=([0], [0]))", [[26.0, 38.0, 50.0], [80.0, 128.0, 176.0]]),
    ("torch.cartesian_prod(a[0], a[1, :2])", [[4.0, 12.0, 20.0], [18.0, 24.0, 0.0]]),
    ("torch.diagflat(a, 1)", [[2.0, 10.0, 18.0], [26.0, 34.0, 42.0]]),
    ("torch.meshgrid(a[0], a[1, :2], indexing='xy')[1]", [[0.0, 0.0, 0.0], [6.0, 15.0, 0.0]]),
]


@pytest.mark.parametrize(("expr", "expected"), GRADIENTS, ids=[g[0] for g in GRADIENTS])
def test_gradients(expr: str, expected: list) -> None:
    a = _leaf()
    out = eval(expr, {"torch": torch, "a": a})
    out.backward(_weights(out.shape))
    assert a.grad.tolist() == expected


def _chain(fn: Any, depth: int = 0) -> str:
    """A grad_fn and what it leads to, as names, six levels deep (as recorded under PyTorch)."""
    if fn is None:
        return "None"
    if depth >= 6:
        parts = ["..."]
    else:
        parts = [_chain(f, depth + 1) for f, _ in fn.next_functions if f is not None]
    return fn.name() + ("(" + ", ".join(parts) + ")" if parts else "")


GRAPH_PROGRAM = """
x = torch.randn(3, 4, requires_grad=True, dtype=torch.float64)
v = torch.randn(4, requires_grad=True, dtype=torch.float64)
RESULTS = {
    "diff": torch.diff(x),
    "diff2": torch.diff(x, n=2),
    "diffpre": torch.diff(x, prepend=x[:, :1], append=x),
    "diffpre1": torch.diff(x, prepend=x[:, :1]),
    "column_stack": torch.column_stack([v, x.T]),
    "column_stack2": torch.column_stack([x, x]),
    "ravelT": torch.ravel(x.T),
    "meshgrid": torch.meshgrid(v, v[:3], indexing="ij"),
    "meshgridxy": torch.meshgrid(v, v[:3], indexing="xy"),
    "diagflat": torch.diagflat(x),
    "diagflat1": torch.diagflat(v, 1),
    "rep_int": torch.repeat_interleave(x, 2),
    "rep_int_dim": torch.repeat_interleave(x, 2, dim=0),
    "rep_int_dim1": torch.repeat_interleave(x, 2, dim=1),
    "rep_int_t": torch.repeat_interleave(x, torch.tensor([1, 2, 0]), dim=0),
    "rep_int_t_flat": torch.repeat_interleave(v, torch.tensor([1, 2, 0, 1])),
    "rep_int_t1": torch.repeat_interleave(x, torch.tensor([2]), dim=0),
    "take_along_dim": torch.take_along_dim(x, torch.tensor([[0], [1], [2]]), dim=1),
    "take_along_dim_b": torch.take_along_dim(x, torch.tensor([[0, 1]]), dim=1),
    "take_along_dim_flat": torch.take_along_dim(x, torch.tensor([0, 5])),
    "kron": torch.kron(x, x),
    "kronv": torch.kron(v, x),
    "tensordot": torch.tensordot(x, x.T, dims=1),
    "tensordot2": torch.tensordot(x, x, dims=2),
    "tensordot0": torch.tensordot(x, v, dims=0),
    "tensordotl": torch.tensordot(x, x, dims=([0], [0])),
    "tensordotl2": torch.tensordot(x, x, dims=([1, 0], [1, 0])),
    "tad T dim": torch.take_along_dim(x.T, torch.tensor([[0, 1, 2]]), 0),
    "diagflat T": torch.diagflat(x.T),
    "ri T": torch.repeat_interleave(x.T, 2),
    "ri T tensor flat": torch.repeat_interleave(x.T, torch.tensor([2])),
    "ri 0d": torch.repeat_interleave(x[0, 0], 2),
    "ri dim0 1rep": torch.repeat_interleave(x, 1, 0),
    "column_stack T": torch.column_stack([x[:, 0], x.T.T]),
    "diff n big": torch.diff(v, n=6),
    "cartesian_prod": torch.cartesian_prod(v, v),
    "cartesian_prod3": torch.cartesian_prod(v, v[:2], v),
    "block_diag": torch.block_diag(x, v),
    "meshgrid1": torch.meshgrid(v, indexing="ij"),
    "hstack0": torch.hstack([x.sum(), x.sum()]),
    "vstack0": torch.vstack([x.sum(), x.sum()]),
    "dstack1": torch.dstack([v, v]),
    "bt": torch.broadcast_tensors(x, v),
}
"""

# (name, the chain of grad_fn names of each output under PyTorch)
GRAPHS = [
    (
        "tad T dim",
        ["GatherBackward0(ExpandBackward0(PermuteBackward0(torch::autograd::AccumulateGrad)))"],
    ),
    (
        "diagflat T",
        [
            "DiagEmbedBackward0(ViewBackward0(CloneBackward0(PermuteBackward0(torch::autograd::AccumulateGrad))))"
        ],
    ),
    (
        "ri T",
        [
            "ViewBackward0(CloneBackward0(ExpandBackward0(UnsqueezeBackward0(UnsafeViewBackward0(CloneBackward0(PermuteBackward0(...)))))))"
        ],
    ),
    (
        "ri T tensor flat",
        [
            "IndexSelectBackward0(UnsafeViewBackward0(CloneBackward0(PermuteBackward0(torch::autograd::AccumulateGrad))))"
        ],
    ),
    (
        "ri 0d",
        [
            "ViewBackward0(CloneBackward0(ExpandBackward0(UnsqueezeBackward0(ViewBackward0(SelectBackward0(SelectBackward0(...)))))))"
        ],
    ),
    (
        "ri dim0 1rep",
        [
            "ViewBackward0(CloneBackward0(ExpandBackward0(UnsqueezeBackward0(torch::autograd::AccumulateGrad))))"
        ],
    ),
    (
        "column_stack T",
        [
            "CatBackward0(ReshapeAliasBackward0(SelectBackward0(torch::autograd::AccumulateGrad)), PermuteBackward0(PermuteBackward0(torch::autograd::AccumulateGrad)))"
        ],
    ),
    (
        "diff n big",
        [
            "SubBackward0(SliceBackward0(SubBackward0(SliceBackward0(SubBackward0(SliceBackward0(SubBackward0(...)), SliceBackward0(SubBackward0(...)))), SliceBackward0(SubBackward0(SliceBackward0(SubBackward0(...)), SliceBackward0(SubBackward0(...)))))), SliceBackward0(SubBackward0(SliceBackward0(SubBackward0(SliceBackward0(SubBackward0(...)), SliceBackward0(SubBackward0(...)))), SliceBackward0(SubBackward0(SliceBackward0(SubBackward0(...)), SliceBackward0(SubBackward0(...)))))))"
        ],
    ),
    (
        "tensordotl2",
        [
            "ViewBackward0(SumBackward0(MulBackward0(SqueezeBackward0(PermuteBackward0(torch::autograd::AccumulateGrad)), SqueezeBackward0(PermuteBackward0(torch::autograd::AccumulateGrad)))))"
        ],
    ),
    (
        "diff",
        [
            "SubBackward0(SliceBackward0(torch::autograd::AccumulateGrad), SliceBackward0(torch::autograd::AccumulateGrad))"
        ],
    ),
    (
        "diff2",
        [
            "SubBackward0(SliceBackward0(SubBackward0(SliceBackward0(torch::autograd::AccumulateGrad), SliceBackward0(torch::autograd::AccumulateGrad))), SliceBackward0(SubBackward0(SliceBackward0(torch::autograd::AccumulateGrad), SliceBackward0(torch::autograd::AccumulateGrad))))"
        ],
    ),
    (
        "diffpre",
        [
            "SubBackward0(SliceBackward0(CatBackward0(SliceBackward0(torch::autograd::AccumulateGrad), torch::autograd::AccumulateGrad, torch::autograd::AccumulateGrad)), SliceBackward0(CatBackward0(SliceBackward0(torch::autograd::AccumulateGrad), torch::autograd::AccumulateGrad, torch::autograd::AccumulateGrad)))"
        ],
    ),
    (
        "diffpre1",
        [
            "SubBackward0(SliceBackward0(CatBackward0(SliceBackward0(torch::autograd::AccumulateGrad), torch::autograd::AccumulateGrad)), SliceBackward0(CatBackward0(SliceBackward0(torch::autograd::AccumulateGrad), torch::autograd::AccumulateGrad)))"
        ],
    ),
    (
        "column_stack",
        [
            "CatBackward0(ViewBackward0(torch::autograd::AccumulateGrad), PermuteBackward0(torch::autograd::AccumulateGrad))"
        ],
    ),
    (
        "column_stack2",
        ["CatBackward0(torch::autograd::AccumulateGrad, torch::autograd::AccumulateGrad)"],
    ),
    (
        "ravelT",
        ["ViewBackward0(CloneBackward0(PermuteBackward0(torch::autograd::AccumulateGrad)))"],
    ),
    (
        "meshgrid",
        [
            "ExpandBackward0(ViewBackward0(torch::autograd::AccumulateGrad))",
            "ExpandBackward0(ViewBackward0(SliceBackward0(torch::autograd::AccumulateGrad)))",
        ],
    ),
    (
        "meshgridxy",
        [
            "ExpandBackward0(ViewBackward0(torch::autograd::AccumulateGrad))",
            "ExpandBackward0(ViewBackward0(SliceBackward0(torch::autograd::AccumulateGrad)))",
        ],
    ),
    ("diagflat", ["DiagEmbedBackward0(ViewBackward0(torch::autograd::AccumulateGrad))"]),
    ("diagflat1", ["DiagEmbedBackward0(ViewBackward0(torch::autograd::AccumulateGrad))"]),
    (
        "rep_int",
        [
            "ViewBackward0(CloneBackward0(ExpandBackward0(UnsqueezeBackward0(ViewBackward0(torch::autograd::AccumulateGrad)))))"
        ],
    ),
    (
        "rep_int_dim",
        [
            "ViewBackward0(CloneBackward0(ExpandBackward0(UnsqueezeBackward0(torch::autograd::AccumulateGrad))))"
        ],
    ),
    (
        "rep_int_dim1",
        [
            "ViewBackward0(CloneBackward0(ExpandBackward0(UnsqueezeBackward0(torch::autograd::AccumulateGrad))))"
        ],
    ),
    ("rep_int_t", ["IndexSelectBackward0(torch::autograd::AccumulateGrad)"]),
    ("rep_int_t_flat", ["IndexSelectBackward0(torch::autograd::AccumulateGrad)"]),
    ("rep_int_t1", ["IndexSelectBackward0(torch::autograd::AccumulateGrad)"]),
    ("take_along_dim", ["GatherBackward0(ExpandBackward0(torch::autograd::AccumulateGrad))"]),
    ("take_along_dim_b", ["GatherBackward0(ExpandBackward0(torch::autograd::AccumulateGrad))"]),
    ("take_along_dim_flat", ["GatherBackward0(ViewBackward0(torch::autograd::AccumulateGrad))"]),
    (
        "kron",
        [
            "UnsafeViewBackward0(MulBackward0(UnsafeViewBackward0(torch::autograd::AccumulateGrad), UnsafeViewBackward0(torch::autograd::AccumulateGrad)))"
        ],
    ),
    (
        "kronv",
        [
            "UnsafeViewBackward0(MulBackward0(UnsafeViewBackward0(torch::autograd::AccumulateGrad), UnsafeViewBackward0(torch::autograd::AccumulateGrad)))"
        ],
    ),
    (
        "tensordot",
        [
            "ViewBackward0(MmBackward0(ViewBackward0(PermuteBackward0(torch::autograd::AccumulateGrad)), ReshapeAliasBackward0(PermuteBackward0(PermuteBackward0(torch::autograd::AccumulateGrad)))))"
        ],
    ),
    (
        "tensordot2",
        [
            "ViewBackward0(DotBackward0(ViewBackward0(PermuteBackward0(torch::autograd::AccumulateGrad)), ViewBackward0(PermuteBackward0(torch::autograd::AccumulateGrad))))"
        ],
    ),
    (
        "tensordot0",
        [
            "ViewBackward0(MmBackward0(ViewBackward0(PermuteBackward0(torch::autograd::AccumulateGrad)), ViewBackward0(PermuteBackward0(torch::autograd::AccumulateGrad))))"
        ],
    ),
    (
        "tensordotl",
        [
            "ViewBackward0(MmBackward0(ReshapeAliasBackward0(PermuteBackward0(torch::autograd::AccumulateGrad)), ViewBackward0(PermuteBackward0(torch::autograd::AccumulateGrad))))"
        ],
    ),
    (
        "cartesian_prod",
        [
            "StackBackward0(UnsafeViewBackward0(CloneBackward0(ExpandBackward0(ViewBackward0(torch::autograd::AccumulateGrad)))), UnsafeViewBackward0(CloneBackward0(ExpandBackward0(ViewBackward0(torch::autograd::AccumulateGrad)))))"
        ],
    ),
    (
        "cartesian_prod3",
        [
            "StackBackward0(UnsafeViewBackward0(CloneBackward0(ExpandBackward0(ViewBackward0(torch::autograd::AccumulateGrad)))), UnsafeViewBackward0(CloneBackward0(ExpandBackward0(ViewBackward0(SliceBackward0(torch::autograd::AccumulateGrad(...)))))), UnsafeViewBackward0(CloneBackward0(ExpandBackward0(ViewBackward0(torch::autograd::AccumulateGrad)))))"
        ],
    ),
    (
        "block_diag",
        ["BlockDiagBackward0(torch::autograd::AccumulateGrad, torch::autograd::AccumulateGrad)"],
    ),
    ("meshgrid1", ["ExpandBackward0(ViewBackward0(torch::autograd::AccumulateGrad))"]),
    (
        "hstack0",
        [
            "CatBackward0(ViewBackward0(SumBackward0(torch::autograd::AccumulateGrad)), ViewBackward0(SumBackward0(torch::autograd::AccumulateGrad)))"
        ],
    ),
    (
        "vstack0",
        [
            "CatBackward0(ViewBackward0(SumBackward0(torch::autograd::AccumulateGrad)), ViewBackward0(SumBackward0(torch::autograd::AccumulateGrad)))"
        ],
    ),
    (
        "dstack1",
        [
            "CatBackward0(UnsqueezeBackward0(UnsqueezeBackward0(torch::autograd::AccumulateGrad)), UnsqueezeBackward0(UnsqueezeBackward0(torch::autograd::AccumulateGrad)))"
        ],
    ),
    ("bt", ["None", "ExpandBackward0(torch::autograd::AccumulateGrad)"]),
]


@pytest.mark.parametrize(("name", "expected"), GRAPHS, ids=[g[0] for g in GRAPHS])
def test_grad_fn_graphs(name: str, expected: list) -> None:
    names: dict = {"torch": torch}
    exec(GRAPH_PROGRAM, names)
    result = names["RESULTS"][name]
    outputs = result if isinstance(result, tuple) else (result,)
    assert [_chain(t.grad_fn) for t in outputs] == expected


def test_cummax_cummin_print_as_return_types() -> None:
    values, indices = torch.cummax(torch.tensor([1.0, 3.0, 2.0]), 0)
    assert indices.dtype == torch.int64 and values.grad_fn is None
    assert repr(torch.cummax(torch.tensor([1.0, 3.0, 2.0]), 0)) == (
        "torch.return_types.cummax(\nvalues=tensor([1., 3., 3.]),\nindices=tensor([0, 1, 1]))"
    )
    result = torch.cummin(torch.tensor([[2, 1], [0, 3]]), 1)
    assert repr(result) == (
        "torch.return_types.cummin(\nvalues=tensor([[2, 1],\n        [0, 0]]),\n"
        "indices=tensor([[0, 1],\n        [0, 0]]))"
    )
    assert result.indices.tolist() == [[0, 1], [0, 0]]


def test_cummax_values_carry_a_grad_fn_and_indices_none() -> None:
    a = _leaf()
    values, indices = a.cummax(1)
    assert values.grad_fn.name() == "CummaxBackward0"
    assert indices.grad_fn is None and not indices.requires_grad


def test_meshgrid_warns_once_without_indexing() -> None:
    reshaping._MESHGRID_WARNED.clear()
    v = torch.tensor([1, 2])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = torch.meshgrid(v, v)
        torch.meshgrid(v, v)
        torch.meshgrid(v, v, indexing="ij")
    assert [(w.category, str(w.message)) for w in caught] == [
        (
            UserWarning,
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
            "argument. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
            "TensorShape.cpp:4215.)",
        )
    ]
    assert [t.tolist() for t in first] == [[[1, 1], [2, 2]], [[1, 2], [1, 2]]]


def test_returned_as_is() -> None:
    """PyTorch returns the input itself where nothing needs doing."""
    x = torch.zeros(2, 3, requires_grad=True)
    v = torch.zeros(3, requires_grad=True)
    assert torch.atleast_1d(x) is x and torch.atleast_2d(x) is x
    assert torch.cartesian_prod(v) is v
    assert torch.broadcast_tensors(x, v)[0] is x


def test_diff_n0_is_a_copy() -> None:
    x = torch.zeros(2, 3, requires_grad=True)
    r = torch.diff(x, n=0)
    assert r is not x and r.grad_fn.name() == "torch::autograd::CopyBackwards"
    assert r.grad_fn.next_functions[0] == (None, 0)


# (expression with out=, exception type, PyTorch's message)
OUT_ERRORS = [
    (
        "torch.hstack([x, x], out=torch.empty(0, dtype=torch.long))",
        TypeError,
        "torch.cat(): input types can't be cast to the desired output type Long",
    ),
    (
        "torch.column_stack([x.requires_grad_(), x], out=torch.empty(0))",
        RuntimeError,
        "cat(): functions with out=... arguments don't support automatic differentiation, but "
        "one of the arguments requires grad.",
    ),
    (
        "torch.kron(x, x, out=torch.empty(0, dtype=torch.long))",
        RuntimeError,
        "result type Float can't be cast to the desired output type Long",
    ),
    (
        "torch.kron(x.requires_grad_(), x, out=torch.empty(0))",
        RuntimeError,
        "mul(): functions with out=... arguments don't support automatic differentiation, but "
        "one of the arguments requires grad.",
    ),
    (
        "torch.take_along_dim(x, torch.tensor([[0]]), 1, out=torch.empty(0, dtype=torch.float64))",
        RuntimeError,
        "Expected out tensor to have dtype float, but got double instead",
    ),
    (
        "torch.cummax(x, 1, out=(torch.empty(0, dtype=torch.float64), torch.empty(0).long()))",
        RuntimeError,
        "expected scalar_type Float but found Double",
    ),
    (
        "torch.cummin(x, 1, out=(torch.empty(0), torch.empty(0)))",
        RuntimeError,
        "expected scalar_type Long but found Float",
    ),
    (
        "torch.cummax(x, 1, out=torch.empty(0))",
        TypeError,
        "cummax(): argument 'out' must be tuple of Tensors, not Tensor",
    ),
    (
        "torch.tensordot(x, x, dims=([1], [1]), out=torch.empty(0, dtype=torch.float64))",
        RuntimeError,
        "tensordot: Expected the output tensor to have dtype Float, but got an output tensor "
        "with dtype Double",
    ),
]


@pytest.mark.parametrize(("expr", "kind", "message"), OUT_ERRORS, ids=[e[0] for e in OUT_ERRORS])
def test_out_errors(expr: str, kind: type, message: str) -> None:
    with pytest.raises(kind) as caught:
        eval(expr, _names())
    assert str(caught.value) == message


def test_out_written() -> None:
    x = torch.arange(6.0).reshape(2, 3)
    out = torch.empty(0, dtype=torch.float64)
    assert torch.vstack([x, x], out=out) is out
    assert (out.dtype, out.shape) == (torch.float64, torch.Size([4, 3]))
    values, indices = torch.empty(0), torch.empty(0, dtype=torch.long)
    result = torch.cummax(x, 1, out=(values, indices))
    assert type(result).__name__ == "cummax_out" and result.values is values
    assert indices.tolist() == [[0, 1, 2], [0, 1, 2]]
    a = x.clone().requires_grad_()
    out = torch.empty(0)
    torch.tensordot(a, a, dims=([1], [1]), out=out)  # a composite: its graph is copied
    assert out.tolist() == [[5.0, 14.0], [14.0, 50.0]]
    assert out.grad_fn.name() == "torch::autograd::CopyBackwards"


# argument refusals of the corners (recorded from PyTorch)
CORNER_ERRORS = [
    (
        "torch.roll(x, 1.5)",
        TypeError,
        "roll(): argument 'shifts' (position 2) must be tuple of ints, not float",
    ),
    (
        "torch.tensor_split(x, 2.0)",
        TypeError,
        "tensor_split() received an invalid combination of arguments - got (Tensor, float), but "
        "expected one of:\n * (Tensor input, tuple of ints indices, int dim = 0)\n * (Tensor "
        "input, Tensor tensor_indices_or_sections, int dim = 0)\n * (Tensor input, int sections, "
        "int dim = 0)\n",
    ),
    (
        "torch.hsplit(x, 2.0)",
        TypeError,
        "hsplit() received an invalid combination of arguments - got (Tensor, float), but "
        "expected one of:\n * (Tensor input, int sections)\n      didn't match because some of "
        "the arguments have invalid types: (Tensor, !float!)\n * (Tensor input, tuple of ints "
        "indices)\n      didn't match because some of the arguments have invalid types: "
        "(Tensor, !float!)\n",
    ),
    (
        "torch.repeat_interleave(x, True)",
        TypeError,
        "repeat_interleave() received an invalid combination of arguments - got (Tensor, bool), "
        "but expected one of:\n * (Tensor input, Tensor repeats, int dim = None, *, int "
        "output_size = None)\n * (Tensor repeats, *, int output_size = None)\n * (Tensor input, "
        "int repeats, int dim = None, *, int output_size = None)\n",
    ),
    (
        "torch.tensordot(x, x, dims=(0, 0))",
        TypeError,
        "tensordot(): argument 'dims_self' (position 3) must be tuple of ints, not int",
    ),
    (
        "torch.tensordot(x.bool(), x.bool(), dims=([0], [0]))",
        NotImplementedError,
        "\"addmm_impl_cpu_\" not implemented for 'Bool'",
    ),
    (
        "torch.tensordot(x[0].bool(), x[0].bool(), dims=([0], [0]))",
        NotImplementedError,
        "\"dot\" not implemented for 'Bool'",
    ),
    (
        "torch.repeat_interleave(v, 2, output_size=5)",
        RuntimeError,
        "repeat_interleave: Invalid output_size, expected 6 but got 5",
    ),
    (
        "torch.repeat_interleave(v, torch.tensor([1, 2, 0]), output_size=5)",
        RuntimeError,
        "allocated size does not match required size",
    ),
    (
        "torch.take_along_dim(x.T, torch.tensor([0, 5]))",
        RuntimeError,
        "view size is not compatible with input tensor's size and stride (at least one "
        "dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
    ),
    (
        "torch.kron(x.T, x)",
        RuntimeError,
        "view size is not compatible with input tensor's size and stride (at least one "
        "dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
    ),
    (
        "torch.hstack([x, 2])",
        TypeError,
        "expected Tensor as element 1 in argument 0, but got int",
    ),
    (
        "torch.meshgrid([1, 2], indexing='ij')",
        TypeError,
        "expected Tensor as element 0 in argument 0, but got int",
    ),
    (
        "torch.kron(x, 2)",
        TypeError,
        "kron(): argument 'other' (position 2) must be Tensor, not int",
    ),
    (
        "torch.diff(x, prepend=[1])",
        TypeError,
        "diff(): argument 'prepend' must be Tensor, not list",
    ),
    (
        "torch.cummax([1, 2], 0)",
        TypeError,
        "cummax(): argument 'input' (position 1) must be Tensor, not list",
    ),
    (
        "torch.broadcast_to(x, 4)",
        TypeError,
        "broadcast_to(): argument 'size' (position 2) must be tuple of ints, not int",
    ),
    (
        "torch.take_along_dim(s, torch.tensor(0), dim=0)",
        IndexError,
        "Dimension specified as 0 but tensor has no dimensions",
    ),
]


@pytest.mark.parametrize(
    ("expr", "kind", "message"), CORNER_ERRORS, ids=[e[0] for e in CORNER_ERRORS]
)
def test_corner_errors(expr: str, kind: type, message: str) -> None:
    with pytest.raises(kind) as caught:
        eval(expr, _names())
    assert str(caught.value) == message


def test_repeat_interleave_indices_keep_the_repeats_dtype() -> None:
    result = torch.repeat_interleave(torch.tensor([1, 2], dtype=torch.int32))
    assert (result.tolist(), result.dtype) == ([0, 1, 1], torch.int32)


def test_saved_values_as_pytorch_shows_them() -> None:
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    flat = torch.roll(x, 1).grad_fn
    assert (flat._saved_dims, flat._saved_shifts) == ((), (1,))
    both = torch.roll(x, (-1, 5), (-2, 1)).grad_fn
    assert (both._saved_dims, both._saved_shifts) == (
        (18446744073709551614, 1),
        (18446744073709551615, 5),
    )
    assert torch.cummin(x, -1).values.grad_fn._saved_dim == 18446744073709551615
    node = torch.cummax(x, 1).values.grad_fn
    assert node._saved_dim == 1 and node._saved_self is x
    assert node._saved_indices.tolist() == [[0, 1, 2], [0, 1, 2]]
