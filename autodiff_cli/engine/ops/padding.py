"""Padding ops of `torch.nn.functional.pad`: constant_pad_nd (any number of dims) and the
reflection/replication pads of 1-3 dims, each with its backward entry (ReflectionPad1DBackward0,
...), as PyTorch records them. `nn/functional_ops.py`'s `pad` calls them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.optable import defop
from .formula_ops import run


def _constant_pad(a: np.ndarray, pad: tuple, value: float) -> np.ndarray:
    """`pad` lists (before, after) from the last dim backwards; negative values crop."""
    out = a
    widths = [(0, 0)] * a.ndim
    for k in range(len(pad) // 2):
        d = a.ndim - 1 - k
        before, after = pad[2 * k], pad[2 * k + 1]
        size = out.shape[d]
        index = [slice(None)] * a.ndim
        index[d] = slice(max(-before, 0), size - max(-after, 0))
        out = out[tuple(index)]
        widths[d] = (max(before, 0), max(after, 0))
    fill = np.asarray(value).astype(a.dtype)
    return np.pad(out, widths, mode="constant", constant_values=fill)


CONSTANT_PAD_ND = defop(
    "constant_pad_nd",
    "ConstantPadNdBackward0",
    lambda a, pad, value: _constant_pad(a, pad, value),
    lambda B, g, pad, value: run(B, CONSTANT_PAD_ND, g, pad=tuple(-p for p in pad), value=0),
    promotes=False,
    rules=("1 inside the input, 0 on the padding (the gradient cropped)",),
)


def _source_index(size: int, before: int, after: int, mode: str) -> np.ndarray:
    """For each output position along one dim, the input position it copies."""
    return np.pad(np.arange(size), (before, after), mode="reflect" if mode == "reflect" else "edge")


def _index_pad(a: np.ndarray, pad: tuple, mode: str) -> np.ndarray:
    out = a
    for k in range(len(pad) // 2):
        d = a.ndim - 1 - k
        out = np.take(out, _source_index(a.shape[d], pad[2 * k], pad[2 * k + 1], mode), axis=d)
    return out


def _index_pad_backward(g: np.ndarray, in_shape: tuple, pad: tuple, mode: str) -> np.ndarray:
    """Each output position's gradient added to the input position it copies, in the order of
    the output positions (PyTorch's loop: the float32 sums round the same way)."""
    g = np.asarray(g)
    dims = len(pad) // 2
    lead = len(in_shape) - dims
    sources = [
        _source_index(in_shape[lead + j], pad[2 * k], pad[2 * k + 1], mode)
        for j, k in enumerate(reversed(range(dims)))
    ]
    inner = tuple(in_shape[lead:])
    flat = np.ravel_multi_index(np.ix_(*sources), inner).reshape(-1)
    rows = int(np.prod(in_shape[:lead], dtype=np.int64))
    acc = np.zeros((rows, int(np.prod(inner, dtype=np.int64))), g.dtype)
    moved = g.reshape(rows, -1)
    for r in range(rows):
        np.add.at(acc[r], flat, moved[r])
    return acc.reshape(in_shape)


def _pad_ops(mode: str, dims: int) -> tuple:
    kind = "Reflection" if mode == "reflect" else "Replication"
    name = f"{kind.lower()}_pad{dims}d"

    def backward_op_grad(B: Any, gg: Any, pad: tuple, mode: str) -> Any:
        return run(B, forward_op, gg, pad=pad, mode=mode)

    backward_op = defop(
        name + "_backward",
        f"{kind}Pad{dims}DBackwardBackward0",
        lambda g, x, pad, mode: _index_pad_backward(g, x.shape, pad, mode),
        backward_op_grad,
        lambda B, gg, pad, mode: None,
        promotes=False,
        arg_names=("grad_output", "self"),
        rules=("the padding of the incoming gradient", "0"),
    )

    def forward_grad(B: Any, g: Any, x: Any, pad: tuple, mode: str) -> Any:
        return run(B, backward_op, g, x, pad=pad, mode=mode)

    forward_op = defop(
        name,
        f"{kind}Pad{dims}DBackward0",
        lambda a, pad, mode: _index_pad(a, pad, mode),
        forward_grad,
        saves=(0,),
        promotes=False,
        rules=("the gradient of each padded position added to the input position it copies",),
    )
    return forward_op, backward_op


PAD_OPS = {
    (mode, dims): _pad_ops(mode, dims) for mode in ("reflect", "replicate") for dims in (1, 2, 3)
}
PAD_MODES = ("constant", "reflect", "replicate", "circular")
