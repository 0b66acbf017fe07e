"""`_trilinear`, the kernel of `F.bilinear` / `nn.Bilinear`: `out[b, o] = Σ_ij x1[b, i] ·
W[o, i, j] · x2[b, j]` (TrilinearBackward0, edges to x1, W and x2).

PyTorch's `_trilinear` is general (expand and sum dimensions) and its gradients are `_trilinear`
calls again, on the output gradient and the two other inputs. Here an einsum `spec` says which
product of three operands the entry computes (bilinear's is `bi,oij,bj->bo`); each gradient is
the entry with the spec that moves that operand's subscripts to the result, so gradients of any
order are TrilinearBackward0 nodes, as PyTorch's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.optable import defop
from .formula_ops import run

BILINEAR_SPEC = "bi,oij,bj->bo"


def _trilinear(a: np.ndarray, b: np.ndarray, c: np.ndarray, spec: str) -> np.ndarray:
    return np.asarray(np.einsum(spec, a, b, c), np.result_type(a, b, c))


def _grad(which: int) -> Any:
    """d/d operand `which`: the product of the output gradient and the two other operands,
    with that operand's subscripts as the result."""

    def formula(B: Any, g: Any, i1: Any, i2: Any, i3: Any, spec: str) -> Any:
        terms, result = spec.split("->")
        subscripts = terms.split(",")
        operands = (i1, i2, i3)
        others = [k for k in range(3) if k != which]
        inner = f"{result},{subscripts[others[0]]},{subscripts[others[1]]}->{subscripts[which]}"
        return run(B, TRILINEAR, g, operands[others[0]], operands[others[1]], spec=inner)

    return formula


TRILINEAR = defop(
    "_trilinear",
    "TrilinearBackward0",
    _trilinear,
    _grad(0),
    _grad(1),
    _grad(2),
    arg_names=("i1", "i2", "i3"),
    saves=(0, 1, 2),
    rules=(
        "the product of grad and the other two operands (summed over the rest)",
        "the product of grad and the other two operands (summed over the rest)",
        "the product of grad and the other two operands (summed over the rest)",
    ),
)
