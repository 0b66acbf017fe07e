"""LU factorisation with partial pivoting: linalg.lu_factor / lu_factor_ex / lu / lu_solve,
torch.lu, torch.lu_unpack and torch.lu_solve (and the Tensor methods lu, lu_solve).

The factorisation is LAPACK's getrf, written out: at step k the row with the largest |a_ik|
(the first such) becomes the pivot row, and the pivots are LAPACK's 1-based row numbers as int32,
as PyTorch returns them. A zero pivot (a singular matrix) is kept, as LAPACK does, and reported in
`info`. Gradients are the ones PyTorch documents for A = P L U (square, wide and tall), written
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
from .decompositions import SOLVE_TRIANGULAR
from .formula_ops import run
from .matrix import LINALG_SOLVE_EX, TRIL, TRIU
from .matrix_functions import named_result
from .views import CAT, _slice_any

__all__ = ["lu", "lu_unpack", "lu_solve"]

_LU_FACTOR = named_result("linalg_lu_factor", ("LU", "pivots"))
_LU_FACTOR_EX = named_result("linalg_lu_factor_ex", ("LU", "pivots", "info"))
_LU_WITH_INFO = named_result("_lu_with_info", ("LU", "pivots", "info"))
_LINALG_LU = named_result("linalg_lu", ("P", "L", "U"))
_LU_UNPACK = named_result("lu_unpack", ("P", "L", "U"))

_LU_WARNING = (
    "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and "
    "will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\n"
    "should be replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\n"
    "LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\n"
    "LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2073.)"
)
_LU_SOLVE_WARNING = (
    "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
    "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
    "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
    "X = torch.linalg.lu_solve(LU, pivots, B) (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2230.)"
)


class _Warned:
    """PyTorch warns once per process (TORCH_WARN_ONCE)."""

    lu = False
    lu_solve = False


def _warn_once(flag: str, message: str) -> None:
    if not getattr(_Warned, flag):
        setattr(_Warned, flag, True)
        warnings.warn(message, UserWarning, stacklevel=3)


# --------------------------------------------------------------------------------------------
# Kernels
# --------------------------------------------------------------------------------------------


def _getrf(a: np.ndarray) -> tuple:
    """One matrix: (LU, 1-based pivots, info), LAPACK's partial pivoting."""
    lu = np.array(a, dtype=a.dtype, copy=True)
    m, n = lu.shape
    k = min(m, n)
    pivots = np.empty(k, np.int32)
    info = 0
    for j in range(k):
        p = j + int(np.argmax(np.abs(lu[j:, j])))
        pivots[j] = p + 1
        if p != j:
            lu[[j, p]] = lu[[p, j]]
        if lu[j, j] == 0:
            info = info or j + 1
            continue
        lu[j + 1 :, j] /= lu[j, j]
        lu[j + 1 :, j + 1 :] -= np.outer(lu[j + 1 :, j], lu[j, j + 1 :])
    return lu, pivots, info


def _lu_factor_np(a: np.ndarray, pivot: bool = True) -> tuple:
    """(LU, pivots, info) for a batch of matrices."""
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    lu = np.empty(a.shape, a.dtype)
    pivots = np.empty(batch + (min(m, n),), np.int32)
    info = np.zeros(batch, np.int32)
    for idx in np.ndindex(*batch):
        lu[idx], pivots[idx], info[idx] = _getrf(a[idx])
    return lu, pivots, info


def _permutation(pivots: np.ndarray, m: int, dtype: Any) -> np.ndarray:
    """P (batched) with A = P L U, from LAPACK's row interchanges."""
    perm = np.empty(pivots.shape[:-1] + (m, m), dtype)
    for idx in np.ndindex(*pivots.shape[:-1]):
        rows = np.arange(m)
        for j, p in enumerate(pivots[idx]):
            rows[[j, p - 1]] = rows[[p - 1, j]]
        perm[idx] = np.eye(m, dtype=dtype)[rows].T  # (Pᵀ A = A[rows])
    return perm


