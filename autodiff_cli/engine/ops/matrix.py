"""Matrix functions at the top level of torch: the matmul family, trace, diag, diagonal, tril,
triu, det and inverse.

`matmul` follows ATen's `_matmul_impl` step by step (dot / mv / mm, folding the batch of the larger
operand into an `mm`, or expanding both batches into a `bmm`), so its graph shows the nodes PyTorch
shows: `UnsafeViewBackward0`, `BmmBackward0`, `ViewBackward0`, `ExpandBackward0`, ...
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes, kernels, limits
from ..core.apply import apply_op
from ..core.devices import check_same_device
from ..core.fast_paths import apply_binary, apply_inplace
from ..core.limits import _Cap
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.out_arg import OutRule, declare_out, write_out
from ..core.tensor import Tensor, _dims_text, _norm_dim, broadcast_error
from . import arithmetic
from .arithmetic import SQUEEZE_DIM, TRANSPOSE, UNSQUEEZE, VIEW, expand, squeeze_dims
from .formula_ops import run
from .views import INDEX, UNSAFE_VIEW, permute

__all__ = [
    "matmul",
    "mm",
    "mv",
    "bmm",
    "dot",
    "vdot",
    "outer",
    "ger",
    "inner",
    "addmm",
    "trace",
    "diag",
    "diagonal",
    "diag_embed",
    "tril",
    "triu",
    "det",
    "inverse",
]


class _LinAlgError(RuntimeError):
    """`torch._C._LinAlgError`, raised for singular matrices; `torch.linalg.LinAlgError`."""


_LinAlgError.__module__ = "torch._C"


# --------------------------------------------------------------------------------------------
# Backward helpers: each works on numpy arrays and on Tensors (under create_graph), through `B`
# --------------------------------------------------------------------------------------------


def _np_dtype(x: Any) -> np.dtype:
    return x._data.dtype if isinstance(x, Tensor) else np.asarray(x).dtype


def _mT(B: Any, x: Any) -> Any:  # noqa: N802 - PyTorch's name
    return B.transpose(x, -1, -2)


def _bmm(B: Any, x: Any, y: Any) -> Any:
    """`x.bmm(y)` in a formula (BmmBackward0 on Tensors), as PyTorch's bmm formulas call it."""
    return run(B, BMM, x, y)


