"""`itertools` for scripts: subclasses of CPython's iterators that record how deep they are
nested over each other (as the script's `map`/`zip` do, `lang/sandbox/nesting.py`), check for interrupts
where they may never end (`count`, `cycle`, `repeat`, the combinatorics), and refuse sizes past
the element cap where they materialise (`repeat` counts, `product` pools, `r` of the
combinatorics, `batched`)."""

from __future__ import annotations

import itertools as _itertools
from collections.abc import Callable
from typing import Any

from autodiff_cli.lang import limits
from autodiff_cli.lang.sandbox import builtin_methods, nesting, typeview

# `chain.from_iterable` finds its inner iterators lazily (their depth is unknown when it is made):
# its Python-level `__next__` counts how many of them are active inside each other.
MAX_ACTIVE_LAZY = 8


class _Active:
    depth = 0


def _register(cls: type, name: str) -> type:
    cls.__module__ = "itertools"
    cls.__name__ = cls.__qualname__ = name
    typeview.register_iterator_class(cls)
    return cls


def _tracked(base: type, name: str, sources: Callable[[tuple, dict], list], *,
             check: Callable[[tuple, dict], None] | None = None,
             endless: bool = False) -> type:  # fmt: skip
    """A subclass of the itertools class `base` recording its depth over `sources(args,
    kwargs)`; `check` refuses bad sizes first; `endless`: `__next__` checks for interrupts."""

    def __new__(cls: type, *args: Any, **kwargs: Any) -> Any:
        depth = nesting.nested_depth(sources(args, kwargs))
        if check is not None:
            check(args, kwargs)
        self = base.__new__(cls, *args, **kwargs)
        self._depth = depth
        return self

    body: dict[str, Any] = {"__slots__": ("_depth",), "__new__": __new__}
    if endless:
        base_next = base.__next__
        interrupt = limits.Interrupt

        def __next__(self: Any) -> Any:
            if interrupt.pending is not None:
                limits.raise_interrupt()
            return base_next(self)

        body["__next__"] = __next__
    return _register(type(name, (base,), body), name)


def _first(args: tuple, kwargs: dict) -> list:
    return list(args[:1]) + [kwargs[k] for k in ("iterable",) if k in kwargs]


def _second(args: tuple, kwargs: dict) -> list:
    return list(args[1:2]) + [kwargs[k] for k in ("iterable", "selectors") if k in kwargs]


def _all(args: tuple, kwargs: dict) -> list:
    return [*args, *kwargs.values()]


def _none(args: tuple, kwargs: dict) -> list:
    return []


def _check_times(args: tuple, kwargs: dict) -> None:
    times = args[1] if len(args) > 1 else kwargs.get("times")
    if isinstance(times, int):
        limits.check_length(int(times), "repeat()")


count = _tracked(_itertools.count, "count", _none, endless=True)
cycle = _tracked(_itertools.cycle, "cycle", _first, endless=True)
repeat = _tracked(_itertools.repeat, "repeat", _none, check=_check_times, endless=True)


compress = _tracked(_itertools.compress, "compress", lambda a, k: [*a[:2], *k.values()])
dropwhile = _tracked(_itertools.dropwhile, "dropwhile", _second)
takewhile = _tracked(_itertools.takewhile, "takewhile", _second)
filterfalse = _tracked(_itertools.filterfalse, "filterfalse", _second)
islice = _tracked(_itertools.islice, "islice", _first)
starmap = _tracked(_itertools.starmap, "starmap", _second)
zip_longest = _tracked(_itertools.zip_longest, "zip_longest", lambda a, k: list(a))
pairwise = _tracked(_itertools.pairwise, "pairwise", _first)
_accumulate = _tracked(_itertools.accumulate, "accumulate", _first)


def _checked_add(left: Any, right: Any) -> Any:
    limits.check_concatenation(left, right)
    return limits.check_sequence_result(left + right)


def accumulate(iterable: Any, func: Any = None, *, initial: Any = None) -> Any:
    """`itertools.accumulate`; its default `+` has the size checks of the script's `+`."""
    return _accumulate(iterable, _checked_add if func is None else func, initial=initial)


# ---- chain: chain.from_iterable finds its iterators lazily -----------------------------------

_chain_base = _tracked(_itertools.chain, "chain", _all)


class _FromIterable:
    """`chain.from_iterable(iterables)`: reads each inner iterable from a Python `__next__`
    (counted in `_Active`), so lazily found iterators cannot nest without bound."""

    __slots__ = ("_depth", "_outer", "_inner")

    def __init__(self, iterables: Any) -> None:
        self._depth = nesting.nested_depth([iterables])
        self._outer = iter(iterables)
        self._inner: Any = None

    def __iter__(self) -> Any:
        return self

    def __next__(self) -> Any:
        active = _Active.depth
        if active >= MAX_ACTIVE_LAZY:
            raise RecursionError("chain.from_iterable() nested too deep")
        _Active.depth = active + 1
        try:
            while True:
                if self._inner is None:
                    self._inner = iter(next(self._outer))
                try:
                    return next(self._inner)
                except StopIteration:
                    self._inner = None
        finally:
            _Active.depth = active