def _unpack_np(lu: np.ndarray, pivots: np.ndarray) -> tuple:
    m, n = lu.shape[-2:]
    k = min(m, n)
    low = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=lu.dtype)
    up = np.triu(lu[..., :k, :])
    return _permutation(pivots, m, lu.dtype), low, up


# --------------------------------------------------------------------------------------------
# Gradients
# --------------------------------------------------------------------------------------------


def _mT(B: Any, x: Any) -> Any:  # noqa: N802 - PyTorch's name
    return B.transpose(x, -2, -1)


def _tri(B: Any, x: Any, upper: bool, diagonal: int) -> Any:
    return run(B, TRIU if upper else TRIL, x, diagonal=diagonal)


def _solve_tri(B: Any, a: Any, rhs: Any, upper: bool, left: bool, unit: bool = False) -> Any:
    return run(B, SOLVE_TRIANGULAR, a, rhs, upper=upper, left=left, unit=unit)


def _cat(B: Any, parts: list, dim: int) -> Any:
    return run(B, CAT, *parts, dim=dim, shapes=tuple(tuple(p.shape) for p in parts))


def _lu_grad(B: Any, P: Any, L: Any, U: Any, gL: Any, gU: Any) -> Any:  # noqa: N803
    """Ā for A = P L U given L̄ and Ū: P L⁻ᴴ (tril₋₁(Lᴴ L̄) + triu(Ū Uᴴ)) U⁻ᴴ when square; a wide
    A's extra columns and a tall A's extra rows enter as PyTorch's linalg_lu_backward has it."""
    m, n = L.shape[-2], U.shape[-1]
    d = len(L.shape)
    if m == n:
        phi = _tri(B, _mT(B, L) @ gL, False, -1) + _tri(B, gU @ _mT(B, U), True, 0)
        inner = _solve_tri(B, _mT(B, L), phi, True, True, True)
        return P @ _solve_tri(B, _mT(B, U), inner, False, False)
    if m < n:  # U = [U1 | U2]: Ā1 as square with L̄ − L⁻ᴴ Ū2 U2ᴴ; Ā2 = P L⁻ᴴ Ū2
        U1, U2 = _slice_any(B, U, d - 1, 0, m), _slice_any(B, U, d - 1, m, n)  # noqa: N806
        gU1, gU2 = _slice_any(B, gU, d - 1, 0, m), _slice_any(B, gU, d - 1, m, n)  # noqa: N806
        phi = _tri(B, _mT(B, L) @ gL - gU2 @ _mT(B, U2), False, -1)
        phi = phi + _tri(B, gU1 @ _mT(B, U1), True, 0)
        left = _solve_tri(B, _mT(B, U1), phi, False, False)
        return P @ _solve_tri(B, _mT(B, L), _cat(B, [left, gU2], d - 1), True, True, True)
    # tall: L = [L1; L2]: Ā1 as square with Ū − L2ᴴ L̄2 U⁻ᴴ; Ā2 = L̄2 U⁻ᴴ
    L1, L2 = _slice_any(B, L, d - 2, 0, n), _slice_any(B, L, d - 2, n, m)  # noqa: N806
    gL1, gL2 = _slice_any(B, gL, d - 2, 0, n), _slice_any(B, gL, d - 2, n, m)  # noqa: N806
    phi = _tri(B, gU @ _mT(B, U) - _mT(B, L2) @ gL2, True, 0)
    phi = phi + _tri(B, _mT(B, L1) @ gL1, False, -1)
    top = _solve_tri(B, _mT(B, L1), phi, True, True, True)
    return P @ _solve_tri(B, _mT(B, U), _cat(B, [top, gL2], d - 2), False, False)


def _split_packed(B: Any, g: Any, k: int) -> tuple:
    """L̄ and Ū of a packed LU's gradient: below the diagonal and on/above it."""
    d = len(g.shape)
    gL = _tri(B, _slice_any(B, g, d - 1, 0, k), False, -1)  # noqa: N806
    gU = _tri(B, _slice_any(B, g, d - 2, 0, k), True, 0)  # noqa: N806
    return gL, gU


