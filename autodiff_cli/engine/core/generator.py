"""`torch.Generator` for the CPU: a Mersenne Twister (MT19937) giving the numbers PyTorch gives.

The bit stream is the classic MT19937 (Matsumoto and Nishimura's published algorithm, here in
vectorised numpy: a twist in three slices, tempering over whole blocks) seeded by `init_genrand`
with the seed's low 32 bits. How the 32-bit words become values was read off PyTorch's outputs
(recorded in tests/rng_goldens.json):

- a float32 uniform takes one word, its low 24 bits / 2**24; a float64 uniform one 64-bit value
  (first word high, second low), its low 53 bits / 2**53; `uniform_(a, b)` is `fma(u, b - a, a)`
  in the tensor's dtype.
- normals: a tensor of 16 or more contiguous elements is filled with uniforms in its dtype, then
  each block of 16 becomes 8 Box-Muller pairs (`u1 = 1 - u[i]`, `u2 = u[i + 8]`, the cosine
  in slot i, the sine in slot i + 8); when 16 does not divide the size, the last 16 slots are
  redrawn from 16 fresh uniforms. Fewer elements (or a non-contiguous tensor) take float64
  normals one by one: two float64 uniforms give `r = sqrt(-2 log(1 - u2))`, `cos(2 pi u1) r`,
  and the sine is kept for the next draw (reset by `manual_seed`).
- integers in [low, high): `low + word % (high - low)`, a 64-bit value when the range is 2**32 or
  more; `randperm` swaps element i with i + word % (n - i).
- bernoulli(p): a float64 uniform < p (a float32 one for a float32 probability tensor);
  exponential: `log1p(-u) * (-1 / lambd)` with float64 uniforms.

Plain numpy, vectorised: no Python loop per element except `randperm`'s swaps.
"""

from __future__ import annotations

import math
import os
import sys
import time
from typing import Any

import numpy as np

from .devices import CPU
from .tensor import Tensor, _wrap

DEFAULT_SEED = 67280421310721  # the seed of a new torch.Generator
STATE_SIZE = 5056  # bytes of PyTorch's CPU generator state
_N = 624
_U64 = np.uint64
_MASK24 = _U64(0xFFFFFF)
_MASK53 = _U64((1 << 53) - 1)
_TWO_PI = 2.0 * math.pi
_VECTOR_MIN = 16  # normals are made 16 at a time from this many elements on
_LIBM_MAX = 1 << 16  # float64 logs/sines up to this many values from libm (PyTorch's last bits)


def _libm(array: np.ndarray, numpy_function: Any, math_function: Any) -> np.ndarray:
    """A float64 function through the C library's `math` (as PyTorch's kernels call it) for
    small arrays, numpy's own (equal up to the last bit, faster) beyond."""
    if array.size > _LIBM_MAX:
        return numpy_function(array)
    flat = np.fromiter(map(math_function, array.ravel().tolist()), np.float64, array.size)
    return flat.reshape(array.shape)


def seed_key(seed: int) -> np.ndarray:
    """MT19937's `init_genrand` key for a 32-bit seed."""
    key = np.empty(_N, np.uint32)
    value = seed & 0xFFFFFFFF
    key[0] = value
    for i in range(1, _N):
        value = (1812433253 * (value ^ (value >> 30)) + i) & 0xFFFFFFFF
        key[i] = value
    return key


_UPPER, _LOWER, _MATRIX_A = np.uint32(0x80000000), np.uint32(0x7FFFFFFF), np.uint32(0x9908B0DF)
_M = 397


def _mix(current: np.ndarray, following: np.ndarray, far: np.ndarray) -> np.ndarray:
    y = (current & _UPPER) | (following & _LOWER)
    return far ^ (y >> np.uint32(1)) ^ ((y & np.uint32(1)) * _MATRIX_A)


def twist(key: np.ndarray) -> np.ndarray:
    """The next 624 words of MT19937's state. Word i mixes words i and i + 1 with word i + 397,
    already new for i >= 227: three slices, each reading only words made before it."""
    new = np.empty(_N, np.uint32)
    split = _N - _M  # 227
    new[:split] = _mix(key[:split], key[1 : split + 1], key[_M:])
    new[split : 2 * split] = _mix(
        key[split : 2 * split], key[split + 1 : 2 * split + 1], new[:split]
    )
    end = _N - 1
    new[2 * split : end] = _mix(
        key[2 * split : end], key[2 * split + 1 :], new[split : end - split]
    )
    new[end:] = _mix(key[end:], new[:1], new[end - split : end - split + 1])
    return new


def temper(words: np.ndarray) -> np.ndarray:
    y = words.astype(np.uint32)
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


