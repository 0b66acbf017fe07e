# functools.lru_cache and cache: hits, misses, eviction, cache_clear, methods.
import functools

import torch


@functools.cache
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(80), fib.cache_info())
fib.cache_clear()
print(fib.cache_info())


@functools.lru_cache(maxsize=2)
def square(n):
    print("computing", n)
    return n * n


for n in [1, 2, 1, 3, 2, 1]:
    square(n)
info = square.cache_info()
print(info, info.hits, info.misses, info.maxsize, info.currsize)
print(info._asdict())


@functools.cache
def basis(k):
    return torch.arange(4.0) ** k


print(basis(2), basis(2) is basis(2), basis.cache_info().hits)


@functools.lru_cache
def typed_default(x):
    return repr(x)


print(typed_default(1), typed_default(1.0), typed_default.cache_info())


@functools.lru_cache(maxsize=8, typed=True)
def typed(x):
    return repr(x)


print(typed(1), typed(1.0), typed.cache_info())


class Model:
    def __init__(self, scale):
        self.scale = scale

    @functools.lru_cache(maxsize=16)  # noqa: B019
    def weight(self, n):
        return torch.full((n,), float(self.scale))


m = Model(3)
print(m.weight(2), m.weight(2) is m.weight(2))
try:
    fib([1])
except TypeError as error:
    print("TypeError:", error)