def _factors(B: Any, A: Any) -> tuple:
    """P (a constant), L and U of A, again (recorded under create_graph)."""
    P, L, U = run(B, LINALG_LU, A, pivot=True)  # noqa: N806
    return B.const(B.array_of(P)), L, U


def _lu_factor_grad(B: Any, grads: list, A: Any, pivot: bool = True) -> Any:  # noqa: N803
    P, L, U = _factors(B, A)  # noqa: N806
    gL, gU = _split_packed(B, grads[0], min(A.shape[-2], A.shape[-1]))  # noqa: N806
    return _lu_grad(B, P, L, U, gL, gU)


def _linalg_lu_np(a: np.ndarray, pivot: bool = True) -> tuple:
    lu, pivots, _ = _lu_factor_np(a)
    return _unpack_np(lu, pivots)


def _linalg_lu_grad(B: Any, grads: list, A: Any, pivot: bool = True) -> Any:  # noqa: N803
    P, L, U = _factors(B, A)  # noqa: N806
    return _lu_grad(B, P, L, U, grads[1], grads[2])


LU_FACTOR = defop(
    "linalg_lu_factor_ex",
    "LinalgLuFactorExBackward0",
    _lu_factor_np,
    _lu_factor_grad,
    n_outputs=3,
    arg_names=("A",),
    rules=("P L⁻ᴴ (tril₋₁(Lᴴ L̄) + triu(Ū Uᴴ)) U⁻ᴴ, L̄ and Ū the packed gradient's parts",),
)
LINALG_LU = defop(
    "linalg_lu",
    "LinalgLuBackward0",
    _linalg_lu_np,
    _linalg_lu_grad,
    n_outputs=3,
    arg_names=("A",),
    rules=("P L⁻ᴴ (tril₋₁(Lᴴ L̄) + triu(Ū Uᴴ)) U⁻ᴴ",),
)


def _lu_unpack_np(lu: np.ndarray, pivots: np.ndarray, unpack_data: bool = True) -> tuple:
    return _unpack_np(lu, pivots)


def _lu_unpack_grad(B: Any, grads: list, LU_data: Any, pivots: Any, **params: Any) -> Any:  # noqa: N803
    """tril₋₁(L̄) + triu(Ū), each placed in the packed matrix's shape."""
    _, gL, gU = grads  # noqa: N806
    m, n = LU_data.shape[-2], LU_data.shape[-1]
    d = len(LU_data.shape)
    low, up = _tri(B, gL, False, -1), _tri(B, gU, True, 0)
    if m == n:
        return low + up
    if m < n:  # L is m×m, U is m×n
        return _cat(
            B, [low + _slice_any(B, up, d - 1, 0, m), _slice_any(B, up, d - 1, m, n)], d - 1
        )
    top = _slice_any(B, low, d - 2, 0, n) + up
    return _cat(B, [top, _slice_any(B, low, d - 2, n, m)], d - 2)


LU_UNPACK = defop(
    "lu_unpack",
    "LuUnpackBackward0",
    _lu_unpack_np,
    _lu_unpack_grad,
    None,
    n_outputs=3,
    arg_names=("LU_data", "pivots"),
    promotes=False,
    rules=("tril₋₁(L̄) + triu(Ū)", "(pivots are not differentiable)"),
)


# --------------------------------------------------------------------------------------------
# Solving with the factors
# --------------------------------------------------------------------------------------------


def _lu_solve_np(lu: np.ndarray, pivots: np.ndarray, b: np.ndarray, left: bool, adjoint: bool):
    """LAPACK's getrs: substitution through L and U (no second factorisation). X A = B is
    solved as Aᵀ Xᵀ = Bᵀ."""
    p, low, up = _unpack_np(lu, pivots)
    t = np.swapaxes
    transposed = adjoint == left  # (A X = B, or X Aᴴ = B: with A itself)
    rhs = b if left else t(b, -1, -2)
    if not transposed:
        x = _substitute(up, _substitute(low, t(p, -1, -2) @ rhs, False, True), True)
    else:  # Aᵀ X = R: Uᵀ Lᵀ Pᵀ X = R
        x = p @ _substitute(t(low, -1, -2), _substitute(t(up, -1, -2), rhs, False), True, True)
    return (x if left else t(x, -1, -2)).astype(b.dtype)


