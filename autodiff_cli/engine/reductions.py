"""Reductions along a dimension that return values and indices (`max(dim)`, `min(dim)`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .optable import defop

__all__: list[str] = []  # torch-level functions defined here
from .tensor import Tensor, _norm_dim, _wrap, apply_op


class return_types_max(tuple):  # noqa: N801
    """`torch.return_types.max(values=..., indices=...)`."""

    _name = "max"

    def __new__(cls, values: Tensor, indices: Tensor):
        return super().__new__(cls, (values, indices))

    @property
    def values(self) -> Tensor:
        return self[0]

    @property
    def indices(self) -> Tensor:
        return self[1]

    def __repr__(self) -> str:
        return f"torch.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"


class return_types_min(return_types_max):  # noqa: N801
    _name = "min"


def _values_at(a: Any, dim: int, keepdim: bool, pick: Any) -> tuple:
    idx = pick(a, axis=dim)
    values = np.take_along_axis(a, np.expand_dims(idx, dim), axis=dim)
    if not keepdim:
        values = np.squeeze(values, dim)
    else:
        idx = np.expand_dims(idx, dim)
    return values, idx.astype(np.int64)


def _scatter_grad(B: Any, g: Any, indices: Any, dim: int, keepdim: bool, shape: tuple) -> Any:
    if B.creates_graph:
        g = g._data
    g = np.asarray(g)
    idx = np.asarray(indices)
    if not keepdim:
        g = np.expand_dims(g, dim)
        idx = np.expand_dims(idx, dim)
    out = np.zeros(shape, dtype=g.dtype)
    np.put_along_axis(out, idx, g, axis=dim)
    return _wrap(out) if B.creates_graph else out


def _dim_op(op_name: str, pick: Any, grad_fn: str, result_type: type):
    def forward(a: Any, dim: int, keepdim: bool, shape: tuple) -> tuple:
        return _values_at(a, dim, keepdim, pick)

    op = defop(
        op_name,
        grad_fn,
        forward,
        lambda B, grads, dim, keepdim, shape, indices=None: _scatter_grad(
            B, grads[0], indices, dim, keepdim, shape
        ),
        n_outputs=-1,
        rules=("1 at the selected element",),
    )

    def fn(input: Tensor, dim: int, keepdim: bool = False) -> Any:
        d = _norm_dim(dim, input.ndim)
        data = input._data if input.ndim else input._data.reshape(1)
        values, indices = (
            apply_op(op, (input,), {"dim": d, "keepdim": keepdim, "shape": data.shape})
            if input.ndim
            else (input, _wrap(np.asarray(0, dtype=np.int64)))
        )
        if values.grad_fn is not None:
            values.grad_fn._params = dict(values.grad_fn._params, indices=indices._data)
        indices._requires_grad = False
        indices._grad_fn = None
        return result_type(values, indices)

    return fn


max_dim = _dim_op("max_dim_values", np.argmax, "MaxBackward0", return_types_max)
min_dim = _dim_op("min_dim_values", np.argmin, "MinBackward0", return_types_min)
