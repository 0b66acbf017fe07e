"""`torch.func.vmap`: the function mapped over a dimension of its inputs.

Correct first: the function runs once per batch element on the inputs' slices (`select`), and
the results are stacked along `out_dims`. Arguments and `in_dims` are trees (tuples, lists,
dicts); an `in_dims` leaf stands for the whole subtree under it, `None` passes it unmapped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .. import Tensor, stack, zeros
from ..ops import random as engine_random
from . import pytree
from .levels import wraps

RANDOMNESS = ("error", "different", "same")
RANDOM_IN_ERROR_MODE = (
    "vmap: called random operation while in randomness error mode. Please either use the 'same' "
    "or 'different' randomness flags on vmap or perform the randomness operation out of vmap"
)


def vmap(
    func: Callable,
    in_dims: Any = 0,
    out_dims: Any = 0,
    randomness: str = "error",
    *,
    chunk_size: int | None = None,
) -> Callable:
    """`f` -> `f` mapped over dimension `in_dims` of its (positional) inputs."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if randomness not in RANDOMNESS:
            raise RuntimeError(
                "Only allowed values for randomness are 'error', 'different', or 'same'. "
                f"Got {randomness}"
            )
        mapped = _Mapping(func, in_dims, args)
        if mapped.size == 0:
            return _stack_results(func, [func(*mapped.zero_sample(), **kwargs)], out_dims, True)
        states = _rng_keeper(randomness)
        results = []
        with _random_refused(randomness == "error"):
            for index in range(mapped.size):
                states()
                results.append(func(*mapped.slice(index), **kwargs))
        return _stack_results(func, results, out_dims, mapped=mapped)

    return wraps(func, wrapper)


def _name(func: Callable) -> str:
    name = getattr(func, "__name__", None)
    return name if isinstance(name, str) else repr(func)


class _Mapping:
    """The positional arguments, which leaves are mapped along which dimension, the batch size."""

    def __init__(self, func: Callable, in_dims: Any, args: tuple) -> None:
        prefix = f"vmap({_name(func)}, in_dims={in_dims!r}, ...)(<inputs>)"
        if not args:
            raise ValueError(
                f"vmap({_name(func)})(<inputs>): got no inputs. Maybe you forgot to add inputs, "
                "or you are trying to vmap over a function with no inputs. The latter is "
                "unsupported."
            )
        if not isinstance(in_dims, (int, tuple)) and in_dims is not None:
            raise ValueError(
                f"{prefix}: expected `in_dims` to be int or a (potentially nested) tuple matching "
                f"the structure of inputs, got: {type(in_dims)}."
            )
        self.leaves, self.spec = pytree.flatten(args)
        dims = pytree.broadcast_prefix(in_dims, self.spec)
        if dims is None:
            raise ValueError(
                f"{prefix}: in_dims is not compatible with the structure of `inputs`. in_dims "
                f"has structure {pytree.spec_repr(pytree.flatten(in_dims)[1])} but inputs has "
                f"structure {pytree.spec_repr(self.spec)}."
            )
        self.dims = [_check_dim(prefix, d, x) for d, x in zip(dims, self.leaves)]
        sizes = [x.shape[d] for d, x in zip(self.dims, self.leaves) if d is not None]
        if not sizes:
            raise ValueError("vmap: Expected at least one Tensor to vmap over")
        if len(set(sizes)) > 1:
            raise ValueError(
                "vmap: Expected all tensors to have the same size in the mapped dimension, got "
                f"sizes {sizes} for the mapped dimension"
            )
        self.size = sizes[0]
        self.slices: list[list] = []

    def slice(self, index: int) -> tuple:
        leaves = [x if d is None else x.select(d, index) for d, x in zip(self.dims, self.leaves)]
        self.slices.append(leaves)
        return pytree.unflatten(leaves, self.spec)

    def passed_through(self, values: list, dim: int) -> Tensor | None:
        """The mapped input whose slices `values` are, one per element, moved to `dim` (as
        PyTorch unwraps a returned input: the caller's tensor itself when `dim` is its in_dim);
        None when the function did not return an input as it came in."""
        if len(values) != len(self.slices):
            return None
        for j, (d, x) in enumerate(zip(self.dims, self.leaves)):
            if d is not None and all(v is s[j] for v, s in zip(values, self.slices)):
                if not -x.dim() <= dim < x.dim():
                    return None
                return x if d == dim % x.dim() else x.movedim(d, dim)
        return None

    def zero_sample(self) -> tuple:
        """An empty batch: zeros shaped as one element, for the function to show its outputs."""
        leaves = [
            x if d is None else zeros(tuple(x.shape)[:d] + tuple(x.shape)[d + 1 :], dtype=x.dtype)
            for d, x in zip(self.dims, self.leaves)
        ]
        return pytree.unflatten(leaves, self.spec)