def _diagonal_np(a: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> np.ndarray:
    """A view of the diagonal, moved to the last dim; writable when `a` is (numpy's is not)."""
    a = np.asarray(a)
    index = [slice(None)] * a.ndim
    index[dim2 if offset >= 0 else dim1] = slice(abs(offset), None)
    start = a[tuple(index)]
    length = max(0, min(start.shape[dim1], start.shape[dim2]))
    keep = [i for i in range(a.ndim) if i not in (dim1, dim2)]
    shape = tuple(a.shape[i] for i in keep) + (length,)
    strides = tuple(a.strides[i] for i in keep) + (a.strides[dim1] + a.strides[dim2],)
    return np.lib.stride_tricks.as_strided(start, shape, strides, writeable=a.flags.writeable)


def _diagonal_scatter_np(g: Any, shape: tuple, offset: int, dim1: int, dim2: int) -> np.ndarray:
    out = np.zeros(shape, np.asarray(g).dtype)
    _diagonal_np(out, offset, dim1, dim2)[...] = g
    return out


def _diagonal_grad(B: Any, g: Any, shape: tuple, offset: int, dim1: int, dim2: int) -> Any:
    return run(B, DIAGONAL_BACKWARD, g, shape=shape, offset=offset, dim1=dim1, dim2=dim2)


def _lu(a: np.ndarray, transposed: bool = False) -> tuple[np.ndarray, int, int]:
    """LU with partial pivoting as LAPACK's getrf does it, in `a`'s dtype: the factor, the
    permutation sign, and LAPACK's `info` (1-based index of the first zero pivot, 0 if none).
    PyTorch's det factors `a.T` (its row-major data read column-major), inv factors `a`;
    mirroring that keeps the float32 rounding, and which pivot is zero, PyTorch's."""
    u = np.array(a.T if transposed else a, dtype=a.dtype)
    n = u.shape[0]
    sign, info = 1, 0
    for j in range(n):
        p = j + int(np.argmax(np.abs(u[j:, j])))
        if u[p, j] != 0:
            if p != j:
                u[[j, p]] = u[[p, j]]
                sign = -sign
            u[j + 1 :, j] *= np.asarray(1, a.dtype) / u[j, j]
        elif info == 0:
            info = j + 1
        u[j + 1 :, j + 1 :] -= np.outer(u[j + 1 :, j], u[j, j + 1 :]).astype(a.dtype)
    return u, sign, info


def _det_np(a: np.ndarray) -> np.ndarray:
    out = np.empty(a.shape[:-2], a.dtype)
    for idx in np.ndindex(*a.shape[:-2]):
        u, sign, _ = _lu(a[idx], transposed=True)
        d = np.asarray(1, a.dtype)
        for v in np.diagonal(u):
            d = (d * v).astype(a.dtype)
        out[idx] = d if sign > 0 else -d
    return out


def _inv_np(a: np.ndarray) -> np.ndarray:
    for idx in np.ndindex(*a.shape[:-2]):
        _, _, info = _lu(a[idx])
        if info:
            batch = f"(Batch element {np.ravel_multi_index(idx, a.shape[:-2])}): " if idx else ""
            raise _LinAlgError(
                f"linalg.inv: {batch}The diagonal element {info} is zero, the inversion could not "
                "be completed because the input matrix is singular."
            )
    return np.linalg.inv(a.astype(np.float64)).astype(a.dtype)


def _det_grad(B: Any, g: Any, a: Any, r: Any) -> Any:
    """d det(A) / dA · grad: PyTorch's `solve(Aᴴ, diag_embed(grad · det)ᴴ)` where A is invertible
    (LinalgSolveExBackward0), the cofactor matrix where it is singular."""
    if (B.array_of(r) != 0).all():
        scaled = B.expand(_unsqueeze_last(B, g * r), tuple(a.shape[:-1]))
        return _solve_adjoint(B, a, B.transpose(run(B, DIAG_EMBED, scaled, offset=0), -2, -1))
    return _unsqueeze_last(B, _unsqueeze_last(B, g)) * _cofactors(B, a)


def _unsqueeze_last(B: Any, x: Any) -> Any:
    return run(B, UNSQUEEZE, x, dim=len(x.shape))


def _cofactors(B: Any, a: Any) -> Any:
    """The cofactor matrix of (a batch of) square `a`, singular ones included: signed
    determinants of its minors, differentiable again on Tensors; past `_MINORS_COST` (n² minors,
    an LU of n steps each) a constant from the SVD, so a second derivative there misses it."""
    shape = tuple(a.shape)
    n = shape[-1]
    if n == 1 or int(np.prod(shape[:-2], dtype=np.int64)) * n**3 > _MINORS_COST:
        return B.const(_cofactor_svd(B.array_of(a)))
    keep = np.array([[k for k in range(n) if k != i] for i in range(n)])
    index = (slice(None),) * (len(shape) - 2) + (keep[:, None, :, None], keep[None, :, None, :])
    minors = run(B, INDEX, a, index=index, shape=shape)  # [..., i, j, :, :]: without row i, col j
    signs = 1 - 2 * (np.add.outer(np.arange(n), np.arange(n)) % 2)
    return run(B, DET, minors) * B.const(signs.astype(B.array_of(a).dtype))


_MINORS_COST = 16384


def _cofactor_svd(a: np.ndarray) -> np.ndarray:
    """The cofactor matrix through the SVD (A = U S Vᵀ: det(U)·det(V)·U·diag(∏_{k≠i} s_k)·Vᵀ)."""
    out = np.empty(a.shape, np.float64)
    for idx in np.ndindex(*a.shape[:-2]):
        u, s, vt = np.linalg.svd(a[idx].astype(np.float64))
        others = np.array([np.prod(np.delete(s, i)) for i in range(len(s))])
        out[idx] = np.linalg.det(u) * np.linalg.det(vt) * (u * others) @ vt
    return out.astype(a.dtype)


def _solve_adjoint(B: Any, a: Any, rhs: Any) -> Any:
    """A⁻ᴴ · rhs: `linalg_solve(A.mH(), rhs)` (LinalgSolveExBackward0 on Tensors)."""
    return run(B, LINALG_SOLVE_EX, B.transpose(a, -2, -1), rhs)


def _diagonal_of(B: Any, g: Any, offset: int, dim1: int, dim2: int) -> Any:
    """`g.diagonal(offset, dim1, dim2)` (dims non-negative) in a formula: DiagonalBackward0."""
    return run(B, DIAGONAL, g, offset=offset, dim1=dim1, dim2=dim2, shape=tuple(g.shape))


# --------------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------------

MM = defop(
    "mm",
    "MmBackward0",
    kernels.dot,  # (numpy's dot: less overhead than matmul on 2-D arrays)
    lambda B, g, self, mat2: B.mm(g, B.t(mat2)),
    lambda B, g, self, mat2: B.mm(B.t(self), g),
    cross_saves=True,
    arg_names=("self", "mat2"),
    rules=("grad @ mat2ᵀ", "selfᵀ @ grad"),
    exact_grads=True,
    out=OutRule("exact"),
)
BMM = defop(
    "bmm",
    "BmmBackward0",
    np.matmul,
    lambda B, g, self, mat2: _bmm(B, g, B.transpose(mat2, 1, 2)),
    lambda B, g, self, mat2: _bmm(B, B.transpose(self, 1, 2), g),
    cross_saves=True,
    arg_names=("self", "mat2"),
    rules=("grad @ mat2ᵀ (per batch)", "selfᵀ @ grad (per batch)"),
    exact_grads=True,
    out=OutRule("exact"),
)
ADDMM = defop(
    "addmm",
    "AddmmBackward0",
    lambda c, a, b: c + kernels.dot(a, b),
    lambda B, g, mat1, mat2: g,
    lambda B, g, mat1, mat2: B.mm(g, B.t(mat2)),
    lambda B, g, mat1, mat2: B.mm(B.t(mat1), g),
    arg_names=("self", "mat1", "mat2"),
    rules=("1", "grad @ mat2ᵀ", "mat1ᵀ @ grad"),
    out=OutRule("exact"),
)
DOT = defop(
    "dot",
    "DotBackward0",
    kernels.dot,
    lambda B, g, self, tensor: g * tensor,
    lambda B, g, self, tensor: g * self,
    cross_saves=True,
    arg_names=("self", "tensor"),
    rules=("tensor", "self"),
    exact_grads=True,
    out=OutRule("same_as_input", message="result dtype {1} does not match input dtype {0}"),
)
MV = defop(
    "mv",
    "MvBackward0",
    kernels.dot,
    lambda B, g, self, vec: B.outer(g, vec),
    lambda B, g, self, vec: B.mm(B.t(self), g),
    cross_saves=True,
    arg_names=("self", "vec"),
    rules=("outer(grad, vec)", "selfᵀ @ grad"),
    exact_grads=True,
    out=OutRule("exact"),
)
RESHAPE_ALIAS = defop(
    "_reshape_alias",
    "ReshapeAliasBackward0",
    lambda a, shape, source: np.reshape(a, shape, copy=False),
    lambda B, g, shape, source: B.reshape(g, source),
    rules=("reshape back",),
    view=True,
)
TRACE = defop(
    "trace",
    "TraceBackward0",
    lambda a, shape: np.trace(a, dtype=np.int64 if a.dtype.kind in "biu" else a.dtype),
    lambda B, g, shape: B.expand(g, shape) * B.const(np.eye(*shape, dtype=_np_dtype(g))),
    rules=("1 on the diagonal",),
)
DIAGONAL = defop(
    "diagonal",
    "DiagonalBackward0",
    lambda a, offset, dim1, dim2, shape: _diagonal_np(a, offset, dim1, dim2),
    lambda B, g, offset, dim1, dim2, shape: _diagonal_grad(B, g, shape, offset, dim1, dim2),
    rules=("1 on the diagonal",),
    view=True,
)
DIAG_COPY = defop(
    "diag",
    "DiagonalBackward0_copy",
    lambda a, offset, dim1, dim2, shape: np.array(_diagonal_np(a, offset, dim1, dim2)),
    lambda B, g, offset, dim1, dim2, shape: _diagonal_grad(B, g, shape, offset, dim1, dim2),
    rules=("1 on the diagonal",),
    out=OutRule("diag"),
)
DIAGONAL_BACKWARD = defop(
    "diagonal_backward",
    "DiagonalBackwardBackward0",
    lambda g, shape, offset, dim1, dim2: _diagonal_scatter_np(g, shape, offset, dim1, dim2),
    lambda B, g, shape, offset, dim1, dim2: _diagonal_of(B, g, offset, dim1, dim2),
    rules=("the diagonal",),
)
DIAG_EMBED = defop(
    "diag_embed",
    "DiagEmbedBackward0",
    lambda v, offset: _diag_embed_np(v, offset),
    lambda B, g, offset: _diagonal_of(B, g, offset, len(g.shape) - 2, len(g.shape) - 1),
    rules=("the diagonal of grad",),
)
TRIL = defop(
    "tril",
    "TrilBackward0",
    lambda a, diagonal: np.tril(a, diagonal),
    lambda B, g, diagonal: run(B, TRIL, g, diagonal=diagonal),
    rules=("1 on and below the diagonal",),
    out=OutRule("exact"),
)
TRIU = defop(
    "triu",
    "TriuBackward0",
    lambda a, diagonal: np.triu(a, diagonal),
    lambda B, g, diagonal: run(B, TRIU, g, diagonal=diagonal),
    rules=("1 on and above the diagonal",),
    out=OutRule("exact"),
)
DET = defop(
    "linalg_det",
    "LinalgDetBackward0",
    _det_np,
    _det_grad,
    saves=(0, "result"),
    arg_names=("A",),
    rules=("det(A) · A⁻ᵀ",),
    out=OutRule("exact", named="_linalg_det"),
)


def _solve_forward(a: Any, b: Any, vector: bool = False) -> Any:
    try:
        if vector:
            return np.linalg.solve(a, b[..., None])[..., 0]
        return np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        raise _LinAlgError(
            "torch.linalg.solve: The solver failed because the input matrix is singular."
        ) from None


def _solve_adjoint_columns(B: Any, g: Any, A: Any, vector: bool) -> Any:
    """`A⁻ᴴ · grad` as PyTorch's linalg_solve_backward solves it: with Aᴴ, a vector grad as a
    one-column matrix (a LinalgSolveExBackward0 node under create_graph)."""
    columns = run(B, UNSQUEEZE, g, dim=len(g.shape)) if vector else g
    return run(B, LINALG_SOLVE_EX, B.transpose(A, -2, -1), columns)


def _solve_grad_b(B: Any, g: Any, A: Any, result: Any, vector: bool = False) -> Any:
    """`A⁻ᴴ · grad`."""
    solved = _solve_adjoint_columns(B, g, A, vector)
    if not vector:
        return solved
    return run(B, SQUEEZE_DIM, solved, dim=len(g.shape), source=tuple(solved.shape))


def _solve_grad_a(B: Any, g: Any, A: Any, result: Any, vector: bool = False) -> Any:
    """`-(A⁻ᴴ · grad) · Xᴴ`, X a one-column matrix when it is a vector."""
    solved = _solve_adjoint_columns(B, g, A, vector)
    x = run(B, UNSQUEEZE, result, dim=len(result.shape)) if vector else result
    return -B.matmul(solved, _mT(B, x))


LINALG_SOLVE_EX = defop(  # torch.linalg.solve, and det's formula under create_graph
    "linalg_solve_ex",
    "LinalgSolveExBackward0",
    _solve_forward,
    _solve_grad_a,
    _solve_grad_b,
    arg_names=("A", "B"),
    saves=(0, "result"),
    rules=("-A⁻ᴴ · grad · Xᴴ", "A⁻ᴴ · grad"),
)
INV = defop(
    "linalg_inv_ex",
    "LinalgInvExBackward0",
    _inv_np,
    lambda B, g, result: -B.matmul(B.matmul(_mT(B, result), g), _mT(B, result)),
    rules=("-A⁻ᵀ · grad · A⁻ᵀ",),
    out=OutRule("exact"),
)


def _diag_embed_np(v: np.ndarray, offset: int) -> np.ndarray:
    n = v.shape[-1] + abs(offset)
    out = np.zeros(v.shape[:-1] + (n, n), v.dtype)
    _diagonal_np(out, offset, out.ndim - 2, out.ndim - 1)[...] = v
    return out


# --------------------------------------------------------------------------------------------
# Reshaping as ATen's matmul does it
# --------------------------------------------------------------------------------------------


def _reshape(x: Tensor, shape: tuple) -> Tensor:
    """`Tensor.reshape` with PyTorch's node: a view of a contiguous tensor (`ViewBackward0`), an
    alias with new strides (`ReshapeAliasBackward0`), or a copy (`UnsafeViewBackward0` of a
    `CloneBackward0`) when no view can have that shape."""
    data = np.asarray(x._data)
    source = data.shape
    if data.flags.c_contiguous:
        return apply_op(VIEW, (x,), {"shape": shape, "source": source})
    try:
        np.reshape(data, shape, copy=False)
    except ValueError:
        return apply_op(UNSAFE_VIEW, (arithmetic.clone(x),), {"shape": shape, "source": source})
    return apply_op(RESHAPE_ALIAS, (x,), {"shape": shape, "source": source})


def _unsafe_view(x: Tensor, shape: tuple) -> Tensor:
    return apply_op(UNSAFE_VIEW, (x,), {"shape": tuple(shape), "source": x._data.shape})


def _contiguous(x: Tensor) -> Tensor:
    return x if np.asarray(x._data).flags.c_contiguous else arithmetic.clone(x)


def _m_t(x: Tensor) -> Tensor:
    nd = x.ndim
    return apply_op(TRANSPOSE, (x,), {"dim0": nd - 2, "dim1": nd - 1})


def _squeeze(x: Tensor, dim: int) -> Tensor:
    nd = x.ndim
    return apply_op(SQUEEZE_DIM, (x,), {"dim": _norm_dim(dim, nd), "source": x._data.shape})


def _unsqueeze(x: Tensor, dim: int) -> Tensor:
    return apply_op(UNSQUEEZE, (x,), {"dim": _norm_dim(dim, x.ndim + 1)})


# --------------------------------------------------------------------------------------------
# The matmul family
# --------------------------------------------------------------------------------------------


def _check_2d(a: Tensor, b: Tensor) -> None:
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")


def _check_mm_shapes(a: Tensor, b: Tensor, addmm: bool = False) -> None:
    """PyTorch's checks of a matrix product; `addmm` (and `linear` with a bias) words the dtype
    mismatch its own way."""
    (n, k), (k2, m) = a._data.shape, b._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    da, db = a._data.dtype, b._data.dtype
    if da != db and addmm:
        raise RuntimeError(
            "mat1 and mat2 must have the same dtype, but got "
            f"{dtypes.scalar_name(da)} and {dtypes.scalar_name(db)}"
        )
    if da != db:
        raise RuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{dtypes.cpp_name(da)} != {dtypes.cpp_name(db)}"
        )


