"""`torch.masked.MaskedTensor` (a prototype in PyTorch 2.13, which warns at every one made): a
tensor's data with a bool mask of the same shape; masked-out elements print as `--` and take no
part in reductions. Element-wise ops keep the mask (two MaskedTensors must have equal masks),
reductions reduce the kept elements (as `torch.masked` does) and keep an element where any
was kept; gradients flow through the data, and a leaf's `.grad` is a MaskedTensor.

Not PyTorch's: a MaskedTensor is not a `torch.Tensor` subclass, so `torch.*` functions do not
take it (its methods and operators do), and sparse layouts are not there.
"""

from __future__ import annotations

import warnings
from typing import Any

from .core import dtypes
from .core.tensor import Tensor

__all__ = ["MaskedTensor", "as_masked_tensor", "masked_tensor"]

_PROTOTYPE = (
    "The PyTorch API of MaskedTensors is in prototype stage and will change in the near future. "
    "Please open a Github issue for features requests and see our documentation on the "
    "torch.masked module for further information about the project."
)
_REQUIRES_GRAD = (
    "It is not recommended to create a MaskedTensor with a tensor that requires_grad. To avoid "
    "this, you can use data.detach().clone()"
)
_MASKS_DIFFER = (
    "Input masks must match. If you need support for this, please open an issue on Github."
)
_SUPPORTED = ("float16", "float32", "float64", "bool", "int8", "int16", "int32", "int64")
_UNARY = (  # the element-wise methods PyTorch's MaskedTensor dispatches (no `relu`)
    "abs", "absolute", "neg", "negative", "positive", "exp", "exp2", "expm1", "log", "log1p",
    "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "arcsin", "arccos", "arctan",
    "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid", "sqrt", "rsqrt", "square",
    "floor", "ceil", "round", "trunc", "frac", "sign", "sgn", "reciprocal", "erf", "erfc",
    "erfinv", "lgamma", "digamma", "deg2rad", "rad2deg", "sinc", "logit", "i0", "signbit",
    "isnan",
)  # fmt: skip


