"""The torch-level functions of ops/{sequence_builders,tensor_functions,summaries,scatters,
poisson}.py as a user meets them: a script run by the CLI (values, the deprecation warning of
torch.range, one located error and exit status 1 for a misuse), and engine-level facts the
conformance goldens do not show (create_graph of the scatters, poisson's stream)."""

from __future__ import annotations

import numpy as np
import pytest
from cli_runner import autodiff

import autodiff_cli.engine as torch


def _run(source: str):
    return autodiff("run", "-", stdin=source)


def test_range_warns_and_includes_its_end():
    result = _run("import torch\nprint(torch.range(1, 3))\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "tensor([1., 2., 3.])"
    assert "UserWarning: torch.range is deprecated" in result.stderr


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("torch.combinations(torch.ones(2, 2))", "Expect a 1D vector, but got shape [2, 2]"),
        ("torch.aminmax(torch.tensor([]))", "cannot compute aminmax over an empty dimension"),
        ("torch.renorm(torch.ones(3), 2, 0, 1.0)", "renorm: input needs at least 2 dimensions"),
        ("torch.is_nonzero(torch.tensor([1, 2]))", "Boolean value of Tensor with more than one"),
        ("torch.poisson(torch.tensor([-1.0]))", "invalid Poisson rate"),
        (
            "torch.slice_scatter(torch.zeros(4, 4), torch.ones(3, 4), start=2)",
            "expected src to have a size equal to the slice of self",
        ),
    ],
)
def test_a_misuse_is_one_located_error(line: str, message: str):
    result = _run(f"import torch\n{line}\n")
    assert result.returncode == 1
    assert result.stderr.startswith("<stdin>:2:1: error\n")
    assert message in result.stderr.splitlines()[-1]
    assert "Traceback" not in result.stderr


def test_scatter_double_backward_goes_through_the_scatter_ops():
    x = torch.zeros(3, 3, dtype=torch.float64, requires_grad=True)
    s = torch.ones(3, dtype=torch.float64, requires_grad=True)
    out = torch.diagonal_scatter(x, s, 0)
    v = torch.arange(9.0, dtype=torch.float64).view(3, 3).requires_grad_()
    gx, gs = torch.autograd.grad(out, (x, s), v, create_graph=True)
    assert type(gx.grad_fn).__name__ == "DiagonalScatterBackward0"
    assert type(gs.grad_fn).__name__ == "DiagonalBackward0"
    np.testing.assert_array_equal(gs.detach().numpy(), [0.0, 4.0, 8.0])
    (gx.sum() + gs.sum()).backward()
    np.testing.assert_array_equal(v.grad.numpy(), np.ones((3, 3)))


def test_poisson_draws_continue_the_generator_stream():
    g = torch.Generator().manual_seed(7)
    first = torch.poisson(torch.full((50,), 3.0), generator=g)
    second = torch.poisson(torch.full((50,), 3.0), generator=g)
    again = torch.Generator().manual_seed(7)
    both = torch.poisson(torch.full((100,), 3.0), generator=again)
    np.testing.assert_array_equal(torch.cat([first, second]).numpy(), both.numpy())
    assert 2.0 < float(both.mean()) < 4.0


def test_typename_names_engine_objects_by_their_pytorch_homes():
    assert torch.typename(torch.ones(1)) == "torch.FloatTensor"
    assert torch.typename(torch.typename) == "torch.typename"
    node = (torch.ones(1, requires_grad=True) * 2).grad_fn
    assert torch.typename(node) == "MulBackward0"


def test_a_grad_expression_keeps_pythons_range():
    """`torch.range` joins torch's names, but a bare-torch expression's `range` stays Python's."""
    result = autodiff("grad", "x * len(list(range(3)))", "--at", "x=2.0")
    assert result.returncode == 0, result.stderr
    assert "value: tensor(6.)" in result.stdout
    assert "UserWarning" not in result.stderr