_NUMPY_FROM = 4096  # words: longer runs come from numpy's MT19937 when it is loaded
_numpy_bits: list = []


def _numpy_bit_generator() -> Any:
    if not _numpy_bits:
        _numpy_bits.append(sys.modules["numpy.random"].MT19937(0))
    return _numpy_bits[0]


def _normalise_seed(seed: Any) -> int:
    """The seed as PyTorch keeps it: an int in [-2**63, 2**64) taken modulo 2**64."""
    value = int(seed)
    if not -(1 << 63) <= value < (1 << 64):
        raise ValueError("Overflow when unpacking long long")
    return value & 0xFFFFFFFFFFFFFFFF


def _fresh_seed(generator: Generator) -> int:
    """A non-deterministic 64-bit seed: the OS's random bytes (mixed with the time and the
    process, should the OS have none to give)."""
    try:
        return int.from_bytes(os.urandom(8), "little")
    except OSError:
        mixed = (time.time_ns() * 0x9E3779B97F4A7C15 + os.getpid() + id(generator)) & (2**64 - 1)
        return mixed ^ (mixed >> 29)


class Generator:
    """`torch.Generator(device='cpu')`: its own stream, seeded with `manual_seed`."""

    def __init__(self, device: Any = "cpu") -> None:
        kind = getattr(device, "type", device)
        if kind not in ("cpu", None):
            raise RuntimeError(f"Device type {str(kind).upper()} is not supported by this build")
        self._seed: int | None = DEFAULT_SEED  # None: a fresh seed is drawn on first use
        self._key: np.ndarray | None = None  # MT19937's 624 words, made on first draw
        self._pos = _N  # the next word to temper (624: twist first)
        self._normal: float | None = None  # the sine half of the last Box-Muller pair

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {id(self):#x}>"

    @property
    def device(self) -> Any:
        return CPU

    def manual_seed(self, seed: Any) -> Generator:
        self._seed = _normalise_seed(seed)
        self._key = None
        self._pos = _N
        self._normal = None
        return self

    def initial_seed(self) -> int:
        return self._current_seed()

    def seed(self) -> int:
        """Seeds with a non-deterministic 64-bit number and returns it."""
        self.manual_seed(_fresh_seed(self))
        return self._current_seed()

    def seed_on_first_use(self) -> None:
        """Forget the seed: the next draw (or `initial_seed`, `get_state`) seeds with a fresh
        non-deterministic number, as PyTorch's default generator is seeded in each new process
        (so a process forked from a warm parent never repeats another's numbers)."""
        self.manual_seed(0)
        self._seed = None

    def _current_seed(self) -> int:
        if self._seed is None:
            self._seed = _fresh_seed(self)
        return self._seed

    # -- the bit stream -----------------------------------------------------------------------
    def _state(self) -> np.ndarray:
        if self._key is None:
            self._key = seed_key(self._current_seed())
        return self._key

    def words(self, n: int) -> np.ndarray:
        """The next `n` 32-bit outputs (as uint64)."""
        if n > _NUMPY_FROM and "numpy.random" in sys.modules:
            return self._numpy_words(n)
        key, pos = self._state(), self._pos
        parts = [key[pos : pos + n]]
        got = len(parts[0])
        pos += got
        while got < n:
            key = twist(key)
            pos = min(n - got, _N)
            parts.append(key[:pos])
            got += pos
        self._key, self._pos = key, pos
        return temper(parts[0] if len(parts) == 1 else np.concatenate(parts)).astype(np.uint64)

    def _numpy_words(self, n: int) -> np.ndarray:
        """The same words from numpy's MT19937 (C, ~30x faster on long runs), when a process
        has numpy.random loaded already (the CLI loads it before a script that draws)."""
        bits = _numpy_bit_generator()
        state = {"key": self._state(), "pos": self._pos}
        bits.state = {"bit_generator": "MT19937", "state": state}
        out = bits.random_raw(n)
        state = bits.state["state"]
        self._key, self._pos = state["key"].astype(np.uint32), int(state["pos"])
        return out

    def words64(self, n: int) -> np.ndarray:
        """The next `n` 64-bit outputs: two words each, the first one high."""
        raw = self.words(2 * n)
        return (raw[0::2] << _U64(32)) | raw[1::2]

    # -- state --------------------------------------------------------------------------------
    def get_state(self) -> Any:
        return _wrap(self._state_bytes())

    def set_state(self, new_state: Any) -> Generator:
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        data = new_state._data
        if data.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if data.size != STATE_SIZE:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {STATE_SIZE} but found the input RNG "
                f"state size to be {data.size}"
            )
        self._load_state_bytes(np.ascontiguousarray(data).reshape(-1))
        return self

    def _state_bytes(self) -> np.ndarray:
        out = np.zeros(STATE_SIZE, np.uint8)
        key, pos = self._state(), self._pos
        fresh = pos == _N and np.array_equal(key, seed_key(self._current_seed()))
        next_index = 0 if fresh else pos
        out[0:8] = np.frombuffer(np.uint64(self._current_seed()).tobytes(), np.uint8)
        out[8:16] = np.frombuffer(np.array([_N + 1 - pos, 1], np.int32).tobytes(), np.uint8)
        out[16:24] = np.frombuffer(np.uint64(next_index).tobytes(), np.uint8)
        out[24:5016] = np.frombuffer(np.asarray(key, np.uint64).tobytes(), np.uint8)
        if self._normal is not None:
            out[5024:5032] = np.frombuffer(np.float64(self._normal).tobytes(), np.uint8)
            out[5040] = 1
        return out

    def _load_state_bytes(self, data: np.ndarray) -> None:
        self._seed = int(data[0:8].view(np.uint64)[0])
        left = int(data[8:12].view(np.int32)[0])
        key = data[24:5016].view(np.uint64).astype(np.uint32)
        self._key, self._pos = key, min(max(_N + 1 - left, 0), _N)
        valid = int(data[5040:5044].view(np.int32)[0])
        self._normal = float(data[5024:5032].view(np.float64)[0]) if valid else None


