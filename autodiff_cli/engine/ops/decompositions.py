"""Matrix decompositions: svd (torch.svd, linalg.svd, svdvals), qr (torch.qr, linalg.qr),
cholesky (torch.cholesky, linalg.cholesky) and the pseudo-inverse (pinverse, linalg.pinv).

The factors come from numpy's LAPACK: Householder QR and Cholesky are unique up to the sign
conventions LAPACK fixes (the same as PyTorch's); singular vectors are unique only up to a sign
per pair, and LAPACK builds may choose differently (PyTorch's MKL and numpy's OpenBLAS agree on
most inputs, not all). Gradients follow the standard formulas (those PyTorch documents), written
with ops that record themselves under create_graph, so they are differentiable again."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_op
from ..core.optable import defop, tensor_methods
from ..core.out_arg import write_out
from ..core.tensor import Tensor, _wrap
from . import arithmetic
from .formula_ops import run
from .matrix import DIAG_EMBED, DIAGONAL, INV, TRIL, TRIU, _LinAlgError
from .matrix_functions import _square_prefix, named_result
from .views import CAT, _slice_any

__all__ = [
    "svd",
    "qr",
    "cholesky",
    "pinverse",
    "triangular_solve",
    "cholesky_solve",
    "cholesky_inverse",
]

_SVD = named_result("svd", ("U", "S", "V"))
_LINALG_SVD = named_result("linalg_svd", ("U", "S", "Vh"))
_QR = named_result("qr", ("Q", "R"))
_LINALG_QR = named_result("linalg_qr", ("Q", "R"))


def _require_float(A: Tensor, fn: str, least_2d: bool = True) -> None:  # noqa: N803
    if least_2d and A.ndim < 2:
        raise RuntimeError(f"{fn}: The input tensor A must have at least 2 dimensions.")
    if A._data.dtype.kind != "f":
        raise RuntimeError(
            f"{fn}: Expected a floating point or complex tensor as input. Got "
            f"{dtypes.scalar_name(A._data.dtype)}"
        )


def _mT(B: Any, x: Any) -> Any:  # noqa: N802 - PyTorch's name
    return B.transpose(x, -2, -1)


def _eye(B: Any, n: int, like: Any) -> Any:
    return B.const(np.eye(n, dtype=B.array_of(like).dtype))


def _diag(B: Any, v: Any) -> Any:
    return run(B, DIAG_EMBED, v, offset=0)


def _columns(B: Any, x: Any, stop: int) -> Any:
    return _slice_any(B, x, len(x.shape) - 1, 0, stop)


def _rows(B: Any, x: Any, stop: int) -> Any:
    return _slice_any(B, x, len(x.shape) - 2, 0, stop)


# --------------------------------------------------------------------------------------------
# SVD
# --------------------------------------------------------------------------------------------


def _svd_np(a: np.ndarray, full_matrices: bool) -> tuple:
    """(U, S, Vh) in `a`'s dtype; an empty input gives identity-like factors, as PyTorch's."""
    m, n = a.shape[-2:]
    if a.size == 0:
        k = min(m, n)
        rows, cols = (m, n) if full_matrices else (k, k)
        batch = a.shape[:-2]
        u = np.broadcast_to(np.eye(m, rows, dtype=a.dtype), batch + (m, rows))
        vh = np.broadcast_to(np.eye(cols, n, dtype=a.dtype), batch + (cols, n))
        return np.array(u), np.zeros(batch + (k,), a.dtype), np.array(vh)
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return u.astype(a.dtype), s.astype(a.dtype), vh.astype(a.dtype)


def _svd_grad(B: Any, grads: list, A: Any, full_matrices: bool) -> Any:  # noqa: N803
    """Ā = U[(F∘(UᵀŪ − ŪᵀU))S + diag(S̄) + S(F∘(VᵀV̄ − V̄ᵀV))]Vᵀ + (I − UUᵀ)ŪS⁻¹Vᵀ
    + US⁻¹V̄ᵀ(I − VVᵀ), F_ij = 1 / (s_j² − s_i²) off the diagonal; the extra columns of full
    factors get no gradient."""
    gU, gS, gVh = grads  # noqa: N806
    U, S, Vh = run(B, SVD, A, full_matrices=full_matrices)  # noqa: N806 - the factors again
    m, n = U.shape[-2], Vh.shape[-1]
    k = S.shape[-1]
    if full_matrices and m != n:
        U, gU = _columns(B, U, k), _columns(B, gU, k)
        Vh, gVh = _rows(B, Vh, k), _rows(B, gVh, k)
    V, gV = _mT(B, Vh), _mT(B, gVh)
    s_row = run(B, arithmetic.UNSQUEEZE, S, dim=len(S.shape) - 1)  # [..., 1, k]
    s_col = run(B, arithmetic.UNSQUEEZE, S, dim=len(S.shape))  # [..., k, 1]
    off = B.const(1.0 - np.eye(k, dtype=B.array_of(S).dtype))
    gap = s_row * s_row - s_col * s_col + _eye(B, k, S)  # s_j² − s_i² (1 on the diagonal)
    F = off / gap  # noqa: N806
    Ut_gU = _mT(B, U) @ gU  # noqa: N806
    Vt_gV = _mT(B, V) @ gV  # noqa: N806
    inner = (F * (Ut_gU - _mT(B, Ut_gU))) * s_row + s_col * (F * (Vt_gV - _mT(B, Vt_gV)))
    inner = inner + _diag(B, gS)
    if n > k:  # wide: U · (inner · Vᵀ + S⁻¹V̄ᵀ(I − VVᵀ))
        return U @ (inner @ Vh + (gVh - _mT(B, Vt_gV) @ Vh) / s_col)
    if m > k:  # tall: ((U · inner) + (I − UUᵀ)ŪS⁻¹) · Vᵀ
        return (U @ inner + (gU - U @ Ut_gU) / s_row) @ Vh
    return U @ inner @ Vh


SVD = defop(
    "linalg_svd",
    "LinalgSvdBackward0",
    _svd_np,
    _svd_grad,
    n_outputs=3,
    arg_names=("A",),
    rules=("U[(F∘(UᵀŪ−ŪᵀU))S + diag(S̄) + S(F∘(VᵀV̄−V̄ᵀV))]Vᵀ + projections",),
)


def _svd(A: Tensor, full_matrices: bool) -> tuple:  # noqa: N803
    _require_float(A, "linalg.svd")
    return apply_op(SVD, (A,), {"full_matrices": bool(full_matrices)})


def linalg_svd(
    A: Tensor,  # noqa: N803 - PyTorch's name
    full_matrices: bool = True,
    *,
    driver: Any = None,
    out: Any = None,
) -> tuple:
    """(U, S, Vh), full or reduced (LinalgSvdBackward0 on each)."""
    if out is not None:
        return write_out(linalg_svd, out, A, full_matrices)
    return _LINALG_SVD(_svd(A, full_matrices))


def svdvals(A: Tensor, *, driver: Any = None, out: Any = None) -> Tensor:  # noqa: N803
    """The singular values, largest first (LinalgSvdBackward0)."""
    if out is not None:
        return write_out(svdvals, out, A)
    return _svd(A, False)[1]


def svd(input: Tensor, some: bool = True, compute_uv: bool = True, *, out: Any = None) -> tuple:
    """torch.svd: (U, S, V) with V = Vhᵀ (TransposeBackward0); without compute_uv, zero U and V."""
    if out is not None:
        return write_out(svd, out, input, some, compute_uv)
    if input.ndim < 2:
        raise RuntimeError(
            f"linalg.svd: input should have at least 2 dimensions, but has {input.ndim} "
            "dimensions instead"
        )
    u, s, vh = _svd(input, not some)
    if not compute_uv:
        m, n = input._data.shape[-2:]
        batch = input._data.shape[:-2]
        dt = input._data.dtype
        return _SVD((_wrap(np.zeros(batch + (m, m), dt)), s, _wrap(np.zeros(batch + (n, n), dt))))
    return _SVD((u, s, arithmetic.transpose(vh, -2, -1)))


# --------------------------------------------------------------------------------------------
# QR
# --------------------------------------------------------------------------------------------


def _qr_np(a: np.ndarray, mode: str) -> tuple:
    m, n = a.shape[-2:]
    if a.size == 0:
        cols = m if mode == "complete" else min(m, n)
        q = np.broadcast_to(np.eye(m, cols, dtype=a.dtype), a.shape[:-2] + (m, cols))
        r = np.zeros(a.shape[:-2] + (cols, n), a.dtype)
        return (np.zeros(0, a.dtype) if mode == "r" else np.array(q)), r
    q, r = np.linalg.qr(a, mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        q = np.zeros(0, a.dtype)
    return q.astype(a.dtype), r.astype(a.dtype)


def _copyltu(B: Any, M: Any) -> Any:  # noqa: N803
    """The symmetric matrix with M's lower triangle (diagonal included)."""
    low = run(B, TRIL, M, diagonal=-1)
    nd = len(M.shape)
    diagonal = run(B, DIAGONAL, M, offset=0, dim1=nd - 2, dim2=nd - 1, shape=tuple(M.shape))
    return low + _mT(B, low) + _diag(B, diagonal)


