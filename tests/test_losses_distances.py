"""The embedding, ranking and likelihood losses and the distances (nn/functional_loss.py,
ops/margin_losses.py, ops/distances.py, nn/modules/{loss,distance}.py): values against closed
forms, gradients against central finite differences in float64 for every reduction, the grad_fn
PyTorch shows, module reprs and attributes, and PyTorch's errors, in-process and through
`autodiff run`."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from cli_runner import autodiff

import autodiff_cli.engine as torch
from autodiff_cli.engine import nn
from autodiff_cli.engine.nn import functional as F

RNG = np.random.RandomState(1900)
X = RNG.uniform(-2, 2, (3, 4))
Y = RNG.uniform(-2, 2, (3, 4))
Z = RNG.uniform(-2, 2, (3, 4))
SIGNS = np.array([1.0, -1.0, 1.0])
LABELS = (RNG.uniform(size=(3, 4)) > 0.5).astype(np.float64)


def t(array: np.ndarray, grad: bool = False) -> torch.Tensor:
    return torch.tensor(np.asarray(array).tolist(), dtype=torch.float64, requires_grad=grad)


def _finite_difference(f: Callable, arrays: list[np.ndarray], k: int, eps: float = 1e-6):
    out = np.zeros_like(arrays[k])
    for index in np.ndindex(arrays[k].shape):
        plus = [a.copy() for a in arrays]
        minus = [a.copy() for a in arrays]
        plus[k][index] += eps
        minus[k][index] -= eps
        out[index] = (f(*map(t, plus)).sum().item() - f(*map(t, minus)).sum().item()) / (2 * eps)
    return out


def _check_gradients(f: Callable, *arrays: np.ndarray) -> torch.Tensor:
    inputs = [t(a, grad=True) for a in arrays]
    out = f(*inputs)
    out.sum().backward()
    for k, x in enumerate(inputs):
        expected = _finite_difference(f, [np.array(a) for a in arrays], k)
        np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-6, atol=1e-7)
    return out


REDUCTIONS = ("none", "mean", "sum")
LOSSES = {
    "margin_ranking": (
        lambda a, b, r: F.margin_ranking_loss(a[:, 0], b[:, 0], t(SIGNS), margin=0.3, reduction=r),
        2,
    ),
    "hinge_embedding": (
        lambda a, r: F.hinge_embedding_loss(a, t(np.sign(Y)), margin=1.5, reduction=r),
        1,
    ),
    "cosine_embedding": (
        lambda a, b, r: F.cosine_embedding_loss(a, b, t(SIGNS), margin=-0.5, reduction=r),
        2,
    ),
    "triplet_margin": (lambda a, b, c, r: F.triplet_margin_loss(a, b, c, reduction=r), 3),
    "triplet_margin_swap_p3": (
        lambda a, b, c, r: F.triplet_margin_loss(a, b, c, margin=3.0, p=3, swap=True, reduction=r),
        3,
    ),
    "triplet_with_cosine_distance": (
        lambda a, b, c, r: F.triplet_margin_with_distance_loss(
            a,
            b,
            c,
            distance_function=lambda u, v: 1.0 - F.cosine_similarity(u, v),
            margin=0.7,
            swap=True,
            reduction=r,
        ),
        3,
    ),
    "soft_margin": (lambda a, r: F.soft_margin_loss(a, t(np.sign(Y)), reduction=r), 1),
    "multilabel_soft_margin": (
        lambda a, r: F.multilabel_soft_margin_loss(
            a, t(LABELS), weight=t([1.0, 2.0, 0.5, 1.0]), reduction=r
        ),
        1,
    ),
    "multi_margin": (
        lambda a, r: F.multi_margin_loss(a, torch.tensor([1, 0, 3]), margin=2.0, reduction=r),
        1,
    ),
    "multi_margin_p2": (
        lambda a, r: F.multi_margin_loss(a, torch.tensor([1, 0, 3]), p=2, reduction=r),
        1,
    ),
    "poisson_nll": (lambda a, r: F.poisson_nll_loss(a, t(np.abs(Y) * 3), reduction=r), 1),
    "poisson_nll_full": (
        lambda a, r: F.poisson_nll_loss(
            a.exp(), t(np.abs(Y) * 3), log_input=False, full=True, reduction=r
        ),
        1,
    ),
    "gaussian_nll": (
        lambda a, b, c, r: F.gaussian_nll_loss(a, b, c.abs() + 0.1, full=True, reduction=r),
        3,
    ),
    "kl_div": (
        lambda a, b, r: F.kl_div(F.log_softmax(a, 1), F.softmax(b, 1), reduction=r),
        2,
    ),
}


@pytest.mark.filterwarnings("ignore:reduction. .mean. divides")
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", sorted(LOSSES))
def test_loss_gradients_match_finite_differences(name: str, reduction: str) -> None:
    fn, n_inputs = LOSSES[name]
    out = _check_gradients(lambda *xs: fn(*xs, reduction), *(X, Y, Z)[:n_inputs])
    per_sample = fn(*map(t, (X, Y, Z)[:n_inputs]), "none")
    if reduction == "mean":
        assert math.isclose(out.item(), per_sample.mean().item(), rel_tol=1e-12)
    elif reduction == "sum":
        assert math.isclose(out.item(), per_sample.sum().item(), rel_tol=1e-12)


def test_loss_values_match_their_definitions() -> None:
    a, b, c = t(X), t(Y), t(Z)
    np.testing.assert_allclose(
        F.soft_margin_loss(a, t(np.sign(Y)), reduction="none").numpy(),
        np.log1p(np.exp(-X * np.sign(Y))),
    )
    d_pos = np.linalg.norm(X - Y + 1e-6, axis=1)
    d_neg = np.linalg.norm(X - Z + 1e-6, axis=1)
    np.testing.assert_allclose(
        F.triplet_margin_loss(a, b, c, reduction="none").numpy(), np.maximum(1 + d_pos - d_neg, 0)
    )
    hinge = np.maximum(0, 2.0 - X[np.arange(3), [1, 0, 3]][:, None] + X)
    hinge[np.arange(3), [1, 0, 3]] = 0
    np.testing.assert_allclose(
        F.multi_margin_loss(a, torch.tensor([1, 0, 3]), margin=2.0, reduction="none").numpy(),
        hinge.sum(1) / 4,
    )
    cos = (X * Y).sum(1) / np.sqrt(((X * X).sum(1) + 1e-12) * ((Y * Y).sum(1) + 1e-12))
    expected = np.where(SIGNS == 1, 1 - cos, np.maximum(cos, 0))
    got = F.cosine_embedding_loss(a, b, t(SIGNS), reduction="none").numpy()
    np.testing.assert_allclose(got, expected)
    var = np.abs(Z) + 0.1
    gauss = 0.5 * (np.log(var) + (X - Y) ** 2 / var)
    np.testing.assert_allclose(F.gaussian_nll_loss(a, b, t(var), reduction="none").numpy(), gauss)


@pytest.mark.parametrize(
    ("expression", "chain"),
    [
        (
            "F.margin_ranking_loss(a[:, 0], b[:, 0], t(SIGNS), reduction='none')",
            "ClampMinBackward0",
        ),
        ("F.margin_ranking_loss(a[:, 0], b[:, 0], t(SIGNS))", "MeanBackward0 ClampMinBackward0"),
        ("F.triplet_margin_loss(a, b, c, reduction='sum')", "SumBackward0 ClampMinBackward0"),
        ("F.hinge_embedding_loss(a, t(np.sign(Y)), reduction='none')", "AddBackward0"),
        ("F.cosine_embedding_loss(a, b, t(SIGNS), reduction='none')", "AddBackward0"),
        ("F.soft_margin_loss(a, t(np.sign(Y)))", "SoftMarginLossBackward0"),
        ("F.multi_margin_loss(a, torch.tensor([1, 0, 3]))", "MultiMarginLossBackward0"),
        ("F.multilabel_soft_margin_loss(a, t(LABELS))", "MeanBackward0 DivBackward0"),
        ("F.poisson_nll_loss(a, t(np.abs(Y)))", "MeanBackward0 SubBackward0"),
        ("F.gaussian_nll_loss(a, b, 1.0, reduction='none')", "MulBackward0 AddBackward0"),
        ("F.pairwise_distance(a, b)", "NormBackward1 AddBackward1 SubBackward0"),
        ("torch.pairwise_distance(a, b, keepdim=True)", "NormBackward1 AddBackward1"),
        ("torch.cosine_similarity(a, b)", "SumBackward1 MulBackward0 DivBackward0"),
        ("torch.pdist(a)", "PdistBackward0"),
    ],
)
def test_grad_fn_chain_is_pytorchs(expression: str, chain: str) -> None:
    a, b, c = t(X, True), t(Y, True), t(Z, True)
    node = eval(expression, {**globals(), "a": a, "b": b, "c": c})  # noqa: S307 - fixed strings
    node = node.grad_fn
    for name in chain.split():
        assert node.name() == name
        node = node.next_functions[0][0]


def test_triplet_swap_takes_the_smaller_negative_distance() -> None:
    a, b, c = t(X, True), t(Y, True), t(Z, True)
    loss = F.triplet_margin_loss(a, b, c, swap=True, reduction="none")
    assert loss.grad_fn.next_functions[0][0].next_functions[1][0].name() == "MinimumBackward0"


def test_pdist_values_and_its_unsupported_double_backward() -> None:
    x = t(X, True)
    rows = [(i, j) for i in range(3) for j in range(i + 1, 3)]
    for p in (0, 1, 2, 3.5, math.inf):
        expected = [np.linalg.norm(X[i] - X[j], ord=p) for i, j in rows]
        np.testing.assert_allclose(torch.pdist(x, p).detach().numpy(), expected)
    (g,) = torch.autograd.grad(torch.pdist(x).sum(), x, create_graph=True)
    assert g.grad_fn.name() == "PdistBackwardBackward0"
    with pytest.raises(NotImplementedError, match="derivative for '_pdist_backward' is not"):
        g.sum().backward()
    assert torch.pdist(t(X[:1])).shape == (0,)


def test_multi_margin_backward_is_not_differentiable() -> None:
    x = t(X, True)
    (g,) = torch.autograd.grad(
        F.multi_margin_loss(x, torch.tensor([1, 0, 3])), x, create_graph=True
    )
    assert g.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="aten::multi_margin_loss_backward is not implemented"):
        g.sum().backward()


def test_pairwise_distance_shapes() -> None:
    assert F.pairwise_distance(t(X), t(Y[0])).shape == (3,)
    assert F.pairwise_distance(t(X), t(Y), keepdim=True).shape == (3, 1)
    assert F.pairwise_distance(t(X[0]), t(Y[0])).shape == ()
    ints = F.pairwise_distance(
        torch.ones(2, 3, dtype=torch.long), torch.ones(2, 3, dtype=torch.long)
    )
    assert ints.dtype == torch.float32
    assert math.isclose(ints[0].item(), math.sqrt(3) * 1e-6, rel_tol=1e-5)


MODULES = [
    ("nn.KLDivLoss(reduction='batchmean', log_target=True)", "KLDivLoss()", "loss"),
    ("nn.MarginRankingLoss(margin=0.5)", "MarginRankingLoss()", "loss"),
    ("nn.HingeEmbeddingLoss()", "HingeEmbeddingLoss()", "loss"),
    ("nn.CosineEmbeddingLoss()", "CosineEmbeddingLoss()", "loss"),
    ("nn.TripletMarginLoss(margin=0.3, swap=True)", "TripletMarginLoss()", "loss"),
    ("nn.SoftMarginLoss()", "SoftMarginLoss()", "loss"),
    (
        "nn.TripletMarginWithDistanceLoss()",
        "TripletMarginWithDistanceLoss(\n  (distance_function): PairwiseDistance()\n)",
        "loss",
    ),
    (
        "nn.TripletMarginWithDistanceLoss(distance_function=lambda x, y: (x - y).abs().sum(1))",
        "TripletMarginWithDistanceLoss()",
        "loss",
    ),
    ("nn.MultiLabelSoftMarginLoss(weight=torch.ones(3))", "MultiLabelSoftMarginLoss()", "loss"),
    ("nn.MultiMarginLoss(p=2)", "MultiMarginLoss()", "loss"),
    ("nn.PoissonNLLLoss(log_input=False)", "PoissonNLLLoss()", "loss"),
    ("nn.GaussianNLLLoss(full=True)", "GaussianNLLLoss()", "loss"),
    ("nn.PairwiseDistance(p=1)", "PairwiseDistance()", "distance"),
    ("nn.CosineSimilarity(dim=0)", "CosineSimilarity()", "distance"),
]


@pytest.mark.parametrize(("expression", "shown", "home"), MODULES)
def test_module_repr_and_home(expression: str, shown: str, home: str) -> None:
    module = eval(expression)  # noqa: S307 - fixed strings
    assert repr(module) == shown
    assert type(module).__module__ == f"torch.nn.modules.{home}"


def test_module_attributes_are_pytorchs() -> None:
    assert nn.TripletMarginLoss().p == 2.0 and nn.TripletMarginLoss().eps == 1e-6
    assert nn.PairwiseDistance(p=1, keepdim=True).norm == 1
    assert nn.KLDivLoss(reduction="batchmean").reduction == "batchmean"
    assert nn.SoftMarginLoss(reduce=False).reduction == "none"
    assert list(nn.MultiLabelSoftMarginLoss(weight=torch.ones(3)).state_dict()) == ["weight"]
    assert (nn.PoissonNLLLoss().log_input, nn.PoissonNLLLoss().eps) == (True, 1e-8)
    with pytest.raises(TypeError):
        nn.GaussianNLLLoss(True)  # (keyword-only, as PyTorch's)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        ("F.triplet_margin_loss(a, b, c[0])", RuntimeError, "anchor 2D, positive 2D, and negative 1D"),
        ("F.triplet_margin_loss(a, b, c, margin=0)", ValueError, "margin must be greater than 0, got 0"),
        ("nn.TripletMarginLoss(margin=-1.0)", ValueError, "expected margin to be greater than 0"),
        ("F.margin_ranking_loss(a[:, 0], b[:, 0], t([[1.0]] * 3))", RuntimeError, "same dimension"),
        ("F.cosine_embedding_loss(a, b, t([[1.0]] * 3))", RuntimeError, "0D or 1D target tensor"),
        ("F.cosine_embedding_loss(a[0], b[0], t(SIGNS))", RuntimeError, "1D target tensor expects 2D"),
        ("F.soft_margin_loss(a[:, :1], t(SIGNS))", RuntimeError, "doesn't match the broadcast shape"),
        ("F.soft_margin_loss(a, t(Y, True))", RuntimeError, "not differentiable with respect to"),
        ("F.multi_margin_loss(a, torch.tensor([0, 1]))", RuntimeError, "Expected target size [3]"),
        ("F.multi_margin_loss(a, torch.tensor([0, 1, 4]))", RuntimeError, "target out of range"),
        ("F.multi_margin_loss(a, t([0.0, 1, 2]))", RuntimeError, "expected scalar type Long"),
        ("F.multi_margin_loss(a, torch.tensor([0, 1, 2]), p=3)", ValueError, "only p == 1 and p == 2"),
        ("F.multi_margin_loss(a, torch.tensor([0, 1, 2]), weight=t([1.0]))", RuntimeError, "inconsistent weight size"),
        ("F.gaussian_nll_loss(a, b, -t(Z).abs())", ValueError, "var has negative entry"),
        ("F.gaussian_nll_loss(a, b, torch.ones(2, 4))", ValueError, "var is of incorrect size"),
        ("F.gaussian_nll_loss(a, b, 1.0, reduction='avg')", ValueError, "avg is not valid"),
        ("F.poisson_nll_loss(a, b, reduction='avg')", ValueError, "avg is not a valid value for reduction"),
        ("torch.pdist(a[0])", RuntimeError, "pdist only supports 2D tensors, got: 1D"),
        ("torch.pdist(a, p=-1)", RuntimeError, "pdist only supports non-negative p values"),
        ("torch.pdist(torch.ones(2, 2, dtype=torch.long))", RuntimeError, "floating-point dtypes"),
        ("F.pairwise_distance(a, b[:, :3])", RuntimeError, "The size of tensor a (4) must match"),
    ],
)  # fmt: skip
def test_pytorchs_errors(call: str, error: type, message: str) -> None:
    scope = {**globals(), "a": t(X), "b": t(Y), "c": t(Z)}
    with pytest.raises(error) as raised:
        eval(call, scope)  # noqa: S307 - fixed strings
    assert message in str(raised.value)


def test_a_script_with_a_wrong_target_ends_in_one_located_error(tmp_path) -> None:
    script = tmp_path / "ranking.py"
    script.write_text(
        "import torch\n"
        "loss = torch.nn.MarginRankingLoss(margin=0.1)\n"
        "x1 = torch.randn(4, requires_grad=True)\n"
        "x2 = torch.randn(4)\n"
        "print(loss(x1, x2, torch.ones(4)).grad_fn)\n"
        "loss(x1, x2, torch.ones(4, 1))\n"
    )
    result = autodiff("run", str(script))
    assert result.returncode == 1
    assert "<MeanBackward0 object at" in result.stdout
    assert "ranking.py:6" in result.stderr
    assert "margin_ranking_loss : All input tensors should have same dimension" in result.stderr
    assert "Traceback" not in result.stderr


def test_nodes_show_pytorchs_saved_values() -> None:
    a = t(X, True)
    assert torch.pdist(a).grad_fn._saved_p == 2.0
    assert F.pairwise_distance(a, t(Y), p=3).grad_fn._saved_p == 3
    target = t(np.sign(Y))
    assert F.soft_margin_loss(a, target).grad_fn._saved_target is target
    classes = torch.tensor([1, 0, 3])
    node = F.multi_margin_loss(a, classes).grad_fn
    assert node._saved_target is classes and node._saved_weight is None