def _substitute(tri: np.ndarray, rhs: np.ndarray, upper: bool, unit: bool = False) -> np.ndarray:
    """Forward or back substitution, row by row (batched)."""
    n = tri.shape[-1]
    x = np.array(
        np.broadcast_to(rhs, np.broadcast_shapes(tri.shape[:-2], rhs.shape[:-2]) + rhs.shape[-2:]),
        dtype=np.result_type(tri, rhs),
    )
    order = range(n - 1, -1, -1) if upper else range(n)
    for i in order:
        done = slice(i + 1, n) if upper else slice(0, i)
        x[..., i, :] -= np.einsum("...j,...jk->...k", tri[..., i, done], x[..., done, :])
        if not unit:
            x[..., i, :] /= tri[..., i, i][..., None]
    return x


def _rebuilt(B: Any, LU: Any, pivots: Any) -> tuple:  # noqa: N803
    """P (a constant), L, U and A = P L U from the packed factors (recorded under create_graph)."""
    P, L, U = run(B, LU_UNPACK, LU, pivots)  # noqa: N806
    P = B.const(B.array_of(P))  # noqa: N806
    return P, L, U, P @ L @ U


def _solve(B: Any, a: Any, rhs: Any) -> Any:
    return run(B, LINALG_SOLVE_EX, a, rhs)


def _lu_solve_grad_b(B: Any, g: Any, LU: Any, pivots: Any, result: Any, left: bool, adjoint: bool):  # noqa: N803
    """A⁻ᴴ Ḡ (left), A⁻¹ Ḡ (left, adjoint), Ḡ A⁻ᴴ (right), Ḡ A⁻¹ (right, adjoint)."""
    A = _rebuilt(B, LU, pivots)[3]  # noqa: N806
    if left:
        return _solve(B, A if adjoint else _mT(B, A), g)
    return _mT(B, _solve(B, _mT(B, A) if adjoint else A, _mT(B, g)))


def _lu_solve_grad_lu(B: Any, g: Any, LU: Any, pivots: Any, result: Any, left: bool, adjoint: bool):  # noqa: N803
    """Ā of the solve (−A⁻ᴴ Ḡ Xᴴ for A X = B, and its mirrors), taken to the packed factors:
    L̄ = tril₋₁(Pᵀ Ā Uᴴ), Ū = triu(Lᴴ Pᵀ Ā)."""
    P, L, U, _ = _rebuilt(B, LU, pivots)  # noqa: N806
    gB = _lu_solve_grad_b(B, g, LU, pivots, result, left, adjoint)  # noqa: N806
    if left:
        gA = -(result @ _mT(B, gB)) if adjoint else -(gB @ _mT(B, result))  # noqa: N806
    else:
        gA = -(_mT(B, gB) @ result) if adjoint else -(_mT(B, result) @ gB)  # noqa: N806
    pa = _mT(B, P) @ gA
    return _tri(B, pa @ _mT(B, U), False, -1) + _tri(B, _mT(B, L) @ pa, True, 0)


LU_SOLVE = defop(
    "linalg_lu_solve",
    "LinalgLuSolveBackward0",
    _lu_solve_np,
    _lu_solve_grad_lu,
    None,
    _lu_solve_grad_b,
    arg_names=("LU", "pivots", "B"),
    saves=(0, 1, "result"),
    promotes=False,
    rules=(
        "tril₋₁(Pᵀ Ā Uᴴ) + triu(Lᴴ Pᵀ Ā), Ā = −A⁻ᴴ grad Xᴴ",
        "(pivots are not differentiable)",
        "A⁻ᴴ grad",
    ),
)


# --------------------------------------------------------------------------------------------
# The functions
# --------------------------------------------------------------------------------------------


def _check_matrix(A: Tensor, fn: str) -> None:  # noqa: N803
    """PyTorch's checks of an input to factorise: at least 2-D, floating."""
    if A.ndim < 2:
        raise RuntimeError(
            f"{fn}: Expected tensor with 2 or more dimensions. Got size: "
            f"{list(A._data.shape)} instead"
        )
    if A._data.dtype.kind != "f":
        raise NotImplementedError(
            f"\"lu_cpu\" not implemented for '{dtypes.scalar_name(A._data.dtype).capitalize()}'"
        )


