"""The recurrent layers: `RNN`, `LSTM`, `GRU` and their cells, with PyTorch's parameters
(`weight_ih_l0`, `bias_hh_l0_reverse`, ...), initialisation order and CPU graph.

PyTorch's CPU implementation is built from ordinary ops (aten/native/RNN.cpp), and so is this
one, in the same order, so that the graph shows PyTorch's nodes: the input projection of a whole
sequence at once (`linear` then `unbind`), per step `linear_hh(h) + x_t` and the cell's gates
(`unsafe_chunk`, sigmoid, tanh), the steps' outputs stacked, the two directions concatenated,
`batch_first` output transposed in place. A float32 LSTM is the exception: PyTorch runs each layer
and direction as one oneDNN kernel (MkldnnRnnLayerBackward0, `ops/recurrent.py`).
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any

import numpy as np

from ...core.tensor import Tensor
from ...ops import recurrent
from ...ops.arithmetic import stack, unbind
from ...ops.creation import zeros
from ...ops.unary import relu, sigmoid, tanh
from ...ops.views import cat
from ...pytorch_home import name_classes_after
from .. import functional as F
from .. import init
from ..module import Module
from ..parameter import Parameter, parameter_storage

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


# -- cells (one time step), as RNN.cpp's SimpleCell, LSTMCell, GRUCell -------------------------


def _linear(x: Tensor, w: Tensor, b: Tensor | None) -> Tensor:
    return F.linear(x, w, b)


def _simple_step(nonlinearity: Any, x: Tensor, h: Tensor, p: tuple, projected: bool) -> Tensor:
    ih = x if projected else _linear(x, p[0], p[2])
    return nonlinearity(_linear(h, p[1], p[3]) + ih)


def _lstm_step(x: Tensor, state: tuple, p: tuple, projected: bool) -> tuple:
    h, c = state
    gates = _linear(h, p[1], p[3]) + (x if projected else _linear(x, p[0], p[2]))
    i, f, g, o = recurrent.unsafe_chunk(gates, 4, 1)
    i, f, g, o = sigmoid(i), sigmoid(f), tanh(g), sigmoid(o)
    c = f * c + i * g
    h = o * tanh(c)
    if len(p) > 4:  # projections: h_t = W_hr h_t
        h = h.matmul(p[4].t())
    return h, c


def _gru_step(x: Tensor, h: Tensor, p: tuple, projected: bool) -> Tensor:
    gi = recurrent.unsafe_chunk(x if projected else _linear(x, p[0], p[2]), 3, 1)
    gh = recurrent.unsafe_chunk(_linear(h, p[1], p[3]), 3, 1)
    reset = sigmoid(gh[0] + gi[0])
    update = sigmoid(gh[1] + gi[1])
    new = tanh(gi[2] + gh[2] * reset)
    return (h - new) * update + new


def _step_function(mode: str) -> Any:
    if mode == "LSTM":
        return _lstm_step
    if mode == "GRU":
        return _gru_step
    nonlinearity = tanh if mode == "RNN_TANH" else relu
    return lambda x, h, p, projected: _simple_step(nonlinearity, x, h, p, projected)


def _output_of(mode: str, state: Any) -> Tensor:
    return state[0] if mode == "LSTM" else state


# -- layers ------------------------------------------------------------------------------------


def _run_direction(mode: str, x: Tensor, state: Any, p: tuple, reverse: bool) -> tuple:
    """One direction of one layer over a (T, B, *) input: (stacked outputs, final state)."""
    step = _step_function(mode)
    inputs = unbind(_linear(x, p[0], p[2]), 0)
    outputs = []
    order = range(len(inputs) - 1, -1, -1) if reverse else range(len(inputs))
    for t in order:
        state = step(inputs[t], state, p, True)
        outputs.append(_output_of(mode, state))
    if reverse:
        outputs.reverse()
    return stack(outputs, 0), state


def _run_layers(module: RNNBase, x: Tensor, hidden: Any) -> tuple:
    """The layer stack of RNN.cpp's `_rnn_impl_with_concat` (or of its oneDNN LSTM): the last
    layer's output, and the final states stacked in (layer, direction) order."""
    mode, directions = module.mode, 2 if module.bidirectional else 1
    fused = mode == "LSTM" and x._data.dtype == np.float32 and module.proj_size == 0
    if mode == "LSTM":
        starts = list(zip(unbind(hidden[0], 0), unbind(hidden[1], 0))) if not fused else None
    else:
        starts = unbind(hidden, 0)
    finals = []
    layer_input = x
    for layer in range(module.num_layers):
        outputs = []
        for direction in range(directions):
            index = layer * directions + direction
            p = module._layer_weights(index)
            if fused:
                out, h, c = recurrent.mkldnn_lstm_layer(
                    layer_input, p, hidden[0][index], hidden[1][index], direction == 1
                )
                finals.append((h, c))
            else:
                out, state = _run_direction(mode, layer_input, starts[index], p, direction == 1)
                finals.append(state)
            outputs.append(out)
        layer_input = outputs[0] if directions == 1 else cat(outputs, outputs[0].ndim - 1)
        if module.dropout != 0 and module.training and layer < module.num_layers - 1:
            layer_input = F.dropout(layer_input, module.dropout, True)
    if mode == "LSTM":
        return layer_input, (stack([s[0] for s in finals], 0), stack([s[1] for s in finals], 0))
    return layer_input, stack(finals, 0)


