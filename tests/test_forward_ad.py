"""Forward-mode AD (`torch.autograd.forward_ad`): every op row of `engine_cases.CASES` has its
JVP checked against central finite differences in float64, and the API's behaviour and errors
are PyTorch's (recorded in tests/conformance/12NN_forward_ad_*.py too)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from engine_cases import CASES, Case, outputs_of, to_tensor

import autodiff_cli.engine as E
import autodiff_cli.engine.nn.functional  # noqa: F401  (registers its ops)
from autodiff_cli.engine.autograd import forward_ad as fwAD
from autodiff_cli.engine.autograd.forward_rules import Level

RTOL = 1e-6
ATOL = 1e-6


@pytest.fixture(autouse=True)
def _no_level_left():
    """Each test starts and ends outside a dual level."""
    assert Level.current is None
    yield
    if Level.current is not None:
        fwAD.exit_dual_level()
        pytest.fail("a test left a dual level active")


def _tangent_arrays(case: Case, arrays: list[np.ndarray]) -> list[np.ndarray | None]:
    rng = np.random.RandomState(zlib.crc32(f"{case.id}/tangent".encode()))
    return [
        rng.uniform(-1.0, 1.0, a.shape).astype(a.dtype) if spec.diff else None
        for a, spec in zip(arrays, case.inputs)
    ]


def _outputs_at(case: Case, arrays: list[np.ndarray]) -> list[np.ndarray]:
    inputs = [to_tensor(E, a, spec.diff) for a, spec in zip(arrays, case.inputs)]
    return [o.detach()._data for o in outputs_of(case.fn(E, *inputs))]


def _finite_difference(case: Case, arrays: list, tangents: list) -> list[np.ndarray]:
    """(f(x + eps t) - f(x - eps t)) / (2 eps) for each output."""
    eps = case.eps
    plus = [a if t is None else a + eps * t for a, t in zip(arrays, tangents)]
    minus = [a if t is None else a - eps * t for a, t in zip(arrays, tangents)]
    return [
        (np.asarray(p, np.float64) - np.asarray(m, np.float64)) / (2 * eps)
        for p, m in zip(_outputs_at(case, plus), _outputs_at(case, minus))
    ]


def _dual_outputs(case: Case, arrays: list, tangents: list) -> list:
    """(primal, tangent) of each output, the inputs made dual with their tangents."""
    with fwAD.dual_level():
        inputs = []
        for a, spec, t in zip(arrays, case.inputs, tangents):
            x = to_tensor(E, a, spec.diff)
            inputs.append(x if t is None else fwAD.make_dual(x, to_tensor(E, t)))
        return [tuple(fwAD.unpack_dual(o)) for o in outputs_of(case.fn(E, *inputs))]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_jvp_matches_finite_differences(case: Case):
    arrays = case.arrays()
    tangents = _tangent_arrays(case, arrays)
    expected = _finite_difference(case, arrays, tangents)
    found = _dual_outputs(case, arrays, tangents)
    plain = _outputs_at(case, arrays)
    assert len(found) == len(expected)
    for k, ((primal, tangent), numeric, value) in enumerate(zip(found, expected, plain)):
        np.testing.assert_allclose(primal._data, value, rtol=1e-12, atol=1e-12)
        assert tangent is not None, f"output {k} has no tangent"
        assert tuple(tangent.shape) == tuple(primal.shape)
        assert tangent.dtype == primal.dtype
        # float32 inputs: x ± eps t is rounded to float32 (eps is 2**-8 there), so the
        # differences are good to about 1e-4 only
        tol = RTOL if all(spec.dtype == "float64" for spec in case.inputs) else 1e-4
        np.testing.assert_allclose(
            tangent._data, numeric, rtol=tol, atol=tol, err_msg=f"J t of output {k}"
        )
