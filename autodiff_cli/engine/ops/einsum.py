"""`torch.einsum`, decomposed as PyTorch decomposes it (so the graph shows the same grad_fns:
Diagonal/Permute/Unsqueeze per operand, then Sum, Mul, or the permute-reshape-Bmm-view of a
contracted pair), left to right; gradients come from those ops."""

from __future__ import annotations

from typing import Any

from ..core.tensor import Tensor
from . import views
from .arithmetic import mul
from .matrix import bmm, diagonal
from .reductions import sum as _sum

__all__ = ["einsum"]

_ELLIPSIS = "..."


def _terms(equation: str) -> tuple[list[list[str]], list[str] | None]:
    equation = equation.replace(" ", "")
    lhs, arrow, rhs = equation.partition("->")

    def labels(term: str) -> list[str]:
        out, k = [], 0
        while k < len(term):
            if term.startswith(_ELLIPSIS, k):
                out.append(_ELLIPSIS)
                k += 3
                continue
            ch = term[k]
            if not ch.isascii() or not ch.isalpha():
                raise RuntimeError(
                    f"einsum(): invalid subscript given at index {k} in the equation string, "
                    "subscripts must be in [a-zA-Z]"
                )
            out.append(ch)
            k += 1
        return out

    return [labels(term) for term in lhs.split(",")], (labels(rhs) if arrow else None)


def einsum(equation: str, *operands: Any) -> Tensor:
    """Sums the product of the operands' elements over the labels missing from the output."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    inputs, output = _terms(equation)
    if len(operands) < len(inputs):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(operands) > len(inputs):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    counts, ell_dims = _label_counts(inputs, operands)
    position, ell_index, out_dims, n_dims = _positions(counts, output, ell_dims)
    permuted = [
        _permuted(op, term, position, ell_index, ell_dims, n_dims)
        for op, term in zip(operands, inputs)
    ]
    if len(permuted) == 1:
        result = permuted[0]
        if n_dims > out_dims:
            result = _sum(result, tuple(range(out_dims, n_dims)))
        return result
    return _contract(permuted, out_dims, n_dims)


def _label_counts(inputs: list, operands: tuple) -> tuple[dict[str, int], int]:
    """How many operands each label appears in, and the dimensions the ellipsis stands for;
    PyTorch's errors for subscripts that do not fit the operands."""
    counts: dict[str, int] = {}
    ell_dims = 0
    sizes: dict[str, int] = {}
    for i, (term, op) in enumerate(zip(inputs, operands)):
        n = len([s for s in term if s != _ELLIPSIS])
        if _ELLIPSIS in term:
            if n > op.ndim:
                raise RuntimeError(
                    f"einsum(): the number of subscripts in the equation ({n}) is more than the "
                    f"number of dimensions ({op.ndim}) for operand {i}"
                )
            ell_dims = max(ell_dims, op.ndim - n)
        elif n != op.ndim:
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({n}) does not match the "
                f"number of dimensions ({op.ndim}) for operand {i} and no ellipsis was given"
            )
        j = 0
        for s in term:
            if s == _ELLIPSIS:
                j += op.ndim - n
                continue
            counts[s] = counts.get(s, 0) + 1
            size = op.shape[j]
            seen = sizes.get(s)
            if seen is not None and seen != size and 1 not in (seen, size):
                raise RuntimeError(
                    f"einsum(): subscript {s} has size {size} for operand {i} which does not "
                    f"broadcast with previously seen size {seen}"
                )
            sizes[s] = size if seen in (None, 1) else seen
            j += 1
    return counts, ell_dims


def _positions(
    counts: dict[str, int], output: list | None, ell_dims: int
) -> tuple[dict[str, int], int, int, int]:
    """Each label's dimension in the permuted operands (the output's first, in its order; then
    the summed ones, sorted), where the ellipsis starts, the output's and all dimensions."""
    position: dict[str, int] = {}
    index = 0
    if output is None:
        ell_index, index = 0, ell_dims
        for s in sorted(counts):
            if counts[s] == 1:
                position[s] = index
                index += 1
        has_ell_out = True
    else:
        has_ell_out = False
        ell_index = -1
        for s in output:
            if s == _ELLIPSIS:
                ell_index, has_ell_out = index, True
                index += ell_dims
                continue
            if s not in counts:
                raise RuntimeError(
                    f"einsum(): output subscript {s} does not appear in the equation for any "
                    "input operand"
                )
            if s in position:
                raise RuntimeError(
                    f"einsum(): output subscript {s} appears more than once in the output"
                )
            position[s] = index
            index += 1
    out_dims = index
    if not has_ell_out:
        ell_index = index
        index += ell_dims
    for s in sorted(counts):
        if s not in position:
            position[s] = index
            index += 1
    return position, ell_index, out_dims, index