def _check_dim(prefix: str, dim: Any, x: Any) -> int | None:
    if dim is None:
        return None
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise ValueError(
            f"{prefix}: Got in_dim={dim!r} for an input but in_dim must be either an integer "
            "dimension or None."
        )
    if not isinstance(x, Tensor):
        raise ValueError(
            f"{prefix}: Got in_dim={dim} for an input but the input is of type {type(x)}. We "
            "cannot vmap over non-Tensor arguments, please use None as the respective in_dim"
        )
    n = x.dim()
    if not -n <= dim < n:
        raise ValueError(
            f"{prefix}: Got in_dim={dim} for some input, but that input is a Tensor of "
            f"dimensionality {n} so expected in_dim to satisfy -{n} <= in_dim < {n}."
        )
    return dim % n


def _rng_keeper(randomness: str) -> Callable[[], None]:
    """With randomness='same', every batch element starts from the same random state."""
    if randomness != "same":
        return lambda: None
    state = engine_random.get_rng_state()
    return lambda: engine_random.set_rng_state(state)


@contextmanager
def _random_refused(refuse: bool) -> Iterator[None]:
    """With randomness='error' (the default), drawing from the default generator raises."""
    generator = engine_random.default_generator
    if not refuse or "words" in vars(generator):  # not asked, or an outer vmap refuses already
        yield
        return

    def refused(*args: Any) -> Any:
        raise RuntimeError(RANDOM_IN_ERROR_MODE)

    generator.words = generator.words64 = refused
    try:
        yield
    finally:
        del generator.words, generator.words64


def _stack_results(
    func: Callable, results: list, out_dims: Any, empty: bool = False, mapped: Any = None
) -> Any:
    name = _name(func)
    flat = [pytree.flatten(r) for r in results]
    spec = flat[0][1]
    dims = pytree.broadcast_prefix(out_dims, spec)
    if dims is None:
        raise ValueError(
            f"vmap({name}, ...): out_dims is not compatible with the structure of `outputs`. "
            f"out_dims has structure {pytree.spec_repr(pytree.flatten(out_dims)[1])} but "
            f"outputs has structure {pytree.spec_repr(spec)}."
        )
    stacked = []
    for i, dim in enumerate(dims):
        values = [leaves[i] for leaves, _ in flat]
        same = (
            mapped.passed_through(values, dim) if mapped is not None and dim is not None else None
        )
        stacked.append(same if same is not None else _stack_leaf(name, values, dim, empty))
    return pytree.unflatten(stacked, spec)


def _stack_leaf(name: str, values: list, dim: Any, empty: bool) -> Any:
    if dim is None:
        first = values[0]
        if isinstance(first, Tensor) and any(
            v is not first and not (v.shape == first.shape and bool((v == first).all()))
            for v in values[1:]
        ):
            raise ValueError(
                f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None"
            )
        return first
    for v in values:
        if not isinstance(v, Tensor):
            raise ValueError(
                f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(v)}. "
                "Did you mean to set out_dims= to None for output?"
            )
    if empty:  # no element: the stacked shape with 0 at `dim`
        return stack(values, dim=dim).narrow(dim, 0, 0)
    return stack(values, dim=dim)
