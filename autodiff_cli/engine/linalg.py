"""`torch.linalg`: norm, vector_norm, matrix_norm, det, inv, cross (the ops are in matrix.py,
arithmetic.py and vector_ops.py)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .core import dtypes
from .core.apply import apply_op
from .core.out_arg import OutRule, declare_out, write_out
from .core.tensor import Tensor, _norm_dim, _wrap
from .ops import reductions
from .ops.lu_factor import _lu_factor_np, _lu_solve_np
from .ops.matrix import DET, INV, _LinAlgError, check_square
from .ops.matrix import LINALG_SOLVE_EX as SOLVE
from .ops.matrix import matmul as _matmul
from .ops.matrix_functions import _square_prefix, named_result
from .ops.vector_ops import linalg_cross as cross

__all__ = ["norm", "vector_norm", "matrix_norm", "det", "inv", "cross", "LinAlgError"]

LinAlgError = _LinAlgError
_CHOLESKY_EX = named_result("linalg_cholesky_ex", ("L", "info"))
_INV_EX = named_result("linalg_inv_ex", ("inverse", "info"))
_SOLVE_EX = named_result("linalg_solve_ex", ("result", "info"))


def _float_check(x: Tensor, fn: str) -> None:
    if x._data.dtype.kind != "f":
        raise RuntimeError(
            f"linalg.{fn}: Expected a floating point or complex tensor as input. Got "
            f"{dtypes.scalar_name(x._data.dtype)}"
        )


def _dim_tuple(dim: Any, ndim: int) -> tuple | None:
    if dim is None:
        return None
    dims = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    return tuple(_norm_dim(int(d), ndim) for d in dims)


def vector_norm(
    x: Tensor,
    ord: Any = 2,
    dim: Any = None,
    keepdim: bool = False,
    *,
    dtype: Any = None,
    out: Any = None,
) -> Tensor:
    """The p-norm of the flattened input, or along `dim` (LinalgVectorNormBackward0)."""
    if out is not None:
        return write_out(vector_norm, out, x, ord, dim, keepdim, dtype=dtype)
    if isinstance(ord, str) or not isinstance(ord, (int, float)):
        raise TypeError(
            "linalg_vector_norm(): argument 'ord' (position 2) must be Number, not "
            f"{type(ord).__name__}"
        )
    if dtype is not None:
        x = x.to(dtype)
    _float_check(x, "vector_norm")
    params = {"p": float(ord), "dim": _dim_tuple(dim, x.ndim), "keepdim": keepdim}
    return apply_op(reductions.NORM, (x,), params)


declare_out("linalg_vector_norm", OutRule("exact"))


def matrix_norm(
    A: Tensor,  # noqa: N803 - PyTorch's argument name
    ord: Any = "fro",
    dim: Any = (-2, -1),
    keepdim: bool = False,
    *,
    dtype: Any = None,
    out: Any = None,
) -> Tensor:
    """'fro', 1, -1, inf, -inf, and through the singular values 'nuc', 2 and -2."""
    if out is not None:
        return write_out(matrix_norm, out, A, ord, dim, keepdim, dtype=dtype)
    if A.ndim < 2:
        raise RuntimeError(
            "linalg.matrix_norm: The input tensor A must have at least 2 dimensions."
        )
    dims = tuple(dim) if isinstance(dim, (tuple, list)) else None
    if dims is None or len(dims) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {_dims_text(dim)}")
    d0, d1 = (_norm_dim(int(d), A.ndim) for d in dims)
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype)
    if ord in ("nuc", 2, -2):
        return _spectral_norm(A if dtype is None else A.to(dtype), ord, d0, d1, keepdim)
    if isinstance(ord, str) or ord not in (1, -1, math.inf, -math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {_ord_text(ord)} not supported.")
    if abs(ord) == math.inf:
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    sums = vector_norm(A, 1.0, d0, keepdim, dtype=dtype)
    extreme = "amax" if ord > 0 else "amin"
    if hasattr(Tensor, extreme):
        return getattr(sums, extreme)(d1, keepdim)
    return (reductions.max if ord > 0 else reductions.min)(sums, d1, keepdim)[0]


declare_out("linalg_matrix_norm", OutRule(composite=True))


def _spectral_norm(A: Tensor, ord: Any, d0: int, d1: int, keepdim: bool) -> Tensor:  # noqa: N803
    """'nuc' (the sum of the singular values), 2 (the largest) or -2 (the smallest) over
    dims (d0, d1), moved last as PyTorch does (PermuteBackward0 when kept)."""
    perm = [i for i in range(A.ndim) if i not in (d0, d1)] + [d0, d1]
    s = svdvals(A.permute(perm))
    if ord == "nuc":
        result = s.sum(-1)
    else:
        extreme = "amax" if ord == 2 else "amin"
        result = getattr(s, extreme)(-1) if hasattr(Tensor, extreme) else None
        if result is None:
            result = (reductions.max if ord == 2 else reductions.min)(s, -1)[0]
    if not keepdim:
        return result
    back = [perm.index(i) for i in range(A.ndim)]
    return result.unsqueeze(-1).unsqueeze(-1).permute(back)


def _dims_text(dim: Any) -> str:
    if isinstance(dim, (tuple, list)):
        return "[" + ", ".join(str(d) for d in dim) + "]"
    return str(dim)


def _ord_text(ord: Any) -> str:
    return str(int(ord)) if isinstance(ord, float) and ord.is_integer() else str(ord)


def norm(
    A: Tensor,  # noqa: N803 - PyTorch's argument name
    ord: Any = None,
    dim: Any = None,
    keepdim: bool = False,
    *,
    dtype: Any = None,
    out: Any = None,
) -> Tensor:
    """A vector norm or, for a 2-D input (or a 2-tuple `dim`) with an `ord`, a matrix norm."""
    if out is not None:
        return write_out(norm, out, A, ord, dim, keepdim, dtype=dtype)
    if dim is not None:
        dims = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
        if len(dims) == 2:
            return matrix_norm(A, "fro" if ord is None else ord, dims, keepdim, dtype=dtype)
        return vector_norm(A, 2 if ord is None else ord, dims, keepdim, dtype=dtype)
    if ord is None:
        return vector_norm(A, 2, None, keepdim, dtype=dtype)
    if A.ndim not in (1, 2):
        raise RuntimeError(
            "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
            f"Got {A.ndim}D."
        )
    if A.ndim == 2:
        return matrix_norm(A, ord, (-2, -1), keepdim, dtype=dtype)
    return vector_norm(A, ord, None, keepdim, dtype=dtype)


declare_out("linalg_norm", OutRule(composite=True))


def det(A: Tensor, *, out: Any = None) -> Tensor:  # noqa: N803
    if out is not None:
        return write_out(det, out, A)
    check_square(A, "det")
    return apply_op(DET, (A,))


def inv(A: Tensor, *, out: Any = None) -> Tensor:  # noqa: N803
    if out is not None:
        return write_out(inv, out, A)
    check_square(A, "inv")
    return apply_op(INV, (A,))


declare_out("linalg_inv", OutRule("exact", named="linalg_inv_ex"))


for _fn in (vector_norm, matrix_norm, norm, det, inv):  # PyTorch's names (and out='s messages)
    _fn.__name__ = _fn.__qualname__ = "linalg_" + _fn.__name__

del _fn

# ops/matrix_functions.py: matrix_power, matrix_exp, slogdet (torch.linalg's spellings)
from .ops.matrix_functions import linalg_slogdet as slogdet  # noqa: E402
from .ops.matrix_functions import matrix_exp, matrix_power  # noqa: E402

__all__ += ["matrix_power", "matrix_exp", "slogdet"]

# ops/decompositions.py: svd, svdvals, qr, cholesky, pinv
from .ops.decompositions import linalg_cholesky as cholesky  # noqa: E402
from .ops.decompositions import linalg_pinv as pinv  # noqa: E402
from .ops.decompositions import linalg_qr as qr  # noqa: E402
from .ops.decompositions import linalg_solve_triangular as solve_triangular  # noqa: E402
from .ops.decompositions import linalg_svd as svd  # noqa: E402
from .ops.decompositions import svdvals  # noqa: E402

__all__ += ["svd", "svdvals", "qr", "cholesky", "pinv", "solve_triangular"]


def solve(A: Tensor, B: Tensor, *, left: bool = True, out: Any = None) -> Tensor:
    """The X with `A @ X = B` (`X @ A = B` with `left=False`, solved as `Aᵀ Xᵀ = Bᵀ`); a 1-D B
    is one right-hand side. One LinalgSolveExBackward0 node, as in PyTorch."""
    if out is not None:
        return write_out(solve, out, A, B, left=left)
    check_square(A, "linalg.solve")
    if not left:
        return apply_op(SOLVE, (A.mT, B.mT), {"vector": False}).mT
    vector = B.ndim == 1
    rows = B.shape[0] if vector else B.shape[-2]
    if rows != A.shape[-1]:
        raise RuntimeError(
            f"linalg.solve: Incompatible shapes of A and B for the equation "
            f"{'AX = B' if left else 'XA = B'} ({A.shape[-2]}x{A.shape[-1]} and "
            f"{'x'.join(str(s) for s in B.shape)})"
        )
    return apply_op(SOLVE, (A, B), {"vector": vector})


def multi_dot(tensors: Any, *, out: Any = None) -> Tensor:
    """`A @ B @ C ...` with a first 1-D operand as a row and a last one as a column, multiplied
    in the order of fewest multiplications (PyTorch's chain order)."""
    if out is not None:
        return write_out(multi_dot, out, tensors)
    tensors = list(tensors)
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    for i, t in enumerate(tensors):
        expected = "1D or 2D" if i in (0, n - 1) else "2D"
        if t.ndim not in ((1, 2) if i in (0, n - 1) else (2,)):
            raise RuntimeError(
                f"multi_dot(): {'the first' if i == 0 else 'the last' if i == n - 1 else ''}"
                f"{' tensor' if i in (0, n - 1) else f'tensor {i}'} must be {expected} but got "
                f"{t.ndim}D"
            )
    first_vector, last_vector = tensors[0].ndim == 1, tensors[-1].ndim == 1
    if first_vector:
        tensors[0] = tensors[0].unsqueeze(0)
    if last_vector:
        tensors[-1] = tensors[-1].unsqueeze(1)
    for i in range(n - 1):
        if tensors[i].shape[1] != tensors[i + 1].shape[0]:
            raise RuntimeError(
                f"multi_dot(): tensors {i} and {i + 1} with shapes {list(tensors[i].shape)} and "
                f"{list(tensors[i + 1].shape)} cannot be multiplied"
            )
    if n == 2:
        result = tensors[0].mm(tensors[1])
    else:
        dims = [t.shape[0] for t in tensors] + [tensors[-1].shape[1]]
        order = _chain_order(dims)
        result = _chain_product(tensors, order, 0, n - 1)
    # (PyTorch ends with a view to the output shape, whatever the operands: ViewBackward0)
    shape = tuple(result.shape)
    if first_vector:
        shape = shape[1:]
    if last_vector:
        shape = shape[:-1]
    return result.view(shape)


def _chain_order(dims: list) -> list:
    """The matrix-chain split points minimising scalar multiplications (dynamic programming)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain_product(tensors: list, split: list, i: int, j: int) -> Tensor:
    if i == j:
        return tensors[i]
    k = split[i][j]
    return _chain_product(tensors, split, i, k).mm(_chain_product(tensors, split, k + 1, j))


__all__ += ["solve", "multi_dot"]

# ops/lu_factor.py: lu_factor, lu_factor_ex, lu, lu_solve
from .ops.lu_factor import linalg_lu as lu  # noqa: E402
from .ops.lu_factor import linalg_lu_factor as lu_factor  # noqa: E402
from .ops.lu_factor import linalg_lu_factor_ex as lu_factor_ex  # noqa: E402
from .ops.lu_factor import linalg_lu_solve as lu_solve  # noqa: E402

__all__ += ["lu", "lu_factor", "lu_factor_ex", "lu_solve"]

from .ops.decompositions import linalg_eigh as eigh  # noqa: E402
from .ops.decompositions import linalg_eigvalsh as eigvalsh  # noqa: E402
from .ops.least_squares import lstsq  # noqa: E402

__all__ += ["lstsq", "eigh", "eigvalsh"]


def _renamed(error: Exception, name: str, ex_name: str) -> Exception:
    """The error of the function an `_ex` variant calls, worded with the variant's name."""
    return _LinAlgError(str(error).replace(name, ex_name, 1))


def _info(bad: Any, shape: tuple) -> Tensor:
    return _wrap(np.asarray(bad, np.int32).reshape(shape))


def cholesky_ex(
    A: Tensor,  # noqa: N803 - PyTorch's name
    *,
    upper: bool = False,
    check_errors: bool = False,
    out: Any = None,
) -> tuple:
    """(L, info): info 0, or the order of the first leading minor that is not positive-definite
    (then L holds LAPACK's partial factor, without a graph)."""
    if out is not None:
        return write_out(cholesky_ex, out, A, upper=upper, check_errors=check_errors)
    _square_prefix(A, "linalg.cholesky_ex")
    try:
        return _CHOLESKY_EX((cholesky(A, upper=upper), _info(np.zeros(A.shape[:-2]), A.shape[:-2])))
    except _LinAlgError as error:
        if check_errors:
            raise _renamed(error, "linalg.cholesky:", "linalg.cholesky_ex:") from None
    data = A._data
    factor = np.zeros(data.shape, data.dtype)
    bad = np.zeros(data.shape[:-2], np.int32)
    for idx in np.ndindex(*data.shape[:-2]):
        factor[idx], bad[idx] = _partial_cholesky(data[idx])
    if upper:
        factor = np.swapaxes(factor, -1, -2).copy()
    return _CHOLESKY_EX((_wrap(factor), _wrap(bad)))


def _partial_cholesky(a: np.ndarray) -> tuple:
    """LAPACK's potf2 on one matrix, column by column: at the first pivot that is not positive
    it stores that pivot's value and stops (the columns after keep A's values), info = its
    1-based index."""
    low = np.tril(a).astype(a.dtype)
    n = a.shape[-1]
    for j in range(n):
        pivot = low[j, j] - low[j, :j] @ low[j, :j]
        if not pivot > 0:
            low[j, j] = pivot
            return low, j + 1
        low[j, j] = np.sqrt(pivot)
        low[j + 1 :, j] = (low[j + 1 :, j] - low[j + 1 :, :j] @ low[j, :j]) / low[j, j]
    return low, 0


def inv_ex(A: Tensor, *, check_errors: bool = False, out: Any = None) -> tuple:  # noqa: N803
    """(inverse, info): info 0, or for a singular matrix the first zero pivot's index (the
    inverse then holds the infinities and NaNs LAPACK's solve gives, without a graph)."""
    if out is not None:
        return write_out(inv_ex, out, A, check_errors=check_errors)
    try:
        return _INV_EX((inv(A), _info(np.zeros(A.shape[:-2]), A.shape[:-2])))
    except _LinAlgError as error:
        if check_errors:
            raise _renamed(error, "linalg.inv:", "linalg.inv_ex:") from None
    eye = np.broadcast_to(np.eye(A.shape[-1], dtype=A._data.dtype), A._data.shape)
    return _INV_EX((_wrap(_singular_solve(A._data, eye, True)), _singular_info(A)))


def _singular_info(A: Tensor) -> Tensor:  # noqa: N803
    """getrf's info per matrix: the 1-based index of its first zero pivot."""
    return _wrap(_lu_factor_np(A._data)[2])


def solve_ex(
    A: Tensor,  # noqa: N803 - PyTorch's names
    B: Tensor,  # noqa: N803
    *,
    left: bool = True,
    check_errors: bool = False,
    out: Any = None,
) -> tuple:
    """(result, info) of linalg.solve: info nonzero (and the result NaN) for a singular A."""
    if out is not None:
        return write_out(solve_ex, out, A, B, left=left, check_errors=check_errors)
    try:
        return _SOLVE_EX((solve(A, B, left=left), _info(np.zeros(A.shape[:-2]), A.shape[:-2])))
    except _LinAlgError as error:
        if check_errors:
            raise _renamed(error, "torch.linalg.solve:", "torch.linalg.solve_ex:") from None
    vector = B.ndim == 1
    rhs = B._data[:, None] if vector else B._data
    result = _singular_solve(A._data, rhs, left)
    return _SOLVE_EX((_wrap(result[..., 0] if vector else result), _singular_info(A)))


def _singular_solve(a: np.ndarray, b: np.ndarray, left: bool) -> np.ndarray:
    """getrf + getrs on a singular matrix: the infinities and NaNs its zero pivot gives."""
    lu, pivots, _ = _lu_factor_np(a)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _lu_solve_np(lu, pivots, b, left, False)


def matrix_rank(
    A: Tensor,  # noqa: N803 - PyTorch's name
    *,
    atol: Any = None,
    rtol: Any = None,
    hermitian: bool = False,
    tol: Any = None,
    out: Any = None,
) -> Tensor:
    """The number of singular values (|eigenvalues| when `hermitian`) above
    max(atol, rtol · σ_max); rtol defaults to eps · max(m, n) when atol is not given."""
    if out is not None:
        return write_out(matrix_rank, out, A, atol=atol, rtol=rtol, hermitian=hermitian, tol=tol)
    if A.ndim < 2:
        raise RuntimeError(
            "torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions."
        )
    _float_check(A, "matrix_rank")
    if tol is not None:
        atol, rtol = tol, 0.0
    data = A._data
    if data.size == 0:
        return _wrap(np.zeros(data.shape[:-2], np.int64))
    if hermitian:
        s = np.abs(np.linalg.eigvalsh(data))
    else:
        s = np.linalg.svd(data, compute_uv=False)
    m, n = data.shape[-2:]
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else float(np.finfo(data.dtype).eps) * max(m, n)
    top = s.max(-1, keepdims=True)
    cutoff = np.maximum(float(atol or 0.0), float(rtol) * top)
    return _wrap(np.asarray((s > cutoff).sum(-1), np.int64))


def cond(A: Tensor, p: Any = None, *, out: Any = None) -> Tensor:  # noqa: N803
    """σ_max / σ_min (p None, 2, -2: that ratio or its inverse), or ‖A‖ₚ ‖A⁻¹‖ₚ for 'fro', 1,
    -1, inf, -inf (inf for a singular matrix)."""
    if out is not None:
        return write_out(cond, out, A, p)
    if p in (None, 2, -2):
        if A.ndim < 2:
            raise RuntimeError("linalg.cond: The input tensor A must have at least 2 dimensions.")
        s = svdvals(A)
        k = s.shape[-1]
        ratio = s.narrow(-1, 0, 1) / s.narrow(-1, k - 1, 1)
        if p == -2:
            ratio = s.narrow(-1, k - 1, 1) / s.narrow(-1, 0, 1)
        return ratio.squeeze(-1)
    if p not in ("fro", "nuc", 1, -1, math.inf, -math.inf):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    check_square(A, f"cond(ord={_ord_text(p)})")
    inverse, info = inv_ex(A)
    if bool(np.any(info._data)):
        return _wrap(np.full(A._data.shape[:-2], np.inf, A._data.dtype))
    result = matrix_norm(A, p) * matrix_norm(inverse, p)
    return result if p == "nuc" else result.nan_to_num(math.inf)


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1, out: Any = None) -> Tensor:
    """Σ x · y along `dim` (real inputs: no conjugation needed)."""
    if out is not None:
        return write_out(vecdot, out, x, y, dim=dim)
    return (x * y).sum(dim)


def matmul(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    """torch.matmul."""
    return _matmul(input, other, out=out)


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:  # noqa: N803
    """torch.diagonal with the last two dimensions as the default."""
    return A.diagonal(offset, dim1, dim2)


__all__ += ["cholesky_ex", "inv_ex", "solve_ex", "matrix_rank", "cond", "vecdot", "matmul"]
__all__ += ["diagonal"]

from .core import numpy_names as _numpy_names  # noqa: E402

_numpy_names.accept_in_module(globals(), __all__, "linalg_")