def _reset_uniform(module: Module) -> None:
    """PyTorch's recurrent init: every parameter, in order, from U(-1/√hidden, 1/√hidden)."""
    stdv = 1.0 / math.sqrt(module.hidden_size) if module.hidden_size > 0 else 0
    for weight in module.parameters():
        init.uniform_(weight, -stdv, stdv)


class RNNBase(Module):
    """What RNN, LSTM and GRU share: parameters per (layer, direction), checks, the forward."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        _check_arguments(mode, hidden_size, num_layers, dropout, proj_size)
        directions = 2 if bidirectional else 1
        real_hidden = proj_size if proj_size > 0 else hidden_size
        gate_size = _GATES[mode] * hidden_size
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input = input_size if layer == 0 else real_hidden * directions
                shapes = [(gate_size, layer_input), (gate_size, real_hidden)]
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    shapes += [(gate_size,), (gate_size,)]
                    names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if proj_size > 0:
                    shapes.append((proj_size, hidden_size))
                    names.append("weight_hr_l{}{}")
                suffix = "_reverse" if direction == 1 else ""
                names = [n.format(layer, suffix) for n in names]
                for name, shape in zip(names, shapes):
                    setattr(self, name, Parameter(parameter_storage(shape, dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _reset_uniform(self)

    def flatten_parameters(self) -> None:
        """Accepted for compatibility (cuDNN's contiguous weights): nothing to do on CPU."""

    @property
    def _flat_weights(self) -> list:
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list:
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def _layer_weights(self, index: int) -> tuple:
        """(w_ih, w_hh, b_ih, b_hh[, w_hr]) of one (layer, direction); None biases without."""
        names = self._all_weights[index]
        w = [getattr(self, name) for name in names]
        if not self.bias:
            w[2:2] = [None, None]
        return tuple(w)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    # -- forward -------------------------------------------------------------------------------
    def _name(self) -> str:
        return type(self).__name__ if self.mode not in ("RNN_TANH", "RNN_RELU") else "RNN"

    def _state_shape(self, batch: int, cell: bool = False) -> tuple:
        size = self.hidden_size if cell or self.proj_size == 0 else self.proj_size
        return (self.num_layers * (2 if self.bidirectional else 1), batch, size)

    def forward(self, input: Tensor, hx: Any = None) -> tuple:
        ndim = input.ndim
        if ndim not in (2, 3):
            tail = " tensor" if self._name() == "RNN" else ""
            raise ValueError(
                f"{self._name()}: Expected input to be 2D or 3D, got {ndim}D{tail} instead"
            )
        weight_dtype = getattr(self, self._flat_weights_names[0]).dtype
        if input.dtype != weight_dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight_dtype}). "
                f"Convert input: input.to({weight_dtype}), or convert model: "
                f"model.to({input.dtype})"
            )
        batched = ndim == 3
        batch_dim = 0 if self.batch_first else 1
        lstm = self.mode == "LSTM"
        if not batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                hx = _unsqueeze_state(hx, lstm)
        elif hx is not None:
            _check_batched_state(hx, lstm)
        batch = input.shape[0 if self.batch_first else 1]
        if hx is None:
            h = zeros(*self._state_shape(batch), dtype=input.dtype, device=input.device)
            hx = (
                (h, zeros(*self._state_shape(batch, True), dtype=input.dtype, device=input.device))
                if lstm
                else h
            )
        self._check_forward_args(input, hx, batch)
        x = input.transpose(0, 1) if self.batch_first else input
        if x.shape[0] == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        output, hidden = _run_layers(self, x, hx)
        if self.batch_first:
            # (LSTM turns its output back out of place, RNN and GRU in place: PyTorch's nodes)
            output = output.transpose(0, 1) if lstm else recurrent.transpose_result(output, 0, 1)
        if not batched:
            output = output.squeeze(batch_dim)
            hidden = tuple(s.squeeze(1) for s in hidden) if lstm else hidden.squeeze(1)
        return output, hidden

    def _check_forward_args(self, input: Tensor, hx: Any, batch: int) -> None:
        if input.shape[-1] != self.input_size:
            raise RuntimeError(
                "input.size(-1) must be equal to input_size. Expected "
                f"{self.input_size}, got {input.shape[-1]}"
            )
        if self.mode == "LSTM":
            if not isinstance(hx, tuple):
                raise TypeError(
                    "lstm(): argument 'hx' (position 2) must be tuple of Tensors, not "
                    + type(hx).__name__
                )
            _check_hidden(hx[0], self._state_shape(batch), "Expected hidden[0] size {}, got {}")
            _check_hidden(
                hx[1], self._state_shape(batch, True), "Expected hidden[1] size {}, got {}"
            )
        else:
            _check_hidden(hx, self._state_shape(batch), "Expected hidden size {}, got {}")


