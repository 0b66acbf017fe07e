"""In-place forms PyTorch has and the other families lack: the in-place view methods
(`unsqueeze_`, `squeeze_`, `t_`, `transpose_`/`swapaxes_`/`swapdims_`: the tensor itself takes
the new shape, with PyTorch's `...Backward1`/`SqueezeBackward3-5` grad_fns), the comparisons
(`eq_`, `lt_`...: 0/1 in the tensor's own dtype, a zero gradient), `fill_diagonal_`,
`index_put_`/`index_put`, and the `torch.relu_`-style functions of every in-place method PyTorch
exposes at the top level."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import modes
from ..core.apply import apply_inplace
from ..core.fast_paths import apply_view
from ..core.grad_mode import GradMode
from ..core.optable import defop, tensor_methods
from ..core.tensor import VIEW_OF_LEAF_MESSAGE, Tensor, _norm_dim, _wrap
from . import views
from .indexing import _advanced_array, _apply_basic, _numpy_index, setitem
from .inplace import INDEX_PUT, after_inplace

__all__ = ["index_put", "index_put_"]  # (+ the torch.<name>_ functions, added below)


# -- in-place views -----------------------------------------------------------------------------


def _like(op: Any, name: str, grad_fn: str) -> Any:
    """A copy of the view op `op` under PyTorch's grad_fn name for its in-place form."""
    return defop(name, grad_fn, op.forward, *op.grads, saves=op.saves, rules=op.rules, view=True)


UNSQUEEZE_ = _like(views.UNSQUEEZE, "unsqueeze_", "UnsqueezeBackward1")
T_ = _like(views.T, "t_", "TBackward1")
TRANSPOSE_ = _like(views.TRANSPOSE, "transpose_", "TransposeBackward1")
SQUEEZE_ = _like(views.SQUEEZE, "squeeze_", "SqueezeBackward3")
SQUEEZE_DIMS_ = _like(views.SQUEEZE_DIMS, "squeeze_dims_list_", "SqueezeBackward5")


def _view_in_place(self: Tensor, op: Any, params: dict | None = None) -> Tensor:
    """`self` takes the shape of `op`'s view of it; its history gains `op`'s node. Observers
    (forward AD, the profiler) see an in-place op on `self`: its tangent takes the new shape."""
    if modes.active():
        return modes.observe(
            op, (self,), params, self, lambda: _view_self(self, op, params)
        )  # fmt: skip
    return _view_self(self, op, params)


def _view_self(self: Tensor, op: Any, params: dict | None) -> Tensor:
    if GradMode.enabled and self._requires_grad and self._grad_fn is None:
        raise RuntimeError(VIEW_OF_LEAF_MESSAGE)
    before = _wrap(self._data, self._requires_grad, self._grad_fn, self._output_nr)
    before._base = self._base
    result = apply_view(op, before, params)
    self._data = result._data
    if result._grad_fn is not None:
        self._set_history(result._grad_fn)
    self._bump_version()
    return self


def unsqueeze_(self: Tensor, dim: int) -> Tensor:
    return _view_in_place(self, UNSQUEEZE_, {"dim": _norm_dim(dim, self.ndim + 1)})


def squeeze_(self: Tensor, dim: Any = None) -> Tensor:
    source = self._data.shape
    if dim is None:
        return _view_in_place(self, SQUEEZE_, {"source": source})
    if isinstance(dim, (tuple, list)):
        dims = tuple(_norm_dim(d, self.ndim) for d in dim)
        return _view_in_place(self, SQUEEZE_DIMS_, {"dims": dims, "source": source})
    dims = (_norm_dim(dim, self.ndim),)
    return _view_in_place(self, views.SQUEEZE_DIM_, {"dims": dims, "source": source})


def t_(self: Tensor) -> Tensor:
    if self.ndim > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
    return _view_in_place(self, T_)


def transpose_(self: Tensor, dim0: int, dim1: int) -> Tensor:
    nd = self.ndim
    params = {"dim0": _norm_dim(dim0, nd), "dim1": _norm_dim(dim1, nd)}
    return _view_in_place(self, TRANSPOSE_, params)


# -- comparisons in place -----------------------------------------------------------------------


def _comparison(name: str, grad_name: str, ufunc: Any) -> tuple:
    """`<name>_` with a number (`...Backward0`) and with a tensor (`...Backward1`): the result
    in the tensor's own dtype, a zero gradient (as PyTorch's)."""
    scalar = defop(
        f"{name}_scalar_", f"{grad_name}Backward0",
        lambda a, other: ufunc(a, other).astype(a.dtype),
        lambda B, g, **_: B.zeros_like(g),
        promotes=False, rules=("0",),
    )  # fmt: skip
    tensor = defop(
        f"{name}_tensor_", f"{grad_name}Backward1",
        lambda a, b: ufunc(a, b).astype(a.dtype),
        lambda B, g: B.zeros_like(g),
        lambda B, g: B.zeros_like(g),
        promotes=False, arg_names=("self", "other"), rules=("0", "0"),
    )  # fmt: skip

    def method(self: Tensor, other: Any) -> Tensor:
        if isinstance(other, Tensor):
            if other._data.ndim == 0 and self._data.ndim:
                other = other._data.item()  # (a 0-d tensor compares as its number)
            else:
                shape = np.broadcast_shapes(self._data.shape, other._data.shape)
                if shape != self._data.shape:
                    raise RuntimeError(
                        f"output with shape [{', '.join(map(str, self._data.shape))}] doesn't "
                        f"match the broadcast shape [{', '.join(map(str, shape))}]"
                    )
                return apply_inplace(tensor, self, (other,))
        return apply_inplace(scalar, self, (), {"other": other})

    method.__name__ = method.__qualname__ = name + "_"
    return method


