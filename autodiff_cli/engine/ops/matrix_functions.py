"""More matrix functions: the scaled products addmv, addr, baddbmm, addbmm (one node each, as
PyTorch records them), chain_matmul, matrix_power (built from mm/matmul and inverse in PyTorch's
order, so the graph shows its nodes), matrix_exp, slogdet and logdet."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dtypes
from ..core.apply import apply_inplace, apply_op
from ..core.grad_mode import no_grad
from ..core.optable import declare_forms, defop, tensor_methods
from ..core.out_arg import write_out
from ..core.tensor import Tensor, _wrap
from . import arithmetic
from .formula_ops import mul_scalar, run
from .matrix import DIAG_EMBED, _bmm, _solve_adjoint, inverse, matmul, mm
from .views import CAT, _slice_any, clone, expand, view

__all__ = [
    "addmv",
    "addr",
    "baddbmm",
    "addbmm",
    "chain_matmul",
    "matrix_power",
    "matrix_exp",
    "slogdet",
    "logdet",
]


# --------------------------------------------------------------------------------------------
# beta · input + alpha · product
# --------------------------------------------------------------------------------------------


def _coefficient(value: Any, dtype: np.dtype) -> Any:
    """beta or alpha in the result's dtype (PyTorch truncates a float one for integer tensors)."""
    if dtype.kind == "b":
        return bool(value)
    if dtype.kind in "iu":
        return int(value)
    return np.asarray(value, dtype)


def _combine(c: Any, product: Any, beta: Any, alpha: Any) -> np.ndarray:
    """`beta · c + alpha · product`; with beta = 0 `c` is ignored (its NaNs too)."""
    dt = product.dtype
    scaled = product if alpha == 1 else product * _coefficient(alpha, dt)
    if beta == 0:
        return np.array(np.broadcast_to(scaled, product.shape), dt)
    base = c if beta == 1 else c * _coefficient(beta, dt)
    return np.asarray(base + scaled, dt)


def _scale(B: Any, x: Any, factor: Any) -> Any:
    return x if factor == 1 else mul_scalar(B, x, float(factor))


ADDMV = defop(
    "addmv", "AddmvBackward0",
    lambda c, m, v, beta, alpha: _combine(c, m @ v, beta, alpha),
    lambda B, g, mat, vec, beta, alpha: _scale(B, g, beta),
    lambda B, g, mat, vec, beta, alpha: _scale(B, B.outer(g, vec), alpha),
    lambda B, g, mat, vec, beta, alpha: _scale(B, B.matmul(B.t(mat), g), alpha),
    arg_names=("self", "mat", "vec"),
    promotes=False,
    rules=("beta", "alpha · outer(grad, vec)", "alpha · matᵀ @ grad"),
)  # fmt: skip
ADDR = defop(
    "addr", "AddrBackward0",
    lambda c, u, v, beta, alpha: _combine(c, np.multiply.outer(u, v), beta, alpha),
    lambda B, g, vec1, vec2, beta, alpha: _scale(B, g, beta),
    lambda B, g, vec1, vec2, beta, alpha: _scale(B, B.matmul(g, vec2), alpha),
    lambda B, g, vec1, vec2, beta, alpha: _scale(B, B.matmul(B.t(g), vec1), alpha),
    arg_names=("self", "vec1", "vec2"),
    rules=("beta", "alpha · grad @ vec2", "alpha · gradᵀ @ vec1"),
)  # fmt: skip
BADDBMM = defop(
    "baddbmm", "BaddbmmBackward0",
    lambda c, x, y, beta, alpha: _combine(c, np.matmul(x, y), beta, alpha),
    lambda B, g, batch1, batch2, beta, alpha: _scale(B, g, beta),
    lambda B, g, batch1, batch2, beta, alpha: _scale(
        B, _bmm(B, g, B.transpose(batch2, 1, 2)), alpha
    ),
    lambda B, g, batch1, batch2, beta, alpha: _scale(
        B, _bmm(B, B.transpose(batch1, 1, 2), g), alpha
    ),
    arg_names=("self", "batch1", "batch2"),
    promotes=False,
    rules=("beta", "alpha · grad @ batch2ᵀ", "alpha · batch1ᵀ @ grad"),
)  # fmt: skip
ADDBMM = defop(
    "addbmm", "AddbmmBackward0",
    lambda c, x, y, beta, alpha: _combine(c, np.matmul(x, y).sum(0, dtype=x.dtype), beta, alpha),
    lambda B, g, batch1, batch2, beta, alpha: _scale(B, g, beta),
    lambda B, g, batch1, batch2, beta, alpha: _scale(
        B, _bmm(B, _each_batch(B, g, batch1), B.transpose(batch2, 1, 2)), alpha
    ),
    lambda B, g, batch1, batch2, beta, alpha: _scale(
        B, _bmm(B, B.transpose(batch1, 1, 2), _each_batch(B, g, batch1)), alpha
    ),
    arg_names=("self", "batch1", "batch2"),
    promotes=False,
    rules=("beta", "alpha · grad @ batch2ᵀ (each batch)", "alpha · batch1ᵀ @ grad (each batch)"),
)  # fmt: skip


