"""The ops behind the recurrent layers that PyTorch records as nodes of their own.

- `unsafe_split` (UnsafeSplitBackward0): the gate split of GRU and LSTM cells (`unsafe_chunk`),
  pieces that are copies, not views.
- `transpose_` of a recurrent layer's own result (TransposeBackward1): `batch_first` RNN and GRU
  turn their output back in place.
- `mkldnn_rnn_layer` (MkldnnRnnLayerBackward0): one direction of one float32 LSTM layer, which
  PyTorch's CPU build runs as one fused oneDNN kernel. Outputs (output, h_n, c_n); edges to
  (input, w_ih, w_hh, b_ih, b_hh, hx, cx). Its backward is backpropagation through time on
  arrays, or, under create_graph, the same steps on Tensors (the gradients then have a graph,
  as PyTorch's do).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import kernels
from ..core.apply import apply_op
from ..core.optable import defop
from ..core.tensor import Tensor
from .inplace_methods import transpose_
from .views import _concat_grads, _split, cat, stack

__all__: list[str] = []


UNSAFE_SPLIT = defop(
    "unsafe_split",
    "UnsafeSplitBackward0",
    lambda a, dim, sizes: tuple(np.array(p) for p in _split(a, dim, sizes)),
    lambda B, grads, dim, sizes: _concat_grads(B, grads, dim),
    n_outputs=-1,
    rules=("1 at each piece",),
)


def unsafe_chunk(input: Tensor, chunks: int, dim: int) -> tuple:
    """`input.unsafe_chunk(chunks, dim)` of a size divisible by `chunks` (the gates)."""
    size = input._data.shape[dim] // chunks
    return apply_op(UNSAFE_SPLIT, (input,), {"dim": dim, "sizes": (size,) * chunks})


def transpose_result(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """A recurrent layer's `output.transpose_(dim0, dim1)` (its own, unshared result)."""
    return transpose_(input, dim0, dim1)


# -- the fused LSTM layer ----------------------------------------------------------------------


def _steps(length: int, reverse: bool) -> range:
    return range(length - 1, -1, -1) if reverse else range(length)


class _Arrays:
    """The few functions BPTT needs, on numpy arrays (an ordinary backward pass)."""

    sigmoid = staticmethod(kernels.sigmoid)
    tanh = staticmethod(np.tanh)

    @staticmethod
    def split4(gates: Any) -> list:
        return np.split(gates, 4, axis=1)

    @staticmethod
    def cat(parts: list) -> Any:
        return np.concatenate(parts, axis=1)

    @staticmethod
    def stack(parts: list) -> Any:
        return np.stack(parts, 0)


class _Tensors:
    """The same on Tensors (under create_graph: the gradients get a graph of their own)."""

    @staticmethod
    def sigmoid(x: Tensor) -> Tensor:
        return x.sigmoid()

    @staticmethod
    def tanh(x: Tensor) -> Tensor:
        return x.tanh()

    @staticmethod
    def split4(gates: Tensor) -> tuple:
        return gates.chunk(4, 1)

    @staticmethod
    def cat(parts: list) -> Tensor:
        return cat(parts, 1)

    @staticmethod
    def stack(parts: list) -> Tensor:
        return stack(parts, 0)


def _lstm_steps(f, x, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse) -> tuple:
    """The forward pass step by step (with `f` = _Arrays or _Tensors): per step the outputs,
    the gate activations and the cell state before and after (for the backward)."""
    steps, batch = x.shape[0], x.shape[1]
    projected = (x.reshape(steps * batch, x.shape[2]) @ w_ih.T).reshape(steps, batch, -1)
    if b_ih is not None:
        projected = projected + b_ih
    h, c = hx, cx
    record = []
    for t in _steps(x.shape[0], reverse):
        gates = h @ w_hh.T
        if b_hh is not None:
            gates = gates + b_hh
        gates = gates + projected[t]
        i, fg, g, o = f.split4(gates)
        i, fg, o, g = f.sigmoid(i), f.sigmoid(fg), f.sigmoid(o), f.tanh(g)
        c_next = fg * c + i * g
        tanh_c = f.tanh(c_next)
        h_prev, h = h, o * tanh_c
        record.append((t, i, fg, g, o, c, tanh_c, h_prev, h))
        c = c_next
    return h, c, record


