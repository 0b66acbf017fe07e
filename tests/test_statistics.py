"""torch.cdist, dist, trapezoid, trapz, cumulative_trapezoid, cov, corrcoef, quantile, nanquantile, nanmedian, mode (ops/statistics.py) as PyTorch gives them.

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
        "torch.cdist(t([[0.0, 0.0], [1.0, 1.0], [2.0, -1.0]]), t([[0.0, 1.0], [3.0, 3.0]]))",
        (
            "tensor",
            [
                [1.0, 4.242640495300293],
                [1.0, 2.8284270763397217],
                [2.8284270763397217, 4.123105525970459],
            ],
            "float32",
            [3, 2],
            None,
        ),
    ),
    (
        "torch.cdist(t([[0.0, 0.0], [1.0, 1.0]], requires_grad=True), t([[0.0, 1.0], [3.0, 3.0]]), p=1)",
        ("tensor", [[1.0, 6.0], [1.0, 4.0]], "float32", [2, 2], "CdistBackward0"),
    ),
    (
        "torch.cdist(t([[0.0, 0.0], [1.0, 1.0]]), t([[0.0, 1.0], [3.0, 3.0]]), p=0)",
        ("tensor", [[1.0, 2.0], [1.0, 2.0]], "float32", [2, 2], None),
    ),
    (
        'torch.cdist(t([[0.0, 0.0], [1.0, 1.0]]), t([[0.0, 1.0], [3.0, 3.0]]), p=float("inf"))',
        ("tensor", [[1.0, 3.0], [1.0, 2.0]], "float32", [2, 2], None),
    ),
    (
        "torch.cdist(t([[0.0, 0.0], [1.0, 1.0]]), t([[0.0, 1.0], [3.0, 3.0]]), p=0.5)",
        ("tensor", [[1.0, 12.0], [1.0, 7.999999523162842]], "float32", [2, 2], None),
    ),
    (
        "torch.cdist(t([[[0.0, 0.0]], [[1.0, 1.0]]]), t([[[0.0, 1.0], [3.0, 3.0]]]), p=3)",
        (
            "tensor",
            [[[1.0, 3.7797632217407227]], [[1.0, 2.5198421478271484]]],
            "float32",
            [2, 1, 2],
            None,
        ),
    ),
    (
        "torch.cdist(t([[0.0, 0.0], [1.0, 1.0]], requires_grad=True), t([[0.0, 1.0], [3.0, 3.0]]), "
        'compute_mode="use_mm_for_euclid_dist")',
        (
            "tensor",
            [[1.0, 4.242640495300293], [1.0, 2.8284270763397217]],
            "float32",
            [2, 2],
            "ViewBackward0",
        ),
    ),
    (
        "torch.cdist(torch.arange(60.0).view(30, 2).requires_grad_(), t([[0.0, 1.0]])).grad_fn.name()",
        ("value", "ViewBackward0"),
    ),
    (
        "torch.cdist(torch.arange(60.0).view(30, 2).requires_grad_(), t([[0.0, 1.0]]), "
        'compute_mode="donot_use_mm_for_euclid_dist").grad_fn.name()',
        ("value", "CdistBackward0"),
    ),
    (
        "(lambda x: (torch.cdist(x, t([[0.0, 1.0], [2.0, 2.0]])).sum().backward(), x.grad)[1])(t([[1.0, "
        "2.0], [0.0, 1.0]], requires_grad=True))",
        (
            "tensor",
            [[-0.2928932309150696, 0.7071067690849304], [-0.8944271802902222, -0.4472135901451111]],
            "float32",
            [2, 2],
            None,
        ),
    ),
    (
        "(lambda x: (torch.cdist(x, t([[0.0, 1.0], [2.0, 2.0]]), p=1).sum().backward(), "
        "x.grad)[1])(t([[1.0, 2.0], [0.0, 1.0]], requires_grad=True))",
        ("tensor", [[0.0, 1.0], [-1.0, -1.0]], "float32", [2, 2], None),
    ),
    (
        '(lambda x: (torch.cdist(x, t([[0.0, 1.0], [2.0, 2.0]]), p=float("inf")).sum().backward(), '
        "x.grad)[1])(t([[1.0, 3.0], [0.0, 1.0]], requires_grad=True))",
        ("tensor", [[-1.0, 2.0], [-1.0, 0.0]], "float32", [2, 2], None),
    ),
    (
        "(lambda x: (torch.cdist(x, t([[0.0, 1.0], [2.0, 2.0]]), p=3).sum().backward(), "
        "x.grad)[1])(t([[1.0, 3.0], [0.0, 1.5]], requires_grad=True))",
        (
            "tensor",
            [[-0.398840069770813, 1.5544421672821045], [-0.9897171258926392, 0.9381426572799683]],
            "float32",
            [2, 2],
            None,
        ),
    ),
    (
        "(lambda y: (torch.cdist(t([[1.0, 3.0], [0.0, 1.5]]), y, p=1.5).sum().backward(), "
        "y.grad)[1])(t([[0.0, 1.0], [2.0, 2.0], [1.0, -1.0]], requires_grad=True))",
        (
            "tensor",
            [
                [-0.6392340064048767, -1.9040133953094482],
                [1.7552002668380737, -0.31295064091682434],
                [0.5866535305976868, -1.9275805950164795],
            ],
            "float32",
            [3, 2],
            None,
        ),
    ),
    (
        "(lambda x: (torch.cdist(x, t([[0.0, 1.0], [2.0, 2.0]]), "
        'compute_mode="use_mm_for_euclid_dist").sum().backward(), x.grad)[1])(t([[1.0, 2.0], [0.0, '
        "1.0]], requires_grad=True))",
        (
            "tensor",
            [[-0.2928931713104248, 0.7071068286895752], [-0.8944271802902222, -0.4472135901451111]],
            "float32",
            [2, 2],
            None,
        ),
    ),
    (
        "torch.cdist(torch.ones(3, 2), torch.ones(4, 3))",
        ("error", "RuntimeError", "X1 and X2 must have the same number of columns. X1: 2 X2: 3"),
    ),
    (
        "torch.cdist(torch.ones(3), torch.ones(4, 3))",
        ("error", "RuntimeError", "cdist only supports at least 2D tensors, X1 got: 1D"),
    ),
    (
        "torch.cdist(torch.ones(3, 2), torch.ones(4, 2), p=-1)",
        ("error", "RuntimeError", "cdist only supports non-negative p values"),
    ),
    (
        "torch.cdist(t([[1, 2]]), t([[1, 2]]))",
        ("error", "RuntimeError", "cdist only supports floating-point dtypes, X1 got: Long"),
    ),
    (
        "torch.cdist(torch.ones(2, 3, 2), torch.ones(3, 4, 2))",
        (
            "error",
            "RuntimeError",
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0",
        ),
    ),
    (
        "torch.cdist(torch.ones(3, 2), torch.ones(4, 2, dtype=torch.float64))",
        ("error", "RuntimeError", "expected scalar type Float but found Double"),
    ),
    ("torch.cdist(torch.zeros(0, 2), torch.ones(3, 2))", ("tensor", [], "float32", [0, 3], None)),
    (
        "torch.dist(t([1.0, 2.0, 3.0], requires_grad=True), torch.zeros(3))",
        ("tensor", 3.7416574954986572, "float32", [], "DistBackward0"),
    ),
    ("torch.dist(t([1.0, 2.0, 3.0]), torch.zeros(3), 1)", ("tensor", 6.0, "float32", [], None)),
    ("torch.dist(t([1.0, 2.0, 0.0]), torch.zeros(3), 0)", ("tensor", 2.0, "float32", [], None)),
    (
        'torch.dist(t([1.0, -2.0, 3.0]), torch.zeros(1), float("inf"))',
        ("tensor", 3.0, "float32", [], None),
    ),
    (
        "t([1.0, 2.0, 3.0]).dist(torch.ones(1), 3)",
        ("tensor", 2.0800838470458984, "float32", [], None),
    ),
    (
        "t([1.0, 2.0], dtype=torch.float64).dist(t([[0.0], [1.0]], dtype=torch.float64))",
        ("tensor", 2.449489742783178, "float64", [], None),
    ),
    (
        "(lambda x: (torch.dist(x, t([0.0, 1.0, 5.0]), 3).backward(), x.grad)[1])(t([1.0, 2.0, 3.0], "
        "requires_grad=True))",
        (
            "tensor",
            [0.2154434770345688, 0.2154434770345688, -0.8617739081382751],
            "float32",
            [3],
            None,
        ),
    ),
    (
        '(lambda x: (torch.dist(x, t([0.0, 1.0, 5.0]), float("inf")).backward(), x.grad)[1])(t([1.0, '
        "2.0, 3.0], requires_grad=True))",
        ("tensor", [0.0, 0.0, -1.0], "float32", [3], None),
    ),
    (
        "torch.dist(t([1, 2]), t([0, 0]))",
        (
            "error",
            "RuntimeError",
            "norm(): input dtype should be either floating point or complex. Got Long instead.",
        ),
    ),
    (
        "torch.dist(torch.ones(2), torch.ones(3))",
        (
            "error",
            "RuntimeError",
            "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0",
        ),
    ),
    (
        "torch.trapezoid(t([1.0, 4.0, 9.0, 16.0], requires_grad=True))",
        ("tensor", 21.5, "float32", [], "MulBackward1"),
    ),
    ("torch.trapezoid(t([1.0, 4.0, 9.0, 16.0]), dx=0.5)", ("tensor", 10.75, "float32", [], None)),
    (
        "torch.trapezoid(t([1.0, 4.0, 9.0, 16.0], requires_grad=True), t([0.0, 1.0, 3.0, 4.0]))",
        ("tensor", 28.0, "float32", [], "DivBackward1"),
    ),
    (
        "torch.trapz(t([1.0, 4.0, 9.0, 16.0]), t([0.0, 1.0, 3.0, 4.0]))",
        ("tensor", 28.0, "float32", [], None),
    ),
    ("torch.trapz(t([1.0, 4.0, 9.0, 16.0]), dx=2)", ("tensor", 43.0, "float32", [], None)),
    ("torch.trapezoid(t([1, 2, 3]))", ("tensor", 4.0, "float32", [], None)),
    ("torch.trapezoid(t([1, 2, 3]), dx=2)", ("tensor", 8.0, "float32", [], None)),
    ("torch.trapezoid(torch.ones(2, 3), dim=0)", ("tensor", [1.0, 1.0, 1.0], "float32", [3], None)),
    (
        "torch.trapezoid(torch.arange(6.0).view(2, 3), t([0.0, 1.0, 3.0]))",
        ("tensor", [3.5, 12.5], "float32", [2], None),
    ),
    (
        "torch.trapezoid(torch.arange(6.0).view(2, 3), t([[0.0, 1.0, 3.0], [1.0, 2.0, 2.5]]))",
        ("tensor", [3.5, 5.75], "float32", [2], None),
    ),
    (
        "torch.trapezoid(torch.arange(6.0).view(3, 2), t([0.0, 1.0, 3.0]), dim=0)",
        ("tensor", [7.0, 10.0], "float32", [2], None),
    ),
    ("torch.trapezoid(torch.ones(0))", ("tensor", 0.0, "float32", [], None)),
    ("torch.trapezoid(torch.ones(1))", ("tensor", 0.0, "float32", [], None)),
    (
        "torch.cumulative_trapezoid(t([1.0, 4.0, 9.0, 16.0], requires_grad=True))",
        ("tensor", [2.5, 9.0, 21.5], "float32", [3], "CumsumBackward0"),
    ),
    (
        "torch.cumulative_trapezoid(t([1.0, 4.0, 9.0, 16.0], requires_grad=True), t([0.0, 1.0, 3.0, "
        "4.0]))",
        ("tensor", [2.5, 15.5, 28.0], "float32", [3], "DivBackward1"),
    ),
    (
        "torch.cumulative_trapezoid(t([1.0, 4.0, 9.0, 16.0]), dx=2)",
        ("tensor", [5.0, 18.0, 43.0], "float32", [3], None),
    ),
    ("torch.cumulative_trapezoid(t([1, 2, 3]))", ("tensor", [1.5, 4.0], "float32", [2], None)),
    (
        "torch.cumulative_trapezoid(torch.arange(6.0).view(3, 2), dim=0)",
        ("tensor", [[1.0, 2.0], [4.0, 6.0]], "float32", [2, 2], None),
    ),
    ("torch.cumulative_trapezoid(torch.ones(0))", ("tensor", [], "float32", [0], None)),
    ("torch.cumulative_trapezoid(torch.ones(1))", ("tensor", [], "float32", [0], None)),
    (
        "torch.trapezoid(t([1.0, 4.0, 9.0, 16.0]), torch.ones(3))",
        ("error", "RuntimeError", "trapezoid: There must be one `x` value for each sample point"),
    ),
    (
        "torch.trapezoid(t([1.0, 4.0, 9.0, 16.0]), t([0.0, 1.0, 3.0, 4.0]), dx=1)",
        (
            "error",
            "TypeError",
            "trapezoid() received an invalid combination of arguments - got (Tensor, Tensor, dx=int), but "
            "expected one of:\n"
            " * (Tensor y, Tensor x, *, int dim = -1)\n"
            " * (Tensor y, *, Number dx = 1, int dim = -1)\n",
        ),
    ),
    (
        "torch.trapezoid(t([1.0, 4.0]), dim=2)",
        (
            "error",
            "IndexError",
            "Dimension out of range (expected to be in range of [-1, 0], but got 2)",
        ),
    ),
    (
        "torch.cumulative_trapezoid(t([1.0, 4.0, 9.0, 16.0]), torch.ones(3))",
        (
            "error",
            "RuntimeError",
            "cumulative_trapezoid: There must be one `x` value for each sample point",
        ),
    ),
    (
        "torch.trapezoid(t([True, False]))",
        (
            "error",
            "RuntimeError",
            "trapezoid: received a bool input for `y`, but bool is not supported",
        ),
    ),
    (
        "torch.trapezoid(t([1.0, 2.0]), 2.0)",
        (
            "error",
            "TypeError",
            "trapezoid() received an invalid combination of arguments - got (Tensor, float), but expected "
            "one of:\n"
            " * (Tensor y, Tensor x, *, int dim = -1)\n"
            " * (Tensor y, *, Number dx = 1, int dim = -1)\n",
        ),
    ),
    (
        "torch.cov(t([[1.0, 2.0, 4.0, 7.0], [0.5, -1.0, 2.0, 3.0], [1.0, 1.0, 0.0, 2.0]], "
        "requires_grad=True))",
        (
            "tensor",
            [
                [7.0, 3.9166667461395264, 1.0],
                [3.9166667461395264, 3.0625, 0.3333333432674408],
                [1.0, 0.3333333432674408, 0.6666666865348816],
            ],
            "float32",
            [3, 3],
            "SqueezeBackward0",
        ),
    ),
    (
        "torch.cov(t([[1.0, 2.0, 4.0, 7.0], [0.5, -1.0, 2.0, 3.0]]), correction=0)",
        ("tensor", [[5.25, 2.9375], [2.9375, 2.296875]], "float32", [2, 2], None),
    ),
    (
        "torch.cov(t([[1.0, 2.0, 4.0, 7.0], [0.5, -1.0, 2.0, 3.0]]), fweights=t([1, 2, 1, 3]))",
        (
            "tensor",
            [[7.238095760345459, 4.464285373687744], [4.464285373687744, 3.392857313156128]],
            "float32",
            [2, 2],
            None,
        ),
    ),
    (
        "torch.cov(t([[1.0, 2.0, 4.0, 7.0], [0.5, -1.0, 2.0, 3.0]]), aweights=t([0.5, 1.0, 2.0, 1.0]))",
        (
            "tensor",
            [[5.607142925262451, 3.517857074737549], [3.517857074737549, 3.0357143878936768]],
            "float32",
            [2, 2],
            None,
        ),
    ),
    (
        "torch.cov(t([[1.0, 2.0, 4.0, 7.0], [0.5, -1.0, 2.0, 3.0]]), fweights=t([1, 2, 1, 3]), "
        "aweights=t([0.5, 1.0, 2.0, 1.0]), correction=2)",
        (
            "tensor",
            [[7.523179054260254, 4.966887474060059], [4.966887474060059, 4.023179054260254]],
            "float32",
            [2, 2],
            None,
        ),
    ),
    (
        "t([1.0, 2.0, 4.0, 7.0], requires_grad=True).cov()",
        ("tensor", 7.0, "float32", [], "SqueezeBackward0"),
    ),
    (
        "torch.cov(t([[1, 2, 3], [2, 2, 5]]))",
        ("tensor", [[1.0, 1.5], [1.5, 3.0]], "float32", [2, 2], None),
    ),
    ("torch.cov(t([1.0]))", ("tensor", nan, "float32", [], None)),
    (
        "torch.cov(torch.ones(2, 2, 2))",
        (
            "error",
            "RuntimeError",
            "cov(): expected input to have two or fewer dimensions but got an input with 3 dimensions",
        ),
    ),
    (
        "torch.cov(t([[1.0, 2.0]]), fweights=t([1.0, 2.0]))",
        (
            "error",
            "RuntimeError",
            "cov(): expected fweights to have integral dtype but got fweights with Float dtype",
        ),
    ),
    (
        "torch.cov(t([[1.0, 2.0]]), fweights=t([1, 2, 3]))",
        (
            "error",
            "RuntimeError",
            "cov(): expected fweights to have the same numel as there are observations in the input but got "
            "3 != 2",
        ),
    ),
    (
        "torch.cov(t([[1.0, 2.0]]), fweights=t([1, -2]))",
        ("error", "RuntimeError", "cov(): fweights cannot be negative"),
    ),
    (
        "torch.cov(t([[1.0, 2.0]]), aweights=t([1, 2]))",
        (
            "error",
            "RuntimeError",
            "cov(): expected aweights to have floating point dtype but got aweights with Long dtype",
        ),
    ),
    (
        "torch.cov(t([[1.0, 2.0]]), aweights=t([1.0, -2.0]))",
        ("error", "RuntimeError", "cov(): aweights cannot be negative"),
    ),
    (
        "torch.cov(t([[1.0, 2.0]]), fweights=t([[1, 2]]))",
        (
            "error",
            "RuntimeError",
            "cov(): expected fweights to have one or fewer dimensions but got fweights with 2 dimensions",
        ),
    ),
    (
        "torch.corrcoef(t([[1.0, 2.0, 4.0, 7.0], [0.5, -1.0, 2.0, 3.0], [1.0, 1.0, 0.0, 2.0]], "
        "requires_grad=True))",
        (
            "tensor",
            [
                [1.0, 0.8459205031394958, 0.4629100561141968],
                [0.8459205031394958, 1.0, 0.23328472673892975],
                [0.4629100263118744, 0.23328472673892975, 0.9999999403953552],
            ],
            "float32",
            [3, 3],
            "ClampBackward1",
        ),
    ),
    (
        "torch.corrcoef(t([[1, 2, 3], [2, 2, 5]]))",
        ("tensor", [[1.0, 0.866025447845459], [0.866025447845459, 1.0]], "float32", [2, 2], None),
    ),
    (
        "torch.corrcoef(t([[1.0, 1.0, 1.0], [1.0, 2.0, 3.0]]))",
        ("tensor", [[nan, nan], [nan, 1.0]], "float32", [2, 2], None),
    ),
    (
        "t([1.0, 2.0, 4.0], requires_grad=True).corrcoef()",
        ("tensor", 1.0, "float32", [], "DivBackward0"),
    ),
    (
        "torch.corrcoef(torch.ones(2, 2, 2))",
        (
            "error",
            "RuntimeError",
            "corrcoef(): expected input to have two or fewer dimensions but got an input with 3 "
            "dimensions",
        ),
    ),
    (
        "torch.quantile(t([[1.0, 5.0, 2.0, 8.0], [3.0, 7.0, 0.0, 4.0]], requires_grad=True), 0.3)",
        ("tensor", 2.1000001430511475, "float32", [], "SqueezeBackward4"),
    ),
    (
        "torch.quantile(t([[1.0, 5.0, 2.0, 8.0], [3.0, 7.0, 0.0, 4.0]], requires_grad=True), 0.3, dim=1)",
        ("tensor", [1.9000000953674316, 2.700000047683716], "float32", [2], "SqueezeBackward4"),
    ),
    (
        "torch.quantile(t([[1.0, 5.0, 2.0, 8.0], [3.0, 7.0, 0.0, 4.0]], requires_grad=True), t([0.25, "
        "0.5]), dim=1, keepdim=True)",
        ("tensor", [[[1.75], [2.25]], [[3.5], [3.5]]], "float32", [2, 2, 1], "SqueezeBackward4"),
    ),
    (
        "torch.quantile(t([[1.0, 5.0, 2.0, 8.0], [3.0, 7.0, 0.0, 4.0]]), 0.3, dim=0, keepdim=True)",
        (
            "tensor",
            [[1.600000023841858, 5.599999904632568, 0.6000000238418579, 5.199999809265137]],
            "float32",
            [1, 4],
            None,
        ),
    ),
    (
        "torch.quantile(t([[1.0, 5.0, 2.0, 8.0], [3.0, 7.0, 0.0, 4.0]]), 0.3, keepdim=True)",
        ("tensor", [[2.1000001430511475]], "float32", [1, 1], None),
    ),
    (
        "torch.quantile(t([[1.0, 5.0, 2.0, 8.0], [3.0, 7.0, 0.0, 4.0]]), 0.3, dim=1, "
        'interpolation="lower")',
        ("tensor", [1.0, 0.0], "float32", [2], None),
    ),
    (
        "torch.quantile(t([[1.0, 5.0, 2.0, 8.0], [3.0, 7.0, 0.0, 4.0]]), 0.3, dim=1, "
        'interpolation="higher")',
        ("tensor", [2.0, 3.0], "float32", [2], None),
    ),
    (
        "torch.quantile(t([[1.0, 5.0, 2.0, 8.0], [3.0, 7.0, 0.0, 4.0]]), 0.3, dim=1, "
        'interpolation="nearest")',
        ("tensor", [2.0, 3.0], "float32", [2], None),
    ),
    (
        "torch.quantile(t([[1.0, 5.0, 2.0, 8.0], [3.0, 7.0, 0.0, 4.0]]), 0.3, dim=1, "
        'interpolation="midpoint")',
        ("tensor", [1.5, 1.5], "float32", [2], None),
    ),
    (
        'torch.quantile(t([0.0, 1.0, 2.0, 3.0]), t([0.125, 0.375, 0.5, 1.0]), interpolation="nearest")',
        ("tensor", [0.0, 1.0, 2.0, 3.0], "float32", [4], None),
    ),
    (
        "torch.quantile(t([0.0, 1.0, 2.0, 3.0, 4.0]), t([0.125, 0.375, 0.5, 0.625, 0.875]), "
        'interpolation="nearest")',
        ("tensor", [0.0, 2.0, 2.0, 2.0, 4.0], "float32", [5], None),
    ),
    (
        "torch.quantile(t([[1.0, 5.0, 2.0, 8.0], [3.0, nan, 0.0, 4.0]]), 0.5, dim=1)",
        ("tensor", [3.5, nan], "float32", [2], None),
    ),
    (
        "torch.nanquantile(t([[1.0, 5.0, 2.0, 8.0], [3.0, nan, 0.0, 4.0]], requires_grad=True), 0.5, "
        "dim=1)",
        ("tensor", [3.5, 3.0], "float32", [2], "SqueezeBackward4"),
    ),
    (
        "torch.nanquantile(t([[1.0, 5.0, 2.0, 8.0], [3.0, nan, 0.0, 4.0]]), 0.5)",
        ("tensor", 3.0, "float32", [], None),
    ),
    (
        "torch.nanquantile(t([[nan, nan], [1.0, 2.0]]), t([0.0, 0.5]), dim=1)",
        ("tensor", [[nan, 1.0], [nan, 1.5]], "float32", [2, 2], None),
    ),
    (
        "t([[1.0, 5.0], [3.0, 7.0]], dtype=torch.float64).quantile(t([0.5, 1.0], dtype=torch.float64), "
        "0)",
        ("tensor", [[2.0, 6.0], [3.0, 7.0]], "float64", [2, 2], None),
    ),
    (
        "t([[1.0, 5.0], [3.0, 7.0]]).nanquantile(0.5, 0, True)",
        ("tensor", [[2.0, 6.0]], "float32", [1, 2], None),
    ),
    (
        "(lambda x: (torch.quantile(x, 0.3, dim=1).sum().backward(), x.grad)[1])(t([[1.0, 5.0, 2.0, "
        "8.0], [3.0, 7.0, 0.0, 4.0]], requires_grad=True))",
        (
            "tensor",
            [
                [0.09999996423721313, 0.0, 0.9000000357627869, 0.0],
                [0.9000000357627869, 0.0, 0.09999996423721313, 0.0],
            ],
            "float32",
            [2, 4],
            None,
        ),
    ),
    (
        "torch.quantile(t([1, 2, 3]), 0.5)",
        ("error", "RuntimeError", "quantile() input tensor must be either float or double dtype"),
    ),
    (
        "torch.quantile(t([1.0, 2.0]), 1.5)",
        ("error", "RuntimeError", "quantile() q must be in the range [0, 1] but got 1.5"),
    ),
    (
        "torch.quantile(t([1.0, 2.0]), t([[0.5]]))",
        ("error", "RuntimeError", "quantile() q must be a scalar or 1D tensor"),
    ),
    (
        'torch.quantile(t([1.0, 2.0]), 0.5, interpolation="foo")',
        (
            "error",
            "RuntimeError",
            "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got "
            "foo",
        ),
    ),
    (
        "torch.quantile(torch.ones(0), 0.5)",
        ("error", "RuntimeError", "quantile() input tensor must be non-empty"),
    ),
    (
        "torch.quantile(t([1.0, 2.0]), t([0.5], dtype=torch.float64))",
        ("error", "RuntimeError", "quantile() q tensor must be same dtype as the input tensor"),
    ),
    (
        "torch.quantile(t([1.0, 2.0]), 0.5, dim=3)",
        (
            "error",
            "IndexError",
            "Dimension out of range (expected to be in range of [-1, 0], but got 3)",
        ),
    ),
    (
        "torch.quantile(t([1.0, 2.0]), [0.5])",
        (
            "error",
            "TypeError",
            "quantile() received an invalid combination of arguments - got (Tensor, list), but expected one "
            "of:\n"
            " * (Tensor input, Tensor q, int dim = None, bool keepdim = False, *, str interpolation = "
            '"linear", Tensor out = None)\n'
            " * (Tensor input, float q, int dim = None, bool keepdim = False, *, str interpolation = "
            '"linear", Tensor out = None)\n',
        ),
    ),
    (
        "torch.nanmedian(t([[1.0, 5.0, 2.0, 8.0], [3.0, nan, 0.0, 4.0]], requires_grad=True))",
        ("tensor", 3.0, "float32", [], "NanmedianBackward0"),
    ),
    (
        "torch.nanmedian(t([[1.0, 5.0, 2.0, 8.0], [3.0, nan, 0.0, 4.0]], requires_grad=True), 1)",
        (
            "tuple",
            ("tensor", [2.0, 3.0], "float32", [2], "NanmedianBackward1"),
            ("tensor", [2, 0], "int64", [2], None),
        ),
    ),
    (
        "torch.nanmedian(t([[1.0, 5.0, 2.0, 8.0], [3.0, nan, 0.0, 4.0]]), 0, keepdim=True)",
        (
            "tuple",
            ("tensor", [[1.0, 5.0, 0.0, 4.0]], "float32", [1, 4], None),
            ("tensor", [[0, 0, 1, 1]], "int64", [1, 4], None),
        ),
    ),
    ("torch.nanmedian(t([nan, nan]))", ("tensor", nan, "float32", [], None)),
    (
        "torch.nanmedian(t([[nan, 1.0, 2.0, 3.0]]), 1)",
        ("tuple", ("tensor", [2.0], "float32", [1], None), ("tensor", [2], "int64", [1], None)),
    ),
    ("torch.nanmedian(t([3, 1, 2, 4]))", ("tensor", 2, "int64", [], None)),
    (
        "t([1, 2, 3, 4]).nanmedian(0)",
        ("tuple", ("tensor", 2, "int64", [], None), ("tensor", 1, "int64", [], None)),
    ),
    ("torch.nanmedian(torch.ones(0))", ("tensor", nan, "float32", [], None)),
    (
        "torch.nanmedian(torch.ones(2, 0), 1)",
        ("error", "IndexError", "median(): Expected reduction dim 1 to have non-zero size."),
    ),
    (
        "(lambda x: (torch.nanmedian(x, 1).values.sum().backward(), x.grad)[1])(t([[1.0, 5.0, 2.0], "
        "[3.0, nan, 0.0]], requires_grad=True))",
        ("tensor", [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]], "float32", [2, 3], None),
    ),
    (
        "torch.mode(t([[1.0, 2.0, 2.0, 3.0, 3.0], [4.0, 4.0, 1.0, 1.0, 0.0]], requires_grad=True))",
        (
            "tuple",
            ("tensor", [2.0, 1.0], "float32", [2], "ModeBackward0"),
            ("tensor", [2, 3], "int64", [2], None),
        ),
    ),
    (
        "torch.mode(t([3, 1, 1, 3, 2]))",
        ("tuple", ("tensor", 1, "int64", [], None), ("tensor", 2, "int64", [], None)),
    ),
    (
        "torch.mode(t([[1, 2], [1, 3]]), 0)",
        ("tuple", ("tensor", [1, 2], "int64", [2], None), ("tensor", [1, 0], "int64", [2], None)),
    ),
    (
        "t([5.0]).mode()",
        ("tuple", ("tensor", 5.0, "float32", [], None), ("tensor", 0, "int64", [], None)),
    ),
    (
        "torch.mode(t([[1, 2], [2, 1]]), 1, keepdim=True)",
        (
            "tuple",
            ("tensor", [[1], [1]], "int64", [2, 1], None),
            ("tensor", [[0], [1]], "int64", [2, 1], None),
        ),
    ),
    (
        "torch.mode(t(4.0))",
        ("tuple", ("tensor", 4.0, "float32", [], None), ("tensor", 0, "int64", [], None)),
    ),
    (
        "torch.mode(t([True, False, True]))",
        ("tuple", ("tensor", True, "bool", [], None), ("tensor", 2, "int64", [], None)),
    ),
    (
        "torch.mode(torch.ones(0))",
        ("error", "IndexError", "mode(): Expected reduction dim 0 to have non-zero size."),
    ),
    (
        "torch.mode(torch.ones(2, 3), 2)",
        (
            "error",
            "IndexError",
            "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
        ),
    ),
    (
        "(lambda x: (torch.mode(x).values.sum().backward(), x.grad)[1])(t([[1.0, 2.0, 2.0, 3.0, 3.0]], "
        "requires_grad=True))",
        ("tensor", [[0.0, 0.0, 1.0, 0.0, 0.0]], "float32", [1, 5], None),
    ),
]


@pytest.mark.parametrize("expr, expected", RECORDED, ids=[r[0][:60] for r in RECORDED])
def test_as_pytorch(expr: str, expected: tuple) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_recorded(expr, expected)