def _check_pivot(pivot: bool, fn: str) -> None:
    if not pivot:
        raise RuntimeError(f"{fn}: LU without pivoting is not implemented on the CPU")


def _singular_error(info: np.ndarray, fn: str) -> None:
    bad = np.flatnonzero(info)
    if bad.size:
        batch = f"(Batch element {bad[0]}): " if info.ndim else ""
        k = info.flat[bad[0]]
        raise RuntimeError(
            f"{fn}: {batch}U[{k},{k}] is zero and using it on lu_solve would result in a "
            "division by zero. If you still want to perform the factorization, consider calling "
            "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)"
        )


def _factor(A: Tensor, pivot: bool, fn: str) -> tuple:  # noqa: N803
    _check_matrix(A, "torch.lu_factor")
    _check_pivot(pivot, fn)
    return apply_op(LU_FACTOR, (A,), {"pivot": True})


def linalg_lu_factor_ex(
    A: Tensor,  # noqa: N803 - PyTorch's name
    *,
    pivot: bool = True,
    check_errors: bool = False,
    out: Any = None,
) -> tuple:
    """(LU, pivots, info): the packed factors, LAPACK's 1-based int32 pivots and 0 or the first
    zero pivot's 1-based index (LinalgLuFactorExBackward0)."""
    if out is not None:
        return write_out(linalg_lu_factor_ex, out, A, pivot=pivot, check_errors=check_errors)
    result = _factor(A, pivot, "linalg.lu_factor_ex")
    if check_errors:
        _singular_error(result[2]._data, "torch.linalg.lu_factor_ex")
    return _LU_FACTOR_EX(result)


def linalg_lu_factor(A: Tensor, *, pivot: bool = True, out: Any = None) -> tuple:  # noqa: N803
    """(LU, pivots); a singular matrix raises, as PyTorch's (LinalgLuFactorExBackward0)."""
    if out is not None:
        return write_out(linalg_lu_factor, out, A, pivot=pivot)
    lu_, pivots, info = _factor(A, pivot, "linalg.lu_factor")
    _singular_error(info._data, "torch.linalg.lu_factor")
    return _LU_FACTOR((lu_, pivots))


def linalg_lu(A: Tensor, *, pivot: bool = True, out: Any = None) -> tuple:  # noqa: N803
    """(P, L, U) with A = P L U (LinalgLuBackward0 on L and U)."""
    if out is not None:
        return write_out(linalg_lu, out, A, pivot=pivot)
    _check_matrix(A, "linalg.lu")
    _check_pivot(pivot, "linalg.lu")
    P, L, U = apply_op(LINALG_LU, (A,), {"pivot": True})  # noqa: N806
    return _LINALG_LU((_wrap(P._data), L, U))  # (P is not differentiable)


def lu(A: Tensor, pivot: bool = True, get_infos: bool = False, out: Any = None) -> tuple:  # noqa: N803
    """torch.lu (deprecated for linalg.lu_factor): (LU, pivots), or (LU, pivots, info) with
    get_infos (then a singular matrix does not raise)."""
    _warn_once("lu", _LU_WARNING)
    if out is not None:
        return write_out(lu, out, A, pivot, get_infos)
    lu_, pivots, info = _factor(A, pivot, "linalg.lu_factor_ex")
    if get_infos:
        return _LU_WITH_INFO((lu_, pivots, info))
    return (lu_, pivots)  # (PyTorch's torch.lu does not raise for a singular matrix)