_register(_FromIterable, "chain")


class chain(_chain_base):  # noqa: N801 - the name scripts see
    __slots__ = ()

    @classmethod
    def from_iterable(cls, iterable: Any) -> Any:
        return _FromIterable(iterable)


_register(chain, "chain")
builtin_methods.allow_methods(chain, frozenset({"from_iterable"}))  # `chain.from_iterable`


# ---- groupby and tee: the iterators they hand out are tracked too -----------------------------


class _Group:
    """One group of `groupby`, or one of `tee`'s iterators: forwards to the real one, with the
    depth of its source."""

    __slots__ = ("_depth", "_items")

    def __init__(self, items: Any, depth: int) -> None:
        self._items = items
        self._depth = depth

    def __iter__(self) -> Any:
        return self

    def __next__(self) -> Any:
        return next(self._items)


_register(_Group, "_grouper")
_groupby_base = _tracked(_itertools.groupby, "groupby", _first)


class groupby(_groupby_base):  # noqa: N801 - the name scripts see
    __slots__ = ()

    def __next__(self) -> Any:
        key, group = _groupby_base.__next__(self)
        return key, _Group(group, nesting.nested_depth([self]))


_register(groupby, "groupby")


class _Tee(_Group):
    __slots__ = ()


_register(_Tee, "_tee")


def tee(iterable: Any, n: int = 2, /) -> tuple:
    """`itertools.tee`: `n` tracked iterators over one source."""
    if isinstance(n, int):
        limits.check_length(int(n), "tee()")
    depth = nesting.nested_depth([iterable])
    return tuple(_Tee(item, depth) for item in _itertools.tee(iterable, n))


# ---- combinatorics: pools are materialised, bounded ------------------------------------------


def _pool(iterable: Any, what: str) -> tuple:
    """`tuple(iterable)`, refused past the element cap, checking for interrupts as it reads."""
    if isinstance(iterable, (list, tuple, str, bytes, range, dict, set, frozenset)):
        limits.check_length(len(iterable), what)
        return tuple(iterable)
    cap = limits.max_elements()
    items = []
    interrupt = limits.Interrupt
    for item in iterable:
        if interrupt.pending is not None:
            limits.raise_interrupt()
        items.append(item)
        if len(items) > cap:
            limits.check_length(len(items), what)
    return tuple(items)


def _combinatoric(base: type, name: str) -> type:
    return _tracked(base, name, _none, endless=True)


_product = _combinatoric(_itertools.product, "product")
_permutations = _combinatoric(_itertools.permutations, "permutations")
_combinations = _combinatoric(_itertools.combinations, "combinations")
_with_replacement = _combinatoric(
    _itertools.combinations_with_replacement, "combinations_with_replacement"
)


def product(*iterables: Any, repeat: Any = 1) -> Any:  # noqa: A002 - Python's name
    """`itertools.product`: the pools (times `repeat`) are refused past the element cap."""
    pools = [_pool(iterable, "product() pool") for iterable in iterables]
    if isinstance(repeat, int):
        limits.check_length(sum(len(pool) for pool in pools) * max(int(repeat), 0), "product()")
        limits.check_length(len(pools) * max(int(repeat), 0), "product() result")
    return _product(*pools, repeat=repeat)


def _check_r(r: Any, what: str) -> None:
    if isinstance(r, int):
        limits.check_length(int(r), what)


def permutations(iterable: Any, r: Any = None) -> Any:
    pool = _pool(iterable, "permutations() pool")
    _check_r(r, "permutations()")
    return _permutations(pool, r)


def combinations(iterable: Any, r: Any) -> Any:
    pool = _pool(iterable, "combinations() pool")
    _check_r(r, "combinations()")
    return _combinations(pool, r)


def combinations_with_replacement(iterable: Any, r: Any) -> Any:
    pool = _pool(iterable, "combinations_with_replacement() pool")
    _check_r(r, "combinations_with_replacement()")
    return _with_replacement(pool, r)


class batched:  # noqa: N801 - the name scripts see
    """`itertools.batched` (Python 3.12): tuples of `n` items, the last one shorter."""

    __slots__ = ("_depth", "_items", "_n")

    def __init__(self, iterable: Any, n: Any) -> None:
        if not isinstance(n, int):
            raise TypeError(f"'{type(n).__name__}' object cannot be interpreted as an integer")
        if n < 1:
            raise ValueError("n must be at least one")
        limits.check_length(int(n), "batched()")
        self._depth = nesting.nested_depth([iterable])
        self._items = iter(iterable)
        self._n = int(n)

    def __iter__(self) -> Any:
        return self

    def __next__(self) -> tuple:
        batch = tuple(_itertools.islice(self._items, self._n))
        if not batch:
            raise StopIteration
        return batch


_register(batched, "batched")

_NAMES = (
    "count cycle repeat accumulate chain compress dropwhile takewhile filterfalse groupby islice "
    "starmap tee zip_longest product permutations combinations combinations_with_replacement "
    "pairwise batched"
).split()


def make_module(namespace: Any) -> dict[str, Any]:
    return {name: globals()[name] for name in _NAMES}
