"""torch.addmv, addr, baddbmm, addbmm, chain_matmul, matrix_power, matrix_exp, slogdet, logdet (ops/matrix_functions.py) as PyTorch gives them.

Each row is an expression and what PyTorch 2.13 gave for it (values, dtype, shape, grad_fn name, or
the exception type and message), recorded under /work/torchenv; the engine must give the same."""

from __future__ import annotations

import math
import warnings

import pytest
from recorded import check_recorded

nan = math.nan
inf = math.inf

RECORDED = [
    (
        "torch.addmv(t([1, 1]), t([[1, 2, 3], [4, 5, 6]]), t([1, 0, 2]))",
        ("tensor", [8, 17], "int64", [2], None),
    ),
    (
        "torch.addmv(t([1, 1]), t([[1, 2, 3], [4, 5, 6]]), t([1, 0, 2]), alpha=2.5)",
        ("tensor", [15, 33], "int64", [2], None),
    ),
    (
        "torch.addmv(t([1, 1]), t([[1, 2, 3], [4, 5, 6]]), t([1, 0, 2]), beta=2.5)",
        ("tensor", [9, 18], "int64", [2], None),
    ),
    (
        "torch.addmv(t([nan, 1.0]), t([[1.0, 2, 3], [4, 5, 6]]), t([1.0, 0, 2]), beta=0)",
        ("tensor", [7.0, 16.0], "float32", [2], None),
    ),
    (
        "torch.addmv(t(1.0), t([[1.0, 2, 3], [4, 5, 6]]), t([1.0, 0, 2]), beta=0.5, alpha=-1)",
        ("tensor", [-6.5, -15.5], "float32", [2], None),
    ),
    (
        "torch.addmv(t([1.0, 2.0], requires_grad=True), t([[1.0, 2, 3], [4, 5, 6]]), t([1.0, 0, 2]))",
        ("tensor", [8.0, 18.0], "float32", [2], "AddmvBackward0"),
    ),
    (
        "torch.addmv(torch.ones(3), torch.ones(2, 3), torch.ones(3))",
        ("error", "RuntimeError", "size mismatch, got input (3), mat (2x3), vec (3)"),
    ),
    (
        "torch.addmv(torch.ones(1, 2), torch.ones(2, 3), torch.ones(3))",
        ("error", "RuntimeError", "vector + matrix @ vector expected, got 2, 2, 1"),
    ),
    (
        "torch.addmv(torch.ones(2), torch.ones(2, 3), torch.ones(4))",
        ("error", "RuntimeError", "size mismatch, got input (2), mat (2x3), vec (4)"),
    ),
    (
        "torch.addmv(torch.ones(2), torch.ones(2, 3), torch.ones(3, dtype=torch.float64))",
        (
            "error",
            "RuntimeError",
            "addmv input tensors must have the same dtype, but got Float, Float, and Double",
        ),
    ),
    (
        "torch.ones(2).addmv_(torch.ones(2, 3), torch.ones(3), alpha=2)",
        ("tensor", [7.0, 7.0], "float32", [2], None),
    ),
    (
        "torch.zeros(1).addmv_(torch.ones(2, 3), torch.ones(3))",
        (
            "error",
            "RuntimeError",
            "Bad in-place call: input tensor size [1] and output tensor size [2] should match",
        ),
    ),
    (
        "torch.addr(torch.zeros(2, 3), t([1.0, 2]), t([1.0, 2, 3]), beta=0.5, alpha=2)",
        ("tensor", [[2.0, 4.0, 6.0], [4.0, 8.0, 12.0]], "float32", [2, 3], None),
    ),
    (
        "torch.addr(torch.zeros(2, 3), t([1, 2]), t([1, 2, 3]))",
        ("tensor", [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]], "float32", [2, 3], None),
    ),
    (
        "torch.addr(torch.zeros(2, 3, dtype=torch.bool), t([True, False]), t([True, False, True]))",
        ("tensor", [[True, False, True], [False, False, False]], "bool", [2, 3], None),
    ),
    (
        "torch.addr(t([1.0, 2.0, 3.0]), t([1.0, 2]), t([1.0, 2, 3]))",
        ("tensor", [[2.0, 4.0, 6.0], [3.0, 6.0, 9.0]], "float32", [2, 3], None),
    ),
    (
        "torch.addr(torch.ones(2, 3), torch.ones(2, 1), torch.ones(3))",
        ("error", "RuntimeError", "addr: Expected 1-D argument vec1, but got 2-D"),
    ),
    (
        "torch.addr(torch.ones(2, 4), torch.ones(2), torch.ones(3))",
        (
            "error",
            "RuntimeError",
            "The expanded size of the tensor (3) must match the existing size (4) at non-singleton "
            "dimension 1.  Target sizes: [2, 3].  Tensor sizes: [2, 4]",
        ),
    ),
    (
        "torch.addr(torch.ones(2, 3, requires_grad=True), torch.ones(2), torch.ones(3))",
        ("tensor", [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]], "float32", [2, 3], "AddrBackward0"),
    ),
    (
        "torch.ones(2, 3).addr_(t([1.0, 2]), t([1.0, 0, -1]))",
        ("tensor", [[2.0, 1.0, 0.0], [3.0, 1.0, -1.0]], "float32", [2, 3], None),
    ),
    (
        "torch.baddbmm(torch.zeros(1, 5), torch.ones(4, 2, 3), torch.ones(4, 3, 5), beta=0.5, "
        "alpha=2).sum()",
        ("tensor", 240.0, "float32", [], None),
    ),
    (
        "torch.baddbmm(t([[[1.0]]]), t([[[1.0, 2.0]], [[3.0, 4.0]]]), t([[[1.0], [1.0]], [[2.0], "
        "[0.5]]]), beta=-1)",
        ("tensor", [[[2.0]], [[7.0]]], "float32", [2, 1, 1], None),
    ),
    (
        "torch.baddbmm(torch.zeros(4, 2, 5), torch.ones(4, 2, 3), torch.ones(4, 3, 5, "
        "dtype=torch.float64))",
        ("error", "RuntimeError", "expected scalar type Float but found Double"),
    ),
    (
        "torch.baddbmm(torch.zeros(4, 2, 5), torch.ones(4, 2, 3), torch.ones(4, 4, 5))",
        (
            "error",
            "RuntimeError",
            "Expected size for first two dimensions of batch2 tensor to be: [4, 3] but got: [4, 4].",
        ),
    ),
    (
        "torch.baddbmm(torch.zeros(4, 2, 5), torch.ones(4, 2, 3), torch.ones(3, 3, 5))",
        (
            "error",
            "RuntimeError",
            "Expected size for first two dimensions of batch2 tensor to be: [4, 3] but got: [3, 3].",
        ),
    ),
    (
        "torch.baddbmm(torch.zeros(4, 2, 5, requires_grad=True), torch.ones(4, 2, 3), torch.ones(4, 3, "
        "5)).grad_fn.name()",
        ("value", "BaddbmmBackward0"),
    ),
    (
        "torch.addbmm(torch.zeros(2, 1), t([[[1.0, 2.0]], [[3.0, 4.0]]]).transpose(1, 2), t([[[1.0, "
        "2.0]], [[0.5, -1.0]]]), alpha=2)",
        ("tensor", [[5.0, -2.0], [8.0, 0.0]], "float32", [2, 2], None),
    ),
    (
        "torch.addbmm(t([1, 2]), t([[[1, 2]], [[3, 4]]]), t([[[1, 2], [0, 1]], [[1, 0], [1, 1]]]))",
        ("tensor", [[9, 10]], "int64", [1, 2], None),
    ),
    (
        "torch.addbmm(torch.zeros(2, 5), torch.ones(4, 2, 3), torch.ones(4, 4, 5))",
        ("error", "RuntimeError", "Incompatible matrix sizes for bmm (2x3 and 4x5)"),
    ),
    (
        "torch.addbmm(torch.zeros(3, 5), torch.ones(4, 2, 3), torch.ones(4, 3, 5))",
        (
            "error",
            "RuntimeError",
            "The expanded size of the tensor (2) must match the existing size (3) at non-singleton "
            "dimension 0.  Target sizes: [2, 5].  Tensor sizes: [3, 5]",
        ),
    ),
    (
        "torch.addbmm(torch.zeros(2, 5), torch.ones(0, 2, 3), torch.ones(0, 3, 5))",
        ("tensor", [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]], "float32", [2, 5], None),
    ),
    (
        "torch.zeros(2, 5).addbmm_(torch.ones(4, 2, 3), torch.ones(4, 3, 5)).sum()",
        ("tensor", 120.0, "float32", [], None),
    ),
    (
        "torch.chain_matmul(t([[1, 2], [3, 4]]), t([[0, 1], [1, 0]]), t([[2, 0], [0, 3]]))",
        ("tensor", [[4, 3], [8, 9]], "int64", [2, 2], None),
    ),
    (
        "torch.chain_matmul(t([[1.0, 2.0]], requires_grad=True))",
        ("tensor", [[1.0, 2.0]], "float32", [1, 2], "CloneBackward0"),
    ),
    (
        "torch.chain_matmul(t([[1.0, 2.0]], requires_grad=True), t([[3.0], [4.0]]))",
        ("tensor", [[11.0]], "float32", [1, 1], "ViewBackward0"),
    ),
    (
        "torch.chain_matmul()",
        ("error", "RuntimeError", "chain_matmul(): Expected one or more matrices"),
    ),
    (
        "torch.chain_matmul(torch.ones(2, 3), torch.ones(4, 2))",
        (
            "error",
            "RuntimeError",
            "multi_dot(): tensors 0 and 1 with shapes [2, 3] and [4, 2] cannot be multiplied",
        ),
    ),
    (
        "torch.chain_matmul(torch.ones(3), torch.ones(3, 2))",
        ("error", "RuntimeError", "Tensor dimension is 1, expected 2 instead."),
    ),
    (
        "torch.matrix_power(t([[1, 2], [3, 4]]), 3)",
        ("tensor", [[37, 54], [81, 118]], "int64", [2, 2], None),
    ),
    (
        "torch.matrix_power(t([[1, 2], [3, 4]]), 0)",
        ("tensor", [[1, 0], [0, 1]], "int64", [2, 2], None),
    ),
    (
        "torch.matrix_power(t([[1.0, 2.0], [3.0, 4.0]]), -2)",
        (
            "tensor",
            [[5.500001430511475, -2.500000476837158], [-3.7500009536743164, 1.7500004768371582]],
            "float32",
            [2, 2],
            None,
        ),
    ),
    (
        "torch.linalg.matrix_power(t([[2.0, 1.0], [0.0, 1.0]], requires_grad=True), 5)",
        ("tensor", [[32.0, 31.0], [0.0, 1.0]], "float32", [2, 2], "MmBackward0"),
    ),
    (
        "torch.linalg.matrix_power(t([[2.0, 1.0], [0.0, 1.0]], requires_grad=True), 1)",
        ("tensor", [[2.0, 1.0], [0.0, 1.0]], "float32", [2, 2], "CloneBackward0"),
    ),
    (
        "torch.linalg.matrix_power(t([[2.0, 1.0], [0.0, 1.0]], requires_grad=True), 0)",
        ("tensor", [[1.0, 0.0], [0.0, 1.0]], "float32", [2, 2], "torch::autograd::CopyBackwards"),
    ),
    (
        "torch.linalg.matrix_power(t([[2.0, 1.0], [0.0, 1.0]], requires_grad=True), -1)",
        ("tensor", [[0.5, -0.5], [0.0, 1.0]], "float32", [2, 2], "LinalgInvExBackward0"),
    ),
    (
        "torch.matrix_power(t([[[1.0, 1.0], [0.0, 1.0]], [[0.0, 1.0], [1.0, 0.0]]], requires_grad=True), "
        "3)",
        (
            "tensor",
            [[[1.0, 3.0], [0.0, 1.0]], [[0.0, 1.0], [1.0, 0.0]]],
            "float32",
            [2, 2, 2],
            "UnsafeViewBackward0",
        ),
    ),
    (
        "t([[1.0, 1.0], [0.0, 1.0]]).matrix_power(6)",
        ("tensor", [[1.0, 6.0], [0.0, 1.0]], "float32", [2, 2], None),
    ),
    (
        "torch.matrix_power(t([[1, 2], [3, 4]]), -1)",
        (
            "error",
            "RuntimeError",
            "linalg.inv: Expected a floating point or complex tensor as input. Got Long",
        ),
    ),
    (
        "torch.matrix_power(torch.ones(2, 3), 2)",
        (
            "error",
            "RuntimeError",
            "linalg.matrix_power: A must be batches of square matrices, but they are 2 by 3 matrices",
        ),
    ),
    (
        "torch.matrix_power(torch.ones(3), 2)",
        (
            "error",
            "RuntimeError",
            "linalg.matrix_power: The input tensor A must have at least 2 dimensions.",
        ),
    ),
    (
        "torch.matrix_power(torch.ones(2, 2), 2.0)",
        ("error", "TypeError", "matrix_power(): argument 'n' (position 2) must be int, not float"),
    ),
    (
        "torch.matrix_power(torch.zeros(2, 2), -1)",
        (
            "error",
            "_LinAlgError",
            "linalg.inv: The diagonal element 1 is zero, the inversion could not be completed because the "
            "input matrix is singular.",
        ),
    ),
    ("torch.matrix_power(torch.zeros(0, 0), 3)", ("tensor", [], "float32", [0, 0], None)),
    (
        "torch.matrix_exp(t([[0.0, 1.0], [-1.0, 0.0]]))",
        (
            "tensor",
            [[0.5403022766113281, 0.8414709568023682], [-0.8414709568023682, 0.5403022766113281]],
            "float32",
            [2, 2],
            None,
        ),
    ),
    (
        "torch.matrix_exp(t([[1.0, 2.0], [0.0, 3.0]], dtype=torch.float64, requires_grad=True))",
        (
            "tensor",
            [[2.7182818284590446, 17.367255094728613], [0.0, 20.085536923187657]],
            "float64",
            [2, 2],
            "LinalgMatrixExpBackward0",
        ),
    ),
    (
        "torch.linalg.matrix_exp(t([[[0.5, -0.2], [0.3, 0.1]], [[4.0, 1.0], [2.0, -3.0]]], "
        "dtype=torch.float64))",
        (
            "tensor",
            [
                [
                    [1.6054554572749073, -0.2690727551209474],
                    [0.4036091326814211, 1.0673099470330127],
                ],
                [[69.25836294674907, 9.514959535074905], [19.02991907014981, 2.6536462012247366]],
            ],
            "float64",
            [2, 2, 2],
            None,
        ),
    ),
    (
        "t([[10.0, 0.0], [0.0, -10.0]]).matrix_exp()",
        ("tensor", [[22026.462890625, 0.0], [0.0, 4.540233203442767e-05]], "float32", [2, 2], None),
    ),
    ("torch.matrix_exp(torch.zeros(0, 0))", ("tensor", [], "float32", [0, 0], None)),
    (
        "torch.matrix_exp(torch.ones(2, 3))",
        (
            "error",
            "RuntimeError",
            "linalg.matrix_exp: A must be batches of square matrices, but they are 2 by 3 matrices",
        ),
    ),
    (
        "torch.matrix_exp(t([[1, 2], [3, 4]]))",
        (
            "error",
            "RuntimeError",
            "linalg.matrix_exp: Expected a floating point or complex tensor as input. Got Long",
        ),
    ),
    (
        "torch.slogdet(t([[1.0, 2.0], [3.0, 4.0]]))",
        (
            "tuple",
            ("tensor", -1.0, "float32", [], None),
            ("tensor", 0.6931471824645996, "float32", [], None),
        ),
    ),
    (
        "torch.linalg.slogdet(t([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True))",
        (
            "tuple",
            ("tensor", -1.0, "float64", [], "LinalgSlogdetBackward0"),
            ("tensor", 0.6931471805599453, "float64", [], "LinalgSlogdetBackward0"),
        ),
    ),
    (
        "torch.slogdet(t([[[2.0, 0.0], [0.0, 3.0]], [[0.0, 1.0], [1.0, 0.0]], [[1.0, 2.0], [2.0, "
        "4.0]]]))",
        (
            "tuple",
            ("tensor", [1.0, -1.0, -0.0], "float32", [3], None),
            ("tensor", [1.7917594909667969, 0.0, -inf], "float32", [3], None),
        ),
    ),
    (
        "torch.slogdet(t([[1, 2], [3, 4]]))",
        (
            "error",
            "RuntimeError",
            "linalg.slogdet: Expected a floating point or complex tensor as input. Got Long",
        ),
    ),
    (
        "torch.slogdet(torch.ones(2, 3))",
        (
            "error",
            "RuntimeError",
            "linalg.slogdet: A must be batches of square matrices, but they are 2 by 3 matrices",
        ),
    ),
    ("torch.logdet(t([[1.0, 2.0], [3.0, 4.0]]))", ("tensor", nan, "float32", [], None)),
    (
        "torch.logdet(t([[2.0, 1.0], [1.0, 3.0]], requires_grad=True))",
        ("tensor", 1.6094379425048828, "float32", [], "WhereBackward0"),
    ),
    ("torch.logdet(t([[1.0, 2.0], [2.0, 4.0]]))", ("tensor", -inf, "float32", [], None)),
    (
        "t([[[2.0, 0.0], [0.0, 3.0]], [[0.0, 1.0], [1.0, 0.0]]]).logdet()",
        ("tensor", [1.7917594909667969, nan], "float32", [2], None),
    ),
    (
        "torch.logdet(t([[1, 2], [3, 4]]))",
        (
            "error",
            "RuntimeError",
            "logdet: Expected a floating point or complex tensor as input. Got Long",
        ),
    ),
    (
        "torch.logdet(torch.ones(2, 3))",
        (
            "error",
            "RuntimeError",
            "logdet: A must be batches of square matrices, but they are 2 by 3 matrices",
        ),
    ),
    (
        "torch.logdet(torch.ones(3))",
        ("error", "RuntimeError", "logdet: The input tensor A must have at least 2 dimensions."),
    ),
]


@pytest.mark.parametrize("expr, expected", RECORDED, ids=[r[0][:60] for r in RECORDED])
def test_as_pytorch(expr: str, expected: tuple) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_recorded(expr, expected)
