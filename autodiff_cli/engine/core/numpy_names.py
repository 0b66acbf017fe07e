"""numpy's keyword spellings that PyTorch's argument parser accepts for its native functions and
Tensor methods: `axis=` for `dim=` and `keepdims=` for `keepdim=` (`torch.sum(x, axis=0,
keepdims=True)`), and `size=` for the sizes of `torch.rand(*size)`, `zeros`, `ones`, `empty`...

PyTorch's functions written in Python (`torch.split`, `torch.norm`, `Tensor.unique`, everything in
`nn.functional`) do not go through that parser and refuse them; so does this engine. A wrapper is
added only where a function takes `dim` or `keepdim`: the others keep their direct call.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

ALIASES = {"axis": "dim", "keepdims": "keepdim"}

# PyTorch's torch.* functions and Tensor methods written in Python (torch/functional.py,
# torch/_tensor.py): they take `dim` only under that name.
PYTHON_LEVEL = frozenset(
    "atleast_1d atleast_2d atleast_3d broadcast_shapes broadcast_tensors cartesian_prod "
    "block_diag cdist chain_matmul einsum istft lu norm meshgrid pca_lowrank split stft "
    "svd_lowrank tensordot unique unique_consecutive unravel_index unflatten".split()
)


def accepting_numpy_names(name: str, fn: Any, native: bool | None = None) -> Any:
    """`fn` (the torch function or Tensor method `name`), accepting `axis=`/`keepdims=` where it
    takes `dim`/`keepdim`; `fn` itself when it takes neither or is not `native` (by default:
    unless PyTorch writes `name` in Python)."""
    if native is None:
        native = name not in PYTHON_LEVEL
    inner = fn
    while getattr(inner, "__wrapped__", None) is not None:  # under decorators: the op function
        inner = inner.__wrapped__
    code = getattr(inner, "__code__", None)
    if code is None or not native or getattr(fn, "_numpy_names", False):
        return fn
    n_positional = code.co_argcount
    params = code.co_varnames[: n_positional + code.co_kwonlyargcount]
    renames = {
        alias: real for alias, real in ALIASES.items() if real in params and alias not in params
    }
    if not renames:
        return fn
    # a real name's position: given by position, the alias is one value too many
    positions = {
        real: params.index(real) for real in renames.values() if params.index(real) < n_positional
    }

    @functools.wraps(fn)
    def numpy_names(*args: Any, **kwargs: Any) -> Any:
        if kwargs and ("axis" in kwargs or "keepdims" in kwargs):
            kwargs = _renamed(name, kwargs, renames, positions, len(args))
        return fn(*args, **kwargs)

    numpy_names._numpy_names = True  # (already accepting: never wrapped twice)
    return numpy_names


def _renamed(name: str, kwargs: dict, renames: dict, positions: dict, n_args: int) -> dict:
    """`kwargs` under the real names. An alias whose real name is also given (by keyword or
    position) is PyTorch's error naming the first numpy spelling of the call."""
    out: dict = {}
    clash = False
    for key, value in kwargs.items():
        real = renames.get(key)
        if real is None:
            clash = clash or (key in out and key in renames.values())
            out[key] = value
            continue
        if real in kwargs or real in out or positions.get(real, n_args) < n_args:
            clash = True
        out[real] = value
    if clash:
        first = next(key for key in kwargs if key in renames)
        raise TypeError(f"{name}() got an unexpected keyword argument '{first}'")
    return out


def varargs_keyword(keyword: str, fixed: int = 0) -> Callable[[Callable], Callable]:
    """`fn(*fixed_args, *sizes)` also called as `fn(*fixed_args, <keyword>=sizes)`: PyTorch's
    parser names the sizes of `torch.rand(*size)`, `x.view(*shape)`, `x.permute(*dims)`... and
    takes them by that name (`size=`, `shape=`, `dims=`, `repeats=`)."""

    def decorate(fn: Callable) -> Callable:
        name = fn.__name__

        @functools.wraps(fn)
        def by_keyword(*args: Any, **kwargs: Any) -> Any:
            if kwargs and keyword in kwargs:
                if len(args) > fixed:
                    raise TypeError(f"{name}() got multiple values for argument '{keyword}'")
                kwargs = dict(kwargs)
                args = (*args, kwargs.pop(keyword))
            return fn(*args, **kwargs)

        return by_keyword

    return decorate


size_keyword = varargs_keyword("size")  # torch.rand/randn/zeros/ones/empty(size=...)


def accept_in_module(scope: dict, names: list[str], prefix: str = "") -> None:
    """Every function among a module's public `names` taking `dim`/`keepdim` accepts the numpy
    spellings (`prefix`: how PyTorch's errors name a submodule's functions, `linalg_`...)."""
    for name in names:
        scope[name] = accepting_numpy_names(prefix + name, scope[name], True)