def _qr_square_grad(B: Any, gQ: Any, gR: Any, Q: Any, R: Any) -> Any:  # noqa: N803
    """m ≥ n: Ā = (Q̄ + Q copyltu(M)) R⁻ᵀ, M = R R̄ᵀ − Q̄ᵀ Q."""
    M = R @ _mT(B, gR) - _mT(B, gQ) @ Q  # noqa: N806
    rhs = gQ + Q @ _copyltu(B, M)
    return run(B, SOLVE_TRIANGULAR, _mT(B, R), rhs, upper=False, left=False, unit=False)


def _qr_grad(B: Any, grads: list, A: Any, mode: str) -> Any:  # noqa: N803
    gQ, gR = grads  # noqa: N806
    m, n = A.shape[-2], A.shape[-1]
    if mode == "r":
        raise RuntimeError(
            "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. "
            "Please use linalg.qr(A, mode='reduced') if you are going to differentiate "
            "through linalg.qr."
        )
    if mode == "complete" and m > n:
        raise RuntimeError(
            "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
        )
    Q, R = run(B, QR, A, mode=mode)  # noqa: N806 - the factors again
    if m >= n:
        return _qr_square_grad(B, gQ, gR, Q, R)
    # m < n: A = Q [X | Y] with X = Q R1 square; Y = Q R2
    d = len(A.shape) - 1
    R1, gR1 = _columns(B, R, m), _columns(B, gR, m)  # noqa: N806
    gR2 = _slice_any(B, gR, d, m, n)  # noqa: N806
    Y = _slice_any(B, A, d, m, n)  # noqa: N806
    gX = _qr_square_grad(B, gQ + Y @ _mT(B, gR2), gR1, Q, R1)  # noqa: N806
    gY = Q @ gR2  # noqa: N806
    return _pad_columns(B, gX, 0, n - m) + _pad_columns(B, gY, m, 0)


