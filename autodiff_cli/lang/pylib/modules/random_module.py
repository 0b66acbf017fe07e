"""`random` for scripts: a generator of the script's own, CPython's Mersenne Twister (the same
seed gives CPython's numbers), with the sizes it allocates bounded."""

from __future__ import annotations

import random as _random
from typing import Any

from autodiff_cli.lang import limits
from autodiff_cli.lang.pylib.modules.registry import register_class

_FUNCTIONS = (
    "random randint uniform choice choices shuffle sample gauss normalvariate seed randrange "
    "getrandbits randbytes triangular betavariate expovariate gammavariate lognormvariate "
    "vonmisesvariate paretovariate weibullvariate getstate setstate"
).split()


def _check_count(count: Any, what: str) -> None:
    if isinstance(count, int):
        limits.check_length(int(count), what)


class Random(_random.Random):
    """`random.Random`; `getrandbits`, `randbytes`, `choices` and `sample` refuse sizes past the
    integer and element limits before allocating."""

    def getrandbits(self, k: Any) -> int:
        if isinstance(k, int):
            limits.check_int_bits(int(k))
        return super().getrandbits(k)

    def randbytes(self, n: Any) -> bytes:
        _check_count(n, "randbytes()")
        return super().randbytes(n)

    def choices(
        self, population: Any, weights: Any = None, *, cum_weights: Any = None, k: Any = 1
    ) -> list:
        _check_count(k, "choices()")
        return super().choices(population, weights, cum_weights=cum_weights, k=k)

    def sample(self, population: Any, k: Any, *, counts: Any = None) -> list:
        _check_count(k, "sample()")
        return super().sample(population, k, counts=counts)


register_class(Random, " ".join(_FUNCTIONS), module="random")


def make_module(namespace: Any) -> dict[str, Any]:
    """The script's `random`: its functions are bound to a generator of its own."""
    generator = Random()
    table: dict[str, Any] = {name: getattr(generator, name) for name in _FUNCTIONS}
    table["Random"] = Random
    return table