_COMPARISONS = {
    "eq_": _comparison("eq", "Eq", np.equal),
    "ne_": _comparison("ne", "Ne", np.not_equal),
    "lt_": _comparison("lt", "Lt", np.less),
    "le_": _comparison("le", "Le", np.less_equal),
    "gt_": _comparison("gt", "Gt", np.greater),
    "ge_": _comparison("ge", "Ge", np.greater_equal),
}
_COMPARISONS.update(
    greater_=_COMPARISONS["gt_"],
    greater_equal_=_COMPARISONS["ge_"],
    less_=_COMPARISONS["lt_"],
    less_equal_=_COMPARISONS["le_"],
    not_equal_=_COMPARISONS["ne_"],
)


# -- fill_diagonal_, index_put ----------------------------------------------------------


def fill_diagonal_(self: Tensor, fill_value: Any, wrap: bool = False) -> Tensor:
    """Fills the main diagonal (all indices equal) through a view of it, so that a tensor with
    a history gets CopySlices as in PyTorch; `wrap` restarts it below a tall matrix's square."""
    shape = self._data.shape
    if len(shape) < 2:
        raise RuntimeError("dimensions must larger than 1")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    rows, cols = shape[0], shape[1]
    starts = range(0, rows, cols + 1) if wrap and len(shape) == 2 else (0,)
    for start in starts:
        part = self if start == 0 and not (wrap and rows > cols) else self[start : start + cols]
        diagonal = part
        while diagonal.ndim > 1:
            diagonal = diagonal.diagonal(0, 0, 1)
        diagonal.fill_(fill_value)
    return self


def _index_tuple(name: str, indices: Any) -> tuple:
    if not isinstance(indices, (tuple, list)):
        raise TypeError(
            f"{name}(): argument 'indices' (position 1) must be tuple of Tensors, not "
            f"{type(indices).__name__}"
        )
    parts = []
    for part in indices:
        if part is not None and not isinstance(part, Tensor):
            raise TypeError(
                f"{name}(): argument 'indices' (position 1) must be tuple of Tensors, not "
                f"{type(part).__name__}"
            )
        if part is not None:
            _advanced_array(part)  # (the dtype check and its message)
        parts.append(slice(None) if part is None else part)
    return tuple(parts)


def index_put_(input: Tensor, indices: Any, values: Tensor, accumulate: bool = False) -> Tensor:
    """`input[indices] = values` (IndexPutBackward0), or `+=` at each index, repeated ones
    included, with `accumulate=True`."""
    parts = _index_tuple("index_put_", indices)
    if not isinstance(values, Tensor):
        raise TypeError(
            "index_put_(): argument 'values' (position 2) must be Tensor, not "
            f"{type(values).__name__}"
        )
    if not accumulate:
        setitem(input, parts, values)
        return input
    target, advanced = _apply_basic(input, parts, keep_full_slices=False)
    params = {"index": _numpy_index(advanced), "accumulate": True}
    apply_inplace(INDEX_PUT, target, (values,), params)
    if target is input:
        after_inplace(input)
    return input


def index_put(input: Tensor, indices: Any, values: Tensor, accumulate: bool = False) -> Tensor:
    return index_put_(input.clone(), indices, values, accumulate)


tensor_methods(
    "ops.inplace_methods",
    {
        "unsqueeze_": unsqueeze_,
        "squeeze_": squeeze_,
        "t_": t_,
        "transpose_": transpose_,
        "swapaxes_": transpose_,
        "swapdims_": transpose_,
        "fill_diagonal_": fill_diagonal_,
        "index_put_": index_put_,
        "index_put": index_put,
        **_COMPARISONS,
    },
)


# -- torch.relu_(x) and the other top-level in-place functions ---------------------------------

# PyTorch 2.13's `torch.<name>_` functions (`dir(torch)`) that are Tensor methods here.
_TOP_LEVEL_INPLACE = (
    "abs_ acos_ acosh_ addmv_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ asinh_ "
    "atan_ atanh_ ceil_ clamp_ clamp_max_ clamp_min_ clip_ cos_ cosh_ deg2rad_ detach_ erf_ "
    "erfc_ exp2_ exp_ expm1_ fill_ fix_ floor_ frac_ gcd_ i0_ lcm_ ldexp_ log10_ log1p_ log2_ "
    "log_ logit_ nan_to_num_ neg_ negative_ rad2deg_ reciprocal_ relu_ resize_as_ round_ rsqrt_ "
    "sigmoid_ sin_ sinc_ sinh_ sqrt_ square_ tan_ tanh_ trunc_ xlogy_ zero_"
).split()
# (`torch.dropout_`, `celu_`, `selu_`, `threshold_`...: nn.functional's ops with
# `inplace=True`, are in engine/__init__: the op families import nothing of nn)


def _top_level(name: str) -> Any:
    method = getattr(Tensor, name)

    def function(input: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(input, Tensor):
            raise TypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not "
                f"{type(input).__name__}"
            )
        return method(input, *args, **kwargs)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}(input, ...): `input.{name}(...)`."
    return function


for _name in _TOP_LEVEL_INPLACE:
    if hasattr(Tensor, _name):
        globals()[_name] = _top_level(_name)
        __all__.append(_name)
del _name