class MaskedTensor:
    """Data and a mask (see the module docstring)."""

    __slots__ = ("_masked_data", "_masked_mask", "__weakref__")

    def __init__(self, data: Any, mask: Any, requires_grad: bool = False) -> None:
        if not isinstance(data, Tensor):
            raise TypeError("data must be a Tensor")
        if not isinstance(mask, Tensor):
            raise TypeError("mask must be a Tensor")
        warnings.warn(_PROTOTYPE, UserWarning, stacklevel=2)
        if data.requires_grad:
            warnings.warn(_REQUIRES_GRAD, UserWarning, stacklevel=2)
        if mask.dtype is not dtypes.bool_:
            raise TypeError("mask must have dtype bool.")
        if str(data.dtype).removeprefix("torch.") not in _SUPPORTED:
            raise TypeError(f"{data.dtype} is not supported in MaskedTensor.")
        if data.dim() != mask.dim():
            raise ValueError("data.dim() must equal mask.dim()")
        if data.size() != mask.size():
            raise ValueError("data.size() must equal mask.size()")
        if requires_grad:
            data = data.detach().requires_grad_(True)
        self._masked_data = data
        self._masked_mask = mask

    # -- what it holds -----------------------------------------------------------------------
    def get_data(self) -> Tensor:
        return self._masked_data

    def get_mask(self) -> Tensor:
        return self._masked_mask

    def to_tensor(self, value: Any) -> Tensor:
        return self._masked_data.masked_fill(~self._masked_mask, value)

    @property
    def shape(self) -> Any:
        return self._masked_data.shape

    @property
    def dtype(self) -> Any:
        return self._masked_data.dtype

    @property
    def ndim(self) -> int:
        return self._masked_data.ndim

    def dim(self) -> int:
        return self._masked_data.dim()

    def size(self, dim: Any = None) -> Any:
        return self._masked_data.size() if dim is None else self._masked_data.size(dim)

    def numel(self) -> int:
        return self._masked_data.numel()

    @property
    def requires_grad(self) -> bool:
        return self._masked_data.requires_grad

    @property
    def is_leaf(self) -> bool:
        return self._masked_data.is_leaf

    @property
    def grad_fn(self) -> Any:
        return self._masked_data.grad_fn

    @property
    def grad(self) -> Any:
        grad = self._masked_data.grad
        return None if grad is None else _quiet(grad, self._masked_mask)

    def backward(self, gradient: Any = None, **kwargs: Any) -> None:
        if isinstance(gradient, MaskedTensor):
            gradient = gradient._masked_data
        self._masked_data.backward(gradient, **kwargs)

    def detach(self) -> MaskedTensor:
        return _made(self._masked_data.detach(), self._masked_mask)

    def clone(self) -> MaskedTensor:
        return _made(self._masked_data.clone(), self._masked_mask.clone())

    def __getitem__(self, index: Any) -> MaskedTensor:
        return _made(self._masked_data[index], self._masked_mask[index])

    def __len__(self) -> int:
        return len(self._masked_data)

    # -- printing ----------------------------------------------------------------------------
    def __repr__(self) -> str:
        data, mask = self._masked_data.detach(), self._masked_mask
        if data.dim() == 0:
            value = data.item()
            shown = f"{value:8.4f}" if isinstance(value, float) else str(value)
            if not mask.item():
                shown = "--"
            return f"MaskedTensor({shown}, {mask.item()})"
        text = _masked_str(data.tolist(), mask.tolist())
        return "MaskedTensor(\n" + "\n".join("  " + line for line in text.split("\n")) + "\n)"

    __str__ = __repr__

    # -- element-wise ------------------------------------------------------------------------
    def _binary(self, other: Any, op: str, reflected: bool = False) -> MaskedTensor:
        if isinstance(other, MaskedTensor):
            if not bool((self._masked_mask == other._masked_mask).all()):
                raise ValueError(_MASKS_DIFFER)
            other = other._masked_data
        a, b = (other, self._masked_data) if reflected else (self._masked_data, other)
        return _made(getattr(a, op)(b) if isinstance(a, Tensor) else _reflected(op, a, b),
                     self._masked_mask)  # fmt: skip

    def __add__(self, other: Any) -> MaskedTensor:
        return self._binary(other, "__add__")

    def __radd__(self, other: Any) -> MaskedTensor:
        return self._binary(other, "__add__", True)

    def __sub__(self, other: Any) -> MaskedTensor:
        return self._binary(other, "__sub__")

    def __mul__(self, other: Any) -> MaskedTensor:
        return self._binary(other, "__mul__")

    def __rmul__(self, other: Any) -> MaskedTensor:
        return self._binary(other, "__mul__", True)

    def __truediv__(self, other: Any) -> MaskedTensor:
        return self._binary(other, "__truediv__")

    def __rtruediv__(self, other: Any) -> MaskedTensor:
        return self._binary(other, "__truediv__", True)

    def __pow__(self, other: Any) -> MaskedTensor:
        return self._binary(other, "__pow__")

    def __neg__(self) -> MaskedTensor:
        return _made(-self._masked_data, self._masked_mask)

    def __abs__(self) -> MaskedTensor:
        return _made(self._masked_data.abs(), self._masked_mask)

    def pow(self, exponent: Any) -> MaskedTensor:
        return self._binary(exponent, "__pow__")

    def softmax(self, dim: int) -> MaskedTensor:
        """`torch.masked.softmax`'s values: the masked-out elements count as -inf."""
        data = self._masked_data.masked_fill(~self._masked_mask, float("-inf")).softmax(dim)
        return _made(data, self._masked_mask)

    # -- reductions --------------------------------------------------------------------------
    def _reduce(self, name: str, dim: Any, keepdim: bool) -> MaskedTensor:
        """The reduction of the kept elements (the others replaced by a value that cannot win:
        `torch.masked`'s identities), kept where any element of the reduced slice was kept."""
        data, mask = self._masked_data, self._masked_mask
        if name in ("amax", "amin"):  # a value of the data itself: any dtype
            plain = data.detach()
            fill = (plain.min() if name == "amax" else plain.max()).item() if data.numel() else 0
        else:
            fill = 1 if name == "prod" else 0
        filled = data.masked_fill(~mask, fill)
        reducer = "sum" if name == "mean" else name
        if dim is None:
            result, kept = getattr(filled, reducer)(), mask.any()
            count = mask.sum()
        else:
            result = getattr(filled, reducer)(dim, keepdim=keepdim)
            kept, count = mask.any(dim, keepdim=keepdim), mask.sum(dim, keepdim=keepdim)
        if name == "mean":
            result = result / count
        return _made(result, kept)

    def sum(self, dim: Any = None, keepdim: bool = False) -> MaskedTensor:
        return self._reduce("sum", dim, keepdim)

    def mean(self, dim: Any = None, keepdim: bool = False) -> MaskedTensor:
        return self._reduce("mean", dim, keepdim)

    def prod(self, dim: Any = None, keepdim: bool = False) -> MaskedTensor:
        return self._reduce("prod", dim, keepdim)

    def amax(self, dim: Any = None, keepdim: bool = False) -> MaskedTensor:
        return self._reduce("amax", dim, keepdim)

    def amin(self, dim: Any = None, keepdim: bool = False) -> MaskedTensor:
        return self._reduce("amin", dim, keepdim)