def _check_pivots(LU_data: Tensor, pivots: Tensor, fn: str) -> None:  # noqa: N803
    if not isinstance(pivots, Tensor) or pivots._data.dtype != np.int32:
        raise RuntimeError(
            f"{fn}: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n"
            "Note: this function is intended to be used with the output produced by "
            "torch.linalg.lu_factor"
        )
    k = min(LU_data._data.shape[-2:])
    if tuple(pivots._data.shape) != tuple(LU_data._data.shape[:-2]) + (k,):
        raise RuntimeError(
            f"{fn}: Expected pivots to have shape {list(LU_data._data.shape[:-2]) + [k]} but "
            f"got {list(pivots._data.shape)}"
        )
    if pivots._data.size and (pivots._data.min() < 1 or pivots._data.max() > LU_data.shape[-2]):
        raise RuntimeError(f"{fn}: pivots must be between 1 and {LU_data.shape[-2]}")


def lu_unpack(
    LU_data: Tensor,  # noqa: N803 - PyTorch's name
    LU_pivots: Tensor,  # noqa: N803
    unpack_data: bool = True,
    unpack_pivots: bool = True,
    *,
    out: Any = None,
) -> tuple:
    """(P, L, U) from lu_factor's packed factors (LuUnpackBackward0 on L and U)."""
    if out is not None:
        return write_out(lu_unpack, out, LU_data, LU_pivots, unpack_data, unpack_pivots)
    _check_matrix(LU_data, "torch.lu_unpack")
    _check_pivots(LU_data, LU_pivots, "torch.lu_unpack")
    P, L, U = apply_op(LU_UNPACK, (LU_data, LU_pivots))  # noqa: N806
    return _LU_UNPACK((_wrap(P._data), L, U))  # (P is not differentiable)


def linalg_lu_solve(
    LU: Tensor,  # noqa: N803 - PyTorch's names
    pivots: Tensor,
    B: Tensor,  # noqa: N803
    *,
    left: bool = True,
    adjoint: bool = False,
    out: Any = None,
) -> Tensor:
    """X with A X = B (A = P L U given as lu_factor's LU and pivots); `adjoint` solves with Aᴴ,
    `left=False` X A = B (LinalgLuSolveBackward0)."""
    if out is not None:
        return write_out(linalg_lu_solve, out, LU, pivots, B, left=left, adjoint=adjoint)
    fn = "torch.linalg.lu_solve"
    _check_matrix(LU, fn)
    if LU._data.dtype != B._data.dtype:
        raise RuntimeError(
            "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type "
            f"{dtypes.scalar_name(LU._data.dtype)} and B of type "
            f"{dtypes.scalar_name(B._data.dtype)} instead"
        )
    rows, cols = LU._data.shape[-2:]
    if rows != cols:
        raise RuntimeError(
            f"{fn}: A must be batches of square matrices, but they are {rows} by {cols} matrices"
        )
    _check_matrix(B, fn)
    _check_pivots(LU, pivots, fn)
    size = B._data.shape[-2] if left else B._data.shape[-1]
    if size != rows:
        raise RuntimeError(
            f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
            f"{'AX = B' if left else 'XA = B'} ({rows}x{cols} and "
            f"{'x'.join(str(s) for s in B._data.shape)})"
        )
    return apply_op(LU_SOLVE, (LU, pivots, B), {"left": bool(left), "adjoint": bool(adjoint)})


def lu_solve(b: Tensor, LU_data: Tensor, LU_pivots: Tensor, *, out: Any = None) -> Tensor:  # noqa: N803
    """torch.lu_solve (deprecated; linalg.lu_solve with its arguments reversed)."""
    _warn_once("lu_solve", _LU_SOLVE_WARNING)
    if out is not None:
        return write_out(lu_solve, out, b, LU_data, LU_pivots)
    return linalg_lu_solve(LU_data, LU_pivots, b)


def _lu_method(self: Tensor, pivot: bool = True, get_infos: bool = False) -> tuple:
    return lu(self, pivot, get_infos)


def _lu_solve_method(self: Tensor, LU_data: Tensor, LU_pivots: Tensor) -> Tensor:  # noqa: N803
    return lu_solve(self, LU_data, LU_pivots)


_lu_method.__name__ = _lu_method.__qualname__ = "lu"
_lu_solve_method.__name__ = _lu_solve_method.__qualname__ = "lu_solve"

tensor_methods("ops.lu_factor", {"lu": _lu_method, "lu_solve": _lu_solve_method})