def mm(input: Tensor, mat2: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(mm, out, input, mat2)
    _check_2d(input, mat2)
    _check_mm_shapes(input, mat2)
    return apply_op(MM, (input, mat2))


def mv(input: Tensor, vec: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(mv, out, input, vec)
    if input.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.ndim}, {vec.ndim}")
    (n, k), (k2,) = input._data.shape, vec._data.shape
    if k != k2:
        raise RuntimeError(f"size mismatch, got input ({n}), mat ({n}x{k}), vec ({k2})")
    dm, dv = input._data.dtype, vec._data.dtype
    if dm != dv:
        raise RuntimeError(
            "addmv input tensors must have the same dtype, but got "
            f"{dtypes.scalar_name(dv)}, {dtypes.scalar_name(dm)}, and {dtypes.scalar_name(dv)}"
        )
    return apply_op(MV, (input, vec))


def bmm(input: Tensor, mat2: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(bmm, out, input, mat2)
    if input.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if mat2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    (b, _, k), (b2, k2, _) = input._data.shape, mat2._data.shape
    if b2 != b or k2 != k:
        raise RuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{b}, {k}] but got: [{b2}, {k2}]."
        )
    if input._data.dtype != mat2._data.dtype:
        raise RuntimeError(
            f"expected scalar type {dtypes.scalar_name(input._data.dtype)} but found "
            f"{dtypes.scalar_name(mat2._data.dtype)}"
        )
    return apply_op(BMM, (input, mat2))