def _check_arguments(
    mode: str, hidden_size: int, num_layers: int, dropout: Any, proj_size: int
) -> None:
    if (
        not isinstance(dropout, numbers.Number)
        or isinstance(dropout, bool)
        or not 0 <= dropout <= 1
    ):
        raise ValueError(
            "dropout should be a number in range [0, 1] representing the probability of an "
            "element being zeroed"
        )
    if dropout > 0 and num_layers == 1:
        warnings.warn(
            "dropout option adds dropout after all but last recurrent layer, so non-zero "
            "dropout expects num_layers greater than 1, but got "
            f"dropout={dropout} and num_layers={num_layers}",
            stacklevel=3,
        )
    if not isinstance(hidden_size, int) or isinstance(hidden_size, bool):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")
    if proj_size and mode != "LSTM":
        raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")


def _check_hidden(hx: Tensor, expected: tuple, message: str) -> None:
    if tuple(hx.shape) != expected:
        raise RuntimeError(message.format(expected, list(hx.shape)))


def _unsqueeze_state(hx: Any, lstm: bool) -> Any:
    if lstm:
        if hx[0].ndim != 2 or hx[1].ndim != 2:
            raise RuntimeError(
                "For unbatched 2-D input, hx and cx should also be 2-D but got "
                f"({hx[0].ndim}-D, {hx[1].ndim}-D) tensors"
            )
        return (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
    if hx.ndim != 2:
        raise RuntimeError(
            f"For unbatched 2-D input, hx should also be 2-D but got {hx.ndim}-D tensor"
        )
    return hx.unsqueeze(1)


def _check_batched_state(hx: Any, lstm: bool) -> None:
    if lstm:
        if isinstance(hx, tuple) and (hx[0].ndim != 3 or hx[1].ndim != 3):
            raise RuntimeError(
                "For batched 3-D input, hx and cx should also be 3-D but got "
                f"({hx[0].ndim}-D, {hx[1].ndim}-D) tensors"
            )
    elif hx.ndim != 3:
        raise RuntimeError(
            f"For batched 3-D input, hx should also be 3-D but got {hx.ndim}-D tensor"
        )


class RNN(RNNBase):
    """Elman RNN: `h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)` (or ReLU)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self_nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self_nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self_nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self_nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(
                f"Unknown nonlinearity '{self_nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        super().__init__(mode, *args, **kwargs)
        self.nonlinearity = self_nonlinearity


class LSTM(RNNBase):
    """Long short-term memory: gates i, f, g, o; returns `(output, (h_n, c_n))`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)