def _each_batch(B: Any, g: Any, batch1: Any) -> Any:
    """`grad` expanded to one copy per batch."""
    column = run(B, arithmetic.UNSQUEEZE, g, dim=0)
    return B.expand(column, (batch1.shape[0],) + tuple(g.shape))


def _same_dtypes(name: str, *tensors: Tensor) -> None:
    kinds = [t._data.dtype for t in tensors]
    if len(set(kinds)) > 1:
        names = [dtypes.scalar_name(d) for d in kinds]
        raise RuntimeError(
            f"{name} input tensors must have the same dtype, but got "
            f"{', '.join(names[:-1])}, and {names[-1]}"
        )


def _check_input(input: Tensor, shape: tuple) -> None:
    """PyTorch's expand error when `input` does not broadcast to the product's shape."""
    with no_grad():
        expand(input, shape)


def _scaled(
    op: Any, input: Tensor, a: Tensor, b: Tensor, shape: tuple, beta: Any, alpha: Any
) -> Tensor:
    _check_input(input, shape)
    return apply_op(op, (input, a, b), {"beta": beta, "alpha": alpha})


def _scaled_inplace(
    function: Any, op: Any, self: Tensor, a: Tensor, b: Tensor, beta: Any, alpha: Any
) -> Tensor:
    with no_grad():
        shape = tuple(function(self, a, b, beta=beta, alpha=alpha).shape)
    if shape != tuple(self._data.shape):
        raise RuntimeError(
            f"Bad in-place call: input tensor size {list(self._data.shape)} and output tensor "
            f"size {list(shape)} should match"
        )
    return apply_inplace(op, self, (a, b), {"beta": beta, "alpha": alpha})


def addmv(
    input: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1, out: Any = None
) -> Tensor:
    """`beta · input + alpha · (mat @ vec)` (AddmvBackward0)."""
    if out is not None:
        return write_out(addmv, out, input, mat, vec, beta=beta, alpha=alpha)
    if mat.ndim != 2 or vec.ndim != 1 or input.ndim > 1:
        raise RuntimeError(
            f"vector + matrix @ vector expected, got {input.ndim}, {mat.ndim}, {vec.ndim}"
        )
    (n, k), m = mat._data.shape, vec._data.shape[0]
    if k != m or (input.ndim == 1 and input._data.shape[0] not in (1, n)):
        size = input._data.shape[0] if input.ndim else 1
        raise RuntimeError(f"size mismatch, got input ({size}), mat ({n}x{k}), vec ({m})")
    _same_dtypes("addmv", input, mat, vec)
    return _scaled(ADDMV, input, mat, vec, (n,), beta, alpha)


def addr(
    input: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1, out: Any = None
) -> Tensor:
    """`beta · input + alpha · outer(vec1, vec2)` (AddrBackward0)."""
    if out is not None:
        return write_out(addr, out, input, vec1, vec2, beta=beta, alpha=alpha)
    for name, t in (("vec1", vec1), ("vec2", vec2)):
        if t.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {t.ndim}-D")
    shape = (vec1._data.shape[0], vec2._data.shape[0])
    return _scaled(ADDR, input, vec1, vec2, shape, beta, alpha)