def dot(input: Tensor, tensor: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(dot, out, input, tensor)
    if input.ndim != 1 or tensor.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.ndim}D and {tensor.ndim}D tensors")
    n, m = input._data.shape[0], tensor._data.shape[0]
    if n != m:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same "
            f"number of elements, but got {n} and {m} elements respectively"
        )
    if input._data.dtype != tensor._data.dtype:
        raise RuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{dtypes.scalar_name(input._data.dtype)} and {dtypes.scalar_name(tensor._data.dtype)}"
        )
    return apply_op(DOT, (input, tensor))


vdot = dot


def outer(input: Tensor, vec2: Tensor, *, out: Any = None) -> Tensor:
    """`input.reshape(-1, 1) * vec2`, as ATen computes it (MulBackward0)."""
    if out is not None:
        return write_out(outer, out, input, vec2)
    for name, t in (("self", input), ("vec2", vec2)):
        if t.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t.ndim}-D")
    return arithmetic.mul(_reshape(input, (input._data.shape[0], 1)), vec2)


declare_out("outer", OutRule(named="mul", cast_copy=True))


ger = outer


def inner(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    """Sum over the last dimensions, via `tensordot` as ATen does."""
    if out is not None:
        return write_out(inner, out, input, other)
    if input.ndim == 0 or other.ndim == 0:
        return arithmetic.mul(input, other)
    a_shape, b_shape = input._data.shape, other._data.shape
    if a_shape[-1] != b_shape[-1]:
        raise RuntimeError(
            "inner() the last dimension must match on both input tensors but got shapes "
            f"{_dims_text(a_shape)} and {_dims_text(b_shape)}"
        )
    a = permute(input, tuple(range(input.ndim)))
    b = permute(other, (other.ndim - 1,) + tuple(range(other.ndim - 1)))
    out_shape = a_shape[:-1] + b_shape[:-1]
    k = a_shape[-1]
    if input.ndim == 1 and other.ndim == 1:
        return _reshape(dot(a, b), out_shape)
    rows = int(np.prod(a_shape[:-1], dtype=np.int64))
    cols = int(np.prod(b_shape[:-1], dtype=np.int64))
    product = mm(_reshape(a, (rows, k)), _reshape(b, (k, cols)))
    return _reshape(product, out_shape)


declare_out(
    "inner",
    OutRule(
        "same_as_input",
        message="tensordot: Expected the output tensor to have dtype {}, but got an output tensor "
        "with dtype {}",
    ),
)


def _should_fold(a: Tensor, b: Tensor) -> bool:
    """ATen's `should_fold`: multiply with one `mm` by folding the larger operand's batch."""
    t1, t2 = (a, b) if a.ndim >= b.ndim else (b, a)
    if not (t1.ndim >= 3 and t2.ndim <= 2):
        return False
    if t2.requires_grad:
        return True
    if a.ndim == 2:
        return False
    data = np.asarray(t1._data if t1 is a else np.swapaxes(t1._data, -1, -2))
    if data.size == 0:
        return True
    try:
        np.reshape(data, (-1, data.shape[-1]), copy=False)
    except ValueError:
        return False
    return True


def matmul(input: Tensor, other: Tensor, *, out: Any = None) -> Tensor:
    """Dispatches as ATen's `_matmul_impl` does, building the same chain of graph nodes."""
    if out is not None:
        return write_out(matmul, out, input, other)
    if not isinstance(input, Tensor) or not isinstance(other, Tensor):
        raise TypeError(
            "matmul(): argument 'other' (position 2) must be Tensor, not "
            f"{type(other if isinstance(input, Tensor) else input).__name__}"
        )
    da, db = input.ndim, other.ndim
    if da == 0 or db == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D"
        )
    if da == 1 and db == 1:
        return dot(input, other)
    if da == 2 and db == 1:
        return mv(input, other)
    if da == 1 and db == 2:
        if input._data.shape[0] != other._data.shape[0]:
            k, (k2, m) = input._data.shape[0], other._data.shape
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{k} and {k2}x{m})")
        return squeeze_dims(mm(_unsqueeze(input, 0), other), (0,))
    if da == 2 and db == 2:
        _check_mm_shapes(input, other)
        return apply_op(MM, (input, other))
    if _should_fold(input, other):
        return _folded_matmul(input, other)
    return _batched_matmul(input, other)