def _pad_columns(B: Any, x: Any, before: int, after: int) -> Any:
    """`x` with zero columns added on either side."""
    dt = B.array_of(x).dtype
    parts = [B.zeros(tuple(x.shape[:-1]) + (before,), dt)] if before else []
    parts += [x] + ([B.zeros(tuple(x.shape[:-1]) + (after,), dt)] if after else [])
    shapes = tuple(tuple(p.shape) for p in parts)
    return run(B, CAT, *parts, dim=len(x.shape) - 1, shapes=shapes)


def _solve_triangular_np(a: Any, b: Any, upper: bool, left: bool, unit: bool = False) -> Any:
    """X with A X = B (left) or X A = B, reading only A's upper or lower triangle (its diagonal
    taken as ones when `unit`)."""
    tri = np.triu(a, 1 if unit else 0) if upper else np.tril(a, -1 if unit else 0)
    if unit:
        tri = tri + np.eye(a.shape[-1], dtype=a.dtype)
    if left:
        return np.linalg.solve(tri, b).astype(b.dtype)
    moved = np.linalg.solve(np.swapaxes(tri, -1, -2), np.swapaxes(b, -1, -2))
    return np.swapaxes(moved, -1, -2).astype(b.dtype)


def _solve_triangular_grad_a(
    B: Any, g: Any, self: Any, result: Any, upper: bool, left: bool, unit: bool = False
) -> Any:
    """−A⁻ᵀ grad Xᵀ (left) or −Xᵀ grad A⁻ᵀ, on A's triangle."""
    gB = run(B, SOLVE_TRIANGULAR, _mT(B, self), g, upper=not upper, left=left, unit=unit)  # noqa: N806
    full = -(gB @ _mT(B, result)) if left else -(_mT(B, result) @ gB)
    if upper:
        return run(B, TRIU, full, diagonal=1 if unit else 0)
    return run(B, TRIL, full, diagonal=-1 if unit else 0)