def _check_batches(name: str, batch1: Tensor, batch2: Tensor) -> tuple:
    for label, t in (("batch1", batch1), ("batch2", batch2)):
        if t.ndim != 3:
            raise RuntimeError(f"{label} must be a 3D tensor")
    (b, n, k), (b2, k2, p) = batch1._data.shape, batch2._data.shape
    if name == "addbmm":
        if b != b2:
            raise RuntimeError(
                f"batch1 and batch2 must have same number of batches, got {b} and {b2}"
            )
        if k != k2:
            raise RuntimeError(f"Incompatible matrix sizes for bmm ({n}x{k} and {k2}x{p})")
    elif b != b2 or k != k2:
        raise RuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{b}, {k}] but got: [{b2}, {k2}]."
        )
    return b, n, p


def _check_scalar_types(input: Tensor, batch1: Tensor, batch2: Tensor) -> None:
    for t in (batch1, batch2):
        if t._data.dtype != input._data.dtype:
            raise RuntimeError(
                f"expected scalar type {dtypes.scalar_name(input._data.dtype)} but found "
                f"{dtypes.scalar_name(t._data.dtype)}"
            )


def baddbmm(
    input: Tensor,
    batch1: Tensor,
    batch2: Tensor,
    *,
    beta: Any = 1,
    alpha: Any = 1,
    out: Any = None,
) -> Tensor:
    """`beta · input + alpha · (batch1 @ batch2)` per batch (BaddbmmBackward0)."""
    if out is not None:
        return write_out(baddbmm, out, input, batch1, batch2, beta=beta, alpha=alpha)
    b, n, p = _check_batches("baddbmm", batch1, batch2)
    _check_scalar_types(input, batch1, batch2)
    return _scaled(BADDBMM, input, batch1, batch2, (b, n, p), beta, alpha)


def addbmm(
    input: Tensor,
    batch1: Tensor,
    batch2: Tensor,
    *,
    beta: Any = 1,
    alpha: Any = 1,
    out: Any = None,
) -> Tensor:
    """`beta · input + alpha · Σ_b batch1[b] @ batch2[b]` (AddbmmBackward0)."""
    if out is not None:
        return write_out(addbmm, out, input, batch1, batch2, beta=beta, alpha=alpha)
    _, n, p = _check_batches("addbmm", batch1, batch2)
    _check_scalar_types(input, batch1, batch2)
    return _scaled(ADDBMM, input, batch1, batch2, (n, p), beta, alpha)


