"""`np.random` in scripts: numpy's own random streams, one state per script.

The legacy functions (`seed`, `rand`, `randn`, `randint`, `random`, `normal`, `uniform`,
`choice`, `shuffle`, `permutation`) draw from a `RandomState` of the script's own, so a seed
gives numpy's numbers; `default_rng(seed)` gives a `Generator` wrapper (PCG64, as numpy's).
Sizes are checked against the element cap; results are wrapped (`numpy_types.wrap`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from autodiff_cli.lang.sandbox import capabilities, typeview
from autodiff_cli.lang.sandbox import numpy_types as nt
from autodiff_cli.lang.sandbox.numpy_types import boundary, to_raw, wrap


def _size(size: Any) -> Any:
    if size is None:
        return None
    return nt.shape_of(size)


def _dims(dims: tuple) -> tuple:
    shape = tuple(nt.index(d) for d in dims)
    if any(d < 0 for d in shape):
        raise ValueError("negative dimensions are not allowed")
    nt.check_count(math.prod(shape), shape)
    return shape


def _parameters(size: Any, *values: Any) -> list[Any]:
    """Array parameters of a draw (`loc`, `scale`...): without `size`, one number is drawn per
    element of their broadcast, which may be far larger than any of them."""
    raws = [to_raw(value) for value in values]
    if size is None:
        nt.check_broadcast(*(np.shape(raw) for raw in raws))
    return raws


def _seed(seed: Any) -> Any:
    if seed is None:
        return None
    if isinstance(seed, (list, tuple)):
        return [nt.index(s) for s in seed]
    return nt.index(seed)


def _choice_pool(a: Any, whole: bool = True) -> Any:
    """`a` of choice/permutation: an int n (checked against the cap when numpy draws a whole
    permutation of range(n)) or an array."""
    if isinstance(a, (int, nt.Scalar)) and not isinstance(a, bool):
        count = nt.index(a)
        if whole:
            nt.check_count(count, (count,))
        return count
    return to_raw(a)


def _probabilities(p: Any) -> Any:
    return None if p is None else to_raw(p)


class RandomState:
    """`np.random.RandomState(seed)`, and the functions of a script's `np.random` (bound to a
    RandomState of its own)."""

    __slots__ = ("_state",)

    def __init__(self, seed: Any = None) -> None:
        self._state = np.random.RandomState(_seed(seed))

    def __str__(self) -> str:
        return "RandomState(MT19937)"

    def __repr__(self) -> str:
        return f"RandomState(MT19937) at 0x{id(self):X}"

    @boundary
    def seed(self, seed: Any = None) -> None:
        self._state.seed(_seed(seed))

    @boundary
    def rand(self, *dims: Any) -> Any:
        return wrap(self._state.rand(*_dims(dims)))

    @boundary
    def randn(self, *dims: Any) -> Any:
        return wrap(self._state.randn(*_dims(dims)))

    @boundary
    def randint(self, low: Any, high: Any = None, size: Any = None, dtype: Any = int) -> Any:
        high = None if high is None else nt.index(high)
        kind = nt.dtype_of(dtype)
        return wrap(self._state.randint(nt.index(low), high, size=_size(size), dtype=kind))

    @boundary
    def random(self, size: Any = None) -> Any:
        return wrap(self._state.random_sample(_size(size)))

    @boundary
    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        return wrap(self._state.normal(*_parameters(size, loc, scale), _size(size)))

    @boundary
    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Any:
        return wrap(self._state.uniform(*_parameters(size, low, high), _size(size)))

    @boundary
    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
        pool = _choice_pool(a, whole=not replace or p is not None)
        return wrap(self._state.choice(pool, _size(size), bool(replace), _probabilities(p)))

    @boundary
    def shuffle(self, x: Any) -> None:
        if type(x) is not nt.NdArray:
            raise TypeError("shuffle() in scripts takes a numpy array")
        self._state.shuffle(x._held)

    @boundary
    def permutation(self, x: Any) -> Any:
        return wrap(self._state.permutation(_choice_pool(x)))


class Generator:
    """`np.random.default_rng(seed)`: numpy's Generator (PCG64) behind a wrapper."""

    __slots__ = ("_g",)

    def __init__(self, generator: np.random.Generator) -> None:
        self._g = generator

    def __str__(self) -> str:
        return "Generator(PCG64)"

    def __repr__(self) -> str:
        return f"Generator(PCG64) at 0x{id(self):X}"

    @boundary
    def random(self, size: Any = None, dtype: Any = None) -> Any:
        return wrap(self._g.random(_size(size), dtype=nt.dtype_of(dtype) or np.float64))

    @boundary
    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        return wrap(self._g.normal(*_parameters(size, loc, scale), _size(size)))

    @boundary
    def standard_normal(self, size: Any = None, dtype: Any = None) -> Any:
        return wrap(self._g.standard_normal(_size(size), dtype=nt.dtype_of(dtype) or np.float64))

    @boundary
    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Any:
        return wrap(self._g.uniform(*_parameters(size, low, high), _size(size)))

    @boundary
    def integers(
        self,
        low: Any,
        high: Any = None,
        size: Any = None,
        dtype: Any = None,
        endpoint: bool = False,
    ) -> Any:
        high = None if high is None else nt.index(high)
        kind = nt.dtype_of(dtype) or np.int64
        return wrap(
            self._g.integers(nt.index(low), high, _size(size), dtype=kind, endpoint=bool(endpoint))
        )

    @boundary
    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
        pool = _choice_pool(a, whole=not replace or p is not None)
        return wrap(self._g.choice(pool, _size(size), bool(replace), _probabilities(p)))

    @boundary
    def permutation(self, x: Any) -> Any:
        return wrap(self._g.permutation(_choice_pool(x)))

    @boundary
    def shuffle(self, x: Any) -> None:
        if type(x) is not nt.NdArray:
            raise TypeError("shuffle() in scripts takes a numpy array")
        self._g.shuffle(x._held)


Generator.__module__ = "numpy.random"


@boundary
def default_rng(seed: Any = None) -> Generator:
    return Generator(np.random.default_rng(_seed(seed)))


_LEGACY = "seed rand randn randint random normal uniform choice shuffle permutation"


@boundary
def random_state(seed: Any = None) -> RandomState:
    return RandomState(seed)


random_state.__name__ = random_state.__qualname__ = "RandomState"
RandomState.__module__ = "numpy.random"


def random_module() -> capabilities.ModuleProxy:
    """A fresh `np.random` for one script."""
    legacy = RandomState()
    attributes: dict[str, Any] = {name: getattr(legacy, name) for name in _LEGACY.split()}
    attributes["random_sample"] = attributes["random"]
    attributes["default_rng"] = default_rng
    attributes["RandomState"] = random_state
    return capabilities.ModuleProxy("numpy.random", attributes)


typeview.register_wrapper_class(Generator)
typeview.register_wrapper_class(RandomState)