declare_out("matmul", OutRule("exact"))


def _folded_matmul(a: Tensor, b: Tensor) -> Tensor:
    transpose = b.ndim > a.ndim
    t1 = _m_t(b) if transpose else a
    t2 = (arithmetic.t(a) if a.ndim == 2 else a) if transpose else b
    sizes = t1._data.shape
    out_shape = sizes[:-1]
    folded = int(np.prod(out_shape, dtype=np.int64))
    t1_folded = _reshape(t1, (folded, sizes[-1]))
    if t2.ndim == 2:
        out = _unsafe_view(mm(t1_folded, t2), out_shape + (t2._data.shape[1],))
        return _contiguous(_m_t(out)) if transpose else out
    k, k2 = sizes[-1], t2._data.shape[0]
    if k != k2:
        raise RuntimeError(f"size mismatch, got input ({folded}), mat ({folded}x{k}), vec ({k2})")
    return _unsafe_view(mv(t1_folded, t2), out_shape)


def _batched_matmul(a: Tensor, b: Tensor) -> Tensor:
    da, db = a.ndim, b.ndim
    sa, sb = a._data.shape, b._data.shape
    n = sa[-2] if da > 1 else 1
    m1 = sa[-1]
    m2 = sb[-2] if db > 1 else sb[-1]
    p = sb[-1] if db > 1 else 1
    batch_a, batch_b = sa[: max(da - 2, 0)], sb[: max(db - 2, 0)]
    if da == 3 and db == 3 and batch_a[0] != batch_b[0]:
        if batch_a[0] == 1 and a.requires_grad:
            return matmul(_squeeze(a, 0), b)
        if batch_b[0] == 1 and b.requires_grad:
            return matmul(a, _squeeze(b, 0))
    try:
        batch = tuple(np.broadcast_shapes(batch_a, batch_b))
    except ValueError:
        raise broadcast_error([batch_a, batch_b]) from None
    count = int(np.prod(batch, dtype=np.int64))
    if m1 != m2:
        raise RuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{count}, {m1}] but got: [{count}, {m2}]."
        )
    a_expanded = _reshape(expand(a, batch + (n, m1)), (count, n, m1))
    vector_rhs = db == 1
    if vector_rhs:
        b_expanded = _unsqueeze(_reshape(expand(b, batch + (m2,)), (count, m2)), 2)
    else:
        b_expanded = _reshape(expand(b, batch + (m2, p)), (count, m2, p))
    out_shape = batch + ((n,) if da > 1 else ()) + ((p,) if db > 1 else ())
    out = bmm(a_expanded, b_expanded)
    if vector_rhs:
        out = _squeeze(out, -1)
    return _unsafe_view(out, out_shape)


