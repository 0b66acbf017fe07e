"""Small Tensor methods and properties of PyTorch's surface built on existing ops: dtype and
size queries (`is_signed`, `nbytes`, `is_same_size`...), `type_as`, `new_full`, `byte`/`char`,
`sum_to_size`, `split_with_sizes`, the matrix transposes (`mT`; a real tensor's conjugate
transposes `H`, `mH`, `adjoint`) and the conjugation no-ops (`conj`, `resolve_conj`...: the
engine has no complex dtypes)."""

from __future__ import annotations

from typing import Any

from ..core import dtypes
from ..core.optable import tensor_methods
from ..core.tensor import Tensor, _dims_text
from . import arithmetic, views
from .conversion import _converter, new_filled


def type_as(self: Tensor, other: Tensor) -> Tensor:
    return self.to(other.dtype)


def new_full(
    self: Tensor,
    size: Any,
    fill_value: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    return new_filled(self, (size,), fill_value, dtype, device, requires_grad)


def is_signed(self: Tensor) -> bool:
    return self._data.dtype.kind in "if"


def is_nonzero(self: Tensor) -> bool:
    size = self._data.size
    if size != 1:
        amount = "more than one value" if size else "no values"
        raise RuntimeError(f"Boolean value of Tensor with {amount} is ambiguous")
    return bool(self._data.reshape(()).item() != 0)


def is_same_size(self: Tensor, other: Tensor) -> bool:
    return self._data.shape == other._data.shape


def sum_to_size(self: Tensor, *size: Any) -> Tensor:
    """The sum of the broadcast dims that `size` does not have (SumBackward1, then a view when
    leading dims go); this tensor itself when it already has that size."""
    shape = tuple(arithmetic.shape_arg(size))
    mine = tuple(self._data.shape)
    lead = len(mine) - len(shape)
    if lead < 0 or any(s != 1 and s != m for s, m in zip(shape, mine[lead:])):
        raise RuntimeError(
            f"size {{{_dims_text(shape)}}} is not expandable to size {{{_dims_text(mine)}}}."
        )
    if shape == mine:
        return self
    dims = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape) if s == 1 and mine[lead + i] != 1
    )
    total = self.sum(dims, keepdim=True) if dims else self
    return total.view(shape) if lead else total


def split_with_sizes(self: Tensor, split_sizes: Any, dim: int = 0) -> tuple:
    return views.split(self, list(split_sizes), dim)


def _matrix_transpose(name: str, matrices_only: bool) -> Any:
    """`mT`, and `H` (2-D only), `mH`, `adjoint()`: the last two dims swapped (for a real
    tensor, its conjugate transpose too)."""

    def transpose(self: Tensor) -> Tensor:
        if matrices_only and self.ndim != 2:
            raise RuntimeError(
                f"tensor.{name} is only supported on matrices (2-D tensors). Got "
                f"{self.ndim}-D tensor."
            )
        if self.ndim < 2:
            raise RuntimeError(
                f"tensor.{name} is only supported on matrices or batches of matrices. Got "
                f"{self.ndim}-D tensor."
            )
        return views.transpose(self, -2, -1)

    return transpose


def _same(self: Tensor) -> Tensor:
    return self


def _false(self: Tensor) -> bool:
    return False


tensor_methods(
    "ops.derived_methods",
    {
        "type_as": type_as,
        "new_full": new_full,
        "is_signed": is_signed,
        "is_complex": _false,
        "is_conj": _false,
        "is_neg": _false,
        "conj": _same,
        "resolve_conj": _same,
        "resolve_neg": _same,
        "is_nonzero": is_nonzero,
        "is_same_size": is_same_size,
        "sum_to_size": sum_to_size,
        "split_with_sizes": split_with_sizes,
        "byte": _converter(dtypes.uint8),
        "char": _converter(dtypes.int8),
        "nbytes": property(lambda self: self._data.size * self._data.itemsize),
        "itemsize": property(lambda self: self._data.itemsize),
        "output_nr": property(lambda self: self._output_nr),
        "is_cpu": property(lambda self: not self.is_meta),
        "mT": property(_matrix_transpose("mT", False)),
        "H": property(_matrix_transpose("H", True)),
        "mH": property(_matrix_transpose("mH", False)),
        "adjoint": _matrix_transpose("adjoint()", False),
    },
)

__all__: list[str] = []
