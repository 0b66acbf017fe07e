"""`torch.autograd.functional.jacobian(..., strategy="forward-mode", vectorize=True)`: the
Jacobian one input element at a time, as the tangent of the outputs (forward-mode AD)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ops.arithmetic import stack
from ..ops.creation import zeros
from .forward_ad import dual_level, make_dual, unpack_dual


def forward_jacobian(
    func: Callable, ins: tuple, in_tuple: bool, outputs: Callable[[Any], tuple[tuple, bool]]
) -> Any:
    """J[i][j] (shape out_i.shape + in_j.shape) from one forward pass per input element; as
    PyTorch nests it: lists where the inputs were given as a tuple."""
    ins = tuple(x.detach() for x in ins)
    outs, out_tuple = outputs(func(*ins))
    blocks = [_blocks(func, ins, j, outs, outputs) for j in range(len(ins))]
    rows = [[blocks[j][i] for j in range(len(ins))] for i in range(len(outs))]
    shaped = [row if in_tuple else row[0] for row in rows]
    if not out_tuple:
        return shaped[0]
    return shaped if in_tuple else tuple(shaped)


def _blocks(func: Callable, ins: tuple, j: int, outs: tuple, outputs: Callable) -> list:
    """d out_i / d in_j for every output i: the outputs' tangents for each unit tangent of
    input j, one forward pass each."""
    x = ins[j]
    columns: list[list] = [[] for _ in outs]
    for k in range(x.numel()):
        unit = zeros(x.numel(), dtype=x.dtype)
        unit[k] = 1.0
        args = list(ins)
        with dual_level():
            args[j] = make_dual(x, unit.reshape(tuple(x.shape)))
            found = [unpack_dual(o).tangent for o in outputs(func(*args))[0]]
        for i, (out, tangent) in enumerate(zip(outs, found)):
            column = zeros(out.numel(), dtype=out.dtype) if tangent is None else tangent.reshape(-1)
            columns[i].append(column)
    shapes = [tuple(out.shape) + tuple(x.shape) for out in outs]
    return [
        stack(cols, 1).reshape(shape) if cols else zeros(shape, dtype=out.dtype)
        for cols, shape, out in zip(columns, shapes, outs)
    ]
