"""torch.svd_lowrank and torch.pca_lowrank: Halko, Martinsson and Tropp's randomised range finder
(their Algorithm 5) as PyTorch writes it, step for step, so that under the same seed the same
Gaussian draws (`torch.randn(n, q)`) give the same factors, and the graph holds the same nodes
(matmuls, QRs, the small SVD)."""

from __future__ import annotations

from typing import Any

from ..core.tensor import Tensor
from .decompositions import linalg_qr, linalg_svd
from .matrix import matmul
from .random import randn

__all__ = ["svd_lowrank", "pca_lowrank"]


def _minus(x: Tensor, M: Any, other: Tensor) -> Tensor:  # noqa: N803
    return x if M is None else x - matmul(M, other)


def _approximate_basis(A: Tensor, q: int, niter: int, M: Any) -> Tensor:  # noqa: N803
    """An orthonormal Q (m × q) whose range approximates A's (less M's), refined by `niter`
    power iterations, each step re-orthonormalised by a QR."""
    R = randn(A.shape[-1], q, dtype=A.dtype)  # noqa: N806
    Q = linalg_qr(_minus(matmul(A, R), M, R)).Q  # noqa: N806
    for _ in range(niter):
        Q = linalg_qr(_minus(matmul(A.mH, Q), None if M is None else M.mH, Q)).Q  # noqa: N806
        Q = linalg_qr(_minus(matmul(A, Q), M, Q)).Q  # noqa: N806
    return Q


def _svd_lowrank(A: Tensor, q: int, niter: int, M: Any) -> tuple:  # noqa: N803
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.shape)  # noqa: N806
    if m < n:  # (worked on the tall Aᴴ)
        A = A.mH  # noqa: N806
        M = None if M is None else M.mH  # noqa: N806
    Q = _approximate_basis(A, q, niter, M)  # noqa: N806
    B = matmul(Q.mH, A)  # noqa: N806
    if M is not None:
        B = B - matmul(Q.mH, M)  # noqa: N806
    U, S, Vh = linalg_svd(B, full_matrices=False)  # noqa: N806
    V = Vh.mH  # noqa: N806
    U = Q.matmul(U)  # noqa: N806
    if m < n:
        U, V = V, U  # noqa: N806
    return U, S, V


def svd_lowrank(A: Tensor, q: int | None = 6, niter: int = 2, M: Any = None) -> tuple:  # noqa: N803
    """(U, S, V) of a rank-q approximation of A − M, A ≈ U diag(S) Vᴴ (random: torch.randn)."""
    return _svd_lowrank(A, 6 if q is None else q, 2 if niter is None else niter, M)


def pca_lowrank(A: Tensor, q: int | None = None, center: bool = True, niter: int = 2) -> tuple:  # noqa: N803
    """(U, S, V) of the centred A's rank-q approximation: V's columns are the principal
    directions, S² / (m − 1) their variances."""
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(
            f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}"
        )
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return _svd_lowrank(A, q, niter, None)
    return _svd_lowrank(A - A.mean(dim=(-2,), keepdim=True), q, niter, None)
