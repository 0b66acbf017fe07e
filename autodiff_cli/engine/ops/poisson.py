"""torch.poisson: counts drawn with the rates in a tensor, from PyTorch's CPU stream
(core/generator.py) with PyTorch's sampler, so that a seed gives PyTorch's numbers: for a rate of
at least 10 Hörmann's transformed rejection (PTRS), below it the product of uniforms; each draw a
53-bit double uniform, the elements in order. Not differentiable: PoissonBackward0 gives zeros."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..core import dtypes
from ..core import generator as stream
from ..core.apply import apply_op
from ..core.optable import defop
from ..core.tensor import Tensor
from .random import _generator, _keep, _zero

__all__ = ["poisson"]

POISSON = defop(
    "poisson", "PoissonBackward0", _keep, _zero, promotes=False, keeps_params=False,
    rules=("0",),
)  # fmt: skip


def _uniforms(gen: Any) -> Any:
    """The sampler's source: one double uniform in [0, 1) per call, as PyTorch draws them."""
    return lambda: float(stream.uniform01(gen, 1, np.float64)[0])


def _ptrs(rate: float, uniform: Any) -> int:
    """Hörmann's transformed rejection with squeeze, PyTorch's constants."""
    slam = math.sqrt(rate)
    loglam = math.log(rate)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = uniform() - 0.5
        v = uniform()
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + rate + 0.43)
        if us >= 0.07 and v <= vr:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= (
            -rate + k * loglam - math.lgamma(k + 1.0)
        ):
            return k


def _product(rate: float, uniform: Any) -> int:
    """Uniforms multiplied until the product falls to exp(-rate) or below: how many it took
    before that."""
    limit = math.exp(-rate)
    count, prod = 0, 1.0
    while True:
        prod *= uniform()
        if prod > limit:
            count += 1
        else:
            return count


def _sample(rate: float, uniform: Any) -> int:
    if rate >= 10:
        return _ptrs(rate, uniform)
    if rate == 0:
        return 0
    return _product(rate, uniform)


def poisson(input: Tensor, generator: Any = None) -> Tensor:
    """One Poisson count per element, with the element as its rate (float dtypes only)."""
    gen = _generator(generator, "poisson")
    rates = np.asarray(input._data)
    if rates.dtype.kind != "f":
        word = dtypes.scalar_name(rates.dtype)
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{word}'")
    flat = rates.reshape(-1).astype(np.float64)
    if (flat < 0).any() or np.isnan(flat).any():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    uniform = _uniforms(gen)
    values = np.array([_sample(float(r), uniform) for r in flat], np.float64)
    return apply_op(POISSON, (input,), {"values": values.reshape(rates.shape).astype(rates.dtype)})