def _inplace(function: Any, op: Any) -> Any:
    def method_(self: Tensor, a: Tensor, b: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
        return _scaled_inplace(function, op, self, a, b, beta, alpha)

    method_.__name__ = method_.__qualname__ = function.__name__ + "_"
    return method_


# --------------------------------------------------------------------------------------------
# chain_matmul, matrix_power
# --------------------------------------------------------------------------------------------


def _chain_order(dims: list[int]) -> list[list[int]]:
    """The cheapest parenthesisation of a chain of matrices of sizes dims[i] x dims[i + 1]:
    split[i][j] is where the product of matrices i..j divides (dynamic programming)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = -1
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] < 0 or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain_product(matrices: list, split: list, i: int, j: int) -> Tensor:
    if i == j:
        return matrices[i]
    k = split[i][j]
    left = _chain_product(matrices, split, i, k)
    return mm(left, _chain_product(matrices, split, k + 1, j))


def chain_matmul(*matrices: Tensor, out: Any = None) -> Tensor:
    """The product of 2-D matrices in the cheapest order (deprecated in PyTorch for
    linalg.multi_dot): MmBackward0 nodes under a ViewBackward0, or a clone of a single one."""
    if out is not None:
        return write_out(chain_matmul, out, *matrices)
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for m in matrices:
        if m.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {m.ndim}, expected 2 instead.")
    if len(matrices) == 1:
        return clone(matrices[0])
    for i in range(len(matrices) - 1):
        a, b = matrices[i]._data.shape, matrices[i + 1]._data.shape
        if a[1] != b[0]:
            raise RuntimeError(
                f"multi_dot(): tensors {i} and {i + 1} with shapes {list(a)} and {list(b)} "
                "cannot be multiplied"
            )
    dims = [m._data.shape[0] for m in matrices] + [matrices[-1]._data.shape[1]]
    split = _chain_order(dims)
    result = _chain_product(list(matrices), split, 0, len(matrices) - 1)
    return view(result, (dims[0], dims[-1]))


def _square_prefix(A: Tensor, fn: str, floating: bool = True) -> None:  # noqa: N803
    """`fn`'s checks (PyTorch's messages): a batch of square matrices, floating if asked."""
    if A.ndim < 2:
        raise RuntimeError(f"{fn}: The input tensor A must have at least 2 dimensions.")
    rows, cols = A._data.shape[-2:]
    if rows != cols:
        raise RuntimeError(
            f"{fn}: A must be batches of square matrices, but they are {rows} by {cols} matrices"
        )
    if floating and A._data.dtype.kind != "f":
        raise RuntimeError(
            f"{fn}: Expected a floating point or complex tensor as input. Got "
            f"{dtypes.scalar_name(A._data.dtype)}"
        )


def matrix_power(input: Tensor, n: int, *, out: Any = None) -> Tensor:
    """`input` multiplied by itself `n` times (its inverse for negative `n`) by repeated
    squaring, in PyTorch's order of products; `n = 0` the identity (CopyBackwards)."""
    if out is not None:
        return write_out(matrix_power, out, input, n)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(
            f"matrix_power(): argument 'n' (position 2) must be int, not {type(n).__name__}"
        )
    _square_prefix(input, "linalg.matrix_power", floating=False)
    n = int(n)
    if n == 0:
        size = input._data.shape[-1]
        eye = _wrap(np.broadcast_to(np.eye(size, dtype=input._data.dtype), input._data.shape))
        return clone(input).copy_(eye)
    if n == 1:
        return clone(input)
    a = inverse(input) if n < 0 else input
    n = abs(n)
    if n == 1:
        return a
    product = mm if input.ndim == 2 else matmul
    if n == 2:
        return product(a, a)
    if n == 3:
        return product(product(a, a), a)
    z = result = None
    while n > 0:
        z = a if z is None else product(z, z)
        if n & 1:
            result = z if result is None else product(result, z)
        n >>= 1
    return result


# --------------------------------------------------------------------------------------------
# matrix_exp
# --------------------------------------------------------------------------------------------


def _expm_np(a: np.ndarray) -> np.ndarray:
    """exp(A) by scaling and squaring: a Taylor series of A / 2^s (norm at most 1/2, 20
    terms: below double precision), squared s times; computed in float64."""
    x = np.asarray(a, np.float64)
    out = np.empty(x.shape, np.float64)
    n = x.shape[-1]
    for idx in np.ndindex(*x.shape[:-2]):
        m = x[idx]
        norm = np.abs(m).sum(0).max() if n else 0.0
        if not np.isfinite(norm):
            out[idx] = np.nan
            continue
        s = max(0, int(np.ceil(np.log2(norm))) + 1) if norm > 0 else 0
        m = m / 2.0**s
        term = np.eye(n)
        total = np.eye(n)
        for k in range(1, 21):
            term = term @ m / k
            total = total + term
        for _ in range(s):
            total = total @ total
        out[idx] = total
    return out.astype(a.dtype)


def _expm_grad(B: Any, g: Any, self: Any) -> Any:
    """The block formula: exp([[Aᵀ, G], [0, Aᵀ]]) holds the gradient in its upper right block
    (PyTorch's documented backward for analytic matrix functions); differentiable again."""
    n = self.shape[-1]
    at = B.transpose(self, -2, -1)
    zeros = B.zeros(tuple(g.shape), B.array_of(g).dtype)
    d = len(g.shape)
    top = run(B, CAT, at, g, dim=d - 1, shapes=(tuple(at.shape), tuple(g.shape)))
    bottom = run(B, CAT, zeros, at, dim=d - 1, shapes=(tuple(g.shape), tuple(at.shape)))
    block = run(B, CAT, top, bottom, dim=d - 2, shapes=(tuple(top.shape), tuple(bottom.shape)))
    big = run(B, MATRIX_EXP, block)
    return _slice_any(B, _slice_any(B, big, d - 2, 0, n), d - 1, n, 2 * n)