SOLVE_TRIANGULAR = defop(
    "linalg_solve_triangular",
    "LinalgSolveTriangularBackward0",
    _solve_triangular_np,
    _solve_triangular_grad_a,
    lambda B, g, self, result, upper, left, unit=False: run(
        B, SOLVE_TRIANGULAR, _mT(B, self), g, upper=not upper, left=left, unit=unit
    ),
    arg_names=("self", "other"),
    rules=("−A⁻ᵀ grad Xᵀ on A's triangle (left; mirrored for right)", "A⁻ᵀ grad (left)"),
)


_TRIANGULAR_SOLVE = named_result("triangular_solve", ("solution", "cloned_coefficient"))
_TRIANGULAR_SOLVE_WARNING = (
    "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be "
    "removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments "
    "reversed and does not return a copy of one of the inputs.\n"
    "X = torch.triangular_solve(B, A).solution\nshould be replaced with\n"
    "X = torch.linalg.solve_triangular(A, B). (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2273.)"
)


class _Warned:
    """PyTorch warns once per process (TORCH_WARN_ONCE)."""

    triangular_solve = False


def _triangular_solve_np(b: Any, a: Any, upper: bool, transpose: bool, unit: bool) -> tuple:
    """(X, a copy of A) with op(A) X = b, op(A) = Aᵀ when `transpose`."""
    if transpose:
        x = _solve_triangular_np(np.swapaxes(a, -1, -2), b, not upper, True, unit)
    else:
        x = _solve_triangular_np(a, b, upper, True, unit)
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return x, np.array(np.broadcast_to(a, shape + a.shape[-2:]))


def _triangular_solve_grad_b(
    B: Any, grads: list, self: Any, A: Any, upper: bool, transpose: bool, unit: bool
) -> Any:
    """b̄ = op(A)⁻ᵀ X̄."""
    op_a = _mT(B, A) if transpose else A
    flipped = upper != transpose  # op(A) is upper
    return run(B, SOLVE_TRIANGULAR, _mT(B, op_a), grads[0], upper=not flipped, left=True, unit=unit)


def _triangular_solve_grad_a(
    B: Any, grads: list, self: Any, A: Any, upper: bool, transpose: bool, unit: bool
) -> Any:
    """Ā = −b̄ Xᵀ (transposed back for op(A) = Aᵀ) on A's triangle, plus the copy's gradient."""
    params = {"upper": upper, "transpose": transpose, "unit": unit}
    X = run(B, TRIANGULAR_SOLVE, self, A, **params)[0]  # noqa: N806 - the solution again
    full = -(_triangular_solve_grad_b(B, grads, self, A, **params) @ _mT(B, X))
    if transpose:
        full = _mT(B, full)
    if upper:
        return run(B, TRIU, full, diagonal=1 if unit else 0) + grads[1]
    return run(B, TRIL, full, diagonal=-1 if unit else 0) + grads[1]


TRIANGULAR_SOLVE = defop(
    "triangular_solve",
    "TriangularSolveBackward0",
    _triangular_solve_np,
    _triangular_solve_grad_b,
    _triangular_solve_grad_a,
    n_outputs=2,
    arg_names=("self", "A"),
    rules=("op(A)⁻ᵀ grad", "−op(A)⁻ᵀ grad Xᵀ on A's triangle + the copy's gradient"),
)


def triangular_solve(
    b: Tensor,
    A: Tensor,  # noqa: N803 - PyTorch's name
    upper: bool = True,
    transpose: bool = False,
    unitriangular: bool = False,
    *,
    out: Any = None,
) -> tuple:
    """torch.triangular_solve (deprecated for linalg.solve_triangular): (solution,
    cloned_coefficient) with op(A) X = b (TriangularSolveBackward0)."""
    if out is not None:
        return write_out(triangular_solve, out, b, A, upper, transpose, unitriangular)
    for name, t in (("b", b), ("A", A)):
        if t.ndim < 2:
            raise RuntimeError(
                f"torch.triangular_solve: The input tensor {name} must have at least 2 dimensions."
            )
    rows, cols = A._data.shape[-2:]
    if rows != cols:
        raise RuntimeError(
            f"A must be batches of square matrices, but they are {rows} by {cols} matrices"
        )
    if b._data.shape[-2] != A._data.shape[-1]:
        raise RuntimeError(
            "Incompatible matrix sizes for triangular_solve: each A "
            f"matrix is {A.shape[-2]} by {A.shape[-1]} but each b matrix is "
            f"{b.shape[-2]} by {b.shape[-1]}"
        )
    if b._data.dtype != A._data.dtype:
        raise RuntimeError(
            "Expected b and A to have the same dtype, but found b of type "
            f"{dtypes.scalar_name(b._data.dtype).capitalize()} and A of type "
            f"{dtypes.scalar_name(A._data.dtype).capitalize()} instead."
        )
    _require_float(A, "torch.triangular_solve")
    if not _Warned.triangular_solve:  # (after the checks, as PyTorch's)
        _Warned.triangular_solve = True
        warnings.warn(_TRIANGULAR_SOLVE_WARNING, UserWarning, stacklevel=2)
    params = {"upper": bool(upper), "transpose": bool(transpose), "unit": bool(unitriangular)}
    return _TRIANGULAR_SOLVE(apply_op(TRIANGULAR_SOLVE, (b, A), params))