# -- values -----------------------------------------------------------------------------------


def uniform01(gen: Generator, n: int, dtype: np.dtype) -> np.ndarray:
    """`n` uniforms in [0, 1): float32 from 24 bits of a word, float64 from 53 bits of two."""
    if dtype == np.float64:
        return (gen.words64(n) & _MASK53).astype(np.float64) * 2.0**-53
    return ((gen.words(n) & _MASK24).astype(np.float32) * np.float32(2.0**-24)).astype(dtype)


def fma(a: np.ndarray, b: Any, c: Any, dtype: np.dtype) -> np.ndarray:
    """`a * b + c` rounded once, in `dtype` (float32 through float64; float64 by error-free
    transformations)."""
    if dtype != np.float64:
        wide = a.astype(np.float64) * np.float64(np.asarray(b, dtype)) + np.float64(
            np.asarray(c, dtype)
        )
        return wide.astype(dtype)
    a = a.astype(np.float64)
    b, c = np.float64(b), np.float64(c)
    product = a * b
    split = 134217729.0  # 2**27 + 1: Dekker's split of a double into two halves
    ah = a * split
    ah = ah - (ah - a)
    al = a - ah
    bh = b * split
    bh = bh - (bh - b)
    bl = b - bh
    product_error = ((ah * bh - product) + ah * bl + al * bh) + al * bl
    total = product + c
    virtual = total - product
    sum_error = (product - (total - virtual)) + (c - virtual)
    return total + (sum_error + product_error)


def uniform(gen: Generator, n: int, dtype: np.dtype, low: float, high: float) -> np.ndarray:
    """`uniform_(low, high)`: `fma(u, high - low, low)` in `dtype`."""
    u = uniform01(gen, n, dtype)
    if low == 0.0 and high == 1.0:
        return u
    lo, hi = np.asarray(low, dtype), np.asarray(high, dtype)
    return fma(u, (hi - lo).astype(dtype), lo, dtype).astype(dtype)


def _normal_pairs(u: np.ndarray) -> np.ndarray:
    """Blocks of 16 uniforms (rows) -> 16 normals each, in the uniforms' dtype."""
    one, two_pi = u.dtype.type(1.0), u.dtype.type(_TWO_PI)
    if u.dtype == np.float64:
        radius = np.sqrt(-2.0 * _libm(1.0 - u[:, :8], np.log, math.log))
        theta = two_pi * u[:, 8:]
        cos, sin = _libm(theta, np.cos, math.cos), _libm(theta, np.sin, math.sin)
        return np.concatenate([radius * cos, radius * sin], axis=1)
    radius = np.sqrt(u.dtype.type(-2.0) * np.log(one - u[:, :8]))
    theta = two_pi * u[:, 8:]
    return np.concatenate([radius * np.cos(theta), radius * np.sin(theta)], axis=1)


def _normals_scalar(gen: Generator, n: int) -> np.ndarray:
    """`n` float64 normals one at a time, each pair's sine kept for the next draw."""
    out = np.empty(n, np.float64)
    start = 0
    if n and gen._normal is not None:
        out[0], gen._normal, start = gen._normal, None, 1
    pairs = (n - start + 1) // 2
    if pairs:
        u = uniform01(gen, 2 * pairs, np.float64)
        radius = np.sqrt(-2.0 * _libm(-u[1::2], np.log1p, math.log1p))
        theta = _TWO_PI * u[0::2]
        both = np.empty(2 * pairs)
        both[0::2] = radius * _libm(theta, np.cos, math.cos)
        both[1::2] = radius * _libm(theta, np.sin, math.sin)
        out[start:] = both[: n - start]
        if (n - start) % 2:
            gen._normal = float(both[-1])
    return out