def _contract(permuted: list, out_dims: int, n_dims: int) -> Tensor:
    """PyTorch's left-to-right contraction: each summed dimension goes when the last operand
    that has it is multiplied in (squeezed where an operand has it of size 1)."""
    last_op = [0] * n_dims
    for i, op in enumerate(permuted):
        for d in range(n_dims):
            if op.shape[d] != 1:
                last_op[d] = i
    result = permuted[0]
    dim = out_dims
    for d in range(out_dims, n_dims):
        if last_op[d] == 0:
            result = views.squeeze(result, dim) if result.shape[dim] == 1 else _sum(result, dim)
            dim -= 1
        dim += 1
    for i in range(1, len(permuted)):
        operand = permuted[i]
        sum_dims = []
        dim = out_dims
        for d in range(out_dims, n_dims):
            if last_op[d] < i:
                operand = views.squeeze(operand, dim)
                dim -= 1
            elif last_op[d] == i:
                if result.shape[dim] == 1:
                    operand = _sum(operand, dim)
                    result = views.squeeze(result, dim)
                    dim -= 1
                elif operand.shape[dim] == 1:
                    result = _sum(result, dim)
                    operand = views.squeeze(operand, dim)
                    dim -= 1
                else:
                    sum_dims.append(dim)
            dim += 1
        result = _sum_product(result, operand, sum_dims) if sum_dims else mul(result, operand)
    return result


def _permuted(
    op: Tensor, term: list, position: dict, ell_index: int, ell_dims: int, n_dims: int
) -> Tensor:
    """The operand with one dimension per label, in the result's order (repeated labels taken
    along their diagonal, missing ones as size-1 dimensions)."""
    permutation = [-1] * n_dims
    label_dim: dict[str, int] = {}
    j = 0
    n_labels = len([s for s in term if s != _ELLIPSIS])
    for s in term:
        if s == _ELLIPSIS:
            covered = op.ndim - n_labels
            for k in range(ell_dims - covered, ell_dims):
                permutation[ell_index + k] = j
                j += 1
        elif s in label_dim:
            at = label_dim[s]
            op = views.movedim(diagonal(op, 0, at, j), -1, at)
        else:
            label_dim[s] = j
            permutation[position[s]] = j
            j += 1
    for k in range(n_dims):
        if permutation[k] == -1:
            op = views.unsqueeze(op, j)
            permutation[k] = j
            j += 1
    return views.permute(op, tuple(permutation))


def _sum_product(left: Tensor, right: Tensor, sum_dims: list) -> Tensor:
    """Multiplies and sums out `sum_dims` as one batched matrix product: permute, reshape, bmm,
    view, permute back, and a view without the summed dimensions."""
    ndim = left.ndim
    lro: list = []
    lo: list = []
    ro: list = []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(ndim):
        sl, sr = left.shape[i] > 1, right.shape[i] > 1
        if i in sum_dims:
            if sl and sr:
                sum_size *= left.shape[i]
            elif sl:
                left = _sum(left, i, True)
            elif sr:
                right = _sum(right, i, True)
        elif sl and sr:
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    out_size = (
        [left.shape[d] for d in lro]
        + [left.shape[d] for d in lo]
        + [1] * len(sum_dims)
        + [right.shape[d] for d in ro]
    )
    lperm = lro + lo + sum_dims + ro
    rperm = lro + sum_dims + ro + lo
    operm = [0] * len(lperm)
    for i, d in enumerate(lperm):
        operm[d] = i
    left = views.reshape(views.permute(left, tuple(lperm)), (lro_size, lo_size, sum_size))
    right = views.reshape(views.permute(right, tuple(rperm)), (lro_size, sum_size, ro_size))
    result = views.permute(views.view(bmm(left, right), tuple(out_size)), tuple(operm))
    sizes = [s for i, s in enumerate(result.shape) if i not in sum_dims]
    return views.view(result, tuple(sizes))