MATRIX_EXP = defop(
    "linalg_matrix_exp",
    "LinalgMatrixExpBackward0",
    _expm_np,
    _expm_grad,
    rules=("exp([[Aᵀ, grad], [0, Aᵀ]]), upper right block",),
)


def matrix_exp(input: Tensor) -> Tensor:
    _square_prefix(input, "linalg.matrix_exp")
    return apply_op(MATRIX_EXP, (input,))


# --------------------------------------------------------------------------------------------
# slogdet, logdet
# --------------------------------------------------------------------------------------------


def named_result(type_name: str, fields: tuple) -> type:
    """A `torch.return_types.<type_name>`: a tuple whose items are also named `fields`."""

    def __repr__(self: tuple) -> str:  # noqa: N807
        items = ",\n".join(f"{f}={v!r}" for f, v in zip(fields, self))
        return f"torch.return_types.{type_name}(\n{items})"

    namespace: dict = {"__slots__": (), "__repr__": __repr__, "__str__": __repr__}
    for i, field in enumerate(fields):
        namespace[field] = property(lambda self, i=i: self[i])
    cls = type(type_name, (tuple,), namespace)
    cls.__module__ = "torch.return_types"
    return cls


_SignLogAbsDet = named_result("slogdet", ("sign", "logabsdet"))
_LinalgSignLogAbsDet = named_result("linalg_slogdet", ("sign", "logabsdet"))


def _slogdet_np(a: np.ndarray) -> tuple:
    sign, logabs = np.linalg.slogdet(a)
    return np.asarray(sign, a.dtype), np.asarray(logabs, a.dtype)


def _slogdet_grad(B: Any, grads: list, A: Any) -> Any:  # noqa: N803 - PyTorch's name
    """grad_logabsdet · A⁻ᵀ (the sign is piecewise constant): solve(Aᵀ, diag(grad))."""
    g = grads[1]
    shape = tuple(A.shape)
    column = run(B, arithmetic.UNSQUEEZE, g, dim=len(g.shape))
    diagonal = run(B, DIAG_EMBED, B.expand(column, shape[:-1]), offset=0)
    return _solve_adjoint(B, A, diagonal)


SLOGDET = defop(
    "linalg_slogdet",
    "LinalgSlogdetBackward0",
    _slogdet_np,
    _slogdet_grad,
    n_outputs=2,
    arg_names=("A",),
    rules=("grad_logabsdet · A⁻ᵀ",),
)


def _slogdet(A: Tensor, fn: str) -> tuple:  # noqa: N803
    _square_prefix(A, fn)
    return apply_op(SLOGDET, (A,))


def slogdet(input: Tensor) -> _SignLogAbsDet:
    """(sign, log|det|) of a batch of square matrices (LinalgSlogdetBackward0 on both)."""
    return _SignLogAbsDet(_slogdet(input, "linalg.slogdet"))


def linalg_slogdet(A: Tensor, *, out: Any = None) -> _SignLogAbsDet:  # noqa: N803
    if out is not None:
        return write_out(linalg_slogdet, out, A)
    return _LinalgSignLogAbsDet(_slogdet(A, "linalg.slogdet"))


def logdet(input: Tensor) -> Tensor:
    """log det: NaN for a negative determinant, -inf for a singular matrix (WhereBackward0 over
    slogdet, as PyTorch composes it)."""
    sign, logabs = _slogdet(input, "logdet")
    nan = _wrap(np.asarray(np.nan, input._data.dtype))
    return arithmetic.where(arithmetic.eq(sign, -1), nan, logabs)


tensor_methods(
    "ops.matrix_functions",
    {
        "matrix_power": matrix_power,
        "matrix_exp": matrix_exp,
        "slogdet": slogdet,
        "logdet": logdet,
    },
)

# The Tensor methods of this family's entries (declared through the op registry)
declare_forms(ADDBMM, addbmm, method=True, inplace=_inplace(addbmm, ADDBMM))
declare_forms(ADDMV, addmv, method=True, inplace=_inplace(addmv, ADDMV))
declare_forms(ADDR, addr, method=True, inplace=_inplace(addr, ADDR))
declare_forms(BADDBMM, baddbmm, method=True, inplace=_inplace(baddbmm, BADDBMM))