def addmm(
    input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: float = 1, alpha: float = 1, out: Any = None
) -> Tensor:
    if out is not None:
        return write_out(addmm, out, input, mat1, mat2, beta=beta, alpha=alpha)
    _check_2d(mat1, mat2)
    _check_mm_shapes(mat1, mat2, addmm=True)
    if beta != 1 or alpha != 1:
        return arithmetic.add(arithmetic.mul(input, beta), arithmetic.mul(mm(mat1, mat2), alpha))
    return apply_op(ADDMM, (input, mat1, mat2))


# --------------------------------------------------------------------------------------------
# trace, diag, diagonal, tril, triu
# --------------------------------------------------------------------------------------------


def trace(input: Tensor) -> Tensor:
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    return apply_op(TRACE, (input,), {"shape": input._data.shape})


def _diagonal_params(input: Tensor, offset: int, dim1: int, dim2: int) -> dict:
    nd = input.ndim
    d1, d2 = _norm_dim(dim1, nd), _norm_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return {"offset": int(offset), "dim1": d1, "dim2": d2, "shape": input._data.shape}


def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    return apply_op(DIAGONAL, (input,), _diagonal_params(input, offset, dim1, dim2))


def diag(input: Tensor, diagonal: int = 0, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(diag, out, input, diagonal)
    if input.ndim == 1:
        return apply_op(DIAG_EMBED, (input,), {"offset": int(diagonal)})
    if input.ndim == 2:
        return apply_op(DIAG_COPY, (input,), _diagonal_params(input, diagonal, 0, 1))
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")


def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    if (dim1, dim2) not in ((-2, -1), (input.ndim - 1, input.ndim)):
        raise NotImplementedError("diag_embed: only the last two dimensions are supported")
    return apply_op(DIAG_EMBED, (input,), {"offset": int(offset)})


def _triangle(op: Any, name: str, input: Tensor, diagonal: int) -> Tensor:
    if input.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return apply_op(op, (input,), {"diagonal": int(diagonal)})


def tril(input: Tensor, diagonal: int = 0, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(tril, out, input, diagonal)
    return _triangle(TRIL, "tril", input, diagonal)


def _triangle_inplace(op: Any, name: str):
    def method(self: Tensor, diagonal: int = 0) -> Tensor:
        if self.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        return apply_inplace(op, self, (), {"diagonal": int(diagonal)})

    method.__name__ = name + "_"
    return method


def triu(input: Tensor, diagonal: int = 0, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(triu, out, input, diagonal)
    return _triangle(TRIU, "triu", input, diagonal)


# --------------------------------------------------------------------------------------------
# det, inverse
# --------------------------------------------------------------------------------------------


def check_square(A: Tensor, fn: str) -> None:  # noqa: N803 - PyTorch's argument name
    """linalg's checks: a float batch of square matrices."""
    if A.ndim < 2:
        raise RuntimeError(f"linalg.{fn}: The input tensor A must have at least 2 dimensions.")
    rows, cols = A._data.shape[-2:]
    if rows != cols:
        raise RuntimeError(
            f"linalg.{fn}: A must be batches of square matrices, but they are {rows} by {cols} "
            "matrices"
        )
    if A._data.dtype.kind != "f":
        raise RuntimeError(
            f"linalg.{fn}: Expected a floating point or complex tensor as input. Got "
            f"{dtypes.scalar_name(A._data.dtype)}"
        )


def det(input: Tensor) -> Tensor:
    check_square(input, "det")
    return apply_op(DET, (input,))


def inverse(input: Tensor, *, out: Any = None) -> Tensor:
    if out is not None:
        return write_out(inverse, out, input)
    check_square(input, "inv")
    return apply_op(INV, (input,))


declare_out("inverse", OutRule("exact"))


def _attach() -> None:
    """The Tensor methods of the matmul family, and `@`."""
    methods = {
        "vdot": dot,
        "inner": inner,
        "outer": outer,
        "ger": outer,
        "matmul": matmul,
        "diagonal": diagonal,
        "det": det,
        "inverse": inverse,
    }

    def _matmul_method(self: Tensor, other: Any) -> Any:
        a = self._data
        shape_a = a.shape
        if len(shape_a) == 2 and other.__class__ is Tensor:
            b = other._data
            shape_b = b.shape
            if len(shape_b) == 2:  # the common case of `matmul`, without its dispatch
                if shape_a[1] != shape_b[0] or a.dtype is not b.dtype:
                    _check_mm_shapes(self, other)  # PyTorch's error (or equal dtypes after all)
                if shape_a[0] * shape_b[1] > _Cap.max_elements:
                    limits.check_matmul(MM, a, b)  # the output would exceed the size limit
                return apply_binary(MM, self, other)
        return matmul(self, other) if isinstance(other, Tensor) else NotImplemented

    def _rmatmul_method(self: Tensor, other: Any) -> Any:
        return matmul(other, self) if isinstance(other, Tensor) else NotImplemented

    methods["__matmul__"] = _matmul_method
    methods["__rmatmul__"] = _rmatmul_method
    tensor_methods("ops.matrix", methods)


_attach()

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(ADDMM, addmm, method=True)
declare_forms(BMM, bmm, method=True)
declare_forms(DIAG_COPY, diag, method=True)
declare_forms(DIAG_EMBED, diag_embed, method=True)
declare_forms(DOT, dot, method=True)
declare_forms(MM, mm, method=True)
declare_forms(MV, mv, method=True)
declare_forms(TRACE, trace, method=True)
declare_forms(TRIL, tril, method=True, inplace=_triangle_inplace(TRIL, "tril"))
declare_forms(TRIU, triu, method=True, inplace=_triangle_inplace(TRIU, "triu"))


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """`addmm(bias, input, weight.t())` (input flattened to 2-D), or `input @ weight.t()`."""
    check_same_device(input, weight, bias)
    weight_t = arithmetic.t(weight)
    if bias is None:
        return matmul(input, weight_t)
    if input.ndim == 2:
        _check_mm_shapes(input, weight_t, addmm=True)
        return apply_op(ADDMM, (bias, input, weight_t))
    if input.ndim == 0:
        raise RuntimeError(
            "both arguments to linear need to be at least 1D, but they are 0D and 2D"
        )
    shape = input._data.shape
    flat = _reshape(input, (int(np.prod(shape[:-1], dtype=np.int64)), shape[-1]))
    _check_mm_shapes(flat, weight_t, addmm=True)
    out = apply_op(ADDMM, (bias, flat, weight_t))
    return _reshape(out, shape[:-1] + (weight._data.shape[0],))