QR = defop(
    "linalg_qr",
    "LinalgQrBackward0",
    _qr_np,
    _qr_grad,
    n_outputs=2,
    arg_names=("A",),
    rules=("(Q̄ + Q copyltu(R R̄ᵀ − Q̄ᵀQ)) R⁻ᵀ",),
)

_QR_MODES = ("reduced", "complete", "r")


def linalg_solve_triangular(
    input: Tensor,
    B: Tensor,  # noqa: N803 - PyTorch's name
    *,
    upper: bool,
    left: bool = True,
    unitriangular: bool = False,
    out: Any = None,
) -> Tensor:
    """X with A X = B (or X A = B for left=False), A triangular (LinalgSolveTriangularBackward0)."""
    if out is not None:
        return write_out(
            linalg_solve_triangular,
            out,
            input,
            B,
            upper=upper,
            left=left,
            unitriangular=unitriangular,
        )
    _square_prefix(input, "linalg.solve_triangular")
    _require_float(B, "linalg.solve_triangular")
    params = {"upper": bool(upper), "left": bool(left), "unit": bool(unitriangular)}
    return apply_op(SOLVE_TRIANGULAR, (input, B), params)


def linalg_qr(A: Tensor, mode: str = "reduced", *, out: Any = None) -> tuple:  # noqa: N803
    """(Q, R) by Householder reflections: 'reduced', 'complete', or 'r' (Q empty)."""
    if out is not None:
        return write_out(linalg_qr, out, A, mode)
    if mode not in _QR_MODES:
        raise RuntimeError(
            f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), "
            "'r', or 'complete'"
        )
    _require_float(A, "linalg.qr")
    return _LINALG_QR(apply_op(QR, (A,), {"mode": mode}))


def qr(input: Tensor, some: bool = True, *, out: Any = None) -> tuple:
    """torch.qr: linalg.qr's 'reduced' (some) or 'complete' factors."""
    if out is not None:
        return write_out(qr, out, input, some)
    return _QR(linalg_qr(input, "reduced" if some else "complete"))


# --------------------------------------------------------------------------------------------
# Cholesky
# --------------------------------------------------------------------------------------------


def _cholesky_np(a: np.ndarray, upper: bool, fn: str) -> np.ndarray:
    out = np.empty(a.shape, a.dtype)
    for idx in np.ndindex(*a.shape[:-2]):
        try:
            out[idx] = np.linalg.cholesky(a[idx])
        except np.linalg.LinAlgError:
            out[idx] = np.nan
            order = _first_bad_minor(a[idx])
            batch = f"(Batch element {np.ravel_multi_index(idx, a.shape[:-2])}): " if idx else ""
            raise _LinAlgError(
                f"{fn}: {batch}The factorization could not be completed because the input is "
                f"not positive-definite (the leading minor of order {order} is not "
                "positive-definite)."
            ) from None
    return np.swapaxes(out, -1, -2).copy() if upper else out


def _first_bad_minor(a: np.ndarray) -> int:
    """The order of the first leading minor that is not positive-definite."""
    for k in range(1, a.shape[-1] + 1):
        try:
            np.linalg.cholesky(a[:k, :k])
        except np.linalg.LinAlgError:
            return k
    return a.shape[-1]