def normal(
    gen: Generator, n: int, dtype: np.dtype, mean: float, std: float, contiguous: bool = True
) -> np.ndarray:
    """`normal_(mean, std)` over `n` elements of `dtype` in memory order."""
    if n < _VECTOR_MIN or not contiguous:
        return fma(_normals_scalar(gen, n), std, mean, np.float64).astype(dtype)
    work = np.float64 if dtype == np.float64 else np.float32
    u = uniform01(gen, n, work)
    blocks = n // 16
    out = np.empty(n, work)
    out[: blocks * 16] = _normal_pairs(u[: blocks * 16].reshape(blocks, 16)).reshape(-1)
    if n % 16:
        out[n - 16 :] = _normal_pairs(uniform01(gen, 16, work).reshape(1, 16)).reshape(-1)
    if mean == 0.0 and std == 1.0:
        return out.astype(dtype)
    return fma(out, std, mean, work).astype(dtype)


def integers(gen: Generator, n: int, low: int, high: int) -> np.ndarray:
    """`n` integers in [low, high) as int64."""
    span = high - low
    raw = gen.words64(n) if span >= 1 << 32 else gen.words(n)
    return (raw % _U64(span)).astype(np.int64) + np.int64(low)


def permutation(gen: Generator, n: int) -> np.ndarray:
    """`randperm(n)`: a Fisher-Yates shuffle of 0..n-1."""
    out = np.arange(n, dtype=np.int64)
    if n < 2:
        return out
    offsets = (gen.words(n - 1) % np.arange(n, 1, -1, dtype=np.uint64)).astype(np.int64)
    targets = (offsets + np.arange(n - 1)).tolist()
    values = out.tolist()
    for i, j in enumerate(targets):
        values[i], values[j] = values[j], values[i]
    return np.array(values, np.int64)


def bernoulli(gen: Generator, p: Any, n: int, dtype: np.dtype = np.float64) -> np.ndarray:
    """`n` draws of u < p (bool), with uniforms of `dtype`; `p` a float or an array of n."""
    return uniform01(gen, n, dtype) < p


def exponential(gen: Generator, n: int, dtype: np.dtype, lambd: float) -> np.ndarray:
    """`exponential_(lambd)`: `log1p(-u) * (-1 / lambd)` from float64 uniforms."""
    values = _libm(-uniform01(gen, n, np.float64), np.log1p, math.log1p)
    return (values * (-1.0 / lambd)).astype(dtype)


def log_normal(gen: Generator, n: int, dtype: np.dtype, mean: float, std: float) -> np.ndarray:
    """`log_normal_(mean, std)`: `exp(mean + std z)` from the one-at-a-time float64 normals."""
    z = fma(_normals_scalar(gen, n), std, mean, np.float64)
    return _libm(z, np.exp, math.exp).astype(dtype)


def cauchy(gen: Generator, n: int, dtype: np.dtype, median: float, sigma: float) -> np.ndarray:
    """`cauchy_(median, sigma)`: `median + sigma tan(pi (u - 1/2))`, float64 uniforms."""
    angle = math.pi * (uniform01(gen, n, np.float64) - 0.5)
    return (median + sigma * _libm(angle, np.tan, math.tan)).astype(dtype)


def geometric(gen: Generator, n: int, dtype: np.dtype, p: float) -> np.ndarray:
    """`geometric_(p)`: `ceil(log(u) / log1p(-p))`, float64 uniforms."""
    logs = _libm(uniform01(gen, n, np.float64), np.log, math.log)
    return np.ceil(logs / math.log1p(-p)).astype(dtype)


def fill_order(shape: tuple, strides: tuple) -> tuple[tuple, tuple]:
    """The axes order (outermost first) in which an array with these strides is laid out in
    memory, and the shape in that order: random fills follow memory, not index, order."""
    axes = tuple(sorted(range(len(shape)), key=lambda a: (-abs(strides[a]), a)))
    return axes, tuple(shape[a] for a in axes)


def in_memory_order(target: np.ndarray, values: np.ndarray) -> np.ndarray:
    """`values` (drawn in memory order, flat) laid out as `target`'s index order."""
    axes, shape = fill_order(target.shape, target.strides)
    return values.reshape(shape).transpose(np.argsort(axes))