def _lstm_forward(x, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse: bool = False) -> tuple:
    h, c, record = _lstm_steps(_Arrays, x, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse)
    out = np.empty(x.shape[:2] + (w_hh.shape[1],), x.dtype)
    for step in record:
        out[step[0]] = step[-1]
    return out, np.asarray(h), np.asarray(c)


def _lstm_backward(f, grads, x, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse) -> tuple:
    """Backpropagation through time: the gradients of the seven inputs."""
    _, _, record = _lstm_steps(f, x, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse)
    g_out, g_h, g_c = grads
    dh, dc = g_h, g_c
    dx: list = [None] * x.shape[0]
    dw_ih = dw_hh = db = None
    for t, i, fg, g, o, c_prev, tanh_c, h_prev, _ in reversed(record):
        if g_out is not None:
            dh = g_out[t] if dh is None else dh + g_out[t]
        if dh is None:  # nothing flows back into this step yet
            d_o = None
            dc_step = dc
        else:
            d_o = dh * tanh_c
            through = dh * o * (1 - tanh_c * tanh_c)
            dc_step = through if dc is None else dc + through
        if dc_step is None:
            dx[t] = x[t] * 0
            continue
        d_i, d_g, d_f = dc_step * g, dc_step * i, dc_step * c_prev
        dc = dc_step * fg
        d_o = d_o if d_o is not None else dc_step * 0
        d_gates = f.cat(
            [d_i * i * (1 - i), d_f * fg * (1 - fg), d_g * (1 - g * g), d_o * o * (1 - o)]
        )
        terms = (d_gates.T @ h_prev, d_gates.T @ x[t], d_gates.sum(0))
        if dw_hh is None:
            dw_hh, dw_ih, db = terms
        else:
            dw_hh, dw_ih, db = dw_hh + terms[0], dw_ih + terms[1], db + terms[2]
        dx[t] = d_gates @ w_ih
        dh = d_gates @ w_hh
    if dw_hh is None:
        dw_hh, dw_ih, db = w_hh * 0, w_ih * 0, w_ih[:, 0] * 0
    dh = hx * 0 if dh is None else dh
    dc = cx * 0 if dc is None else dc
    return f.stack(dx), dw_ih, dw_hh, db, db * 1, dh, dc


class _LastBackward:
    """The seven gradients of the node being run (its formulas run one after another on the
    same gradients and saved values: BPTT runs once for them)."""

    key: tuple = ()
    outputs: tuple = ()


def _lstm_grad(index: int) -> Any:
    def formula(B, grads, input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse=False):
        key = (*grads, input, w_ih, w_hh, b_ih, b_hh, hx, cx)
        last = _LastBackward.key
        if len(last) != len(key) or not all(a is b for a, b in zip(last, key)):
            f = _Tensors if B.creates_graph else _Arrays
            _LastBackward.outputs = _lstm_backward(
                f, grads, input, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse
            )
            _LastBackward.key = key
        return _LastBackward.outputs[index]

    return formula


MKLDNN_RNN_LAYER = defop(
    "mkldnn_rnn_layer",
    "MkldnnRnnLayerBackward0",
    _lstm_forward,
    *(_lstm_grad(i) for i in range(7)),
    saves=(0, 1, 2, 3, 4, 5, 6),
    promotes=False,
    n_outputs=3,
    arg_names=("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_"),
    rules=("backpropagation through time",) * 7,
)


def mkldnn_lstm_layer(
    input: Tensor, weights: tuple, hx: Tensor, cx: Tensor, reverse: bool
) -> tuple:
    """One direction of one LSTM layer as one node: (output, h_n, c_n)."""
    w_ih, w_hh, b_ih, b_hh = weights
    return apply_op(MKLDNN_RNN_LAYER, (input, w_ih, w_hh, b_ih, b_hh, hx, cx), {"reverse": reverse})