def _cholesky_grad(B: Any, g: Any, self: Any, upper: bool, fn: str) -> Any:
    """Ā = sym(L⁻ᵀ Φ(Lᵀ L̄) L⁻¹), Φ the lower triangle with its diagonal halved."""
    L = run(B, CHOLESKY if fn == "cholesky" else LINALG_CHOLESKY, self, upper=False, fn=fn)  # noqa: N806
    gL = _mT(B, g) if upper else g  # noqa: N806
    inner = run(B, TRIL, _mT(B, L) @ gL, diagonal=0)
    nd = len(inner.shape)
    diagonal = run(B, DIAGONAL, inner, offset=0, dim1=nd - 2, dim2=nd - 1, shape=tuple(inner.shape))
    phi = inner - _diag(B, diagonal * 0.5)
    L_inv = run(B, INV, L)  # noqa: N806
    S = _mT(B, L_inv) @ phi @ L_inv  # noqa: N806
    return (S + _mT(B, S)) * 0.5


LINALG_CHOLESKY = defop(
    "linalg_cholesky_ex",
    "LinalgCholeskyExBackward0",
    _cholesky_np,
    _cholesky_grad,
    rules=("sym(L⁻ᵀ Φ(Lᵀ grad) L⁻¹)",),
)
CHOLESKY = defop(
    "cholesky",
    "CholeskyBackward0",
    _cholesky_np,
    _cholesky_grad,
    rules=("sym(L⁻ᵀ Φ(Lᵀ grad) L⁻¹)",),
)


def linalg_cholesky(input: Tensor, *, upper: bool = False, out: Any = None) -> Tensor:
    """The lower (or upper) Cholesky factor (LinalgCholeskyExBackward0)."""
    if out is not None:
        return write_out(linalg_cholesky, out, input, upper=upper)
    _square_prefix(input, "linalg.cholesky")
    params = {"upper": bool(upper), "fn": "linalg.cholesky"}
    return apply_op(LINALG_CHOLESKY, (input,), params)


def cholesky(input: Tensor, upper: bool = False, *, out: Any = None) -> Tensor:
    """torch.cholesky (deprecated in PyTorch for linalg.cholesky): CholeskyBackward0."""
    if out is not None:
        return write_out(cholesky, out, input, upper)
    _square_prefix(input, "cholesky")
    return apply_op(CHOLESKY, (input,), {"upper": bool(upper), "fn": "cholesky"})


def _cholesky_factor(a: np.ndarray, upper: bool) -> np.ndarray:
    """The triangle of `a` that LAPACK's potrs/potri read, as a lower factor L."""
    return np.swapaxes(np.triu(a), -1, -2) if upper else np.tril(a)


def _cholesky_solve_np(b: np.ndarray, a: np.ndarray, upper: bool) -> np.ndarray:
    """X with L Lᵀ X = b (Uᵀ U X = b when `upper`): two triangular solves."""
    low = _cholesky_factor(a, upper)
    y = _solve_triangular_np(low, b, False, True)
    return _solve_triangular_np(np.swapaxes(low, -1, -2), y, True, True)


def _cholesky_solve_grad_l(B: Any, g: Any, self: Any, input2: Any, result: Any, upper: bool) -> Any:
    """−(Ḡ Xᵀ + X Ḡᵀ) L (−U (…) upper), Ḡ = cholesky_solve(grad, L)."""
    gb = run(B, CHOLESKY_SOLVE, g, input2, upper=upper)
    common = gb @ _mT(B, result)
    common = common + _mT(B, common)
    return -(input2 @ common) if upper else -(common @ input2)


CHOLESKY_SOLVE = defop(
    "cholesky_solve",
    "CholeskySolveBackward0",
    _cholesky_solve_np,
    lambda B, g, self, input2, result, upper: run(B, CHOLESKY_SOLVE, g, input2, upper=upper),
    _cholesky_solve_grad_l,
    arg_names=("self", "input2"),
    rules=("cholesky_solve(grad, L)", "−(Ḡ Xᵀ + X Ḡᵀ) L"),
)


def _cholesky_inverse_np(a: np.ndarray, upper: bool) -> np.ndarray:
    low = _cholesky_factor(a, upper)
    eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
    return _cholesky_solve_np(eye, low, False)


def _cholesky_inverse_grad(B: Any, g: Any, self: Any, result: Any, upper: bool) -> Any:
    """−Y (grad + gradᵀ) Y L (−U Y (…) Y upper), Y the inverse."""
    common = result @ (g + _mT(B, g)) @ result
    return -(self @ common) if upper else -(common @ self)