def _reflected(op: str, a: Any, b: Tensor) -> Tensor:
    """`number op tensor` for the reflected operators."""
    return getattr(b, "__r" + op[2:])(a)


def _unary(name: str) -> Any:
    def method(self: MaskedTensor) -> MaskedTensor:
        return _made(getattr(self._masked_data, name)(), self._masked_mask)

    method.__name__ = method.__qualname__ = name
    return method


for _name in _UNARY:
    setattr(MaskedTensor, _name, _unary(_name))


def _made(data: Tensor, mask: Tensor) -> MaskedTensor:
    """An op's result, made as PyTorch makes one (with its warnings)."""
    return _build(data, mask, warn_grad=True)


def _build(data: Tensor, mask: Tensor, warn_grad: bool) -> MaskedTensor:
    out = MaskedTensor.__new__(MaskedTensor)
    warnings.warn(_PROTOTYPE, UserWarning, stacklevel=3)
    if warn_grad and data.requires_grad:
        warnings.warn(_REQUIRES_GRAD, UserWarning, stacklevel=3)
    out._masked_data, out._masked_mask = data, mask
    return out


def _quiet(data: Tensor, mask: Tensor) -> MaskedTensor:
    out = MaskedTensor.__new__(MaskedTensor)
    out._masked_data, out._masked_mask = data, mask
    return out


def _masked_str(data: Any, mask: Any) -> str:
    """PyTorch's layout: each row in brackets, `--` for a masked-out element, indented nesting."""
    if not isinstance(data[0] if data else None, list):
        shown = [f"{d:8.4f}" if isinstance(d, float) else str(d) for d in data]
        width = max([8 if not m else len(s) for s, m in zip(shown, mask)], default=0)
        return "[" + ", ".join(s if m else "--".rjust(width) for s, m in zip(shown, mask)) + "]"
    rows = [_masked_str(d, m) for d, m in zip(data, mask)]
    rows = ["\n".join("  " + line for line in row.split("\n")) for row in rows]
    return "[\n" + ",\n".join(rows) + "\n]"


def masked_tensor(data: Tensor, mask: Tensor, requires_grad: bool = False) -> MaskedTensor:
    """A MaskedTensor of `data` (a leaf; `requires_grad` makes it require grad)."""
    return MaskedTensor(data, mask, requires_grad)


def as_masked_tensor(data: Tensor, mask: Tensor) -> MaskedTensor:
    """A MaskedTensor whose data stays in `data`'s graph (gradients flow back to `data`)."""
    return MaskedTensor(data, mask)


MaskedTensor.__module__ = "torch.masked.maskedtensor.core"
