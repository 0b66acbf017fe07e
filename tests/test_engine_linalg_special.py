"""The LU family, triangular solves, least squares, eigh and the incomplete gamma / zeta
functions: facts the gradient table (engine_cases.py) does not check — values against numpy,
integer outputs without a graph, the derivatives PyTorch does not implement, and a script's
errors as a user sees them (one located message, exit status 1)."""

from __future__ import annotations

import numpy as np
import pytest
from cli_runner import autodiff

import autodiff_cli.engine as E


def _matrix() -> E.Tensor:
    return E.tensor(
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]], dtype=E.float64, requires_grad=True
    )


def test_lu_factors_rebuild_the_matrix_with_lapack_pivots():
    A = _matrix()
    LU, pivots = E.linalg.lu_factor(A)
    assert pivots.dtype == E.int32 and pivots.tolist() == [3, 3, 3]
    assert pivots.grad_fn is None and not pivots.requires_grad
    assert type(LU.grad_fn).__name__ == "LinalgLuFactorExBackward0"
    P, L, U = E.lu_unpack(LU, pivots)
    assert P.grad_fn is None
    np.testing.assert_allclose((P @ L @ U).detach().numpy(), A.detach().numpy(), atol=1e-12)
    b = E.tensor([[1.0], [2.0], [3.0]], dtype=E.float64)
    x = E.linalg.lu_solve(LU, pivots, b)
    expected = np.linalg.solve(A.detach().numpy(), b.numpy())
    np.testing.assert_allclose(x.detach().numpy(), expected, atol=1e-12)


def test_singular_matrix_is_reported_by_info_or_refused():
    singular = E.tensor([[1.0, 2.0], [2.0, 4.0]])
    assert E.linalg.lu_factor_ex(singular).info.item() == 2
    with pytest.raises(RuntimeError, match=r"^torch.linalg.lu_factor: U\[2,2\] is zero"):
        E.linalg.lu_factor(singular)


def test_lstsq_fits_a_line_as_the_normal_equations():
    x = np.arange(6.0)
    X = E.tensor(np.stack([np.ones(6), x], 1).tolist(), dtype=E.float64)
    y = E.tensor((2 * x + 1 + 0.1 * np.cos(x)).tolist(), dtype=E.float64)
    fit = E.linalg.lstsq(X, y.unsqueeze(1), driver="gelsd")
    expected = np.linalg.lstsq(X.numpy(), y.numpy(), rcond=None)
    np.testing.assert_allclose(fit.solution.squeeze(1).numpy(), expected[0])
    np.testing.assert_allclose(fit.residuals.numpy(), expected[1])
    assert fit.rank.dtype == E.int64 and fit.rank.item() == 2
    assert E.linalg.lstsq(X, y.unsqueeze(1)).residuals.shape == (0,)  # (gelsy: none)


def test_incomplete_gamma_input_and_zeta_x_have_no_derivative():
    a = E.tensor([2.0, 3.0], requires_grad=True)
    with pytest.raises(NotImplementedError, match="^the derivative for 'igamma: input' is not"):
        E.igamma(a, E.tensor([1.0, 2.0])).sum().backward()
    x = E.tensor([2.0, 3.0], requires_grad=True)
    z = E.special.zeta(x, 2.0)
    assert type(z.grad_fn).__name__ == "SpecialZetaBackward2"
    with pytest.raises(NotImplementedError, match="^the derivative for 'zeta' is not implemented"):
        z.sum().backward()


def test_incomplete_gamma_values_sum_to_one():
    a = E.tensor([0.5, 1.0, 4.0, 30.0], dtype=E.float64)
    x = E.tensor([0.2, 1.0, 7.5, 28.0], dtype=E.float64)
    total = (E.igamma(a, x) + E.igammac(a, x)).numpy()
    np.testing.assert_allclose(total, 1.0, rtol=1e-12)
    np.testing.assert_allclose(E.igamma(E.tensor([1.0]), E.tensor([2.0])).item(), 1 - np.exp(-2))


def test_script_errors_are_one_located_message(tmp_path):
    script = tmp_path / "lu.py"
    script.write_text(
        "import torch\n"
        "A = torch.tensor([[1.0, 2.0], [2.0, 4.0]])\n"
        "print(torch.linalg.lu_factor_ex(A).info)\n"
        "torch.linalg.lu_factor(A)\n"
    )
    result = autodiff("run", str(script))
    assert result.returncode == 1
    assert "tensor(2, dtype=torch.int32)" in result.stdout
    assert "lu.py:4" in result.stderr and "U[2,2] is zero" in result.stderr
    assert "Traceback" not in result.stderr