CHOLESKY_INVERSE = defop(
    "cholesky_inverse",
    "CholeskyInverseBackward0",
    _cholesky_inverse_np,
    _cholesky_inverse_grad,
    rules=("−Y (grad + gradᵀ) Y L",),
)


def _check_factor(L: Tensor, fn: str) -> None:  # noqa: N803
    if L.ndim < 2:
        raise RuntimeError(f"{fn}: The input tensor A must have at least 2 dimensions.")
    _square_prefix(L, fn)


def cholesky_solve(
    input: Tensor, input2: Tensor, upper: bool = False, *, out: Any = None
) -> Tensor:
    """X with A X = input for A = L Lᵀ given its Cholesky factor `input2` (CholeskySolveBackward0)."""
    if out is not None:
        return write_out(cholesky_solve, out, input, input2, upper)
    _require_float(input, "cholesky_solve")
    _check_factor(input2, "cholesky_solve")
    if input._data.dtype != input2._data.dtype:
        raise RuntimeError(
            "Expected b and A to have the same dtype, but found b of type "
            f"{dtypes.scalar_name(input._data.dtype).capitalize()} and A of type "
            f"{dtypes.scalar_name(input2._data.dtype).capitalize()} instead."
        )
    if input._data.shape[-2] != input2._data.shape[-1]:
        raise RuntimeError(
            "Incompatible matrix sizes for cholesky_solve: each A matrix is "
            f"{input2.shape[-2]} by {input2.shape[-1]} but each b matrix is "
            f"{input.shape[-2]} by {input.shape[-1]}"
        )
    return apply_op(CHOLESKY_SOLVE, (input, input2), {"upper": bool(upper)})


def cholesky_inverse(L: Tensor, upper: bool = False, *, out: Any = None) -> Tensor:  # noqa: N803
    """(L Lᵀ)⁻¹ from a Cholesky factor (CholeskyInverseBackward0)."""
    if out is not None:
        return write_out(cholesky_inverse, out, L, upper)
    _check_factor(L, "cholesky_inverse")
    return apply_op(CHOLESKY_INVERSE, (L,), {"upper": bool(upper)})


# --------------------------------------------------------------------------------------------
# Symmetric eigendecomposition
# --------------------------------------------------------------------------------------------

_LINALG_EIGH = named_result("linalg_eigh", ("eigenvalues", "eigenvectors"))


def _eigh_np(a: np.ndarray, uplo: str) -> tuple:
    """Eigenvalues in ascending order and orthonormal eigenvectors (LAPACK's syevd, reading the
    `uplo` triangle)."""
    if a.size == 0:
        n = a.shape[-1]
        return np.zeros(a.shape[:-1], a.dtype), np.zeros(a.shape[:-2] + (n, n), a.dtype)
    w, v = np.linalg.eigh(a, UPLO=uplo)
    return w.astype(a.dtype), v.astype(a.dtype)


def _eigh_grad(B: Any, grads: list, A: Any, uplo: str) -> Any:  # noqa: N803
    """Ā = V (diag(λ̄) + skew(Vᵀ V̄) / E) Vᵀ, E_ij = λ_j − λ_i off the diagonal."""
    g_values, g_vectors = grads
    values, V = run(B, EIGH, A, uplo=uplo)  # noqa: N806 - the factors again
    n = values.shape[-1]
    row = run(B, arithmetic.UNSQUEEZE, values, dim=len(values.shape) - 1)
    col = run(B, arithmetic.UNSQUEEZE, values, dim=len(values.shape))
    off = B.const(1.0 - np.eye(n, dtype=B.array_of(values).dtype))
    gap = row - col + _eye(B, n, values)  # λ_j − λ_i (1 on the diagonal)
    VtgV = _mT(B, V) @ g_vectors  # noqa: N806
    inner = off * ((VtgV - _mT(B, VtgV)) * 0.5) / gap + _diag(B, g_values)
    return V @ inner @ _mT(B, V)


EIGH = defop(
    "linalg_eigh",
    "LinalgEighBackward0",
    _eigh_np,
    _eigh_grad,
    n_outputs=2,
    arg_names=("A",),
    rules=("V (diag(λ̄) + skew(Vᵀ V̄) / (λ_j − λ_i)) Vᵀ",),
)


def _eigh(A: Tensor, UPLO: str, fn: str) -> tuple:  # noqa: N803 - PyTorch's names
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    _square_prefix(A, fn)
    return apply_op(EIGH, (A,), {"uplo": UPLO})


