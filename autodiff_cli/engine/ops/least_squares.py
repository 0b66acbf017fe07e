"""torch.linalg.lstsq: the least-squares solution of A X = B, with PyTorch's fields per driver.

The solution is the minimum-norm one (through the SVD, with singular values below
rcond · s_max dropped), which every LAPACK driver gives for a full-rank A; what else is filled
follows the driver as PyTorch 2.13's CPU does: `rank` for gelsy (the default), gelsd and gelss,
`singular_values` for gelsd and gelss, `residuals` (the squared residual norm of each column) for
gelsd, gelss and gels when A is tall and of full rank."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_op
from ..core.optable import defop
from ..core.out_arg import write_out
from ..core.tensor import Tensor, _wrap
from . import arithmetic
from .decompositions import PINV
from .formula_ops import run
from .matrix_functions import named_result

__all__: list[str] = []

_LSTSQ = named_result("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _solve_np(a: np.ndarray, b: np.ndarray, rcond: float) -> tuple:
    """(X, squared residual norms, rank, singular values) of a batch, b with columns."""
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    cutoff = rcond * s[..., :1]
    keep = s > cutoff
    inv_s = np.where(keep, 1 / np.where(keep, s, 1), 0)
    x = np.swapaxes(vh, -1, -2) @ (inv_s[..., :, None] * (np.swapaxes(u, -1, -2) @ b))
    residuals = ((a @ x - b) ** 2).sum(-2)
    return x.astype(b.dtype), residuals.astype(b.dtype), keep.sum(-1), s.astype(a.dtype)


def _lstsq_np(a: np.ndarray, b: np.ndarray, rcond: float, driver: str, vector: bool) -> tuple:
    m, n = a.shape[-2:]
    columns = b[..., None] if vector else b
    batch = np.broadcast_shapes(a.shape[:-2], columns.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    columns = np.broadcast_to(columns, batch + columns.shape[-2:])
    x, residuals, rank, s = _solve_np(a, columns, rcond)
    full_rank = bool(np.all(rank == n))
    if not (m > n and full_rank and driver != "gelsy"):
        residuals = np.zeros(0, b.dtype)
    if driver == "gels":
        rank = np.zeros(0, np.int64)
    if driver not in ("gelsd", "gelss"):
        s = np.zeros(0, a.dtype)
    return (x[..., 0] if vector else x), residuals, np.asarray(rank, np.int64), s


def _as_matrix(B: Any, x: Any, vector: bool) -> Any:
    return run(B, arithmetic.UNSQUEEZE, x, dim=len(x.shape)) if vector else x


def _residual_part(B: Any, grads: list, A: Any, other: Any, X: Any, vector: bool) -> Any:  # noqa: N803
    """r = A X − B and the residuals' gradient as a row (its column's weight)."""
    g = grads[1]
    if len(g.shape) == 0 or 0 in tuple(g.shape):
        return None, None
    r = A @ X - _as_matrix(B, other, vector)
    return r, run(B, arithmetic.UNSQUEEZE, g, dim=len(g.shape) - 1)


def _lstsq_grad_a(B: Any, grads: list, self: Any, b: Any, **params: Any) -> Any:
    """Through X = pinv(A) B: the pseudo-inverse's gradient against X̄ Bᵀ; the residuals
    ‖A X − B‖² add 2 (A X − B) Xᵀ weighted by their gradient."""
    vector = params["vector"]
    P = run(B, PINV, self, atol=None, rtol=None)  # noqa: N806
    rhs = _as_matrix(B, b, vector)
    X = P @ rhs  # noqa: N806
    gX = _as_matrix(B, grads[0], vector)  # noqa: N806
    gP = gX @ B.transpose(rhs, -2, -1)  # noqa: N806
    gA = PINV.grads[0](B, gP, self, P, None, None)  # noqa: N806
    r, weight = _residual_part(B, grads, self, b, X, vector)
    if r is not None:
        gA = gA + (r * weight) @ B.transpose(X, -2, -1) * 2.0  # noqa: N806
    return gA


def _lstsq_grad_b(B: Any, grads: list, self: Any, b: Any, **params: Any) -> Any:
    """pinv(A)ᵀ X̄; the residuals add −2 (A X − B) weighted by their gradient."""
    vector = params["vector"]
    P = run(B, PINV, self, atol=None, rtol=None)  # noqa: N806
    gB = B.transpose(P, -2, -1) @ _as_matrix(B, grads[0], vector)  # noqa: N806
    r, weight = _residual_part(B, grads, self, b, P @ _as_matrix(B, b, vector), vector)
    if r is not None:
        gB = gB - r * weight * 2.0  # noqa: N806
    if vector:
        return run(B, arithmetic.SQUEEZE_DIM, gB, dim=len(gB.shape) - 1, source=tuple(gB.shape))
    return gB


LSTSQ = defop(
    "linalg_lstsq",
    "LinalgLstsqBackward0",
    _lstsq_np,
    _lstsq_grad_a,
    _lstsq_grad_b,
    n_outputs=4,
    arg_names=("self", "b"),
    rules=("the pseudo-inverse's gradient at X̄ Bᵀ (+ 2 r Xᵀ for the residuals)", "pinv(A)ᵀ X̄"),
)


def lstsq(
    A: Tensor,  # noqa: N803 - PyTorch's names
    B: Tensor,  # noqa: N803
    rcond: float | None = None,
    *,
    driver: str | None = None,
    out: Any = None,
) -> tuple:
    """(solution, residuals, rank, singular_values) (LinalgLstsqBackward0 on the first two)."""
    if out is not None:
        return write_out(lstsq, out, A, B, rcond, driver=driver)
    fn = "torch.linalg.lstsq"
    if driver is None:
        driver = "gelsy"
    if driver not in _DRIVERS:
        raise RuntimeError(f"{fn}: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    if A.ndim < 2:
        raise RuntimeError(f"{fn}: input must have at least 2 dimensions.")
    if B.ndim < 1:
        raise RuntimeError(f"{fn}: other must have at least 1 dimension.")
    if A._data.dtype != B._data.dtype:
        raise RuntimeError(
            f"{fn}: Expected input and other to have the same dtype, but got input's dtype "
            f"{dtypes.scalar_name(A._data.dtype).capitalize()} and other's dtype "
            f"{dtypes.scalar_name(B._data.dtype).capitalize()}"
        )
    if A._data.dtype.kind != "f":
        raise RuntimeError(
            f"{fn}: Expected a floating point or complex tensor as input. Got "
            f"{dtypes.scalar_name(A._data.dtype).capitalize()}"
        )
    vector = B.ndim == A.ndim - 1
    if not (B.ndim == A.ndim or vector):
        raise RuntimeError(
            f"{fn}: input.dim() must be greater or equal to other.dim() and (input.dim() - "
            "other.dim()) <= 1"
        )
    if A._data.shape[-2] != B._data.shape[-1 if vector else -2]:
        raise RuntimeError(f"{fn}: input.size(-2) should match other.size(-{1 if vector else 2})")
    m, n = A._data.shape[-2:]
    if rcond is None:
        rcond = float(np.finfo(A._data.dtype).eps) * max(m, n)
    params = {"rcond": float(rcond), "driver": driver, "vector": vector}
    x, residuals, rank, s = apply_op(LSTSQ, (A, B), params)
    return _LSTSQ((x, residuals, _wrap(rank._data), _wrap(s._data)))
