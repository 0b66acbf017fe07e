"""torch.svd, linalg.svd, svdvals, qr, cholesky, pinverse, linalg.pinv (ops/decompositions.py) as PyTorch gives them.

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
        "torch.svd(t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True))",
        (
            "tuple",
            (
                "tensor",
                [
                    [-0.22984787821769714, 0.8834614157676697],
                    [-0.5247448086738586, 0.2407817840576172],
                    [-0.8196420073509216, -0.4018956422805786],
                ],
                "float32",
                [3, 2],
                "LinalgSvdBackward0",
            ),
            (
                "tensor",
                [9.525519371032715, 0.5143013596534729],
                "float32",
                [2],
                "LinalgSvdBackward0",
            ),
            (
                "tensor",
                [
                    [-0.6196293830871582, -0.7848945260047913],
                    [-0.7848945260047913, 0.6196293830871582],
                ],
                "float32",
                [2, 2],
                "TransposeBackward0",
            ),
        ),
    ),
    (
        "torch.svd(t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), some=False)",
        (
            "tuple",
            (
                "tensor",
                [
                    [-0.22984787821769714, 0.8834614157676697, 0.4082474708557129],
                    [-0.5247448086738586, 0.2407817840576172, -0.8164967894554138],
                    [-0.8196420073509216, -0.4018956422805786, 0.4082486033439636],
                ],
                "float32",
                [3, 3],
                None,
            ),
            ("tensor", [9.525519371032715, 0.5143013596534729], "float32", [2], None),
            (
                "tensor",
                [
                    [-0.6196293830871582, -0.7848945260047913],
                    [-0.7848945260047913, 0.6196293830871582],
                ],
                "float32",
                [2, 2],
                None,
            ),
        ),
    ),
    (
        "torch.svd(t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True), compute_uv=False)",
        (
            "tuple",
            (
                "tensor",
                [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
                "float32",
                [3, 3],
                None,
            ),
            (
                "tensor",
                [9.525519371032715, 0.5143013596534729],
                "float32",
                [2],
                "LinalgSvdBackward0",
            ),
            ("tensor", [[0.0, 0.0], [0.0, 0.0]], "float32", [2, 2], None),
        ),
    ),
    (
        "torch.linalg.svd(t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True))",
        (
            "tuple",
            (
                "tensor",
                [
                    [-0.22984787821769714, 0.8834614157676697, 0.4082474708557129],
                    [-0.5247448086738586, 0.2407817840576172, -0.8164967894554138],
                    [-0.8196420073509216, -0.4018956422805786, 0.4082486033439636],
                ],
                "float32",
                [3, 3],
                "LinalgSvdBackward0",
            ),
            (
                "tensor",
                [9.525519371032715, 0.5143013596534729],
                "float32",
                [2],
                "LinalgSvdBackward0",
            ),
            (
                "tensor",
                [
                    [-0.6196293830871582, -0.7848945260047913],
                    [-0.7848945260047913, 0.6196293830871582],
                ],
                "float32",
                [2, 2],
                "LinalgSvdBackward0",
            ),
        ),
    ),
    (
        "torch.linalg.svd(t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=torch.float64), "
        "full_matrices=False)",
        (
            "tuple",
            (
                "tensor",
                [
                    [-0.2298476964000714, 0.8834610176985253],
                    [-0.5247448187602936, 0.24078249213254627],
                    [-0.8196419411205156, -0.40189603343343167],
                ],
                "float64",
                [3, 2],
                None,
            ),
            ("tensor", [9.525518091565107, 0.5143005806586441], "float64", [2], None),
            (
                "tensor",
                [
                    [-0.6196294838293402, -0.7848944532670524],
                    [-0.7848944532670524, 0.6196294838293402],
                ],
                "float64",
                [2, 2],
                None,
            ),
        ),
    ),
    (
        "torch.linalg.svd(t([[2.0, 0.0, 1.0], [0.0, 3.0, 0.0], [1.0, 0.0, 2.0]]))",
        (
            "tuple",
            (
                "tensor",
                [
                    [0.0, -0.7071067094802856, 0.7071067094802856],
                    [-1.0, 0.0, 0.0],
                    [0.0, -0.7071067690849304, -0.7071067094802856],
                ],
                "float32",
                [3, 3],
                None,
            ),
            ("tensor", [3.0, 2.999999761581421, 1.0], "float32", [3], None),
            (
                "tensor",
                [
                    [-0.0, -1.0, 0.0],
                    [-0.7071067690849304, 0.0, -0.7071067690849304],
                    [0.7071067690849304, 0.0, -0.7071067690849304],
                ],
                "float32",
                [3, 3],
                None,
            ),
        ),
    ),
    (
        "torch.linalg.svdvals(t([[[1.0, 2.0], [3.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]]], "
        "requires_grad=True))",
        (
            "tensor",
            [[5.464985370635986, 0.3659661114215851], [1.0, 1.0]],
            "float32",
            [2, 2],
            "LinalgSvdBackward0",
        ),
    ),
    (
        "t([[3.0, 0.0], [4.0, 5.0]]).svd().S",
        ("tensor", [6.70820426940918, 2.2360680103302], "float32", [2], None),
    ),
    (
        "torch.linalg.svd(torch.zeros(0, 3))",
        (
            "tuple",
            ("tensor", [], "float32", [0, 0], None),
            ("tensor", [], "float32", [0], None),
            (
                "tensor",
                [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
                "float32",
                [3, 3],
                None,
            ),
        ),
    ),
    (
        "torch.linalg.svd(t([[1, 0], [0, 1]]))",
        (
            "error",
            "RuntimeError",
            "linalg.svd: Expected a floating point or complex tensor as input. Got Long",
        ),
    ),
    (
        "torch.linalg.svd(torch.ones(3))",
        (
            "error",
            "RuntimeError",
            "linalg.svd: The input tensor A must have at least 2 dimensions.",
        ),
    ),
    (
        "torch.svd(torch.ones(3))",
        (
            "error",
            "RuntimeError",
            "linalg.svd: input should have at least 2 dimensions, but has 1 dimensions instead",
        ),
    ),
    (
        "torch.linalg.svdvals(torch.ones(3))",
        (
            "error",
            "RuntimeError",
            "linalg.svd: The input tensor A must have at least 2 dimensions.",
        ),
    ),
    (
        "torch.linalg.qr(t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True))",
        (
            "tuple",
            (
                "tensor",
                [
                    [-0.16903090476989746, 0.8970856666564941],
                    [-0.5070925951004028, 0.27602559328079224],
                    [-0.845154345035553, -0.345032274723053],
                ],
                "float32",
                [3, 2],
                "LinalgQrBackward0",
            ),
            (
                "tensor",
                [[-5.916079521179199, -7.437358856201172], [0.0, 0.8280800580978394]],
                "float32",
                [2, 2],
                "LinalgQrBackward0",
            ),
        ),
    ),
    (
        "torch.linalg.qr(t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), mode='complete')",
        (
            "tuple",
            (
                "tensor",
                [
                    [-0.16903090476989746, 0.8970856666564941, 0.4082474708557129],
                    [-0.5070925951004028, 0.27602559328079224, -0.8164967894554138],
                    [-0.845154345035553, -0.345032274723053, 0.4082486033439636],
                ],
                "float32",
                [3, 3],
                None,
            ),
            (
                "tensor",
                [[-5.916079521179199, -7.437358856201172], [0.0, 0.8280800580978394], [0.0, 0.0]],
                "float32",
                [3, 2],
                None,
            ),
        ),
    ),
    (
        "torch.linalg.qr(t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), mode='r')",
        (
            "tuple",
            ("tensor", [], "float32", [0], None),
            (
                "tensor",
                [[-5.916079521179199, -7.437358856201172], [0.0, 0.8280800580978394]],
                "float32",
                [2, 2],
                None,
            ),
        ),
    ),
    (
        "torch.qr(t([[1.0, 2.0, 0.5], [3.0, 4.0, -1.0]], dtype=torch.float64))",
        (
            "tuple",
            (
                "tensor",
                [
                    [-0.316227766016838, -0.9486832980505138],
                    [-0.9486832980505138, 0.316227766016838],
                ],
                "float64",
                [2, 2],
                None,
            ),
            (
                "tensor",
                [
                    [-3.1622776601683795, -4.427188724235731, 0.7905694150420948],
                    [0.0, -0.6324555320336751, -0.790569415042095],
                ],
                "float64",
                [2, 3],
                None,
            ),
        ),
    ),
    (
        "torch.qr(t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), some=False)",
        (
            "tuple",
            (
                "tensor",
                [
                    [-0.16903090476989746, 0.8970856666564941, 0.4082474708557129],
                    [-0.5070925951004028, 0.27602559328079224, -0.8164967894554138],
                    [-0.845154345035553, -0.345032274723053, 0.4082486033439636],
                ],
                "float32",
                [3, 3],
                None,
            ),
            (
                "tensor",
                [[-5.916079521179199, -7.437358856201172], [0.0, 0.8280800580978394], [0.0, 0.0]],
                "float32",
                [3, 2],
                None,
            ),
        ),
    ),
    (
        "t([[[2.0, 1.0], [1.0, 3.0]], [[0.0, 1.0], [1.0, 1.0]]]).qr()",
        (
            "tuple",
            (
                "tensor",
                [
                    [
                        [-0.8944270610809326, -0.4472135901451111],
                        [-0.4472135901451111, 0.8944271802902222],
                    ],
                    [[0.0, -1.0], [-1.0, 0.0]],
                ],
                "float32",
                [2, 2, 2],
                None,
            ),
            (
                "tensor",
                [
                    [[-2.2360680103302, -2.2360680103302], [0.0, 2.236067771911621]],
                    [[-1.0, -1.0], [0.0, -1.0]],
                ],
                "float32",
                [2, 2, 2],
                None,
            ),
        ),
    ),
    (
        "torch.linalg.qr(torch.zeros(3, 0))",
        (
            "tuple",
            ("tensor", [[], [], []], "float32", [3, 0], None),
            ("tensor", [], "float32", [0, 0], None),
        ),
    ),
    (
        "torch.linalg.qr(torch.ones(3))",
        ("error", "RuntimeError", "linalg.qr: The input tensor A must have at least 2 dimensions."),
    ),
    (
        "torch.linalg.qr(torch.ones(2, 2), mode='x')",
        (
            "error",
            "RuntimeError",
            "qr received unrecognized mode 'x' but expected one of 'reduced' (default), 'r', or "
            "'complete'",
        ),
    ),
    (
        "torch.linalg.qr(t([[1, 0], [0, 1]]))",
        (
            "error",
            "RuntimeError",
            "linalg.qr: Expected a floating point or complex tensor as input. Got Long",
        ),
    ),
    (
        "torch.linalg.cholesky(t([[4.0, 2.0], [2.0, 3.0]], requires_grad=True))",
        (
            "tensor",
            [[2.0, 0.0], [1.0, 1.4142135381698608]],
            "float32",
            [2, 2],
            "LinalgCholeskyExBackward0",
        ),
    ),
    (
        "torch.linalg.cholesky(t([[4.0, 2.0], [2.0, 3.0]]), upper=True)",
        ("tensor", [[2.0, 1.0], [0.0, 1.4142135381698608]], "float32", [2, 2], None),
    ),
    (
        "torch.cholesky(t([[4.0, 2.0], [2.0, 3.0]], requires_grad=True))",
        ("tensor", [[2.0, 0.0], [1.0, 1.4142135381698608]], "float32", [2, 2], "CholeskyBackward0"),
    ),
    (
        "torch.cholesky(t([[4.0, 2.0], [2.0, 3.0]]), upper=True)",
        ("tensor", [[2.0, 1.0], [0.0, 1.4142135381698608]], "float32", [2, 2], None),
    ),
    (
        "t([[[4.0, 2.0], [2.0, 3.0]], [[1.0, 0.0], [0.0, 9.0]]], dtype=torch.float64).cholesky()",
        (
            "tensor",
            [[[2.0, 0.0], [1.0, 1.4142135623730951]], [[1.0, 0.0], [0.0, 3.0]]],
            "float64",
            [2, 2, 2],
            None,
        ),
    ),
    (
        "torch.linalg.cholesky(t([[1.0, 2.0], [2.0, 1.0]]))",
        (
            "error",
            "_LinAlgError",
            "linalg.cholesky: The factorization could not be completed because the input is not "
            "positive-definite (the leading minor of order 2 is not positive-definite).",
        ),
    ),
    (
        "torch.linalg.cholesky(t([[[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 1.0]]]))",
        (
            "error",
            "_LinAlgError",
            "linalg.cholesky: (Batch element 1): The factorization could not be completed because the input "
            "is not positive-definite (the leading minor of order 2 is not positive-definite).",
        ),
    ),
    (
        "torch.cholesky(t([[1.0, 2.0], [2.0, 1.0]]))",
        (
            "error",
            "_LinAlgError",
            "cholesky: The factorization could not be completed because the input is not positive-definite "
            "(the leading minor of order 2 is not positive-definite).",
        ),
    ),
    (
        "torch.linalg.cholesky(torch.ones(2, 3))",
        (
            "error",
            "RuntimeError",
            "linalg.cholesky: A must be batches of square matrices, but they are 2 by 3 matrices",
        ),
    ),
    (
        "torch.linalg.cholesky(t([[1, 0], [0, 1]]))",
        (
            "error",
            "RuntimeError",
            "linalg.cholesky: Expected a floating point or complex tensor as input. Got Long",
        ),
    ),
    (
        "torch.cholesky(torch.ones(3))",
        ("error", "RuntimeError", "cholesky: The input tensor A must have at least 2 dimensions."),
    ),
    (
        "torch.linalg.pinv(t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True))",
        (
            "tensor",
            [
                [-1.3333319425582886, -0.33333173394203186, 0.6666651964187622],
                [1.0833319425582886, 0.33333197236061096, -0.41666537523269653],
            ],
            "float32",
            [2, 3],
            "LinalgPinvBackward0",
        ),
    ),
    (
        "torch.pinverse(t([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))",
        (
            "tensor",
            [
                [-1.3333319425582886, -0.33333173394203186, 0.6666651964187622],
                [1.0833319425582886, 0.33333197236061096, -0.41666537523269653],
            ],
            "float32",
            [2, 3],
            None,
        ),
    ),
    (
        "torch.linalg.pinv(t([[1.0, 2.0], [2.0, 4.0]]))",
        (
            "tensor",
            [[0.04000000283122063, 0.08000002056360245], [0.07999999076128006, 0.1600000113248825]],
            "float32",
            [2, 2],
            None,
        ),
    ),
    (
        "torch.linalg.pinv(torch.diag(t([1.0, 1e-8])))",
        ("tensor", [[1.0, 0.0], [0.0, 0.0]], "float32", [2, 2], None),
    ),
    (
        "torch.linalg.pinv(torch.diag(t([1.0, 1e-8], dtype=torch.float64)))",
        ("tensor", [[1.0, 0.0], [0.0, 100000000.0]], "float64", [2, 2], None),
    ),
    (
        "torch.linalg.pinv(torch.diag(t([1.0, 0.1])), atol=0.5)",
        ("tensor", [[1.0, 0.0], [0.0, 0.0]], "float32", [2, 2], None),
    ),
    (
        "torch.linalg.pinv(torch.diag(t([1.0, 0.1])), rtol=0.2)",
        ("tensor", [[1.0, 0.0], [0.0, 0.0]], "float32", [2, 2], None),
    ),
    (
        "torch.linalg.pinv(torch.diag(t([2.0, 0.1])), atol=0.05, rtol=0.2)",
        ("tensor", [[0.5, 0.0], [0.0, 0.0]], "float32", [2, 2], None),
    ),
    (
        "torch.pinverse(torch.diag(t([2.0, 0.1])), rcond=0.1)",
        ("tensor", [[0.5, 0.0], [0.0, 0.0]], "float32", [2, 2], None),
    ),
    (
        "torch.linalg.pinv(torch.zeros(2, 3))",
        ("tensor", [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]], "float32", [3, 2], None),
    ),
    ("torch.linalg.pinv(torch.zeros(0, 3))", ("tensor", [[], [], []], "float32", [3, 0], None)),
    (
        "t([[1.0, 0.0, 2.0], [0.0, 1.0, 0.0]], dtype=torch.float64).pinverse()",
        (
            "tensor",
            [[0.19999999999999996, 0.0], [0.0, 1.0], [0.3999999999999999, 0.0]],
            "float64",
            [3, 2],
            None,
        ),
    ),
    (
        "torch.linalg.pinv(torch.ones(3))",
        (
            "error",
            "RuntimeError",
            "linalg.pinv(Float{[3]}): expected a tensor with 2 or more dimensions of float, double, cfloat "
            "or cdouble types",
        ),
    ),
    (
        "torch.pinverse(t([[1, 0], [0, 1]]))",
        (
            "error",
            "RuntimeError",
            "linalg.pinv(Long{[2, 2]}): expected a tensor with 2 or more dimensions of float, double, "
            "cfloat or cdouble types",
        ),
    ),
]


@pytest.mark.parametrize("expr, expected", RECORDED, ids=[r[0][:60] for r in RECORDED])
def test_as_pytorch(expr: str, expected: tuple) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_recorded(expr, expected)