class GRU(RNNBase):
    """Gated recurrent unit: reset, update and new gates (PyTorch's order r, z, n)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)


# -- cells -------------------------------------------------------------------------------------


class RNNCellBase(Module):
    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool,
        num_chunks: int,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(parameter_storage((num_chunks * hidden_size, input_size), dtype))
        self.weight_hh = Parameter(
            parameter_storage((num_chunks * hidden_size, hidden_size), dtype)
        )
        if bias:
            self.bias_ih = Parameter(parameter_storage((num_chunks * hidden_size,), dtype))
            self.bias_hh = Parameter(parameter_storage((num_chunks * hidden_size,), dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nonlinearity = self.__dict__.get("nonlinearity", "tanh")
        if nonlinearity != "tanh":
            s += f", nonlinearity={nonlinearity}"
        return s

    def reset_parameters(self) -> None:
        _reset_uniform(self)

    def _params(self) -> tuple:
        return (self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)

    def _prepare(self, input: Tensor, hx: Any, lstm: bool = False) -> tuple:
        """(batched input, batched state, whether the input was batched), checked."""
        name = type(self).__name__
        if input.ndim not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.ndim}D instead")
        states = hx if lstm and isinstance(hx, tuple) else (hx,)
        for state in states:
            if state is not None and isinstance(state, Tensor) and state.ndim not in (1, 2):
                raise ValueError(
                    f"{name}: Expected hidden to be 1D or 2D, got {state.ndim}D instead"
                )
        batched = input.ndim == 2
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            h = zeros(input.shape[0], self.hidden_size, dtype=input.dtype, device=input.device)
            self._check(input, h, "hidden0")
            return input, ((h, h) if lstm else h), batched
        if lstm and not isinstance(hx, tuple):
            raise TypeError(
                "lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not "
                + type(hx).__name__
            )
        if not batched:
            hx = tuple(s.unsqueeze(0) for s in hx) if lstm else hx.unsqueeze(0)
        self._check(input, hx[0] if lstm else hx, "hidden0")
        if lstm:
            self._check(input, hx[1], "hidden1")
        return input, hx, batched

    def _check(self, input: Tensor, hx: Tensor, name: str) -> None:
        if input.shape[1] != self.input_size:
            raise RuntimeError(
                f"input has inconsistent input_size: got {input.shape[1]} expected "
                f"{self.input_size}"
            )
        if input.shape[0] != hx.shape[0]:
            raise RuntimeError(
                f"Input batch size {input.shape[0]} doesn't match {name} batch size {hx.shape[0]}"
            )
        if hx.shape[1] != self.hidden_size:
            raise RuntimeError(
                f"{name} has inconsistent hidden_size: got {hx.shape[1]}, expected "
                f"{self.hidden_size}"
            )


_NONLINEARITIES = {"tanh": tanh, "relu": relu}


class RNNCell(RNNCellBase):
    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        nonlinearity: str = "tanh",
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, batched = self._prepare(input, hx)
        nonlinearity = _NONLINEARITIES.get(self.nonlinearity)
        if nonlinearity is None:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        out = _simple_step(nonlinearity, input, hx, self._params(), False)
        return out if batched else out.squeeze(0)


class _GatedCell(RNNCellBase):
    """LSTMCell and GRUCell: PyTorch's signature, `_chunks` gates of `hidden_size` each."""

    _chunks = 1

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=self._chunks, dtype=dtype)


class LSTMCell(_GatedCell):
    _chunks = 4

    def forward(self, input: Tensor, hx: tuple | None = None) -> tuple:
        input, hx, batched = self._prepare(input, hx, lstm=True)
        h, c = _lstm_step(input, hx, self._params(), False)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(_GatedCell):
    _chunks = 3

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, hx, batched = self._prepare(input, hx)
        out = _gru_step(input, hx, self._params(), False)
        return out if batched else out.squeeze(0)


name_classes_after(globals(), "torch.nn.modules.rnn")
