"""`torch.special`: mostly other names of `torch.*` functions (each keeps the grad_fn PyTorch
shows for it), plus i1, entr, ndtr, log_ndtr, ndtri and xlog1py (ops/special_math.py) and
gammainc/gammaincc (torch.igamma/igammac, ops/incomplete_gamma.py) and zeta
(ops/hurwitz_zeta.py)."""

from __future__ import annotations

import math
from typing import Any

from .core import dtypes
from .core import numpy_names as _numpy_names
from .core.apply import apply_op, as_default_float
from .core.out_arg import write_out
from .core.tensor import Tensor
from .nn import functional, functional_ops  # (loaded with torch.special: a script's child
from .ops import (  # process cannot import later)
    blends,
    elementwise,
    hurwitz_zeta,
    incomplete_gamma,
    reductions,
    unary,
)
from .ops import special_math as sm
from .ops.formula_ops import ADD_SCALAR, MUL_SCALAR

__all__ = [
    "expit", "logit", "erf", "erfc", "erfinv", "expm1", "exp2", "log1p", "gammaln", "digamma",
    "psi", "polygamma", "multigammaln", "i0", "i1", "sinc", "round", "xlogy", "xlog1py", "entr",
    "ndtr", "log_ndtr", "ndtri", "logsumexp", "softmax", "log_softmax", "gammainc", "gammaincc",
    "zeta",
]  # fmt: skip

expit = unary.sigmoid
logit = blends.logit
erf = unary.erf
erfc = elementwise.erfc
erfinv = sm.erfinv
expm1 = unary.expm1
exp2 = elementwise.exp2
log1p = unary.log1p
gammaln = sm.lgamma
digamma = psi = sm.digamma
i0 = sm.i0
sinc = sm.sinc
gammainc = incomplete_gamma.igamma  # (IgammaBackward0, as PyTorch's)
gammaincc = incomplete_gamma.igammac
zeta = hurwitz_zeta.zeta
_NO_DIM: Any = object()


def logsumexp(
    input: Tensor, dim: Any = _NO_DIM, keepdim: bool = False, *, out: Any = None
) -> Tensor:
    """torch.logsumexp, whose dim torch.special requires."""
    if dim is _NO_DIM:
        raise TypeError('special_logsumexp() missing 1 required positional arguments: "dim"')
    return reductions.logsumexp(input, dim, keepdim, out=out)


def polygamma(n: int, input: Tensor, *, out: Any = None) -> Tensor:
    """torch.polygamma (its argument errors name special_polygamma)."""
    if out is not None:
        return write_out(polygamma, out, n, input)
    return sm.polygamma(sm._int_arg("special_polygamma", "n", 1, n), input)


def multigammaln(input: Tensor, p: int, *, out: Any = None) -> Tensor:
    """torch.mvlgamma."""
    if out is not None:
        return write_out(multigammaln, out, input, p)
    return sm.mvlgamma(input, p)


def _unary(op: Any, fn: Any, input: Tensor, out: Any) -> Tensor:
    if out is not None:
        return write_out(fn, out, input)
    return apply_op(op, (input,))


def i1(input: Tensor, *, out: Any = None) -> Tensor:
    """The modified Bessel function of the first kind, order 1."""
    return _unary(sm.I1, i1, input, out)


def entr(input: Tensor, *, out: Any = None) -> Tensor:
    """-x · log(x) (0 at 0, -inf below)."""
    return _unary(sm.ENTR, entr, input, out)


def log_ndtr(input: Tensor, *, out: Any = None) -> Tensor:
    """log of the standard normal CDF, accurate far in the left tail."""
    return _unary(sm.LOG_NDTR, log_ndtr, input, out)


def ndtri(input: Tensor, *, out: Any = None) -> Tensor:
    """The inverse of the standard normal CDF."""
    return _unary(sm.NDTRI, ndtri, input, out)


def ndtr(input: Tensor, *, out: Any = None) -> Tensor:
    """The standard normal CDF, (1 + erf(x / √2)) / 2, built as PyTorch builds it: its grad_fn
    is the last product's (MulBackward1)."""
    if out is not None:
        return write_out(ndtr, out, input)
    scaled = apply_op(MUL_SCALAR, (as_default_float(input),), {"other": math.sqrt(0.5)})
    shifted = apply_op(ADD_SCALAR, (unary.erf(scaled),), {"other": 1})
    return apply_op(MUL_SCALAR, (shifted,), {"other": 0.5})


def round(input: Tensor, *, decimals: int = 0, out: Any = None) -> Tensor:
    """torch.round, always with RoundBackward1 (the decimals overload); no integer kernel."""
    if out is not None:
        return write_out(round, out, input, decimals=decimals)
    if input._data.dtype.kind != "f":
        kernel = "round_cpu" if decimals else "round_vml_cpu"
        dtypes.require_floating(input._data.dtype, kernel)
    return apply_op(elementwise.ROUND_DECIMALS, (input,), {"decimals": int(decimals)})


def xlogy(input: Any, other: Any, *, out: Any = None) -> Tensor:
    """torch.xlogy."""
    if out is not None:
        return write_out(xlogy, out, input, other)
    return functional_ops.xlogy(input, other)


def xlog1py(input: Any, other: Any, *, out: Any = None) -> Tensor:
    """input · log1p(other), 0 where input is 0 (unless other is NaN)."""
    if out is not None:
        return write_out(xlog1py, out, input, other)
    if not isinstance(input, Tensor):
        return apply_op(sm.XLOG1PY_SCALAR_SELF, (as_default_float(other),), {"self": input})
    if not isinstance(other, Tensor):
        return apply_op(sm.XLOG1PY_SCALAR_OTHER, (as_default_float(input),), {"other": other})
    if input._data.dtype.kind in "biu" and other._data.dtype.kind in "biu":
        input = as_default_float(input)
    return apply_op(sm.XLOG1PY, (input, other))


def softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """torch.softmax."""
    return functional.softmax(input, dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """torch.log_softmax."""
    return functional.log_softmax(input, dim, dtype=dtype)


_numpy_names.accept_in_module(globals(), __all__, "special_")