def linalg_eigh(A: Tensor, UPLO: str = "L", *, out: Any = None) -> tuple:  # noqa: N803
    """(eigenvalues, eigenvectors) of a symmetric matrix, ascending (LinalgEighBackward0)."""
    if out is not None:
        return write_out(linalg_eigh, out, A, UPLO)
    return _LINALG_EIGH(_eigh(A, UPLO, "linalg.eigh"))


def linalg_eigvalsh(A: Tensor, UPLO: str = "L", *, out: Any = None) -> Tensor:  # noqa: N803
    """The eigenvalues of a symmetric matrix, ascending (LinalgEighBackward0)."""
    if out is not None:
        return write_out(linalg_eigvalsh, out, A, UPLO)
    return _eigh(A, UPLO, "linalg.eigvalsh")[0]


# --------------------------------------------------------------------------------------------
# Pseudo-inverse
# --------------------------------------------------------------------------------------------


def _pinv_np(a: np.ndarray, atol: float | None, rtol: float | None) -> np.ndarray:
    """Through the SVD: 1/s for the singular values above max(atol, rtol · s_max), else 0; rtol
    defaults to eps · max(m, n) (0 when only atol is given), as PyTorch's."""
    m, n = a.shape[-2:]
    if a.size == 0:
        return np.zeros(a.shape[:-2] + (n, m), a.dtype)
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else float(np.finfo(a.dtype).eps) * max(m, n)
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    cutoff = np.maximum(atol or 0.0, rtol * s[..., :1])
    keep = s > cutoff
    inv_s = np.where(keep, 1 / np.where(keep, s, 1), 0).astype(a.dtype)
    return (np.swapaxes(vh, -1, -2) * inv_s[..., None, :]) @ np.swapaxes(u, -1, -2)


def _pinv_grad(B: Any, g: Any, self: Any, result: Any, atol: Any, rtol: Any) -> Any:
    """Ā = −Pᵀ Ḡ Pᵀ + (I − A P) Ḡᵀ P Pᵀ + Pᵀ P Ḡᵀ (I − P A) (P the pseudo-inverse; where the
    rank does not change)."""
    P, A = result, self  # noqa: N806
    Pt, gt = _mT(B, P), _mT(B, g)  # noqa: N806
    m, n = A.shape[-2], A.shape[-1]
    left = _eye(B, m, A) - A @ P
    right = _eye(B, n, A) - P @ A
    if m > n:
        return left @ gt @ (P @ Pt) + (Pt @ P) @ gt @ right - Pt @ g @ Pt
    return (Pt @ P) @ gt @ right - Pt @ g @ Pt + left @ gt @ (P @ Pt)


PINV = defop(
    "linalg_pinv",
    "LinalgPinvBackward0",
    _pinv_np,
    _pinv_grad,
    arg_names=("self",),
    rules=("−Pᵀ grad Pᵀ + (I − AP) gradᵀ PPᵀ + PᵀP gradᵀ (I − PA)",),
)


def linalg_pinv(
    input: Tensor,
    *,
    atol: Any = None,
    rtol: Any = None,
    hermitian: bool = False,
    out: Any = None,
) -> Tensor:
    """The Moore-Penrose pseudo-inverse (LinalgPinvBackward0)."""
    if out is not None:
        return write_out(linalg_pinv, out, input, atol=atol, rtol=rtol, hermitian=hermitian)
    if input.ndim < 2 or input._data.dtype.kind != "f":
        shape = ", ".join(str(s) for s in input._data.shape)
        raise RuntimeError(
            f"linalg.pinv({dtypes.scalar_name(input._data.dtype)}{{[{shape}]}}): expected a tensor "
            "with 2 or more dimensions of float, double, cfloat or cdouble types"
        )
    params = {
        "atol": None if atol is None else float(atol),
        "rtol": None if rtol is None else float(rtol),
    }
    return apply_op(PINV, (input,), params)


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """linalg.pinv with rtol = rcond."""
    return linalg_pinv(input, rtol=rcond)


tensor_methods(
    "ops.decompositions",
    {
        "svd": svd,
        "qr": qr,
        "cholesky": cholesky,
        "pinverse": pinverse,
        "triangular_solve": triangular_solve,
        "cholesky_solve": cholesky_solve,
        "cholesky_inverse": cholesky_inverse,
    },
)
