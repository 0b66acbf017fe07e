"""The spatial-transformer, bilinear and embedding-bag layers: `F.affine_grid`, `F.grid_sample`,
`F.bilinear`/`nn.Bilinear`, `F.embedding_bag`/`nn.EmbeddingBag`. Values against numpy
references, a composed gradient against finite differences (float64), reprs, init bounds, the
align_corners warning and the messages a script sees (recorded from PyTorch 2.13).

The ops' own gradients (affine_grid_generator, grid_sampler_2d/3d and their backward ops,
_trilinear, _embedding_bag) are rows of engine_cases.py, checked by test_engine_gradients.py;
tests/conformance/1965-1968 compare whole tutorial scripts with PyTorch."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from cli_runner import autodiff

import autodiff_cli.engine as torch
from autodiff_cli.engine import nn
from autodiff_cli.engine.nn import functional as F

RNG = np.random.RandomState(11)


def _t(array, grad=False):
    return torch.tensor(np.asarray(array).tolist(), dtype=torch.float64, requires_grad=grad)


def test_identity_theta_samples_the_input_itself():
    image = RNG.uniform(-1, 1, (2, 3, 4, 5))
    theta = _t(np.tile([[1.0, 0, 0], [0, 1.0, 0]], (2, 1, 1)))
    for align in (True, False):
        grid = F.affine_grid(theta, (2, 3, 4, 5), align_corners=align)
        out = F.grid_sample(_t(image), grid, align_corners=align)
        np.testing.assert_allclose(out.detach().numpy(), image, atol=1e-12)


def test_shift_by_one_pixel_reads_the_neighbour_and_pads():
    """x' = x + 2/(W-1) with align_corners reads the next column; the last reads past the edge
    (zeros) or repeats it (border)."""
    image = np.arange(12.0).reshape(1, 1, 3, 4)
    theta = _t([[[1.0, 0, 2 / 3], [0, 1.0, 0]]])
    grid = F.affine_grid(theta, (1, 1, 3, 4), align_corners=True)
    zeros = F.grid_sample(_t(image), grid, align_corners=True).detach().numpy()[0, 0]
    border = F.grid_sample(_t(image), grid, padding_mode="border", align_corners=True)
    np.testing.assert_allclose(zeros[:, :3], image[0, 0, :, 1:], atol=1e-12)
    np.testing.assert_allclose(zeros[:, 3], 0.0, atol=1e-12)
    np.testing.assert_allclose(border.detach().numpy()[0, 0, :, 3], image[0, 0, :, 3], atol=1e-12)


def test_theta_gradient_through_grid_and_sampler_matches_finite_differences():
    image = RNG.uniform(-1, 1, (1, 2, 4, 5))
    theta0 = np.array([[[0.9, -0.2, 0.1], [0.15, 0.8, -0.05]]])

    def loss(theta):
        grid = F.affine_grid(_t(theta), (1, 2, 3, 3), align_corners=False)
        out = F.grid_sample(_t(image), grid, padding_mode="reflection", align_corners=False)
        return float((out * out).sum())

    theta = _t(theta0, grad=True)
    grid = F.affine_grid(theta, (1, 2, 3, 3), align_corners=False)
    out = F.grid_sample(_t(image), grid, padding_mode="reflection", align_corners=False)
    (out * out).sum().backward()
    expected = np.zeros_like(theta0)
    for k in np.ndindex(theta0.shape):
        plus, minus = theta0.copy(), theta0.copy()
        plus[k] += 1e-6
        minus[k] -= 1e-6
        expected[k] = (loss(plus) - loss(minus)) / 2e-6
    np.testing.assert_allclose(theta.grad.numpy(), expected, rtol=1e-6, atol=1e-7)
    assert [type(f).__name__ for f, _ in out.grad_fn.next_functions] == [
        "NoneType",
        "AffineGridGeneratorBackward0",
    ]


def test_default_align_corners_warns_as_pytorch():
    with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
        grid = F.affine_grid(torch.zeros(1, 2, 3), (1, 1, 2, 2))
    with pytest.warns(UserWarning, match="Please specify align_corners=True"):
        F.grid_sample(torch.zeros(1, 1, 2, 2), grid)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        F.grid_sample(torch.zeros(1, 1, 2, 2), grid, align_corners=False)


def test_bilinear_matches_einsum_and_its_repr_and_init():
    torch.manual_seed(3)
    m = nn.Bilinear(3, 4, 2)
    assert repr(m) == "Bilinear(in1_features=3, in2_features=4, out_features=2, bias=True)"
    assert repr(nn.Bilinear(1, 2, 3, bias=False)).endswith("bias=False)")
    bound = 1 / math.sqrt(3)
    assert np.abs(m.weight.detach().numpy()).max() <= bound
    assert np.abs(m.bias.detach().numpy()).max() <= bound
    a, b = RNG.uniform(-1, 1, (2, 5, 3)), RNG.uniform(-1, 1, (2, 5, 4))
    out = m(torch.tensor(a.tolist()), torch.tensor(b.tolist()))
    w, bias = m.weight.detach().numpy(), m.bias.detach().numpy()
    expected = np.einsum("nbi,oij,nbj->nbo", a, w, b) + bias
    assert tuple(out.shape) == (2, 5, 2)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-5, atol=1e-6)
    assert out.grad_fn.name() == "AddBackward0"


def _bag_reference(weight, indices, offsets, mode, padding_idx=None):
    ends = [*offsets[1:], len(indices)]
    rows = []
    for start, end in zip(offsets, ends):
        picked = [weight[i] for i in indices[start:end] if i != padding_idx]
        if not picked:
            rows.append(np.zeros(weight.shape[1]))
        else:
            rows.append({"sum": np.sum, "mean": np.mean, "max": np.max}[mode](picked, axis=0))
    return np.array(rows)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("padding_idx", [None, 2])
def test_embedding_bag_matches_a_reference(mode, padding_idx):
    weight = RNG.uniform(-1, 1, (6, 3))
    indices, offsets = [1, 2, 4, 5, 2, 3, 0], [0, 3, 3, 5]
    out = F.embedding_bag(
        torch.tensor(indices), _t(weight), torch.tensor(offsets), mode=mode,
        padding_idx=padding_idx,
    )  # fmt: skip
    expected = _bag_reference(weight, indices, offsets, mode, padding_idx)
    np.testing.assert_allclose(out.detach().numpy(), expected, atol=1e-12)


def test_embedding_bag_module_repr_from_pretrained_and_per_sample_weights():
    assert repr(nn.EmbeddingBag(10, 3)) == "EmbeddingBag(10, 3, mode='mean')"
    assert repr(nn.EmbeddingBag(10, 3, mode="max", padding_idx=-1)) == (
        "EmbeddingBag(10, 3, mode='max', padding_idx=9)"
    )
    table = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    frozen = nn.EmbeddingBag.from_pretrained(table, mode="sum")
    assert frozen.weight.requires_grad is False
    assert nn.EmbeddingBag.from_pretrained(table, freeze=False).weight.requires_grad is True
    weights = torch.tensor([2.0, -1.0, 0.5], requires_grad=True)
    out = frozen(torch.tensor([0, 2, 1]), torch.tensor([0, 2]), per_sample_weights=weights)
    assert out.tolist() == [[-3.0, -2.0], [1.5, 2.0]]
    out.sum().backward()
    assert weights.grad.tolist() == [3.0, 11.0, 7.0]


def test_bad_calls_end_in_one_located_error(tmp_path):
    script = tmp_path / "stn.py"
    script.write_text(
        "import torch\n"
        "import torch.nn.functional as F\n"
        "x = torch.zeros(1, 1, 2, 2)\n"
        "print(F.affine_grid(torch.zeros(1, 2, 3), x.size(), align_corners=False).shape)\n"
        "y = F.grid_sample(x, torch.zeros(2, 1, 1, 2), align_corners=False)\n"
    )
    result = autodiff("run", str(script))
    assert result.returncode == 1
    assert "torch.Size([1, 2, 2, 2])" in result.stdout
    assert "stn.py:5" in result.stderr
    assert (
        "RuntimeError: grid_sampler(): expected grid and input to have same batch size, but got "
        "input with sizes [1, 1, 2, 2] and grid with sizes [2, 1, 1, 2]"
    ) in result.stderr
    assert "Traceback" not in result.stderr


def test_embedding_bag_errors_are_pytorchs():
    w = torch.zeros(6, 2)
    idx = torch.tensor([1, 2, 4])
    cases = [
        (lambda: F.embedding_bag(idx, w), ValueError, "offsets has to be a 1D Tensor but got None"),
        (
            lambda: F.embedding_bag(idx, w, torch.tensor([0]), mode="median"),
            ValueError,
            "mode has to be one of sum, mean or max",
        ),
        (
            lambda: F.embedding_bag(idx, w, torch.tensor([1])),
            RuntimeError,
            "offsets[0] has to be 0",
        ),
        (
            lambda: F.embedding_bag(idx, w, torch.tensor([0]), padding_idx=9),
            RuntimeError,
            "padding_idx must be within the number of embeddings, -6 through 5, but got 9",
        ),
    ]
    for call, error, message in cases:
        with pytest.raises(error) as caught:
            call()
        assert message in str(caught.value)


def test_embedding_bag_double_backward_is_refused_as_pytorch():
    """With sample weights that require grad, the table's create_graph gradient is an
    EmbeddingBagBackwardBackward0 node, and the sample weights' a NotImplemented node; both
    raise when a backward pass reaches them."""
    table = torch.ones(4, 2, dtype=torch.float64, requires_grad=True)
    weights = torch.tensor([0.5, 2.0, 1.0], dtype=torch.float64, requires_grad=True)
    bag = F.embedding_bag(
        torch.tensor([0, 3, 1]), table, torch.tensor([0, 1]), mode="sum",
        per_sample_weights=weights,
    )  # fmt: skip
    g_table, g_weights = torch.autograd.grad(bag.sum(), (table, weights), create_graph=True)
    assert g_table.grad_fn.name() == "EmbeddingBagBackwardBackward0"
    assert g_weights.grad_fn.name() == "torch::autograd::NotImplemented"
    assert g_table.tolist() == [[0.5, 0.5], [1.0, 1.0], [0.0, 0.0], [2.0, 2.0]]
    with pytest.raises(NotImplementedError, match="derivative for '_embedding_bag_backward' is"):
        g_table.sum().backward()
    plain = F.embedding_bag(torch.tensor([0, 3]), table, torch.tensor([0]))
    assert torch.autograd.grad(plain.sum(), table, create_graph=True)[0].grad_fn is None
